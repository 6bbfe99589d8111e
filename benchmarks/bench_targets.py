"""Benchmarks of the ``targets`` query (issue 5).

Run: ``.venv/bin/python -m benchmarks.bench_targets`` (``--quick`` for a
short run, ``--sizes 50 100``, ``--enumerate N`` choices listed per case).

Instances (generated, seeded): two players; Alice casts a spell while Bob's
side and hers hold ``n`` objects on the battlefield - creatures, lands,
artifacts - and, "with Flagbearers", Bob also controls two Coalition Honor
Guards, a Standard Bearer and Enroll in the Coalition (so every choice is
constrained by CR 601.2c). Spells with one, two and three target slots:

* 1 slot: Shock ("any target");
* 2 slots: Arc Trail ("any target and another target");
* 3 slots: Cone of Flame ("any target, another target, and a third target"),
  built in the IR here (it is not in the card library).

Columns:

* ``count``: the exact number of legal choices;
* ``count s``: time to count them without listing (``target_choice_count``:
  rules view + dynamic programming), the entry point ``actions`` uses;
* ``ref s``: the brute-force reference (``tests/reference/targets_ref.py``,
  which lists every combination) on the same situation, up to ``--ref-max``
  choices; ``count x`` = ref s / count s;
* ``cpsat cnt/s``: CP-SAT enumeration rate when only counting (no decoding),
  over at most ``--enumerate`` solutions;
* ``enum/s``: the ``targets`` query's listing rate (CP-SAT + decoding +
  sorting), listing at most ``--enumerate`` choices (``max_results``);
* ``full s``: the whole query listing every choice, up to ``--full-max``
  choices; ``full x`` = ref s / full s (above 1: CP-SAT is faster).
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for p in (ROOT, ROOT / "tests"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

from benchmarks import readme  # noqa: E402
from mtgsolve.models.targets import cpsat_count  # noqa: E402
from mtgsolve.solver.core import ir  # noqa: E402
from mtgsolve.solver.cards import Card, CardData  # noqa: E402
from mtgsolve.solver.rules.characteristics import View  # noqa: E402
from mtgsolve.solver.queries import Options, answer  # noqa: E402
from mtgsolve.solver.io.load import situation_from_dict  # noqa: E402
from mtgsolve.solver.core.state import GameState  # noqa: E402
from mtgsolve.solver.rules.targeting import cast_source, target_choice_count, targeting_problem  # noqa: E402

CREATURES = ("Grizzly Bears", "Llanowar Elves", "Silvercoat Lion", "Balduvian Bears", "Birds of Paradise",
             "White Knight", "Raging Goblin")
OTHERS = ("Forest", "Mountain", "Sol Ring", "Plains")
FLAGBEARERS = {"bob": ["Coalition Honor Guard", "Coalition Honor Guard", "Standard Bearer", "Enroll in the Coalition"]}

CONE_OF_FLAME = Card(
    CardData.from_mtgjson({"name": "Cone of Flame", "manaCost": "{3}{R}{R}", "type": "Sorcery",
                           "types": ["Sorcery"]}),
    (), ir.SpellBehaviour((ir.TargetSpec(ir.ANY_TARGET), ir.TargetSpec(ir.ANY_TARGET, distinct_from=(0,)),
                           ir.TargetSpec(ir.ANY_TARGET, distinct_from=(0, 1))), ()), "library")
SPELLS = {1: "Shock", 2: "Arc Trail", 3: "Cone of Flame"}


def make_state(n: int, flagbearers: bool, slots: int, seed: int = 7) -> GameState:
    """``n`` objects on the battlefield (split between the two players), plus
    the Flagbearers when asked; Alice holds the spell with ``slots`` slots."""
    rng = random.Random(seed * 1000 + n)
    bf: dict[str, list] = {"alice": [], "bob": []}
    extra = sum(len(v) for v in FLAGBEARERS.values()) if flagbearers else 0
    for i in range(n - extra):
        pool = CREATURES if rng.random() < 0.6 else OTHERS
        bf["alice" if i % 2 else "bob"].append(rng.choice(pool))
    if flagbearers:
        for p, names in FLAGBEARERS.items():
            bf[p].extend(names)
    hand_card = "Shock" if slots == 3 else SPELLS[slots]
    state = situation_from_dict({"format": "mtgsolve/1", "players": ["alice", "bob"], "battlefield": bf,
                                 "hand": {"alice": [{"card": hand_card, "id": "spell"}]}}).state
    if slots == 3:
        state = state.replace_objects([o.with_(card=CONE_OF_FLAME) if o.id == "spell" else o for o in state.objects])
    return state


CLOCK = time.perf_counter  # --cpu: time.process_time (robust on a loaded machine)


def _time(fn, repeat: int = 1):
    best = float("inf")
    out = None
    for _ in range(repeat):
        t = CLOCK()
        out = fn()
        best = min(best, CLOCK() - t)
    return best, out


def run(sizes: list[int], enumerate_n: int, full_max: int, ref_max: int, out=print) -> list[dict]:
    rows = []
    out(f"{'slots':>5} {'objs':>5} {'flag':>4} {'count':>10} {'count s':>8} {'ref s':>8} {'count x':>8} "
        f"{'cpsat cnt/s':>11} {'enum/s':>8} {'full s':>8} {'full x':>7}")
    for slots in (1, 2, 3):
        for n in sizes:
            for flag in (False, True):
                state = make_state(n, flag, slots)
                query = {"kind": "targets", "cast": "spell"}
                t_count, count = _time(lambda: target_choice_count(View(state), cast_source(View(state), "spell")),
                                       repeat=3)
                view = View(state)
                problem = targeting_problem(view, cast_source(view, "spell"))
                limit = min(enumerate_n, count)
                # CP-SAT counting rate (no decoding), on at most `limit` solutions
                t0 = CLOCK()
                capped = cpsat_count(problem, limit=limit)
                t_cpsat = CLOCK() - t0
                t_enum, res = _time(lambda: answer(state, query, Options(max_results=limit)))
                listed = len(res["choices"])
                assert res["count"] == count, (res["count"], count)
                row = {"slots": slots, "objects": n, "flagbearers": flag, "count": count, "count_s": t_count,
                       "cpsat_count_rate": capped / t_cpsat if t_cpsat else None,
                       "enum_rate": listed / t_enum if t_enum else None, "full_s": None, "ref_s": None}
                ref = None
                if count <= ref_max:
                    from reference.targets_ref import reference_targets

                    row["ref_s"], ref = _time(lambda: reference_targets(state, query))
                    assert ref["count"] == count
                if count <= full_max:
                    row["full_s"], full = _time(lambda: answer(state, query, Options(max_results=10 ** 9)))
                    assert ref is None or ref["choices"] == full["choices"]
                rows.append(row)
                out(f"{slots:>5} {n:>5} {'yes' if flag else 'no':>4} {count:>10} {t_count:>8.4f} "
                    f"{_fmt(row['ref_s'], 8, 3)} {_ratio(row['ref_s'], t_count, 8)} "
                    f"{row['cpsat_count_rate'] or 0:>11.0f} {row['enum_rate'] or 0:>8.0f} "
                    f"{_fmt(row['full_s'], 8, 3)} {_ratio(row['ref_s'], row['full_s'], 7)}")
    return rows


def _fmt(v: float | None, width: int, digits: int) -> str:
    return f"{v:>{width}.{digits}f}" if v is not None else f"{'-':>{width}}"


def _ratio(a: float | None, b: float | None, width: int) -> str:
    return f"{a / b:>{width}.1f}" if a is not None and b else f"{'-':>{width}}"


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", type=int, nargs="*", default=[50, 100, 200])
    ap.add_argument("--enumerate", type=int, default=20_000, help="choices listed per case for the rates")
    ap.add_argument("--full-max", type=int, default=50_000, help="list every choice (CP-SAT) up to this count")
    ap.add_argument("--ref-max", type=int, default=250_000, help="run the brute-force reference up to this count")
    ap.add_argument("--quick", action="store_true", help="sizes 50 100, 5,000 choices, full listing up to 10,000")
    ap.add_argument("--cpu", action="store_true", help="report process CPU time instead of wall time")
    a = ap.parse_args(argv)
    global CLOCK
    if a.cpu:
        CLOCK = time.process_time
    if a.quick:
        a.sizes, a.enumerate, a.full_max, a.ref_max = [50, 100], 5_000, 10_000, 30_000
    print(f"clock: {'process CPU' if a.cpu else 'wall'} time; sizes {a.sizes}; listing up to {a.enumerate} "
          f"choices for the rates; full listing up to {a.full_max}, reference up to {a.ref_max} choices")
    since = readme.load()
    readme_figure(run(a.sizes, a.enumerate, a.full_max, a.ref_max), since)


def readme_figure(rows: list[dict], since: str) -> None:
    """The README's line: counting alone over the boards of 100 objects or more (all boards if none)."""
    big = [r for r in rows if r["objects"] >= 100] or rows
    sizes = sorted({r["objects"] for r in big})
    refs = [r["ref_s"] for r in big if r["ref_s"] is not None]
    readme.line(f"`targets`: count over {sizes[0]}–{sizes[-1]} objects, 1–3 slots: "
                f"{min(r['count_s'] for r in big) * 1e3:.1f}–{max(r['count_s'] for r in big) * 1e3:.1f} ms "
                f"({'wall' if CLOCK is time.perf_counter else 'CPU'}; brute force: up to "
                f"{max(refs, default=0.0):.3g} s)", since)


if __name__ == "__main__":
    main()
