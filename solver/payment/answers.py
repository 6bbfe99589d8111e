"""The payments of a total cost (CR 601.2f–h, 602.2b, 605): the rules layer's answers
to "can it be paid, in how many distinct ways, which ones, and if not, why not?".

Rules layer: takes a :class:`~solver.rules.costs.TotalCost`, compiles it with
:func:`solver.payment.problem.build_problem` and asks the models: the counting dynamic programme of :mod:`models.payment_count` where
it applies (plain ``{T}`` mana abilities, counters removed, one class of abilities with a
generic mana cost, …: exact counts whose cost does not grow with the count, listing at
the speed of a walk), :class:`models.payment.PaymentModel` otherwise. A cost with a
casting mode's costs (alternative, additional: ``extra``) is answered by
:mod:`solver.rules.casting_options`.

The answers are typed (:mod:`solver.payment.paid`: :class:`CostPayment`, :class:`PayOutcome`).
Both the ``pay`` query (:mod:`solver.queries.pay`, which parses the query, and
:mod:`solver.queries.payments`, which writes the contract's objects) and the ``actions`` engine (:mod:`solver.engine.actions`) call it.

* :func:`payment_counter` — the counting DP of a problem (kept in a small cache);
* :func:`count_payments` — the number of distinct payments, up to a limit;
* :func:`find_payment` — is one given payment a way to pay (without listing)?
* :func:`payments` — the distinct payments, sorted;
* :func:`pay_outcome` — everything the ``pay`` query reports;
* :func:`unpayable_reason` — why nothing pays the cost, in one sentence.

They raise :class:`~models.payment.Unsupported` for payments the model can't represent
exactly (:func:`pay_outcome` and :func:`unpayable_reason` report those instead).
"""
from __future__ import annotations

import time
from typing import Any, cast

from mtgsolve.models import payment as pm
from mtgsolve.models import payment_count as pcount
from mtgsolve.models.payment import PaymentProblem, Unsupported

from ..rules.characteristics import View
from ..rules.costs import TotalCost
from ..core.errors import UnsupportedCase
from ..core.mana import Mana
from ..core.memo import BoundedCache
from ..core.moves import Payment
from .paid import CostPayment, PayOutcome
from .problem import _no_mana_cost, build_problem
from .words import explain
from mtgsolve.models.payment_delve import DelveCounter, EveryXCounter
from .casting import pay_result

__all__ = ["CostPayment", "PayOutcome", "PaymentLookupError", "count_payments", "counted_payments",
           "decoded_payments", "find_payment", "pay_outcome", "payment_counter", "payments", "unpayable_reason"]


# ---------------------------------------------------------------------------
# The counting DP, per problem
# ---------------------------------------------------------------------------

_COUNTERS: "BoundedCache[PaymentProblem, pcount.PaymentCounter | None]" = BoundedCache(64)


def payment_counter(problem: PaymentProblem) -> "pcount.PaymentCounter | None":
    """The counting DP of :mod:`models.payment_count` for ``problem`` when it applies (else
    ``None``); built once per problem and kept (a small cache: agents ask several questions of
    one situation, and identical costs share it)."""
    return _COUNTERS.get(problem, lambda: pcount.counter_for(problem))


def count_payments(view: View, player: str, tc: TotalCost, limit: int | None = None,
                   timeout: float | None = None) -> int:
    """The number of distinct payments (at most ``limit`` when given). Exact and without
    enumeration where :mod:`models.payment_count` applies; by enumeration otherwise."""
    if _no_mana_cost(tc):
        return 0
    problem = build_problem(view, player, tc)
    counter = payment_counter(problem)
    if counter is not None:
        n = counter.count()
        return n if limit is None else min(n, limit)
    deadline = None if timeout is None else time.monotonic() + timeout
    return len(pm.PaymentModel(problem).enumerate(limit, deadline).keys)


def payments(view: View, player: str, tc: TotalCost, limit: int | None = None) -> list[CostPayment]:
    """The distinct payments (at most ``limit``), sorted as the pay query lists them."""
    if _no_mana_cost(tc):
        return []
    problem = build_problem(view, player, tc)
    counter = payment_counter(problem)
    if counter is not None:
        return counted_payments(counter, limit)
    return decoded_payments(problem, pm.PaymentModel(problem).enumerate(limit).keys)


