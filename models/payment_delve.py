"""Counting and listing payments with delve by the number of cards exiled (CR 702.66a).

Delve lets each card exiled from the graveyard pay one generic mana of the total
cost. In the payment model (:meth:`models.payment.PaymentModel._add_helps`) the
cards exiled are per-class counts, independent of everything else except
through the generic mana they pay. So the distinct payments with ``d`` cards
exiled are exactly the pairs (a payment of the cost with ``d`` less generic
mana, a choice of ``d`` cards among the interchangeable classes), and

    count = Σ_d  K(d) · M(d)

where ``K(d)`` is the number of distinct payments of the reduced cost (counted
by the DP of :mod:`models.payment_count` where it applies, else listed by the
CP-SAT model) and ``M(d)`` the number of multisets of ``d`` cards from the
classes (a product of polynomials). Nothing is enumerated to count; listing
expands the pairs and sorts them like any payments.

Applies when the cost has no monocolored hybrid symbol (whose generic half
could be delved too; otherwise :func:`delve_counter` returns None and the
CP-SAT model enumerates); with ``x: any``, once per announced X
(:class:`EveryXCounter`).
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable

from mtgsolve.solver.core.mana import ManaCost, Symbol

from .multisets import multiset_count, multisets
from .payment import Paid, PaymentKey, PaymentModel, PaymentProblem, decode


def _reduced(mana: ManaCost, x: int, d: int) -> ManaCost:
    """The cost with X announced as ``x`` and ``d`` less generic mana (X becomes generic)."""
    generic = sum(s.generic for s in mana.symbols if s.kind == "generic") + x * mana.x_count - d
    others = [s for s in mana.symbols if s.kind not in ("generic", "X")]
    if generic > 0 or not others:
        others.append(Symbol("generic", (), max(generic, 0)))
    return ManaCost(tuple(sorted(others, key=Symbol.sort_key)))


def delve_counter(problem: PaymentProblem, counter_for: Callable[[PaymentProblem], Any]) -> "DelveCounter | EveryXCounter | None":
    """A :class:`DelveCounter` when it applies to ``problem`` (see the module docstring);
    ``counter_for`` counts each reduced cost (:func:`models.payment_count.counter_for`)."""
    main = problem.main
    if not main.delve_classes or any(s.kind == "mono_hybrid" for s in main.mana.symbols):
        return None
    if main.x is None and main.mana.x_count:
        return EveryXCounter(problem, counter_for)      # x: any
    return DelveCounter(replace(problem, main=replace(main, x=main.x or 0)), counter_for)


class DelveCounter:
    """The payments of a problem with delve, per number of cards exiled (module docstring).
    Offers what callers use of :class:`models.payment_count.PaymentCounter`: ``count``,
    ``keys``, ``payments``, ``x_values`` and ``plain``."""

    plain = False        # payments exile cards: not only taps (no one-solve lookup)

    def __init__(self, problem: PaymentProblem, counter_for: Callable[[PaymentProblem], Any]):
        self.p = problem
        main = problem.main
        self.sizes = [len(ids) for ids in main.delve_classes]
        x = main.x or 0
        generic = sum(s.generic for s in main.mana.symbols if s.kind == "generic") + x * main.mana.x_count
        self.parts: list[tuple[int, PaymentProblem, Any]] = []
        for d in range(0, min(generic, sum(self.sizes)) + 1):
            sub = replace(problem, main=replace(main, mana=_reduced(main.mana, x, d), delve_classes=()))
            self.parts.append((d, sub, counter_for(sub)))
        self._keys: dict[int, list[PaymentKey]] = {}

    def _sub_keys(self, i: int) -> list[PaymentKey]:
        if i not in self._keys:
            _, sub, counter = self.parts[i]
            self._keys[i] = list(counter.keys()) if counter is not None else PaymentModel(sub).enumerate().keys
        return self._keys[i]

    def _sub_count(self, i: int) -> int:
        counter = self.parts[i][2]
        return counter.count() if counter is not None else len(self._sub_keys(i))

    def count(self) -> int:
        """The number of distinct payments: Σ_d K(d)·M(d)."""
        return sum(self._sub_count(i) * multiset_count(self.sizes, d) for i, (d, _, _) in enumerate(self.parts)
                   if multiset_count(self.sizes, d))

    def keys(self, limit: int | None = None) -> list[PaymentKey]:
        """The distinct payments' keys (at most ``limit``), per number of cards exiled."""
        out: list[PaymentKey] = []
        for i, (d, _, _) in enumerate(self.parts):
            picks = list(multisets(self.sizes, d))
            for k in self._sub_keys(i):
                for pick in picks:
                    out.append(replace(k, delved=pick))
                    if limit is not None and len(out) >= limit:
                        return out
        return out

    def payments(self, limit: int | None = None) -> list[Paid]:
        """The distinct payments, sorted as the pay query sorts them
        (:meth:`models.payment.Paid.sort_key`, whose last part is ``exile``): each reduced
        cost's payment is decoded and keyed once, then paired with every choice of cards."""
        ids = self.p.main.delve_classes
        rows: list[tuple[tuple[object, ...], list[str], Paid]] = []
        for i, (d, _, _) in enumerate(self.parts):
            picks = [sorted(oid for cls, n in zip(ids, pick) for oid in cls[:n]) for pick in multisets(self.sizes, d)]
            if not picks:
                continue
            for k in self._sub_keys(i):
                base = decode(self.p, replace(k, delved=(0,) * len(ids)))
                key = base.sort_key()[:-1]
                rows.extend((key, ex, base) for ex in picks)
        rows.sort(key=lambda r: (r[0], r[1]))
        out = []
        for _, ex, base in rows if limit is None else rows[:limit]:
            out.append(replace(base, exile=tuple(ex)) if ex else base)
        return out

    def x_values(self) -> list[int]:
        return [self.p.main.x or 0] if self.count() else []


class EveryXCounter:
    """``x: any`` with delve: a :class:`DelveCounter` per announced X from 0 to the model's
    bound on X (``MainCost.x_upper``), the payments of each X after those of smaller X (the
    pay query's order starts with X)."""

    plain = False

    def __init__(self, problem: PaymentProblem, counter_for: Callable[[PaymentProblem], Any]):
        main = problem.main
        self.by_x = [DelveCounter(replace(problem, main=replace(main, x=x)), counter_for)
                     for x in range(0, main.x_upper + 1)]

    def count(self) -> int:
        return sum(c.count() for c in self.by_x)

    def keys(self, limit: int | None = None) -> list[PaymentKey]:
        out: list[PaymentKey] = []
        for c in self.by_x:
            out.extend(c.keys(None if limit is None else limit - len(out)))
            if limit is not None and len(out) >= limit:
                break
        return out

    def payments(self, limit: int | None = None) -> list[Paid]:
        out: list[Paid] = []
        for c in self.by_x:
            if c.count():
                out.extend(c.payments(None if limit is None else limit - len(out)))
            if limit is not None and len(out) >= limit:
                break
        return out

    def x_values(self) -> list[int]:
        return [x for x, c in enumerate(self.by_x) if c.count()]
