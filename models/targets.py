"""The CP-SAT model of a choice of targets (CR 115.3, 115.6, 601.2c).

Input: a :class:`TargetProblem`, the rules-level description built by
:func:`solver.rules.targeting.targeting_problem` - slots with their legal candidates
(object and player ids), cardinalities and "another target" links, and the
requirements that say an object or player must be chosen. Nothing here knows
about cards or game states.

The model
    * one Boolean ``x[s][i]`` per (slot ``s``, candidate ``i``): candidate
      ``i`` is chosen for slot ``s``;
    * per slot, ``min <= sum_i x[s][i] <= max`` (or ``== n`` once the number
      of targets is announced, CR 601.2c); the Booleans of one slot are a set,
      so the same object is never chosen twice for one instance of "target"
      (CR 115.3) and choices are never permutations of each other;
    * ``distinct_from``: for each candidate common to two linked slots,
      ``x[s][i] + x[t][j] <= 1`` ("another target");
    * requirement literals ``y[r] == OR(x[s][i] : candidate i satisfies r)``,
      so every auxiliary variable is fixed by the decision variables and
      enumeration never multiplies solutions;
    * for each slot taking at most one target, an integer ``idx[s]`` channelled
      to its Booleans (``add_map_domain``): the decision variable of the fixed
      search and one read per slot when decoding.

Solving
    1. maximise ``sum_r weight[r] * y[r]`` (the number of obeyed requirements,
       CR 601.2c) - per announced number of targets when ``counts_first``;
    2. fix the objective at that maximum and enumerate every solution (one
       worker, fixed seed, fixed search order: deterministic).

Counting
    :func:`count_choices` gives the exact number of choices without
    enumerating them, by dynamic programming over classes of candidates with
    the same membership (which slots accept it, which requirements it
    satisfies): the number of ways to pick ``k`` of ``m`` interchangeable
    members is a binomial, and the state is (targets per slot, requirements
    obeyed). It is used for ``count`` when the listing is cut short
    (``truncated``) and by :func:`solver.rules.targeting.target_choice_count`; the
    tests check it against both the CP-SAT enumeration and the brute-force
    reference.
"""
from __future__ import annotations

import itertools
import math
from collections import Counter, defaultdict
from dataclasses import dataclass, field

from ortools.sat.python import cp_model

from .base import LeanModel, new_solver  # one worker, the fixed seed (determinism)


@dataclass(frozen=True)
class Slot:
    """One instance of the word "target": its legal candidates (ids, sorted,
    distinct), how many may be chosen, and the earlier slots whose chosen
    targets this one may not repeat ("another target")."""

    candidates: tuple[str, ...]
    min: int = 1
    max: int = 1
    distinct_from: tuple[int, ...] = ()

    @property
    def cap(self) -> int:
        """The most targets this slot can actually take."""
        return min(self.max, len(self.candidates))


@dataclass(frozen=True)
class Requirement:
    """A requirement that one of ``satisfiers`` be chosen (in any slot).
    ``weight``: how many identical effects it stands for; ``sources``: their ids."""

    satisfiers: frozenset[str]
    weight: int = 1
    sources: tuple[str, ...] = ()


@dataclass(frozen=True)
class TargetProblem:
    """Slots and requirements. ``counts_first``: the maximum number of obeyed
    requirements is taken per announced number of targets of each slot (CR
    601.2c announces the number first); otherwise over all numbers at once."""

    slots: tuple[Slot, ...]
    requirements: tuple[Requirement, ...] = ()
    counts_first: bool = True


Choice = tuple[tuple[str, ...], ...]
"""One choice: per slot, the sorted ids chosen for it."""


@dataclass
class TargetAnswer:
    """Result of :func:`enumerate_choices`. ``choices`` sorted; ``count`` exact
    even when ``truncated`` (the listing stopped at ``max_results``) or
    ``timed_out``; ``max_obeyed``: per announcement (a tuple of per-slot
    counts, or ``None`` for "all numbers"), the maximum number of obeyed
    requirements among legal choices."""

    count: int
    choices: list[Choice]
    truncated: bool = False
    timed_out: bool = False
    max_obeyed: dict[tuple[int, ...] | None, int] = field(default_factory=dict)


