"""Players' choices among their own cards and permanents as an effect resolves (issue 26): another
player's discard (CR 701.9: "Target player discards two cards", "Each player discards a card"),
sacrifice (CR 701.21a: "Target player sacrifices a creature", "Each player sacrifices a creature"),
"return a land you control to its owner's hand" (a bounce land's trigger), counters on each creature
one controls (CR 122.1) and proliferate (CR 701.34a) — read by grammar, resolved with every distinct
outcome and checked against the brute-force references of tests/reference/choice_ref.py on random
boards; soundness both ways (what stays unread — "at random", "nontoken", "unless you pay" — still
blocks ``resolve``, and only that)."""
from __future__ import annotations

import dataclasses
import random

import pytest

from mtgsolve.solver.api import Situation
from mtgsolve.solver.cards import get_card
from mtgsolve.solver.core import ir
from tests.reference.choice_ref import choose_one_results, choose_results, each_player_results, proliferate_results
from tests.reference.unless_ref import unless_results

CREATURES = ["Grizzly Bears", "Grizzly Bears", "Llanowar Elves", "Ornithopter", "Forest", "Island"]
CARDS = ["Island", "Island", "Forest", "Lightning Bolt", "Grizzly Bears"]
BASE = {"format": "mtgsolve/1", "players": ["alice", "bob"], "turn": {"number": 3, "active": "alice", "step": "main1"}}


def _names(sit: Situation, zone: str, player: str, drop: str = "") -> tuple[str, ...]:
    return tuple(sorted(o.name for o in sit.state.zone(zone, player) if o.name != drop))


def _creature_names(names: list[str]) -> list[str]:
    return [n for n in names if "Creature" in get_card(n).data.types]


def _outcomes(doc: dict) -> list[Situation]:
    outs = [out for _c, out in Situation.from_dict(doc).resolve()]
    keys = [out.state.key() for out in outs]
    assert len(keys) == len(set(keys))   # distinct situations
    return outs


# --- the reader ---------------------------------------------------------------------------------

@pytest.mark.parametrize("name,kinds", [
    ("Mind Rot", ["discard"]), ("Diabolic Edict", ["sacrifice_chosen"]), ("Innocent Blood", ["sacrifice_chosen"]),
    ("Basri's Solidarity", ["counters_each"]), ("Tezzeret's Gambit", ["draw", "proliferate"]),
])
def test_reader(name, kinds):
    spell = get_card(name).spell
    assert spell is not None and [e.kind for e in spell.effects] == kinds


def test_reader_scopes():
    [rot] = get_card("Mind Rot").spell.effects
    assert isinstance(rot, ir.Discard) and rot.to == ir.T(0) and rot.amount == 2
    [edict] = get_card("Innocent Blood").spell.effects
    assert isinstance(edict, ir.SacrificeChosen) and edict.to == ir.Ref("each_player")
    assert edict.what.types == {"Creature"} and edict.what.who == "you"
    [bounce] = [a for a in get_card("Azorius Chancery").abilities if isinstance(a, ir.TriggeredAbility)]
    assert isinstance(bounce.effects[0], ir.ReturnChosen) and bounce.effects[0].what.types == {"Land"}
    [tusker] = [a for a in get_card("Ridgescale Tusker").abilities if isinstance(a, ir.TriggeredAbility)]
    assert isinstance(tusker.effects[0], ir.PutCountersOnEach) and tusker.effects[0].what.exclude_self


@pytest.mark.parametrize("name,line", [
    ("Hymn to Tourach", "at random"), ("Sheoldred's Edict", "nontoken"), ("Mystic Remora", "unless you pay its upkeep"),
    ("Raucous Entertainer", "entered this turn"), ("Twisted Spider-Clone", "with a +1/+1 counter"),
])
def test_what_stays_unread(name, line):
    assert any(line in text for text in _unread_texts(get_card(name))), name


