"""Peak memory on the largest benchmark boards (issue 9, "memory bounded").

``python -m benchmarks memory [--quick]``

Each job answers one query on one board in a *fresh* Python process and
reports that process's peak resident set size (``ru_maxrss``), so jobs do not
inherit each other's heap. The first job only imports the solver: it is the
floor every other figure includes. The boards are the biggest ones the other
benchmarks use, plus pathological ones near the input limits (thousands of
objects, 20,000 being ``MTGSOLVE_MAX_OBJECTS``). Nothing is asserted: the
figures go in the README ("Guarantees").
"""
from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Each job: (label, python source that builds `doc` and `opts`). The child runs
# the query through the same path as `mtgsolve solve` (situation_from_dict +
# queries.answer) and prints a JSON line with its peak RSS.
_PRELUDE = """
import json, resource, sys, time
sys.path.insert(0, {root!r})
from mtgsolve.solver.io.load import situation_from_dict
from mtgsolve.solver.queries import Options, answer
"""

_RUN = """
t = time.perf_counter()
if doc is not None:
    st = situation_from_dict(doc).state
    res = answer(st, doc["query"], opts)
    status, count = res.get("status"), res.get("count", res.get("payable"))
else:
    status, count = "-", "-"
print(json.dumps({"status": status, "count": count, "seconds": round(time.perf_counter() - t, 2),
                  "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""

JOBS: list[tuple[str, str]] = [
    ("imports only (the floor)", "doc = None; opts = None"),
    ("could_produce, 200 permanents (chains, cycles, Contamination, Reflection)",
     "from benchmarks.generators import could_produce_board\n"
     "doc = could_produce_board(200); opts = Options()"),
    ("available_mana, XMage board, full exact list (194,337 bundles)",
     "from benchmarks.generators import xmage_board\n"
     "doc = xmage_board(); opts = Options(max_results=1_000_000)"),
    ("available_mana, 40 mixed lands, to the 10,000-bundle cap",
     "from benchmarks.generators import mixed_lands_board\n"
     "doc = mixed_lands_board(40, seed=1); opts = Options(max_results=10_000)"),
    ("pay, 200 mixed permanents, {3}{W}{U}{B}{R}{G}, every payment up to 10,000",
     "from benchmarks.gen_pay import mixed_board\n"
     "doc = mixed_board(200); doc['query'] = {'kind': 'pay', 'cost': '{3}{W}{U}{B}{R}{G}'}\n"
     "opts = Options(max_results=10_000)"),
    ("targets, Arc Trail over 200 objects (Flagbearers), listing capped at 10,000",
     "from benchmarks.bench_targets import make_state\n"
     "from solver.io.load import dump_state\n"
     "doc = dump_state(make_state(200, True, 2)); doc['query'] = {'kind': 'targets', 'cast': 'spell'}\n"
     "opts = Options(max_results=10_000)"),
    ("actions, 40 lands + 7 spells, exact counts",
     "from benchmarks.bench_actions import board_40\n"
     "doc = board_40(); doc['query'] = {'kind': 'actions'}; opts = Options()"),
    ("pathological: 5,000 Forests + 5,000 Llanowar Elves, available_mana capped",
     "doc = {'format': 'mtgsolve/1', 'players': ['alice'],\n"
     "       'battlefield': {'alice': ['Forest'] * 5000 + ['Llanowar Elves'] * 5000},\n"
     "       'query': {'kind': 'available_mana'}}\n"
     "opts = Options(max_results=10_000)"),
    ("pathological: 20,000 objects (the limit), could_produce",
     "import itertools\n"
     "names = ['Forest', 'Island', 'Exotic Orchard', 'Reflecting Pool', 'Grizzly Bears', 'Sol Ring']\n"
     "doc = {'format': 'mtgsolve/1', 'players': ['alice', 'bob'],\n"
     "       'battlefield': {'alice': [names[i % 6] for i in range(10000)],\n"
     "                       'bob': [names[(i + 3) % 6] for i in range(10000)]},\n"
     "       'query': {'kind': 'could_produce'}}\n"
     "opts = Options()"),
    ("pathological: 2,000 creatures, Arc Trail's targets, listing capped at 1,000",
     "doc = {'format': 'mtgsolve/1', 'players': ['alice', 'bob'],\n"
     "       'battlefield': {'alice': ['Grizzly Bears'] * 1000, 'bob': ['Llanowar Elves'] * 1000},\n"
     "       'hand': {'alice': [{'card': 'Arc Trail', 'id': 'spell'}]},\n"
     "       'query': {'kind': 'targets', 'cast': 'spell'}}\n"
     "opts = Options(max_results=1_000)"),
]

QUICK = {0, 1, 3, 6}


def run_job(source: str, timeout: float = 900.0) -> dict:
    code = _PRELUDE.format(root=str(ROOT)) + source + "\n" + _RUN
    t = time.perf_counter()
    try:
        cp = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout,
                            cwd=str(ROOT))
    except subprocess.TimeoutExpired:
        return {"error": f"no answer in {timeout:.0f} s"}
    if cp.returncode != 0:
        tail = (cp.stderr.strip().splitlines() or ["?"])[-1]
        return {"error": tail}
    out = json.loads(cp.stdout.strip().splitlines()[-1])
    out["wall"] = round(time.perf_counter() - t, 2)
    return out


def main(argv: list[str] | None = None) -> int:
    quick = "--quick" in (argv or [])
    print(f"{'peak RSS':>10}  {'query s':>8}  {'status':>9}  {'count':>9}  board")
    for i, (label, src) in enumerate(JOBS):
        if quick and i not in QUICK:
            continue
        r = run_job(src)
        if "error" in r:
            print(f"{'-':>10}  {'-':>8}  {'error':>9}  {'':>9}  {label}: {r['error']}", flush=True)
            continue
        print(f"{r['peak_mb']:>7.0f} MB  {r['seconds']:>8.2f}  {str(r['status']):>9}  {str(r['count']):>9}  {label}",
              flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
