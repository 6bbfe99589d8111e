""""You may pay <mana>. If you do, <instructions>." in a triggered ability's resolution (CR 608.2d, 118.3,
605.3a): read as one instruction (reader/effects_pay.py) and resolved with one outcome where the
controller declines and one per distinct payment, after which the instructions happen — against an
independent reference on random boards of lands; soundness both ways.

The reference, from the rules: the controller may decline; or pay with any one untapped land that
produces the mana (CR 106.1, 605.3a), interchangeable lands (same name, untapped) being one choice."""
from __future__ import annotations

from hypothesis import given, settings, strategies as st

from mtgsolve.solver.io.load import situation_from_dict
from mtgsolve.solver.queries import answer

_PRODUCES = {"Forest": "G", "Island": "U", "Mountain": "R"}


def _watcher(cost: str) -> dict:
    return {"name": "Toll Keeper", "types": ["Enchantment"],
            "text": f"At the beginning of your upkeep, you may pay {cost}. If you do, draw a card."}


def _doc(lands: list[str], cost: str) -> dict:
    return {"format": "mtgsolve/1", "players": ["alice", "bob"], "turn": {"number": 3, "active": "alice", "step": "upkeep"},
            "battlefield": {"alice": [{"card": _watcher(cost)}] + lands}, "library": {"alice": ["Plains"]},
            "stack": [{"ability": {"source": "toll-keeper", "index": 1}, "controller": "alice"}]}


def _reference(lands: list[str], cost: str) -> set[tuple[bool, str]]:
    """(drew a card, the land tapped or "") per outcome."""
    need = cost.strip("{}")
    payers = {n for n in lands if need == "1" or _PRODUCES[n] == need}
    return {(False, "")} | {(True, n) for n in payers}


def _engine(doc: dict) -> set[tuple[bool, str]]:
    res = answer(situation_from_dict(doc).state, {"kind": "resolve"})
    assert res["status"] == "ok", res
    out = set()
    for o in res["outcomes"]:
        sit = o["situation"]
        drew = bool(sit.get("hand", {}).get("alice"))
        tapped = [x["card"] for x in sit["battlefield"]["alice"] if isinstance(x, dict) and x.get("tapped")]
        assert len(tapped) <= 1 and drew == bool(tapped), sit
        out.add((drew, tapped[0] if tapped else ""))
    assert len(out) == len(res["outcomes"])
    return out


@settings(max_examples=20, deadline=None)
@given(st.lists(st.sampled_from(sorted(_PRODUCES)), max_size=3), st.sampled_from(["{1}", "{G}", "{R}"]))
def test_may_pay_matches_the_reference(lands, cost):
    assert _engine(_doc(lands, cost)) == _reference(lands, cost)


def test_soundness_both_ways():
    """A read "you may pay … If you do" resolves; "If you don't" or energy ({E}) stays unread and blocks."""
    assert answer(situation_from_dict(_doc(["Forest"], "{1}")).state, {"kind": "resolve"})["status"] == "ok"
    for text in ("At the beginning of your upkeep, you may pay {1}. If you don't, you lose 2 life.",
                 "At the beginning of your upkeep, you may pay {E}. If you do, draw a card."):
        doc = _doc(["Forest"], "{1}")
        doc["battlefield"]["alice"][0] = {"card": {"name": "Toll Keeper", "types": ["Enchantment"], "text": text}}
        assert answer(situation_from_dict(doc).state, {"kind": "resolve"})["status"] == "unsupported"
