"""Start-up and batch throughput (issue 16 item 4): ``python -m benchmarks batch [--quick]``.

* start-up: ``mtgsolve solve`` on a one-query file as a whole process, against
  the bare ``python -c "from ortools.sat.python import cp_model"`` process
  (the floor: every solve needs CP-SAT), run alternately, median of N pairs;
* batch: N small generated files (two ``actions`` queries each) through
  :func:`solver.batch.batch` with ``jobs=1`` and ``jobs=2`` in this process,
  and through :func:`solver.batch.batch_ray` on a local 2-CPU Ray instance when
  Ray is installed (``pip install -e ".[ray]"``); files/s.

Wall-clock on the current machine; nothing is asserted.
"""
from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "instances" / "examples" / "flagbearer_shock.yaml"


def small_situation(i: int) -> dict:
    """A small situation whose answer depends on ``i``."""
    hand = ["Forest"] * (i % 3) + ["Mountain"] * (i % 2)
    return {"format": "mtgsolve/1", "name": f"case {i}", "players": ["alice", "bob"],
            "turn": {"number": 2, "active": "alice", "step": "main1", "lands_played": i % 2},
            "battlefield": {"alice": ["Forest"], "bob": ["Grizzly Bears"]},
            "hand": {"alice": hand},
            "query": [{"kind": "actions"}, {"kind": "actions", "player": "bob"}]}


def write_files(d: Path, n: int) -> None:
    d.mkdir(parents=True, exist_ok=True)
    for i in range(n):
        (d / f"s{i:05d}.yaml").write_text(yaml.safe_dump(small_situation(i), sort_keys=False))


def _wall(cmd: list[str]) -> float:
    # Bytecode caching on, as after a pip install (PYTHONDONTWRITEBYTECODE would recompile the project's
    # sources in every process, while the bare import reads site-packages' cached bytecode).
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    t = time.perf_counter()
    subprocess.run(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, env=env)
    return time.perf_counter() - t


def bench_startup(pairs: int) -> None:
    solve = [sys.executable, str(ROOT / "cli.py"), "solve", str(EXAMPLE)]
    bare = [sys.executable, "-c", "from ortools.sat.python import cp_model"]
    _wall(solve), _wall(bare)  # warm the file cache
    ratios, a, b = [], [], []
    for _ in range(pairs):
        ta, tb = _wall(solve), _wall(bare)
        a.append(ta), b.append(tb), ratios.append(ta / tb)
    print(f"start-up: mtgsolve solve (one query) {statistics.median(a) * 1000:.0f} ms, bare CP-SAT import "
          f"{statistics.median(b) * 1000:.0f} ms; ratio median {statistics.median(ratios):.2f} "
          f"(min {min(ratios):.2f}, max {max(ratios):.2f}; {pairs} pairs; target <= 1.2)")


def bench_batch(n: int) -> None:
    from mtgsolve.solver.batch import batch

    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp) / "in"
        write_files(d, n)
        for jobs in (1, 2):
            s = batch([d], Path(tmp) / f"out{jobs}.jsonl", jobs=jobs, progress=False)
            print(f"batch --jobs {jobs}: {n} small files in {s.seconds:.2f} s = {s.done / s.seconds:.0f} files/s "
                  f"(target with --jobs 2: >= 500)")
        try:
            import ray
        except ImportError:
            print("batch --backend ray: skipped (pip install -e '.[ray]')")
            return
        from mtgsolve.solver.batch import batch_ray

        t = time.perf_counter()
        ray.init(num_cpus=2, include_dashboard=False, logging_level="ERROR", log_to_driver=False)
        started = time.perf_counter() - t
        try:
            batch_ray([d], Path(tmp) / "warm.jsonl", progress=False)  # the Ray workers import the solver
            s = batch_ray([d], Path(tmp) / "ray.jsonl", progress=False)
        finally:
            ray.shutdown()
        print(f"batch --backend ray (local, 2 CPUs): {n} files in {s.seconds:.2f} s = {s.done / s.seconds:.0f} "
              f"files/s once warm (starting Ray: {started:.1f} s)")


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    quick = "--quick" in argv
    bench_startup(3 if quick else 9)
    bench_batch(500 if quick else 3000)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
