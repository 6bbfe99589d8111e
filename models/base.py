"""What every CP-SAT model here shares: a fixed seed and a lean model class."""
from __future__ import annotations

from ortools.sat.python import cp_model

SEED = 20240601
"""The random seed of every deterministic solve (with one worker)."""


class LeanModel(cp_model.CpModel):
    """A CP-SAT model without the deprecated camelCase aliases that
    ``CpModel.__init__`` installs one by one (about a millisecond per model).
    The snake_case API is all this project uses."""

    def _add_pre_pep8_methods(self) -> None:
        pass


def new_solver(time_limit: float | None = None, *, enumerate_all: bool = False, **params: object) -> cp_model.CpSolver:
    """A CP-SAT solver set up the one way every model here solves: one worker
    and the fixed :data:`SEED` (architecture principle 7: the same input gives
    byte-identical output), ``enumerate_all_solutions`` when ``enumerate_all``,
    ``max_time_in_seconds`` from ``time_limit`` (at least 1 ms; ``None``: no
    limit), and any other CP-SAT parameter by name (``cp_model_presolve=False``)."""
    solver = cp_model.CpSolver()
    p = solver.parameters
    p.num_workers = 1
    p.random_seed = SEED
    if enumerate_all:
        p.enumerate_all_solutions = True
    for name, value in params.items():
        setattr(p, name, value)
    if time_limit is not None:
        p.max_time_in_seconds = max(0.001, float(time_limit))
    return solver
