"""Benchmarks of the agents' interfaces (issue 8): ``python -m benchmarks.bench_actions [--quick]``.

1. ``actions`` on a 40-land board with 7 spells in hand (mixed costs and
   targets) and opponents' creatures to target: median time per call
   in-process, from the state (a fresh rules view each call, no caches kept
   between calls), split into

   * the full contract answer (every legal action with its exact numbers of
     target choices and distinct payments), and
   * deciding legality only (the action mask: is there a legal target choice,
     is the cost payable) — what phase.rs's ``actions()`` does, about 5 ms on
     a 40-land board;

   plus the number of sub-solves the answer took.
2. ``is_legal`` per call: fully specified actions on a fresh situation (cold:
   view and decisions built) and on a warm one (caches kept, as an agent
   checking several moves in one position).
3. ``apply`` + ``actions`` loop: a scripted game fragment (play a land, cast
   a spell, pass priority, …) replayed; iterations (one apply and one full
   ``actions`` answer on the new situation) per second.
4. Batch throughput (files per second) over 1,000 generated situation files
   with ``--jobs 1`` and ``--jobs 2`` (process start-up included).
5. The brute-force reference (tests/reference/actions_ref.py) against the
   query on a board small enough for it, in the same run.

Figures are wall-clock medians (and CPU medians of this process) on the
current machine. Nothing here is asserted by the tests.
"""
from __future__ import annotations

import copy
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT / "tests") not in sys.path:
    sys.path.insert(0, str(ROOT / "tests"))

from mtgsolve.solver.engine.actions import Oracle, candidates, legal_action_entries  # noqa: E402
from mtgsolve.solver.api import Situation  # noqa: E402
from mtgsolve.solver.queries import answer  # noqa: E402
from mtgsolve.solver.io.load import situation_from_dict  # noqa: E402

PHASE_RS_MS = 5.0

LANDS_40 = (["Forest"] * 8 + ["Mountain"] * 8 + ["Plains"] * 6 + ["Island"] * 5 + ["Swamp"] * 5
            + ["Taiga"] * 2 + ["Tundra"] * 2 + ["Tropical Island"] * 2 + ["Snow-Covered Forest"] * 2)
SPELLS_7 = ["Shock", "Lightning Bolt", "Arc Trail", "Murder", "Giant Growth", "Grizzly Bears", "Kitchen Finks"]


def board_40() -> dict:
    """Alice's main phase: 40 lands (basics, duals, snow), 7 spells in hand;
    Bob's creatures to target (hexproof and protection among them)."""
    return {
        "format": "mtgsolve/1", "name": "40 lands, 7 spells", "players": ["alice", "bob"],
        "turn": {"number": 5, "active": "alice", "step": "main1", "lands_played": 1},
        "battlefield": {"alice": LANDS_40 + ["Prodigal Pyromancer"],
                        "bob": ["Grizzly Bears", "Coalition Honor Guard", "Gladecover Scout", "White Knight",
                                "Balduvian Bears"]},
        "hand": {"alice": SPELLS_7},
    }


def _timed(fn, reps: int) -> tuple[float, float, object]:
    ws, cs = [], []
    out = None
    for _ in range(reps):
        t, c = time.perf_counter(), time.process_time()
        out = fn()
        ws.append(time.perf_counter() - t)
        cs.append(time.process_time() - c)
    return statistics.median(ws), statistics.median(cs), out


