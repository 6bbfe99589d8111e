"""Start-up (issue 16 item 4): ``python -m benchmarks startup [--quick]``.

``mtgsolve solve`` on a one-query file as a whole process, against the bare
``python -c "from ortools.sat.python import cp_model"`` process (the floor:
every solve needs CP-SAT), run alternately in this run, median of N pairs and
the ratio pair by pair. Two files: the README's example (cards of the
hand-written library) and one whose card is read from the Oracle database
(looked up through the database's index, written to the cache directory on
first use: the warm-up run writes it when it is missing).

Also the floor without the interpreter's tear-down (``… cp_model; os._exit(0)``:
``mtgsolve solve`` skips it, the bare import pays it), and where start-up goes
by import (``python -X importtime``, the first file's whole ``mtgsolve solve``):
OR-Tools' ``cp_model`` with what it imports (pandas, numpy, the C++ helper), and
the project's own modules. ``--imports`` prints only that breakdown.

Wall-clock on the current machine; nothing is asserted. The load average is
printed with each run (``/proc/loadavg``).
"""
from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FILES = (("library cards", ROOT / "instances" / "examples" / "flagbearer_shock.yaml"),
         ("an Oracle-read card", ROOT / "instances" / "actions" / "loyalty_liliana_vess.yaml"))
BARE = [sys.executable, "-c", "from ortools.sat.python import cp_model"]
BARE_NO_TEARDOWN = [sys.executable, "-c", "import os; from ortools.sat.python import cp_model; os._exit(0)"]


def _wall(cmd: list[str]) -> float:
    # Bytecode caching on, as after a pip install (PYTHONDONTWRITEBYTECODE would recompile the project's
    # sources in every process, while the bare import reads site-packages' cached bytecode).
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    t = time.perf_counter()
    subprocess.run(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, env=env)
    return time.perf_counter() - t


def load() -> str:
    """The load averages (1, 5, 15 minutes), or '?' where /proc/loadavg is missing."""
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "?"


def bench_startup(pairs: int, what: str, path: Path) -> tuple[float, float]:
    """Print the line for one file; (median ratio to the bare import, median ratio to it without tear-down)."""
    solve = [sys.executable, str(ROOT / "cli.py"), "solve", str(path)]
    _wall(solve), _wall(BARE), _wall(BARE_NO_TEARDOWN)  # warm the file cache (and write the card index)
    ratios, floor_ratios, a, b, c = [], [], [], [], []
    before = load()
    for _ in range(pairs):
        ta, tb, tc = _wall(solve), _wall(BARE), _wall(BARE_NO_TEARDOWN)
        a.append(ta), b.append(tb), c.append(tc), ratios.append(ta / tb), floor_ratios.append(ta / tc)
    print(f"start-up, {what} ({path.name}): mtgsolve solve {statistics.median(a) * 1000:.0f} ms, bare CP-SAT "
          f"import {statistics.median(b) * 1000:.0f} ms; ratio median {statistics.median(ratios):.2f} "
          f"(min {min(ratios):.2f}, max {max(ratios):.2f}; {pairs} pairs; target <= 1.2); against the bare import "
          f"without tear-down ({statistics.median(c) * 1000:.0f} ms) {statistics.median(floor_ratios):.2f}; "
          f"load {before} -> {load()}")
    return statistics.median(ratios), statistics.median(floor_ratios)


def import_costs(path: Path = FILES[0][1]) -> dict[str, float]:
    """Milliseconds by import in one ``mtgsolve solve`` process (``-X importtime``, cumulative):
    ``cp_model`` (OR-Tools' CP-SAT API, all it imports included), its ``pandas``, ``numpy`` and
    C++ helper, ``mtgsolve`` (the project's own modules, with yaml and pydantic they import),
    and ``all`` (every top-level import)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    proc = subprocess.run([sys.executable, "-X", "importtime", str(ROOT / "cli.py"), "solve", str(path)], cwd=ROOT,
                          capture_output=True, text=True, env=env, check=False)
    costs = {"all": 0.0, "cp_model": 0.0, "pandas": 0.0, "numpy": 0.0, "cp_model_helper": 0.0, "mtgsolve": 0.0}
    for line in proc.stderr.splitlines():
        if not line.startswith("import time:") or "|" not in line:
            continue
        _, cumulative, name = line.split("|", 2)
        if not cumulative.strip().isdigit():
            continue
        ms = int(cumulative) / 1000
        top = not name.startswith("  ")   # one space after the bar: a top-level import
        bare = name.strip()
        if top:
            costs["all"] += ms
            if bare.startswith("mtgsolve"):
                costs["mtgsolve"] += ms
        if bare == "ortools.sat.python.cp_model":
            costs["cp_model"] = ms
        elif bare in ("pandas", "numpy") and costs[bare] == 0.0:
            costs[bare] = ms
        elif bare == "ortools.sat.python.cp_model_helper":
            costs["cp_model_helper"] = ms
    return costs


def print_import_costs() -> None:
    c = import_costs()
    print(f"start-up by import (python -X importtime cli.py solve {FILES[0][1].name}; load {load()}): "
          f"all imports {c['all']:.0f} ms; ortools.sat.python.cp_model {c['cp_model']:.0f} ms, of which pandas "
          f"{c['pandas']:.0f} ms, numpy {c['numpy']:.0f} ms, cp_model_helper (C++) {c['cp_model_helper']:.0f} ms; "
          f"the project's modules (mtgsolve.*, with yaml and pydantic) {c['mtgsolve']:.0f} ms")


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    pairs = 3 if "--quick" in argv else 11
    print_import_costs()
    if "--imports" in argv:
        return 0
    since = load()
    ratios = [bench_startup(pairs, what, path) for what, path in FILES]
    readme_figure(ratios[0], since)
    return 0


def readme_figure(ratios: tuple[float, float], since: str) -> None:
    """The README's start-up line, for the README's example file."""
    from benchmarks import readme

    readme.line(f"`mtgsolve solve` on a small file: {ratios[0]:.2f}× the bare "
                f"`python -c \"from ortools.sat.python import cp_model\"` process ({ratios[1]:.2f}× without its "
                f"tear-down)", since)


if __name__ == "__main__":
    raise SystemExit(main())
