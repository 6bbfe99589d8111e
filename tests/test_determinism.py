"""Determinism (issue 9): every instance answered in two separate processes
gives byte-identical output."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted(str(p) for p in (ROOT / "instances").rglob("*.yaml"))


def _solve_all() -> str:
    res = subprocess.run([sys.executable, str(ROOT / "cli.py"), "solve", "--json", *FILES],
                         capture_output=True, text=True, cwd=ROOT, timeout=600,
                         env={"PYTHONHASHSEED": "random", "PATH": "/usr/bin:/bin"})
    assert res.returncode == 0, res.stderr[-2000:]
    return res.stdout


def test_all_instances_byte_identical_in_two_processes():
    first = _solve_all()
    second = _solve_all()
    assert first == second
    assert first.count("\n") == len(FILES)
