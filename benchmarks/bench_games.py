"""Benchmark of whole games with random agents (issue 17 item 5).

Run: ``.venv/bin/python -m benchmarks.bench_games [--quick] [--games N]``.

Plays seeded games between two uniformly random agents through the
PettingZoo environment (:mod:`solver.env`, optional extra ``env``) with the
two decks of fully modeled cards (``solver.games.RED_DECK`` /
``GREEN_DECK``), from the opening hand to a winner, and prints games per
second and steps per second (a step is one agent decision: a pass, a play,
a cast or activation head, a completion, a declaration or another choice).
Without pettingzoo the same games are played through the Python API
directly (:func:`play_api_game`). Every game must end with a winner; an
exception fails the benchmark. Wall-clock figures; nothing is asserted by the
tests.
"""
from __future__ import annotations

import random
import sys
import time

from mtgsolve.solver.api import Situation
from mtgsolve.solver.encoding import ActionEncoding, completions


def play_api_game(seed: int, max_steps: int = 20_000) -> tuple[str | None, int, int]:
    """One random game through :class:`solver.api.Situation` and the action encoding."""
    from mtgsolve.solver.games import GREEN_DECK, RED_DECK, initial_situation, parse_decklist

    rng = random.Random(seed)
    sit: Situation = initial_situation((parse_decklist(RED_DECK), parse_decklist(GREEN_DECK)), rng)
    enc = ActionEncoding(sit)
    pick = random.Random(seed + 1_000_003)
    steps = 0
    while not sit.is_terminal and steps < max_steps:
        mask = enc.mask(sit)
        legal = [i for i, v in enumerate(mask) if v]
        a = enc.decode(sit, legal[pick.randrange(len(legal))])
        if getattr(a, "kind", "") in ("cast", "activate"):
            full = completions(sit, a)
            a = full[pick.randrange(len(full))]
            steps += 1
        sit = sit.apply(a)
        steps += 1
    return sit.winner, steps, sit.state.turn.number


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    games = 10 if "--quick" in argv else 100
    if "--games" in argv:
        games = int(argv[argv.index("--games") + 1])
    try:
        from mtgsolve.solver.env import play_random_game
        how = "PettingZoo AEC env (solver.env)"
    except ImportError:
        play_random_game = play_api_game  # type: ignore[assignment]
        how = "Python API (pettingzoo not installed)"
    print(f"{games} seeded games, random agents, {how}: red vs green (fully modeled cards)")
    wins = {"alice": 0, "bob": 0, None: 0}
    total_steps = total_turns = 0
    t0, c0 = time.perf_counter(), time.process_time()
    for seed in range(games):
        winner, steps, turns = play_random_game(seed)
        if winner is None:
            print(f"seed {seed}: no winner after {steps} steps", file=sys.stderr)
            return 1
        wins[winner] += 1
        total_steps += steps
        total_turns += turns
    dt, cpu = time.perf_counter() - t0, time.process_time() - c0
    print(f"games: {games}  wall: {dt:.1f} s  games/s: {games / dt:.3f}  steps/s: {total_steps / dt:.1f}")
    print(f"CPU time: {cpu:.1f} s  games per CPU-second: {games / cpu:.3f}  steps per CPU-second: "
          f"{total_steps / cpu:.1f} (independent of other load on the machine)")
    print(f"steps/game: {total_steps / games:.0f}  turns/game: {total_turns / games:.1f}  "
          f"wins: alice (red) {wins['alice']}, bob (green) {wins['bob']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
