"""Helper "counters" (issues 26, 27): counterspell riders — "If that spell is countered this way, exile it
instead of putting it into its owner's graveyard." (CR 614.1a, 701.6a) and "Counter target spell with mana
value N [or less | or greater]" (CR 202.3, 115.1) — read by grammar over every card printing them,
checked against tests/reference/counters_ref.py, and sound both ways."""
from __future__ import annotations

import functools
import gzip
import json
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mtgsolve.solver.api import Situation
from mtgsolve.solver.cards import CardData, get_card, read_card
from mtgsolve.solver.io.load import situation_from_dict
from mtgsolve.solver.queries import answer
from tests.reference.counters_ref import counter_targets, countered_zone

_DB = Path(__file__).resolve().parents[1] / "solver/data/oracle-cards.json.gz"


@functools.lru_cache(maxsize=1)
def _database_lines() -> tuple[tuple[str, str], ...]:
    return tuple((c["name"], line) for c in json.load(gzip.open(_DB)) for line in (c.get("text") or "").split("\n"))


def _lines_printing(rx: str) -> list[tuple[str, str]]:
    pat = re.compile(rx, re.I)
    return [(name, line) for name, line in _database_lines() if pat.search(line)]


def _text_card(text: str, types: tuple[str, ...] = ("Instant",), cost: str = "{1}{U}"):
    d = {"name": "Test Thing", "manaCost": cost, "type": " ".join(types), "types": list(types), "text": text}
    if "Creature" in types:
        d.update(power="1", toughness="1")
    return read_card(CardData.from_mtgjson(d))


def _effects(card) -> list:
    out = list(card.spell.effects) if card.spell else []
    for m in (getattr(card.spell, "modes", ()) or ()) if card.spell else ():
        out.extend(m.effects)
    for a in card.abilities:
        out.extend(getattr(a, "effects", ()) or ())
    return out


# ---------------------------------------------------------------------------
# The reader, over the database
# ---------------------------------------------------------------------------

def test_every_exile_instead_counter_rider_is_read_or_its_line_unread():
    """The 19 lines printing the rider: each card reads a counter with the rider, or the line stays unread
    (an "unless … pays {X}", a permission to cast the exiled card) — never a counter without it."""
    hits = _lines_printing(r"If that spell is countered this way, exile it instead of putting it into")
    assert len(hits) >= 17
    read = 0
    for name, line in hits:
        card = get_card(name)
        counters = [e for e in _effects(card) if e.kind in ("counter", "counter_unless")]
        if counters and all(e.instead == "exile" for e in counters):
            read += 1
        else:
            assert card.unsupported or any(e.kind == "unread" for e in _effects(card)), (name, counters)
    assert read >= 12


@pytest.mark.parametrize("text,least,most", [
    ("Counter target spell with mana value 1.", 1, 1),
    ("Counter target spell with mana value 3 or less.", None, 3),
    ("Counter target spell with mana value 4 or greater.", 4, None),
    ("Counter target creature spell with mana value 4 or less.", None, 4),
])
def test_spell_mana_value_filters(text, least, most):
    card = _text_card(text)
    assert not card.unsupported
    f = card.spell.targets[0].filter
    assert (f.mv_min, f.mv_max, f.zone) == (least, most, "stack")


def test_counter_with_mana_value_x_stays_unread():
    assert _text_card("Counter target spell with mana value X.").unsupported


# ---------------------------------------------------------------------------
# Against the reference: targets and where the countered spell goes
# ---------------------------------------------------------------------------

_SPELLS = ["Lightning Bolt", "Counterspell", "Grizzly Bears", "Blaze", "Ornithopter", "Craw Wurm", "Divination"]
#: counterspell → (types, nontypes, least, most, exile rider)
_COUNTERS = {"Mental Misstep": ((), (), 1, 1, False), "Spell Snare": ((), (), 2, 2, False),
             "Disdainful Stroke": ((), (), 4, None, False), "Horribly Awry": (("Creature",), (), None, 4, True),
             "Liquify": ((), (), None, 3, True), "Force of Negation": ((), ("Creature",), None, None, True),
             "Dissipate": ((), (), None, None, True), "Minor Misstep": ((), (), None, 1, False)}


@st.composite
def counter_boards(draw):
    counter = draw(st.sampled_from(sorted(_COUNTERS)))
    names = draw(st.lists(st.sampled_from(_SPELLS), min_size=1, max_size=4))
    stack = [(f"s{i}", n, draw(st.integers(0, 3)) if n == "Blaze" else 0) for i, n in enumerate(names)]
    return counter, stack


