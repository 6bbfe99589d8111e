"""CP-SAT model of the mana a player can put in their pool now (``available_mana``).

Rules-level description (built by :mod:`solver.queries.available_mana` from
:func:`solver.rules.mana_sources.activations`):

* :class:`Unit` — interchangeable permanents counted together (principle 2:
  counts per class, never one boolean per copy);
* :class:`Template` — a mana ability of a unit (for "Sacrifice a land", one
  template per sacrificed unit) with its resource needs ({T}/{Q}: one use per
  permanent; sacrifice; life, CR 119.4; counters; other creatures tapped), its
  mana cost, and its distinct outcomes (mana vectors W U B R G C; replacement
  orders and triggered mana already applied by :mod:`solver.rules.mana_sources`).

How the answer is computed
--------------------------

1. **Skeletons** (a CP-SAT enumeration). A skeleton fixes every discrete
   choice that changes *how much* mana flows: how many times each contended
   ability is used (abilities whose resources nobody else wants are always
   used in full: more mana never hurts), which outcome each ability with
   correlated outcomes gives ("{W}{W} or {U}{U}"), and the order of the
   *late* activations — those with a mana cost (filter lands, CR 605.3a: a
   mana ability may be activated while paying for another) and sacrifices of
   a permanent after its own costly ability. Activations without a mana cost
   come first (tapping before sacrificing, so a tapped land can still be
   sacrificed and "could produce" is judged on the full board).
2. **Reachable pools of a skeleton** are the final-type flows of a network:
   mana units (one mana of any type of a set: "one mana of any color",
   "five mana in any combination of colors", "{W}{W}, {W}{B} or {B}{B}")
   flow to type nodes, each late activation draws its cost from the pool
   before it (per symbol: the types that may pay it) and adds its units
   after. The set of integer pools a network can deliver is the set of
   integer points of a base polyhedron ``{p : p(A) <= f(A) for all sets of
   types A, p(all) = f(all)}`` with ``f(A)`` the most mana of types ``A``
   the network can leave (Gale's feasibility theorem; flows are integral).
   ``f`` is computed with 63 min-cost flows per skeleton.
3. **Maximal bundles** (a CP-SAT enumeration per skeleton, largest totals
   first): the six pool variables alone with the skeleton's inequalities,
   enumerated depth first (largest counts first, so the listing comes out
   sorted and can stop at ``max_results``). There is no auxiliary variable,
   so each pool is one solution (principle 2). A pool is kept unless it lies
   in the down-closure ``{p : p(A) <= f'(A)}`` of a skeleton handled before
   (total at least as large): below a pool of a larger total it is not
   maximal (a polymatroid's independent vectors are exactly those under one
   of its bases), and equal to one of the same total it was already listed.
   A skeleton whose ``f`` is below an earlier one's everywhere is skipped.
4. **Counts** are not enumerated: once the listing stops at ``max_results``,
   :func:`models.available_count.count_maximal` counts the maximal pools of
   the remaining skeletons by arithmetic (lattice points of ``B(f)`` outside
   the earlier down-closures, O(total^4) per skeleton, whatever the count;
   ``count`` is null only past a work limit: hundreds of mana of any color).

Exactness is checked against the brute-force player of
``tests/reference/mana_ref.py`` on random boards (hypothesis).
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Iterable, Iterator, NotRequired, TypedDict
from itertools import combinations
from math import comb

import numpy as np
from ortools.graph.python import min_cost_flow
from ortools.sat.python import cp_model

from mtgsolve.solver.core.errors import UnsupportedCase

from mtgsolve.solver.core.mana import TYPES, ManaCost

from .available_count import count_maximal
from .base import LeanModel, new_solver

_Model = LeanModel
NT = len(TYPES)
ALL = frozenset(range(NT))
SUBSETS: tuple[frozenset[int], ...] = tuple(frozenset(c) for r in range(1, NT + 1) for c in combinations(range(NT), r))


@dataclass(frozen=True)
class Unit:
    """``size`` interchangeable permanents. ``tappable_creatures``: how many of
    them are untapped and may be tapped by a "Tap N untapped <permanents> you
    control" cost (Springleaf Drum, Heritage Druid); ``tap_groups``: which of
    the problem's tap groups (the permanents one such cost may tap) they are in;
    ``counters``: counters each has of the kind its abilities remove."""

    size: int
    tappable_creatures: int = 0
    counters: int = 0
    klass: str = ""
    tap_groups: tuple[int, ...] = ()


@dataclass(frozen=True)
class Template:
    """A mana ability of unit ``unit`` (see module doc)."""

    unit: int
    outcomes: tuple[tuple[int, ...], ...]
    uses_tap: bool = False
    victim: int | None = None
    life: int = 0
    tap_others: int = 0
    counters: int = 0
    cost: ManaCost = ManaCost()
    max_uses: int = 1
    label: str = ""
    tap_groups: tuple[int, ...] = ()   # the groups whose permanents ``tap_others`` draws on (its own and supersets)


@dataclass(frozen=True)
class AvailableProblem:
    pool: tuple[int, ...]
    life: int
    units: tuple[Unit, ...]
    templates: tuple[Template, ...]
    white_as_any: bool = False  # Celestial Dawn (CR 609.4b) while paying mana abilities' costs


@dataclass
class AvailableResult:
    bundles: list[tuple[int, ...]] = field(default_factory=list)
    status: str = "ok"          # ok | truncated | timeout
    count: int | None = 0
    skeletons: int = 0
    networks: int = 0


class Unsupported(UnsupportedCase):
    """A mana ability the model cannot express (reported as unsupported)."""


# ---------------------------------------------------------------------------
# Outcomes and costs
# ---------------------------------------------------------------------------


def prune_outcomes(outcomes: Iterable[tuple[int, ...]]) -> tuple[tuple[int, ...], ...]:
    """Drop outcomes contained in another outcome of the same ability (choosing
    the larger one leaves a pool at least as large)."""
    outs = sorted(set(tuple(o) for o in outcomes if any(o)))
    if len({sum(o) for o in outs}) <= 1:
        return tuple(outs)  # equal totals: none contains another
    return tuple(o for o in outs
                 if not any(q != o and all(a <= b for a, b in zip(o, q)) for q in outs))


def decompose(outcomes: tuple[tuple[int, ...], ...]) -> tuple[tuple[frozenset[int], int], ...] | None:
    """Mana units ``(types, k)`` whose independent choices give exactly these
    outcomes: a fixed amount (one unit set per type), or every multiset of k
    mana over a set of types. ``None``: correlated outcomes ("{W}{W} or {U}{U}")."""
    if len(outcomes) == 1:
        return tuple((frozenset({d}), n) for d, n in enumerate(outcomes[0]) if n)
    k = sum(outcomes[0])
    if k == 0 or any(sum(o) != k for o in outcomes):
        return None
    types = frozenset(d for d in range(NT) if any(o[d] for o in outcomes))
    if len(outcomes) != comb(len(types) + k - 1, k):
        return None
    return ((types, k),)


def demands(cost: ManaCost, white_as_any: bool) -> tuple[tuple[frozenset[int], int], ...]:
    """The mana a cost needs, as ``(types that may pay, amount)`` per symbol (CR 107.4)."""
    out: list[tuple[frozenset[int], int]] = []
    for sym in cost.symbols:
        opts = sym.payment_options()
        if not opts:
            continue
        whats = {w for w, _ in opts}
        amounts = {n for _, n in opts}
        if "life" in whats or "S" in whats or len(amounts) != 1:
            raise Unsupported(f"a mana ability cost with {sym.text}")
        n = amounts.pop()
        if "*" in whats:
            types = ALL
        else:
            types = frozenset(TYPES.index(w) for w in whats)
            if white_as_any:  # CR 609.4b: white as any color; other mana only as colorless
                W, C = TYPES.index("W"), TYPES.index("C")
                types = frozenset({W}) if types != {C} else frozenset(ALL - {W})
        out.append((types, n))
    return tuple(out)


# ---------------------------------------------------------------------------
# Skeletons
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Step:
    """A late activation: pays ``demands`` from the pool before it, then adds
    ``units`` and ``fixed`` mana. ``victim_of``/``costly_of``: the unit it
    sacrifices after its costly use / the unit whose costly ability it is."""

    demands: tuple[tuple[frozenset[int], int], ...]
    units: tuple[tuple[frozenset[int], int], ...]
    fixed: tuple[int, ...]
    costly_of: int | None = None
    victim_of: int | None = None


@dataclass(frozen=True)
class Skeleton:
    early_units: tuple[tuple[frozenset[int], int], ...]
    early_fixed: tuple[int, ...]
    steps: tuple[Step, ...]          # a multiset: orders are taken later


#: Mana units ``(types, k)``: k mana, each of any one of the types (:func:`decompose`, :func:`demands`)
Units = tuple[tuple[frozenset[int], int], ...]
#: What abilities contend for: ``("life",)`` or ``(kind, n)`` — ``tap``/``sac``/``counters``/``costly``
#: of unit n, ``creatures`` of tap group n
Resource = tuple[str] | tuple[str, int]


class _Item(TypedDict):
    """One choice of :class:`_Prepared`: abilities of one unit with the same needs."""

    t: Template                         # the first such template
    outs: tuple[tuple[int, ...], ...]   # their outcomes, pruned
    dec: Units | None                   # the outcomes as independent units (None: correlated)
    cost: Units                         # the mana cost's demands
    late: bool                          # used after the early (free) mana, in an order
    sac_phase: str | None               # "before" / "after" its unit's costly use, or None
    free: NotRequired[bool]             # used in full (nobody contends its resources), set by _free


class _Prepared:
    """Templates split into free / contended, with their unit decompositions."""

    def __init__(self, p: AvailableProblem):
        self.p = p
        # abilities of one unit with the same needs are one choice: merge their outcomes
        merged: dict[tuple[int, bool, int | None, int, int, int, ManaCost, int, tuple[int, ...]],
                     tuple[Template, set[tuple[int, ...]]]] = {}
        for t in p.templates:
            key = (t.unit, t.uses_tap, t.victim, t.life, t.tap_others, t.counters, t.cost, t.max_uses, t.tap_groups)
            merged.setdefault(key, (t, set()))[1].update(tuple(o) for o in t.outcomes)
        temps: list[tuple[Template, tuple[tuple[int, ...], ...], Units | None]] = []
        for t, outcomes in merged.values():
            outs = prune_outcomes(outcomes)
            if outs:
                temps.append((t, outs, decompose(outs)))
        costly_units = {t.unit for t, _, _ in temps if t.cost}
        # a sacrifice of a permanent that has a costly ability: before its use (early) or after (late)
        self.items: list[_Item] = []
        for t, outs, dec in temps:
            cost = demands(t.cost, p.white_as_any) if t.cost else ()
            phases: list[tuple[bool, str | None]] = (
                [(False, "before"), (True, "after")] if t.victim is not None and t.victim in costly_units
                and not t.cost else [(bool(t.cost), None)])
            for late, sac_phase in phases:
                self.items.append(_Item(t=t, outs=outs, dec=dec, cost=cost, late=late, sac_phase=sac_phase))
        self.costly_units = costly_units
        self._free()

    def _free(self) -> None:
        """An early ability whose resources nobody else contends is used in full."""
        p, items = self.p, self.items
        demand: dict[Resource, list[tuple[int, int]]] = {}
        cap: dict[Resource, int] = {}

        def need(res: Resource, i: int, per: int, capacity: int) -> None:
            demand.setdefault(res, []).append((i, per))
            cap[res] = capacity

        # tap groups (a laminar family, checked when the problem is built): in each group, the
        # permanents tapped for their own {T} and those tapped by the costs of abilities drawing on
        # the group or a subgroup can't exceed its untapped permanents (exact for a laminar family)
        group_cap: dict[int, int] = {}
        for u in p.units:
            for g in u.tap_groups:
                group_cap[g] = group_cap.get(g, 0) + u.tappable_creatures
        for i, it in enumerate(items):
            t = it["t"]
            if t.uses_tap:
                need(("tap", t.unit), i, 1, p.units[t.unit].size)
                if p.units[t.unit].tappable_creatures:
                    for g in p.units[t.unit].tap_groups:
                        need(("creatures", g), i, 1, group_cap[g])
            if t.victim is not None:
                need(("sac", t.victim), i, 1, p.units[t.victim].size)
            if t.life:
                need(("life",), i, t.life, p.life)
            if t.counters:
                need(("counters", t.unit), i, t.counters, p.units[t.unit].size * p.units[t.unit].counters)
            if t.tap_others:
                for g in t.tap_groups:
                    need(("creatures", g), i, t.tap_others, group_cap.get(g, 0))
                if not t.tap_groups:
                    need(("creatures", -1), i, t.tap_others, 0)  # nothing it may tap
            if t.unit in self.costly_units and t.uses_tap:
                need(("costly", t.unit), i, 1, 0)  # shares {T} with a late ability: never free
        contended = {r for r, ds in demand.items()
                     if sum(per * items[i]["t"].max_uses for i, per in ds) > cap[r] or r[0] == "costly"}
        for i, it in enumerate(items):
            res = [r for r, ds in demand.items() if any(j == i for j, _ in ds)]
            it["free"] = (not it["late"] and it["sac_phase"] is None
                          and not any(r in contended for r in res))
        self.demand = demand
        self.cap = cap


def _skeletons(prep: _Prepared, deadline: float | None) -> list[Skeleton]:
    """Every distinct skeleton (CP-SAT enumeration of the contended choices)."""
    p, items = prep.p, prep.items
    m = _Model()
    uses: list[cp_model.IntVar] = []
    for i, it in enumerate(items):
        t = it["t"]
        if it["free"]:
            uses.append(m.new_constant(t.max_uses))
        else:
            uses.append(m.new_int_var(0, t.max_uses, f"uses_{i}"))
    choice: dict[int, list[cp_model.IntVar]] = {}
    for i, it in enumerate(items):
        if it["dec"] is None:
            cs = [m.new_int_var(0, it["t"].max_uses, f"c_{i}_{j}") for j in range(len(it["outs"]))]
            m.add(sum(cs) == uses[i])
            choice[i] = cs
    for r, ds in prep.demand.items():
        if r[0] == "costly":
            continue
        m.add(sum(uses[i] * per for i, per in ds) <= prep.cap[r])
    # "tap an untapped creature you control": the aggregate ("creatures",) resource above
    # (creatures tapped for their own abilities can't be tapped again)
    # a sacrifice after a costly use needs that use; before it, a permanent that doesn't use it
    for v in prep.costly_units:
        costly_uses = [uses[i] for i, it in enumerate(items) if it["t"].unit == v and it["t"].cost]
        after = [uses[i] for i, it in enumerate(items) if it["t"].victim == v and it["sac_phase"] == "after"]
        before = [uses[i] for i, it in enumerate(items) if it["t"].victim == v and it["sac_phase"] == "before"]
        if after:
            m.add(sum(after) <= sum(costly_uses))
        if before:
            m.add(sum(before) + sum(costly_uses) <= p.units[v].size)
    solver = new_solver(enumerate_all=True)
    if deadline is not None:
        solver.parameters.max_time_in_seconds = max(0.001, deadline - time.monotonic())
    found: list[tuple[tuple[int, ...], tuple[tuple[int, tuple[int, ...]], ...]]] = []

    class CB(cp_model.CpSolverSolutionCallback):
        def on_solution_callback(self) -> None:
            u = tuple(self.value(v) for v in uses)
            c = {i: tuple(self.value(x) for x in cs) for i, cs in choice.items()}
            found.append((u, tuple(sorted(c.items()))))

    status = solver.solve(m, CB())
    if status == cp_model.FEASIBLE or status == cp_model.UNKNOWN:
        raise TimeoutError
    out: list[Skeleton] = []
    seen: set[Skeleton] = set()
    for u, c in found:
        sk = _skeleton_of(prep, u, dict(c))
        if sk not in seen:
            seen.add(sk)
            out.append(sk)
    return out


def _skeleton_of(prep: _Prepared, uses: tuple[int, ...], choice: dict[int, tuple[int, ...]]) -> Skeleton:
    early_units: dict[frozenset[int], int] = {}
    fixed = list(prep.p.pool)
    steps: list[Step] = []
    for i, it in enumerate(prep.items):
        n = uses[i]
        if not n:
            continue
        t = it["t"]
        if not it["late"]:
            if it["dec"] is not None:
                for S, k in it["dec"]:
                    early_units[S] = early_units.get(S, 0) + k * n
            else:
                for o, c in zip(it["outs"], choice[i]):
                    for d in range(NT):
                        fixed[d] += o[d] * c
            continue
        costly_of = t.unit if t.cost else None
        victim_of = t.victim if it["sac_phase"] == "after" else None
        if it["dec"] is not None:
            st = Step(it["cost"], it["dec"], (0,) * NT, costly_of, victim_of)
            steps.extend([st] * n)
        else:
            for o, c in zip(it["outs"], choice[i]):
                st = Step(it["cost"], (), tuple(o), costly_of, victim_of)
                steps.extend([st] * c)
    units = tuple(sorted(early_units.items(), key=lambda kv: (sorted(kv[0]), kv[1])))
    steps.sort(key=_step_key)
    return Skeleton(units, tuple(fixed), tuple(steps))


def _step_key(s: Step) -> tuple[tuple[tuple[list[int], int], ...], tuple[tuple[list[int], int], ...], tuple[int, ...],
                                int, int]:
    return (tuple((sorted(S), n) for S, n in s.demands), tuple((sorted(S), k) for S, k in s.units), s.fixed,
            -1 if s.costly_of is None else s.costly_of, -1 if s.victim_of is None else s.victim_of)


def _orders(steps: tuple[Step, ...]) -> Iterator[tuple[Step, ...]]:
    """Distinct orders of the late steps (identical steps are not permuted) in
    which every sacrifice-after step follows a costly use of its unit."""
    kinds = sorted(set(steps), key=_step_key)
    counts = [steps.count(k) for k in kinds]
    n = len(steps)
    order: list[Step] = []

    def rec() -> Iterator[tuple[Step, ...]]:
        if len(order) == n:
            yield tuple(order)
            return
        for ki, k in enumerate(kinds):
            if not counts[ki]:
                continue
            if k.victim_of is not None:
                done_uses = sum(1 for s in order if s.costly_of == k.victim_of)
                done_sacs = sum(1 for s in order if s.victim_of == k.victim_of)
                if done_sacs + 1 > done_uses:
                    continue
            counts[ki] -= 1
            order.append(k)
            yield from rec()
            order.pop()
            counts[ki] += 1

    yield from rec()


# ---------------------------------------------------------------------------
# The rank function of a skeleton's network (min-cost flows)
# ---------------------------------------------------------------------------


def rank_function(sk: Skeleton, order: tuple[Step, ...]) -> tuple[int, ...] | None:
    """``f(A)`` for every set of types ``A`` (in :data:`SUBSETS` order): the most
    mana of types ``A`` the skeleton's activations, done in ``order``, can leave
    in the pool; None if some cost can't be paid."""
    L = len(order)
    if not L:
        # no payments: every unit can reach any of its types, so f(A) is the mana
        # fixed in A plus every unit that has a type in A
        return tuple(sum(sk.early_fixed[d] for d in A) + sum(k for S, k in sk.early_units if S & A)
                     for A in SUBSETS)
    mcf = min_cost_flow.SimpleMinCostFlow()
    node = 0

    def new() -> int:
        nonlocal node
        node += 1
        return node - 1

    typ = [[new() for _ in range(NT)] for _ in range(L + 1)]
    sink = new()
    supply: dict[int, int] = {}
    total = 0
    big = sum(sk.early_fixed) + sum(k for _, k in sk.early_units) + sum(
        sum(s.fixed) + sum(k for _, k in s.units) for s in order) + 1

    def give(n: int, amount: int) -> None:
        supply[n] = supply.get(n, 0) + amount

    def units_into(units: Units, tau: int) -> int:
        added = 0
        for S, k in units:
            g = new()
            give(g, k)
            added += k
            for d in sorted(S):
                mcf.add_arc_with_capacity_and_unit_cost(g, typ[tau][d], k, 0)
        return added

    for d in range(NT):
        if sk.early_fixed[d]:
            give(typ[0][d], sk.early_fixed[d])
            total += sk.early_fixed[d]
    total += units_into(sk.early_units, 0)
    for j, st in enumerate(order, start=1):
        for S, n in st.demands:
            pay = new()
            give(pay, -n)
            total -= n
            for d in sorted(S):
                mcf.add_arc_with_capacity_and_unit_cost(typ[j - 1][d], pay, n, 0)
        for d in range(NT):
            mcf.add_arc_with_capacity_and_unit_cost(typ[j - 1][d], typ[j][d], big, 0)
        for d in range(NT):
            if st.fixed[d]:
                give(typ[j][d], st.fixed[d])
                total += st.fixed[d]
        total += units_into(st.units, j)
    if total < 0:
        return None
    final_in, final_out = [], []
    for d in range(NT):
        final_in.append(mcf.add_arc_with_capacity_and_unit_cost(typ[L][d], sink, 0, -1))
        final_out.append(mcf.add_arc_with_capacity_and_unit_cost(typ[L][d], sink, big, 0))
    give(sink, -total)
    for n in range(node):
        mcf.set_node_supply(n, supply.get(n, 0))
    out = []
    for A in SUBSETS:
        for d in range(NT):
            mcf.set_arc_capacity(final_in[d], big if d in A else 0)
            mcf.set_arc_capacity(final_out[d], 0 if d in A else big)
        st = mcf.solve()
        if st != mcf.OPTIMAL:
            return None
        out.append(-mcf.optimal_cost())
    return tuple(out)


