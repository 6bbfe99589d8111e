"""A library search for a card of a subtype (CR 701.23a, 205.3): "an Equipment card" (Steelshaper's
Gift), "a Goblin card" (Goblin Matron's trigger) — read by grammar, any subtype — against the
brute-force reference (tests/reference/library_ref.py): one outcome per class of interchangeable
qualifying cards and one finding nothing (a stated quality, CR 701.23b), then a shuffle. "You may
search" (Goblin Matron) adds the outcome where the player doesn't search (no shuffle, CR 608.2d)."""
from __future__ import annotations

import random

import pytest

from mtgsolve.solver.api import Situation
from mtgsolve.solver.cards import get_card
from tests.reference.library_ref import search_results

POOL = ["Bonesplitter", "Bonesplitter", "Sword of Fire and Ice", "Goblin Guide", "Mogg Fanatic", "Forest",
        "Lightning Bolt"]


def _libraries(seed: int, count: int) -> list[list[str]]:
    rng = random.Random(seed)
    return [[rng.choice(POOL) for _ in range(rng.randint(0, 6))] for _ in range(count)]


def _names(sit: Situation, zone: str) -> list[str]:
    return [o.name for o in sit.state.zone(zone, "alice")]


def _subtypes(name: str) -> set[str]:
    return set(get_card(name).data.subtypes)


def test_equipment_search_matches_reference():
    for library in _libraries(1, 14):
        sit = Situation.from_dict({"format": "mtgsolve/1", "players": ["alice", "bob"],
                                   "turn": {"number": 3, "active": "alice", "step": "main1"},
                                   "library": {"alice": library, "bob": ["Plains"]},
                                   "stack": [{"card": "Steelshaper's Gift", "controller": "alice"}]})
        got = []
        for _c, out in sit.resolve():
            hand = _names(out, "hand")
            assert len(hand) <= 1 and out.state.shuffled == ("alice",)
            got.append((hand[0] if hand else None, tuple(sorted(_names(out, "library")))))
        want = search_results(library, lambda n: "Equipment" in _subtypes(n), True)
        assert len(got) == len(set(got)) and set(got) == want, library


def test_you_may_search_for_a_goblin():
    """Goblin Matron's trigger on the stack: decline (the library stays as it is, unshuffled), or
    search — find a Goblin of each kind, or nothing."""
    library = ["Goblin Guide", "Forest", "Mogg Fanatic", "Goblin Guide"]
    sit = Situation.from_dict({"format": "mtgsolve/1", "players": ["alice", "bob"],
                               "turn": {"number": 3, "active": "alice", "step": "main1"},
                               "battlefield": {"alice": [{"id": "matron", "card": "Goblin Matron"}]},
                               "library": {"alice": library, "bob": ["Plains"]},
                               "stack": [{"ability": {"source": "matron", "index": 1}, "controller": "alice"}]})
    got = set()
    for choices, out in sit.resolve():
        hand = _names(out, "hand")
        if choices.get("may") is False:
            assert _names(out, "library") == library and not out.state.shuffled
            got.add("declined")
        else:
            got.add((hand[0] if hand else None, tuple(sorted(_names(out, "library")))))
    assert got == {"declined"} | search_results(library, lambda n: "Goblin" in _subtypes(n), True)


@pytest.mark.parametrize("name,described", [
    ("Steelshaper's Gift", "search your library for an Equipment card, put it into your hand, then shuffle"),
    ("Goblin Matron", "you may: search your library for a Goblin card, put it into your hand, then shuffle"),
    ("Stoneforge Mystic", "you may: search your library for an Equipment card, put it into your hand, then shuffle"),
])
def test_reader_reads_any_subtype(name, described):
    card = get_card(name)
    effects = card.spell.effects if card.spell is not None else next(
        a for a in card.abilities if getattr(a, "effects", ())).effects
    assert [e.describe() for e in effects] == [described]
