"""Counting without listing, deciding without enumerating (issue 16):
``python -m benchmarks.bench_counting [--quick] [--no-plot]``.

1. The 40-land board of the issue (32 basics, three Reflecting Pools, three
   Adarkar Wastes, two Exotic Orchards) with seven spells in hand, Hangarback
   Walker (``{X}{X}``) among them: the full ``actions`` answer with exact
   counts, the action mask, and ``pay`` counts for Hangarback Walker with
   X = 1..20 — each from a fresh state and with the counting DP's cache
   cleared (cold), medians of several runs.
2. A Commander board with Cascading Cataracts, Vivid lands, Exotic Orchard
   and Plaza of Heroes: ``pay`` for Cultivate (the default answer, whose
   listing stops at 10,000 with the exact count, and the whole listing's
   rate).
3. ``is_legal`` of a fully specified Arc Trail among 320 creatures.
4. Listing rate: payments per second listed by the counting DP (``pay`` with
   a large ``max_results``) and, for comparison, by the CP-SAT enumeration.
5. The brute-force reference on a small board in the same run (ratio).
   Then ``available_mana`` on 20/30/40 mixed lands and the XMage board: the
   exact count of maximal bundles by arithmetic (``models.available_count``;
   ``max_results`` 1, and the default answer listing 10,000) against counting
   by enumeration (every bundle listed, ``max_results`` 10^6).
6. phase.rs's ``actions()`` on the same 40-land board when ``phase-python``
   (optional extra ``bench``) is installed and can be given card data
   offline; otherwise the reason it was skipped is printed.
7. A plot of time against board size (``docs/counting.png``) when matplotlib
   (optional extra ``bench``) is importable and ``--no-plot`` is not given.

The figures the README quotes are printed as ``README:`` lines
(:mod:`benchmarks.readme`) after item 5.

Targets from the issue (2-core machine): full answer within 4× phase.rs's
``actions()``; the mask within 0.5×; Hangarback counts under 50 ms each;
Cataracts ``pay`` under 0.5 s; Arc Trail ``is_legal`` under 5 ms; listing
≥ 20,000 payments/s. Nothing here is asserted by the tests.
"""
from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for p in (ROOT, ROOT / "tests"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

from mtgsolve.solver.api import Situation  # noqa: E402
from mtgsolve.solver.rules.characteristics import View  # noqa: E402
from mtgsolve.solver.queries import Options, answer  # noqa: E402
from mtgsolve.solver.payment import answers as pay_mod  # noqa: E402  (the rules layer: counter cache, counts)
from mtgsolve.solver.queries import pay as pay_specs  # noqa: E402  (cost specs read as pay queries)
from mtgsolve.solver.io.load import situation_from_dict  # noqa: E402
from mtgsolve.solver.core.memo import BoundedCache  # noqa: E402
from benchmarks import readme  # noqa: E402

BASICS_32 = ["Forest"] * 8 + ["Plains"] * 6 + ["Island"] * 6 + ["Swamp"] * 6 + ["Mountain"] * 6
LANDS_40 = BASICS_32 + ["Reflecting Pool"] * 3 + ["Adarkar Wastes"] * 3 + ["Exotic Orchard"] * 2
SPELLS_7 = ["Shock", "Lightning Bolt", "Arc Trail", "Murder", "Giant Growth", "Kitchen Finks", "Hangarback Walker"]


def board_40(lands: list[str] | None = None) -> dict:
    """Alice's main phase, a land already played: the issue's 40 lands and seven spells;
    Bob has creatures to target and lands for the Orchards."""
    return {
        "format": "mtgsolve/1", "name": "40 lands, 7 spells", "players": ["alice", "bob"],
        "turn": {"number": 5, "active": "alice", "step": "main1", "lands_played": 1},
        "battlefield": {"alice": list(LANDS_40 if lands is None else lands),
                        "bob": ["Grizzly Bears", "White Knight", "Balduvian Bears", "Island", "Swamp"]},
        "hand": {"alice": [{"card": c, "id": c.lower().replace(" ", "-")} for c in SPELLS_7]},
    }


def cataracts_board() -> dict:
    """A Commander-style board: basics, Cascading Cataracts, three Vivid lands, Exotic Orchard,
    Plaza of Heroes; Cultivate in hand."""
    vivid = [{"card": n, "counters": {"charge": 2}} for n in ("Vivid Crag", "Vivid Grove", "Vivid Marsh")]
    return {
        "format": "mtgsolve/1", "name": "Cataracts", "players": [{"id": "alice", "life": 40}, {"id": "bob", "life": 40}],
        "turn": {"number": 6, "active": "alice", "step": "main1", "lands_played": 1},
        "battlefield": {"alice": ["Forest", "Forest", "Island", "Swamp", "Cascading Cataracts", *vivid,
                                  "Exotic Orchard", "Plaza of Heroes"],
                        "bob": ["Forest", "Island"]},
        "hand": {"alice": [{"card": "Cultivate", "id": "cultivate"}]},
    }


def arc_trail_board(n: int = 320) -> dict:
    return {
        "format": "mtgsolve/1", "name": "Arc Trail among creatures", "players": ["alice", "bob"],
        "turn": {"number": 5, "active": "alice", "step": "main1", "lands_played": 1},
        "battlefield": {"alice": ["Mountain", "Mountain", "Forest"],
                        "bob": [{"card": "Grizzly Bears", "id": f"bear-{i}"} for i in range(n)]},
        "hand": {"alice": [{"card": "Arc Trail", "id": "arc-trail"}]},
    }


def _cold() -> None:
    """Forget the counting DPs built so far (each measurement starts cold)."""
    pay_mod._COUNTERS = BoundedCache(pay_mod._COUNTERS.size)   # a fresh cache of the same size


def _median(fn, reps: int) -> tuple[float, object]:
    ws, out = [], None
    for _ in range(reps):
        _cold()
        t = time.perf_counter()
        out = fn()
        ws.append(time.perf_counter() - t)
    return statistics.median(ws), out


def _state(doc: dict):
    return situation_from_dict(doc).state


# ---------------------------------------------------------------------------
# phase.rs (optional)
# ---------------------------------------------------------------------------

def phase_actions_ms(reps: int) -> tuple[float | None, str]:
    """phase.rs's ``actions()`` on the 40-land board (median ms), or (None, why not)."""
    try:
        import phase  # noqa: F401
    except ImportError:
        return None, "phase-python is not installed (pip install -e .[bench])"
    try:
        from benchmarks import phase_adapter

        ms, n = phase_adapter.actions_ms(LANDS_40, SPELLS_7, reps)
    except Exception as e:  # pragma: no cover - depends on the optional package's version
        return None, f"phase-python could not set up the board: {type(e).__name__}: {e}"
    return ms, f"{n} actions listed"


# ---------------------------------------------------------------------------
# The measurements
# ---------------------------------------------------------------------------

def bench_board_40(reps: int, phase_ms: float | None) -> dict:
    state = _state(board_40())
    answer(state, {"kind": "actions"})  # warm imports and card caches
    w_full, res = _median(lambda: answer(state, {"kind": "actions"}), reps)   # a fresh rules view per call
    print(f"40 lands (32 basics, 3 Reflecting Pool, 3 Adarkar Wastes, 2 Exotic Orchard) + 7 spells: "
          f"{res['status']}, {res['count']} legal actions")
    for a in res["actions"]:
        print(f"    {a.get('kind')} {a.get('object', '')}: targets {a.get('targets', '-')}, "
              f"payments {a.get('payments', '-')}")
    w_mask, _ = _median(lambda: Situation(state).legal_actions_mask(), reps)
    ratio = (lambda w: f"  = x{w * 1e3 / phase_ms:.2f} phase.rs") if phase_ms else (lambda w: "")
    print(f"  full actions answer, exact counts (cold): median {w_full * 1e3:8.2f} ms{ratio(w_full)}  "
          f"[target: within 4x phase.rs]")
    print(f"  action mask (cold):                       median {w_mask * 1e3:8.2f} ms{ratio(w_mask)}  "
          f"[target: within 0.5x phase.rs]")
    # Hangarback Walker, X = 1..20: pay counts (fresh view, cold DP)
    times, counts = [], []
    for x in range(1, 21):
        w, n = _median(lambda: pay_specs.count_payments(View(state), "alice", {"cast": "hangarback-walker", "x": x}),
                       max(1, reps // 2))
        times.append(w)
        counts.append(n)
    print("  pay counts, Hangarback Walker X=1..20: " + ", ".join(f"X={x}: {n}" for x, n in zip(range(1, 21), counts)))
    print(f"    per count: median {statistics.median(times) * 1e3:.2f} ms, max {max(times) * 1e3:.2f} ms "
          f"[target: < 50 ms each]")
    w_any, n_any = _median(lambda: pay_specs.count_payments(View(state), "alice",
                                                          {"cast": "hangarback-walker", "x": "any"}), reps)
    print(f"    x: any (every X at once): {n_any} payments counted in {w_any * 1e3:.2f} ms")
    return {"full": w_full, "mask": w_mask, "hb_max": max(times), "phase": phase_ms, "hb_total": n_any}


def bench_cataracts(budget: float, reps: int) -> dict:
    state = _state(cataracts_board())
    view = View(state)
    from mtgsolve.models.payment_count import unsupported
    from mtgsolve.solver.queries.pay import cost_of as total_cost

    problem = pay_mod.build_problem(view, "alice", total_cost(view, "alice", {"cast": "cultivate"}))
    why = unsupported(problem)
    answer(state, {"kind": "pay", "cast": "cultivate"}, Options(max_results=1))   # warm card caches
    w, res = _median(lambda: answer(state, {"kind": "pay", "cast": "cultivate"}, Options(timeout=budget)), reps)
    print(f"Cataracts Commander board (basics, Cascading Cataracts, 3 Vivid lands, Exotic Orchard, Plaza of Heroes), "
          f"pay for Cultivate:")
    print(f"  counting DP: {'applies' if why is None else 'does not apply: ' + why}")
    print(f"  the pay answer (default max_results 10,000): median {w:.3f} s, status {res['status']}, "
          f"exact count {res.get('count')}, {len(res.get('payments', []))} listed [target: < 0.5 s]")
    _cold()
    t = time.perf_counter()
    full = answer(state, {"kind": "pay", "cast": "cultivate"}, Options(max_results=10**7, timeout=budget))
    wf = time.perf_counter() - t
    n = len(full.get("payments", []))
    print(f"  every payment listed: {n:,} in {wf:.2f} s = {n / wf:,.0f} payments/s (status {full['status']})")
    return {"cataracts": w, "cataracts_status": res["status"], "cataracts_count": res.get("count"),
            "cataracts_rate": n / wf}


def bench_arc_trail(reps: int) -> dict:
    state = _state(arc_trail_board())
    legal = {"kind": "cast", "object": "arc-trail", "targets": [["bear-17"], ["bear-203"]],
             "payment": {"tap": ["mountain", "mountain-2"], "untap": [], "sacrifice": [], "life": 0, "damage": 0,
                         "x": 0, "pool_after": {}}}
    illegal = dict(legal, targets=[["bear-17"], ["bear-17"]])
    Situation(state).is_legal(legal)
    w_cold, v = _median(lambda: Situation(state).is_legal(legal), reps)
    warm = Situation(state)
    warm.is_legal(legal)
    w_warm, _ = _median(lambda: warm.is_legal(legal), reps)
    w_bad, vb = _median(lambda: Situation(state).is_legal(illegal), max(1, reps // 2))
    t = time.perf_counter()
    n = answer(state, {"kind": "targets", "cast": "arc-trail"}, Options(max_results=1))["count"]
    w_count = time.perf_counter() - t
    print(f"Arc Trail among 320 creatures ({n:,} target choices, counted in {w_count * 1e3:.1f} ms):")
    print(f"  is_legal, fully specified, fresh situation: median {w_cold * 1e3:7.2f} ms ({'legal' if v else 'illegal'})"
          f"  [target: < 5 ms]")
    print(f"  is_legal, same situation again (warm):     median {w_warm * 1e3:7.2f} ms")
    print(f"  is_legal, illegal targets (with reason):   median {w_bad * 1e3:7.2f} ms: {vb.reason[:90]}…")
    return {"arc": w_cold, "arc_warm": w_warm, "arc_count": n}


def bench_listing(quick: bool) -> dict:
    state = _state(board_40())
    x = 3 if quick else 4
    t = time.perf_counter()
    res = answer(state, {"kind": "pay", "cast": "hangarback-walker", "x": x}, Options(max_results=10**7))
    w = time.perf_counter() - t
    n = len(res["payments"])
    print(f"Listing, pay for Hangarback Walker X={x} on the 40-land board: {n:,} payments in {w:.2f} s = "
          f"{n / w:,.0f} payments/s (counting DP walk + decoding + sorting) [target: >= 20,000/s]")
    # the CP-SAT enumeration on the same problem, capped, for comparison
    from mtgsolve.models import payment as pm
    from mtgsolve.solver.queries.pay import cost_of as total_cost

    view = View(state)
    problem = pay_mod.build_problem(view, "alice", total_cost(view, "alice", {"cast": "hangarback-walker", "x": 2}))
    t = time.perf_counter()
    r = pm.PaymentModel(problem).enumerate(None, time.monotonic() + 30)
    w2 = time.perf_counter() - t
    print(f"  for comparison, CP-SAT enumeration (X=2): {len(r.keys):,} payments in {w2:.2f} s = "
          f"{len(r.keys) / w2:,.0f} payments/s")
    return {"listing": n / w}


def bench_reference() -> None:
    from reference.pay_ref import brute_pay

    doc = board_40(["Forest", "Forest", "Plains", "Island", "Reflecting Pool", "Adarkar Wastes", "Exotic Orchard"])
    doc["query"] = {"kind": "pay", "cost": "{2}{W}"}
    loaded = situation_from_dict(doc)
    _cold()
    t = time.perf_counter()
    got = answer(loaded.state, loaded.queries[0])
    w = time.perf_counter() - t
    t = time.perf_counter()
    ref = brute_pay(loaded.state, loaded.queries[0])
    wr = time.perf_counter() - t
    print(f"Brute-force reference, 7 lands, {{2}}{{W}}: {ref['count']} payments in {wr * 1e3:.1f} ms; "
          f"pay query {got['count']} in {w * 1e3:.1f} ms (x{wr / w:.0f} faster), equal: {got['count'] == ref['count']}")


def bench_available_count(quick: bool) -> dict:
    """``available_mana`` counts (issue 16): by arithmetic vs by enumeration."""
    from benchmarks.generators import mixed_lands_board, xmage_board

    print("available_mana, exact count of maximal bundles: arithmetic (max_results 1 / default 10,000) "
          "vs enumeration (max_results 10^6)")
    boards = [(f"{n} mixed lands, seed {seed}", mixed_lands_board(n, seed=seed))
              for n in (20, 30, 40) for seed in ((3,) if quick else (1, 2, 3))]
    boards.append(("XMage board (30 basics/Wastes, 3 Cataracts)", xmage_board()))
    q = {"kind": "available_mana", "player": "alice"}
    figs: dict = {}
    for label, doc in boards:
        state = _state(doc)
        w1, one = _median(lambda: answer(state, q, Options(max_results=1)), 3)
        wd, dflt = _median(lambda: answer(state, q), 3)
        t = time.perf_counter()
        full = answer(state, q, Options(max_results=10**6, timeout=120.0))
        we = time.perf_counter() - t
        same = full["status"] == "ok" and one["count"] == dflt["count"] == full["count"]
        n = f"{one['count']:>8,}" if one["count"] is not None else "    null"
        print(f"  {label:<44} count {n} in {w1 * 1e3:7.1f} ms (default answer {wd * 1e3:6.0f} ms, "
              f"{dflt['status']}); enumeration {we:6.2f} s ({full['status']}) = x{we / w1:,.0f}; equal: {same}",
              flush=True)
        if label.startswith("40 ") and one["count"] is not None and one["count"] >= figs.get("am_count", -1):
            figs.update(am_count=one["count"], am_s=w1, am_enum_s=we)
    return figs


def plot(sizes: list[int], out: Path) -> None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("(matplotlib not installed: no plot; pip install -e .[bench])")
        return
    full, mask, hb = [], [], []
    cycle = LANDS_40
    for n in sizes:
        lands = [cycle[i * len(cycle) // n] for i in range(n)] if n <= len(cycle) else \
            [cycle[i % len(cycle)] for i in range(n)]
        state = _state(board_40(lands))
        w, _ = _median(lambda: answer(state, {"kind": "actions"}), 3)
        full.append(w * 1e3)
        w, _ = _median(lambda: Situation(state).legal_actions_mask(), 3)
        mask.append(w * 1e3)
        w, _ = _median(lambda: pay_specs.count_payments(View(state), "alice",
                                                      {"cast": "hangarback-walker", "x": "any"}), 3)
        hb.append(w * 1e3)
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.plot(sizes, full, "o-", label="actions, exact counts")
    ax.plot(sizes, mask, "s-", label="action mask")
    ax.plot(sizes, hb, "^-", label="pay count, Hangarback X any")
    ax.set_xlabel("lands on the battlefield")
    ax.set_ylabel("ms (median, cold)")
    ax.set_title("mtgsolve: counting without listing (issue 16)")
    ax.legend()
    ax.grid(True, alpha=0.3)
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.tight_layout()
    fig.savefig(out, dpi=100)
    print(f"plot of time against board size saved to {out.relative_to(ROOT)} "
          f"(sizes {sizes}: actions {[round(v, 1) for v in full]} ms)")


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    quick = "--quick" in argv
    reps = 3 if quick else 9
    since = readme.load()
    phase_ms, why = phase_actions_ms(reps)
    if phase_ms is None:
        print(f"phase.rs: skipped ({why})")
    else:
        print(f"phase.rs actions() on the same 40-land board (phase-python, same process): "
              f"median {phase_ms:.2f} ms ({why})")
    figs = bench_board_40(reps, phase_ms)
    figs.update(bench_arc_trail(reps))
    figs.update(bench_listing(quick))
    figs.update(bench_cataracts(10.0 if quick else 60.0, reps))
    bench_reference()
    figs.update(bench_available_count(quick))
    readme_lines(figs, since)
    if "--no-plot" not in argv:
        plot([10, 20, 40, 80] if quick else [10, 20, 40, 80, 160], ROOT / "docs" / "counting.png")
    return 0


def readme_lines(f: dict, since: str) -> None:
    """The README's counting figures (one ``README:`` line each, worded as the README's rows)."""
    vs = (lambda w: f" = {w * 1e3 / f['phase']:.2f}×") if f.get("phase") else (lambda w: "")
    readme.line(f"`actions` with exact counts, 40 lands + 7 spells ({f['hb_total']:,} payments counted): "
                f"{f['full'] * 1e3:.1f} ms{vs(f['full'])} phase.rs `actions()` on the same board, same run"
                f"{'' if f.get('phase') else ' (not installed)'}; the mask {f['mask'] * 1e3:.2f} ms{vs(f['mask'])}",
                since)
    readme.line(f"`pay` counts, Hangarback Walker X = 1…20 on that board: ≤ {f['hb_max'] * 1e3:.1f} ms each", since)
    readme.line(f"`pay` for Cultivate, Cascading Cataracts board ({f['cataracts_count']:,} payments): "
                f"{f['cataracts']:.2f} s (first 10,000 listed, exact count)", since)
    readme.line(f"`is_legal` of one Arc Trail among 320 creatures ({f['arc_count']:,} choices): "
                f"{f['arc'] * 1e3:.1f} ms fresh, {f['arc_warm'] * 1e3:.2f} ms warm", since)
    readme.line(f"listing payments: {f['listing']:,.0f} payments/s (Hangarback Walker), "
                f"{f['cataracts_rate']:,.0f} (Cultivate)", since)
    if "am_count" in f:
        readme.line(f"`available_mana` exact count, 40 mixed lands ({f['am_count']:,} bundles): {f['am_s']:.2f} s "
                    f"(listing them all: {f['am_enum_s']:.1f} s)", since)


if __name__ == "__main__":
    raise SystemExit(main())