def _board(counter: str, stack, target: str | None = None) -> dict:
    entries = []
    for oid, name, x in stack:
        e = {"id": oid, "card": name, "controller": "bob", "x": x}
        if name in ("Lightning Bolt", "Blaze"):
            e["targets"] = [["alice"]]
        elif name == "Counterspell":
            e["targets"] = [[stack[-1][0]]] if stack[-1][0] != oid else []
            if not e["targets"]:
                e["card"] = "Divination"
        entries.append(e)
    d = {"format": "mtgsolve/1", "players": ["alice", "bob"],
         "turn": {"number": 3, "active": "bob", "step": "main1", "priority": "alice"},
         "hand": {"alice": [{"id": "cs", "card": counter}]}, "stack": entries}
    if target is not None:
        d["hand"] = {}
        d["stack"] = [{"id": "cs", "card": counter, "controller": "alice", "targets": [[target]]}] + entries
    return d


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(counter_boards())
def test_targets_and_resolution_match_the_reference(board):
    counter, stack = board
    d = _board(counter, stack)
    real = [(e["id"], e["card"], e["x"]) for e in d["stack"]]
    types, nontypes, least, most, exile = _COUNTERS[counter]
    want = counter_targets(real, types, nontypes, least, most)
    got = answer(situation_from_dict(d).state, {"kind": "targets", "cast": "cs"})
    assert got["status"] == "ok", got
    assert {c[0][0] for c in got["choices"]} == want
    for target in sorted(want)[:1]:
        outcomes = list(Situation.from_dict(_board(counter, stack, target)).resolve())
        assert len(outcomes) == 1
        state = outcomes[0][1].state
        zone = countered_zone(exile)
        assert [o.id for o in state.zone(zone, "bob")] == [target]
        assert target not in [o.id for o in state.zone("stack")]


# ---------------------------------------------------------------------------
# Soundness both ways
# ---------------------------------------------------------------------------

def _statuses(counter_text: str) -> dict[str, str]:
    d = {"format": "mtgsolve/1", "players": ["alice", "bob"],
         "turn": {"number": 3, "active": "alice", "step": "main1", "priority": "bob"},
         "battlefield": {"alice": ["Island"]},
         "hand": {"bob": [{"id": "other", "card": {"name": "Test Counter", "manaCost": "{U}", "type": "Instant",
                                                   "types": ["Instant"], "text": counter_text}}]},
         "stack": [{"id": "tc", "controller": "bob", "targets": [["bolt"]],
                    "card": {"name": "Test Counter", "manaCost": "{U}", "type": "Instant", "types": ["Instant"],
                             "text": counter_text}},
                   {"id": "bolt", "card": "Lightning Bolt", "controller": "alice", "targets": [["bob"]]}]}
    state = situation_from_dict(d).state
    qs = {"targets": {"kind": "targets", "cast": "other"}, "actions": {"kind": "actions", "player": "bob"},
          "resolve": {"kind": "resolve"}}
    return {k: answer(state, q)["status"] for k, q in qs.items()}


def test_a_read_exile_rider_blocks_nothing():
    st_ = _statuses("Counter target spell. If that spell is countered this way, exile it instead of putting it "
                    "into its owner's graveyard.")
    assert st_ == {"targets": "ok", "actions": "ok", "resolve": "ok"}


def test_an_unread_countered_rider_blocks_the_resolution_only():
    """Memory Lapse's "put it on top of its owner's library instead" is not read: the spell's effect is
    unread, so resolving it is refused; targeting with it (the target is read) is not."""
    st_ = _statuses("Counter target spell. If that spell is countered this way, put it on top of its owner's "
                    "library instead of into that player's graveyard.")
    assert st_["resolve"] == "unsupported"
    assert st_["targets"] == "ok"


# ---------------------------------------------------------------------------
# Chalice of the Void: "Whenever a player casts a spell with mana value equal to the number of charge
# counters on this artifact, counter that spell." (CR 601.2i, 603.2, 202.3)
# ---------------------------------------------------------------------------

def _chalice_board(charge: int, spell: str) -> dict:
    return {"format": "mtgsolve/1", "players": ["alice", "bob"],
            "turn": {"number": 3, "active": "bob", "step": "main1", "priority": "bob"},
            "battlefield": {"alice": [{"id": "chalice", "card": "Chalice of the Void", "counters": {"charge": charge}}],
                            "bob": [{"id": f"m{i}", "card": "Mountain"} for i in range(3)]},
            "hand": {"bob": [{"id": "spell", "card": spell}]}}


