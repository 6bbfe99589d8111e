"""Exact counts of maximal available-mana pools without listing them (issue 16).

:mod:`models.available` describes every skeleton of a board by a rank function
``f`` over the 63 non-empty sets of mana types (:data:`SUBSETS`, the last one
all six types W U B R G C); its maximal pools are the integer points of the
base polyhedron ``B(f) = {p >= 0 : p(A) <= f(A) for all A, p(ALL) = f(ALL)}``
that lie in no down-closure ``P(g) = {p : p(A) <= g(A) for all A}`` of a
skeleton ``g`` handled before it (total at least as large). This module counts
those points by arithmetic, at a cost that does not grow with the count.

Counting lattice points of ``{p >= 0 : sum(p) = t, p(A) <= h(A)}``
------------------------------------------------------------------

Any vector ``h`` over :data:`SUBSETS` will do (it need not be submodular: a
componentwise minimum of several rank functions is not). Four coordinates are
enumerated — the *outer* ones, those with the smallest bounds ``min(h({d}),
t)`` — as numpy arrays of every tuple within those bounds and of sum at most
``t``, generated one value of the first outer coordinate at a time (bounded
memory). The last two coordinates ``a, b`` are tied by ``p_a + p_b = r`` (``r``
= ``t`` minus the outer sum), so each of the 63 inequalities becomes, with
``S`` the outer part of ``A`` and ``s`` its sum:

* ``A`` holds neither ``a`` nor ``b``: ``s <= h(A)`` (keeps or drops the tuple);
* both: ``s + r <= h(A)`` (keeps or drops the tuple);
* ``a`` only: ``p_a <= h(A) - s``; ``b`` only: ``p_a >= r - h(A) + s``.

The points over one outer tuple are therefore the integers of an interval of
``p_a``, counted in O(1) from the 16 outer partial sums: O(C(t+4, 4) · 64)
operations, about ``t^4 / 24 · 64`` — some 10^7 numpy element operations
for ``t = 40``, whatever the count (which grows like ``t^5``).

Maximal pools: one sweep instead of inclusion–exclusion
-------------------------------------------------------

``|B(f) \\ U_j P(g_j)|`` is counted over the same outer tuples: the points of
``B(f)`` over a tuple are an interval ``I`` of ``p_a``, and those also in
``P(g_j)`` are a sub-interval ``I_j`` (the same four kinds of inequality, with
``min(f, g_j)``). What is left is ``|I|`` minus the length of the union of the
``I_j``, computed for all tuples at once by sorting the intervals by their
lower end and sweeping the running maximum of their upper ends. So ``k``
earlier skeletons cost ``O(C(t+4, 4) · (64 + d·k + k log k))`` with ``d`` the
number of sets where ``g_j < f`` (only those constrain ``I_j`` beyond ``I``) —
linear in ``k``, where inclusion–exclusion over the ``P(g_j)`` would take
``2^k`` lattice counts of ``min(f, g_J)``. Before the sweep, an earlier skeleton
is dropped when ``min(f, g_j)`` has no point of total ``t`` by a necessary
condition (``h(A) + h(ALL - A) >= t`` for every split, ``sum_d h({d}) >= t``,
``h(ALL) >= t``), and when its ``min(f, g_j)`` lies under another's
(``P`` of the first inside ``P`` of the second).

The work is known before counting (the number of outer tuples, by
inclusion–exclusion over their bounds, times ``1 + k``): past
:data:`WORK_LIMIT` (totals of several hundred mana of any color)
:func:`count_maximal` answers None and the count stays unknown, as it did
when counts were enumerated.

Earlier skeletons of *larger* total count too: a point of ``B(f)`` has sum
``f(ALL)``, and lies in ``P(g)`` whenever ``g(ALL) >= f(ALL)`` and the other
inequalities hold — that is exactly how a pool below a larger one is found not
maximal. Only later skeletons (smaller total, or equal total sorted after)
never matter.

The figures equal the CP-SAT enumeration of :func:`models.available.maximal_bundles`
(``tests/test_available_count.py``: brute force on random vectors, the full
enumeration on random and large boards).
"""
from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from itertools import combinations
from math import comb

