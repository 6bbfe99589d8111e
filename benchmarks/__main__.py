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


def parser() -> "argparse.ArgumentParser":
    import argparse

    p = argparse.ArgumentParser(
        prog="python -m benchmarks",
        description="Run the benchmarks (every benchmarks/bench_<name>.py, in name order, or only the named "
                    "ones) and print their tables. Figures are wall-clock on this machine; ratios are against "
                    "the brute-force references run in the same process.",
        epilog="Other options (starting with -) are passed to every benchmark's main(argv).")
    p.add_argument("names", nargs="*", metavar="NAME", help=f"benchmarks to run (default: all): "
                                                            f"{', '.join(available())}")
    p.add_argument("--quick", action="store_true", help="smaller boards and fewer repetitions")
    p.add_argument("--list", action="store_true", help="list the benchmarks and exit")
    return p


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    args, extra = parser().parse_known_args(argv)  # -h/--help prints the usage and exits: nothing runs
    if args.list:
        print("\n".join(available()))
        return 0
    flags = (["--quick"] if args.quick else [])
    stray = []
    for i, a in enumerate(extra):   # an option's value given as the next word (``--decks real-competitive``)
        if a.startswith("-"):
            flags.append(a)
        elif i and extra[i - 1].startswith("-") and "=" not in extra[i - 1] and a not in available():
            flags.append(a)
        else:
            stray.append(a)
    names = list(args.names) + stray or available()
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
