"""Benchmark of the ``resolve`` query (issue 7).

Run: ``.venv/bin/python -m benchmarks.bench_resolve [--quick]``.

1. Time per ``resolve`` on every seed situation of ``instances/resolve``
   (Cartouche of Strength and conjure rulings and the other resolution
   instances): the whole query (resolution, state-based actions, triggers,
   writing every outcome situation), median of repeated runs.
2. Conjure into a library (Toralf's Disciple's trigger: four Lightning Bolts,
   then shuffle) of 60 cards, and 250 / 1000 for scaling.
3. Many simultaneous triggers: k Hangarback Walkers with lethal damage die
   together after a Shock resolves; their controller orders k dies triggers
   (k! distinct stacks). The placement step alone is also timed against the
   brute-force reference (``tests/reference/resolution.py``) in the same run,
   with distinct and with interchangeable triggers.

Wall-clock figures on the current machine; nothing is asserted.
"""
from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))  # the brute-force references live under tests/reference

from mtgsolve.models.resolution import TriggerSpec, enumerate_placements  # noqa: E402
from mtgsolve.solver.queries import Options, answer  # noqa: E402
from mtgsolve.solver.io.load import load_situation, situation_from_dict  # noqa: E402


def _time(fn: Callable[[], object], repeat: int) -> float:
    """Median wall time of ``fn`` over ``repeat`` runs (one warm-up first), in seconds."""
    fn()
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def conjure_situation(library_size: int) -> dict:
    """Toralf's Disciple's attack trigger with a library of ``library_size`` cards."""
    names = ["Forest", "Mountain", "Grizzly Bears", "Lightning Bolt", "Shock"]
    lib = [names[i % len(names)] for i in range(library_size)]
    return {"format": "mtgsolve/1", "players": ["alice", "bob"],
            "turn": {"active": "alice", "step": "declare_attackers"},
            "battlefield": {"alice": ["Toralf's Disciple"]}, "library": {"alice": lib},
            "stack": [{"ability": {"source": "toralfs-disciple", "index": 1}}]}


def dying_walkers_situation(k: int) -> dict:
    """k Hangarback Walkers with lethal damage; a Shock at bob resolves, SBA kill them all."""
    walkers = [{"card": "Hangarback Walker", "id": f"walker-{i + 1}", "counters": {"+1/+1": 1}, "damage": 1}
               for i in range(k)]
    return {"format": "mtgsolve/1", "players": ["alice", "bob"], "battlefield": {"alice": walkers},
            "stack": [{"card": "Shock", "controller": "alice", "targets": [["bob"]]}]}


def main(argv: list[str] | None = None) -> int:
    from reference.resolution import distinct_stacks

    quick = "--quick" in (argv or [])
    repeat = 3 if quick else 15

    print("1. resolve on the seed situations (instances/resolve), median of", repeat, "runs")
    print(f"   {'instance':58s} {'outcomes':>8s} {'ms':>8s}")
    files = sorted((ROOT / "instances" / "resolve").glob("*.yaml"))
    per = []
    for f in files:
        loaded = load_situation(f)
        q = loaded.queries[0]
        res = answer(loaded.state, q)
        t = _time(lambda: answer(loaded.state, q), repeat)
        per.append(t)
        print(f"   {f.stem:58s} {res.get('count', '-')!s:>8s} {t * 1e3:8.2f}")
    print(f"   {len(files)} situations: median {statistics.median(per) * 1e3:.2f} ms, "
          f"max {max(per) * 1e3:.2f} ms, total {sum(per) * 1e3:.1f} ms")

    print("\n2. conjure four Lightning Bolts into a library, then shuffle (one outcome)")
    for n in ((60,) if quick else (60, 250, 1000)):
        state = situation_from_dict(conjure_situation(n)).state
        res = answer(state, {"kind": "resolve"})
        t = _time(lambda: answer(state, {"kind": "resolve"}), max(3, repeat // 3))
        print(f"   library {n:5d} cards: {t * 1e3:8.2f} ms  (outcomes {res['count']}, "
              f"library after {len(res['outcomes'][0]['situation']['library']['alice'])})")

    print("\n3. k simultaneous dies triggers (k! stacks): whole resolve, and the placement step vs brute force")
    print(f"   {'k':>2s} {'outcomes':>8s} {'resolve ms':>11s} | {'CP-SAT ms':>10s} {'brute ms':>10s} {'ratio':>7s}"
          f" | {'same-key CP-SAT ms':>18s} {'brute ms':>10s} {'stacks':>6s}")
    for k in ((2, 3, 4) if quick else (2, 3, 4, 5, 6)):
        state = situation_from_dict(dying_walkers_situation(k)).state
        res = answer(state, {"kind": "resolve"}, Options(max_results=10**9))
        t_res = _time(lambda: answer(state, {"kind": "resolve"}, Options(max_results=10**9)), max(1, repeat // 5))
        distinct = [TriggerSpec(f"w{i}", 1) for i in range(k)]
        same = [TriggerSpec("w", 2) for _ in range(k)]
        t_cp = _time(lambda: enumerate_placements(distinct), max(1, repeat // 3))
        t_bf = _time(lambda: distinct_stacks([s.key for s in distinct], [1] * k), max(1, repeat // 3))
        t_cp2 = _time(lambda: enumerate_placements(same), max(1, repeat // 3))
        t_bf2 = _time(lambda: distinct_stacks(["w"] * k, [2] * k), max(1, repeat // 3))
        n_same = len(enumerate_placements(same))
        print(f"   {k:2d} {res['count']:8d} {t_res * 1e3:11.1f} | {t_cp * 1e3:10.2f} {t_bf * 1e3:10.2f} "
              f"{t_cp / t_bf if t_bf else float('inf'):7.1f} | {t_cp2 * 1e3:18.2f} {t_bf2 * 1e3:10.2f} {n_same:6d}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
