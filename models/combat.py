"""The CP-SAT model of a declaration of attackers or blockers (CR 508.1, 509.1).

Both declarations have one shape, a *bipartite choice*: every **item** (an
attacking candidate, or a blocking candidate) picks a set of **options** (what
it attacks, or which attacking creatures it blocks) of at most ``cap`` of
them (1 for attackers; 1, 1 + N or any number for blockers, CR 509.1a).
Nothing here knows about cards or game states: :mod:`solver.engine.combat` builds a
:class:`ChoiceProblem` from the rules view and decodes the answers.

The model
    * one Boolean ``x[i][o]`` per legal (item, option) pair, ``sum_o x[i][o] <= cap[i]``;
    * ``active[i] = max_o x[i][o]`` (the item attacks / blocks);
    * "can't attack alone" / "can't block alone" (CR 508.1c, 509.1b):
      ``active[i] => sum_j active[j] >= 2``;
    * "can't be blocked except by N or more creatures" (menace, CR 702.111b):
      ``chosen[o] = max_i x[i][o]`` and ``sum_i x[i][o] >= N * chosen[o]``;
      "can't be blocked by more than N creatures": ``sum_i x[i][o] <= N``;
    * costs (CR 508.1g: Ghostly Prison): ``cost = sum amount[o] * x[i][o]``;
    * requirements (CR 508.1d, 509.1c): ``obeyed = sum w_any[i] * active[i] +
      sum w[i][o] * x[i][o] + sum w[o] * picked[o]`` ("attacks/blocks each
      combat if able": the item is active; Lure: the item blocks that option;
      "must be blocked if able": someone blocks that option).

Every auxiliary variable is fixed by the ``x`` Booleans, so enumeration never
multiplies solutions.

Solving (architecture principle 4)
    1. maximise ``obeyed`` among the declarations that have no cost (costs are
       never counted toward the maximum, CR 508.1d, 509.1c): ``M``;
    2. enumerate every declaration with ``obeyed >= M`` (one worker, fixed
       seed, fixed search order). Without costs that is ``obeyed == M``; with
       costs, a declaration that pays may obey more requirements than ``M``
       but never fewer.

Counting without enumeration
    When the items are *independent* (no "alone", no minimum number of
    choosers, no costs) the requirements decompose item by item, so a
    declaration obeys the maximum iff each item's selection obeys its own
    maximum, and the count is the product over items of the number of
    selections reaching the item's maximum (a small dynamic programme over
    (size, weight) per item: :func:`item_profile`). The first ``n``
    declarations in canonical order are then generated directly
    (:func:`first_independent`). Items coupled by "alone" and by minimum
    numbers of choosers are counted by a dynamic programme over the items
    (:class:`CouplingDP`: capped counts per menace option, number of active
    items, requirements obeyed, cost so far), which also walks the canonical
    order for a cut listing. Only costs (whose payability depends on which creatures
    attack) make the count come from CP-SAT's enumeration.
"""
from __future__ import annotations

import itertools
import math
import time
from dataclasses import dataclass, field
from typing import Iterator

from ortools.sat.python import cp_model

from .base import LeanModel, new_solver  # one worker, the fixed seed (determinism)

Selection = tuple[str, ...]
Declaration = tuple[tuple[str, Selection], ...]
#: What :class:`CouplingDP` keeps of one item's selection: (the keyed options it picks, by
#: position, its weight, whether it is non-empty, its cost capped at one more than affordable)
Signature = tuple[tuple[int, ...], int, bool, int]
#: A :class:`CouplingDP` state after some items: (counts per keyed option, capped; items active
#: — 0, 1 or 2 for more; whether the one active item must be alone; weight; cost, capped)
CouplingState = tuple[tuple[int, ...], int, bool, int, int]
"""A declaration: ``((item, (options…)), …)`` sorted by item, options sorted; inactive items left out.
Sorting declarations as Python tuples is the contract's canonical order (empty first)."""


@dataclass(frozen=True)
class Item:
    """A creature that may be declared: its legal ``options`` (sorted), at most
    ``cap`` of them at once (``cap >= 1``), ``alone``: it can't be declared
    alone; ``any_weight``: requirements obeyed when it is declared at all;
    ``weights``: (option, requirements obeyed when it picks that option)."""

    id: str
    options: tuple[str, ...]
    cap: int = 1
    alone: bool = False
    any_weight: int = 0
    weights: tuple[tuple[str, int], ...] = ()

    def weight_of(self, option: str) -> int:
        return dict(self.weights).get(option, 0)


