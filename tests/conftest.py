"""Shared pytest configuration.

Differential tests — hypothesis tests in modules that compare the CP-SAT
answers with an independent brute-force reference (``tests/reference``) — get
the ``differential`` marker automatically, so one command runs them all at any
scale (README, "Guarantees")::

    MTGSOLVE_EXAMPLES=20000 pytest -m differential --hypothesis-seed=1

``MTGSOLVE_EXAMPLES`` sets the examples per test. The test command (``pytest``)
is the same run every time: pyproject's ``addopts`` passes ``--hypothesis-seed=0``
(hypothesis then draws every property test's examples from that seed; tests that
also say ``derandomize`` draw from their own name). Another ``--hypothesis-seed``
on the command line replaces it, to explore new examples. On a mismatch
hypothesis prints the shrunk falsifying example and how to reproduce it, and
this file writes the last situation the failing test loaded — hypothesis runs
the shrunk example last — as a situation file under
``differential-failures/`` (path printed in the failure report), ready for
``mtgsolve solve``.
"""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # tests import the benchmark generators (benchmarks/)
    sys.path.insert(0, str(ROOT))

# Record the last situation document loaded, before any module imports the loader by
# name (conftest is imported first), so a failing differential test can save it.
import mtgsolve.solver.io.load as _situation  # noqa: E402

_LAST: dict[str, Any] = {}
_load = _situation.situation_from_dict


def _recording_situation_from_dict(d: Any, *args: Any, **kw: Any):
    _LAST["doc"] = d
    return _load(d, *args, **kw)


_recording_situation_from_dict.__doc__ = _load.__doc__
_situation.situation_from_dict = _recording_situation_from_dict
FAILURES = ROOT / "differential-failures"


def pytest_runtest_setup(item: pytest.Item) -> None:
    _LAST.clear()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    outcome = yield
    rep = outcome.get_result()
    if rep.when != "call" or not rep.failed or item.get_closest_marker("differential") is None:
        return
    doc = _LAST.get("doc")
    if not isinstance(doc, dict):
        return
    FAILURES.mkdir(exist_ok=True)
    name = "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in item.nodeid)
    path = FAILURES / f"{name}.yaml"
    try:
        text = yaml.safe_dump(doc, sort_keys=False, allow_unicode=True)
    except yaml.YAMLError:
        return
    path.write_text(text, encoding="utf-8")
    rep.sections.append(("minimal failing situation", f"written to {path}"))


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
