"""The ``pay`` query (contract §2.3; CR 601.2f–h, 602.2b, 605).

``payable`` is decided by one CP-SAT solve; ``payments`` lists every distinct
resulting situation (see :mod:`models.payment`); when nothing can pay the
cost, ``reason`` is one sentence derived from an unsatisfiable core of the
cost's parts.

For other modules (the ``actions`` query):

* :func:`is_payable` — one solve;
* :func:`count_payments` — the number of distinct payments, up to a limit;
* :func:`find_payment` — is one given payment a way to pay (without listing)?

Counts and listings use the dynamic programme of :mod:`models.payment_count`
where it applies (its docstring says where: plain ``{T}`` mana abilities,
counters removed, one class of abilities with a generic mana cost, …): exact
counts whose cost does not grow with the count, and listing at the speed of a
walk; ``count`` stays exact when the listing is cut (``truncated``). Other
problems are enumerated by :class:`models.payment.PaymentModel`, as before.

Both raise :class:`Unsupported` for payments the model can't represent
exactly (a mana ability repeatable without {T}, a sacrifice or counters; a
mana ability whose cost has both mana and life) and
:class:`~solver.errors.QueryError` for a bad cost spec. Both take a *cost spec*: a :class:`~solver.costs.TotalCost`, or a mapping
shaped like a pay query without ``kind`` (``{"cast": id}``,
``{"activate": {"object": id, "index": n}}``, ``{"cost": "{1}{G}"}``, with
optional ``x`` and ``life``).
"""
from __future__ import annotations

import time
import weakref
from typing import Any

from mtgsolve.models import payment as pm
from mtgsolve.models import payment_count as pcount
from mtgsolve.models.payment import MainCost, ManaAbilityUse, Outcome, PaymentProblem, PermClass, SpendRule, Unsupported

from ..characteristics import View
from ..costs import TotalCost, query_player, sacrifice_phrase, spend_white_as_any, total_cost
from ..errors import QueryError, UnsupportedCase
from ..mana_sources import activations, interchangeable_classes, order_dependence
from ..spending import UNKNOWN, Purpose, activate_purpose, allows, cast_purpose
from ..state import GameState
from . import Options, register

# ---------------------------------------------------------------------------
# From the rules view to the model's problem: solver/payment_problem.py (rules layer);
# the names stay importable from here.
# ---------------------------------------------------------------------------

from ..payment_problem import (_base, _Base, _cost_of, _no_mana_cost, build_problem,  # noqa: E402,F401
                               is_payable, purpose_of)


# ---------------------------------------------------------------------------
# Public API for other modules
# ---------------------------------------------------------------------------


_COUNTERS: dict[PaymentProblem, Any] = {}
_COUNTERS_MAX = 64


def payment_counter(problem: PaymentProblem) -> "pcount.PaymentCounter | None":
    """The counting DP of :mod:`models.payment_count` for ``problem`` when it applies (else
    ``None``); built once per problem and kept (a small cache: agents ask several questions of
    one situation, and identical costs share it)."""
    if problem in _COUNTERS:
        return _COUNTERS[problem]
    c = pcount.counter_for(problem)
    if len(_COUNTERS) >= _COUNTERS_MAX:
        _COUNTERS.pop(next(iter(_COUNTERS)))
    _COUNTERS[problem] = c
    return c


def count_payments(view: View, player: str, cost_spec: Any, limit: int | None = None,
                   timeout: float | None = None) -> int:
    """The number of distinct payments (at most ``limit`` when given). Exact and without
    enumeration where :mod:`models.payment_count` applies; by enumeration otherwise."""
    tc = _cost_of(view, player, cost_spec)
    if _no_mana_cost(tc):
        return 0
    problem = build_problem(view, player, tc)
    counter = payment_counter(problem)
    if counter is not None:
        n = counter.count()
        return n if limit is None else min(n, limit)
    deadline = None if timeout is None else time.monotonic() + timeout
    return len(pm.PaymentModel(problem).enumerate(limit, deadline).keys)


class PaymentLookupError(LookupError):
    """A payment the one-solve check can't describe (the caller lists the payments instead)."""


