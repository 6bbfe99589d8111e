"""Payments that use a per-turn-limited mana ability without {T} (CR 602.5b).

Using Abzan Devotee's "{1}: Add {W}, {B}, or {G}. Activate only once each
turn." leaves a different situation behind (it can't be activated again this
turn), so pay lists it as its own payment with ``activated``, and the API's
``apply`` records it in ``activated_this_turn``. The brute-force reference
(tests/reference/pay_ref.py) names such uses independently.
"""
from __future__ import annotations

from mtgsolve.solver.api import Action, Situation
from mtgsolve.solver.queries import answer
from mtgsolve.solver.io.load import situation_from_dict

DOC = {"format": "mtgsolve/1", "players": ["alice", "bob"], "turn": {"active": "alice", "step": "main1"},
       "battlefield": {"alice": ["Abzan Devotee", "Forest", "Forest"]}, "hand": {"alice": ["Grizzly Bears"]}}


def test_pay_lists_the_use_of_a_limited_ability_as_a_distinct_payment():
    res = answer(situation_from_dict(DOC).state, {"kind": "pay", "cost": "{G}{G}"})
    assert res["count"] == 2
    assert [p.get("activated") for p in res["payments"]] == [None, {"abzan-devotee": {"1": 1}}]


def test_already_used_this_turn_it_is_not_offered():
    doc = {**DOC, "battlefield": {"alice": [{"card": "Abzan Devotee", "activated_this_turn": {1: 1}},
                                            "Forest", "Forest"]}}
    res = answer(situation_from_dict(doc).state, {"kind": "pay", "cost": "{G}{G}"})
    assert res["count"] == 1 and "activated" not in res["payments"][0]


def test_apply_records_the_activation():
    s = Situation.from_dict(DOC)
    (used,) = [a for a in s.legal_actions if a.kind == "cast" and a.payment.activated]
    assert str(used) == "cast grizzly-bears paying forest, forest-2 activating abzan-devotee 1 1"
    assert Action.parse(str(used)) == used and Action.from_json(used.to_json()) == used
    after = s.apply(used)
    devotee = after.to_dict()["battlefield"]["alice"][0]
    assert devotee["activated_this_turn"] == {1: 1}


def test_playing_a_land_that_chooses_a_color_is_refused_not_guessed():
    import pytest

    from mtgsolve.solver.api import UnsupportedActionError
    s = Situation.from_dict({"format": "mtgsolve/1", "players": ["alice", "bob"],
                             "turn": {"active": "alice", "step": "main1"}, "hand": {"alice": ["Thriving Bluff"]}})
    with pytest.raises(UnsupportedActionError, match="choose a color"):
        s.apply("play thriving-bluff")
