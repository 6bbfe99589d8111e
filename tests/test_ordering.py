"""Replacement-effect orderings (CR 614.5, 616.1, 616.2; contract §2.5).

The CP-SAT sequence model (``models.ordering`` through ``solver.rules.replacement``)
against the brute-force walk of ``tests/reference/ordering_ref.py`` on random
sets of effects, plus the rulings as examples and the ``order`` query's shape.

Example counts scale with ``MTGSOLVE_EXAMPLES`` (default: a CI-sized run);
``CI=true`` makes hypothesis derandomized.
"""
from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from reference.ordering_ref import counter_orders, mana_orders
from mtgsolve.solver.rules.characteristics import View
from mtgsolve.solver.core.errors import QueryError
from mtgsolve.solver.core.mana import Mana
from mtgsolve.solver.rules.mana_sources import could_produce, production_choices
from mtgsolve.solver.queries import Options, answer
from mtgsolve.solver.rules.replacement import counter_event, counter_event_outcomes, mana_event, mana_event_outcomes
from mtgsolve.solver.io.load import situation_from_dict

EXAMPLES = int(os.environ.get("MTGSOLVE_EXAMPLES", "0")) or None
SETTINGS = dict(deadline=None, derandomize=os.environ.get("CI", "").lower() == "true",
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def situation(**kw):
    d = {"format": "mtgsolve/1", "players": ["alice", "bob"]}
    d.update(kw)
    return situation_from_dict(d)


def ask(query, options=Options(), **kw):
    loaded = situation(query=query, **kw)
    return answer(loaded.state, loaded.queries[0], options)


# ---------------------------------------------------------------------------
# Rulings and rules examples
# ---------------------------------------------------------------------------


def test_reflection_and_contamination_give_b_or_bb():
    """Rules reference §1.9: Reflection then Contamination gives {B};
    Contamination then Reflection gives {B}{B} (Contamination replaces type and amount)."""
    r = ask({"kind": "order", "event": {"kind": "tap_for_mana", "object": "forest"}},
            battlefield={"alice": ["Forest", "Mana Reflection", "Contamination"]})
    assert r == {"kind": "order", "status": "ok", "count": 2, "outcomes": [
        {"result": {"mana": "{B}"}, "orders": [["mana-reflection", "contamination"]]},
        {"result": {"mana": "{B}{B}"}, "orders": [["contamination", "mana-reflection"]]}]}


def test_three_reflections_give_eight_times():
    r = ask({"kind": "order", "event": {"kind": "tap_for_mana", "object": "forest"}},
            battlefield={"alice": ["Forest"] + ["Mana Reflection"] * 3})
    assert r["count"] == 1
    assert r["outcomes"][0]["result"] == {"mana": "{G}" * 8}
    assert len(r["outcomes"][0]["orders"]) == 6  # identical effects are still distinct effects


def test_eight_identical_reflections_are_one_class():
    st_ = situation(battlefield={"alice": ["Forest"] + ["Mana Reflection"] * 8}).state
    ev = mana_event(View(st_), "forest", "alice", Mana.parse("{G}"), max_orders=10)
    assert list(ev.results) == [Mana.of({"G": 256})]
    assert ev.order_counts[Mana.of({"G": 256})] == 40320
    assert len(ev.results[Mana.of({"G": 256})]) == 10
    r = ask({"kind": "order", "event": {"kind": "tap_for_mana", "object": "forest"}}, Options(max_results=100),
            battlefield={"alice": ["Forest"] + ["Mana Reflection"] * 8})
    assert r["status"] == "truncated" and r["count"] == 1 and len(r["outcomes"][0]["orders"]) == 100


def test_hangarback_scales_and_season_cr_107_3m():
    """CR 107.3m: the enters-with replacement uses the spell's X. Scales then
    Season gives 2(X+1); Season then Scales gives 2X+1 (X = 3)."""
    r = ask({"kind": "order", "event": {"kind": "enter", "object": "hangarback-walker"}},
            battlefield={"alice": ["Doubling Season", "Hardened Scales"]},
            stack=[{"card": "Hangarback Walker", "x": 3, "controller": "alice"}])
    assert r["outcomes"] == [
        {"result": {"counters": {"+1/+1": 7}},
         "orders": [["hangarback-walker", "doubling-season", "hardened-scales"]]},
        {"result": {"counters": {"+1/+1": 8}},
         "orders": [["hangarback-walker", "hardened-scales", "doubling-season"]]}]


def test_x_zero_means_no_counters_and_no_scales():
    """With X = 0 no counters would be put: Hardened Scales and Doubling Season don't apply."""
    r = ask({"kind": "order", "event": {"kind": "enter", "object": "endless-one"}},
            battlefield={"alice": ["Doubling Season", "Hardened Scales"]},
            stack=[{"card": "Endless One", "x": 0, "controller": "alice"}])
    assert r["outcomes"] == [{"result": {"counters": {}}, "orders": [["endless-one"]]}]


def test_opponents_scales_do_not_apply():
    r = ask({"kind": "order", "event": {"kind": "counters", "object": "grizzly-bears", "counter": "+1/+1",
                                         "amount": 2}},
            battlefield={"alice": ["Grizzly Bears"], "bob": ["Hardened Scales", "Doubling Season"]})
    assert r["outcomes"] == [{"result": {"counters": {"+1/+1": 2}}, "orders": [[]]}]


def test_scales_only_on_creatures_and_plus_one_counters():
    r = ask({"kind": "order", "event": {"kind": "counters", "object": "doubling-season", "counter": "+1/+1",
                                         "amount": 1}},
            battlefield={"alice": ["Doubling Season", "Hardened Scales"]})
    assert r["outcomes"] == [{"result": {"counters": {"+1/+1": 2}}, "orders": [["doubling-season"]]}]


def test_pale_moon_only_nonbasic():
    kw = dict(battlefield={"alice": ["Tundra", "Forest"]}, effects=[{"card": "Pale Moon", "controller": "bob"}])
    r = ask({"kind": "order", "event": {"kind": "tap_for_mana", "object": "tundra"}}, **kw)
    assert r["outcomes"] == [{"result": {"mana": "{C}"}, "orders": [["Pale Moon"]]}]
    r = ask({"kind": "order", "event": {"kind": "tap_for_mana", "object": "forest"}}, **kw)
    assert r["outcomes"] == [{"result": {"mana": "{G}"}, "orders": [[]]}]


def test_deep_water_only_for_its_controller():
    kw = dict(battlefield={"alice": ["Forest", "Deep Water"], "bob": ["Forest"]},
              effects=[{"ability": {"source": "deep-water", "index": 1}, "controller": "alice"}])
    r = ask({"kind": "order", "event": {"kind": "tap_for_mana", "object": "forest"}}, **kw)
    assert r["outcomes"] == [{"result": {"mana": "{U}"}, "orders": [["deep-water"]]}]
    r = ask({"kind": "order", "event": {"kind": "tap_for_mana", "object": "forest-2"}}, **kw)
    assert r["outcomes"] == [{"result": {"mana": "{G}"}, "orders": [[]]}]


def test_order_query_mana_choice_and_index():
    kw = dict(battlefield={"alice": ["Adarkar Wastes", "Nyxbloom Ancient"]})
    r = ask({"kind": "order", "event": {"kind": "tap_for_mana", "object": "adarkar-wastes"}}, **kw)
    assert [o["result"]["mana"] for o in r["outcomes"]] == ["{W}{W}{W}", "{U}{U}{U}", "{C}{C}{C}"]
    r = ask({"kind": "order", "event": {"kind": "tap_for_mana", "object": "adarkar-wastes", "index": 2,
                                         "mana": "{U}"}}, **kw)
    assert r["outcomes"] == [{"result": {"mana": "{U}{U}{U}"}, "orders": [["nyxbloom-ancient"]]}]


@pytest.mark.parametrize("event,path", [
    ({"kind": "tap_for_mana", "object": "shock"}, "query.event.object"),
    ({"kind": "tap_for_mana", "object": "alice"}, "query.event.object"),
    ({"kind": "tap_for_mana", "object": "mana-reflection"}, "query.event.object"),
    ({"kind": "tap_for_mana", "object": "forest", "index": 2}, "query.event.index"),
    ({"kind": "counters", "object": "forest", "counter": "+1/+1", "amount": -1}, "query.event.amount"),
    ({"kind": "enter", "object": "forest"}, "query.event.object"),
    ({"kind": "explode", "object": "forest"}, "query.event.kind"),
])
def test_order_query_errors_are_located(event, path):
    with pytest.raises(QueryError) as e:
        ask({"kind": "order", "event": event}, battlefield={"alice": ["Forest", "Mana Reflection"]},
            hand={"alice": ["Shock"]})
    assert e.value.path == path


def test_counter_outcomes_api_shapes():
    """The API other modules use: CounterOutcome objects (dict(outcome) is the counters)."""
    st_ = situation(battlefield={"alice": ["Doubling Season", "Hardened Scales"]},
                    stack=[{"card": "Hangarback Walker", "x": 2, "controller": "alice"}]).state
    outs = counter_event_outcomes(View(st_), "hangarback-walker", "+1/+1", 2, True, 2)
    assert [dict(o) for o in outs] == [{"+1/+1": 5}, {"+1/+1": 6}]
    assert [o.orders for o in outs] == [[("hangarback-walker", "doubling-season", "hardened-scales")],
                                        [("hangarback-walker", "hardened-scales", "doubling-season")]]
    assert outs[1].counters == {"+1/+1": 6}
    assert mana_event_outcomes(View(st_), "doubling-season", "alice", Mana()) == {Mana(): [()]}


# ---------------------------------------------------------------------------
# The same mechanism serves available_mana, pay and resolve
# ---------------------------------------------------------------------------


def test_order_decides_available_mana_and_payability():
    kw = dict(battlefield={"alice": ["Forest", "Mana Reflection", "Contamination"]})
    r = ask({"kind": "available_mana"}, **kw)
    assert r["bundles"] == ["{B}{B}"]  # only Contamination-then-Reflection gives two
    for cost, payable in (("{B}{B}", True), ("{B}{B}{B}", False), ("{G}", False)):
        r = ask({"kind": "pay", "cost": cost}, **kw)
        assert r["status"] == "ok", r
        assert r["payable"] is payable, cost


def test_order_serves_resolve():
    r = ask({"kind": "resolve"}, battlefield={"alice": ["Doubling Season", "Hardened Scales"]},
            stack=[{"card": "Hangarback Walker", "x": 2, "controller": "alice"}])
    assert r["status"] == "ok", r
    counters = sorted(o["counters"].get("+1/+1", 0) for out in r["outcomes"]
                      for o in out["situation"]["battlefield"]["alice"]
                      if isinstance(o, dict) and o.get("id") == "hangarback-walker")
    assert counters == [5, 6]


# ---------------------------------------------------------------------------
# Differential tests against the brute-force walk
# ---------------------------------------------------------------------------

TAPPABLE = ["Forest", "Tundra", "Llanowar Elves", "Sol Ring", "Ancient Tomb", "Birds of Paradise", "Fetid Heath",
            "Gaea's Cradle"]


@st.composite
def mana_boards(draw):
    bf = {"alice": [], "bob": []}
    effects = []
    tapped = draw(st.sampled_from(TAPPABLE))
    owner = draw(st.sampled_from(["alice", "bob"]))
    bf[owner].append(tapped)
    n = 0
    for card, most in (("Mana Reflection", 3), ("Nyxbloom Ancient", 1), ("Contamination", 2)):
        for _ in range(draw(st.integers(0, most))):
            if n < 6:
                bf[draw(st.sampled_from(["alice", "bob"]))].append(card)
                n += 1
    for _ in range(draw(st.integers(0, 2))):
        if n < 6:
            effects.append({"card": "Pale Moon", "controller": draw(st.sampled_from(["alice", "bob"]))})
            n += 1
    if draw(st.booleans()) and n < 6:
        who = draw(st.sampled_from(["alice", "bob"]))
        bf[who].append("Deep Water")
        effects.append({"ability": {"source": "deep-water", "index": 1}, "controller": who})
    if draw(st.booleans()):
        bf["alice"].append("Grizzly Bears")
    return bf, effects, owner


@settings(max_examples=EXAMPLES or 150, **SETTINGS)
@given(mana_boards(), st.data())
def test_mana_orders_match_reference(board, data):
    bf, effects, owner = board
    view = View(situation(battlefield=bf, effects=effects).state)
    tapped = view.permanents_of(owner)[0].id
    cp = could_produce(view)
    amounts = set()
    for ab in view.chars(tapped).mana_abilities:
        amounts.update(production_choices(view, tapped, ab.produce, cp))
    produced = data.draw(st.sampled_from(sorted(amounts, key=lambda m: m.counts)))
    expected = mana_orders(view, tapped, owner, produced)
    for share in (False, True):
        got = mana_event(view, tapped, owner, produced, share=share)
        assert {k: set(v) for k, v in got.results.items()} == expected
        assert all(got.order_counts[k] == len(v) for k, v in expected.items())


@st.composite
def counter_boards(draw):
    bf = {"alice": [], "bob": []}
    for card in ("Doubling Season", "Hardened Scales"):
        for _ in range(draw(st.integers(0, 2))):
            bf[draw(st.sampled_from(["alice", "alice", "bob"]))].append(card)
    kind = draw(st.sampled_from(["enter", "counters"]))
    stack = []
    if kind == "enter":
        card = draw(st.sampled_from(["Hangarback Walker", "Endless One", "Grizzly Bears"]))
        stack.append({"card": card, "x": draw(st.integers(0, 3)), "controller": draw(st.sampled_from(["alice", "bob"]))})
        target = None
    else:
        target = draw(st.sampled_from(["Grizzly Bears", "Sol Ring"]))
        bf[draw(st.sampled_from(["alice", "bob"]))].append(target)
    return bf, stack, kind, target


@settings(max_examples=EXAMPLES or 120, **SETTINGS)
@given(counter_boards(), st.sampled_from(["+1/+1", "charge"]), st.integers(0, 3))
def test_counter_orders_match_reference(board, counter, amount):
    bf, stack, kind, target = board
    state = situation(battlefield=bf, stack=stack).state
    view = View(state)
    if kind == "enter":
        oid = state.zone("stack")[0].id
        x = state.obj(oid).x
        expected = counter_orders(view, oid, entering=True, x=x)
        got = counter_event(view, oid, entering=True, x=x)
        assert {k: set(v) for k, v in got.results.items()} == expected
        # the form the resolve helper uses: the counters worked out by the caller
        n = x if state.obj(oid).card.name != "Grizzly Bears" else 0
        if n or state.obj(oid).card.name != "Grizzly Bears":
            exp2 = counter_orders(view, oid, "+1/+1", n, entering=True)
            got2 = counter_event(view, oid, "+1/+1", n, entering=True)
            assert {k: set(v) for k, v in got2.results.items()} == exp2
    else:
        oid = next(o.id for o in view.permanents if o.card.name == target)
        expected = counter_orders(view, oid, counter, amount)
        got = counter_event(view, oid, counter, amount)
        assert {k: set(v) for k, v in got.results.items()} == expected