@pytest.mark.parametrize("charge,action,spell", [
    (1, "cast spell -> alice paying m0", "Lightning Bolt"),
    (1, "cast spell x=0 -> alice paying m0", "Blaze"),
    (2, "cast spell x=1 -> alice paying m0, m1", "Blaze"),
    (0, "cast spell x=1 -> alice paying m0, m1", "Blaze"),
    (0, "cast spell", "Ornithopter"),
])
def test_chalice_triggers_on_the_spell_with_that_mana_value_and_counters_it(charge, action, spell):
    from tests.reference.counters_ref import spell_mana_value
    x = int(action.split("x=")[1].split()[0]) if "x=" in action else 0
    s = Situation.from_dict(_chalice_board(charge, spell)).apply(action)
    stack = s.state.zone("stack")
    triggered = [o for o in stack if o.ability is not None]
    assert bool(triggered) == (spell_mana_value(spell, x) == charge)
    if triggered:
        assert triggered[0].event_object == "spell"
        (choices, out), = list(Situation.from_dict(s.to_dict()).resolve())
        assert countered_zone(False) in {o.zone for o in out.state.objects if o.id == "spell"}


def test_chalice_reads_and_its_counter_that_spell_needs_a_cast_trigger():
    assert get_card("Chalice of the Void").fully_supported
    enters = _text_card("When this creature enters, counter that spell.", types=("Creature",))
    assert [e.kind for a in enters.abilities for e in a.effects] == ["unread"]


def _inline_chalice_board(text: str) -> dict:
    d = _chalice_board(1, "Lightning Bolt")
    d["battlefield"]["alice"] = [{"id": "chalice", "counters": {"charge": 1},
                                  "card": {"name": "Test Chalice", "manaCost": "{X}{X}", "type": "Artifact",
                                           "types": ["Artifact"], "text": text}}]
    return d


def test_chalice_read_blocks_nothing_unread_blocks_the_cast_it_reaches():
    """Read, the trigger blocks neither the actions nor the cast; with an unread rider on its effect the
    actions stay ok (a trigger changes no legality) and the cast that triggers it is refused in play."""
    from mtgsolve.solver.core.moves import UnsupportedCaseError
    read = "Whenever a player casts a spell with mana value equal to the number of charge counters on this artifact, " \
           "counter that spell."
    unread = read[:-1] + " unless that player pays {X}, where X is the number of cards in your hand."
    for text in (read, unread):
        state = situation_from_dict(_inline_chalice_board(text)).state
        assert answer(state, {"kind": "actions", "player": "bob"})["status"] == "ok"
    Situation.from_dict(_inline_chalice_board(read)).apply("cast spell -> alice paying m0")
    with pytest.raises(UnsupportedCaseError):
        Situation.from_dict(_inline_chalice_board(unread)).apply("cast spell -> alice paying m0")


# ---------------------------------------------------------------------------
# "If that creature would die this turn, exile it instead." / "If a creature dealt damage this way would
# die this turn, exile it instead." (CR 614.1a, 700.4, 120.3e)
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("rx", [r"\. If that creature(?: or planeswalker)? would die this turn, exile it instead\.$",
                                r"\. If a creature dealt damage this way would die this turn, exile it instead\."])
def test_every_card_printing_an_exile_if_dies_sentence_reads_it_or_leaves_the_line_unread(rx):
    hits = _lines_printing(rx)
    assert len(hits) >= 12
    read = 0
    for name, _line in hits:
        if " // " in name:
            continue   # a split or double-faced card: its halves are read as faces (tests/test_faces.py)
        card = get_card(name)
        if any(e.kind == "exile_if_dies" for e in _effects(card)):
            read += 1
        else:
            assert card.unsupported or any(e.kind == "unread" for e in _effects(card)), name
    assert read >= len(hits) // 2


def test_a_creature_would_die_this_turn_for_every_creature_stays_unread():
    """Flaying Tendrils' "If a creature would die this turn, exile it instead." applies to every creature,
    those that enter later too — not this shape: unread."""
    card = _text_card("All creatures get -2/-2 until end of turn. If a creature would die this turn, exile it "
                      "instead.", types=("Sorcery",))
    assert card.unsupported or any(e.kind == "unread" for e in _effects(card))


_BODIES = {"Grizzly Bears": 2, "Doomed Traveler": 1, "Colossal Dreadmaw": 6, "Hill Giant": 3, "Serra Angel": 4}