# --------------------------------------------------------------------------
# Announcements
# --------------------------------------------------------------------------


def announcements(problem: TargetProblem) -> list[tuple[int, ...] | None]:
    """The numbers of targets the player could announce, per slot (CR 601.2c).

    ``[None]`` (one model over every number) when the announcement makes no
    difference: no requirements, no variable slot, or ``counts_first`` off.
    """
    variable = any(s.min < s.cap for s in problem.slots)
    if not problem.counts_first or not problem.requirements or not variable:
        return [None]
    ranges = [range(s.min, s.cap + 1) for s in problem.slots]
    return list(itertools.product(*ranges))


# --------------------------------------------------------------------------
# CP-SAT
# --------------------------------------------------------------------------


def _solver(time_limit: float | None, enumerate_all: bool = False) -> cp_model.CpSolver:
    # Models are small and pure Boolean: presolve costs more than it saves
    # (and is restricted anyway while enumerating all solutions).
    if enumerate_all:
        return new_solver(time_limit, enumerate_all=True, cp_model_presolve=False,
                          search_branching=cp_model.FIXED_SEARCH)
    return new_solver(time_limit, cp_model_presolve=False)


class TargetModel:
    """The CP-SAT model of one problem (for one announcement, or all numbers
    when ``counts`` is None), with its decoder."""

    def __init__(self, problem: TargetProblem, counts: tuple[int, ...] | None = None):
        self.problem = problem
        self.counts = counts
        m: cp_model.CpModel = LeanModel()
        self.model = m
        self.infeasible = False
        self.x: list[list[cp_model.IntVar]] = []
        self.idx: list[cp_model.IntVar | None] = []
        multi: list[cp_model.IntVar] = []
        for s, slot in enumerate(problem.slots):
            xs = [m.new_bool_var(f"t{s}_{i}") for i in range(len(slot.candidates))]
            self.x.append(xs)
            lo, hi = (counts[s], counts[s]) if counts is not None else (slot.min, slot.cap)
            if lo > hi or lo > len(xs):
                self.infeasible = True
            if hi <= 1:
                if lo >= 1:
                    m.add_exactly_one(xs)
                elif xs:
                    if hi == 0:
                        for v in xs:
                            m.add(v == 0)
                    else:
                        m.add_at_most_one(xs)
                if xs and hi == 1:
                    v = m.new_int_var(0 if lo >= 1 else -1, len(xs) - 1, f"idx{s}")
                    m.add_map_domain(v, xs, 0)
                    self.idx.append(v)
                else:
                    self.idx.append(None)
            else:
                m.add(sum(xs) >= lo)
                m.add(sum(xs) <= hi)
                self.idx.append(None)
                multi.extend(xs)
        for s, slot in enumerate(problem.slots):  # "another target"
            pos_s = {c: i for i, c in enumerate(slot.candidates)}
            for t in slot.distinct_from:
                if t == s or not 0 <= t < len(problem.slots):
                    continue
                for j, c in enumerate(problem.slots[t].candidates):
                    i = pos_s.get(c)
                    if i is not None:
                        m.add_at_most_one([self.x[s][i], self.x[t][j]])
        self.y: list[tuple[int, cp_model.IntVar]] = []
        for r, req in enumerate(problem.requirements):
            lits = [self.x[s][i] for s, slot in enumerate(problem.slots)
                    for i, c in enumerate(slot.candidates) if c in req.satisfiers]
            if not lits:
                continue
            y = m.new_bool_var(f"req{r}")
            m.add_max_equality(y, lits)
            self.y.append((req.weight, y))
        decisions = [v for v in self.idx if v is not None]
        if decisions:
            m.add_decision_strategy(decisions, cp_model.CHOOSE_FIRST, cp_model.SELECT_MIN_VALUE)
        if multi:
            m.add_decision_strategy(multi, cp_model.CHOOSE_FIRST, cp_model.SELECT_MAX_VALUE)

    @property
    def obeyed(self) -> cp_model.LinearExprT:
        return sum(w * y for w, y in self.y)

    def decode(self, cb: cp_model.CpSolverSolutionCallback) -> Choice:
        out: list[tuple[str, ...]] = []
        for slot, xs, v in zip(self.problem.slots, self.x, self.idx):
            if v is not None:
                k = cb.value(v)
                out.append(() if k < 0 else (slot.candidates[k],))
            else:
                out.append(tuple(c for c, x in zip(slot.candidates, xs) if cb.boolean_value(x)))
        return tuple(out)

    def max_obeyed(self, time_limit: float | None = None) -> int | None:
        """The maximum number of obeyed requirements, or None if no legal
        choice exists. Raises :class:`TimeoutError` if the limit struck first."""
        if self.infeasible:
            return None
        if self.y:
            self.model.maximize(self.obeyed)
        solver = _solver(time_limit)
        status = solver.solve(self.model)
        if self.y:
            self.model.clear_objective()
        if status == cp_model.INFEASIBLE or status == cp_model.MODEL_INVALID:
            return None
        if status != cp_model.OPTIMAL:
            raise TimeoutError("time limit reached before the maximum was proved")
        return int(round(solver.objective_value)) if self.y else 0


