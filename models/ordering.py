"""CP-SAT model of the order in which replacement effects apply to one event
(CR 614.5, 616.1, 616.2).

The model is a *sequence*, not a permutation of a fixed list: it has the
event's state after every step, and at each step it re-checks which effects
are applicable (CR 616.1f), as an effect may stop or start applying once
another has modified the event (CR 616.2).

Rules-level description (built by :mod:`solver.rules.replacement`):

* the event's state is a vector of non-negative integers (six mana types for a
  mana production event; one entry per counter kind for counters);
* each :class:`EffectClass` groups identical effects (same ability, same
  controller): ``count`` copies, each applicable at most once (CR 614.5);
* an effect is applicable at a step if a copy is still unused and its
  condition holds on the current state (``cond_dims``: the sum of those
  entries is at least one; ``None``: always);
* ``rank`` is the CR 616.1a-e class (0: self-replacement … 4: any other):
  only applicable effects of the lowest rank present may be chosen;
* one applicable effect *must* be applied while any is applicable (CR 616.1f).

Variables: ``pick[c][k]`` (class ``c`` applied at step ``k``); everything else
(states, applicability) is fixed by the picks, so enumerating all solutions
lists every legal sequence exactly once. Sequences are over *classes*:
identical effects are not permuted by the solver (principle 2); the caller
expands a class sequence into the orders of individual effects.

>>> p = OrderingProblem((1, 0), (EffectClass(Op("scale", dims=(0, 1), factor=2), (0, 1), 4, 2),))
>>> solve_orderings(p).sequences
[((0, 0), (4, 0))]
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from math import prod

from ortools.sat.python import cp_model

from .base import LeanModel, new_solver



_Model = LeanModel


@dataclass(frozen=True)
class Op:
    """What applying an effect does to the event's state.

    * ``scale``: entries ``dims`` are multiplied by ``factor`` (Mana Reflection:
      twice as much of that mana; Doubling Season: twice that many counters);
    * ``collapse``: everything becomes entry ``target``, same total (Pale Moon,
      Deep Water: that type instead of any other type);
    * ``set``: the state becomes ``vector`` (Contamination: {B} instead of any
      other type and amount);
    * ``add``: entry ``target`` grows by ``amount`` (Hardened Scales: that many
      plus one; "enters with N counters").
    """

    kind: str
    dims: tuple[int, ...] = ()
    factor: int = 1
    target: int = 0
    vector: tuple[int, ...] = ()
    amount: int = 0

    def apply(self, state: tuple[int, ...]) -> tuple[int, ...]:
        """The state after this operation (used to replay a legal sequence)."""
        s = list(state)
        if self.kind == "scale":
            for d in self.dims:
                s[d] *= self.factor
        elif self.kind == "collapse":
            total = sum(s)
            s = [0] * len(s)
            s[self.target] = total
        elif self.kind == "set":
            s = list(self.vector)
        elif self.kind == "add":
            s[self.target] += self.amount
        else:  # pragma: no cover - guarded by construction
            raise ValueError(f"unknown operation {self.kind}")
        return tuple(s)


@dataclass(frozen=True)
class EffectClass:
    """``count`` identical replacement effects: operation, condition, CR 616.1 rank."""

    op: Op
    cond_dims: tuple[int, ...] | None
    rank: int
    count: int = 1


@dataclass(frozen=True)
class OrderingProblem:
    """The initial state of the event and the classes of effects that may apply to it."""

    initial: tuple[int, ...]
    classes: tuple[EffectClass, ...]


@dataclass
class OrderingResult:
    """``sequences``: every legal sequence of class indices with the final state it gives,
    sorted; ``status``: ``ok`` or ``timeout``."""

    sequences: list[tuple[tuple[int, ...], tuple[int, ...]]] = field(default_factory=list)
    status: str = "ok"


def state_bound(problem: OrderingProblem) -> int:
    """An upper bound of any entry (indeed of the total) over every sequence:
    adds and sets first, then every multiplication."""
    base = max([sum(problem.initial)] + [sum(c.op.vector) for c in problem.classes if c.op.kind == "set"])
    base += sum(c.op.amount * c.count for c in problem.classes if c.op.kind == "add")
    factor: int = prod(c.op.factor ** c.count for c in problem.classes if c.op.kind == "scale")
    return max(1, base * max(1, factor))


def build(problem: OrderingProblem) -> tuple[LeanModel, list[list[cp_model.IntVar]], list[cp_model.IntVar]]:
    """The CP-SAT model and the list of pick variables ``picks[c][k]`` and final state vars."""
    m = _Model()
    classes = problem.classes
    n_steps = sum(c.count for c in classes)
    dims = len(problem.initial)
    ub = state_bound(problem)
    states: list[list[cp_model.IntVar]] = [[m.new_constant(v) for v in problem.initial]]
    picks = [[m.new_bool_var(f"pick_{c}_{k}") for k in range(n_steps)] for c in range(len(classes))]
    for k in range(n_steps):
        cur = states[-1]
        nxt = [m.new_int_var(0, ub, f"s_{k + 1}_{d}") for d in range(dims)]
        appl = []
        for ci, c in enumerate(classes):
            used = sum(picks[ci][:k])
            avail = m.new_bool_var(f"avail_{ci}_{k}")
            if k == 0:
                m.add(avail == 1)
            else:
                m.add(used <= c.count - 1).only_enforce_if(avail)
                m.add(used >= c.count).only_enforce_if(~avail)
            if c.cond_dims is None:
                a = avail
            else:
                cond = m.new_bool_var(f"cond_{ci}_{k}")
                total = sum(cur[d] for d in c.cond_dims)
                m.add(total >= 1).only_enforce_if(cond)
                m.add(total <= 0).only_enforce_if(~cond)
                a = m.new_bool_var(f"appl_{ci}_{k}")
                m.add_bool_and([avail, cond]).only_enforce_if(a)
                m.add_bool_or([~avail, ~cond]).only_enforce_if(~a)
            appl.append(a)
            m.add_implication(picks[ci][k], a)
        # CR 616.1a-e: only the lowest rank among applicable effects may be chosen.
        for ci, c in enumerate(classes):
            for cj, d in enumerate(classes):
                if d.rank < c.rank:
                    m.add_implication(picks[ci][k], ~appl[cj])
        # CR 616.1f: apply one while any is applicable; then stop.
        step = [picks[ci][k] for ci in range(len(classes))]
        active = m.new_bool_var(f"active_{k}")
        m.add(sum(step) == active)
        for a in appl:
            m.add_implication(a, active)
        for ci, c in enumerate(classes):
            _transition(m, c.op, cur, nxt, picks[ci][k])
        for dim in range(dims):
            m.add(nxt[dim] == cur[dim]).only_enforce_if(~active)
        states.append(nxt)
    flat = [p for row in picks for p in row]
    if flat:
        m.add_decision_strategy(flat, cp_model.CHOOSE_FIRST, cp_model.SELECT_MAX_VALUE)
    return m, picks, states[-1]


def _transition(m: cp_model.CpModel, op: Op, cur: list[cp_model.IntVar], nxt: list[cp_model.IntVar],
                lit: cp_model.IntVar) -> None:
    dims = len(cur)
    if op.kind == "scale":
        for d in range(dims):
            m.add(nxt[d] == (op.factor * cur[d] if d in op.dims else cur[d])).only_enforce_if(lit)
    elif op.kind == "collapse":
        for d in range(dims):
            m.add(nxt[d] == (sum(cur) if d == op.target else 0)).only_enforce_if(lit)
    elif op.kind == "set":
        for d in range(dims):
            m.add(nxt[d] == op.vector[d]).only_enforce_if(lit)
    elif op.kind == "add":
        for d in range(dims):
            m.add(nxt[d] == (cur[d] + op.amount if d == op.target else cur[d])).only_enforce_if(lit)
    else:
        raise ValueError(f"unknown operation {op.kind}")


class _Collector(cp_model.CpSolverSolutionCallback):
    def __init__(self, picks: list[list[cp_model.IntVar]], final: list[cp_model.IntVar]) -> None:
        super().__init__()
        self._picks = picks
        self._idx = [[p.index for p in row] for row in picks]
        self._final = final
        self.found: list[tuple[tuple[int, ...], tuple[int, ...]]] = []

    def on_solution_callback(self) -> None:
        n_steps = len(self._picks[0]) if self._picks else 0
        seq = []
        for k in range(n_steps):
            for ci, row in enumerate(self._idx):
                if self.SolutionBooleanValue(row[k]):
                    seq.append(ci)
                    break
            else:
                break  # no effect applies any more (CR 616.1f): the sequence has ended
        self.found.append((tuple(seq), tuple(self.value(v) for v in self._final)))


@lru_cache(maxsize=4096)
def solve_orderings(problem: OrderingProblem, timeout: float | None = None) -> OrderingResult:
    """Every legal sequence of effect classes for ``problem`` with its final state.

    Results are cached by problem (the problem is frozen and the answer
    deterministic); call ``solve_orderings.cache_clear()`` to time cold runs.
    """
    if not problem.classes:
        return OrderingResult([((), tuple(problem.initial))])
    m, picks, final = build(problem)
    solver = new_solver(enumerate_all=True)
    solver.parameters.search_branching = cp_model.FIXED_SEARCH  # depth-first on the picks
    solver.parameters.linearization_level = 0
    if timeout is not None:
        solver.parameters.max_time_in_seconds = max(0.001, timeout)
    cb = _Collector(picks, final)
    status = solver.solve(m, cb)
    res = OrderingResult(sorted(set(cb.found)))
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        # the rules always allow at least one sequence (possibly empty): only a timeout gets here
        res.status = "timeout"
    elif status == cp_model.FEASIBLE:
        res.status = "timeout"
    return res


def replay(problem: OrderingProblem, sequence: tuple[int, ...]) -> tuple[int, ...]:
    """The final state of ``problem.initial`` after the class sequence ``sequence``."""
    s = tuple(problem.initial)
    for ci in sequence:
        s = problem.classes[ci].op.apply(s)
    return s
