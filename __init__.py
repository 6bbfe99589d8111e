"""mtgsolve: exact legal choices in Magic: The Gathering situations, compiled to CP-SAT.

>>> from mtgsolve import Situation
>>> sit = Situation.load("instances/targets/flagbearer_redirect.yaml")       # doctest: +SKIP
>>> sit.legal_actions                                                          # doctest: +SKIP

The package is laid out as the repository: :mod:`mtgsolve.solver` (situations,
rules, queries, the API), :mod:`mtgsolve.models` (the CP-SAT models) and
:mod:`mtgsolve.cli` (the ``mtgsolve`` command). Importing ``mtgsolve`` is light;
the engine loads on first use of an exported name.
"""
from __future__ import annotations

from typing import Any

__all__ = ["Situation", "solve", "answer", "__version__"]


def __getattr__(name: str) -> Any:
    """Lazy exports (PEP 562): ``Situation`` (the agents' API), ``solve`` (a file's queries),
    ``answer`` (one query dict against a loaded situation) and ``__version__`` (the installed
    distribution's; read on first use: ``importlib.metadata`` costs start-up time)."""
    if name == "__version__":
        from importlib import metadata

        try:
            version = metadata.version("mtgsolve")
        except metadata.PackageNotFoundError:  # pragma: no cover - running from a bare checkout
            version = "0+unknown"
        globals()["__version__"] = version  # read once
        return version
    if name == "Situation":
        from .solver.api import Situation
        return Situation
    if name == "solve":
        from .solver.api.runner import solve_file
        return solve_file
    if name == "answer":
        from .solver.queries import answer
        return answer
    raise AttributeError(f"module 'mtgsolve' has no attribute {name!r}")