class _Collector(cp_model.CpSolverSolutionCallback):
    def __init__(self, tm: TargetModel, limit: int, decode: bool = True):
        super().__init__()
        self.tm = tm
        self.limit = limit
        self.decode = decode
        self.found = 0
        self.choices: list[Choice] = []
        self.stopped = False

    def on_solution_callback(self) -> None:
        if self.found >= self.limit:
            self.stopped = True
            self.stop_search()
            return
        self.found += 1
        if self.decode:
            self.choices.append(self.tm.decode(self))


def enumerate_choices(problem: TargetProblem, max_results: int | None = None,
                      time_limit: float | None = None) -> TargetAnswer:
    """Every legal choice of targets: those obeying the maximum possible number
    of requirements (CR 601.2c), sorted. With ``max_results``, at most that
    many are listed (``truncated``), the count staying exact."""
    limit = max_results if max_results is not None else float("inf")
    choices: list[Choice] = []
    best: dict[tuple[int, ...] | None, int] = {}
    truncated = timed_out = False
    deadline = None if time_limit is None else _now() + time_limit
    for counts in announcements(problem):
        tm = TargetModel(problem, counts)
        try:
            top = tm.max_obeyed(_remaining(deadline))
        except TimeoutError:
            timed_out = True
            break
        if top is None:
            continue
        best[counts] = top
        if tm.y:
            tm.model.add(tm.obeyed == top)
        room = limit - len(choices)
        cb = _Collector(tm, int(room) if room != float("inf") else 1 << 62)
        solver = _solver(_remaining(deadline), enumerate_all=True)
        status = solver.solve(tm.model, cb)
        choices.extend(cb.choices)
        if cb.stopped:
            truncated = True
            break
        if status not in (cp_model.OPTIMAL, cp_model.INFEASIBLE):
            timed_out = True
            break
    if truncated or timed_out:
        count = count_choices(problem)
    else:
        count = len(choices)
    return TargetAnswer(count, sorted(choices), truncated, timed_out, best)


def cpsat_count(problem: TargetProblem, time_limit: float | None = None, limit: int | None = None) -> int | None:
    """The number of legal choices counted by CP-SAT enumeration alone (no
    decoding); None on timeout. With ``limit``, stops after that many
    solutions and returns at most ``limit``. For benchmarks and cross-checks."""
    total = 0
    cap = (1 << 62) if limit is None else limit
    deadline = None if time_limit is None else _now() + time_limit
    for counts in announcements(problem):
        if total >= cap:
            break
        tm = TargetModel(problem, counts)
        try:
            top = tm.max_obeyed(_remaining(deadline))
        except TimeoutError:
            return None
        if top is None:
            continue
        if tm.y:
            tm.model.add(tm.obeyed == top)
        cb = _Collector(tm, cap - total, decode=False)
        status = _solver(_remaining(deadline), enumerate_all=True).solve(tm.model, cb)
        if not cb.stopped and status not in (cp_model.OPTIMAL, cp_model.INFEASIBLE):
            return None
        total += cb.found
    return total


