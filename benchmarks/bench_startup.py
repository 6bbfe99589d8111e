"""Start-up (issue 16 item 4): ``python -m benchmarks startup [--quick]``.

``mtgsolve solve`` on a one-query file as a whole process, against the bare
``python -c "from ortools.sat.python import cp_model"`` process (the floor:
every solve needs CP-SAT), run alternately in this run, median of N pairs and
the ratio pair by pair. Two files: the README's example (cards of the
hand-written library) and one whose card is read from the Oracle database
(looked up through the database's index, written to the cache directory on
first use: the warm-up run writes it when it is missing).

Wall-clock on the current machine; nothing is asserted.
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


def _wall(cmd: list[str]) -> float:
    # Bytecode caching on, as after a pip install (PYTHONDONTWRITEBYTECODE would recompile the project's
    # sources in every process, while the bare import reads site-packages' cached bytecode).
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    t = time.perf_counter()
    subprocess.run(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, env=env)
    return time.perf_counter() - t


def bench_startup(pairs: int, what: str, path: Path) -> None:
    solve = [sys.executable, str(ROOT / "cli.py"), "solve", str(path)]
    _wall(solve), _wall(BARE)  # warm the file cache (and write the card index if missing)
    ratios, a, b = [], [], []
    for _ in range(pairs):
        ta, tb = _wall(solve), _wall(BARE)
        a.append(ta), b.append(tb), ratios.append(ta / tb)
    print(f"start-up, {what} ({path.name}): mtgsolve solve {statistics.median(a) * 1000:.0f} ms, bare CP-SAT "
          f"import {statistics.median(b) * 1000:.0f} ms; ratio median {statistics.median(ratios):.2f} "
          f"(min {min(ratios):.2f}, max {max(ratios):.2f}; {pairs} pairs; target <= 1.2)")


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    pairs = 3 if "--quick" in argv else 11
    for what, path in FILES:
        bench_startup(pairs, what, path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
