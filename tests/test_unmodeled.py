"""Unmodeled parts that bear on mana are reported, never ignored (solver/unmodeled.py)."""
from __future__ import annotations

import pytest

from solver import ir
from solver.cards import get_card
from solver.queries import answer
from solver.situation import situation_from_dict


def _state(*cards: str, hand: tuple[str, ...] = ()):
    return situation_from_dict({"format": "mtgsolve/1", "players": ["alice", "bob"],
                                "turn": {"active": "alice", "step": "main1"},
                                "battlefield": {"alice": list(cards)}, "hand": {"alice": list(hand)}}).state


@pytest.mark.parametrize("query", [{"kind": "could_produce"}, {"kind": "available_mana"},
                                   {"kind": "pay", "cost": "{G}"}, {"kind": "actions"}])
def test_an_unmodeled_mana_ability_makes_mana_queries_unsupported(query):
    # Chrome Mox: "{T}: Add one mana of any of the exiled card's colors." — the exiled card isn't in the state
    res = answer(_state("Chrome Mox", "Forest", hand=("Grizzly Bears",)), query)
    assert res["status"] == "error"
    assert res["error"].startswith("unsupported: 'chrome-mox': its mana ability is not modeled")


def test_a_rider_that_changes_nothing_asked_is_a_note():
    # Cavern of Souls: "…, and that spell can't be countered" — not read, and irrelevant to mana answers
    st = _state("Cavern of Souls", "Forest")
    for q in ({"kind": "could_produce"}, {"kind": "available_mana"}):
        res = answer(st, q)
        assert res["status"] == "ok"
        assert res["unsupported"] == ["cavern-of-souls: and that spell can't be countered"]


def test_riders_do_not_shift_activated_ability_numbers():
    parts = get_card("Cavern of Souls").abilities
    riders = [a for a in parts if isinstance(a, ir.Unsupported)]
    assert riders and all(r.kind == "rider" for r in riders)
    assert sum(ir.is_activated(a) for a in parts) == 2  # {T}: Add {C} and the any-color ability


def test_an_unread_spending_restriction_blocks_mana_answers():
    # Elfhame Druid's second ability: "{T}: Add {G}{G}. Spend this mana only to cast kicked spells." — the
    # restriction isn't modeled, so its mana might be unusable: no answer rather than a wrong one
    res = answer(_state("Elfhame Druid"), {"kind": "pay", "cost": "{G}{G}"})
    assert res["status"] == "error" and "spending rule" in res["error"] and "kicked" in res["error"]


def test_a_control_condition_a_sacrifice_could_break_is_unsupported():
    # Blazemire Verge: "{T}: Add {R}. Activate only if you control a Swamp or a Mountain." With Squandered
    # Resources able to sacrifice that Swamp for mana first, the order of activations matters.
    res = answer(_state("Blazemire Verge", "Swamp", "Squandered Resources"), {"kind": "pay", "cost": "{R}{B}"})
    assert res["status"] == "error" and "order of activations matters" in res["error"]
    # nothing that can sacrifice now: answered exactly
    res = answer(_state("Blazemire Verge", "Swamp"), {"kind": "pay", "cost": "{R}{B}"})
    assert res["status"] == "ok" and res["payable"] is True