def is_feasible(problem: TargetProblem, time_limit: float | None = None) -> bool:
    """Does any legal choice exist? Requirements are irrelevant to this (a
    choice reaching the maximum exists whenever any choice does). Without
    "another target" links the slots are independent and each needs only
    ``min`` candidates; otherwise one CP-SAT solve decides."""
    if any(s.min > len(s.candidates) or s.min > s.max for s in problem.slots):
        return False
    if not any(s.distinct_from for s in problem.slots):
        return True
    by_matching = _feasible_by_matching(problem.slots)
    if by_matching is not None:
        return by_matching
    tm = TargetModel(TargetProblem(problem.slots))
    status = _solver(time_limit).solve(tm.model)
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return True
    if status == cp_model.INFEASIBLE:
        return False
    raise TimeoutError("time limit reached before feasibility was decided")


def _feasible_by_matching(slots: tuple[Slot, ...]) -> bool | None:
    """Feasibility without a solve when the "another target" links tie slots in cliques (Arc
    Trail: "another target"): each clique needs ``min`` distinct candidates per slot, no
    candidate twice in the clique — a bipartite b-matching (Hall's theorem; augmenting paths).
    ``None`` when some linked group is not a clique (then CP-SAT decides)."""
    n = len(slots)
    adj: list[set[int]] = [set() for _ in range(n)]
    for s, slot in enumerate(slots):
        for t in slot.distinct_from:
            if t != s and 0 <= t < n:
                adj[s].add(t)
                adj[t].add(s)
    seen: set[int] = set()
    for s in range(n):
        if s in seen:
            continue
        group, todo = {s}, [s]
        while todo:
            u = todo.pop()
            for v in adj[u] - group:
                group.add(v)
                todo.append(v)
        seen |= group
        if len(group) == 1:
            continue
        if any(v not in adj[u] for u in group for v in group if v != u):
            return None
        units = [u for u in sorted(group) for _ in range(slots[u].min)]
        owner: dict[str, int] = {}      # candidate -> unit

        def augment(k: int, visited: set[str]) -> bool:
            for c in slots[units[k]].candidates:
                if c in visited:
                    continue
                visited.add(c)
                if c not in owner or augment(owner[c], visited):
                    owner[c] = k
                    return True
            return False

        for k in range(len(units)):
            if not augment(k, set()):
                return False
    return True


def is_legal_choice(problem: TargetProblem, choice: Choice, time_limit: float | None = None) -> bool:
    """Is ``choice`` (per slot, the ids chosen) one of the legal choices :func:`enumerate_choices`
    would list? Decided without listing (issue 16): the slots' own rules are checked
    directly (candidates, numbers, "another target", CR 115.3, 601.2c), and when
    requirements apply, one solve gives the maximum number obeyed for the choice's
    announcement, which the choice must reach (CR 601.2c). Raises :class:`TimeoutError`."""
    slots = problem.slots
    if len(choice) != len(slots):
        return False
    for slot, ids in zip(slots, choice):
        if len(set(ids)) != len(ids) or not set(ids) <= set(slot.candidates):
            return False
        if not slot.min <= len(ids) <= slot.cap:
            return False
    for s, slot in enumerate(slots):
        for t in slot.distinct_from:
            if t != s and 0 <= t < len(slots) and set(choice[s]) & set(choice[t]):
                return False
    if not problem.requirements:
        return True
    chosen = {c for ids in choice for c in ids}
    obeyed = sum(r.weight for r in problem.requirements if r.satisfiers & chosen)
    counts = tuple(len(ids) for ids in choice)
    ann = announcements(problem)
    tm = TargetModel(problem, counts if ann != [None] else None)
    top = tm.max_obeyed(time_limit)
    return top is not None and obeyed == top


def _now() -> float:
    import time

    return time.perf_counter()


def _remaining(deadline: float | None) -> float | None:
    if deadline is None:
        return None
    return max(0.001, deadline - _now())


# --------------------------------------------------------------------------
# Exact counting without enumeration
# --------------------------------------------------------------------------


