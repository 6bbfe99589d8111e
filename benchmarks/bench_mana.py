"""Benchmarks of ``could_produce`` and ``available_mana`` (issue 3):
``python -m benchmarks.bench_mana [--quick]``.

1. ``could_produce`` on generated boards of 50, 100 and 200 permanents (20%
   "could produce" sources on both sides: chains and cycles; Contamination
   and Mana Reflection): wall time per query including the rules view and the
   model build (median of cold runs: fresh view, ordering cache cleared), the
   fixed-point model alone (build + solve), and the brute-force iteration of
   ``tests/reference/mana_ref.py`` in the same run. Target: <= 50 ms at 200.
2. ``available_mana`` on 10–60 lands of mixed kinds: time, number of maximal
   bundles, status, and the ratio against the brute-force player of
   ``tests/reference/mana_ref.py`` (every sequence of activations), run in the
   same process under a time budget (``>budget`` when it doesn't finish).
3. The XMage stress board (5 each of Plains, Island, Swamp, Mountain, Forest,
   Wastes + 3 Cascading Cataracts): the default query (listing capped at
   10,000) and the full listing with its exact count.

Nothing here is asserted by the tests.
"""
from __future__ import annotations

import signal
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT / "tests") not in sys.path:
    sys.path.insert(0, str(ROOT / "tests"))

from benchmarks.generators import could_produce_board, mixed_lands_board, xmage_board  # noqa: E402
from mtgsolve.models import producible  # noqa: E402
from mtgsolve.models.available import maximal_bundles  # noqa: E402
from mtgsolve.models.ordering import solve_orderings  # noqa: E402
from reference.mana_ref import available_mana as ref_available, could_produce as ref_could_produce  # noqa: E402
from mtgsolve.solver.rules.characteristics import View  # noqa: E402
from mtgsolve.solver.core.mana import Mana  # noqa: E402
from mtgsolve.solver.rules.mana_sources import producible_problem  # noqa: E402
from mtgsolve.solver.queries import Options, answer  # noqa: E402
from mtgsolve.solver.queries.available_mana import available_problem  # noqa: E402
from mtgsolve.solver.io.load import situation_from_dict  # noqa: E402


class _Budget(Exception):
    pass


def _with_budget(fn, seconds: float):
    """Run ``fn()``; None if it takes longer than ``seconds`` (SIGALRM)."""
    def handler(signum, frame):
        raise _Budget()

    old = signal.signal(signal.SIGALRM, handler)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        return fn()
    except _Budget:
        return None
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def bench_could_produce(quick: bool) -> None:
    print("could_produce (CR 106.7): generated boards, 20% could-produce sources, Contamination + Mana Reflection")
    print(f"{'permanents':>10}{'query ms':>10}{'model ms':>10}{'ref ms':>9}{'ref/query':>10}  agree")
    repeats = 3 if quick else 7
    for n in (50, 100, 200):
        state = situation_from_dict(could_produce_board(n, seed=n)).state
        q = {"kind": "could_produce"}
        answer(state, q)  # warm imports
        times = []
        for _ in range(repeats):
            solve_orderings.cache_clear()
            t = time.perf_counter()
            res = answer(state, q)
            times.append(time.perf_counter() - t)
        tq = statistics.median(times)
        problem = producible_problem(View(state))
        mtimes = []
        for _ in range(repeats):
            t = time.perf_counter()
            producible.solve(problem)
            mtimes.append(time.perf_counter() - t)
        tm = statistics.median(mtimes)
        view = View(state)
        t = time.perf_counter()
        ref = ref_could_produce(view)
        tr = time.perf_counter() - t
        agree = {k: set(v) for k, v in res["could_produce"].items()} == ref
        print(f"{n:>10}{tq * 1e3:>10.1f}{tm * 1e3:>10.1f}{tr * 1e3:>9.1f}{tr / tq:>10.2f}  {agree}", flush=True)


def bench_available(quick: bool) -> None:
    budget = 10.0 if quick else 60.0
    sizes = [10, 20, 40, 60] if quick else [10, 20, 30, 40, 50, 60]
    seeds = (2,) if quick else (1, 2, 3)
    print(f"available_mana: mixed lands (8 kinds, few any-color/filter lands); reference budget {budget:.0f} s")
    print("  default query (listing capped at 10,000) | full listing (max_results 10^6, 30 s limit) | reference")
    print(f"{'lands':>6}{'seed':>5}{'ms':>9}{'listed':>8}{'status':>10}{'skel.':>6}"
          f"{'full s':>8}{'count':>9}{'ref s':>8}{'ref/model':>10}  agree")
    q = {"kind": "available_mana", "player": "alice"}
    for n in sizes:
        for seed in seeds:
            state = situation_from_dict(mixed_lands_board(n, seed=seed)).state
            solve_orderings.cache_clear()
            t = time.perf_counter()
            res = answer(state, q)
            tm = time.perf_counter() - t
            sk = maximal_bundles(available_problem(View(state), "alice")).skeletons
            t = time.perf_counter()
            full = answer(state, q, Options(max_results=10**6, timeout=30.0))
            tf = time.perf_counter() - t
            count = full["count"] if full["status"] == "ok" else full["status"]
            ref = None
            if res["status"] == "ok":
                t = time.perf_counter()
                ref = _with_budget(lambda: ref_available(state, "alice"), budget)
                tr = time.perf_counter() - t
            if ref is None:
                rs, ratio, agree = (f">{budget:.0f}" if res["status"] == "ok" else "-"), "-", "-"
            else:
                rs, ratio = f"{tr:.2f}", f"{tr / tm:.0f}"
                agree = str({Mana.parse(b) for b in res["bundles"]} == ref)
            print(f"{n:>6}{seed:>5}{tm * 1e3:>9.1f}{len(res['bundles']):>8}{res['status']:>10}{sk:>6}"
                  f"{tf:>8.2f}{count:>9}{rs:>8}{ratio:>10}  {agree}", flush=True)


def bench_xmage(quick: bool) -> None:
    print("available_mana: XMage stress board (30 basics/Wastes + 3 Cascading Cataracts)")
    state = situation_from_dict(xmage_board()).state
    q = {"kind": "available_mana"}
    for label, opts in (("default (max_results 10,000)", Options()),
                        ("full listing (max_results 10^6)", Options(max_results=10**6))):
        if quick and "full" in label:
            continue
        solve_orderings.cache_clear()
        t = time.perf_counter()
        res = answer(state, q, opts)
        dt = time.perf_counter() - t
        print(f"  {label:<34} {dt:7.2f} s  status {res['status']:<9} listed {len(res['bundles']):>7}  "
              f"count {res['count']}", flush=True)


def main(argv: list[str] | None = None) -> int:
    quick = "--quick" in (argv or [])
    bench_could_produce(quick)
    print()
    bench_available(quick)
    print()
    bench_xmage(quick)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
