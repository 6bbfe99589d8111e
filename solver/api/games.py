"""Starting whole games: decklists and the opening situation (CR 103).

Used by the agent environment (:mod:`solver.api.env`, optional extra ``env``)
and by the game tests and benchmarks, which need no extra.

Decks
-----
* :data:`REAL_DECKS` — the default decks of the environment and the game
  benchmark: two real, published decklists that were built to play each
  other, the Gold Deck and the Silver Deck of the Ninth Edition Core Game
  (2005). Their files, with the product and the source, are
  ``benchmarks/decks/games/ninth_edition_core_game_{gold,silver}.txt``;
  the module constants hold the same text so that an installed package needs
  no benchmark files (``tests/test_game_decks.py`` checks they agree).
* :data:`INVENTED_DECKS` — two invented 40-card decks (:data:`RED_DECK`,
  :data:`GREEN_DECK`) of cards the project models fully. They are kept while
  a real deck still holds a card with unread text: every game between them
  can be played to a winner.
* :func:`unmodeled` — the cards of a deck with a part the project does not
  read (contract §2.0; :func:`solver.rules.soundness.unread.card_parts`), with the printed
  lines. A game reaching such a part is refused (``UnsupportedActionError``)
  rather than guessed, so a deck is fit for whole games when this is empty.
"""
from __future__ import annotations

import random
from pathlib import Path
from typing import Iterable, Sequence

from .situation import Situation
from ..cards import canonical_name, get_card
from ..rules.soundness.unread import card_parts
from ..io.load import object_id_base
from ..engine.opening import OpeningDecision, start as start_mulligans

__all__ = ["RED_DECK", "GREEN_DECK", "INVENTED_DECKS", "NINTH_EDITION_GOLD", "NINTH_EDITION_SILVER", "REAL_DECKS",
           "DEFAULT_DECKS", "parse_decklist", "unmodeled", "initial_situation", "new_game", "deal_shuffled"]

#: Two simple invented 40-card decks of cards the project models fully (``mtgsolve cards show``).
RED_DECK = """\
# name: Simple red (fully modeled cards; an invented list, not a published deck)
17 Mountain
4 Raging Goblin
4 Hill Giant
4 Lightning Bolt
4 Shock
4 Gray Ogre
3 Canyon Minotaur
"""

GREEN_DECK = """\
# name: Simple green (fully modeled cards; an invented list, not a published deck)
17 Forest
4 Llanowar Elves
4 Grizzly Bears
4 Giant Growth
4 Craw Wurm
4 Giant Spider
3 Trained Armodon
"""

INVENTED_DECKS = (RED_DECK, GREEN_DECK)

#: benchmarks/decks/games/ninth_edition_core_game_gold.txt (the same text; tests/test_game_decks.py)
NINTH_EDITION_GOLD = """\
# name: Gold Deck (Ninth Edition Core Game)
# format: two-player starter (Ninth Edition Core Game, 2005; the same list as the Eighth Edition Core Game's Gold Deck, 2003)
# product: Ninth Edition Core Game, a two-player starter box: this Gold Deck (red-green) and the Silver Deck (white-blue), built to play each other
# source: github.com/taw/magic-preconstructed-decks, data/starter/9ed/Gold Deck.txt (its own source: https://mtg.fandom.com/wiki/Ninth_Edition/Core_Game)
# The list is copied unchanged (33 cards, no sideboard).
2 Norwood Ranger
2 Grizzly Bears
1 Spined Wurm
2 Enormous Baloth
1 Ogre Taskmaster
2 Hill Giant
2 Goblin Raider
1 Rampant Growth
2 Lava Axe
1 Stone Rain
2 Volcanic Hammer
7 Forest
8 Mountain
"""

#: benchmarks/decks/games/ninth_edition_core_game_silver.txt (the same text; tests/test_game_decks.py)
NINTH_EDITION_SILVER = """\
# name: Silver Deck (Ninth Edition Core Game)
# format: two-player starter (Ninth Edition Core Game, 2005)
# product: Ninth Edition Core Game, a two-player starter box: this Silver Deck (white-blue) and the Gold Deck (red-green), built to play each other
# source: github.com/taw/magic-preconstructed-decks, data/starter/9ed/Silver Deck.txt (its own source: https://mtg.fandom.com/wiki/Ninth_Edition/Core_Game)
# The list is copied unchanged (33 cards, no sideboard).
1 Eager Cadet
4 Glory Seeker
3 Giant Octopus
2 Vizzerdrix
2 Coral Eel
1 Fugitive Wizard
2 Sacred Nectar
2 Vengeance
1 Index
8 Plains
7 Island
"""

REAL_DECKS = (NINTH_EDITION_GOLD, NINTH_EDITION_SILVER)

#: The decks of :class:`solver.api.env.MtgEnv` and ``benchmarks/bench_games.py`` unless others are given.
DEFAULT_DECKS = REAL_DECKS


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