def _unread_texts(value: object) -> list[str]:
    """The texts of every unread effect and unsupported line in a card's IR, anywhere."""
    if isinstance(value, (ir.UnreadEffect, ir.Unsupported)):
        return [value.text]
    if isinstance(value, (tuple, list)):
        return [t for v in value for t in _unread_texts(v)]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return [t for f in dataclasses.fields(value) for t in _unread_texts(getattr(value, f.name))]
    return []


# --- resolution against the references --------------------------------------------------------------

def test_target_player_discards_matches_reference():
    rng = random.Random(11)
    for _ in range(12):
        hand = [rng.choice(CARDS) for _ in range(rng.randint(0, 4))]
        doc = {**BASE, "hand": {"bob": hand}, "stack": [{"card": "Mind Rot", "controller": "alice", "targets": [["bob"]]}]}
        got = {_names(out, "graveyard", "bob") for out in _outcomes(doc)}
        assert got == choose_results(hand, 2), hand


def test_each_player_discards_matches_reference():
    """Liliana of the Veil's +1: "Each player discards a card." (each chooses from their own hand)."""
    rng = random.Random(12)
    for _ in range(10):
        hands = [[rng.choice(CARDS) for _ in range(rng.randint(0, 3))] for _p in range(2)]
        doc = {**BASE, "hand": {"alice": hands[0], "bob": hands[1]},
               "battlefield": {"alice": [{"id": "lili", "card": "Liliana of the Veil", "counters": {"loyalty": 4}}]},
               "stack": [{"ability": {"source": "lili", "index": 1}, "controller": "alice"}]}
        got = {(_names(out, "graveyard", "alice"), _names(out, "graveyard", "bob")) for out in _outcomes(doc)}
        assert got == each_player_results(hands, 1), hands


def test_target_player_sacrifices_matches_reference():
    rng = random.Random(13)
    for _ in range(12):
        board = [rng.choice(CREATURES) for _ in range(rng.randint(0, 4))]
        doc = {**BASE, "battlefield": {"bob": board, "alice": ["Grizzly Bears"]},
               "stack": [{"card": "Diabolic Edict", "controller": "alice", "targets": [["bob"]]}]}
        got = {_names(out, "graveyard", "bob") for out in _outcomes(doc)}
        assert got == choose_results(_creature_names(board), 1), board


def test_each_player_sacrifices_matches_reference():
    rng = random.Random(14)
    for _ in range(10):
        boards = [[rng.choice(CREATURES) for _ in range(rng.randint(0, 3))] for _p in range(2)]
        doc = {**BASE, "battlefield": {"alice": boards[0], "bob": boards[1]},
               "stack": [{"card": "Innocent Blood", "controller": "alice"}]}
        got = {(_names(out, "graveyard", "alice", drop="Innocent Blood"), _names(out, "graveyard", "bob"))
               for out in _outcomes(doc)}
        assert got == each_player_results([_creature_names(b) for b in boards], 1), boards


def test_bounce_land_returns_a_land_matches_reference():
    rng = random.Random(15)
    for _ in range(8):
        lands = [rng.choice(["Plains", "Island", "Island", "Forest"]) for _ in range(rng.randint(0, 3))]
        doc = {**BASE, "battlefield": {"alice": lands + [{"id": "karoo", "card": "Azorius Chancery"}, "Grizzly Bears"]},
               "stack": [{"ability": {"source": "karoo", "index": 1}, "controller": "alice"}]}
        got = {_names(out, "hand", "alice") for out in _outcomes(doc)}
        assert got == choose_results(lands + ["Azorius Chancery"], 1), lands


