"""Benchmarks of the ``pay`` query (issue 4): ``python -m benchmarks.bench_pay [--quick]``.

1. ``payable`` on mixed boards of 50/100/200 permanents (basics, duals,
   any-color sources, Reflecting Pools, filter lands, Sol Rings, mana
   creatures some sick) for {3}{W}{U}{B}{R}{G} and {X}{G}{G}: median wall
   time of one decision, (a) model build + solve from the rules-level
   problem, (b) :func:`solver.queries.pay.is_payable` on a warm view
   (mana abilities already read, as the ``actions`` query uses it), (c) the
   same from a fresh view (reading every mana ability and CR 106.7 first).
2. Enumeration on boards of 10–40 permanents: distinct payments, payments per
   second, time per payment, a duplicate check, and the ratio against the
   brute-force reference (``tests/reference/pay_ref.py``) in the same run at
   the sizes it finishes within its time budget.
3. Process time of ``mtgsolve solve`` on a small file (start-up included).

Nothing here is asserted by the tests.
"""
from __future__ import annotations

import json
import os
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT / "tests") not in sys.path:
    sys.path.insert(0, str(ROOT / "tests"))

from benchmarks import readme  # noqa: E402
from benchmarks.gen_pay import enumeration_board, mixed_board  # noqa: E402
from mtgsolve.models import payment as pm  # noqa: E402
from mtgsolve.solver.rules.characteristics import View  # noqa: E402
from mtgsolve.solver.queries.pay import cost_of as total_cost  # noqa: E402
from mtgsolve.solver.queries import Options  # noqa: E402
from mtgsolve.solver.queries.pay import build_problem, is_payable, pay_view  # noqa: E402
from mtgsolve.solver.io.load import situation_from_dict  # noqa: E402


def _median(fn, reps: int) -> tuple[float, float, float]:
    """(median wall, median CPU of this process, minimum wall) in seconds.

    CPU time is reported too because wall time on a busy machine includes
    time the process spent descheduled."""
    ts, cs = [], []
    for _ in range(reps):
        t, c = time.perf_counter(), time.process_time()
        fn()
        ts.append(time.perf_counter() - t)
        cs.append(time.process_time() - c)
    return statistics.median(ts), statistics.median(cs), min(ts)


def _ms(triple: tuple[float, float, float]) -> str:
    w, c, m = triple
    return f"{w * 1e3:6.2f}/{c * 1e3:5.2f}/{m * 1e3:5.2f}"


def _state(doc: dict):
    return situation_from_dict(doc).state