@st.composite
def exile_if_dies_boards(draw):
    spell = draw(st.sampled_from(["Lava Coil", "Anger of the Gods", "Magma Spray", "Shock"]))
    names = draw(st.lists(st.sampled_from(sorted(_BODIES)), min_size=1, max_size=4))
    creatures = [(f"c{i}", n, draw(st.integers(0, _BODIES[n] - 1))) for i, n in enumerate(names)]
    target = draw(st.sampled_from([c[0] for c in creatures]))
    return spell, creatures, target


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(exile_if_dies_boards())
def test_exile_if_dies_matches_the_reference(board):
    from tests.reference.counters_ref import after_exile_if_dies
    spell, creatures, target = board
    d = {"format": "mtgsolve/1", "players": ["alice", "bob"], "turn": {"number": 3, "active": "alice", "step": "main1"},
         "battlefield": {"bob": [{"id": oid, "card": n, "damage": dmg} for oid, n, dmg in creatures]},
         "stack": [{"id": "spell", "card": spell, "controller": "alice"}
                   | ({} if spell == "Anger of the Gods" else {"targets": [[target]]})]}
    amount = {"Lava Coil": 4, "Anger of the Gods": 3, "Magma Spray": 2, "Shock": 2}[spell]
    dealt = {oid: amount for oid, _n, _d in creatures} if spell == "Anger of the Gods" else {target: amount}
    marked = [] if spell == "Shock" else list(dealt)
    want = after_exile_if_dies([(oid, _BODIES[n], dmg) for oid, n, dmg in creatures], dealt, marked)
    (_choices, out), = list(Situation.from_dict(d).resolve())
    got = {}
    for oid, _n, _d in creatures:
        o = out.state.find(oid)
        got[oid] = o.zone if o.zone != "battlefield" else ("marked" if o.exile_if_dies else "battlefield")
    assert got == want
    assert not any(o.token for o in out.state.objects)   # Doomed Traveler exiled: it never died


def _marked_board(**extra) -> dict:
    bears = {"id": "bears", "card": "River Boa", "damage": 1, "exile_if_dies": True, **extra}
    return {"format": "mtgsolve/1", "players": ["alice", "bob"],
            "turn": {"number": 3, "active": "alice", "step": "end", "priority": "bob", "passed": ["alice"]},
            "battlefield": {"bob": [bears]}, "library": {"alice": ["Island"], "bob": ["Island"]}}


def test_the_mark_ends_at_cleanup_and_round_trips():
    s = Situation.from_dict(_marked_board())
    assert s.to_dict()["battlefield"]["bob"][0]["exile_if_dies"] is True
    for _choices, _p, sit in s.outcomes("pass"):
        assert sit.state.turn.number == 4
        assert not any(o.exile_if_dies for o in sit.state.objects)


def test_the_mark_is_only_on_the_battlefield():
    from mtgsolve.solver.core.errors import SituationError
    d = _marked_board()
    d["graveyard"] = {"bob": [{"card": "Grizzly Bears", "exile_if_dies": True}]}
    with pytest.raises(SituationError, match="exile_if_dies"):
        situation_from_dict(d)


def test_a_regeneration_shield_and_the_mark_on_a_destroyed_creature_are_refused():
    """Both replace the destruction; its controller orders them (CR 616.1): not modeled, refused."""
    d = _marked_board(regeneration_shields=1)
    d["turn"] = {"number": 3, "active": "alice", "step": "main1"}
    d["stack"] = [{"card": "Murder", "controller": "alice", "targets": [["bears"]]}]
    assert answer(situation_from_dict(d).state, {"kind": "resolve"})["status"] == "unsupported"


def test_a_read_exile_if_dies_blocks_nothing_an_unread_one_blocks_the_resolution():
    def status(text: str) -> str:
        d = {"format": "mtgsolve/1", "players": ["alice", "bob"], "turn": {"number": 3, "active": "alice", "step": "main1"},
             "battlefield": {"bob": [{"id": "bears", "card": "Grizzly Bears"}]},
             "stack": [{"controller": "alice", "targets": [["bears"]],
                        "card": {"name": "Test Coil", "manaCost": "{R}", "type": "Sorcery", "types": ["Sorcery"],
                                 "text": text}}]}
        return answer(situation_from_dict(d).state, {"kind": "resolve"})["status"]
    assert status("Test Coil deals 4 damage to target creature. If that creature would die this turn, exile it "
                  "instead.") == "ok"
    assert status("Test Coil deals 4 damage to target creature. If that creature would die this turn, put it on "
                  "the bottom of its owner's library instead.") == "unsupported"


# ---------------------------------------------------------------------------
# Soul-Scar Mage: "If a source you control would deal noncombat damage to a creature an opponent controls,
# put that many -1/-1 counters on that creature instead." (CR 614.1a, 122.1, 120.8)
# ---------------------------------------------------------------------------