def decoded_payments(problem: PaymentProblem, keys: Any) -> list[CostPayment]:
    """The payments of distinct payments' keys (:func:`models.payment.decode`), in the pay
    query's order (:meth:`~models.payment.Paid.sort_key`)."""
    return [CostPayment(p) for p in sorted((pm.decode(problem, k) for k in keys), key=pm.Paid.sort_key)]


def counted_payments(counter: Any, limit: int | None = None) -> list[CostPayment]:
    """The payments a counting DP lists (at most ``limit``), already in the pay query's order."""

    exile_last = isinstance(counter, (DelveCounter, EveryXCounter))
    return [CostPayment(p, exile_last=exile_last) for p in counter.payments(limit)]


# ---------------------------------------------------------------------------
# One given payment, without listing
# ---------------------------------------------------------------------------

class PaymentLookupError(LookupError):
    """A payment the one-solve check can't describe (the caller lists the payments instead)."""


def find_payment(view: View, player: str, tc: TotalCost, payment: Payment, x: int) -> pm.Paid | None:
    """A distinct payment of the cost that agrees with ``payment`` (the API's move, with ``x``
    for X) on how many members of each class it taps and sacrifices, the life paid, the
    damage, X and the mana left in the pool — or ``None`` when there is none, so that
    ``payment`` is not a way to pay the cost. Decided without listing (issue 16): a walk of
    the counting DP where it applies, otherwise one CP-SAT solve with the key fixed.

    The answer is decoded like the ``pay`` query's payments (first members of each class);
    the caller compares it with ``payment`` on the whole situation it leaves (riders,
    counters, restricted mana), and lists the payments if they differ. Raises
    :class:`PaymentLookupError` for a payment naming things the check can't express."""
    if _no_mana_cost(tc):
        return None
    problem = build_problem(view, player, tc)
    if problem.main.delve_classes or payment.exile:
        raise PaymentLookupError("exile")      # cards exiled by delve (CR 702.66a): list instead
    parts = _payment_parts(problem, tc, player, payment, x)
    if parts is None:
        return None
    tapped, sacrificed, pool, life, damage, x = parts
    counter = payment_counter(problem)
    if counter is not None and counter.plain:
        if sacrificed:
            return None
        if not counter.contains(tapped, (damage, pool, life, x)):
            return None
        kept = tuple(tuple((f, tapped.get(c, 0) if f is None else 1) for f in counter.fates[c])
                     for c in range(len(problem.classes)))
        key = pm.PaymentKey(tuple(0 for _ in problem.classes), kept, life, damage, x, pool)
        return pm.decode(problem, key)
    return _solve_for_key(problem, tapped, sacrificed, pool, life, damage, x)


def _payment_parts(problem: PaymentProblem, tc: TotalCost, player: str, payment: Payment, x: int
                   ) -> tuple[dict[int, int], dict[int, int], tuple[int, ...], int, int, int] | None:
    """What :func:`find_payment` compares of ``payment``: members tapped and sacrificed per
    class, the pool left, life, damage and X; ``None`` when it taps an already tapped
    permanent (CR 107.5)."""
    cls_of = {oid: c for c, pc in enumerate(problem.classes) for oid in pc.members}
    src = problem.main.source_cls
    tapped: dict[int, int] = {}
    sacrificed: dict[int, int] = {}
    for oid in payment.tap:
        c = cls_of.get(oid)
        if c is not None and c == src and problem.main.tap and not tc.untap:
            continue      # the source's own {T} (the decoded payment names it; compared by the caller)
        if c is None or c == src:
            raise PaymentLookupError(oid)
        if problem.classes[c].tapped:
            return None   # an already tapped permanent can't be tapped again (CR 107.5)
        tapped[c] = tapped.get(c, 0) + 1
    for oid in payment.sacrifice:
        c = cls_of.get(oid)
        if c is None:
            raise PaymentLookupError(oid)
        sacrificed[c] = sacrificed.get(c, 0) + 1
    if payment.untap:
        raise PaymentLookupError("untap")
    pools = {pid: text for pid, text in payment.pool_after if text}
    if set(pools) - {player}:
        raise PaymentLookupError("pool_after")
    pool = tuple(Mana.parse(pools.get(player, "")).counts)
    return tapped, sacrificed, pool, payment.life, payment.damage, x


