"""The ``known_top`` extension (CR 401.4, 701.24a): the top cards of a library in random order known
above a random rest — written by "search your library for a card, then shuffle and put that card on
top" and by cards put from a hand on top of a shuffled library (Brainstorm), read by draws. Checked
against the brute-force reference (tests/reference/library_positions_ref.py: the known cards drawn
first, then every order of the rest), and its soundness both ways: every other way of looking at or
putting cards into such a library is refused, draws are not."""
from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st

from mtgsolve.solver.api import Situation, UnsupportedCaseError
from mtgsolve.solver.api.games import deal_shuffled
from mtgsolve.solver.engine.resolution import resolve_top
from mtgsolve.solver.io.dump import dump_state
from tests.reference.library_positions_ref import draws_after_shuffle

POOL = ["Island", "Forest", "Lightning Bolt", "Grizzly Bears"]
BASE = {"format": "mtgsolve/1", "players": ["alice", "bob"], "turn": {"number": 3, "active": "alice", "step": "main1"}}


def _board(library: list[str], known: int, spell: str) -> dict:
    return {**BASE, "library": {"alice": library, "bob": ["Plains"]}, "shuffled": {"alice": True},
            "known_top": {"alice": known}, "stack": [{"card": spell, "controller": "alice"}]}


@settings(max_examples=30, deadline=None)
@given(library=st.lists(st.sampled_from(POOL), min_size=1, max_size=5), data=st.data())
def test_draws_from_a_known_top_match_the_reference(library, data):
    """Divination's two draws: the known cards first, then random cards of the rest, each distinct
    sequence with its probability."""
    known = data.draw(st.integers(1, len(library)))
    res = resolve_top(Situation.from_dict(_board(library, known, "Divination")).state)
    got: dict[tuple[str, ...], Fraction] = {}
    for out in res.outcomes:
        seq = tuple(o.card.name for o in out.state.zone("hand", "alice"))
        got[seq] = got.get(seq, Fraction(0)) + (out.probability if out.probability is not None else Fraction(1))
        left = dict(out.state.known_top).get("alice", 0)
        assert left == max(0, known - 2)
    want: dict[tuple[str, ...], Fraction] = {}
    for rest, p in draws_after_shuffle(library[known:], max(0, 2 - known)).items():
        seq = tuple(library[:known][:2]) + rest
        want[seq] = want.get(seq, Fraction(0)) + p
    assert got == want


@pytest.mark.parametrize("spell", ["Opt", "Preordain", "Impulse"])
def test_looking_at_a_known_top_with_a_random_rest_is_refused(spell):
    """Scry and "look at the top N cards" see known and random cards at once: refused, not guessed."""
    board = _board(["Island", "Forest", "Lightning Bolt", "Grizzly Bears", "Island"], 1, spell)
    with pytest.raises(UnsupportedCaseError, match="known and the rest is in random order"):
        Situation.from_dict(board).resolve()


def test_brainstorm_on_a_shuffled_library_leaves_its_two_cards_known_on_top():
    """Brainstorm (CR 121.1, 401.4): draw three, then two cards from the hand on top of a library in
    random order — those two known on top (``known_top`` 2), the rest random."""
    board = {**BASE, "hand": {"alice": ["Island"]}, "library": {"alice": ["Forest", "Lightning Bolt"] * 3},
             "shuffled": {"alice": True}, "stack": [{"card": "Brainstorm", "controller": "alice"}]}
    outs = [out for _c, out in Situation.from_dict(board).resolve()]
    assert outs
    for out in outs:
        assert dict(out.state.known_top) == {"alice": 2}
        assert "alice" in out.state.shuffled


def test_the_dealer_keeps_the_known_top_and_deals_the_rest():
    sit = Situation.from_dict({**BASE, "library": {"alice": ["Grizzly Bears"] + ["Island", "Forest", "Lightning Bolt"] * 3},
                               "shuffled": {"alice": True}, "known_top": {"alice": 1}})
    orders = set()
    for seed in range(8):
        dealt = deal_shuffled(sit, random.Random(seed))
        lib = [o.name for o in dealt.state.zone("library", "alice")]
        assert lib[0] == "Grizzly Bears" and not dealt.state.shuffled and not dealt.state.known_top
        orders.add(tuple(lib))
    assert len(orders) > 1


def test_known_top_round_trips():
    sit = Situation.from_dict({**BASE, "library": {"alice": ["Grizzly Bears", "Island", "Forest"]},
                               "shuffled": {"alice": True}, "known_top": {"alice": 1}})
    out = dump_state(sit.state)
    assert out["known_top"] == {"alice": 1}
    assert Situation.from_dict(out).state.key() == sit.state.key()