@dataclass(frozen=True)
class ChoiceProblem:
    """Items sorted by id; ``min_choosers``: (option, N) — an option picked by
    anyone must be picked by at least N items; ``costs``: (option, amount) —
    each item picking that option adds ``amount`` to the declaration's cost;
    ``max_cost``: the most the declaring player can pay (declarations costing
    more are left out)."""

    items: tuple[Item, ...]
    min_choosers: tuple[tuple[str, int], ...] = ()
    costs: tuple[tuple[str, int], ...] = ()
    max_cost: int | None = None
    max_choosers: tuple[tuple[str, int], ...] = ()  # (option, N): picked by at most N items
    option_weights: tuple[tuple[str, int], ...] = ()  # (option, w): w requirements obeyed if anyone picks it  # declarations costing more can't be paid (None: no bound)

    @property
    def independent(self) -> bool:
        """No constraint links two items (see the module docstring)."""
        return not any(i.alone for i in self.items) and not any(n > 1 for _, n in self.min_choosers) \
            and not any(a > 0 for _, a in self.costs) and not self.max_choosers and not self.option_weights


@dataclass
class ChoiceAnswer:
    """Declarations (sorted; each with its cost), the exact count (None when
    unknown after a timeout), whether the listing was cut and whether the time
    limit struck, and the maximum number of obeyed requirements."""

    count: int | None
    declarations: list[tuple[Declaration, int]]
    truncated: bool = False
    timed_out: bool = False
    max_obeyed: int = 0


# ---------------------------------------------------------------------------
# The independent case: counts and canonical listing without search
# ---------------------------------------------------------------------------

def _selection_weight(item: Item, sel: Selection) -> int:
    return (item.any_weight if sel else 0) + sum(item.weight_of(o) for o in sel)


def item_profile(item: Item) -> tuple[int, int]:
    """(the most requirements one item's selection can obey, the number of
    selections obeying that many), by dynamic programming over (size, weight)."""
    ways: dict[tuple[int, int], int] = {(0, 0): 1}
    for o in item.options:
        w = item.weight_of(o)
        nxt = dict(ways)
        for (k, s), n in ways.items():
            if k < item.cap:
                key = (k + 1, s + w)
                nxt[key] = nxt.get(key, 0) + n
        ways = nxt
    best, count = -1, 0
    for (k, s), n in ways.items():
        total = s + (item.any_weight if k else 0)
        if total > best:
            best, count = total, n
        elif total == best:
            count += n
    return best, count


def count_independent(problem: ChoiceProblem) -> int:
    """The exact number of declarations of an independent problem: a product."""
    return math.prod(item_profile(i)[1] for i in problem.items)


def max_independent(problem: ChoiceProblem) -> int:
    return sum(item_profile(i)[0] for i in problem.items)


def _selections(item: Item, best: int) -> Iterator[Selection]:
    """The item's selections obeying ``best`` requirements, in lexicographic order."""
    opts = item.options

    def rec(start: int, cur: tuple[str, ...]) -> Iterator[Selection]:
        if _selection_weight(item, cur) == best:
            yield cur
        if len(cur) >= item.cap:
            return
        for j in range(start, len(opts)):
            yield from rec(j + 1, cur + (opts[j],))
    # lexicographic order of tuples: a prefix first, then its extensions
    return (s for s in rec(0, ()))


def first_independent(problem: ChoiceProblem, n: int) -> list[Declaration]:
    """The first ``n`` declarations of an independent problem in canonical order
    (lists of (item, selection) pairs compared lexicographically)."""
    items = problem.items
    bests = [item_profile(i)[0] for i in items]
    allows_empty = [b == 0 for b in bests]
    suffix_empty = [True] * (len(items) + 1)
    for k in range(len(items) - 1, -1, -1):
        suffix_empty[k] = suffix_empty[k + 1] and allows_empty[k]
    out: list[Declaration] = []

    def dfs(start: int, cur: list[tuple[str, Selection]]) -> bool:
        if suffix_empty[start]:
            out.append(tuple(cur))
            if len(out) >= n:
                return True
        for k in range(start, len(items)):
            for sel in _selections(items[k], bests[k]):
                if not sel:
                    continue
                cur.append((items[k].id, sel))
                stop = dfs(k + 1, cur)
                cur.pop()
                if stop:
                    return True
            if not allows_empty[k]:  # skipping item k would leave a requirement unobeyed
                break
        return False

    if n > 0:
        dfs(0, [])
    return out


