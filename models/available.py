"""CP-SAT model of the mana a player can put in their pool now (``available_mana``).

Rules-level description (built by :mod:`solver.queries.available_mana` from
:func:`solver.mana_sources.activations`):

* :class:`Unit` — interchangeable permanents counted together (principle 2:
  counts per class, never one boolean per copy). A unit whose permanents have
  a mana ability with a mana cost (filter lands: Fetid Heath, Crystal Quarry,
  Cascading Cataracts) is split into units of one permanent, as the order of
  those activations matters;
* :class:`Template` — a mana ability of a unit (for "Sacrifice a land", one
  template per sacrificed unit) with its resource needs ({T}/{Q}: one use per
  permanent; sacrifice; life, CR 119.4; counters; other creatures tapped) and
  its distinct outcomes (mana vectors W U B R G C, replacement orders and
  triggered mana already applied by :mod:`solver.mana_sources`).

Sequencing. Activations without a mana cost are done first (tapping before
sacrificing, so a tapped land can still be sacrificed and every
"could produce" is judged on the full board). Activations with a mana cost,
and sacrifices of permanents that have such an ability, are *late items*
placed in slots ``0..L-1``; the pool before each slot must pay the item put
there (per type, hybrid and generic symbols choosing how), and a permanent is
sacrificed only after its own costly ability (CR 601.2g/605.3a: mana abilities
may be activated while paying for another; the pool never goes negative).

Maximal bundles. Every multiset is compared by inclusion; a bundle is listed
only if no other reachable pool contains it. They are enumerated by layers of
decreasing total: the largest total among pools not contained in a bundle
already found is optimal (one solve); every pool of that total not contained
in a found bundle is then maximal (any strictly larger pool would have a
larger total and be uncontained). Each found bundle adds the constraint
"some type exceeds it", so each is found once whatever the auxiliary choices
(which types paid a cost, which copy went first) that produced it.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from math import comb

from ortools.sat.python import cp_model

from solver.mana import TYPES, ManaCost

SEED = 20240601
NT = len(TYPES)


@dataclass(frozen=True)
class Unit:
    """``size`` interchangeable permanents. ``tappable_creatures``: how many of
    them are untapped creatures (may be tapped by Springleaf Drum's cost);
    ``counters``: counters each has of the kind its abilities remove."""

    size: int
    tappable_creatures: int = 0
    counters: int = 0
    klass: str = ""


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


@dataclass(frozen=True)
class AvailableProblem:
    pool: tuple[int, ...]
    life: int
    units: tuple[Unit, ...]
    templates: tuple[Template, ...]


@dataclass
class AvailableResult:
    bundles: list[tuple[int, ...]] = field(default_factory=list)
    status: str = "ok"          # ok | truncated | timeout
    count: int | None = 0
    solves: int = 0


def _unit_decomposable(outcomes: tuple[tuple[int, ...], ...]) -> tuple[int, tuple[int, ...]] | None:
    """(k, types) when the outcomes are exactly every multiset of k mana over
    ``types`` ("one mana of any color", "five mana in any combination",
    "{W}{W}, {W}{B} or {B}{B}"): the model then uses one integer per type."""
    if not outcomes:
        return None
    k = sum(outcomes[0])
    if k == 0 or any(sum(o) != k for o in outcomes):
        return None
    types = tuple(i for i in range(NT) if any(o[i] for o in outcomes))
    if len(outcomes) != comb(len(types) + k - 1, k) or len(set(outcomes)) != len(outcomes):
        return None
    return k, types


class _Builder:
    def __init__(self, problem: AvailableProblem):
        self.p = problem
        self.m = cp_model.CpModel()
        self.ub = sum(problem.pool) + sum(t.max_uses * max((sum(o) for o in t.outcomes), default=0)
                                          for t in problem.templates)
        self.ub = max(self.ub, 1)

    def build(self):
        p, m = self.p, self.m
        units, temps = p.units, p.templates
        costly_units = {t.unit for t in temps if t.cost}
        late = [i for i, t in enumerate(temps) if t.cost or (t.victim is not None and t.victim in costly_units)]
        late_set = set(late)
        for i in late:
            if temps[i].max_uses != 1:
                raise ValueError("a mana ability with a mana cost must be limited to one use ({T})")
        uses = [m.new_bool_var(f"used_{i}") if i in late_set else m.new_int_var(0, t.max_uses, f"uses_{i}")
                for i, t in enumerate(temps)]
        self.uses = uses
        prod: list[list] = []
        for i, t in enumerate(temps):
            prod.append(self._production(i, t, uses[i]))
        # resources ------------------------------------------------------------
        tapped_by_others = []
        for ui, u in enumerate(units):
            tap_uses = [uses[i] for i, t in enumerate(temps) if t.unit == ui and t.uses_tap]
            extra = []
            if u.tappable_creatures:
                d = m.new_int_var(0, u.tappable_creatures, f"drum_{ui}")
                tapped_by_others.append(d)
                extra.append(d)
            if tap_uses or extra:
                m.add(sum(tap_uses) + sum(extra) <= u.size)
            sac = [uses[i] for i, t in enumerate(temps) if t.victim == ui]
            if sac:
                m.add(sum(sac) <= u.size)
            rem = [(uses[i], t.counters) for i, t in enumerate(temps) if t.unit == ui and t.counters]
            if rem:
                m.add(sum(v * c for v, c in rem) <= u.size * u.counters)
        need_taps = [(uses[i], t.tap_others) for i, t in enumerate(temps) if t.tap_others]
        if need_taps:
            m.add(sum(v * n for v, n in need_taps) <= sum(tapped_by_others))
        life_terms = [uses[i] * t.life for i, t in enumerate(temps) if t.life]
        # early production --------------------------------------------------------
        pool0 = [p.pool[d] + sum(prod[i][d] for i in range(len(temps)) if i not in late_set) for d in range(NT)]
        final = pool0
        if late:
            final, late_life = self._slots(late, uses, prod, pool0)
            life_terms += late_life
        if life_terms:
            m.add(sum(life_terms) <= p.life)
        self.pool = [m.new_int_var(0, self.ub, f"pool_{TYPES[d]}") for d in range(NT)]
        for d in range(NT):
            m.add(self.pool[d] == final[d])
        self.total = m.new_int_var(0, self.ub * NT, "total")
        m.add(self.total == sum(self.pool))
        return m

    def _production(self, i: int, t: Template, n):
        """Linear expressions of the mana ``n`` uses of template ``t`` add, per type."""
        m = self.m
        dec = _unit_decomposable(t.outcomes)
        if dec is not None:
            k, types = dec
            q = {d: m.new_int_var(0, k * t.max_uses, f"q_{i}_{d}") for d in types}
            m.add(sum(q.values()) == k * n)
            return [q.get(d, 0) for d in range(NT)]
        cs = [m.new_int_var(0, t.max_uses, f"c_{i}_{j}") for j in range(len(t.outcomes))]
        m.add(sum(cs) == n)
        return [sum(c * o[d] for c, o in zip(cs, t.outcomes) if o[d]) for d in range(NT)]

    def _payment(self, i: int, t: Template, used):
        """Per-type mana paid for template ``t`` (when ``used``) and life paid (CR 107.4)."""
        m = self.m
        fixed = [0] * NT
        generic = 0
        life = 0
        paid = [[] for _ in range(NT)]
        for j, sym in enumerate(t.cost.symbols):
            opts = sym.payment_options()
            if not opts:
                continue
            if len(opts) == 1:
                what, n = opts[0]
                if what == "*":
                    generic = generic + n * used
                elif what == "S":
                    raise NotImplementedError("{S} in the cost of a mana ability")
                elif what == "life":
                    life = life + n * used
                else:
                    paid[TYPES.index(what)].append(n * used)
                continue
            lits = [m.new_bool_var(f"opt_{i}_{j}_{o}") for o in range(len(opts))]
            m.add(sum(lits) == used)
            for lit, (what, n) in zip(lits, opts):
                if what == "*":
                    generic = generic + n * lit
                elif what == "S":
                    raise NotImplementedError("{S} in the cost of a mana ability")
                elif what == "life":
                    life = life + n * lit
                else:
                    paid[TYPES.index(what)].append(n * lit)
        g = [m.new_int_var(0, self.ub, f"gen_{i}_{d}") for d in range(NT)]
        m.add(sum(g) == generic)
        return [sum(paid[d]) + g[d] for d in range(NT)], life

    def _slots(self, late: list[int], uses, prod, pool0):
        """Late items in slots: the pool before each slot pays the item there."""
        m, temps = self.m, self.p.templates
        L = len(late)
        z = {(i, s): m.new_bool_var(f"z_{i}_{s}") for i in late for s in range(L)}
        life_terms = []
        payment = {}
        for i in late:
            m.add(sum(z[i, s] for s in range(L)) == uses[i])  # late items have max_uses 1
            pay, life = self._payment(i, temps[i], uses[i])
            payment[i] = pay
            if not isinstance(life, int):
                life_terms.append(life)
        for s in range(L):
            m.add(sum(z[i, s] for i in late) <= 1)
            if s:  # fill slots from the front
                m.add(sum(z[i, s] for i in late) <= sum(z[i, s - 1] for i in late))
        pos = {i: sum(s * z[i, s] for s in range(L)) for i in late}
        # a permanent is sacrificed only after its own costly abilities
        for j in late:
            v = temps[j].victim
            if v is None:
                continue
            for i in late:
                if i != j and temps[i].unit == v and temps[i].cost:
                    m.add(pos[j] >= pos[i] + 1).only_enforce_if([uses[i], uses[j]])
        # interchangeable single permanents: the first copy goes first
        self._symmetry(late, uses, pos)
        pool = list(pool0)
        for s in range(L):
            pay_s, prod_s = [], []
            for d in range(NT):
                pw, qw = [], []
                for i in late:
                    a = m.new_int_var(0, self.ub, f"wpay_{i}_{s}_{d}")
                    b = m.new_int_var(0, self.ub, f"wprod_{i}_{s}_{d}")
                    m.add(a == payment[i][d]).only_enforce_if(z[i, s])
                    m.add(a == 0).only_enforce_if(~z[i, s])
                    m.add(b == prod[i][d]).only_enforce_if(z[i, s])
                    m.add(b == 0).only_enforce_if(~z[i, s])
                    pw.append(a)
                    qw.append(b)
                pay_s.append(sum(pw))
                prod_s.append(sum(qw))
            for d in range(NT):
                m.add(pool[d] - pay_s[d] >= 0)
            pool = [pool[d] - pay_s[d] + prod_s[d] for d in range(NT)]
        return pool, life_terms

    def _symmetry(self, late: list[int], uses, pos) -> None:
        """Copies of one card in singleton units use their templates in copy order."""
        temps, units = self.p.templates, self.p.units
        by_key: dict[tuple, list[int]] = {}
        for i in late:
            t = temps[i]
            if t.victim is not None:
                continue
            k = units[t.unit].klass
            if not k:
                continue
            by_key.setdefault((k, t.label), []).append(i)
        for items in by_key.values():
            items.sort(key=lambda i: temps[i].unit)
            for a, b in zip(items, items[1:]):
                self.m.add(uses[a] >= uses[b])
                self.m.add(pos[a] + 1 <= pos[b]).only_enforce_if([uses[a], uses[b]])


def maximal_bundles(problem: AvailableProblem, max_results: int = 10_000,
                    timeout: float | None = None) -> AvailableResult:
    """Every maximal reachable pool (as W U B R G C count vectors), sorted by
    decreasing total then decreasing counts; ``status`` ``truncated`` past
    ``max_results`` (``count`` then unknown: None), ``timeout`` past ``timeout``."""
    b = _Builder(problem)
    m = b.build()
    pool, total = b.pool, b.total
    deadline = None if timeout is None else time.monotonic() + timeout
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.random_seed = SEED
    res = AvailableResult()
    found: list[tuple[int, ...]] = []
    tdom = m.proto.variables[total.index].domain
    hi = b.ub * NT

    def set_total(lo: int, hi_: int) -> None:
        tdom[0] = lo
        tdom[1] = hi_

    def remaining() -> float | None:
        if deadline is None:
            return None
        return deadline - time.monotonic()

    def run() -> int | None:
        r = remaining()
        if r is not None:
            if r <= 0:
                return None
            solver.parameters.max_time_in_seconds = r
        res.solves += 1
        st = solver.solve(m)
        if st in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return 1
        if st == cp_model.INFEASIBLE:
            return 0
        return None  # unknown: out of time

    def block(F: tuple[int, ...]) -> None:
        lits = []
        for d in range(NT):
            lit = m.new_bool_var("")
            m.add(pool[d] >= F[d] + 1).only_enforce_if(lit)
            lits.append(lit)
        m.add_bool_or(lits)

    while True:
        set_total(0, hi)
        m.maximize(total)
        r = run()
        m.clear_objective()
        if r is None:
            res.status = "timeout"
            break
        if r == 0:
            break
        T = int(round(solver.objective_value))
        set_total(T, T)
        first = tuple(int(solver.value(v)) for v in pool)
        pending = [first]
        while pending:
            F = pending.pop()
            found.append(F)
            block(F)
            if len(found) > max_results:
                break
            r = run()
            if r is None:
                res.status = "timeout"
                break
            if r == 1:
                pending.append(tuple(int(solver.value(v)) for v in pool))
        if res.status != "ok" or len(found) > max_results:
            break
        hi = T - 1
        if hi < 0:
            break
    found.sort(key=lambda F: (-sum(F), tuple(-c for c in F)))
    if len(found) > max_results:
        res.status = "truncated"
        res.bundles = found[:max_results]
        res.count = None
    else:
        res.bundles = found
        res.count = len(found) if res.status == "ok" else None
    return res