@st.composite
def soul_scar_boards(draw):
    mages = draw(st.lists(st.sampled_from(["alice", "bob"]), max_size=2))
    caster = draw(st.sampled_from(["alice", "bob"]))
    victim = draw(st.sampled_from(["alice", "bob"]))
    spell = draw(st.sampled_from(["Lightning Bolt", "Shock"]))
    return mages, caster, victim, spell


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(soul_scar_boards())
def test_soul_scar_mage_matches_the_reference(board):
    from tests.reference.counters_ref import damage_or_counters
    mages, caster, victim, spell = board
    bf: dict = {"alice": [], "bob": []}
    for i, p in enumerate(mages):
        bf[p].append({"id": f"mage{i}", "card": "Soul-Scar Mage"})
    bf[victim].append({"id": "dreadmaw", "card": "Colossal Dreadmaw"})
    d = {"format": "mtgsolve/1", "players": ["alice", "bob"], "turn": {"number": 3, "active": "alice", "step": "main1"},
         "battlefield": bf, "stack": [{"card": spell, "controller": caster, "targets": [["dreadmaw"]]}]}
    (_c, out), = list(Situation.from_dict(d).resolve())
    o = out.state.find("dreadmaw")
    want = damage_or_counters({"Lightning Bolt": 3, "Shock": 2}[spell], False, caster, victim, mages)
    assert (o.damage, o.counter("-1/-1")) == want


def test_soul_scar_mage_reads_and_combat_damage_is_not_replaced():
    card = get_card("Soul-Scar Mage")
    assert card.fully_supported
    (rep,) = [a for a in card.abilities if a.__class__.__name__ == "DamageToCounters"]
    assert (rep.counter, rep.noncombat, rep.opponents) == ("-1/-1", True, True)


def test_soul_scar_mage_with_a_prevention_shield_is_refused():
    d = {"format": "mtgsolve/1", "players": ["alice", "bob"], "turn": {"number": 3, "active": "alice", "step": "main1"},
         "battlefield": {"alice": ["Soul-Scar Mage"], "bob": [{"id": "dreadmaw", "card": "Colossal Dreadmaw"}]},
         "prevention": [{"to": "dreadmaw", "amount": 1}],
         "stack": [{"card": "Lightning Bolt", "controller": "alice", "targets": [["dreadmaw"]]}]}
    assert answer(situation_from_dict(d).state, {"kind": "resolve"})["status"] == "unsupported"


def test_soul_scar_mage_makes_damage_reach_counter_triggers_both_ways():
    """With the replacement read on the battlefield, a resolution that deals damage can put counters: an
    unread "whenever one or more -1/-1 counters are put" trigger blocks it; without it, it does not."""
    def status(mage: bool) -> str:
        watcher = {"card": {"name": "Test Watcher", "manaCost": "{B}", "type": "Enchantment", "types": ["Enchantment"],
                            "text": "Whenever one or more -1/-1 counters are put on a creature, you gain 1 life "
                                    "and you scry 1 and then mill a card unless you pay {Z}."}}
        d = {"format": "mtgsolve/1", "players": ["alice", "bob"], "turn": {"number": 3, "active": "alice", "step": "main1"},
             "battlefield": {"alice": (["Soul-Scar Mage"] if mage else []) + [watcher],
                             "bob": [{"id": "dreadmaw", "card": "Colossal Dreadmaw"}]},
             "stack": [{"card": "Lightning Bolt", "controller": "alice", "targets": [["dreadmaw"]]}]}
        return answer(situation_from_dict(d).state, {"kind": "resolve"})["status"]
    assert status(True) == "unsupported"
    assert status(False) == "ok"


# ---------------------------------------------------------------------------
# "When it connives this way, …": a reflexive triggered ability (CR 603.12, 603.3d)
# ---------------------------------------------------------------------------

def test_every_connive_reflexive_line_reads():
    hits = _lines_printing(r"When it connives this way, ")
    assert len(hits) >= 2
    for name, _line in hits:
        card = get_card(name)
        assert card.fully_supported, name
        assert any(e.kind == "reflexive" and e.targets for e in _effects(card)), name


