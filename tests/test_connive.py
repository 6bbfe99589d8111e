"""Connive (CR 701.50), read by grammar (reader/effects_connive.py) and resolved with every distinct
outcome, against an independent brute-force reference on random hands and libraries; soundness both
ways (a read connive resolves; "When it connives this way, …" stays unread and blocks).

The reference follows the rule's text: the conniving permanent's controller draws N cards (the top of
a library in known order), discards N cards of their choice (all when fewer, CR 701.9b) — one outcome
per distinct multiset of cards — and gets a +1/+1 counter per nonland card discarded (701.50a, 701.50e)."""
from __future__ import annotations

from collections import Counter
from itertools import combinations

from hypothesis import given, settings, strategies as st

from mtgsolve.solver.io.load import situation_from_dict
from mtgsolve.solver.queries import answer

_LANDS = {"Island", "Forest"}
_CARDS = ["Island", "Forest", "Lightning Bolt", "Grizzly Bears"]


def _schemer(n: int) -> dict:
    text = "When this creature enters, it connives." if n == 1 else f"When this creature enters, it connives {n}."
    return {"name": "Test Schemer", "types": ["Creature"], "power": 1, "toughness": 1, "text": text}


def _doc(hand: list[str], library: list[str], n: int) -> dict:
    return {"format": "mtgsolve/1", "players": ["alice", "bob"], "turn": {"number": 3, "active": "alice", "step": "main1"},
            "battlefield": {"alice": [{"card": _schemer(n)}]}, "hand": {"alice": hand}, "library": {"alice": library},
            "stack": [{"ability": {"source": "test-schemer", "index": 1}, "controller": "alice"}]}


def _reference(hand: list[str], library: list[str], n: int) -> set[tuple[tuple[str, ...], int]]:
    """(the cards discarded, sorted; the +1/+1 counters put) for each distinct outcome."""
    held = hand + library[:n]
    k = min(n, len(held))
    return {(tuple(sorted(pick)), sum(1 for x in pick if x not in _LANDS)) for pick in combinations(held, k)}


def _engine(doc: dict) -> set[tuple[tuple[str, ...], int]]:
    res = answer(situation_from_dict(doc).state, {"kind": "resolve"})
    assert res["status"] == "ok", res
    out = set()
    for o in res["outcomes"]:
        sit = o["situation"]
        grave = tuple(sorted(x["card"] if isinstance(x, dict) else x for x in sit.get("graveyard", {}).get("alice", [])))
        schemer = next(x for x in sit["battlefield"]["alice"] if x["id"] == "test-schemer")
        out.add((grave, dict(schemer.get("counters", {})).get("+1/+1", 0)))
    assert len(out) == len(res["outcomes"]), res["outcomes"]   # the outcomes are distinct
    return out


@settings(max_examples=25, deadline=None)
@given(st.lists(st.sampled_from(_CARDS), max_size=3), st.lists(st.sampled_from(_CARDS), min_size=2, max_size=3),
       st.sampled_from([1, 2]))
def test_connive_matches_the_reference(hand, library, n):
    assert _engine(_doc(hand, library, n)) == _reference(hand, library, n)


def test_raffine_connives_x_the_number_of_attacking_creatures():
    """Raffine, Scheming Seer: "Whenever you attack, target attacking creature connives X, where X is the
    number of attacking creatures" — two attackers: draw two, discard two (two nonland: two counters)."""
    doc = {"format": "mtgsolve/1", "players": ["alice", "bob"],
           "turn": {"number": 3, "active": "alice", "step": "declare_attackers"},
           "battlefield": {"alice": [{"card": "Raffine, Scheming Seer", "attacking": "bob"},
                                     {"card": "Grizzly Bears", "attacking": "bob"}]},
           "library": {"alice": ["Lightning Bolt", "Lightning Bolt"]},
           "stack": [{"ability": {"source": "raffine-scheming-seer", "index": 2}, "controller": "alice",
                      "targets": [["grizzly-bears"]]}]}
    res = answer(situation_from_dict(doc).state, {"kind": "resolve"})
    assert res["status"] == "ok" and res["count"] == 1, res
    sit = res["outcomes"][0]["situation"]
    bears = next(x for x in sit["battlefield"]["alice"] if x["id"] == "grizzly-bears")
    assert bears["counters"] == {"+1/+1": 2} and len(sit["graveyard"]["alice"]) == 2


def test_soundness_both_ways():
    """A read connive resolves; the reflexive "When it connives this way, …" (CR 603.12) is read now (helper
    counters): the creature resolves and its enters ability goes on the stack. An unread reflexive variant
    is refused: tests/test_counters.py."""
    assert answer(situation_from_dict(_doc(["Island"], ["Forest"], 1)).state, {"kind": "resolve"})["status"] == "ok"
    doc = {"format": "mtgsolve/1", "players": ["alice", "bob"], "turn": {"number": 3, "active": "alice", "step": "main1"},
           "library": {"alice": ["Island"]}, "stack": [{"card": "Psychic Pickpocket", "controller": "alice"}]}
    assert answer(situation_from_dict(doc).state, {"kind": "resolve"})["status"] == "ok"