def bench_payable(sizes, reps: int) -> list[tuple[float, float, float]]:
    """Print the table; return the (b) timings of the largest board, one per cost."""
    print("payable, ms as median wall / median CPU / min wall; a = decide(): model build + solve from the problem,\n"
          "b = is_payable on a warm view (as the actions query calls it), c = is_payable from a fresh view")
    print(f"{'perms':>5} {'cost':<22} {'payable':>7} {'a':>19} {'b':>19} {'c':>19}  classes abilities vars")
    warm: list[tuple[float, float, float]] = []
    for n in sizes:
        warm = []
        doc = mixed_board(n, seed=n)
        state = _state(doc)
        for cost, x in (("{3}{W}{U}{B}{R}{G}", 0), ("{X}{G}{G}", n // 5), ("{X}{G}{G}", n // 2)):
            spec = {"cost": cost, "x": x} if "X" in cost else {"cost": cost}
            view = View(state)
            tc = total_cost(view, "alice", spec)
            problem = build_problem(view, "alice", tc)
            res = pm.decide(problem)
            a = _median(lambda: pm.decide(problem), reps)
            b = _median(lambda: is_payable(view, "alice", spec), reps)
            warm.append(b)
            c = _median(lambda: is_payable(View(state), "alice", spec), max(3, reps // 4))
            nvars = len(pm.PaymentModel(problem, chain=not any(a.costed for a in problem.abilities)).m.proto.variables)
            label = cost + (f" X={x}" if "X" in cost else "")
            print(f"{n:>5} {label:<22} {str(res):>7} {_ms(a):>19} {_ms(b):>19} {_ms(c):>19}  "
                  f"{len(problem.classes):>7} {len(problem.abilities):>9} {nvars:>4}")
        # the largest payable X, one optimisation solve
        view = View(state)
        spec = {"cost": "{X}{G}{G}", "x": "any"}
        problem = build_problem(view, "alice", total_cost(view, "alice", spec))
        xm = pm.PaymentModel(problem, keys=False).max_x()
        tm = _median(lambda: pm.PaymentModel(problem, keys=False).max_x(), max(3, reps // 4))
        print(f"{n:>5} {'{X}{G}{G} x_max':<22} {xm!s:>7} {_ms(tm):>19}")
    return warm


class _Budget(Exception):
    pass


def _alarm(signum, frame):  # pragma: no cover - timing only
    raise _Budget()


def bench_enumeration(sizes, brute_sizes, brute_budget: float, cost: str) -> None:
    from reference.pay_ref import brute_pay

    print(f"\nenumeration of {cost} (distinct payments; rates and ratio on CPU time; "
          f"brute-force budget {brute_budget:.0f} s)")
    print(f"{'perms':>5} {'count':>7} {'wall s':>8} {'cpu s':>8} {'pay/s':>9} {'ms/pay':>8} {'dups':>5} {'brute s':>9} "
          f"{'ratio':>7} {'agree':>6}")
    gave_up = False
    for n in sizes:
        state = _state(enumeration_board(n, seed=n))
        q = {"kind": "pay", "cost": cost}
        view = View(state)
        pay_view(view, q)  # warm the view (mana abilities, CR 106.7)
        t, c0 = time.perf_counter(), time.process_time()
        res = pay_view(view, q, Options(max_results=1_000_000))
        dt, dc = time.perf_counter() - t, time.process_time() - c0
        keys = [json.dumps(p, sort_keys=True) for p in res["payments"]]
        dups = len(keys) - len(set(keys))
        cnt = res["count"]
        bt, ratio, agree = "-", "-", "-"
        if n in brute_sizes and not gave_up:
            old = signal.signal(signal.SIGALRM, _alarm)
            signal.setitimer(signal.ITIMER_REAL, brute_budget)
            try:
                t = time.process_time()
                ref = brute_pay(state, q, view)
                b = time.process_time() - t
                bt, ratio = f"{b:9.2f}", f"{b / max(dc, 1e-6):7.1f}"
                agree = "yes" if sorted(keys) == ref["payments"] else "NO"
            except _Budget:
                bt = f">{brute_budget:.0f}"
                gave_up = True   # larger boards won't finish either
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
                signal.signal(signal.SIGALRM, old)
        rate = cnt / dc if dc else float("inf")
        print(f"{n:>5} {cnt!s:>7} {dt:8.3f} {dc:8.3f} {rate:9.0f} {dc / max(cnt or 1, 1) * 1e3:8.2f} {dups:>5} {bt:>9} "
              f"{ratio:>7} {agree:>6}")


def payable_figure(sizes, reps: int) -> None:
    """The ``payable`` table and the README's line for its largest board."""
    since = readme.load()
    warm = bench_payable(sizes, reps)
    readme.line(f"`pay`: is it payable? {sizes[-1]} mixed permanents, 3 costs: "
                f"{min(c for _, c, _ in warm) * 1e3:.1f}–{max(c for _, c, _ in warm) * 1e3:.1f} ms CPU "
                f"({min(w for w, _, _ in warm) * 1e3:.1f}–{max(w for w, _, _ in warm) * 1e3:.1f} ms wall), "
                f"model build included", since)


def bench_cli(reps: int) -> None:
    exe = Path(sys.executable).parent / "mtgsolve"
    src = ROOT / "instances" / "pay" / "bears_two_forests.yaml"
    if not exe.exists():
        print("\nmtgsolve solve: the console script is not installed")
        return
    with tempfile.TemporaryDirectory() as d:
        f = Path(d) / "small.yaml"
        f.write_text(src.read_text())
        env = {**os.environ}
        ts, cs = [], []
        out = None
        for _ in range(reps):
            r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
            t = time.perf_counter()
            out = subprocess.run([str(exe), "solve", str(f), "--json"], capture_output=True, text=True, env=env)
            ts.append(time.perf_counter() - t)
            r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
            cs.append(r1.ru_utime + r1.ru_stime - r0.ru_utime - r0.ru_stime)
        ok = out is not None and out.returncode == 0
        print(f"\nmtgsolve solve --json on a small file (Grizzly Bears, two Forests): "
              f"median {statistics.median(ts) * 1e3:.0f} ms wall ({statistics.median(cs) * 1e3:.0f} ms CPU), "
              f"min {min(ts) * 1e3:.0f} ms over {reps} runs"
              f"{'' if ok else ' (FAILED: ' + (out.stderr.strip()[:200] if out else '') + ')'}")


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    quick = "--quick" in argv
    payable_figure((50, 100) if quick else (50, 100, 200), reps=5 if quick else 25)
    if quick:
        bench_enumeration((6, 10), (6,), 20.0, "{1}{W}{G}")
    else:
        bench_enumeration((6, 8, 10, 12, 14, 16, 20, 30, 40), (6, 8, 10, 12, 14, 16, 20), 120.0, "{1}{W}{G}")
        bench_enumeration((10, 20, 30, 40), (), 0.0, "{2}{U}{R}")
    bench_cli(3 if quick else 7)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
