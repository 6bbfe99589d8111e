"""The counting DP of models/payment_count.py (issue 16): counts without listing.

Differential: on random small boards, the DP's count equals the number of
keys the CP-SAT enumeration (models/payment.PaymentModel) lists and the
brute-force reference's count (tests/reference/pay_ref.py); its lazy listing
gives exactly the same payments. Plus exact counts on boards too large to
list (closed forms), and the pieces of the API that now count instead of
listing (``pay`` truncation, ``actions`` payments, ``LegalActions.count``).

``MTGSOLVE_EXAMPLES`` scales the example counts (see tests/conftest.py).
"""
from __future__ import annotations

import json
import os
import time

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from mtgsolve.models import payment as pm
from mtgsolve.models import payment_count as pcount
from reference.pay_ref import brute_pay
from mtgsolve.solver.rules.characteristics import View
from mtgsolve.solver.queries.pay import cost_of as total_cost
from mtgsolve.solver.queries.payments import paid_object as payment_object
from mtgsolve.solver.queries import Options, answer
from mtgsolve.solver.queries.pay import build_problem, count_payments
from mtgsolve.solver.io.load import situation_from_dict

BASE = {"format": "mtgsolve/1", "players": ["alice", "bob"]}
EXAMPLES = int(os.environ.get("MTGSOLVE_EXAMPLES", "0")) or None
CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")

# sources the DP covers ({T}: add …, with damage, replacement effects and triggered mana)
SIMPLE = ["Forest", "Plains", "Island", "Swamp", "Mountain", "Wastes", "Tundra", "Taiga", "Tropical Island",
          "Reflecting Pool", "Exotic Orchard", "Adarkar Wastes", "Llanowar Wastes", "City of Brass",
          "Mana Confluence", "Ancient Tomb", "Gaea's Cradle", "Llanowar Elves", "Birds of Paradise", "Sol Ring",
          "Fellwar Stone", "Snow-Covered Forest"]
# and some it doesn't (the problem then falls back to the enumeration; the test checks both agree anyway)
OTHER = ["Vivid Crag", "Crystal Quarry", "Squandered Resources", "Ancient Ziggurat", "Fetid Heath", "Plaza of Heroes",
         "Selesnya Signet", "Vivid Grove"]
GLOBALS = ["Mana Reflection", "Contamination", "Mana Flare", "Heartbeat of Spring"]
SYMBOLS = ["{1}", "{2}", "{W}", "{U}", "{B}", "{R}", "{G}", "{C}", "{G/W}", "{2/R}", "{C/G}", "{W/P}", "{X}"]


def _settings(default: int):
    return settings(max_examples=EXAMPLES or default, deadline=None, derandomize=CI or EXAMPLES is None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.filter_too_much])


@st.composite
def boards(draw):
    perms = []
    for _ in range(draw(st.integers(1, 5))):
        name = draw(st.sampled_from(SIMPLE * 3 + OTHER))
        obj: dict = {"card": name}
        if draw(st.integers(0, 5)) == 0:
            obj["tapped"] = True
        if name.startswith("Vivid"):
            obj["counters"] = {"charge": draw(st.integers(0, 2))}
        perms.append(obj)
    if draw(st.integers(0, 4)) == 0:
        perms.append(draw(st.sampled_from(GLOBALS)))
    board: dict = {"battlefield": {"alice": perms, "bob": draw(st.lists(st.sampled_from(["Forest", "Island"]),
                                                                         max_size=1))},
                   "hand": {"alice": [{"card": draw(st.sampled_from(["Grizzly Bears", "Hangarback Walker",
                                                                      "Lightning Bolt", "Cultivate"])),
                                       "id": "spell"}]}}
    pool = draw(st.lists(st.sampled_from(["{W}", "{G}", "{C}", "{R}"]), max_size=2))
    if pool:
        board["mana_pool"] = {"alice": "".join(pool)}
    board["players"] = [{"id": "alice", "life": draw(st.sampled_from([20, 20, 2, 1]))}, "bob"]
    return board


@st.composite
def pay_queries(draw, board: dict):
    if draw(st.integers(0, 3)) == 0:
        q: dict = {"cast": "spell"}
        if board["hand"]["alice"][0]["card"] == "Hangarback Walker":
            q["x"] = draw(st.sampled_from([0, 1, 2, "any"]))
    else:
        syms = draw(st.lists(st.sampled_from(SYMBOLS), min_size=1, max_size=3))
        q = {"cost": "".join(syms)}
        if "{X}" in syms:
            q["x"] = draw(st.sampled_from([0, 1, 2, "any"]))
    if draw(st.integers(0, 5)) == 0:
        q["life"] = False
    return q


