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
