"""Structures of unread lines (solver/reader/skeleton.py): the kind, cost, timing, target
slots and modes of a line the reader can't model are read into ``Unsupported.structure``,
and nothing else changes — the part stays unsupported, so every query's soundness
(contract §2.0) and every modeled ability are exactly as without it.

Cards are real Oracle texts (solver/data/oracle-cards.json.gz); rules cited per test.
"""
from __future__ import annotations

from dataclasses import replace

import pytest

from mtgsolve.solver import reader
from mtgsolve.solver.cards import CardData, oracle_index
from mtgsolve.solver.core.ir import Filter, Skeleton, TargetSpec, Unsupported
from mtgsolve.solver.reader import read_lines
from mtgsolve.solver.cards.importer import card_data, load_cards
from mtgsolve.solver.rules.soundness.unread import card_parts

CREATURE = frozenset({"Creature"})


def lines_of(name: str):
    return read_lines(CardData.from_mtgjson(oracle_index()[name]))[0]


def line(name: str, start: str):
    hits = [r for r in lines_of(name) if r.clean.startswith(start)]
    assert len(hits) == 1, [r.clean for r in lines_of(name)]
    return hits[0]


def skeleton(name: str, start: str) -> Skeleton:
    r = line(name, start)
    assert r.structured and not r.understood, r
    parts = [p for p in r.parts if isinstance(p, Unsupported)]
    assert len(parts) == 1 and parts[0].structure is not None, parts
    return parts[0].structure


# ---------------------------------------------------------------------------
# What is read
# ---------------------------------------------------------------------------


def test_a_keyword_with_its_parameter_cr_702():
    assert skeleton("Abomination of Gudul", "Morph") == Skeleton("keyword", keyword="morph")  # CR 702.37
    assert skeleton("Abomination of Gudul", "Morph").keyword == "morph"                  # CR 702.37


def test_a_trigger_whose_event_is_not_modeled_cr_603():
    sk = skeleton("Tireless Tracker", "Whenever you sacrifice a Clue")
    assert sk == Skeleton("triggered")  # no target slot; event and effect unread


def test_a_trigger_with_an_intervening_if_and_its_target_cr_603_4():
    sk = skeleton("Circle of the Land Druid", "Natural Recovery")  # a flavor word (CR 207.2d), then the trigger
    assert sk.kind == "triggered"
    assert sk.targets == (TargetSpec(Filter(types=frozenset({"Land"}), who="you", zone="graveyard")),)


def test_a_class_level_is_sorcery_timed_cr_716_2a():
    sk = skeleton("A-Druid Class", "{2}{G}: Level 2")
    assert sk.kind == "activated" and sk.cost is not None and "sorcery; one level at a time" in sk.timing


def test_a_reflexive_triggers_targets_are_slots_of_the_structure_cr_603_12():
    sk = skeleton("Dokuchi Silencer", "Whenever")
    assert sk.kind == "triggered" and len(sk.targets) == 1


def test_x_targets_and_any_number_of_targets_cr_601_2c():
    _, sp = read_lines(CardData.from_mtgjson(oracle_index()["Aether Burst"]))
    assert sp is None  # not modeled: the engine has no variable number of targets
    sk = skeleton("Aether Burst", "Return up to X target creatures")
    assert sk.kind == "spell" and sk.targets[0].variable == "x" and sk.targets[0].filter.types == CREATURE
    sk = skeleton("Arrow Volley Trap", "Arrow Volley Trap deals")
    assert sk.targets[0].variable == "any" and sk.targets[0].divided


def test_a_controller_named_elsewhere_in_the_ability():
    sk = skeleton("Distracting Geist // Clever Distraction", "Whenever this creature attacks")
    assert sk.targets[0].filter.controller_ref == "defending player"


def test_an_additional_cost_item_by_item_cr_601_2f():
    sk = skeleton("A-Cobbled Lancer", "As an additional cost")
    assert sk == Skeleton("cost", keyword="additional cost",
                          cost_items=("exile: a creature card from your graveyard",))


def test_an_alternative_cost_with_a_condition_cr_118_9():
    sk = skeleton("Arrow Volley Trap", "If four or more creatures")
    assert sk == Skeleton("cost", keyword="alternative cost", cost_items=("pay: {1}{W}",))