def unmodeled(deck: str | Path | Iterable[str]) -> dict[str, list[str]]:
    """The cards of ``deck`` (decklist text, a ``.txt`` path or names) that are
    not fully modeled: card name → the printed text of each unread part
    (:func:`solver.rules.soundness.unread.card_parts`, anywhere a game can put the card), or
    ``["not in the card database"]``. Empty when every card is fully modeled."""

    out: dict[str, list[str]] = {}
    for name in dict.fromkeys(_deck(deck)):
        canonical = canonical_name(name)
        if canonical is None:
            out[name] = ["not in the card database"]
            continue
        parts = card_parts(get_card(canonical))
        if parts:
            out[canonical] = [text for text, _kind, _affects in parts]
    return out


def initial_situation(decks: Sequence[list[str]], rng: random.Random,
                      players: Sequence[str] = ("alice", "bob"), hand_size: int = 7) -> Situation:
    """The opening without mulligans: each deck shuffled with ``rng``, seven cards drawn, the
    first of ``players`` (the first deck's) in the upkeep of turn 1 with priority (CR 103.2-103.8),
    no life lost yet. Card ids are fixed by deck position (``a07-lightning-bolt``), so the encoding
    is the same for every game between the same decks. :func:`new_game` is the whole set-up."""

    hand: dict[str, list] = {}
    library: dict[str, list] = {}
    for pid, deck in zip(players, decks):
        cards = [{"card": name, "id": f"{pid[0]}{k:02d}-{object_id_base(name)}"} for k, name in enumerate(deck)]
        rng.shuffle(cards)
        hand[pid], library[pid] = cards[:hand_size], cards[hand_size:]
    # the game's first turn: no one has lost life yet (CR 119.3; spectacle, 702.137a — the kernel counts on),
    # nothing has happened yet that a rule looks back at (turn.history: no creature died, no life gained …)
    return Situation.from_dict({"format": "mtgsolve/1",
                                "players": [{"id": pid, "life_lost_this_turn": 0} for pid in players],
                                "turn": {"number": 1, "active": players[0], "step": "upkeep", "history": {}},
                                "hand": hand, "library": library})


def new_game(decks: Sequence[list[str]], rng: random.Random, players: Sequence[str] = ("alice", "bob"),
             mulligans: bool = True) -> Situation:
    """A game's set-up (CR 103) from ``decks`` (``decks[k]`` is ``players[k]``'s), drawn with ``rng``:

    * the starting player chosen at random (CR 103.1; ``rng.randrange``), who is first in turn
      order — the seating stays ``players``' cyclic order (CR 101.4);
    * each deck shuffled and seven cards drawn (103.2, 103.4: :func:`initial_situation`);
    * with ``mulligans`` (default), the London mulligan as decisions of each player (103.5,
      :mod:`solver.engine.opening`): the situation returned has the starting player's ``mulligan``
      decision pending (``keep`` / ``mulligan``; then ``bottom <card>`` choices); answering it needs
      ``apply(..., rng=...)`` when a mulligan is taken (the new hand is a shuffle's draw). After the
      last decision the game is in the starting player's upkeep of turn 1 with priority; in a
      two-player game they skip the draw of that turn (103.8a), in multiplayer nobody does (103.8c).

    Card ids are fixed by deck position whoever starts, so the encoding of a game between the same
    decks is the same."""
    first = rng.randrange(len(players))
    order = list(range(first, len(players))) + list(range(first))
    sit = initial_situation([decks[k] for k in order], rng, [players[k] for k in order])
    if not mulligans:
        return sit
    decision = start_mulligans(sit.state)
    if isinstance(decision, OpeningDecision):
        return sit.successor(decision.state, decision)
    return sit.successor(decision)


def deal_shuffled(sit: Situation, rng: random.Random) -> Situation:
    """The dealer's shuffle: every library the situation marks ``shuffled`` (random order,
    CR 701.24; contract: its listed order is only canonical) put into one concrete order drawn
    with ``rng``, and no longer marked. A game run by one party that knows every library (the
    environment, seeded) uses it whenever a library becomes shuffled (after a search, CR
    701.23), so that later draws and "look at the top N cards" (CR 401.4) act on a known order,
    exactly as the physical game does: each order is equally likely, and the same seed deals the
    same order. Agents never observe library order. A situation without shuffled libraries, or
    with a pending decision (its state is the one the choice is made in), is returned as it is."""
    from dataclasses import replace

    state = sit.state
    if not state.shuffled or sit.decision is not None:
        return sit
    order: dict[str, int] = {}
    known = dict(state.known_top)
    for pid in state.shuffled:   # the known top cards (``known_top``) stay where they are
        lib = sorted(state.zone("library", pid), key=lambda o: (o.order, o.id))[known.get(pid, 0):]
        slots = [o.order for o in lib]
        rng.shuffle(lib)
        order.update((o.id, slot) for o, slot in zip(lib, slots))
    objects = tuple(o.with_(order=order[o.id]) if o.id in order else o for o in state.objects)
    new = type(sit)(replace(state, objects=objects, shuffled=(), known_top=()), source=sit.source)
    return new