def find_payment(view: View, player: str, cost_spec: Any, payment: dict) -> dict | None:
    """A distinct payment of the cost that agrees with ``payment`` (a contract §2.3 payment
    object) on how many members of each class it taps and sacrifices, the life paid, the
    damage, X and the mana left in the pool — or ``None`` when there is none, so that
    ``payment`` is not a way to pay the cost. Decided without listing (issue 16): a walk of
    the counting DP where it applies, otherwise one CP-SAT solve with the key fixed.

    The answer is decoded like the ``pay`` query's payments (first members of each class);
    the caller compares it with ``payment`` on the whole situation it leaves (riders,
    counters, restricted mana), and lists the payments if they differ. Raises
    :class:`PaymentLookupError` for a payment naming things the check can't express."""
    tc = _cost_of(view, player, cost_spec)
    if _no_mana_cost(tc):
        return None
    problem = build_problem(view, player, tc)
    cls_of = {oid: c for c, pc in enumerate(problem.classes) for oid in pc.members}
    src = problem.main.source_cls
    tapped: dict[int, int] = {}
    sacrificed: dict[int, int] = {}
    for oid in payment.get("tap", ()):
        c = cls_of.get(oid)
        if c is not None and c == src and problem.main.tap and not tc.untap:
            continue      # the source's own {T} (the decoded payment names it; compared by the caller)
        if c is None or c == src:
            raise PaymentLookupError(oid)
        if problem.classes[c].tapped:
            return None   # an already tapped permanent can't be tapped again (CR 107.5)
        tapped[c] = tapped.get(c, 0) + 1
    for oid in payment.get("sacrifice", ()):
        c = cls_of.get(oid)
        if c is None:
            raise PaymentLookupError(oid)
        sacrificed[c] = sacrificed.get(c, 0) + 1
    if payment.get("untap"):
        raise PaymentLookupError("untap")
    pools = {pid: text for pid, text in (payment.get("pool_after") or {}).items() if text}
    if set(pools) - {player}:
        raise PaymentLookupError("pool_after")
    from ..mana import Mana

    pool = tuple(Mana.parse(pools.get(player, "")).counts)
    life, damage, x = int(payment.get("life", 0) or 0), int(payment.get("damage", 0) or 0), int(payment.get("x", 0) or 0)
    counter = payment_counter(problem)
    if counter is not None and counter.plain:
        if sacrificed:
            return None
        tail = (damage, pool, life, x)
        if not counter.contains(tapped, tail):
            return None
        kept = tuple(tuple((f, tapped.get(c, 0) if f is None else 1) for f in counter.fates[c])
                     for c in range(len(problem.classes)))
        key = pm.PaymentKey(tuple(0 for _ in problem.classes), kept, life, damage, x, pool)
        return pm.decode(problem, key)
    model = pm.PaymentModel(problem)
    m = model.m
    fixed = {"life": life, "damage": damage, "x": x, **{f"pool{t}": n for t, n in enumerate(pool)}}
    kept_sum: dict[int, list] = {}
    for name, e in model.key_exprs:
        if name.startswith("sac"):
            fixed[name] = sacrificed.get(int(name[3:]), 0)
        elif name.startswith("kept"):
            c = int(name[4:name.index(":")])
            if c != src:
                kept_sum.setdefault(c, []).append(e)
    for name, e in model.key_exprs:
        if name in fixed:
            if isinstance(e, int):
                if e != fixed[name]:
                    return None
            else:
                m.add(e == fixed[name])
    for c, pc in enumerate(problem.classes):
        if c == src or pc.tapped:
            continue
        es = kept_sum.get(c, [])
        if not es:
            if tapped.get(c, 0):
                return None
            continue
        m.add(sum(es) == tapped.get(c, 0))
    solver = model._solver(None)
    st = solver.solve(m)
    if st not in (pm.cp_model.OPTIMAL, pm.cp_model.FEASIBLE):
        return None
    values = [int(solver.value(e)) if not isinstance(e, int) else e for _, e in model.key_exprs]
    return pm.decode(problem, model._key(values))