# ---------------------------------------------------------------------------
# Coupled problems without costs: counting by dynamic programming
# ---------------------------------------------------------------------------

MAX_STATES = 200_000
"""Above this many memoised states :class:`CouplingDP` gives up (``TooLarge``) and CP-SAT enumerates."""


class TooLarge(Exception):
    """The dynamic programme would be too large; enumerate instead."""


def _iter_selections(item: Item) -> Iterator[Selection]:
    """Every selection of at most ``cap`` options, lazily, in lexicographic order (empty first)."""
    opts = item.options

    def rec(start: int, cur: tuple[str, ...]) -> Iterator[Selection]:
        yield cur
        if len(cur) >= item.cap:
            return
        for j in range(start, len(opts)):
            yield from rec(j + 1, cur + (opts[j],))
    return rec(0, ())


class CouplingDP:
    """Exact counting and canonical listing for problems whose items are linked
    only by "alone" restrictions and minimum numbers of choosers (no costs).

    A state after deciding items ``0..k-1`` is (for each option with a minimum
    ``N``: how many items chose it, capped at ``N``; how many items are active,
    capped at 2; whether the single active item is an "alone" one; requirements
    obeyed so far). A selection acts on a state only through its *signature*
    (which minimum-bound options it picks, the requirements it obeys, whether
    it is empty); each item's signatures and their multiplicities come from a
    small dynamic programme over its options, so a blocker able to block any
    number of attackers is never expanded into its subsets. A declaration is
    legal iff its final state has every count at 0 or ``N``, is not a lone
    "alone" item, and obeys the maximum ``M`` of requirements over all legal
    final states. ``best(k, s)`` and ``ways(k, s)`` (memoised) give the most
    requirements reachable from a state and the number of completions
    reaching ``M``: the count is ``ways(0, start)``, and a depth-first walk in
    canonical order that enters only states with ``ways > 0`` lists the first
    ``n`` declarations without dead ends."""

    def __init__(self, problem: ChoiceProblem):
        self.amount = {o: a for o, a in problem.costs if a > 0}
        if self.amount and problem.max_cost is None:
            raise ValueError("costs need a bound (max_cost) in the dynamic programme")
        self.C: int = (problem.max_cost or 0) if self.amount else 0   # (a bound is required with costs)
        self.problem = problem
        self.items = problem.items
        self.mins = {o: n for o, n in problem.min_choosers if n > 1}
        self.maxs = {o: n for o, n in problem.max_choosers}
        self.oweights = {o: w for o, w in problem.option_weights if w}
        self.keys = tuple(sorted(set(self.mins) | set(self.maxs) | set(self.oweights)))
        # counts are kept up to cap[o]: the minimum, or one more than the maximum
        self.cap = {o: max(self.mins.get(o, 1), self.maxs[o] + 1 if o in self.maxs else 0) for o in self.keys}
        self.pos = {o: i for i, o in enumerate(self.keys)}
        self.sigs = [self._signatures(i) for i in self.items]
        self.start: CouplingState = (tuple(0 for _ in self.keys), 0, False, 0, 0)
        self._best: dict[tuple[int, CouplingState], int] = {}
        self._bestc: dict[tuple[int, CouplingState], int] = {}
        self._ways: dict[tuple[int, CouplingState], int] = {}
        self.M = self.best(0, self.start)

    def signature(self, item: Item, sel: Selection) -> Signature:
        return (tuple(sorted(self.pos[o] for o in sel if o in self.pos)), _selection_weight(item, sel), bool(sel),
                min(sum(self.amount.get(o, 0) for o in sel), self.C + 1))

    def cost_of(self, decl: Declaration) -> int:
        return sum(self.amount.get(o, 0) for _, sel in decl for o in sel)

    def _signatures(self, item: Item) -> list[tuple[Signature, int]]:
        """(signature, number of selections with it), by a DP over the item's options."""
        ways: dict[tuple[int, tuple[int, ...], int, int], int] = {(0, (), 0, 0): 1}
        for o in item.options:
            j = self.pos.get(o)
            w = item.weight_of(o)
            a = self.amount.get(o, 0)
            nxt = dict(ways)
            for (k, picked, s, c), n in ways.items():
                if k < item.cap:
                    key = (k + 1, picked + ((j,) if j is not None else ()), s + w, min(c + a, self.C + 1))
                    nxt[key] = nxt.get(key, 0) + n
            ways = nxt
            if len(ways) > MAX_STATES:
                raise TooLarge()
        out: dict[Signature, int] = {}
        for (k, picked, s, c), n in ways.items():
            sig = (tuple(sorted(picked)), s + (item.any_weight if k else 0), k > 0, c)
            out[sig] = out.get(sig, 0) + n
        return sorted(out.items())

    def step(self, state: CouplingState, k: int, sig: Signature) -> CouplingState:
        picked, weight, nonempty, cost = sig
        if not nonempty:
            return state
        counts, active, lone_alone, w, c0 = state
        if picked:
            c = list(counts)
            for j in picked:
                if c[j] == 0:  # the first item to pick it obeys the option's requirements
                    weight += self.oweights.get(self.keys[j], 0)
                c[j] = min(c[j] + 1, self.cap[self.keys[j]])
            counts = tuple(c)
        if active == 0:
            active, lone_alone = 1, self.items[k].alone
        else:
            active, lone_alone = 2, False
        return counts, active, lone_alone, w + weight, min(c0 + cost, self.C + 1)

    def final_ok(self, state: CouplingState) -> bool:
        counts, active, lone_alone, _, cost = state
        if active == 1 and lone_alone or cost > self.C:
            return False
        return all((c == 0 or c >= self.mins.get(o, 1)) and c <= self.maxs.get(o, c) for o, c in zip(self.keys, counts))

    def legal(self, state: CouplingState) -> bool:
        """A final state of a listed declaration: legal, payable, obeying at least ``M``."""
        return self.final_ok(state) and state[3] >= self.M

    def best(self, k: int, state: CouplingState, free: bool = True) -> int:
        """The most requirements a legal completion from ``state`` obeys (-1: none);
        ``free``: among completions that cost nothing (CR 508.1d: costs don't count)."""
        memo = self._best if free else self._bestc
        key = (k, state)
        r = memo.get(key)
        if r is None:
            if len(memo) > MAX_STATES:
                raise TooLarge()
            if free and state[4] > 0:
                r = -1
            elif k == len(self.items):
                r = state[3] if self.final_ok(state) else -1
            else:
                r = max(self.best(k + 1, self.step(state, k, sig), free) for sig, _ in self.sigs[k])
            memo[key] = r
        return r

    def ways(self, k: int, state: CouplingState) -> int:
        """The number of legal completions from ``state`` obeying at least ``M`` requirements
        (exactly ``M`` without costs, ``M`` being the maximum)."""
        key = (k, state)
        r = self._ways.get(key)
        if r is None:
            if len(self._ways) > MAX_STATES:
                raise TooLarge()
            if k == len(self.items):
                r = 1 if self.legal(state) else 0
            elif self.best(k, state, free=not self.amount) < self.M:
                r = 0
            else:
                r = sum(n * self.ways(k + 1, self.step(state, k, sig)) for sig, n in self.sigs[k])
            self._ways[key] = r
        return r

    @property
    def count(self) -> int:
        return self.ways(0, self.start)

    def first(self, n: int) -> list[Declaration]:
        """The first ``n`` legal declarations in canonical order."""
        out: list[Declaration] = []
        items = self.items

        def dfs(start: int, cur: list[tuple[str, Selection]], state: CouplingState) -> bool:
            # ``state``: after items < start; items from ``start`` on are still inactive
            if self.legal(state):
                out.append(tuple(cur))
                if len(out) >= n:
                    return True
            for k in range(start, len(items)):
                live = {sig for sig, _ in self.sigs[k]
                        if sig[2] and self.ways(k + 1, self.step(state, k, sig)) > 0}
                if live:
                    for sel in _iter_selections(items[k]):
                        if not sel:
                            continue
                        sig = self.signature(items[k], sel)
                        if sig not in live:
                            continue
                        cur.append((items[k].id, sel))
                        stop = dfs(k + 1, cur, self.step(state, k, sig))
                        cur.pop()
                        if stop:
                            return True
            return False

        if n > 0 and self.count:
            dfs(0, [], self.start)
        return out


