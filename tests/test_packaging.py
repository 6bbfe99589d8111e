"""The installed package claims one name, ``mtgsolve`` (issue 19: no generic top-level modules).

pyproject maps the repository root to the package ``mtgsolve`` (``package-dir``), so the
wheel holds ``mtgsolve/…`` and its dist-info only; ``solver``, ``models`` and ``cli`` are
``mtgsolve.solver``, ``mtgsolve.models`` and ``mtgsolve.cli``.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from importlib import metadata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _run(code: str, cwd: Path) -> str:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    return subprocess.run([sys.executable, "-c", code], cwd=cwd, env=env, capture_output=True, text=True,
                          check=True, timeout=120).stdout.strip()


def test_only_mtgsolve_is_importable_outside_the_checkout(tmp_path: Path) -> None:
    out = _run("import importlib.util as u, mtgsolve\n"
               "print([n for n in ('solver', 'models', 'cli', 'benchmarks', 'tests') if u.find_spec(n)])\n"
               "print(mtgsolve.Situation.__module__, mtgsolve.__version__)", tmp_path)
    generic, api = out.splitlines()
    assert generic == "[]"
    assert api == f"mtgsolve.solver.api.situation {metadata.version('mtgsolve')}"


def test_version_flag_prints_the_distribution_version(tmp_path: Path) -> None:
    out = _run("import sys; sys.argv = ['mtgsolve', '--version']\n"
               "from mtgsolve.cli import main\n"
               "try:\n    main()\nexcept SystemExit:\n    pass", tmp_path)
    assert out == f"mtgsolve {metadata.version('mtgsolve')}"


def test_the_wheel_holds_one_top_level_package(tmp_path: Path) -> None:
    """Builds the wheel from a copy of the sources (pip, build isolation: needs the package index)."""
    if os.environ.get("MTGSOLVE_OFFLINE"):
        pytest.skip("MTGSOLVE_OFFLINE set: no package index to fetch the build backend from")
    src = tmp_path / "src"
    ignore = shutil.ignore_patterns(".*", "__pycache__", "*.egg-info", "build", "dist", "differential-failures")
    shutil.copytree(ROOT, src, ignore=ignore)
    proc = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(tmp_path / "w"),
                           str(src)], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    (wheel,) = (tmp_path / "w").glob("mtgsolve-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    tops = {n.split("/", 1)[0] for n in names}
    assert tops == {"mtgsolve", f"mtgsolve-{metadata.version('mtgsolve')}.dist-info"}, tops
    assert "mtgsolve/solver/data/oracle-cards.json.gz" in names and "mtgsolve/cli.py" in names
    assert not any(n.startswith(("mtgsolve/tests/", "mtgsolve/benchmarks/")) for n in names)
    entry = zipfile.ZipFile(wheel).read(f"mtgsolve-{metadata.version('mtgsolve')}.dist-info/entry_points.txt")
    assert b"mtgsolve = mtgsolve.cli:main" in entry
