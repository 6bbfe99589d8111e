"""Scry (CR 701.22), surveil (CR 701.25) and "look at the top N cards, put one of them into your hand
and the rest on the bottom in any order" against the brute-force reference
(tests/reference/scry_ref.py): on seeded random libraries the engine's outcomes are exactly the
reference's distinct results, each once (no outcome is a permutation of interchangeable cards of
another; two splits giving one library are one outcome). A library in random order follows the
rule of "look at the top N cards" (tests/test_library_effects.py): exact when the player sees it
whole or all its cards are alike, refused otherwise. The reader reads "scry N" / "surveil N" as
the kinds ``scry`` / ``surveil``, alone and in sequences ("scry 2, then draw a card")."""
from __future__ import annotations

import random
from itertools import permutations

import pytest

from mtgsolve.solver.api import Situation, UnsupportedCaseError
from mtgsolve.solver.cards import get_card
from tests.reference.scry_ref import choose_one_results, hand_on_top_results, scry_results, surveil_results

POOL = ["Forest", "Forest", "Island", "Island", "Mountain", "Lightning Bolt", "Grizzly Bears"]


def _libraries(seed: int, count: int, hi: int = 6) -> list[list[str]]:
    rng = random.Random(seed)
    return [[rng.choice(POOL) for _ in range(rng.randint(0, hi))] for _ in range(count)]


def _situation(library: list[str], spell: str, shuffled: bool = False) -> Situation:
    d: dict = {"format": "mtgsolve/1", "players": ["alice", "bob"],
               "turn": {"number": 3, "active": "alice", "step": "main1"},
               "library": {"alice": library, "bob": ["Plains"]},
               "stack": [{"card": spell, "controller": "alice"}]}
    if shuffled:
        d["shuffled"] = {"alice": True}
    return Situation.from_dict(d)


def _names(sit: Situation, zone: str) -> tuple[str, ...]:
    return tuple(o.name for o in sit.state.zone(zone, "alice"))


