"""Library effects of resolution against the brute-force reference (tests/reference/library_ref.py):
searching a library (CR 701.23: Rampant Growth, Nature's Lore, Demonic Tutor, Sylvan Scrying) and
looking at its top cards then putting them back in any order (CR 401.4: Index, Sage Owl's trigger) —
on seeded random libraries, the engine's outcomes are exactly the reference's distinct results, each
once (no outcome is a permutation of interchangeable cards of another). Also: the reader reads these
wordings into the effect kinds ``search`` and ``arrange_top`` (solver/core/ir.py)."""
from __future__ import annotations

import random

import pytest

from mtgsolve.solver.api import Situation, UnsupportedCaseError
from mtgsolve.solver.cards import get_card
from tests.reference.library_ref import arrange_results, search_results

POOL = ["Forest", "Forest", "Mountain", "Island", "Taiga", "Grizzly Bears", "Lightning Bolt", "Plains",
        "Breeding Pool", "Llanowar Elves"]


SHOCK = {"Breeding Pool"}   # "As this land enters, you may pay 2 life. If you don't, it enters tapped."


def _data(name: str):
    return get_card(name).data


def _libraries(seed: int, count: int, lo: int = 0, hi: int = 7) -> list[list[str]]:
    rng = random.Random(seed)
    return [[rng.choice(POOL) for _ in range(rng.randint(lo, hi))] for _ in range(count)]


def _situation(library: list[str], spell: str, shuffled: bool = False) -> Situation:
    d: dict = {"format": "mtgsolve/1", "players": ["alice", "bob"],
               "turn": {"number": 3, "active": "alice", "step": "main1"},
               "library": {"alice": library, "bob": ["Plains"]},   # listed: alice's may be empty
               "stack": [{"card": spell, "controller": "alice"}]}
    if shuffled:
        d["shuffled"] = {"alice": True}
    return Situation.from_dict(d)


def _names(sit: Situation, zone: str) -> list[str]:
    return [o.name for o in sit.state.zone(zone, "alice")]


SEARCHES = {
    # spell: (where the card goes, stated quality?, the quality, read independently from the card data)
    "Rampant Growth": ("battlefield", True, lambda n: "Basic" in _data(n).supertypes and "Land" in _data(n).types),
    "Nature's Lore": ("battlefield", True, lambda n: "Forest" in _data(n).subtypes),
    "Sylvan Scrying": ("hand", True, lambda n: "Land" in _data(n).types),
    "Demonic Tutor": ("hand", False, lambda n: True),
}


@pytest.mark.parametrize("spell", sorted(SEARCHES))
@pytest.mark.parametrize("shuffled", [False, True])
def test_search_matches_reference(spell, shuffled):
    zone, stated, qualifies = SEARCHES[spell]
    for library in _libraries(2 * sorted(SEARCHES).index(spell) + shuffled, 12):
        outcomes = _situation(library, spell, shuffled).resolve()
        got = []
        for choices, sit in outcomes:
            found = [n for n in _names(sit, zone)]
            assert len(found) <= 1 and sit.state.shuffled == ("alice",), (library, choices)
            life = sit.state.player("alice").life
            if zone == "battlefield" and found:
                assert all(o.tapped == (spell == "Rampant Growth" or (o.name in SHOCK and life == 20))
                           for o in sit.state.zone("battlefield", "alice"))
            got.append((found[0] if found else None, life, tuple(sorted(_names(sit, "library")))))
        # a shock land put onto the battlefield: its controller pays 2 life or it enters tapped (CR 614.12)
        want = {(f, life, lib) for f, lib in search_results(library, qualifies, stated)
                for life in ((20, 18) if zone == "battlefield" and f in SHOCK else (20,))}
        assert len(got) == len(set(got)) and set(got) == want, (spell, library)


@pytest.mark.parametrize("spell,n", [("Index", 5)])
def test_arrange_top_matches_reference(spell, n):
    for library in _libraries(7, 25, 0, 8):
        outcomes = _situation(library, spell).resolve()
        got = [tuple(_names(sit, "library")) for _choices, sit in outcomes]
        assert len(got) == len(set(got)) and set(got) == arrange_results(library, n), library
        assert all(not sit.state.shuffled for _c, sit in outcomes)


def test_arrange_top_of_a_shuffled_library():
    """Order unknown: exact when the player sees the whole library (or every card is alike),
    refused otherwise (the situation format cannot say "top five known, the rest random")."""
    small = ["Island", "Plains", "Island", "Forest"]
    outcomes = _situation(small, "Index", shuffled=True).resolve()
    got = {tuple(_names(sit, "library")) for _c, sit in outcomes}
    assert got == arrange_results(small, 5) and all(not sit.state.shuffled for _c, sit in outcomes)
    alike = ["Island"] * 7
    outcomes = _situation(alike, "Index", shuffled=True).resolve()
    assert len(outcomes) == 1 and outcomes[0][1].state.shuffled == ("alice",)
    with pytest.raises(UnsupportedCaseError, match="shuffled library"):
        _situation(small + ["Mountain", "Swamp"], "Index", shuffled=True).resolve()


@pytest.mark.parametrize("name,described", [
    ("Rampant Growth", "search your library for a basic land card, put it onto the battlefield tapped, then shuffle"),
    ("Demonic Tutor", "search your library for a card, put it into your hand, then shuffle"),
    ("Nature's Lore", "search your library for a Forest card, put it onto the battlefield, then shuffle"),
    ("Sylvan Scrying", "search your library for a land card, put it into your hand, then shuffle"),
    ("Index", "look at the top 5 card(s) of your library, then put them back in any order"),
])
def test_reader_reads_the_templates(name, described):
    card = get_card(name)
    assert card.spell is not None and not card.unsupported
    assert [e.describe() for e in card.spell.effects] == [described]


@pytest.mark.parametrize("name", ["Cultivate"])
def test_other_search_wordings_stay_unread(name):
    """Only the executed wordings are read: "up to two …, put one onto the battlefield tapped and the other
    into your hand" ("then shuffle and put the card on top" is read: tests/test_effects_library.py; Harrow's
    "up to two basic land cards, put them onto the battlefield" is read since helper animate: tests/test_animate.py)."""
    card = get_card(name)
    assert card.spell is not None and any(e.kind == "unread" for e in card.spell.effects)


@pytest.mark.parametrize("spell", ["Rampant Growth", "Index"])
def test_no_library_listed_is_refused(spell):
    """As for a draw (solver/engine/turns.py): a situation listing no library at all does not say what the
    library holds; once one library is listed, a player with no cards listed has an empty one."""
    sit = Situation.from_dict({"format": "mtgsolve/1", "players": ["alice", "bob"],
                               "turn": {"number": 3, "active": "alice", "step": "main1"},
                               "stack": [{"card": spell, "controller": "alice"}]})
    with pytest.raises(UnsupportedCaseError, match="lists no library"):
        sit.resolve()
    listed = Situation.from_dict({**sit.to_dict(), "library": {"bob": ["Forest"]}})
    outcomes = listed.resolve()
    assert len(outcomes) == 1 and not listed.state.zone("library", "alice")
