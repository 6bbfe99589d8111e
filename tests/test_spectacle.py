"""Spectacle (CR 702.137a): an alternative cost usable only if an opponent lost life this
turn — the reader, the players' ``life_lost_this_turn`` (an extension), the ``actions``
entries, and soundness: when the situation doesn't record it, the spectacle line is an
unread part naming its printed text (contract §2.0), never a guess."""
from __future__ import annotations

from mtgsolve.solver.core import ir
from mtgsolve.solver.cards import get_card
from mtgsolve.solver.queries import Options, answer
from mtgsolve.solver.io.load import dump_state, situation_from_dict

SPECTACLE = ("Spectacle {R} (You may cast this spell for its spectacle cost rather than its mana cost if an "
             "opponent lost life this turn.)")


def state(bob, hand=("Light Up the Stage",), lands=3):
    d = {"format": "mtgsolve/1", "players": ["alice", bob],
         "turn": {"number": 3, "active": "alice", "step": "main1"},
         "battlefield": {"alice": ["Mountain"] * lands}, "hand": {"alice": list(hand)}}
    return situation_from_dict(d).state


def test_reader_reads_spectacle_as_a_conditional_alternative_cost():
    (opt,) = [a for a in get_card("Light Up the Stage").abilities if isinstance(a, ir.CastingOption)]
    assert (opt.kind, opt.name, opt.mana.text, opt.condition, opt.zone) == \
        ("alternative", "spectacle", "{R}", "opponent_lost_life", "hand")
    assert not get_card("Light Up the Stage").unsupported or all(
        "Spectacle" not in (u.text or "") for u in get_card("Light Up the Stage").unsupported)


def test_opponent_lost_life_allows_spectacle():
    res = answer(state({"id": "bob", "life_lost_this_turn": 1}, lands=1), {"kind": "actions"})
    assert res["status"] == "ok"
    casts = [a for a in res["actions"] if a["kind"] == "cast"]
    assert [(a["object"], a.get("alternative")) for a in casts] == [("light-up-the-stage", "spectacle")]


def test_no_life_lost_only_the_mana_cost():
    res = answer(state({"id": "bob", "life_lost_this_turn": 0}), {"kind": "actions"})
    assert res["status"] == "ok"
    casts = [a for a in res["actions"] if a["kind"] == "cast"]
    assert [(a["object"], a.get("alternative")) for a in casts] == [("light-up-the-stage", None)]


def test_not_recorded_is_unsupported_naming_the_spectacle_text():
    st = state("bob")
    res = answer(st, {"kind": "actions"})
    assert res["status"] == "unsupported"
    assert [(u["object"], u["text"], u["affects"]) for u in res["unsupported"]] == \
        [("light-up-the-stage", SPECTACLE, ["timing"])]
    # the payments of a mode don't depend on it; another card's payment neither
    assert answer(st, {"kind": "pay", "cast": "light-up-the-stage"})["status"] == "ok"
    assert answer(st, {"kind": "pay", "cast": "light-up-the-stage", "alternative": "spectacle"})["status"] == "ok"
    st2 = state("bob", hand=("Light Up the Stage", "Lightning Bolt"))
    assert answer(st2, {"kind": "pay", "cast": "lightning-bolt"})["status"] == "ok"
    # bob's own actions are not blocked by alice's card
    d = {"format": "mtgsolve/1", "players": ["alice", "bob"],
         "turn": {"number": 3, "active": "alice", "step": "main1", "priority": "bob"},
         "battlefield": {"bob": ["Mountain"]}, "hand": {"alice": ["Light Up the Stage"], "bob": ["Lightning Bolt"]}}
    assert answer(situation_from_dict(d).state, {"kind": "actions"})["status"] == "ok"


def test_one_opponent_known_to_have_lost_life_is_enough():
    d = {"format": "mtgsolve/1", "players": ["alice", {"id": "bob", "life_lost_this_turn": 2}, "carol"],
         "turn": {"number": 3, "active": "alice", "step": "main1"},
         "battlefield": {"alice": ["Mountain"]}, "hand": {"alice": ["Light Up the Stage"]}}
    res = answer(situation_from_dict(d).state, {"kind": "actions"})
    assert res["status"] == "ok", res


def test_life_lost_this_turn_round_trips_and_is_validated():
    st = state({"id": "bob", "life_lost_this_turn": 4})
    assert dump_state(st)["players"][1] == {"id": "bob", "life_lost_this_turn": 4}
    import pytest

    from mtgsolve.solver.core.errors import SituationError

    with pytest.raises(SituationError):
        state({"id": "bob", "life_lost_this_turn": -1})