def _after_draw(library: tuple[str, ...], draws: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The library and the hand after drawing ``draws`` cards. The hand is taken in the order the
    cards were drawn: the engine's situations keep a zone's order (GameState.key), so two draws of
    the same cards in another order are two situations."""
    return library[draws:], tuple(library[:draws])


# spell: (scry or surveil, N, cards drawn after)
SPELLS = {"Opt": ("scry", 1, 1), "Preordain": ("scry", 2, 1), "Foresee": ("scry", 4, 2),
          "Consider": ("surveil", 1, 1), "Notion Rain": ("surveil", 2, 2)}


@pytest.mark.parametrize("spell", sorted(SPELLS))
def test_matches_reference(spell):
    action, n, draws = SPELLS[spell]
    for library in _libraries(sorted(SPELLS).index(spell), 14):
        outcomes = _situation(library, spell).resolve()
        got = []
        for _choices, sit in outcomes:
            lib, hand = _names(sit, "library"), _names(sit, "hand")
            gy = tuple(sorted(n for n in _names(sit, "graveyard") if n != spell))
            got.append((lib, hand, gy))
        if action == "scry":
            want = {_after_draw(r, draws) + ((),) for r in scry_results(library, n)}
        else:
            want = {_after_draw(r, draws) + (g,) for r, g in surveil_results(library, n)}
        assert len(got) == len(set(got)) and set(got) == want, (spell, library)


def test_choices_name_the_split():
    outcomes = _situation(["Island", "Forest", "Mountain"], "Preordain").resolve()
    assert len(outcomes) == 6  # {I,F} top in 2 orders, one on the bottom (2), both on the bottom in 2 orders
    assert all(set(c["scry"]) == {"top", "bottom"} for c, _s in outcomes)


def test_alike_cards_are_one_outcome():
    """Scry 4 of Island, Island, Forest: 24 splits and orders, three libraries (the Forest first,
    second or third), so three outcomes."""
    outcomes = _situation(["Island", "Island", "Forest"], "Foresee").resolve()
    assert len(outcomes) == len(scry_results(["Island", "Island", "Forest"], 4)) == 3


def test_a_shuffled_library():
    """Order unknown: exact when the player sees the whole library (it is then in a known order)
    or every card is alike (it stays in random order); refused otherwise."""
    small = ["Island", "Forest"]
    with pytest.raises(UnsupportedCaseError, match="random order"):
        _situation(small, "Opt", shuffled=True).resolve()
    outcomes = _situation(small, "Foresee", shuffled=True).resolve()
    got = {(_names(sit, "library"), _names(sit, "hand")) for _c, sit in outcomes}
    assert got == {_after_draw(r, 2) for r in scry_results(small, 4)}
    alike = ["Island"] * 5
    outcomes = _situation(alike, "Opt", shuffled=True).resolve()
    assert len(outcomes) == 1 and outcomes[0][1].state.shuffled == ("alice",)
    outcomes = _situation(alike, "Consider", shuffled=True).resolve()
    assert sorted(len(_names(sit, "library")) for _c, sit in outcomes) == [3, 4]


@pytest.mark.parametrize("name,described", [
    ("Opt", ["scry 1", "draw 1 card(s)"]),
    ("Consider", ["surveil 1", "draw 1 card(s)"]),
    ("Omen of the Sea", None),
])
def test_reader_reads_scry_and_surveil(name, described):
    card = get_card(name)
    assert not card.unsupported
    if described is not None:
        assert card.spell is not None and [e.describe() for e in card.spell.effects] == described


def test_scry_in_a_trigger_and_an_activated_ability():
    """"When this enchantment enters, scry 2, then draw a card." and "{2}{U}, Sacrifice this
    enchantment: Scry 2." (Omen of the Sea): read as a sequence."""
    card = get_card("Omen of the Sea")
    described = [[e.describe() for e in getattr(a, "effects", ())] for a in card.abilities]
    assert ["scry 2", "draw 1 card(s)"] in described and ["scry 2"] in described


def test_other_look_wordings_stay_unread():
    """Not these templates: "look at the top X cards …, where X is the amount of mana spent to cast this
    spell" (Memory Deluge) stays an unread effect ("… and the rest into your graveyard", Ancestral
    Memories, is read by tests/test_dig.py's template)."""
    card = get_card("Memory Deluge")
    assert card.spell is not None and any(e.kind == "unread" for e in card.spell.effects)


@pytest.mark.parametrize("spell,n", [("Sleight of Hand", 2), ("Anticipate", 3), ("Impulse", 4)])
def test_choose_one_matches_reference(spell, n):
    for library in _libraries(10 + n, 14):
        outcomes = _situation(library, spell).resolve()
        got = []
        for _choices, sit in outcomes:
            hand = _names(sit, "hand")
            assert len(hand) == (1 if library else 0)
            got.append((hand[0] if hand else None, _names(sit, "library")))
        want = choose_one_results(library, n) if library else {(None, ())}
        assert len(got) == len(set(got)) and set(got) == want, (spell, library)


def test_choose_one_reads_two_sentences_as_one():
    card = get_card("Anticipate")
    assert card.spell is not None and not card.unsupported
    assert [e.kind for e in card.spell.effects] == ["choose_from_top"]


def test_brainstorm_matches_reference():
    """Brainstorm: "Draw three cards, then put two cards from your hand on top of your library in any
    order." (CR 401.4): every distinct pair, in every distinct order."""
    rng = random.Random(5)
    for _ in range(12):
        hand = [rng.choice(POOL) for _ in range(rng.randint(0, 3))]
        library = [rng.choice(POOL) for _ in range(rng.randint(0, 5))]
        d = {"format": "mtgsolve/1", "players": ["alice", "bob"],
             "turn": {"number": 3, "active": "alice", "step": "main1"},
             "hand": {"alice": hand}, "library": {"alice": library, "bob": ["Plains"]},
             "stack": [{"card": "Brainstorm", "controller": "alice"}]}
        got = [(_names(sit, "library"), tuple(sorted(_names(sit, "hand"))))
               for _c, sit in Situation.from_dict(d).resolve()]
        want = hand_on_top_results(hand + library[:3], library[3:], 2)
        assert len(got) == len(set(got)) and set(got) == want, (hand, library)


def test_ponder_may_shuffle():
    """Ponder: "Look at the top three cards of your library, then put them back in any order. You
    may shuffle. Draw a card." Not shuffling: one outcome per order (the top card drawn); shuffling:
    the draw is a random event over the three cards (CR 701.24a, 121.1)."""
    library = ["Island", "Forest", "Mountain"]
    outcomes = _situation(library, "Ponder").resolve()
    kept = [(c, s) for c, s in outcomes if c.get("may") is False]
    shuffled = [(c, s) for c, s in outcomes if c.get("may") is True]
    assert {(_names(s, "hand"), _names(s, "library")) for _c, s in kept} == {
        ((lib[0],), lib[1:]) for lib in permutations(library)}
    assert {_names(s, "hand") for _c, s in shuffled} == {("Island",), ("Forest",), ("Mountain",)}
    assert all(s.state.shuffled == ("alice",) for _c, s in shuffled)