def _solve_for_key(problem: PaymentProblem, tapped: dict[int, int], sacrificed: dict[int, int],
                   pool: tuple[int, ...], life: int, damage: int, x: int) -> pm.Paid | None:
    """One CP-SAT solve of the payment model with the payment's key parts fixed."""
    src = problem.main.source_cls
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
    values = [e if isinstance(e, int) else int(solver.value(cast(Any, e))) for _, e in model.key_exprs]
    return pm.decode(problem, model._key(values))


# ---------------------------------------------------------------------------
# The whole answer, and why not
# ---------------------------------------------------------------------------

def no_mana_cost_reason(tc: TotalCost) -> str:
    return f"{tc.subject} has no mana cost, so it can't be cast by paying one (CR 118.6)"


def _left(deadline: float | None) -> float | None:
    return None if deadline is None else max(deadline - time.monotonic(), 0.001)


def pay_outcome(view: View, player: str, tc: TotalCost, max_results: int | None = None,
                deadline: float | None = None) -> PayOutcome:
    """Whether the total cost is payable, its distinct payments (at most ``max_results``
    listed; the count stays exact where the counting DP applies), the values X can take
    when it is free, and why nothing pays it; ``deadline`` is a :func:`time.monotonic` value."""
    if _no_mana_cost(tc):
        return PayOutcome(payable=False, count=0, payments=[], reason=no_mana_cost_reason(tc))
    if tc.extra is not None:  # a casting mode: alternative / additional costs (solver/rules/casting_options.py)

        try:
            return pay_result(view, player, tc, max_results, deadline)
        except UnsupportedCase as e:
            return PayOutcome.unsupported(e)
    try:
        problem = build_problem(view, player, tc)
    except Unsupported as e:
        return PayOutcome.unsupported(e)
    counter = payment_counter(problem)
    if counter is not None:
        return _by_counting(problem, tc, counter, max_results, deadline)
    try:
        model = pm.PaymentModel(problem)
        res = model.enumerate(max_results, deadline)
    except Unsupported as e:
        return PayOutcome.unsupported(e)
    pays = decoded_payments(problem, res.keys)
    out = PayOutcome("timeout" if res.timed_out else "truncated" if not res.complete else "ok")
    if not pays and res.timed_out:
        return out
    out.payable = bool(pays)
    out.count = len(pays) if res.complete else None
    out.payments = pays
    if tc.x is None:
        out.x_values = sorted({p.x for p in pays})
        out.x_max = pm.PaymentModel(problem, keys=False).max_x(_left(deadline)) if pays else None
    if not pays:
        out.reason = explain(problem, _left(deadline))
    return out


def _by_counting(problem: PaymentProblem, tc: TotalCost, counter: "pcount.PaymentCounter",
                 max_results: int | None, deadline: float | None) -> PayOutcome:
    """The answer from the counting DP (:mod:`models.payment_count`): the count is exact
    even when the listing is cut at ``max_results``."""
    n = counter.count()
    pays = counted_payments(counter, max_results)
    out = PayOutcome("ok" if max_results is None or n <= max_results else "truncated", n > 0, n, pays)
    if tc.x is None:
        out.x_values = sorted({p.x for p in pays})
        xs = counter.x_values()
        out.x_max = xs[-1] if xs else None
    if not n:
        out.reason = explain(problem, _left(deadline))
    return out


def unpayable_reason(view: View, player: str, tc: TotalCost, deadline: float | None = None) -> str | None:
    """Why nothing pays the total cost, in one sentence (the ``pay`` query's ``reason``);
    ``None`` when some payment exists, the time ran out or the engine can't tell."""
    if _no_mana_cost(tc):
        return no_mana_cost_reason(tc)
    if tc.extra is not None:
        try:
            return pay_result(view, player, tc, 1, deadline).reason
        except UnsupportedCase:
            return None
    try:
        problem = build_problem(view, player, tc)
    except Unsupported:
        return None
    counter = payment_counter(problem)
    if counter is not None:
        if counter.count():
            return None
    else:
        try:
            res = pm.PaymentModel(problem).enumerate(1, deadline)
        except Unsupported:
            return None
        if res.keys or res.timed_out:
            return None
    return explain(problem, _left(deadline))
