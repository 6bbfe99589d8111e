"""mtgsolve: exact legal choices in Magic: The Gathering situations, compiled to CP-SAT.

>>> from mtgsolve import Situation
>>> sit = Situation.from_file("instances/targets/flagbearer_redirect.yaml")   # doctest: +SKIP
>>> sit.legal_actions                                                          # doctest: +SKIP

The package is laid out as the repository: :mod:`mtgsolve.solver` (situations,
rules, queries, the API), :mod:`mtgsolve.models` (the CP-SAT models) and
:mod:`mtgsolve.cli` (the ``mtgsolve`` command). Importing ``mtgsolve`` is light;
the engine loads on first use of an exported name.
"""
from __future__ import annotations

from importlib import metadata as _metadata
from typing import Any

try:
    __version__ = _metadata.version("mtgsolve")
except _metadata.PackageNotFoundError:  # pragma: no cover - running from a bare checkout
    __version__ = "0+unknown"

__all__ = ["Situation", "solve", "answer", "__version__"]


def __getattr__(name: str) -> Any:
    """Lazy exports (PEP 562): ``Situation`` (the agents' API), ``solve`` (a file's queries) and
    ``answer`` (one query dict against a loaded situation)."""
    if name == "Situation":
        from .solver.api import Situation
        return Situation
    if name == "solve":
        from .solver.runner import solve_file
        return solve_file
    if name == "answer":
        from .solver.queries import answer
        return answer
    raise AttributeError(f"module 'mtgsolve' has no attribute {name!r}")
