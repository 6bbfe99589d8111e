"""Benchmark of whole games with random agents (issue 17 item 5).

Run: ``.venv/bin/python -m benchmarks games [--quick] [--games N] [--decks real|invented|real-competitive]
[--seed S] [--check]`` (or ``python -m benchmarks.bench_games …``; ``--games=N`` works too).

``--decks real-competitive``: seeded games between pairs of the twelve real competitive 60-card
decklists of ``benchmarks/decks/games/competitive/``, with the real set-up (mulligans), refusals
grouped by blocking text, exceptions grouped and counted, the slowest step
(:mod:`benchmarks.competitive_games`; default 30 games, ``--max-steps`` per game 5,000).

Plays seeded games between two uniformly random agents through the
PettingZoo environment (:mod:`solver.api.env`, optional extra ``env``), from the
opening hand to the end, and prints games per second and steps per second (a
step is one agent decision: a pass, a play, a cast or activation head, a
completion, a declaration or another choice). Without pettingzoo the same
games are played through the Python API directly (:func:`play_api_game`).

Decks (``--decks``): ``real`` (default) — two real, published decklists,
the Gold and Silver decks of the Ninth Edition Core Game
(``benchmarks/decks/games/``, :data:`solver.api.games.REAL_DECKS`); ``invented``
— two invented 40-card decks of fully modeled cards
(:data:`solver.api.games.INVENTED_DECKS`).

A game ends with a winner, or is *refused* when it reaches text the project
does not read (contract §2.0: the engine refuses rather than guess; only the
cards :func:`solver.api.games.unmodeled` lists can do that). Refusals are counted
and listed by the blocking text; anything else — an exception, a game with
neither a winner nor a refusal, a refusal naming a card the check calls fully
modeled — fails the benchmark (exit code 1). ``--check`` prints, for every
decklist of ``benchmarks/decks/games/``, the cards that are not fully modeled
and their unread lines. Wall-clock figures; nothing is asserted by the tests.
"""
from __future__ import annotations

import random
import sys
import time
from collections import Counter
from pathlib import Path

from benchmarks import readme
from mtgsolve.solver.api import Situation, UnsupportedActionError
from mtgsolve.solver.api.encoding import ActionEncoding, completions
from mtgsolve.solver.api.games import INVENTED_DECKS, REAL_DECKS, deal_shuffled, new_game, parse_decklist, unmodeled

GAME_DECKS_DIR = Path(__file__).resolve().parent / "decks" / "games"
DECKS = {"real": ("Ninth Edition Core Game: Gold vs Silver (real decklists)", REAL_DECKS),
         "invented": ("invented red vs green, 40 cards of fully modeled cards", INVENTED_DECKS)}
SHORT = {"real": "Ninth Edition Core Game decks, Gold vs Silver", "invented": "invented 40-card decks, fully modeled"}


def play_api_game(seed: int, decks: tuple[str, str] = REAL_DECKS,
                  max_steps: int = 20_000) -> tuple[str | None, int, int, str | None]:
    """One random game through :class:`solver.api.Situation` and the action
    encoding: (winner, steps, turns, refusal message or None)."""
    rng = random.Random(seed)
    sit: Situation = new_game((parse_decklist(decks[0]), parse_decklist(decks[1])), rng)   # CR 103, with mulligans
    enc = ActionEncoding(sit)
    pick = random.Random(seed + 1_000_003)
    steps = 0
    try:
        while not sit.is_terminal and steps < max_steps:
            mask = enc.mask(sit)
            legal = [i for i, v in enumerate(mask) if v]
            a = enc.decode(sit, legal[pick.randrange(len(legal))])
            if getattr(a, "kind", "") in ("cast", "activate"):
                full = completions(sit, a)
                a = full[pick.randrange(len(full))]
                steps += 1
            sit = deal_shuffled(sit.apply(a, rng=rng), rng)   # the dealer's shuffles, as the environment does
            steps += 1
    except UnsupportedActionError as e:   # unread text reached: refused, not guessed (contract §2.0)
        return None, steps, sit.state.turn.number, str(e)
    return sit.winner, steps, sit.state.turn.number, None


def check_decks(directory: Path = GAME_DECKS_DIR) -> int:
    """Print each decklist's cards that are not fully modeled; 0 if every deck is fully modeled."""
    bad = 0
    for f in sorted(directory.glob("*.txt")):
        missing = unmodeled(f)
        print(f"{f.name}: {len(parse_decklist(f.read_text()))} cards, "
              + ("every card fully modeled" if not missing else f"{len(missing)} not fully modeled:"))
        for name, texts in missing.items():
            for text in texts:
                print(f"    {name}: {text}")
        bad += bool(missing)
    return 1 if bad else 0


def _option(argv: list[str], name: str) -> str | None:
    """``--name value`` or ``--name=value`` (the second form passes through ``python -m benchmarks``)."""
    for i, arg in enumerate(argv):
        if arg == name and i + 1 < len(argv):
            return argv[i + 1]
        if arg.startswith(name + "="):
            return arg.split("=", 1)[1]
    return None