def bench_actions_40(reps: int) -> None:
    state = situation_from_dict(board_40()).state
    answer(state, {"kind": "actions"})  # warm imports and card caches
    w, c, res = _timed(lambda: answer(state, {"kind": "actions"}), reps)
    print(f"actions, 40 lands + 7 spells: {res['count']} legal actions")
    for a in res["actions"]:
        print(f"    {a}")
    oracle = Oracle(state, "alice")
    legal_action_entries(state, "alice", oracle=oracle)
    print(f"  full answer (exact counts):   median {w * 1e3:7.2f} ms wall, {c * 1e3:7.2f} ms CPU "
          f"({oracle.solves} sub-solves)  vs phase.rs ~{PHASE_RS_MS:.0f} ms: x{w * 1e3 / PHASE_RS_MS:.1f}")

    def decide_only():
        o = Oracle(state, "alice")
        return [o.legal(cand)[0] for cand in candidates(state, "alice", o.view)]
    w2, c2, mask = _timed(decide_only, reps)
    o = Oracle(state, "alice")
    [o.legal(cand) for cand in candidates(state, "alice", o.view)]
    print(f"  decide only (the mask):       median {w2 * 1e3:7.2f} ms wall, {c2 * 1e3:7.2f} ms CPU "
          f"({o.solves} sub-solves, {sum(mask)}/{len(mask)} legal)  vs phase.rs: x{w2 * 1e3 / PHASE_RS_MS:.1f}")
    w3, c3, _ = _timed(lambda: Situation(state).legal_actions_mask(), reps)
    print(f"  Situation.legal_actions_mask: median {w3 * 1e3:7.2f} ms wall, {c3 * 1e3:7.2f} ms CPU")


def bench_is_legal(reps: int) -> None:
    state = situation_from_dict(board_40()).state
    moves = ["cast shock -> coalition-honor-guard paying mountain",
             "cast lightning-bolt -> coalition-honor-guard paying taiga",
             "cast giant-growth -> prodigal-pyromancer paying forest",
             "cast grizzly-bears paying forest, mountain",
             "cast shock -> bob paying mountain",  # illegal: the Flagbearer must be chosen
             "activate prodigal-pyromancer:1 -> coalition-honor-guard paying prodigal-pyromancer",
             "play forest"]  # illegal: a land was played already
    sit0 = Situation(state)
    verdicts = [(m, bool(sit0.is_legal(m))) for m in moves]
    w, c, _ = _timed(lambda: [Situation(state).is_legal(m) for m in moves[:1]], reps)
    print(f"is_legal, cold (fresh situation, one move): median {w * 1e3:7.2f} ms wall, {c * 1e3:6.2f} ms CPU")
    warm = Situation(state)
    for m in moves:
        warm.is_legal(m)
    n = len(moves)
    w, c, _ = _timed(lambda: [warm.is_legal(m) for m in moves], reps)
    print(f"is_legal, warm (same situation):            median {w * 1e3 / n:7.3f} ms wall per call "
          f"({n} moves: {', '.join('legal' if ok else 'illegal' for _, ok in verdicts)})")


def scripted_fragment() -> tuple[dict, list[str]]:
    """A few decisions of a game on a mid-size board; the second of two passes in
    succession resolves the top of the stack (CR 117.4, 608)."""
    d = {
        "format": "mtgsolve/1", "name": "scripted fragment", "players": ["alice", "bob"],
        "turn": {"number": 5, "active": "alice", "step": "main1"},
        "battlefield": {"alice": ["Mountain", "Mountain", "Forest", "Forest", "Plains", "Llanowar Elves"],
                        "bob": ["Grizzly Bears", "Coalition Honor Guard", "Island", "Island"]},
        "hand": {"alice": ["Mountain", "Shock", "Grizzly Bears", "Giant Growth", "Lightning Bolt"],
                 "bob": ["Shock"]},
    }
    script = ["play mountain-3", "cast shock -> coalition-honor-guard paying mountain", "pass", "pass",
              "cast grizzly-bears-2 paying forest, forest-2", "pass", "pass",
              "cast lightning-bolt -> coalition-honor-guard paying mountain-2", "pass", "pass",
              "cast giant-growth -> grizzly-bears-2 paying llanowar-elves", "pass", "pass"]
    return d, script


def play(start: "Situation", script: list[str]) -> tuple[int, int]:
    """Replay ``script``; after every step ask for the full actions answer. (steps, actions listed)"""
    s = start
    listed = 0
    for move in script:
        s = s.apply(move)
        listed += s.legal_actions.summary()["count"]
    return len(script), listed


