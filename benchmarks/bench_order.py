"""Benchmarks of the ``order`` query (issue 6): ``python -m benchmarks.bench_order [--quick]``.

Time to decide the distinct results (``results ms``: the CP-SAT sequence
model, one representative order each) and per ``order`` query listing every
order (``query ms``), medians of a few cold runs (the ordering-model cache is
cleared before each; the situation is loaded once), for a Forest tapped with
2–8 replacement effects — all identical (Mana Reflections: one class, one
sequence for the model, 8! orders to list) and mixed (Reflection, Nyxbloom
Ancient, Contamination, Pale Moon) — and for counters with Doubling Seasons
and Hardened Scales; with the number of distinct results and orders, and the
ratio against the brute-force walk of ``tests/reference/ordering_ref.py``
in the same process. Nothing here is asserted by the tests.
"""
from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT / "tests") not in sys.path:
    sys.path.insert(0, str(ROOT / "tests"))

from mtgsolve.models.ordering import solve_orderings  # noqa: E402
from reference.ordering_ref import counter_orders, mana_orders  # noqa: E402
from mtgsolve.solver.rules.characteristics import View  # noqa: E402
from mtgsolve.solver.core.mana import Mana  # noqa: E402
from mtgsolve.solver.queries import Options, answer  # noqa: E402
from mtgsolve.solver.rules.replacement import counter_event, mana_event  # noqa: E402
from mtgsolve.solver.io.load import situation_from_dict  # noqa: E402

MIXED = ["Mana Reflection", "Contamination", "Nyxbloom Ancient", "Mana Reflection", "Contamination",
         "Mana Reflection", "Nyxbloom Ancient", "Mana Reflection"]


def _median(fn, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        solve_orderings.cache_clear()
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def _mana_case(effects: list[str], pale_moon: bool, repeats: int) -> tuple:
    d = {"format": "mtgsolve/1", "players": ["alice", "bob"],
         "battlefield": {"alice": ["Tundra" if pale_moon else "Forest"] + effects}}
    if pale_moon:
        d["effects"] = [{"card": "Pale Moon", "controller": "bob"}]
    state = situation_from_dict(d).state
    obj = "tundra" if pale_moon else "forest"
    q = {"kind": "order", "event": {"kind": "tap_for_mana", "object": obj, "index": 1}}
    opts = Options(max_results=10**6)
    res = answer(state, q, opts)
    t_model = _median(lambda: answer(state, q, opts), repeats)
    view = View(state)
    produced = Mana.parse("{W}" if pale_moon else "{G}")
    t_results = _median(lambda: mana_event(view, obj, "alice", produced, max_orders=1, share=False), repeats)
    t = time.perf_counter()
    ref = mana_orders(view, obj, "alice", produced)
    t_ref = time.perf_counter() - t
    n_orders = sum(len(o["orders"]) for o in res["outcomes"])
    assert n_orders == sum(len(v) for v in ref.values()), "model and reference disagree"
    return res["count"], n_orders, t_results, t_model, t_ref


def _counter_case(seasons: int, scales: int, repeats: int) -> tuple:
    d = {"format": "mtgsolve/1", "players": ["alice", "bob"],
         "battlefield": {"alice": ["Doubling Season"] * seasons + ["Hardened Scales"] * scales},
         "stack": [{"card": "Hangarback Walker", "x": 2, "controller": "alice"}]}
    state = situation_from_dict(d).state
    q = {"kind": "order", "event": {"kind": "enter", "object": "hangarback-walker"}}
    opts = Options(max_results=10**6)
    res = answer(state, q, opts)
    t_model = _median(lambda: answer(state, q, opts), repeats)
    view = View(state)
    t_results = _median(lambda: counter_event(view, "hangarback-walker", entering=True, x=2, max_orders=1), repeats)
    t = time.perf_counter()
    ref = counter_orders(View(state), "hangarback-walker", entering=True, x=2)
    t_ref = time.perf_counter() - t
    assert res["count"] == len(ref)
    return res["count"], sum(len(o["orders"]) for o in res["outcomes"]), t_results, t_model, t_ref


def main(argv: list[str] | None = None) -> int:
    quick = "--quick" in (argv or [])
    repeats = 1 if quick else 3
    sizes = [2, 4, 8] if quick else [2, 3, 4, 5, 6, 7, 8]
    print("order: a Forest tapped for mana (wall time per query, cold model cache)")
    header = f"{'effects':<34}{'results':>8}{'orders':>9}{'results ms':>11}{'query ms':>10}{'ref ms':>9}{'ref/query':>10}"
    print(header)
    rows = []
    for k in sizes:
        rows.append((f"{k} identical Mana Reflections", ["Mana Reflection"] * k, False))
    for k in sizes:
        rows.append((f"{k} mixed", MIXED[:k], False))
    for k in sizes:
        if k >= 3:
            rows.append((f"{k} mixed on Tundra + Pale Moon", MIXED[:k - 1], True))
    for label, effects, pale in rows:
        n_res, n_ord, tres, tm, tr = _mana_case(effects, pale, repeats)
        print(f"{label:<34}{n_res:>8}{n_ord:>9}{tres * 1e3:>11.1f}{tm * 1e3:>10.1f}{tr * 1e3:>9.1f}{tr / tm:>10.2f}",
              flush=True)
    print()
    print("order: Hangarback Walker (X=2) entering with Doubling Seasons and Hardened Scales")
    print(header)
    for seasons, scales in ([(1, 1), (2, 2), (4, 4)] if quick else [(1, 1), (2, 1), (2, 2), (3, 3), (4, 4)]):
        n_res, n_ord, tres, tm, tr = _counter_case(seasons, scales, repeats)
        label = f"{seasons} Season + {scales} Scales"
        print(f"{label:<34}{n_res:>8}{n_ord:>9}{tres * 1e3:>11.1f}{tm * 1e3:>10.1f}{tr * 1e3:>9.1f}{tr / tm:>10.2f}",
              flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
