"""Benchmarks of the ``attacks`` and ``blocks`` queries (issue 17).

Run: ``.venv/bin/python -m benchmarks.bench_combat`` (``--quick`` for a short
run, ``--sizes 2 4 8``).

Instances (generated, seeded): ``n`` creatures for Alice against ``n`` for
Bob, who also controls a planeswalker (so each attacker has two targets).

* ``plain``: vanilla creatures (Grizzly Bears, Hill Giant): independent
  choices, counted by a product;
* ``mixed``: flying, reach, menace (Boggart Brute), "can't attack/block
  alone" (Mogg Flunkies), "can block any number" (Palace Guard), Lure and
  "attacks each combat if able" (Bloodrock Cyclops): coupled choices, counted
  by the dynamic programme of models/combat.py;
* ``taxed`` (attacks only): the plain board plus Ghostly Prison for Bob and
  ``n`` Mountains for Alice (costs to attack, CR 508.1g: the dynamic
  programme with the cost bound {n}, found by binary search over ``pay``).

Columns: ``count`` (exact), ``query s`` (the query listing at most
``--list`` declarations: count + canonical listing), ``enum s`` (the whole
listing by CP-SAT, up to ``--full-max`` declarations), ``ref s`` (the
brute-force reference tests/reference/combat_ref.py, which tries every
combination, up to ``--ref-max`` combinations) and ``ref x`` = ref s / query s.
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from dataclasses import replace
from pathlib import Path

from benchmarks import readme

ROOT = Path(__file__).resolve().parent.parent
for p in (ROOT, ROOT / "tests"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

from mtgsolve.models.combat import enumerate_declarations  # noqa: E402
from mtgsolve.solver.rules.characteristics import View  # noqa: E402
from mtgsolve.solver.engine.combat import attack_problem, block_problem  # noqa: E402
from mtgsolve.solver.queries import Options, answer  # noqa: E402
from mtgsolve.solver.io.load import situation_from_dict  # noqa: E402
from tests.reference.combat_ref import attack_reference, block_reference  # noqa: E402

PLAIN_A = ["Grizzly Bears", "Hill Giant"]
PLAIN_B = ["Hill Giant", "Grizzly Bears"]
MIXED_A = ["Serra Angel", "Boggart Brute", "Mogg Flunkies", "Bloodrock Cyclops", "Grizzly Bears", "Hill Giant"]
MIXED_B = ["Giant Spider", "Palace Guard", "Mogg Flunkies", "Grizzly Bears", "Hill Giant", "Serra Angel"]
JACE = {"card": "Jace, the Mind Sculptor", "counters": {"loyalty": 3}}


def board(kind: str, n: int, seed: int, attacking: bool) -> dict:
    rng = random.Random(seed)
    a_pool, b_pool = (MIXED_A, MIXED_B) if kind == "mixed" else (PLAIN_A, PLAIN_B)
    mine = [rng.choice(a_pool) for _ in range(n)]
    theirs = [rng.choice(b_pool) for _ in range(n)]
    alice: list = []
    for name in mine:
        o: dict = {"card": name}
        if attacking:
            o.update(attacking=rng.choice(["bob", "jace-the-mind-sculptor"]), tapped=True)
        alice.append(o)
    if kind == "taxed":
        alice += ["Mountain"] * n
        theirs.append("Ghostly Prison")
    if kind == "mixed" and attacking:
        alice.append({"card": "Lure", "attached_to": "grizzly-bears" if "Grizzly Bears" in mine else None})
        if alice[-1]["attached_to"] is None:
            alice.pop()
    return {"format": "mtgsolve/1", "players": ["alice", "bob"],
            "turn": {"number": 5, "active": "alice", "step": "declare_blockers" if attacking else "declare_attackers"},
            "battlefield": {"alice": alice, "bob": theirs + [JACE]}}


def _mountains(state):
    untapped = sum(1 for o in state.battlefield if o.card.name == "Mountain" and not o.tapped)
    return lambda amount, attackers: amount <= untapped


def timed(fn):
    t = time.perf_counter()
    r = fn()
    return r, time.perf_counter() - t


def row(kind: str, what: str, n: int, args) -> tuple[int | None, float, bool]:
    """Print one row; (exact count, query seconds, whether the brute-force reference ran: it equals the count)."""
    state = situation_from_dict(board(kind, n, 1000 + n, what == "blocks")).state
    res, qs = timed(lambda: answer(state, {"kind": what}, Options(max_results=args.list)))
    count = res["count"]
    view = View(state)
    problem = attack_problem(view, "alice") if what == "attacks" else block_problem(view, "bob")
    if kind == "taxed":  # n untapped Mountains: {n} is the most Alice can pay
        problem = replace(problem, max_cost=n)
    enum_s = "-"
    if count is not None and count <= args.full_max:
        ans, es = timed(lambda: enumerate_declarations(problem))
        assert ans.count == count
        enum_s = f"{es:.3f}"
    ref_s = ref_x = "-"
    combos = 1
    for it in problem.items:
        combos *= (len(it.options) + 1) if it.cap == 1 else 2 ** len(it.options)
    if combos <= args.ref_max:
        ref, rs = timed(lambda: attack_reference(state, "alice", _mountains(state)) if what == "attacks"
                        else block_reference(state, "bob"))
        assert len(ref) == count, (len(ref), count)
        ref_s, ref_x = f"{rs:.3f}", f"{rs / qs:.1f}"
    print(f"{kind:6} {what:8} {n:3} {count:>14} {qs:9.3f} {enum_s:>8} {ref_s:>8} {ref_x:>7}", flush=True)
    return count, qs, ref_s != "-"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.bench_combat")
    p.add_argument("--quick", action="store_true")
    p.add_argument("--sizes", type=int, nargs="*")
    p.add_argument("--list", type=int, default=1000, help="declarations listed by the query (max_results)")
    p.add_argument("--full-max", type=int, default=100_000)
    p.add_argument("--ref-max", type=int, default=200_000)
    args = p.parse_args(argv or [])
    sizes = args.sizes or ([2, 4, 6] if args.quick else [2, 4, 6, 8, 12, 16])
    since = readme.load()
    print(f"{'board':6} {'query':8} {'n':>3} {'count':>14} {'query s':>9} {'enum s':>8} {'ref s':>8} {'ref x':>7}")
    rows = [(n, *row(kind, what, n, args)) for kind in ("plain", "mixed", "taxed")
            for what in (("attacks",) if kind == "taxed" else ("attacks", "blocks")) for n in sizes]
    top = [(c or 0, q) for n, c, q, _ in rows if n == max(sizes)]
    checked = sum(ref for *_, ref in rows)
    most = max(c for c, _ in top)
    readme.line(f"`attacks`/`blocks`, {max(sizes)} creatures a side (plain, mixed, taxed; up to "
                f"{f'{most:,}' if most < 10 ** 6 else f'{most:.1e}'} declarations): counted in ≤ {max(q for _, q in top) * 1e3:.0f} ms "
                f"(first {args.list:,} listed); equal to brute force in the {checked} of {len(rows)} cases "
                f"where it finishes", since)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