@st.composite
def connive_boards(draw):
    hand = draw(st.lists(st.sampled_from(["Grizzly Bears", "Island", "Shock"]), max_size=2))
    drawn = draw(st.sampled_from(["Grizzly Bears", "Island", "Shock"]))
    spells = draw(st.integers(0, 2))
    return hand, drawn, spells


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(connive_boards())
def test_connive_then_reflexive_matches_the_reference(board):
    from tests.reference.counters_ref import connive_reflexive_outcomes
    hand, drawn, spells = board
    stack = [{"ability": {"source": "obscura", "index": 1}, "controller": "alice"}] + \
        [{"id": f"bolt{i}", "card": "Lightning Bolt", "controller": "bob", "targets": [["alice"]]} for i in range(spells)]
    d = {"format": "mtgsolve/1", "players": ["alice", "bob"], "turn": {"number": 3, "active": "bob", "step": "main1"},
         "battlefield": {"alice": [{"id": "obscura", "card": "Obscura Interceptor"}]},
         "library": {"alice": [drawn]}, "hand": {"alice": hand}, "stack": stack}
    outcomes = list(Situation.from_dict(d).resolve())
    assert len(outcomes) == connive_reflexive_outcomes(hand, drawn, spells)
    for _choices, out in outcomes:
        (reflexive,) = [o for o in out.state.zone("stack") if o.ability is not None]
        assert reflexive.delayed == 1 and len(reflexive.targets) == 1 and len(reflexive.targets[0]) <= 1


def test_the_reflexive_ability_fizzles_when_its_spell_left_and_copies_cease():
    d = {"format": "mtgsolve/1", "players": ["alice", "bob"], "turn": {"number": 3, "active": "bob", "step": "main1"},
         "battlefield": {"alice": [{"id": "obscura", "card": "Obscura Interceptor"}]},
         "graveyard": {"bob": [{"id": "bolt", "card": "Lightning Bolt"}]},
         "stack": [{"ability": {"source": "obscura", "index": 1}, "delayed": 1, "controller": "alice",
                    "targets": [["copy"]]},
                   {"id": "copy", "card": "Lightning Bolt", "copy": True, "controller": "bob", "targets": [["alice"]]}]}
    (_c, out), = list(Situation.from_dict(d).resolve())
    assert out.state.find("copy") is None and not out.state.zone("hand", "bob")


def test_a_read_reflexive_blocks_nothing_an_unread_one_blocks_the_resolution():
    def status(text: str) -> str:
        d = {"format": "mtgsolve/1", "players": ["alice", "bob"], "turn": {"number": 3, "active": "bob", "step": "main1"},
             "battlefield": {"alice": [{"id": "x", "card": {"name": "Test Interceptor", "manaCost": "{U}",
                                                            "type": "Creature", "types": ["Creature"], "power": "1",
                                                            "toughness": "1", "text": text}}]},
             "library": {"alice": ["Island"]},
             "stack": [{"ability": {"source": "x", "index": 1}, "controller": "alice"},
                       {"id": "bolt", "card": "Lightning Bolt", "controller": "bob", "targets": [["alice"]]}]}
        return answer(situation_from_dict(d).state, {"kind": "resolve"})["status"]
    assert status("When this creature enters, it connives. When it connives this way, return up to one target "
                  "spell to its owner's hand.") == "ok"
    assert status("When this creature enters, it connives. When it connives this way, return up to one target "
                  "spell to its owner's hand unless its controller sacrifices a land.") == "unsupported"


def test_every_put_it_into_its_owners_hand_counter_rider_is_read():
    hits = _lines_printing(r"If that spell is countered this way, put it into its owner's hand instead")
    assert hits
    for name, _line in hits:
        counters = [e for e in _effects(get_card(name)) if e.kind == "counter"]
        assert counters and all(e.instead == "hand" for e in counters), name


@pytest.mark.parametrize("x", [0, 1, 2, 3])
def test_syncopate_pays_the_announced_x_against_the_reference(x):
    """"Counter target spell unless its controller pays {X}" of a spell with {X} in its cost: X is the value
    announced (CR 107.3a); declined, the spell is exiled (the rider, CR 614.1a)."""
    from tests.reference.unless_ref import unless_results
    lands = ["Mountain", "Island", "Forest"][: (x % 3) + 1]
    d = {"format": "mtgsolve/1", "players": ["alice", "bob"],
         "turn": {"number": 3, "active": "alice", "step": "main1", "priority": "bob"},
         "battlefield": {"alice": [{"id": f"l{i}", "card": n} for i, n in enumerate(lands)]},
         "stack": [{"card": "Syncopate", "controller": "bob", "x": x, "targets": [["shock"]]},
                   {"id": "shock", "card": "Shock", "controller": "alice", "targets": [["bob"]]}]}
    got = set()
    for choices, out in Situation.from_dict(d).resolve():
        if choices["unless"]["paid"]:
            got.add(tuple(sorted(o.name for o in out.state.zone("battlefield", "alice") if o.tapped)))
        else:
            assert [o.id for o in out.state.zone("exile", "alice")] == ["shock"]
            got.add(None)
    assert got == unless_results(lands, x)