def test_proliferate_matches_reference():
    rng = random.Random(16)
    for _ in range(10):
        board = [(rng.choice(["Grizzly Bears", "Ornithopter"]), {"+1/+1": rng.randint(0, 2)})
                 for _ in range(rng.randint(0, 4))]
        items = [{"card": n, "counters": c} if c["+1/+1"] else n for n, c in board]
        doc = {**BASE, "battlefield": {"alice": [{"id": "clasp", "card": "Contagion Clasp"}] + items[:2],
                                       "bob": items[2:]},
               "stack": [{"ability": {"source": "clasp", "index": 2}, "controller": "alice"}]}
        got = set()
        for out in _outcomes(doc):
            perms = [o for p in ("alice", "bob") for o in out.state.zone("battlefield", p) if o.name != "Contagion Clasp"]
            got.add(tuple(sorted((o.name, tuple(sorted((k, m) for k, m in o.counters if m))) for o in perms)))
        assert got == proliferate_results(board), board


def test_proliferate_refuses_a_player_with_poison_counters():
    doc = {**BASE, "players": ["alice", {"id": "bob", "poison": 2}],
           "battlefield": {"alice": [{"id": "clasp", "card": "Contagion Clasp"}]},
           "stack": [{"ability": {"source": "clasp", "index": 2}, "controller": "alice"}]}
    r = Situation.from_dict(doc).query({"kind": "resolve"})
    assert r["status"] == "unsupported" and "poison" in r["reason"]


def test_counters_on_each_creature_you_control():
    doc = {**BASE, "battlefield": {"alice": ["Grizzly Bears", "Ornithopter", "Forest"], "bob": ["Llanowar Elves"]},
           "stack": [{"card": "Basri's Solidarity", "controller": "alice"}]}
    [out] = _outcomes(doc)
    counters = {o.name: dict(o.counters) for p in ("alice", "bob") for o in out.state.zone("battlefield", p)}
    assert counters == {"Grizzly Bears": {"+1/+1": 1}, "Ornithopter": {"+1/+1": 1}, "Forest": {}, "Llanowar Elves": {}}


# --- soundness both ways -------------------------------------------------------------------------------

def test_unread_discard_blocks_resolve_only():
    doc = {**BASE, "hand": {"bob": ["Island", "Forest"]},
           "stack": [{"card": "Hymn to Tourach", "controller": "alice", "targets": [["bob"]]}]}
    sit = Situation.from_dict(doc)
    assert sit.query({"kind": "resolve"})["status"] == "unsupported"
    assert sit.query({"kind": "actions"})["status"] == "ok"


def test_read_discard_no_longer_blocks():
    doc = {**BASE, "hand": {"bob": ["Island", "Forest"]},
           "stack": [{"card": "Mind Rot", "controller": "alice", "targets": [["bob"]]}]}
    r = Situation.from_dict(doc).query({"kind": "resolve"})
    assert r["status"] == "ok" and len(r["outcomes"]) == 1


def test_sacrifice_unless_you_pay_matches_reference():
    """Molting Harpy: "At the beginning of your upkeep, sacrifice this creature unless you pay {2}."
    (CR 118.12): decline — the Harpy is sacrificed — or each distinct payment, against
    tests/reference/unless_ref.py (untapped basic lands, interchangeable by name)."""
    rng = random.Random(17)
    for _ in range(8):
        lands = [rng.choice(["Island", "Island", "Forest", "Plains"]) for _ in range(rng.randint(0, 4))]
        doc = {**BASE, "turn": {"number": 3, "active": "alice", "step": "upkeep"},
               "battlefield": {"alice": [{"id": "harpy", "card": "Molting Harpy"}] + lands},
               "stack": [{"ability": {"source": "harpy", "index": 1}, "controller": "alice"}]}
        got = set()
        for out in _outcomes(doc):
            names = [o.name for o in out.state.zone("battlefield", "alice")]
            if "Molting Harpy" not in names:
                got.add(None)
            else:
                got.add(tuple(sorted(o.name for o in out.state.zone("battlefield", "alice") if o.tapped)))
        assert got == unless_results(lands, 2), lands


def test_reader_sacrifice_unless_you_pay():
    [upkeep] = [a for a in get_card("Drifter il-Dal").abilities if isinstance(a, ir.TriggeredAbility)]
    [eff] = upkeep.effects
    assert isinstance(eff, ir.SacrificeUnlessPays) and eff.mana.text == "{U}"


