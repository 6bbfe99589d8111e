"""Whole games between real competitive decklists (issue 27 item 5): the driver of
``python -m benchmarks games --decks real-competitive [--games N] [--seed S] [--max-steps M]``.

The decks are the twelve 60-card lists of ``benchmarks/decks/games/competitive/`` (two each of
Legacy, Modern, Pauper, Pioneer, Standard and Vintage; the rule that chose them is in
``benchmarks/decks/README.md``). The 66 pairs of decks are put in an order drawn from the seed
``S``; game ``g`` plays pair ``g mod 66`` with game seed ``S * 100_000 + g``, through the PettingZoo
environment (:class:`solver.api.env.MtgEnv`: the real set-up — starting player from the seed,
London mulligans as decisions, CR 103) between two uniformly random agents (seeded), to a winner,
a draw, a refusal at text the project does not read (contract §2.0: the environment truncates the
game with the blocking text) or the step limit. A step is one agent decision (``env.step``).

Reported: games reaching a winner (and draws), refusals grouped by the blocking text (the card
and its unread text, or the engine's reason when no text is named), exceptions grouped by type and
place with their count (an exception is a bug), games/s and steps/s (wall and CPU), and the
slowest step. Everything but the timings is deterministic: the same seed plays the same games,
byte for byte (:func:`results_table`, ``tests/test_games_bench.py``).
"""
from __future__ import annotations

import hashlib
import itertools
import random
import re
import time
import traceback
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

DECK_DIR = Path(__file__).resolve().parent / "decks" / "games" / "competitive"
SEED_STRIDE = 100_000


def competitive_decks(directory: Path = DECK_DIR) -> list[Path]:
    """The decklist files of the set, in name order."""
    return sorted(directory.glob("*.txt"))


def schedule(games: int, seed: int = 0, decks: list[Path] | None = None) -> list[tuple[int, Path, Path]]:
    """``(game seed, alice's deck, bob's deck)`` of each game: every pair of decks in a seeded order,
    repeated as needed."""
    decks = decks if decks is not None else competitive_decks()
    pairs = list(itertools.combinations(decks, 2))
    random.Random(seed).shuffle(pairs)
    return [(seed * SEED_STRIDE + g, *pairs[g % len(pairs)]) for g in range(games)]


@dataclass
class GameRecord:
    """One game: the decks, the outcome (``winner``, ``draw``, ``refused`` with the blocking texts,
    ``limit``: the step limit, ``exception``), steps and turns, a digest of every decision taken (the
    determinism check), and the slowest step (seconds, what it was)."""

    seed: int
    decks: tuple[str, str]
    outcome: str
    winner: str | None = None
    steps: int = 0
    turns: int = 0
    blocking: tuple[str, ...] = ()
    where: tuple[str, ...] = ()   # per blocking text: the refusing question and the card's zone
    exception: tuple[str, str, str] | None = None   # (type and place, message, traceback)
    digest: str = ""
    slowest: tuple[float, str] = (0.0, "")
    mulligans: int = 0

    def line(self) -> str:
        """The game as one deterministic line (no timings)."""
        what = self.winner if self.outcome == "winner" else (" | ".join(self.blocking) if self.blocking else "")
        if self.exception is not None:
            what = self.exception[0]
        return (f"seed {self.seed}: {self.decks[0]} vs {self.decks[1]}: {self.outcome}"
                f"{' ' + what if what else ''}; {self.steps} steps, turn {self.turns}, {self.mulligans} mulligans, "
                f"decisions {self.digest}")


_ID = re.compile(r"\b[a-z]\d{2,3}-([a-z0-9-]+)")


def _named(text: str) -> str:
    """An engine message with object ids (``a07-lightning-bolt``) as their card's id base, so that the
    same refusal in two games is one group."""
    return " ".join(_ID.sub(r"\1", text).split())


QUERIES = ("actions", "apply", "pass", "resolve", "pay", "targets")


