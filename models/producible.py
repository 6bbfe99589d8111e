"""CP-SAT model of "could produce" (CR 106.7) as a least fixed point.

Rules-level description (built by :mod:`solver.rules.mana_sources`):

* ``base``: for each permanent, the types of mana its abilities would produce
  by themselves (fixed amounts, "any color", basic land types …), after
  replacement effects in every order;
* ``rules``: abilities that produce "one mana of any color/type that [some
  permanents] could produce" (Reflecting Pool, Exotic Orchard, Fellwar Stone,
  Harvester Druid, Naga Vitalist, Squandered Resources): the permanent
  ``target`` could produce type ``t'`` if some permanent in ``sources`` could
  produce a type ``t`` in ``allowed`` and the replacement effects on
  ``target``'s production can turn one ``t`` into ``t'`` (``maps``).

The answer is the *least* set of (permanent, type) facts closed under these
rules (CR 106.7 example; Exotic Orchard ruling 2009-02-01: mutually referencing
lands produce nothing unless something grounds them). A plain "pool produces X
if another pool produces X" constraint would let cycles support themselves, so
the encoding is well founded: every true fact that is not grounded must have a
support of strictly smaller rank (support ranks), and closure forces every
derivable fact true. The two together admit exactly one assignment of the
facts, the least fixed point; one solve decides it.

Nodes are facts ``x[p,t]`` ("p could produce t") and, shared by every rule
looking at the same set of permanents, ``y[S,t]`` ("some permanent of S could
produce t"). Every rule has a single premise, so the least fixed point is the
set of nodes reachable from grounded facts; the graph folds it (a linear-time
propagation) before the model is built, and the model keeps only nodes the
folding left undecided — none, for rules of this shape. The rank encoding
stays as the general well-founded check (and is what the folding must agree
with: ``tests/test_could_produce.py`` compares both paths with the
brute-force reference). A 20,000-permanent board with thousands of Reflecting
Pools and Exotic Orchards is answered in seconds; without the folding the
model alone took minutes.

>>> p = ProducibleProblem(("pool", "orchard"), (("pool", frozenset()), ("orchard", frozenset())),
...     (Rule("pool", ("pool", "orchard"), frozenset("WUBRGC"), ()), Rule("orchard", ("pool",), frozenset("WUBRG"), ())))
>>> solve(p)
{'pool': frozenset(), 'orchard': frozenset()}
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Literal

from ortools.sat.python import cp_model

from .base import LeanModel, new_solver

TYPES = ("W", "U", "B", "R", "G", "C")


_Model = LeanModel

#: A node of the fixed point: ``("x", permanent, type)`` (the permanent could produce the type)
#: or ``("y", k, type)`` (some permanent of source set number ``k`` could)
Fact = tuple[Literal["x"], str, str] | tuple[Literal["y"], int, str]


@dataclass(frozen=True)
class Rule:
    """``target`` could produce ``maps[t]`` (default ``{t}``) for every ``t`` in
    ``allowed`` that some permanent of ``sources`` could produce."""

    target: str
    sources: tuple[str, ...]
    allowed: frozenset[str]
    maps: tuple[tuple[str, frozenset[str]], ...] = ()

    def image(self, t: str) -> frozenset[str]:
        for k, v in self.maps:
            if k == t:
                return v
        return frozenset({t})


@dataclass(frozen=True)
class ProducibleProblem:
    objects: tuple[str, ...]
    base: tuple[tuple[str, frozenset[str]], ...]
    rules: tuple[Rule, ...]


class _Graph:
    """Nodes, constant values and edges of the fixed-point problem."""

    def __init__(self, problem: ProducibleProblem):
        base = dict(problem.base)
        self.nodes: list[Fact] = []
        self.index: dict[Fact, int] = {}
        self.const: dict[int, bool] = {}
        self.preds: dict[int, list[int]] = {}
        for p in problem.objects:
            for t in TYPES:
                self._node(("x", p, t), True if t in base.get(p, ()) else None)
        # source sets are keyed by a small number (hashing a long tuple once per rule, not per node)
        set_ids: dict[tuple[str, ...], int] = {}
        rule_sets = [set_ids.setdefault(r.sources, len(set_ids)) for r in problem.rules]
        for S, k in sorted(set_ids.items(), key=lambda e: e[1]):
            for t in TYPES:
                grounded = any(t in base.get(q, ()) for q in S)
                y = self._node(("y", k, t), True if grounded else None)
                if grounded:
                    continue
                for q in S:
                    u = self.index[("x", q, t)]
                    self.preds.setdefault(y, []).append(u)
        for r, k in zip(problem.rules, rule_sets):
            for t in TYPES:
                if t not in r.allowed:
                    continue
                u = self.index[("y", k, t)]
                for t2 in sorted(r.image(t), key=TYPES.index):
                    v = self.index[("x", r.target, t2)]
                    if self.const.get(v):
                        continue
                    self.preds.setdefault(v, []).append(u)
        # Every rule has one premise (u -> v), so the least fixed point is exactly the set of
        # nodes reachable from grounded ones: propagate truth forward, then every node not
        # reached is false (no support can be well founded without a grounded start).
        succs: dict[int, list[int]] = {}
        for v, us in self.preds.items():
            for u in us:
                succs.setdefault(u, []).append(v)
        stack = [v for v, val in self.const.items() if val]
        while stack:
            u = stack.pop()
            for v in succs.get(u, ()):
                if v not in self.const:
                    self.const[v] = True
                    stack.append(v)
        for v in range(len(self.nodes)):
            if v not in self.const:
                self.const[v] = False

    def _node(self, key: Fact, value: bool | None) -> int:
        i = len(self.nodes)
        self.nodes.append(key)
        self.index[key] = i
        if value is not None:
            self.const[i] = value
        return i


def build(problem: ProducibleProblem) -> tuple[LeanModel, Callable[[cp_model.CpSolver], dict[str, frozenset[str]]]]:
    """The CP-SAT model and a decoder from a solved solver to the answer."""
    g = _Graph(problem)
    m = _Model()
    free = [v for v in range(len(g.nodes)) if v not in g.const]
    n = max(1, len(free))
    val: dict[int, cp_model.IntVar] = {}
    rank: dict[int, cp_model.IntVar] = {}
    for v in free:
        val[v] = m.new_bool_var(f"val_{v}")
        rank[v] = m.new_int_var(1, n, f"rank_{v}")
    for v in free:
        supports = []
        grounded = False
        for u in g.preds[v]:
            if g.const.get(u) is False:
                continue
            if g.const.get(u) is True:
                m.add(val[v] == 1)  # closure from a grounded fact (rank 0 < rank[v])
                grounded = True
                continue
            m.add_implication(val[u], val[v])  # closure: derivable facts hold
            e = m.new_bool_var(f"sup_{u}_{v}")
            m.add_implication(e, val[u])
            m.add(rank[u] < rank[v]).only_enforce_if(e)  # well-founded support
            supports.append(e)
        if grounded:
            continue
        # a fact holds only with a support of smaller rank
        if supports:
            m.add_bool_or(supports).only_enforce_if(val[v])
        else:
            m.add(val[v] == 0)

    def decode(solver: cp_model.CpSolver) -> dict[str, frozenset[str]]:
        out: dict[str, set[str]] = {p: set() for p in problem.objects}
        for v, key in enumerate(g.nodes):
            if key[0] != "x":
                continue
            truth = g.const[v] if v in g.const else bool(solver.boolean_value(val[v]))
            if truth:
                out[key[1]].add(key[2])
        return {p: frozenset(ts) for p, ts in out.items()}

    return m, decode


def solve(problem: ProducibleProblem, timeout: float | None = None) -> dict[str, frozenset[str]]:
    """The least fixed point: every permanent's could-produce types."""
    m, decode = build(problem)
    solver = new_solver()
    if timeout is not None:
        solver.parameters.max_time_in_seconds = max(0.001, timeout)
    status = solver.solve(m)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        if status == cp_model.UNKNOWN:
            raise TimeoutError("could_produce: the fixed-point model timed out")
        raise AssertionError(f"could_produce: the fixed-point model is {solver.status_name(status)}")
    return decode(solver)
