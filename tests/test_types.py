"""mypy in CI: every module of ``solver/`` and ``models/`` type-checks with no error.

The configuration is ``[tool.mypy]`` in pyproject.toml; the modules are
checked under their package name ``mtgsolve.…`` (see the test body), all of
them — both directories are passed to mypy, so a new module is checked as soon
as it exists. Skipped when mypy is not installed; the cache lives in the
temporary directory so repeated runs take a few seconds.

The lower stages are held to ``mypy --strict`` too (issue 23): ``solver/core/``,
``models/`` and ``solver/engine/`` have no strict error (precise element types, no
untyped function); the other stages are checked with them but not yet held to it.
"""
from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CHECKED = ("solver", "models")
STRICT = ("solver/core", "models", "solver/engine")   # held to ``mypy --strict``


def _mypy(*flags: str, cache_name: str) -> subprocess.CompletedProcess[str]:
    """mypy with the project's configuration (and ``flags``) over every module of CHECKED."""
    # the package's modules are ``mtgsolve.solver.…`` with the repository root as ``mtgsolve``
    # (pyproject package-dir); mypy does not follow the editable install's import hook, so it
    # checks them through a directory in which ``mtgsolve`` is a link to the root
    base = Path(tempfile.mkdtemp(prefix="mtgsolve-mypy-"))
    (base / "mtgsolve").symlink_to(ROOT, target_is_directory=True)
    cache = Path(tempfile.gettempdir()) / cache_name
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"), *flags,
         "--cache-dir", str(cache), *(f"mtgsolve/{d}" for d in CHECKED)],
        cwd=base, capture_output=True, text=True, timeout=600)


def test_solver_and_models_type_check() -> None:
    pytest.importorskip("mypy")
    proc = _mypy(cache_name="mtgsolve-mypy-cache")
    errors = [line for line in proc.stdout.splitlines() if ": error:" in line]
    assert proc.returncode == 0 and not errors, (
        "mypy errors in solver/ or models/:\n"
        + "\n".join(errors or proc.stdout.splitlines()[-20:] + proc.stderr.splitlines()[-20:]))
    # every module was checked: mypy's count is the number of files under both directories
    modules = sum(1 for d in CHECKED for _ in (ROOT / d).rglob("*.py"))
    assert f"no issues found in {modules} source files" in proc.stdout, proc.stdout[-500:]


def test_core_models_and_engine_type_check_strictly() -> None:
    """``mypy --strict`` reports no error in ``solver/core/``, ``models/`` or ``solver/engine/``
    (errors elsewhere — stages not yet held to it — are not counted)."""
    pytest.importorskip("mypy")
    proc = _mypy("--strict", cache_name="mtgsolve-mypy-strict-cache")
    lines = proc.stdout.splitlines()
    assert any(line.startswith(("Found ", "Success: ")) for line in lines), (
        "mypy did not finish:\n" + "\n".join(lines[-20:] + proc.stderr.splitlines()[-20:]))
    prefixes = tuple(f"mtgsolve/{d}/" for d in STRICT)
    errors = [line for line in lines if ": error:" in line and line.startswith(prefixes)]
    assert not errors, f"mypy --strict errors in {', '.join(STRICT)}:\n" + "\n".join(errors)