def _blocking(env: Any, info: dict) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The texts that blocked the game — ``card: unread text`` for each part the refusal names, or the
    engine's message (ids as card names) when it names none — and where each was: the refusing
    question (``actions``: the action mask; ``apply``; ``pass``) and the zone of the card."""
    message = str(info.get("unsupported", info.get("truncated", "")))
    query = message.split(":", 1)[0] if message.split(":", 1)[0] in QUERIES else "other"
    texts: dict[str, set[str]] = {}
    for part in info.get("unread", []):
        o = env.situation.state.find(str(part.get("object", "")))
        name = o.name if o is not None else _named(str(part.get("object", "")))
        texts.setdefault(f"{name}: {' '.join(str(part.get('text', '')).split())}", set()).add(
            f"{query}, {o.zone if o is not None else '?'}")
    if not texts:
        texts["(no text named) " + _named(message)] = {f"{query}, -"}
    keys = tuple(sorted(texts))
    return keys, tuple(" / ".join(sorted(texts[k])) for k in keys)


def _where(e: BaseException) -> str:
    """``Type at file:line`` of the innermost frame in the project (the exception's group)."""
    frames = [f for f in traceback.extract_tb(e.__traceback__) if "/solver/" in f.filename or "/benchmarks/" in f.filename]
    f = frames[-1] if frames else traceback.extract_tb(e.__traceback__)[-1]
    return f"{type(e).__name__} at {'/'.join(Path(f.filename).parts[-2:])}:{f.lineno}"


def play_game(seed: int, decks: tuple[Path, Path], max_steps: int = 5_000) -> GameRecord:
    """One seeded game between random agents through the environment (module docstring)."""
    import numpy as np

    from mtgsolve.solver.api.env import MtgEnv

    rec = GameRecord(seed, (decks[0].stem, decks[1].stem), "limit")
    digest = hashlib.sha256()
    try:
        env = MtgEnv(decks=decks, seed=seed, max_steps=max_steps)
        env.reset(seed=seed)
        pick = random.Random(seed + 1_000_003)
        for _agent in env.agent_iter():
            t0 = time.perf_counter()
            obs, _, term, trunc, info = env.last()
            if term or trunc:
                _finish(rec, env, info)
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            a = int(legal[pick.randrange(len(legal))])
            sit = env.situation
            what = f"turn {sit.state.turn.number} {sit.state.turn.step}, {sit.player}: {_describe(env, a)}"
            rec.mulligans += what.endswith(": mulligan")
            digest.update(f"{a};".encode())
            env.step(a)
            dt = time.perf_counter() - t0
            if dt > rec.slowest[0]:
                rec.slowest = (dt, f"seed {seed} ({rec.decks[0]} vs {rec.decks[1]}), {what}")
        rec.steps, rec.turns = env.steps, env.situation.state.turn.number
    except Exception as e:  # noqa: BLE001 - an exception is a bug: recorded, grouped and counted
        rec.outcome = "exception"
        rec.exception = (_where(e), _named(str(e))[:300], traceback.format_exc())
    rec.digest = digest.hexdigest()[:12]
    return rec


def _describe(env: Any, a: int) -> str:
    """What action slot ``a`` is now: the option's label in a choice, else the slot."""
    if a >= env.encoding.first_option:
        picker = env._current_picker()
        if picker is not None:
            return _named(picker.slots()[a - env.encoding.first_option])
    return _named(env.encoding.describe(a))


def _finish(rec: GameRecord, env: Any, info: dict) -> None:
    sit = env.situation
    if sit.is_terminal:
        rec.outcome, rec.winner = ("winner", sit.winner) if sit.winner is not None else ("draw", None)
    elif "unsupported" in info:
        rec.outcome = "refused"
        rec.blocking, rec.where = _blocking(env, info)
    else:
        rec.outcome = "limit"


@dataclass
class Summary:
    """The games of one run and their totals."""

    records: list[GameRecord] = field(default_factory=list)
    wall: float = 0.0
    cpu: float = 0.0

    def count(self, outcome: str) -> int:
        return sum(r.outcome == outcome for r in self.records)


def run(games: int, seed: int = 0, max_steps: int = 5_000, progress: bool = False) -> Summary:
    """Play the scheduled games; wall and CPU time of the whole run."""
    s = Summary()
    t0, c0 = time.perf_counter(), time.process_time()
    for game_seed, a, b in schedule(games, seed):
        s.records.append(play_game(game_seed, (a, b), max_steps))
        if progress:
            print("  " + s.records[-1].line(), flush=True)
    s.wall, s.cpu = time.perf_counter() - t0, time.process_time() - c0
    return s


def results_table(s: Summary) -> str:
    """The deterministic part of the report: outcomes, winners by deck, refusals by blocking text,
    exceptions by type and place (counts), and each game's line."""
    n = len(s.records)
    lines = [f"games: {n}  winner: {s.count('winner')}  draws: {s.count('draw')}  refused: {s.count('refused')}  "
             f"step limit: {s.count('limit')}  exceptions: {s.count('exception')}"]
    steps = sum(r.steps for r in s.records)
    lines.append(f"steps: {steps} ({steps / max(n, 1):.0f}/game)  turns/game: "
                 f"{sum(r.turns for r in s.records) / max(n, 1):.1f}  mulligans: {sum(r.mulligans for r in s.records)}")
    wins: Counter = Counter()
    for r in s.records:
        if r.outcome == "winner":
            wins[r.decks[0] if r.winner == "alice" else r.decks[1]] += 1
    if wins:
        lines.append("winners by deck: " + ", ".join(f"{d} {k}" for d, k in sorted(wins.items(), key=lambda x: (-x[1], x[0]))))
    refusals: Counter = Counter()
    where: dict[str, Counter] = {}
    for r in s.records:
        for text, at in zip(r.blocking, r.where):
            refusals[text] += 1
            where.setdefault(text, Counter())[at] += 1
    if refusals:
        lines.append(f"refusals by blocking text ({len(refusals)} texts; a game blocked by several counts for each; "
                     f"[refusing question, zone of the card: games]):")
        lines += [f"  {k:3d}x {text} [{'; '.join(f'{w}: {n}' for w, n in sorted(where[text].items()))}]"
                  for text, k in sorted(refusals.items(), key=lambda x: (-x[1], x[0]))]
        by_query: Counter = Counter(r.where[0].split(",")[0] for r in s.records if r.where)
        lines.append("refused games by refusing question: " + ", ".join(f"{q} {n}" for q, n in sorted(by_query.items())))
    errors: dict[str, list[GameRecord]] = {}
    for r in s.records:
        if r.exception is not None:
            errors.setdefault(r.exception[0], []).append(r)
    if errors:
        lines.append("exceptions (bugs) by type and place:")
        for where, rs in sorted(errors.items(), key=lambda x: (-len(x[1]), x[0])):
            lines.append(f"  {len(rs):3d} tracebacks: {where}: {rs[0].exception[1] if rs[0].exception else ''} "
                         f"(seeds {', '.join(str(r.seed) for r in rs[:5])})")
    lines.append("games:")
    lines += ["  " + r.line() for r in s.records]
    return "\n".join(lines)


def timing_lines(s: Summary) -> list[str]:
    n = len(s.records)
    steps = sum(r.steps for r in s.records)
    slow = max((r.slowest for r in s.records), default=(0.0, ""))
    return [f"wall: {s.wall:.1f} s  games/s: {n / max(s.wall, 1e-9):.3f}  steps/s: {steps / max(s.wall, 1e-9):,.0f}",
            f"CPU: {s.cpu:.1f} s  games per CPU-second: {n / max(s.cpu, 1e-9):.3f}  steps per CPU-second: "
            f"{steps / max(s.cpu, 1e-9):,.0f}",
            f"slowest step: {slow[0] * 1000:.0f} ms ({slow[1]})"]


def first_tracebacks(s: Summary) -> list[str]:
    """One traceback per exception group (for stderr)."""
    seen: dict[str, str] = {}
    for r in s.records:
        if r.exception is not None and r.exception[0] not in seen:
            seen[r.exception[0]] = f"seed {r.seed} ({r.decks[0]} vs {r.decks[1]}):\n{r.exception[2]}"
    return list(seen.values())