def competitive(argv: list[str]) -> int:
    """``--decks real-competitive`` (:mod:`benchmarks.competitive_games`): the table, the timings, one
    traceback per exception group on stderr; exit code 1 when a game raised an exception."""
    from benchmarks import competitive_games as cg

    games = int(_option(argv, "--games") or (6 if "--quick" in argv else 30))
    seed = int(_option(argv, "--seed") or 0)
    max_steps = int(_option(argv, "--max-steps") or 5_000)
    since = readme.load()
    print(f"{games} seeded games (seed {seed}), random agents, PettingZoo AEC env with the CR 103 set-up, between "
          f"pairs of {len(cg.competitive_decks())} real competitive decklists (benchmarks/decks/games/competitive/)",
          flush=True)
    s = cg.run(games, seed, max_steps, progress="--progress" in argv)
    print(cg.results_table(s))
    for line in cg.timing_lines(s):
        print(line)
    for tb in cg.first_tracebacks(s):
        print(tb, file=sys.stderr)
    steps = sum(r.steps for r in s.records)
    readme.line(f"whole games, real competitive decklists ({games} seeded games, random agents): "
                f"{s.count('winner')} of {games} to a winner, {s.count('refused')} refused, {s.count('exception')} "
                f"exceptions; {games / s.wall:.2f} games/s, {steps / s.wall:,.0f} steps/s wall "
                f"({steps / s.cpu:,.0f} steps per CPU-second)", since)
    return 1 if s.count("exception") else 0


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if "--check" in argv:
        return check_decks()
    which = _option(argv, "--decks") or "real"
    if which == "real-competitive":
        return competitive(argv)
    games = int(_option(argv, "--games") or (10 if "--quick" in argv else 100))
    if which not in DECKS:
        print(f"--decks: one of {', '.join(DECKS)}, real-competitive", file=sys.stderr)
        return 2
    title, decks = DECKS[which]
    known = {t for d in decks for texts in unmodeled(d).values() for t in texts}
    try:
        from mtgsolve.solver.api.env import random_game

        def play(seed: int) -> tuple[str | None, int, int, str | None, tuple[str, ...]]:
            r = random_game(seed, decks)
            return r.winner, r.steps, r.turns, r.refused, r.unread
        how = "PettingZoo AEC env (solver.api.env)"
    except ImportError:
        def play(seed: int) -> tuple[str | None, int, int, str | None, tuple[str, ...]]:
            w, s, t, why = play_api_game(seed, decks)
            return w, s, t, why, tuple(k for k in known if why and k in why)
        how = "Python API (pettingzoo not installed)"
    print(f"{games} seeded games, random agents, {how}: {title}")
    wins: Counter = Counter()
    refusals: Counter = Counter()
    failures: list[str] = []
    total_steps = total_turns = 0
    since = readme.load()
    t0, c0 = time.perf_counter(), time.process_time()
    for seed in range(games):
        try:
            winner, steps, turns, refused, unread = play(seed)
        except Exception as e:  # noqa: BLE001 - counted and reported: the benchmark fails
            failures.append(f"seed {seed}: {type(e).__name__}: {e}")
            continue
        total_steps += steps
        total_turns += turns
        if winner is not None:
            wins[winner] += 1
        elif refused is not None and unread and set(unread) <= known:
            refusals[" | ".join(sorted(set(unread)))] += 1
        else:
            failures.append(f"seed {seed}: no winner after {steps} steps ({refused or 'no refusal'})")
    dt, cpu = time.perf_counter() - t0, time.process_time() - c0
    played = games - len(failures)
    print(f"games: {games}  wall: {dt:.1f} s  games/s: {games / dt:.3f}  steps/s: {total_steps / dt:.1f}")
    print(f"CPU time: {cpu:.1f} s  games per CPU-second: {games / cpu:.3f}  steps per CPU-second: "
          f"{total_steps / cpu:.1f} (independent of other load on the machine)")
    print(f"steps/game: {total_steps / max(played, 1):.0f}  turns/game: {total_turns / max(played, 1):.1f}  "
          f"won: {sum(wins.values())} (alice {wins['alice']}, bob {wins['bob']})  "
          f"refused at unread text: {sum(refusals.values())}  exceptions/other: {len(failures)}")
    readme.line(f"whole games, {SHORT[which]} ({games} seeded games, random agents): {games / dt:.2f} games/s, "
                f"{total_steps / dt:,.0f} steps/s wall ({games / cpu:.2f} games, {total_steps / cpu:,.0f} steps "
                f"per CPU-second); {sum(wins.values())} of {games} games to a winner, {sum(refusals.values())} "
                f"refused, {len(failures)} exceptions", since)
    for text, n in refusals.most_common():
        print(f"  refused {n}x: {text}")
    for line in failures:
        print(line, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