def _observer(text: str) -> dict:
    """A creature with one triggered ability whose intervening "if" keeps it unread (CR 603.4)."""
    return {"name": "Test Observer", "type": "Creature — Human", "types": ["Creature"], "subtypes": ["Human"],
            "power": "1", "toughness": "1", "text": text}


@pytest.mark.parametrize("observer,blocked", [
    ("Whenever another creature dies, if it was a Goblin, you gain 1 life.", True),
    ("Whenever you cast a spell, if it's your turn, you gain 1 life.", False),
])
def test_an_unread_trigger_blocks_a_sacrifice_only_when_its_event_can_happen(observer, blocked):
    """A sacrifice puts creatures into the graveyard (they die, CR 701.21a, 700.4): an unread "whenever
    … dies" trigger on the battlefield blocks the resolution; an unread "whenever you cast" does not
    (casting can't happen while the edict resolves, CR 603.2)."""
    doc = {**BASE, "battlefield": {"bob": [{"id": "observer", "card": _observer(observer)}, "Grizzly Bears"]},
           "stack": [{"card": "Diabolic Edict", "controller": "alice", "targets": [["bob"]]}]}
    r = Situation.from_dict(doc).query({"kind": "resolve"})
    assert r["status"] == ("unsupported" if blocked else "ok"), r.get("reason")


def _mv(name: str) -> int:
    return get_card(name).data.mana_cost.mana_value


def _types_of(name: str) -> set[str]:
    return set(get_card(name).data.types)


HAND_POOL = ["Lightning Bolt", "Grizzly Bears", "Forest", "Counterspell", "Wrath of God", "Liliana of the Veil",
             "Ornithopter", "Lightning Bolt"]


@pytest.mark.parametrize("spell,qualifies", [
    ("Duress", lambda n: not _types_of(n) & {"Creature", "Land"}),                 # noncreature, nonland
    ("Thoughtseize", lambda n: "Land" not in _types_of(n)),                        # nonland
    ("Inquisition of Kozilek", lambda n: "Land" not in _types_of(n) and _mv(n) <= 3),
    ("Despise", lambda n: bool(_types_of(n) & {"Creature", "Planeswalker"})),
])
def test_you_choose_a_card_they_discard_matches_reference(spell, qualifies):
    rng = random.Random(18)
    for _ in range(8):
        hand = [rng.choice(HAND_POOL) for _ in range(rng.randint(0, 4))]
        doc = {**BASE, "hand": {"bob": hand}, "stack": [{"card": spell, "controller": "alice", "targets": [["bob"]]}]}
        got = {_names(out, "graveyard", "bob") for out in _outcomes(doc)}
        assert got == choose_one_results(hand, qualifies), (spell, hand)


def test_sacrifice_it_when_it_is_the_source():
    """Archway Commons: "When this land enters, sacrifice it unless you pay {1}." ("it": the land)."""
    [etb] = [a for a in get_card("Archway Commons").abilities if isinstance(a, ir.TriggeredAbility)]
    assert [e.kind for e in etb.effects] == ["sacrifice_unless"]


def test_sacrifice_of_either_type_matches_reference():
    """Mire in Misery: "Each opponent sacrifices a creature or enchantment of their choice." — any
    permanent of either type the opponent controls (CR 701.21a), not a land, not alice's."""
    pool = ["Grizzly Bears", "Glorious Anthem", "Ornithopter", "Forest", "Glorious Anthem"]
    rng = random.Random(19)
    for _ in range(10):
        board = [rng.choice(pool) for _ in range(rng.randint(0, 4))]
        doc = {**BASE, "battlefield": {"bob": board, "alice": ["Grizzly Bears"]},
               "stack": [{"card": "Mire in Misery", "controller": "alice"}]}
        got = {_names(out, "graveyard", "bob") for out in _outcomes(doc)}
        eligible = [n for n in board if _types_of(n) & {"Creature", "Enchantment"}]
        assert got == choose_results(eligible, 1), board
