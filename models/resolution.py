"""CP-SAT model of the choices made while resolving the top of the stack.

Which choices are modeled here, and which are enumerated structurally
---------------------------------------------------------------------
Resolving a spell or ability (CR 608) involves four kinds of choices:

1. **"You may" choices** (CR 608.2d) and **replacement orders** (CR 616.1)
   happen *during* the resolution, one after another, and each one changes
   the game state the next one sees (a fight that kills a creature changes
   what a later effect can do; CR 616.1f re-checks applicability after every
   replacement step).  They are sequential decisions over a changing state,
   not a static constraint problem, so :mod:`solver.engine.resolution` enumerates
   them structurally: it branches on the game state itself, one branch per
   answer, and merges branches that reach the same situation.  Replacement
   orders come from the single ordering mechanism
   (:func:`solver.rules.replacement.counter_event_outcomes`), which has its own
   model; "may" has two answers.  No auxiliary variable is involved, so the
   branching enumerates exactly the distinct decision sequences.
2. **Putting triggered abilities on the stack** (CR 603.3b, 603.3d) after
   state-based actions: each player puts their own triggered abilities on the
   stack *in any order they choose*, choosing targets for each.  This is a
   genuine combinatorial space — the orders of k abilities times the target
   choices of each — and it is this module's model.

The model (per player; players act in APNAP order, so their spaces multiply)
---------------------------------------------------------------------------
* ``at[t][p]`` — trigger ``t`` is the ``p``-th put on the stack (p = 0 is the
  bottom): a permutation matrix (exactly one per row and per column).
* ``pick[t][c]`` — trigger ``t`` gets its ``c``-th legal target choice
  (choices come from the targeting rules, :func:`solver.engine.resolution.
  trigger_target_choices`): exactly one per trigger.
* Interchangeable triggers (the same ability of the same source with the same
  last known information and the same legal choices — :class:`TriggerSpec`
  ``key``) would give the same stacks in swapped order: the model orders
  their positions (``pos[t1] < pos[t2]``), so every distinct stack is found
  once (architecture: "enumerate outcomes, not permutations").

All decision variables are the ``at`` and ``pick`` literals; ``pos`` is fixed
by ``at``.  A player with a single waiting ability needs no model (its
placements are exactly its target choices), and :mod:`solver.engine.resolution`
lists those directly.  Enumeration uses one worker and a fixed seed; results are sorted.
The brute-force reference is ``tests/reference/resolution.py``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Hashable, Sequence

from ortools.sat.python import cp_model

from .base import LeanModel, new_solver

__all__ = ["TriggerSpec", "Placement", "placement_model", "enumerate_placements"]

Placement = tuple[tuple[int, int], ...]
"""A way to put one player's triggers on the stack: ``(trigger, choice)`` pairs,
bottom of the stack first."""


@dataclass(frozen=True)
class TriggerSpec:
    """One triggered ability waiting to be put on the stack.

    ``key``: equal keys mark interchangeable abilities (same ability, same
    source information, same legal target choices); ``n_choices``: the number
    of its legal target choices (1 for an ability without targets; at least 1 —
    an ability with no legal choice is removed before, CR 603.3d)."""

    key: Hashable
    n_choices: int


def placement_model(triggers: Sequence[TriggerSpec]) -> tuple[cp_model.CpModel, Callable[[cp_model.CpSolverSolutionCallback], Placement]]:
    """The CP-SAT model of one player's placements, and a decoder of a solution."""
    model = LeanModel()
    k = len(triggers)
    at = [[model.new_bool_var(f"at_{t}_{p}") for p in range(k)] for t in range(k)]
    pick = [[model.new_bool_var(f"pick_{t}_{c}") for c in range(tr.n_choices)] for t, tr in enumerate(triggers)]
    for t in range(k):
        model.add_exactly_one(at[t])
        model.add_exactly_one(pick[t])
    for p in range(k):
        model.add_exactly_one(at[t][p] for t in range(k))
    pos = []
    for t in range(k):
        v = model.new_int_var(0, max(k - 1, 0), f"pos_{t}")
        model.add(v == sum(p * at[t][p] for p in range(k)))
        pos.append(v)
    for t1 in range(k):
        for t2 in range(t1 + 1, k):
            if triggers[t1].key == triggers[t2].key:
                model.add(pos[t1] < pos[t2])  # interchangeable: one order only

    def decode(cb: cp_model.CpSolverSolutionCallback) -> Placement:
        where = {}
        for t in range(k):
            p = next(p for p in range(k) if cb.boolean_value(at[t][p]))
            c = next(c for c in range(triggers[t].n_choices) if cb.boolean_value(pick[t][c]))
            where[p] = (t, c)
        return tuple(where[p] for p in range(k))

    return model, decode


class _Collect(cp_model.CpSolverSolutionCallback):
    def __init__(self, decode: Callable[[cp_model.CpSolverSolutionCallback], Placement]):
        super().__init__()
        self.decode = decode
        self.found: list[Placement] = []

    def on_solution_callback(self) -> None:
        self.found.append(self.decode(self))


def enumerate_placements(triggers: Sequence[TriggerSpec]) -> list[Placement]:
    """Every distinct way to put ``triggers`` on the stack, sorted.

    >>> enumerate_placements([TriggerSpec("a", 2)])
    [((0, 0),), ((0, 1),)]
    >>> len(enumerate_placements([TriggerSpec("a", 1), TriggerSpec("b", 1)]))
    2
    >>> enumerate_placements([TriggerSpec("a", 1), TriggerSpec("a", 1)])
    [((0, 0), (1, 0))]
    """
    if not triggers:
        return [()]
    model, decode = placement_model(triggers)
    solver = new_solver(enumerate_all=True)
    cb = _Collect(decode)
    status = solver.solve(model, cb)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE, cp_model.INFEASIBLE):
        raise RuntimeError(f"trigger placement model: solver status {solver.status_name(status)}")
    return sorted(set(cb.found))