def _independent_subsets(mask: int, conflicts: set[tuple[int, int]], k: int) -> list[tuple[int, ...]]:
    """Non-empty sets of slots (within ``mask``) that one candidate may be
    chosen for at once: no two of them linked by "another target"."""
    slots = [s for s in range(k) if mask >> s & 1]
    out = []
    for r in range(1, len(slots) + 1):
        for combo in itertools.combinations(slots, r):
            if all((a, b) not in conflicts for a, b in itertools.combinations(combo, 2)):
                out.append(combo)
    return out


def _class_ways(m: int, subsets: list[tuple[int, ...]], caps: tuple[int, ...]) -> dict[tuple[tuple[int, ...], bool], int]:
    """For ``m`` interchangeable candidates: the number of ways to choose, for
    each allowed set of slots ``T``, ``k_T`` distinct members chosen for
    exactly those slots; keyed by the resulting targets per slot and whether
    any member was chosen."""
    k = len(caps)
    out: dict[tuple[tuple[int, ...], bool], int] = defaultdict(int)

    def rec(i: int, remaining: int, counts: list[int], ways: int, any_chosen: bool) -> None:
        if i == len(subsets):
            out[(tuple(counts), any_chosen)] += ways
            return
        T = subsets[i]
        room = min([remaining] + [caps[s] - counts[s] for s in T])
        for n in range(room + 1):
            for s in T:
                counts[s] += n
            rec(i + 1, remaining - n, counts, ways * math.comb(remaining, n), any_chosen or n > 0)
            for s in T:
                counts[s] -= n

    rec(0, m, [0] * k, 1, False)
    return dict(out)


def profile(problem: TargetProblem) -> dict[tuple[tuple[int, ...], int], int]:
    """The number of restriction-respecting choices, keyed by (targets chosen
    per slot, bitmask of the requirements obeyed)."""
    slots = problem.slots
    k = len(slots)
    caps = tuple(s.cap for s in slots)
    conflicts = set()
    for s, slot in enumerate(slots):
        for t in slot.distinct_from:
            if t != s and 0 <= t < k:
                conflicts.add((min(s, t), max(s, t)))
    signature: dict[str, list[int]] = {}
    for s, slot in enumerate(slots):
        for c in slot.candidates:
            signature.setdefault(c, [0, 0])[0] |= 1 << s
    for r, req in enumerate(problem.requirements):
        for c in req.satisfiers:
            if c in signature:
                signature[c][1] |= 1 << r
    classes = Counter((sm, gm) for sm, gm in signature.values())
    state: dict[tuple[tuple[int, ...], int], int] = {((0,) * k, 0): 1}
    subsets_cache: dict[int, list[tuple[int, ...]]] = {}
    for (smask, gmask), m in sorted(classes.items()):
        subsets = subsets_cache.get(smask)
        if subsets is None:
            subsets = subsets_cache[smask] = _independent_subsets(smask, conflicts, k)
        ways = _class_ways(m, subsets, caps)
        new: dict[tuple[tuple[int, ...], int], int] = defaultdict(int)
        for (have, h), w in state.items():
            for (d, chosen), wd in ways.items():
                cc = tuple(a + b for a, b in zip(have, d))
                if any(cc[i] > caps[i] for i in range(k)):
                    continue
                new[(cc, h | gmask if chosen else h)] += w * wd
        state = new
    return {(c, h): w for (c, h), w in state.items() if w and all(c[i] >= slots[i].min for i in range(k))}


def _weight(problem: TargetProblem, mask: int) -> int:
    return sum(req.weight for r, req in enumerate(problem.requirements) if mask >> r & 1)


def count_choices(problem: TargetProblem) -> int:
    """The exact number of legal choices (see :func:`enumerate_choices`),
    without enumerating them."""
    prof = profile(problem)
    if not prof:
        return 0
    by_counts: dict[tuple[int, ...] | None, list[tuple[int, int]]] = defaultdict(list)
    per_announcement = announcements(problem) != [None]
    for (c, h), w in prof.items():
        by_counts[c if per_announcement else None].append((_weight(problem, h), w))
    total = 0
    for entries in by_counts.values():
        top = max(wt for wt, _ in entries)
        total += sum(w for wt, w in entries if wt == top)
    return total