# ---------------------------------------------------------------------------
# The CP-SAT model
# ---------------------------------------------------------------------------

def _solver(time_limit: float | None, enumerate_all: bool = False) -> cp_model.CpSolver:
    """The project's one solver set-up (:func:`models.base.new_solver`: one worker,
    the fixed seed); enumeration runs without presolve, in fixed search order."""
    if enumerate_all:
        return new_solver(time_limit, enumerate_all=True, cp_model_presolve=False,
                          search_branching=cp_model.FIXED_SEARCH)
    return new_solver(time_limit)


class ChoiceModel:
    """The CP-SAT model of one :class:`ChoiceProblem` and its decoder."""

    def __init__(self, problem: ChoiceProblem):
        self.problem = problem
        m = LeanModel()
        self.model = m
        self.x: list[list[cp_model.IntVar]] = []
        self.active: list[cp_model.IntVar] = []
        for k, item in enumerate(problem.items):
            xs = [m.new_bool_var(f"x{k}_{j}") for j in range(len(item.options))]
            self.x.append(xs)
            a = m.new_bool_var(f"active{k}")
            if xs:
                m.add_max_equality(a, xs)
                if item.cap < len(xs):
                    m.add(sum(xs) <= item.cap)
            else:
                m.add(a == 0)
            self.active.append(a)
        for k, item in enumerate(problem.items):  # CR 508.1c / 509.1b: "can't … alone"
            if item.alone:
                m.add(sum(self.active) >= 2).only_enforce_if(self.active[k])
        by_option: dict[str, list[cp_model.IntVar]] = {}
        for k, item in enumerate(problem.items):
            for j, o in enumerate(item.options):
                by_option.setdefault(o, []).append(self.x[k][j])
        for o, n in problem.min_choosers:  # menace (CR 702.111b) and "except by N or more"
            lits = by_option.get(o, [])
            if n > 1 and lits:
                chosen = m.new_bool_var(f"chosen_{o}")
                m.add_max_equality(chosen, lits)
                m.add(sum(lits) >= n * chosen)
        for o, n in problem.max_choosers:  # "can't be blocked by more than one creature"
            lits = by_option.get(o, [])
            if len(lits) > n:
                m.add(sum(lits) <= n)
        picked: list[tuple[int, cp_model.IntVar]] = []
        for o, w in problem.option_weights:  # "must be blocked if able": obeyed when anyone picks it
            lits = by_option.get(o, [])
            if w and lits:
                y = m.new_bool_var(f"picked_{o}")
                m.add_max_equality(y, lits)
                picked.append((w, y))
        amount = dict(problem.costs)
        self.cost = sum(amount.get(o, 0) * self.x[k][j] for k, item in enumerate(problem.items)
                        for j, o in enumerate(item.options) if amount.get(o, 0))
        if problem.max_cost is not None and not isinstance(self.cost, int):
            m.add(self.cost <= problem.max_cost)  # CR 508.1h: a cost that can't be paid
        terms = [w * y for w, y in picked]
        for k, item in enumerate(problem.items):
            if item.any_weight:
                terms.append(item.any_weight * self.active[k])
            for j, o in enumerate(item.options):
                w = item.weight_of(o)
                if w:
                    terms.append(w * self.x[k][j])
        self.obeyed = sum(terms) if terms else 0
        flat = [v for xs in self.x for v in xs]
        if flat:
            m.add_decision_strategy(flat, cp_model.CHOOSE_FIRST, cp_model.SELECT_MIN_VALUE)

    def decode(self, cb: cp_model.CpSolverSolutionCallback) -> tuple[Declaration, int]:
        out = []
        amount = dict(self.problem.costs)
        cost = 0
        for item, xs in zip(self.problem.items, self.x):
            sel = tuple(o for o, v in zip(item.options, xs) if cb.boolean_value(v))
            if sel:
                out.append((item.id, sel))
                cost += sum(amount.get(o, 0) for o in sel)
        return tuple(out), cost

    def max_obeyed(self, free_only: bool, time_limit: float | None) -> int | None:
        """The most requirements obeyed (among cost-free declarations when
        ``free_only``); None if no declaration exists; TimeoutError on timeout."""
        m = self.model.clone()
        if free_only and not isinstance(self.cost, int):
            m.add(self.cost == 0)
        has_obj = not isinstance(self.obeyed, int)
        if has_obj:
            m.maximize(self.obeyed)
        solver = _solver(time_limit)
        status = solver.solve(m)
        if status in (cp_model.INFEASIBLE, cp_model.MODEL_INVALID):
            return None
        if status != cp_model.OPTIMAL:
            raise TimeoutError("time limit reached before the maximum was proved")
        return int(round(solver.objective_value)) if has_obj else 0


