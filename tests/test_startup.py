"""Start-up of ``mtgsolve solve FILE`` (issue 16 item 4): what the fast path does to the process
(timings are in ``python -m benchmarks startup``, never asserted)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PROBE = """
import gc, sys
sys.argv = ["mtgsolve", "solve", {path!r}, "--json"]
from mtgsolve import cli
seen = {{}}
warm = cli._warm
def probe(loaded):
    seen["before"] = gc.isenabled()
    warm(loaded)
    seen["after"] = (gc.isenabled(), gc.get_freeze_count() > 0, "ortools.sat.python.cp_model" in sys.modules)
cli._warm = probe
leave = cli._leave
cli._leave = lambda code: (print("PROBE", seen, code, file=sys.stderr), leave(code))
cli.main()
"""


def _probe(path: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", PROBE.format(path=path)], capture_output=True, text=True,
                          cwd=ROOT, timeout=300)


def test_the_collector_is_off_during_start_up_only():
    cp = _probe("instances/examples/flagbearer_shock.yaml")
    assert cp.returncode == 0, cp.stderr[-2000:]
    assert "PROBE {'before': False, 'after': (True, True, True)} 0" in cp.stderr
    assert cp.stdout.count("\n") == 1 and '"status": "ok"' in cp.stdout  # printed, then the process ended


def test_bad_input_still_exits_2_with_one_line():
    cp = _probe("no-such-file.yaml")
    assert cp.returncode == 2 and cp.stdout == ""
    assert cp.stderr.splitlines()[0] == "no-such-file.yaml: cannot read the file: no such file"