# ---------------------------------------------------------------------------
# Enumeration of maximal bundles
# ---------------------------------------------------------------------------

_MASK = np.array([[1 if d in A else 0 for d in range(NT)] for A in SUBSETS], dtype=np.int64)


def below(points: np.ndarray, gs: list[tuple[int, ...]]) -> np.ndarray:
    """Which pools lie in the down-closure ``{p : p(A) <= g(A) for all A}`` of
    some skeleton ``g`` of ``gs`` (a polymatroid: exactly the pools under one
    of its pools)."""
    if not len(points) or not gs:
        return np.zeros(len(points), dtype=bool)
    sums = points @ _MASK.T                       # pools x subsets
    G = np.array(gs, dtype=np.int64)              # skeletons x subsets
    out = np.zeros(len(points), dtype=bool)
    step = max(1, 2_000_000 // (len(gs) * len(SUBSETS)))
    for a in range(0, len(points), step):
        chunk = sums[a:a + step]
        out[a:a + step] = np.all(chunk[:, None, :] <= G[None, :, :], axis=2).any(axis=1)
    return out


def enumerate_pools(f: tuple[int, ...], limit: int | None, deadline: float | None,
                    earlier: list[tuple[int, ...]] | None = None) -> tuple[list[tuple[int, ...]], bool]:
    """Every integer pool of the base polyhedron of ``f`` (CP-SAT enumeration over
    the six pool variables only), in decreasing lexicographic order (fixed
    search, largest value first); at most ``limit``. Returns (pools, complete).
    With ``earlier``, only the pools outside their down-closures (:func:`below`,
    checked in batches as the search goes) are returned and count towards ``limit``."""
    m = _Model()
    p = [m.new_int_var(0, f[SUBSETS.index(frozenset({d}))], f"p_{TYPES[d]}") for d in range(NT)]
    for i, A in enumerate(SUBSETS):
        if len(A) == 1:
            continue
        expr = sum(p[d] for d in sorted(A))
        if A == ALL:
            m.add(expr == f[i])
        elif f[i] < f[-1]:
            m.add(expr <= f[i])
    m.add_decision_strategy(p, cp_model.CHOOSE_FIRST, cp_model.SELECT_MAX_VALUE)
    solver = new_solver(enumerate_all=True)
    solver.parameters.search_branching = cp_model.FIXED_SEARCH
    solver.parameters.linearization_level = 0
    if deadline is not None:
        solver.parameters.max_time_in_seconds = max(0.001, deadline - time.monotonic())
    idx = [v.index for v in p]
    out: list[tuple[int, ...]] = []
    buf: list[tuple[int, ...]] = []

    def flush() -> None:
        if buf:
            keep = ~below(np.array(buf, dtype=np.int64).reshape(-1, NT), earlier or [])
            out.extend(buf[i] for i in np.flatnonzero(keep))
            buf.clear()

    class CB(cp_model.CpSolverSolutionCallback):
        stopped = False
        raw = 0

        def on_solution_callback(self) -> None:
            pool = tuple(self.SolutionIntegerValue(i) for i in idx)
            if earlier is None:
                out.append(pool)
            else:
                buf.append(pool)
                self.raw += 1   # batches of about what is still needed, larger while most are dropped
                if len(buf) < max(16, min(1024, max((limit or 1 << 30) - len(out), self.raw // 4))):
                    return
                flush()
            if limit is not None and len(out) >= limit:
                self.stopped = True
                self.stop_search()

    cb = CB()
    status = solver.solve(m, cb)
    flush()
    complete = not cb.stopped and status in (cp_model.OPTIMAL, cp_model.INFEASIBLE)
    if not cb.stopped and not complete:
        raise TimeoutError
    return out, complete


def _maximal_of(f: tuple[int, ...], earlier: list[tuple[int, ...]], need: int,
                deadline: float | None) -> tuple[list[tuple[int, ...]], bool]:
    """The pools of skeleton ``f`` outside the down-closures of ``earlier``
    skeletons (larger or equal totals), in decreasing order: all of them
    (complete) or at least ``need``. Returns (pools, complete)."""
    return enumerate_pools(f, max(1, need), deadline, earlier)


def maximal_bundles(problem: AvailableProblem, max_results: int = 10_000,
                    timeout: float | None = None) -> AvailableResult:
    """Every maximal reachable pool (W U B R G C count vectors), sorted by
    decreasing total then decreasing counts. Past ``max_results`` the listing
    is cut (``truncated``; ``count`` exact, the pools not listed counted by
    :func:`models.available_count.count_maximal`; None past its work limit —
    hundreds of mana of any color — or past ``timeout`` while counting); past
    ``timeout`` before the listing is done, ``timeout`` (bundles found so far,
    ``count`` None)."""
    deadline = None if timeout is None else time.monotonic() + timeout
    res = AvailableResult()
    listed: list[tuple[int, ...]] = []
    try:
        prep = _Prepared(problem)
        skeletons = _skeletons(prep, deadline)
        ranked: dict[tuple[int, ...], None] = {}
        for sk in skeletons:
            for order in _orders(sk.steps):
                if deadline is not None and time.monotonic() > deadline:
                    raise TimeoutError
                f = rank_function(sk, order)
                res.networks += 1
                if f is not None:
                    ranked.setdefault(f, None)
        res.skeletons = len(skeletons)
        # largest totals first; a skeleton under an earlier one holds no maximal pool
        fs: list[tuple[int, ...]] = []
        kept = np.zeros((0, len(SUBSETS)), dtype=np.int64)
        for f in sorted(ranked, key=lambda f: (-f[-1], tuple(-x for x in f))):
            if not (np.array(f, dtype=np.int64)[None, :] <= kept).all(axis=1).any():
                fs.append(f)
                kept = np.vstack([kept, np.array(f, dtype=np.int64)[None, :]])
        count = 0            # maximal pools counted so far (exact while `exact`)
        truncated = False
        exact = True
        i = 0
        while i < len(fs):
            if truncated:    # the rest is counted, not listed (issue 16); None: too much mana to count
                try:
                    rest = count_maximal(fs, i, deadline)
                except TimeoutError:   # the listing is whole: truncated, count unknown
                    rest = None
                exact = rest is not None
                count += rest or 0
                break
            total = fs[i][-1]
            layer = [f for f in fs[i:] if f[-1] == total]
            need = max_results + 1 - len(listed)
            pools_layer: list[tuple[int, ...]] = []
            complete_layer = True
            for j, f in enumerate(layer):
                got, complete = _maximal_of(f, fs[:i + j], need, deadline)
                pools_layer.extend(got)
                complete_layer = complete_layer and complete
            # the first `need` of each skeleton are the layer's first `need` (each is sorted)
            pools_layer.sort(reverse=True)
            listed.extend(pools_layer[:need])
            if len(listed) > max_results:
                truncated = True
                listed = listed[:max_results]
            if not complete_layer:   # only when more than `need` were kept: truncated
                truncated = True
                continue             # this layer is counted with the rest
            count += len(pools_layer)
            i += len(layer)
    except TimeoutError:
        res.status, res.count = "timeout", None
        res.bundles = sorted(listed, key=lambda F: (-sum(F), tuple(-c for c in F)))[:max_results]
        return res
    listed.sort(key=lambda F: (-sum(F), tuple(-c for c in F)))
    res.bundles = listed
    res.status = "truncated" if truncated else "ok"
    res.count = count if exact else None
    return res
