"""The ``actions`` query (contract §2.6): rules of timing, exact counts, the
instances under instances/actions, and a differential test against the
brute-force reference (tests/reference/actions_ref.py) on random small boards.

``MTGSOLVE_EXAMPLES`` scales the number of generated boards (default 150,
about half a minute); ``CI=true`` derandomizes them.
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reference.actions_ref import reference_actions
from mtgsolve.solver.engine.actions import Oracle, candidates, timing_reason
from mtgsolve.solver.api import Situation
from mtgsolve.solver.core.errors import QueryError
from mtgsolve.solver.queries import Options, answer
from mtgsolve.solver.api.runner import check_loaded
from mtgsolve.solver.io.load import load_situation, situation_from_dict

ROOT = Path(__file__).resolve().parent.parent
INSTANCES = sorted((ROOT / "instances" / "actions").glob("*.yaml"))
EXAMPLES = int(os.environ.get("MTGSOLVE_EXAMPLES", "400"))


def state_of(**kw):
    d = {"format": "mtgsolve/1", "players": ["alice", "bob"],
         "turn": {"number": 3, "active": "alice", "step": "main1"}}
    d.update(kw)
    return situation_from_dict(d).state


def actions(state, **q):
    return answer(state, {"kind": "actions", **q})


@pytest.mark.parametrize("path", INSTANCES, ids=[p.stem for p in INSTANCES])
def test_instances(path):
    res = check_loaded(load_situation(path))
    assert res.ok, res.message


def test_there_are_instances():
    assert len(INSTANCES) >= 15


def test_result_shape_and_order():
    s = state_of(battlefield={"alice": ["Mountain", "Forest", "Prodigal Pyromancer"], "bob": ["Grizzly Bears"]},
                 hand={"alice": ["Shock", "Forest", "Grizzly Bears"]})
    r = actions(s)
    assert list(r) == ["kind", "status", "count", "actions"]
    assert r["status"] == "ok" and r["count"] == len(r["actions"])
    kinds = [(a["kind"], a.get("object", ""), a.get("index", 0)) for a in r["actions"]]
    assert kinds == sorted(kinds)
    by = {(a["kind"], a.get("object")): a for a in r["actions"]}
    assert by[("activate", "prodigal-pyromancer")] == {"kind": "activate", "object": "prodigal-pyromancer", "index": 1,
                                                        "targets": 4, "payments": 1}  # 2 players, 2 creatures
    assert by[("cast", "shock")]["targets"] == 4
    assert by[("cast", "grizzly-bears-2")]["payments"] == 1
    assert ("pass", None) in by and ("play_land", "forest-2") in by


def test_player_defaults_to_priority_and_is_validated():
    s = state_of(turn={"number": 3, "active": "alice", "priority": "bob", "step": "main1"},
                 battlefield={"bob": ["Mountain"]}, hand={"bob": ["Lightning Bolt"]})
    assert actions(s)["count"] == 2  # Bob: Lightning Bolt (instant) and pass
    assert actions(s, player="alice")["count"] == 0
    with pytest.raises(QueryError) as e:
        actions(s, player="carol")
    assert e.value.path == "query.player"
    with pytest.raises(QueryError) as e:
        answer(s, {"kind": "actions", "plyer": "bob"})
    assert "did you mean 'player'" in str(e.value)


def test_max_results_truncates_with_exact_count():
    s = state_of(hand={"alice": ["Forest", "Forest", "Mountain", "Island"]})
    r = answer(s, {"kind": "actions"}, Options(max_results=2))
    assert r["status"] == "truncated" and r["count"] == 5 and len(r["actions"]) == 2


def test_timeout_status():
    s = state_of(battlefield={"alice": ["Forest"] * 6}, hand={"alice": ["Grizzly Bears"]})
    r = answer(s, {"kind": "actions"}, Options(timeout=1e-9))
    assert r["status"] == "timeout" and r["count"] is None


def test_unsupported_text_is_reported():
    s = state_of(battlefield={"alice": ["Forest", "Forest", "Plains"]}, hand={"alice": ["Kitchen Finks"]})
    (finks,) = [a for a in actions(s)["actions"] if a["kind"] == "cast"]
    assert finks["unread"] and "Persist" in finks["unread"][0]


def test_identical_cards_share_their_work():
    lands = ["Mountain"] * 3 + ["Forest"] * 3
    one = state_of(battlefield={"alice": lands, "bob": ["Grizzly Bears"]}, hand={"alice": ["Shock"]})
    three = state_of(battlefield={"alice": lands, "bob": ["Grizzly Bears"]},
                     hand={"alice": ["Shock", "Shock", "Shock", "Lightning Bolt"]})
    o1, o3 = Oracle(one, "alice"), Oracle(three, "alice")
    from mtgsolve.solver.engine.actions import legal_action_entries
    e1, _, _ = legal_action_entries(one, "alice", oracle=o1)
    e3, _, _ = legal_action_entries(three, "alice", oracle=o3)
    assert [a for a in e3 if a.cand.object == "shock"] == [a for a in e1 if a.cand.object == "shock"]
    assert len([a for a in e3 if a.cand.kind == "cast"]) == 4
    # three Shocks cost what one does; Lightning Bolt ({R}, the same total cost) shares the payments
    assert o3.solves <= o1.solves + 2


def test_candidates_include_illegal_heads():
    s = state_of(turn={"number": 3, "active": "bob", "priority": "alice", "step": "main1"},
                 battlefield={"alice": [{"card": "Prodigal Pyromancer", "tapped": True}, "Forest"]},
                 hand={"alice": ["Forest", "Grizzly Bears"]})
    heads = [(c.kind, c.object, c.index) for c in candidates(s, "alice")]
    assert heads == [("activate", "prodigal-pyromancer", 1), ("cast", "grizzly-bears", 0), ("pass", "", 0),
                     ("play_land", "forest-2", 0)]
    from mtgsolve.solver.rules.characteristics import View
    v = View(s)
    reasons = [timing_reason(s, v, "alice", c) for c in candidates(s, "alice")]
    assert "tapped" in reasons[0] and "107.5" in reasons[0]
    assert "your own turn" in reasons[1] and reasons[2] is None and "your own turn" in reasons[3]


# ---------------------------------------------------------------------------
# Differential test against the brute-force reference
# ---------------------------------------------------------------------------

LANDS = ["Forest", "Mountain", "Plains", "Island", "Snow-Covered Forest", "Ancient Tomb", "City of Brass"]
PERMANENTS = ["Prodigal Pyromancer", "Hangarback Walker", "Order of Whiteclay", "Icehide Troll", "Llanowar Elves",
              "Coalition Honor Guard", "Grizzly Bears", "Gladecover Scout", "White Knight", "Thousand-Year Elixir",
              "Sol Ring", "Raging Goblin"]
HAND = ["Shock", "Lightning Bolt", "Giant Growth", "Murder", "Grizzly Bears", "Hangarback Walker", "Forest",
        "Mountain", "Arc Trail", "Cartouche of Strength", "Dauntless Onslaught", "Gitaxian Probe", "Kitchen Finks",
        "Dismember", "Plague Spores", "Vivid Crag"]
STEPS = ["main1"] * 6 + ["main2"] * 2 + ["upkeep", "beginning_of_combat", "declare_attackers", "end", "cleanup",
                                          "untap"]


def obj(card_names, flags):
    return st.tuples(st.sampled_from(card_names), st.booleans(), st.booleans()).map(
        lambda t: {"card": t[0], "tapped": t[1] and flags, "sick": t[2] and flags})


@st.composite
def boards(draw):
    d = {"format": "mtgsolve/1", "players": ["alice", "bob"]}
    active = draw(st.sampled_from(["alice", "alice", "alice", "bob"]))
    priority = draw(st.sampled_from(["alice"] * 5 + ["bob"]))
    d["turn"] = {"number": 3, "active": active, "priority": priority, "step": draw(st.sampled_from(STEPS)),
                 "lands_played": draw(st.sampled_from([0, 0, 1]))}
    d["battlefield"] = {
        "alice": draw(st.lists(obj(LANDS, True), max_size=4)) + draw(st.lists(obj(PERMANENTS, True), max_size=2)),
        "bob": draw(st.lists(st.one_of(obj(LANDS, False), obj(PERMANENTS, True)), max_size=2)),
    }
    d["hand"] = {"alice": draw(st.lists(st.sampled_from(HAND), max_size=3)),
                 "bob": draw(st.lists(st.sampled_from(HAND), max_size=1))}
    if draw(st.booleans()):
        d["graveyard"] = {"alice": draw(st.lists(st.sampled_from(["Grizzly Bears", "Kitchen Finks", "White Knight"]),
                                                 max_size=2))}
    if draw(st.integers(0, 4)) == 0:
        d["stack"] = [{"card": "Lightning Bolt", "controller": "bob", "targets": [["alice"]]}]
    if draw(st.integers(0, 3)) == 0:
        d["mana_pool"] = {"alice": draw(st.sampled_from(["{R}", "{G}{G}", "{C}"]))}
    return d


@settings(max_examples=EXAMPLES, deadline=None, derandomize=os.environ.get("CI") == "true",
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(boards())
def test_matches_brute_force_reference(board):
    state = situation_from_dict(board).state
    for player in ("alice", "bob"):
        got = actions(state, player=player)
        assert got["status"] == "ok", got
        entries = [{k: v for k, v in a.items() if k != "unread"} for a in got["actions"]]
        assert entries == reference_actions(state, player), board
        assert got["count"] == len(entries)
    # the Python API agrees with the query: heads, mask and the number of full actions
    sit = Situation(state)
    summary = actions(state)
    mask, cands = sit.legal_actions_mask()
    heads = [a for a, m in zip(cands, mask) if m]
    assert [a.to_json() for a in heads] == [{k: v for k, v in e.items() if k in ("kind", "object", "index")}
                                            for e in summary["actions"]]
    assert sit.legal_actions.count() == sum(e.get("targets", 1) * e.get("payments", 1) for e in summary["actions"])


# ---------------------------------------------------------------------------
# The payment witness: whenever it says "payable", the brute-force reference agrees
# ---------------------------------------------------------------------------

WITNESS_SOURCES = ["Forest", "Mountain", "Plains", "Island", "Swamp", "Taiga", "Tundra", "Snow-Covered Forest",
                   "Snow-Covered Island", "Ancient Tomb", "Sol Ring", "Birds of Paradise", "Llanowar Elves",
                   "Adarkar Wastes", "City of Brass", "Vivid Crag", "Chromatic Lantern", "Wastes", "Reflecting Pool",
                   "Celestial Dawn", "Contamination", "Mana Reflection", "Mana Flare", "Blood Moon", "Urborg, Tomb of Yawgmoth"]
COSTS = ["{G}", "{1}{R}", "{W}{U}", "{2}{G}{G}", "{S}", "{S}{S}", "{C}", "{G/W}{G/W}", "{2/W}", "{B/P}", "{1}{B/P}{B/P}",
         "{X}{R}", "{W}{U}{B}{R}{G}", "{3}", "{R}{R}{R}"]


@settings(max_examples=max(1, EXAMPLES // 2), deadline=None, derandomize=os.environ.get("CI") == "true",
          suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(obj(WITNESS_SOURCES, True), max_size=5), st.sampled_from(COSTS),
       st.sampled_from(["", "{R}", "{G}{W}"]), st.sampled_from([None, 0, 1, 2]))
def test_payment_witness_is_sound(perms, cost, pool, x):
    from reference.pay_ref import brute_pay
    from mtgsolve.solver.engine.actions import payment_witness
    from mtgsolve.solver.rules.characteristics import View
    from mtgsolve.solver.queries.pay import cost_of as total_cost

    d = {"format": "mtgsolve/1", "players": ["alice", "bob"], "battlefield": {"alice": perms}}
    if pool:
        d["mana_pool"] = {"alice": pool}
    state = situation_from_dict(d).state
    view = View(state)
    q = {"cost": cost}
    if "{X}" in cost and x is not None:
        q["x"] = x
    tc = total_cost(view, "alice", q)
    if payment_witness(view, "alice", tc):
        assert brute_pay(state, {"kind": "pay", **q, "player": "alice"}, view)["payable"], (d, q)


def test_unmodeled_activated_abilities_are_reported():
    relic = {"card": {"name": "Weird Relic", "type": "Artifact", "types": ["Artifact"],
                      "text": "{2}, {T}: Frobnicate target widget."}}
    s = state_of(battlefield={"alice": ["Forest", "Forest", relic]})
    r = actions(s)
    # contract §2.0: an unread activated ability of the player is an action that may be missing
    assert r["status"] == "unsupported"
    assert r["unsupported"] == [{"object": "weird-relic", "text": "{2}, {T}: Frobnicate target widget.",
                                 "affects": ["targets", "timing", "effect"]}]
    from mtgsolve.solver.api import UnsupportedCaseError
    with pytest.raises(UnsupportedCaseError):
        Situation(s).is_legal("activate weird-relic:1")
    assert Situation(s).legal_actions.summary() == r


def test_spending_restrictions_decide_which_spells_can_be_cast():
    """CR 106.6: Ancient Ziggurat's mana casts Llanowar Elves, not Giant Growth (same cost {G})."""
    st = state_of(battlefield={"alice": ["Ancient Ziggurat"]}, hand={"alice": ["Giant Growth", "Llanowar Elves"]})
    r = actions(st)
    cast = sorted(a["object"] for a in r["actions"] if a["kind"] == "cast")
    assert cast == ["llanowar-elves"]
