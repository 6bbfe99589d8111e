"""Run every benchmark: ``python -m benchmarks [NAME…] [--quick]``.

Each ``benchmarks/bench_<name>.py`` module exposes ``main(argv)``; this runs
them in name order (or only the named ones) in one process and prints their
tables. Figures are wall-clock on the current machine; ratios are against the
brute-force references run in the same process. Nothing here is asserted by
the tests (timings are never test assertions).
"""
from __future__ import annotations

import importlib
import pkgutil
import sys
import time
from pathlib import Path


def available() -> list[str]:
    here = Path(__file__).resolve().parent
    return sorted(m.name[len("bench_"):] for m in pkgutil.iter_modules([str(here)]) if m.name.startswith("bench_"))


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    flags = [a for a in argv if a.startswith("-")]
    names = [a for a in argv if not a.startswith("-")] or available()
    unknown = [n for n in names if n not in available()]
    if unknown:
        print(f"unknown benchmark(s): {', '.join(unknown)}; available: {', '.join(available())}", file=sys.stderr)
        return 2
    for n in names:
        mod = importlib.import_module(f"benchmarks.bench_{n}")
        print(f"## {n}", flush=True)
        t = time.perf_counter()
        rc = mod.main(flags) if hasattr(mod, "main") else 0
        print(f"({n}: {time.perf_counter() - t:.1f} s)\n", flush=True)
        if rc:
            return rc
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
