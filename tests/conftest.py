"""Shared pytest configuration.

Differential tests — hypothesis tests in modules that compare the CP-SAT
answers with an independent brute-force reference (``tests/reference``) — get
the ``differential`` marker automatically, so one command runs them all at any
scale (README, "Guarantees")::

    MTGSOLVE_EXAMPLES=20000 pytest -m differential --hypothesis-seed=1

``MTGSOLVE_EXAMPLES`` sets the examples per test; ``--hypothesis-seed`` makes
the run reproducible (without it, ``CI=true`` derandomizes). On a mismatch
hypothesis prints the shrunk falsifying situation and how to reproduce it.
"""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # tests import the benchmark generators (benchmarks/)
    sys.path.insert(0, str(ROOT))


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "differential: CP-SAT answers compared with a brute-force reference")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        fn = getattr(item, "obj", None)
        mod = getattr(item, "module", None)
        if fn is None or mod is None or not hasattr(fn, "hypothesis"):
            continue
        uses_reference = any(getattr(v, "__module__", "").startswith("reference.") for v in vars(mod).values())
        if uses_reference:
            item.add_marker(pytest.mark.differential)