def bench_loop(reps: int) -> None:
    d, script = scripted_fragment()
    start = Situation.from_dict(d)
    play(start, script)
    w, c, (n, listed) = _timed(lambda: play(start, script), max(3, reps // 5))
    passes = script.count("pass")
    w_r, _, _ = _timed(lambda: [s.resolve() for s in [start.apply(script[0]).apply(script[1])]], max(3, reps // 5))
    print(f"apply + actions loop ({n} steps: {n - passes} actions applied, {passes} passes, every second one "
          f"resolving the top of the stack; "
          f"{listed} legal actions listed): {n / w:6.1f} steps/s ({w / n * 1e3:.2f} ms per step wall, "
          f"{c / n * 1e3:.2f} ms CPU; one resolve {w_r * 1e3:.2f} ms)")


def batch_files(directory: Path, n: int) -> None:
    """``n`` small generated situations, each asking for the actions of both players."""
    import yaml

    base = board_40()
    hands = [["Shock"], ["Grizzly Bears", "Forest"], ["Lightning Bolt", "Giant Growth"], ["Murder", "Swamp"],
             ["Arc Trail"], ["Kitchen Finks", "Plains"]]
    for i in range(n):
        d = copy.deepcopy(base)
        d["name"] = f"generated {i}"
        d["battlefield"]["alice"] = LANDS_40[: 4 + i % 9] + ["Prodigal Pyromancer"]
        d["battlefield"]["bob"] = base["battlefield"]["bob"][: 1 + i % 5]
        d["hand"]["alice"] = hands[i % len(hands)]
        d["turn"]["lands_played"] = i % 2
        d["query"] = [{"kind": "actions"}, {"kind": "actions", "player": "bob"}]
        (directory / f"gen-{i:04d}.yaml").write_text(yaml.safe_dump(d, sort_keys=False))


def bench_batch(n: int) -> None:
    from mtgsolve.solver.apps.batch import batch

    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp) / "in"
        d.mkdir()
        batch_files(d, n)
        for jobs in (1, 2):
            out = Path(tmp) / f"out{jobs}.jsonl"
            t = time.perf_counter()
            s = batch([d], out, jobs=jobs, progress=False)
            w = time.perf_counter() - t
            print(f"batch, {n} files, --jobs {jobs}: {n / w:7.1f} files/s ({w:.1f} s; {s.failed} failed)")


def bench_reference() -> None:
    from reference.actions_ref import reference_actions

    d = {"format": "mtgsolve/1", "players": ["alice", "bob"],
         "turn": {"number": 5, "active": "alice", "step": "main1"},
         "battlefield": {"alice": ["Forest", "Forest", "Mountain", "Mountain", "Plains", "Taiga"],
                         "bob": ["Grizzly Bears", "Coalition Honor Guard"]},
         "hand": {"alice": ["Shock", "Grizzly Bears", "Kitchen Finks", "Forest"]}}
    state = situation_from_dict(d).state
    w, _, got = _timed(lambda: answer(state, {"kind": "actions"}), 5)
    wr, _, ref = _timed(lambda: reference_actions(state, "alice"), 3)
    # the answer also names the unread parts of an action's card (``unread``), which the reference does not read
    same = [{k: v for k, v in a.items() if k not in ("unsupported", "unread")} for a in got["actions"]] == \
        [dict(e) for e in ref]
    print(f"reference (6 lands, 4 cards): query {w * 1e3:.2f} ms, brute force {wr * 1e3:.2f} ms "
          f"(ratio x{wr / w:.1f}); identical: {same}")


def main(argv: list[str] | None = None) -> int:
    quick = "--quick" in (argv or sys.argv[1:])
    reps = 5 if quick else 21
    bench_actions_40(reps)
    bench_is_legal(reps)
    bench_loop(reps)
    bench_reference()
    bench_batch(100 if quick else 1000)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