import numpy as np

NT = 6
SUBSETS: tuple[frozenset[int], ...] = tuple(frozenset(c) for r in range(1, NT + 1) for c in combinations(range(NT), r))
_INDEX = {sum(1 << d for d in A): i for i, A in enumerate(SUBSETS)}   # bit mask -> position in SUBSETS
_SPLITS = [(_INDEX[m], _INDEX[63 ^ m]) for m in range(1, 32)]          # A and its complement (A holds no C)
_SINGLES = [_INDEX[1 << d] for d in range(NT)]
_CHUNK = 1 << 21                                                        # array elements per block (memory bound)
_BIG = 1 << 40
WORK_LIMIT = 2e7
"""Past this many outer tuples times intervals (a few seconds) :func:`count_maximal` gives
up (None): totals of several hundred mana of any color (400 Birds of Paradise, 1.1·10^7,
are counted in about 2.5 s). 40 mixed lands need at most 2·10^6."""


class _Layout:
    """Outer coordinates ``outer`` (4), inner ``a`` and ``b``; for each set ``B``
    of outer coordinates (bit mask over the 4), the positions in SUBSETS of
    ``B``, ``B+a``, ``B+b``, ``B+a+b`` (``-1`` for the empty set)."""

    def __init__(self, outer: tuple[int, ...], a: int, b: int):
        self.outer, self.a, self.b = outer, a, b
        glob = [sum(1 << outer[k] for k in range(4) if B >> k & 1) for B in range(16)]
        self.none = np.array([_INDEX[m] if m else -1 for m in glob])
        self.with_a = np.array([_INDEX[m | 1 << a] for m in glob])
        self.with_b = np.array([_INDEX[m | 1 << b] for m in glob])
        self.with_ab = np.array([_INDEX[m | 1 << a | 1 << b] for m in glob])
        self.mask = np.array([[B >> k & 1 for B in range(16)] for k in range(4)], dtype=np.int64)  # 4 x 16
        # kind of each set of SUBSETS: (outer part B, 0 none / 1 a / 2 b / 3 both)
        self.kind: list[tuple[int, int]] = [(0, 0)] * len(SUBSETS)
        for B in range(16):
            for arr, k in ((self.none, 0), (self.with_a, 1), (self.with_b, 2), (self.with_ab, 3)):
                if arr[B] >= 0:
                    self.kind[arr[B]] = (B, k)


def _layout(bounds: Sequence[int]) -> _Layout:
    order = sorted(range(NT), key=lambda d: (bounds[d], d))
    return _Layout(tuple(order[:4]), order[4], order[5])


def _outer_tuples(lay: _Layout, bounds: Sequence[int], total: int, rows: int) -> Iterator[np.ndarray]:
    """Blocks (at most about ``rows`` tuples each) of every outer tuple within the
    bounds with sum at most ``total``, as (n x 4) int64 arrays: a Python loop over
    the first two coordinates, the last two from their grid sorted by sum (the
    pairs that fit are a prefix)."""
    ub = [min(bounds[d], total) for d in lay.outer]
    x2, x3 = (m.ravel() for m in np.meshgrid(np.arange(ub[2] + 1), np.arange(ub[3] + 1), indexing="ij"))
    by_sum = np.argsort(x2 + x3, kind="stable")
    pairs = np.stack([x2[by_sum], x3[by_sum]], axis=1)
    fits = np.searchsorted((x2 + x3)[by_sum], np.arange(total + 1), side="right")  # pairs of sum <= s
    pending: list[np.ndarray] = []
    size = 0
    for x0 in range(ub[0] + 1):
        for x1 in range(min(ub[1], total - x0) + 1):
            n = int(fits[total - x0 - x1])
            block = np.empty((n, 4), dtype=np.int64)
            block[:, 0] = x0
            block[:, 1] = x1
            block[:, 2:] = pairs[:n]
            pending.append(block)
            size += n
            if size >= rows:
                yield np.concatenate(pending)
                pending, size = [], 0
    if pending:
        yield np.concatenate(pending)


