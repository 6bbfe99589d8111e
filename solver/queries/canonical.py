"""The order in which results are shown (contract §2.7, §2.10): made where the situations are written.

The engine identifies the outcomes of a change by :meth:`solver.core.state.GameState.key` and
gives them in a deterministic order of its own (by the canonical text of their choices); the
contract lists them by the canonical JSON of their choices, then of their situations
(:func:`solver.io.dump.dump_state`). These functions make that order, for the queries and for
the agents' API (:mod:`solver.api.play`), so that the engine never writes situations.
"""
from __future__ import annotations

import json
from typing import Any, Iterable

from ..core.state import GameState
from ..engine.resolution import Outcome
from ..engine.transition import Branch
from ..io.dump import dump_state

__all__ = ["situation_json", "canonical_outcomes", "canonical_branches"]


def situation_json(state: GameState) -> str:
    """The canonical JSON text of the situation ``state`` is (compact, keys sorted)."""
    return json.dumps(dump_state(state), sort_keys=True, separators=(",", ":"))


def _canon(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def canonical_outcomes(outcomes: Iterable[Outcome]) -> list[tuple[Outcome, dict]]:
    """A resolution's outcomes with their situations, in the contract's order (§2.7): by the
    canonical JSON of the choices, then of the situation."""
    written = [(o, dump_state(o.state)) for o in outcomes]
    written.sort(key=lambda x: (_canon(x[0].choices), _canon(x[1])))
    return written


def canonical_branches(branches: list[Branch]) -> list[Branch]:
    """The outcomes of passing in the contract's order (§2.10): by the canonical JSON of the
    choices, then of the situation."""
    if len(branches) <= 1:
        return branches
    return sorted(branches, key=lambda b: (json.dumps(b.choices, sort_keys=True), situation_json(b.state)))