# ---------------------------------------------------------------------------
# What is not
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("name,start", [
    ("Haywire Mite", "{G}, Sacrifice"),                    # a description the filter can't hold
    ("Aether Hub", "{T}, Pay {E}: Add"),                  # a mana ability: never a structure only
    ("Crown of the Ages", "{4}, {T}: Attach"),            # "attached to a creature": where the description ends
])
def test_what_stays_unstructured(name, start):
    r = line(name, start)
    assert not r.understood and not r.structured
    assert not any(isinstance(p, Unsupported) and p.structure is not None for p in r.parts)


def test_a_graveyard_named_elsewhere_is_a_condition_of_the_structure():
    sk = skeleton("Dwell on the Past", "Target player shuffles")
    assert [t.filter.condition for t in sk.targets] == ["", "from their graveyard"]
    assert sk.targets[1].min == 0 and sk.targets[1].max == 4


def test_abilities_and_color_alternatives_as_targets_in_structures():
    sk = skeleton("Stifle", "Counter target activated or triggered ability")
    assert sk.targets[0].filter.types == frozenset({"Ability"}) and sk.targets[0].filter.condition == \
        "activated or triggered"
    sk = skeleton("Combust", "Combust deals 5 damage to target white or blue creature")
    assert sk.targets[0].filter.condition == "white or blue" and sk.targets[0].filter.types == CREATURE


def test_a_static_ability_never_targets_cr_115_1():
    from mtgsolve.solver.reader.skeleton import line_skeleton
    from mtgsolve.solver.reader.structure import _g
    from mtgsolve.solver.reader.tokens import tokenize

    g = _g()
    with pytest.raises(g.NoMatch):  # a permanent's line with a target is no static ability
        line_skeleton(tokenize("Target creature gets +1/+1 for each Elf you control."), g.LineContext())
    assert line_skeleton(tokenize("Creatures you control get +1/+1."), g.LineContext()) == Skeleton("static")


# ---------------------------------------------------------------------------
# Nothing else changes (soundness and modeled abilities)
# ---------------------------------------------------------------------------


def _plain(lines):
    return [(r.raw, tuple(replace(p, structure=None) if isinstance(p, Unsupported) else p for p in r.parts),
             r.spell_line, r.unread) for r in lines]


def test_structures_change_nothing_but_the_structure_layer(monkeypatch):
    """Over every 7th card of the database: with structures disabled, every line has the same
    parts (structures aside), the same spell behaviour, and the soundness analysis the same
    unread parts with the same affects."""
    from mtgsolve.solver.cards import Card

    cards = load_cards(str(reader.__file__).rsplit("/solver/", 1)[0] + "/solver/data/oracle-cards.json.gz")
    sample = [c for i, c in enumerate(cards) if i % 7 == 0]
    with_sk = []
    for raw in sample:
        data, _ = card_data(raw)
        with_sk.append(read_lines(data))
    reader._read_permanent_line.cache_clear()
    monkeypatch.setattr(reader, "annotate", lambda *a, **k: None)
    monkeypatch.setattr(reader, "spell_line_skeleton", lambda *a, **k: None)
    structured_somewhere = 0
    try:
        for raw, (lines, spell) in zip(sample, with_sk):
            data, _ = card_data(raw)
            lines0, spell0 = read_lines(data)
            assert spell == spell0, data.name
            assert _plain(lines) == _plain(lines0), data.name
            structured_somewhere += any(r.structured and not r0.structured for r, r0 in zip(lines, lines0))
            abilities = tuple(p for r in lines for p in r.parts)
            abilities0 = tuple(p for r in lines0 for p in r.parts)
            card = Card(data, abilities, spell)
            card0 = Card(data, abilities0, spell0)
            assert card_parts(card) == card_parts(card0), data.name
    finally:
        reader._read_permanent_line.cache_clear()
    assert structured_somewhere > len(sample) // 3  # the structures do read many lines


def test_modeled_abilities_never_hold_skeleton_only_target_forms():
    """Variable target counts, controller references and conditions exist only in structures of unread
    parts: the engine's target model has neither (every 5th card of the database)."""
    cards = load_cards(str(reader.__file__).rsplit("/solver/", 1)[0] + "/solver/data/oracle-cards.json.gz")
    for i, raw in enumerate(cards):
        if i % 5:
            continue
        data, _ = card_data(raw)
        lines, spell = read_lines(data)
        specs = [s for r in lines for p in r.parts if not isinstance(p, Unsupported)
                 for s in getattr(p, "targets", ()) or ()]
        specs += list(spell.targets) if spell is not None else []
        for s in specs:
            assert not s.variable and not s.filter.controller_ref and not s.filter.condition, (data.name, s)
            assert "Ability" not in s.filter.types, (data.name, s)
