"""Batch throughput (issue 16 item 4): ``python -m benchmarks batch [--quick]``.

N small generated files (two ``actions`` queries each) through
:func:`solver.apps.batch.batch` with ``jobs=1`` and ``jobs=2`` in this process, and
through :func:`solver.apps.batch.batch_ray` on a local 2-CPU Ray instance when Ray
is installed (``pip install -e ".[ray]"``); files/s. (Start-up, a whole
``mtgsolve solve`` process against the bare CP-SAT import:
``python -m benchmarks startup``.)

A realistic mix as well: the seeded mid-game boards of the real decklists
(:func:`benchmarks.realdecks.generate_boards`, ``benchmarks/decks/``; actions,
targets, pay, available_mana, could_produce and resolve queries on 20–60
object boards), written as files and run the same way, with ``--timeout 10`` as
``python -m benchmarks realdecks`` (``--boards=N``: how many; default 200, 40 with
``--quick``).

Wall-clock on the current machine; nothing is asserted. The load average is
printed with each line (``/proc/loadavg``).
"""
from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent


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


def _load() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "?"


def bench_batch_realdecks(n: int, seed: int = 20261130, timeout: float = 10.0) -> dict[int, float]:
    """The real-deck boards as files, through :func:`batch` with ``jobs`` 1 and 2 (a timeout of
    ``timeout`` s per file, so both go through warm worker processes); files/s by ``jobs``."""
    from benchmarks.realdecks import generate_boards
    from mtgsolve.solver.apps.batch import batch

    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp) / "boards"
        d.mkdir()
        for i, board in enumerate(generate_boards(n, seed)):
            (d / f"b{i:04d}.yaml").write_text(yaml.safe_dump(board, sort_keys=False))
        queries = sum(len(b.get("query", [])) for b in map(yaml.safe_load, (f.read_text() for f in d.iterdir())))
        rates = {}
        for jobs in (1, 2):
            before = _load()
            s = batch([d], Path(tmp) / f"real{jobs}.jsonl", jobs=jobs, timeout=timeout, progress=False)
            print(f"batch --jobs {jobs} --timeout {timeout:g}: {n} real-deck boards ({queries} queries, seed {seed}) "
                  f"in {s.seconds:.2f} s = {s.done / s.seconds:.1f} files/s, {s.timeouts} with timeouts, "
                  f"{s.failed} failed; load {before} -> {_load()}")
            rates[jobs] = s.done / s.seconds
    return rates


def bench_batch(n: int) -> dict[int, float]:
    """``n`` small land-only files through :func:`batch` with ``jobs`` 1 and 2 (and Ray when installed);
    files/s by ``jobs``."""
    from mtgsolve.solver.apps.batch import batch

    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp) / "in"
        write_files(d, n)
        rates = {}
        for jobs in (1, 2):
            before = _load()
            s = batch([d], Path(tmp) / f"out{jobs}.jsonl", jobs=jobs, progress=False)
            rates[jobs] = s.done / s.seconds
            print(f"batch --jobs {jobs}: {n} small files in {s.seconds:.2f} s = {s.done / s.seconds:.0f} files/s "
                  f"(target with --jobs 2: >= 500); load {before} -> {_load()}")
        try:
            import ray
        except ImportError:
            print("batch --backend ray: skipped (pip install -e '.[ray]')")
            return rates
        from mtgsolve.solver.apps.batch import batch_ray

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
    return rates


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    quick = "--quick" in argv
    boards = next((int(a.split("=", 1)[1]) for a in argv if a.startswith("--boards=")), 40 if quick else 200)
    since = _load()
    small = bench_batch(500 if quick else 3000)
    real = bench_batch_realdecks(boards)
    readme_figure(boards, real, 500 if quick else 3000, small, since)
    return 0


def readme_figure(boards: int, real: dict[int, float], files: int, small: dict[int, float], since: str) -> None:
    """The README's batch line: files/s with ``--jobs`` 1 and 2, real-deck boards and small files."""
    from benchmarks import readme

    readme.line(f"batch, {boards} real-deck boards; {files:,} small land-only files: {real[1]:.0f} files/s (--jobs 1), "
                f"{real[2]:.0f} (--jobs 2); {small[1]:,.0f}, {small[2]:,.0f}", since)


if __name__ == "__main__":
    raise SystemExit(main())