def _problem(board: dict, query: dict):
    loaded = situation_from_dict({**BASE, **board, "query": {"kind": "pay", **query}})
    view = View(loaded.state)
    tc = total_cost(view, "alice", query)
    try:
        problem = build_problem(view, "alice", tc)
    except pm.Unsupported:
        problem = None
    return loaded, view, tc, problem


@given(data=st.data())
@_settings(250)
def test_dp_count_equals_enumeration_and_brute_force(data):
    board = data.draw(boards())
    query = data.draw(pay_queries(board))
    loaded, view, tc, problem = _problem(board, query)
    assume(problem is not None and not (tc.what == "cast" and not tc.mana))
    counter = pcount.counter_for(problem)
    assume(counter is not None)
    ctx = json.dumps({**board, "query": query})
    listed = pm.PaymentModel(problem).enumerate(None)
    assert listed.complete, ctx
    dp_keys = list(counter.keys())
    assert counter.count() == len(listed.keys) == len(dp_keys), ctx
    assert set(dp_keys) == set(listed.keys), ctx
    ref = brute_pay(loaded.state, loaded.queries[0], view)
    assert counter.count() == ref["count"], ctx
    got = sorted(json.dumps(payment_object(pm.decode(problem, k)), sort_keys=True) for k in dp_keys)
    assert got == ref["payments"], ctx
    # the direct listing (no decode) gives the same payments in the pay query's order
    assert counter.payments() == sorted((pm.decode(problem, k) for k in dp_keys), key=pm.Paid.sort_key), ctx
    # a listing cut at any limit gives that many distinct payments, all of them real
    cut = data.draw(st.integers(0, 4))
    part = list(counter.keys(cut))
    assert len(part) == min(cut, counter.count()) and len(set(part)) == len(part) and set(part) <= set(dp_keys)


@given(data=st.data())
@_settings(25)
def test_pay_query_answer_equals_brute_force(data):
    """The ``pay`` query (which uses the DP where it applies) on boards the DP may not cover."""
    board = data.draw(boards())
    query = data.draw(pay_queries(board))
    loaded = situation_from_dict({**BASE, **board, "query": {"kind": "pay", **query}})
    res = answer(loaded.state, loaded.queries[0])
    if res["status"] != "ok":
        assert res["status"] in ("error", "unsupported"), res
        assume(False)
    ref = brute_pay(loaded.state, loaded.queries[0])
    assert res["count"] == ref["count"]
    assert sorted(json.dumps(p, sort_keys=True) for p in res["payments"]) == ref["payments"]


def test_which_problems_qualify():
    def why(perms: list, cost: str = "{1}{G}") -> str | None:
        return pcount.unsupported(_problem({"battlefield": {"alice": perms}}, {"cost": cost})[3])

    assert why(["Forest", "Reflecting Pool", "Adarkar Wastes"]) is None
    assert why(["Forest", "Crystal Quarry", "Sol Ring"]) is None              # one costed class, generic cost
    assert why([{"card": "Vivid Crag", "counters": {"charge": 2}}, "Forest"]) is None   # counters: a fate
    assert why(["Forest", "Plaza of Heroes"]) is None          # its restricted mana can't pay a bare cost: unused
    assert "not generic" in why(["Forest", "Fetid Heath"])                    # {B/W}, {T}: a filter land
    assert "several classes" in why(["Forest", "Crystal Quarry", "Selesnya Signet"])
    assert "more than {T}" in why(["Forest", "Squandered Resources"])         # sacrifice a land
    assert "{S}" in why(["Snow-Covered Forest"], "{S}")


def _lands(counts: dict[str, int]) -> dict:
    return {"battlefield": {"alice": [n for n, k in counts.items() for _ in range(k)]}}