def payments(view: View, player: str, cost_spec: Any, limit: int | None = None) -> list[dict]:
    """The distinct payments as contract objects, sorted."""
    tc = _cost_of(view, player, cost_spec)
    if _no_mana_cost(tc):
        return []
    problem = build_problem(view, player, tc)
    counter = payment_counter(problem)
    if counter is not None:
        return counter.payments(limit)
    keys = pm.PaymentModel(problem).enumerate(limit).keys
    return sorted((pm.decode(problem, k) for k in keys), key=pm.payment_sort_key)


# ---------------------------------------------------------------------------
# The query
# ---------------------------------------------------------------------------


@register("pay")
def pay_query(state: GameState, query: dict, options: Options) -> dict:
    """Contract §2.3."""
    return pay_view(View(state), query, options)


def pay_view(view: View, query: dict, options: Options = Options()) -> dict:
    """The ``pay`` query on an existing rules view (shares its caches)."""
    start = time.monotonic()
    player = query_player(view, query)
    try:
        tc = total_cost(view, player, query)
    except UnsupportedCase as e:   # an activated ability the project does not model
        return {"status": "error", "error": f"unsupported: {e}"}
    if _no_mana_cost(tc):
        return {"status": "ok", "payable": False, "count": 0, "payments": [],
                "reason": f"{tc.subject} has no mana cost, so it can't be cast by paying one (CR 118.6)"}
    if tc.extra is not None:  # a casting mode: alternative / additional costs (solver/casting_options.py)
        from ..casting_options import pay_result

        try:
            return pay_result(view, player, tc, options.max_results,
                              None if options.timeout is None else start + options.timeout)
        except UnsupportedCase as e:
            return {"status": "error", "error": f"unsupported: {e}"}
    try:
        problem = build_problem(view, player, tc)
    except Unsupported as e:
        return {"status": "error", "error": f"unsupported: {e}"}
    deadline = None if options.timeout is None else start + options.timeout
    counter = payment_counter(problem)
    if counter is not None:
        return _pay_by_counting(problem, tc, counter, options, deadline)
    try:
        model = pm.PaymentModel(problem)
        res = model.enumerate(options.max_results, deadline)
    except Unsupported as e:
        return {"status": "error", "error": f"unsupported: {e}"}
    pays = sorted((pm.decode(problem, k) for k in res.keys), key=pm.payment_sort_key)
    out: dict[str, Any] = {"status": "ok"}
    if res.timed_out:
        out["status"] = "timeout"
    elif not res.complete:
        out["status"] = "truncated"
    if not pays and res.timed_out:
        out.update({"payable": None, "count": None, "payments": []})
        return out
    out["payable"] = bool(pays)
    out["count"] = len(pays) if res.complete else None
    out["payments"] = pays
    if tc.x is None:
        out["x_values"] = sorted({p["x"] for p in pays})
        left = None if deadline is None else max(deadline - time.monotonic(), 0.001)
        out["x_max"] = pm.PaymentModel(problem, keys=False).max_x(left) if pays else None
    if not pays:
        left = None if deadline is None else max(deadline - time.monotonic(), 0.001)
        out["reason"] = pm.explain(problem, left)
    return out


def _pay_by_counting(problem: PaymentProblem, tc: TotalCost, counter: "pcount.PaymentCounter",
                     options: Options, deadline: float | None) -> dict:
    """The ``pay`` answer from the counting DP (:mod:`models.payment_count`): the count is
    exact even when the listing is cut at ``max_results``."""
    n = counter.count()
    limit = options.max_results
    pays = counter.payments(limit)
    out: dict[str, Any] = {"status": "ok" if limit is None or n <= limit else "truncated",
                           "payable": n > 0, "count": n, "payments": pays}
    if tc.x is None:
        out["x_values"] = sorted({p["x"] for p in pays})
        xs = counter.x_values()
        out["x_max"] = xs[-1] if xs else None
    if not n:
        left = None if deadline is None else max(deadline - time.monotonic(), 0.001)
        out["reason"] = pm.explain(problem, left)
    return out
