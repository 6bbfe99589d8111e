"""Starting whole games: decklists and the opening situation (CR 103).

Used by the agent environment (:mod:`solver.env`, optional extra ``env``)
and by the game tests and benchmarks, which need no extra.
"""
from __future__ import annotations

import random
from pathlib import Path
from typing import Iterable

from .api import Situation

__all__ = ["RED_DECK", "GREEN_DECK", "parse_decklist", "initial_situation"]

#: Two simple 40-card decks of cards the project models fully (``mtgsolve cards show``).
RED_DECK = """\
# name: Simple red (fully modeled cards)
17 Mountain
4 Raging Goblin
4 Hill Giant
4 Lightning Bolt
4 Shock
4 Gray Ogre
3 Canyon Minotaur
"""

GREEN_DECK = """\
# name: Simple green (fully modeled cards)
17 Forest
4 Llanowar Elves
4 Grizzly Bears
4 Giant Growth
4 Craw Wurm
4 Giant Spider
3 Trained Armodon
"""

def parse_decklist(text: str) -> list[str]:
    """``N Card Name`` lines (``#`` comments, blank lines ignored) → card names, in order."""
    out: list[str] = []
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        n, _, name = line.partition(" ")
        if not n.isdigit() or not name.strip():
            raise ValueError(f"decklist line {line!r}: expected 'N Card Name'")
        out += [name.strip()] * int(n)
    return out


def _deck(d: str | Path | Iterable[str]) -> list[str]:
    if isinstance(d, Path) or (isinstance(d, str) and "\n" not in d and d.endswith(".txt")):
        return parse_decklist(Path(d).read_text())
    if isinstance(d, str):
        return parse_decklist(d)
    return list(d)


def initial_situation(decks: tuple[list[str], list[str]], rng: random.Random,
                      players: tuple[str, str] = ("alice", "bob"), hand_size: int = 7) -> Situation:
    """The opening: each deck shuffled with ``rng``, seven cards drawn, the
    first player in the upkeep of turn 1 with priority. Card ids are fixed by
    deck position (``a07-lightning-bolt``), so the encoding is the same for
    every game between the same decks."""
    from .situation import object_id_base

    hand: dict[str, list] = {}
    library: dict[str, list] = {}
    for pid, deck in zip(players, decks):
        cards = [{"card": name, "id": f"{pid[0]}{k:02d}-{object_id_base(name)}"} for k, name in enumerate(deck)]
        rng.shuffle(cards)
        hand[pid], library[pid] = cards[:hand_size], cards[hand_size:]
    return Situation.from_dict({"format": "mtgsolve/1", "players": list(players),
                                "turn": {"number": 1, "active": players[0], "step": "upkeep"},
                                "hand": hand, "library": library})