def test_large_counts_have_closed_forms():
    """Counts far beyond what listing could reach, checked against closed forms.

    Generic mana {N} on k classes of basics with sizes s_i: the number of vectors
    (n_i ≤ s_i) with Σ n_i = N (each basic makes one mana; everything made is spent)."""
    sizes = {"Forest": 9, "Island": 8, "Swamp": 7, "Mountain": 6, "Plains": 5}
    board = _lands(sizes)

    def ways(n: int) -> int:
        poly = [1]
        for s in sizes.values():
            nxt = [0] * (len(poly) + s)
            for i, a in enumerate(poly):
                for k in range(s + 1):
                    nxt[i + k] += a
            poly = nxt
        return poly[n] if n < len(poly) else 0

    loaded, view, _, _ = _problem(board, {"cost": "{1}"})
    for n in (1, 5, 17, 30, 35, 36):
        assert count_payments(view, "alice", {"cost": "{%d}" % n}) == ways(n)
    # Hangarback Walker {X}{X} with x: any: every even number of lands, X = half of it
    board["hand"] = {"alice": [{"card": "Hangarback Walker", "id": "hw"}]}
    loaded, view, _, _ = _problem(board, {"cast": "hw", "x": "any"})
    assert count_payments(view, "alice", {"cast": "hw", "x": "any"}) == sum(ways(2 * x) for x in range(18 + 1))
    # three Reflecting Pools next to a Forest and an Island: each pool makes G or U, so tapping k pools and
    # f ≤ 1 Forest, i ≤ 1 Island for {N} generic is one payment per (k, f, i) with k + f + i = N
    loaded, view, _, _ = _problem(_lands({"Forest": 1, "Island": 1, "Reflecting Pool": 3}), {"cost": "{3}"})
    assert count_payments(view, "alice", {"cost": "{3}"}) == 4      # (3,0,0) (2,1,0) (2,0,1) (1,1,1)
    assert count_payments(view, "alice", {"cost": "{G}{U}{2}"}) == 3  # (3,1,0) (3,0,1) (2,1,1)
    # Adarkar Wastes: tapping w of them for generic mana deals 0..w damage (distinct situations)
    loaded, view, _, _ = _problem(_lands({"Adarkar Wastes": 3, "Plains": 4}), {"cost": "{4}"})
    assert count_payments(view, "alice", {"cost": "{4}"}) == sum(w + 1 for w in range(4) if 4 - w <= 4)


def test_truncated_pay_answer_keeps_the_exact_count():
    board = _lands({"Forest": 6, "Mountain": 6, "Reflecting Pool": 2})
    loaded = situation_from_dict({**BASE, **board, "query": {"kind": "pay", "cost": "{5}"}})
    full = answer(loaded.state, loaded.queries[0])
    cut = answer(loaded.state, loaded.queries[0], Options(max_results=3))
    assert full["status"] == "ok" and cut["status"] == "truncated"
    assert cut["count"] == full["count"] == len(full["payments"]) and len(cut["payments"]) == 3
    assert all(p in full["payments"] for p in cut["payments"])


def test_actions_count_payments_without_listing():
    from mtgsolve.solver.api import Situation

    d = {**BASE, "turn": {"number": 3, "active": "alice", "step": "main1", "lands_played": 1},
         **_lands({"Forest": 8, "Island": 8, "Plains": 8, "Reflecting Pool": 3, "Adarkar Wastes": 3}),
         "hand": {"alice": [{"card": "Hangarback Walker", "id": "hw"}, {"card": "Grizzly Bears", "id": "gb"}]}}
    sit = Situation.from_dict(d)
    res = answer(sit.state, {"kind": "actions"})
    by = {a["object"]: a for a in res["actions"] if a["kind"] == "cast"}
    view = View(sit.state)
    assert by["hw"]["payments"] == count_payments(view, "alice", {"cast": "hw", "x": "any"}) > 10_000
    assert by["gb"]["payments"] == len(answer(sit.state, {"kind": "pay", "cast": "gb"}, Options(10**6))["payments"])
    assert sit.legal_actions.count() == 1 + by["hw"]["payments"] + by["gb"]["payments"]


def test_cascading_cataracts_counted_like_the_enumeration():
    """Cascading Cataracts ({5}, {T}: five mana in any combination of colors) with a Vivid land
    and Plaza of Heroes: the DP (the costed class last, its cost paid from mana made before)
    against the enumeration and the brute force."""
    vivid = {"card": "Vivid Crag", "counters": {"charge": 1}}
    cases = [(["Forest", "Forest", "Island", "Cascading Cataracts", vivid], {"cost": "{2}{G}"}, 10),
             (["Forest", "Forest", "Island", "Swamp", "Cascading Cataracts", vivid, "Plaza of Heroes"],
              {"cast": "spell"}, 231),
             (["Forest", "Island", "Cascading Cataracts", "Plaza of Heroes"], {"cost": "{W}{U}"}, 0)]
    for perms, query, expected in cases:
        board = {"battlefield": {"alice": perms, "bob": ["Swamp"]},
                 "hand": {"alice": [{"card": "Cultivate", "id": "spell"}]}}
        loaded, view, tc, problem = _problem(board, query)
        counter = pcount.counter_for(problem)
        assert counter is not None
        listed = pm.PaymentModel(problem).enumerate(None, time.monotonic() + 120)
        assert listed.complete
        assert counter.count() == len(listed.keys) == expected and set(counter.keys()) == set(listed.keys)
        assert counter.count() == brute_pay(loaded.state, loaded.queries[0], view)["count"]