def _interval(lay: _Layout, h: np.ndarray, sums: np.ndarray, r: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Lower and upper ends of ``p_a`` over each outer tuple under ``h`` (empty: lo > hi)."""
    ok = r >= 0
    nz = lay.none >= 0
    ok &= (sums[:, nz] <= h[lay.none[nz]][None, :]).all(axis=1)
    ok &= (sums + r[:, None] <= h[lay.with_ab][None, :]).all(axis=1)
    hi = np.minimum(r, (h[lay.with_a][None, :] - sums).min(axis=1))
    lo = np.maximum(0, (r[:, None] - h[lay.with_b][None, :] + sums).max(axis=1))
    hi = np.where(ok, hi, lo - 1)
    return lo, hi


def _bounds(h: np.ndarray, total: int) -> list[int]:
    return [int(min(h[_SINGLES[d]], total)) for d in range(NT)]


def _may_hold(h: np.ndarray, total: int) -> bool:
    """A necessary condition for a point of sum ``total`` under ``h``."""
    if total < 0 or h[-1] < total or min(int(h.min()), 0) < 0:
        return False
    if sum(max(0, min(int(h[i]), total)) for i in _SINGLES) < total:
        return False
    return all(int(h[i]) + int(h[j]) >= total for i, j in _SPLITS)


def count_points(g: Sequence[int], total: int, deadline: float | None = None) -> int:
    """The number of integer ``p >= 0`` (W U B R G C) with ``sum(p) = total`` and
    ``p(A) <= g(A)`` for every set ``A`` of :data:`SUBSETS` (``g`` any vector over
    them). O(C(total+4, 4) · 64) numpy element operations (module doc), whatever
    the count. Raises ``TimeoutError`` past ``deadline`` (``time.monotonic``)."""
    return count_outside(g, (), total, deadline)


def count_outside(f: Sequence[int], earlier: Sequence[Sequence[int]], total: int | None = None,
                  deadline: float | None = None) -> int:
    """The number of integer pools ``p >= 0`` with ``sum(p) = total`` (default
    ``f(ALL)``) and ``p(A) <= f(A)`` for all ``A``, in no down-closure ``P(g)`` of
    ``g`` in ``earlier``: with ``total = f(ALL)``, the maximal pools
    :func:`models.available.maximal_bundles` keeps from skeleton ``f``.
    O(C(total+4, 4) · (64 + d·k + k log k)) for ``k`` earlier skeletons that may
    meet ``B(f)`` (module doc)."""
    plan = _plan(f, earlier, total)
    return 0 if plan is None else plan.run(deadline)


def count_maximal(fs: Sequence[Sequence[int]], start: int = 0, deadline: float | None = None,
                  max_work: float | None = WORK_LIMIT) -> int | None:
    """The number of maximal pools of the kept skeletons ``fs[start:]``, sorted as
    :func:`models.available.maximal_bundles` sorts them (largest totals first):
    ``sum_i |B(f_i) minus the union of P(f_j), j < i|`` — every earlier skeleton,
    of equal or larger total, may hold pools of ``B(f_i)``. None when the work
    (outer tuples times intervals, module doc) would pass ``max_work``: totals in
    the hundreds of mana of any color."""
    plans = [_plan(fs[i], fs[:i], None) for i in range(start, len(fs))]
    if max_work is not None and sum(pl.work for pl in plans if pl is not None) > max_work:
        return None
    return sum(pl.run(deadline) for pl in plans if pl is not None)


def _n_tuples(ub: Sequence[int], total: int) -> int:
    """How many tuples ``0 <= x_i <= ub_i`` (4 of them) have sum at most ``total``."""
    n = 0
    for S in range(16):
        rest = total - sum(ub[i] + 1 for i in range(4) if S >> i & 1)
        if rest >= 0:
            n += (-1) ** bin(S).count("1") * comb(rest + 4, 4)
    return n


def _plan(f: Sequence[int], earlier: Sequence[Sequence[int]], total: int | None) -> _Plan | None:
    """The count's set-up (None: no point): the earlier skeletons that may meet the
    region, as ``min(f, g)``, those under another dropped."""
    F = np.asarray(f, dtype=np.int64)
    t = int(F[-1]) if total is None else int(total)
    if not _may_hold(F, t):
        return None
    hs: list[np.ndarray] = []
    for g in earlier:
        h = np.minimum(F, np.asarray(g, dtype=np.int64))
        if not _may_hold(h, t):
            continue
        if (h >= F).all():
            return None                      # the whole region lies under g
        hs.append(h)
    if hs:
        H = np.unique(np.array(hs), axis=0)
        keep = np.ones(len(H), dtype=bool)
        for a in range(0, len(H), 64):   # drop h_j under another h_k: P(h_j) inside P(h_k)
            under: np.ndarray = np.asarray((H[a:a + 64, None, :] <= H[None, :, :]).all(axis=2))
            under[np.arange(len(under)), np.arange(a, a + len(under))] = False
            keep[a:a + 64] = ~under.any(axis=1)
        H = H[keep]
    else:
        H = np.zeros((0, len(SUBSETS)), dtype=np.int64)
    return _Plan(F, H, t)


class _Plan:
    def __init__(self, F: np.ndarray, H: np.ndarray, t: int):
        self.F, self.H, self.t = F, H, t
        self.bounds = _bounds(F, t)
        self.lay = _layout(self.bounds)
        self.work = _n_tuples([self.bounds[d] for d in self.lay.outer], t) * (1 + len(H))

    def run(self, deadline: float | None) -> int:
        F, H, t, lay, bounds = self.F, self.H, self.t, self.lay, self.bounds
        # per earlier skeleton, only the sets where it is below f constrain further
        tight = [[lay.kind[i] + (int(h[i]),) for i in np.flatnonzero(h < F)] for h in H]
        k = len(H)
        rows = max(256, _CHUNK // (16 * (k + 1)))
        count = 0
        for X in _outer_tuples(lay, bounds, t, rows):
            if deadline is not None and time.monotonic() > deadline:
                raise TimeoutError
            sums = X @ lay.mask                     # n x 16 outer partial sums (sums[:, 0] = 0)
            r = t - sums[:, 15]
            lo, hi = _interval(lay, F, sums, r)
            live = hi >= lo
            if not live.any():
                continue
            lo, hi, sums, r = lo[live], hi[live], sums[live], r[live]
            count += int((hi - lo + 1).sum())
            if not k:
                continue
            LO = np.repeat(lo[None, :], k, axis=0)
            HI = np.repeat(hi[None, :], k, axis=0)
            for j, cons in enumerate(tight):
                lj, hj = LO[j], HI[j]
                for B, kind, c in cons:
                    s = sums[:, B]
                    if kind == 0:
                        hj[s > c] = -_BIG
                    elif kind == 3:
                        hj[s + r > c] = -_BIG
                    elif kind == 1:
                        np.minimum(hj, c - s, out=hj)
                    else:
                        np.maximum(lj, r - c + s, out=lj)
            # length of the union of the sub-intervals [LO_j, HI_j] of [lo, hi], per tuple
            empty = HI < LO
            LO[empty] = _BIG
            HI[empty] = _BIG - 1
            order = np.argsort(LO, axis=0, kind="stable")
            LO = np.take_along_axis(LO, order, axis=0)
            HI = np.take_along_axis(HI, order, axis=0)
            reach = np.maximum.accumulate(HI, axis=0)
            prev = np.vstack([np.full((1, LO.shape[1]), -_BIG, dtype=np.int64), reach[:-1]])
            count -= int(np.maximum(0, HI - np.maximum(LO - 1, prev)).sum())
        return count