class _Collector(cp_model.CpSolverSolutionCallback):
    def __init__(self, cm: ChoiceModel):
        super().__init__()
        self.cm = cm
        self.found: list[tuple[Declaration, int]] = []

    def on_solution_callback(self) -> None:
        self.found.append(self.cm.decode(self))


def enumerate_declarations(problem: ChoiceProblem, time_limit: float | None = None) -> ChoiceAnswer:
    """Every declaration obeying the maximum number of requirements (counted
    over cost-free declarations), each with its cost, sorted. Exact."""
    deadline = None if time_limit is None else time.monotonic() + time_limit
    cm = ChoiceModel(problem)
    try:
        top = cm.max_obeyed(free_only=True, time_limit=_remaining(deadline))
    except TimeoutError:
        return ChoiceAnswer(None, [], timed_out=True)
    if top is None:  # cannot happen: the empty declaration is always legal
        return ChoiceAnswer(0, [])
    if not isinstance(cm.obeyed, int):
        cm.model.add(cm.obeyed >= top)
    cb = _Collector(cm)
    status = _solver(_remaining(deadline), enumerate_all=True).solve(cm.model, cb)
    if status not in (cp_model.OPTIMAL, cp_model.INFEASIBLE):
        return ChoiceAnswer(None, sorted(cb.found), timed_out=True, max_obeyed=top)
    found = sorted(set(cb.found))
    return ChoiceAnswer(len(found), found, max_obeyed=top)