def test_an_unless_payment_of_x_defined_otherwise_stays_unread():
    assert _text_card("Counter target spell unless its controller pays {X}, where X is its mana value.",
                      cost="{X}{U}").spell.effects[0].kind == "unread"
    assert _text_card("Counter target spell unless its controller pays {X}.").spell.effects[0].kind == "unread"


# ---------------------------------------------------------------------------
# Skyclave Apparition: linked abilities, "the exiled card" (CR 607.2a)
# ---------------------------------------------------------------------------

def test_every_exiled_card_owner_creates_line_reads():
    hits = _lines_printing(r"the exiled card's owner creates an X/X ")
    assert len(hits) >= 2
    for name, _line in hits:
        assert any(e.kind == "exiled_card_tokens" for e in _effects(get_card(name))), name


@st.composite
def exiled_boards(draw):
    return draw(st.lists(st.tuples(st.sampled_from(["alice", "bob"]),
                                   st.sampled_from(["Grizzly Bears", "Lightning Bolt", "Ornithopter", "Hill Giant"]),
                                   st.booleans()), max_size=4))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(exiled_boards())
def test_exiled_card_tokens_match_the_reference(exiled):
    from tests.reference.counters_ref import exiled_card_tokens
    ex: dict = {"alice": [], "bob": []}
    for i, (owner, name, linked) in enumerate(exiled):
        ex[owner].append({"id": f"e{i}", "card": name} | ({"exiled_by": "sky"} if linked else {}))
    d = {"format": "mtgsolve/1", "players": ["alice", "bob"], "turn": {"number": 3, "active": "alice", "step": "main1"},
         "graveyard": {"alice": [{"id": "sky", "card": "Skyclave Apparition"}]}, "exile": ex,
         "stack": [{"ability": {"source": "sky", "index": 2}, "controller": "alice"}]}
    (_c, out), = list(Situation.from_dict(d).resolve())
    got = {o.controller: o.card.data.power for o in out.state.objects if o.token}
    zero = {p for p, x in exiled_card_tokens(exiled).items() if x == 0}   # a 0/0 dies (CR 704.5f)
    assert got == {p: str(x) for p, x in exiled_card_tokens(exiled).items() if p not in zero}
    assert not any(o.exiled_by for o in out.state.objects)


def test_skyclave_dies_in_play_and_its_leaves_ability_makes_the_token():
    d = {"format": "mtgsolve/1", "players": ["alice", "bob"],
         "turn": {"number": 3, "active": "bob", "step": "main1", "priority": "bob"},
         "battlefield": {"alice": [{"id": "sky", "card": "Skyclave Apparition"}],
                         "bob": [{"id": "swamp", "card": "Swamp"}, {"id": "swamp2", "card": "Swamp"}]},
         "exile": {"bob": [{"id": "bears", "card": "Grizzly Bears", "exiled_by": "sky"}]},
         "hand": {"bob": [{"id": "murder", "card": "Murder"}]},
         "library": {"alice": ["Island"], "bob": ["Island"]}}
    bf = {"alice": [{"id": "sky", "card": "Skyclave Apparition"}],
          "bob": [{"id": f"s{i}", "card": "Swamp"} for i in range(3)]}
    d["battlefield"] = bf
    s = Situation.from_dict(d).apply("cast murder -> sky")
    while s.state.zone("stack"):
        s = s.apply("pass") if s.decision is None else s.apply(list(s.legal_actions)[0])
    tokens = [o for o in s.state.objects if o.token]
    assert [(o.controller, o.card.data.power) for o in tokens] == [("bob", "2")]


def test_skyclave_back_on_the_battlefield_is_refused_and_the_key_is_for_exile():
    from mtgsolve.solver.core.errors import SituationError
    d = {"format": "mtgsolve/1", "players": ["alice", "bob"], "turn": {"number": 3, "active": "alice", "step": "main1"},
         "battlefield": {"alice": [{"id": "sky", "card": "Skyclave Apparition"}]},
         "exile": {"bob": [{"id": "bears", "card": "Grizzly Bears", "exiled_by": "sky"}]},
         "stack": [{"ability": {"source": "sky", "index": 2}, "controller": "alice"}]}
    assert answer(situation_from_dict(d).state, {"kind": "resolve"})["status"] == "unsupported"
    d["graveyard"] = {"bob": [{"card": "Lightning Bolt", "exiled_by": "sky"}]}
    with pytest.raises(SituationError, match="exiled_by"):
        situation_from_dict(d)