def _remaining(deadline: float | None) -> float | None:
    if deadline is None:
        return None
    left = deadline - time.monotonic()
    if left <= 0:
        raise TimeoutError("time limit reached")
    return left


def solve(problem: ChoiceProblem, max_results: int | None = None, time_limit: float | None = None,
          engine: str = "auto") -> ChoiceAnswer:
    """Declarations of ``problem``: exact count; the first ``max_results`` in
    canonical order (``truncated`` when more exist).

    ``engine="auto"``: without costs the count comes from the structure (a
    product for independent items, :class:`CouplingDP` otherwise) and the
    listing from a walk of the canonical order that never enters a dead end;
    with costs (or a dynamic programme too large) CP-SAT maximises the
    requirements and enumerates every declaration at the maximum.
    ``engine="cpsat"``: always the CP-SAT model (its listing is then checked
    against the structural count when there is one)."""
    limit = max_results if max_results is not None else 1 << 62
    count: int | None = None
    dp: CouplingDP | None = None
    best = 0
    if problem.independent:
        count, best = count_independent(problem), max_independent(problem)
    elif not any(a > 0 for _, a in problem.costs) or problem.max_cost is not None:
        try:
            dp = CouplingDP(problem)
            count, best = dp.count, dp.M
        except TooLarge:
            dp = None
    if count is not None and (engine == "auto" or count > limit):
        if dp is None:
            listed = [(d, 0) for d in first_independent(problem, limit)]
        else:
            listed = [(d, dp.cost_of(d)) for d in dp.first(limit)]
        return ChoiceAnswer(count, listed, truncated=count > limit, max_obeyed=best)
    try:
        ans = enumerate_declarations(problem, time_limit)
    except TimeoutError:
        return ChoiceAnswer(count, [], timed_out=True)
    if ans.timed_out:
        ans.count = count
        ans.declarations = ans.declarations[:limit]
        return ans
    if count is not None and ans.count != count:  # two independent derivations disagree: never answer
        raise AssertionError(f"combat model: enumeration found {ans.count} declarations, structure {count}")
    if ans.count is not None and ans.count > limit:
        ans.declarations = ans.declarations[:limit]
        ans.truncated = True
    return ans