def test_a_read_exiled_card_token_blocks_nothing_an_unread_one_blocks_the_resolution():
    def status(text: str) -> str:
        d = {"format": "mtgsolve/1", "players": ["alice", "bob"], "turn": {"number": 3, "active": "alice", "step": "main1"},
             "graveyard": {"alice": [{"id": "x", "card": {"name": "Test Apparition", "manaCost": "{W}", "type": "Creature",
                                                          "types": ["Creature"], "power": "2", "toughness": "2",
                                                          "text": text}}]},
             "stack": [{"ability": {"source": "x", "index": 1}, "controller": "alice"}]}
        return answer(situation_from_dict(d).state, {"kind": "resolve"})["status"]
    assert status("When this creature leaves the battlefield, the exiled card's owner creates an X/X blue Illusion "
                  "creature token, where X is the mana value of the exiled card.") == "ok"
    assert status("When this creature leaves the battlefield, the exiled card's owner creates an X/X blue Illusion "
                  "creature token, where X is twice the mana value of the exiled card.") == "unsupported"


# ---------------------------------------------------------------------------
# "Whenever [you | a player | an opponent] discard(s) a card" (CR 701.9a, 603.2)
# ---------------------------------------------------------------------------

def _discard_board(watcher: str, n_cards: int, who: str = "alice") -> dict:
    return {"format": "mtgsolve/1", "players": ["alice", "bob"], "turn": {"number": 3, "active": "bob", "step": "main1"},
            "battlefield": {"alice": [{"id": "w", "card": watcher}]},
            "hand": {who: [{"id": f"c{i}", "card": "Lightning Bolt"} for i in range(n_cards)]},
            "stack": [{"card": "Mind Rot", "controller": "bob" if who == "alice" else "alice", "targets": [[who]]}]}


@pytest.mark.parametrize("watcher,who,n", [("Necropotence", "alice", 1), ("Necropotence", "alice", 3),
                                           ("Necropotence", "bob", 2), ("Sangromancer", "bob", 2),
                                           ("Sangromancer", "alice", 2), ("Megrim", "bob", 1)])
def test_a_discard_trigger_triggers_once_per_card_of_the_players_it_names(watcher, who, n):
    """Necropotence ("you"), Sangromancer and Megrim ("an opponent"): one ability per card discarded by a
    player it names (CR 603.2), each naming the card (Necropotence) or the player (Megrim)."""
    d = _discard_board(watcher, n, who)
    for _choices, out in Situation.from_dict(d).resolve():
        waiting = [o for o in out.state.zone("stack") if o.ability is not None]
        mine = who == "alice"
        expected = min(n, 2) if (watcher == "Necropotence") == mine else 0
        assert len(waiting) == expected, (watcher, who, n)
        if watcher == "Necropotence":
            assert {o.event_object for o in waiting} <= {f"c{i}" for i in range(n)}


def test_discard_triggers_read_over_the_database():
    hits = _lines_printing(r"^Whenever (?:you discard|a player discards|an opponent discards) a card, ")
    assert len(hits) >= 10
    read = sum(1 for name, line in hits if any(getattr(a, "trigger", None).__class__.__name__ == "DiscardTrigger"
                                               and a.text == line for a in get_card(name).abilities))
    assert read >= len(hits) // 2


def test_a_discard_trigger_refuses_the_cleanup_discard_and_blocks_only_what_discards():
    d = {"format": "mtgsolve/1", "players": ["alice", "bob"],
         "turn": {"number": 3, "active": "alice", "step": "end", "priority": "bob", "passed": ["alice"]},
         "battlefield": {"alice": ["Necropotence"]},
         "hand": {"alice": ["Island"] * 9}, "library": {"alice": ["Island"], "bob": ["Island"]}}
    assert answer(situation_from_dict(d).state, {"kind": "pass"})["status"] == "unsupported"
    unread = {"card": {"name": "Test Watcher", "manaCost": "{B}", "type": "Enchantment", "types": ["Enchantment"],
                       "text": "Whenever you discard a card, you may pay {Z} and then whatever."}}
    for watcher, status in ((unread, "unsupported"), ("Necropotence", "ok")):
        d2 = _discard_board("Necropotence", 1)
        d2["battlefield"]["alice"] = [watcher]
        assert answer(situation_from_dict(d2).state, {"kind": "resolve"})["status"] == status
        d2["stack"] = [{"card": "Lightning Bolt", "controller": "bob", "targets": [["alice"]]}]
        assert answer(situation_from_dict(d2).state, {"kind": "resolve"})["status"] == "ok"   # no discard
