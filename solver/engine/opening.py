"""The start of the game (CR 103): the London mulligan as decisions of each player.

A game starts (:func:`solver.api.games.new_game`) with each player's deck shuffled and seven
cards drawn (CR 103.2, 103.4), the starting player chosen at random (103.1) and first in turn
order, and then the mulligan process of CR 103.5, one decision at a time:

* ``mulligan`` decisions: the starting player, then each other player in turn order, declares
  ``keep`` or ``mulligan`` (a player who has taken seven mulligans keeps: their opening hand
  would be zero cards);
* once each player still choosing has declared, every player who chose ``mulligan`` does so at
  the same time: shuffles their hand into their library and draws a new hand of seven (a random
  event, drawn with the caller's seeded generator: :class:`NeedsRandom` without one); the
  process repeats for them;
* a player who keeps after ``N`` mulligans puts ``N`` cards from their hand on the bottom of
  their library in any order: ``bottom`` decisions, one card at a time (each card goes under
  the ones put there before it: the last one chosen is the bottom card), one option per distinct
  card (interchangeable cards — same card, same owner — are one option: the situations they
  lead to are the same), so every distinct set and order is reached exactly once.

Deciding to keep and then choosing the cards (the order digital clients and the 2019
announcement of the rule use) reaches the same outcomes as putting the cards on the bottom as
the mulligan is taken: either way the player sees seven cards and keeps a subset of them, in an
order of their choice.

When no player is left to decide, the game begins: turn 1 of the starting player, in their
upkeep with priority (CR 103.8). Opening-hand actions (CR 103.6: Leylines, Chancellors) are
unread text (:mod:`solver.rules.soundness.unread`): a game whose opening hand holds one is
refused at its first step, never played as if the option did not exist. Decisions here are
values (:class:`OpeningDecision`): no state of the game's file format records a mulligan in
progress, as for the other decisions of :mod:`solver.engine.turns`.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any, Hashable

from ..core.state import GameObject, GameState
from ..rules.soundness.unread import card_parts
from .transition import _World, draw, move, renumber

__all__ = ["HAND_SIZE", "MulliganProgress", "OpeningOption", "OpeningDecision", "NeedsRandom", "start", "answer"]

HAND_SIZE = 7  # CR 103.4: the starting hand size


class NeedsRandom(ValueError):
    """Taking the mulligans shuffles libraries (CR 103.5): a seeded generator is needed."""


@dataclass(frozen=True)
class MulliganProgress:
    """Where the mulligan process is (CR 103.5): each player's ``taken`` mulligans; the players who
    still declare in this round, in turn order (``deciding``); those who declared ``mulligan`` in it
    (``going``); the players who kept; the player putting cards on the bottom and how many remain."""

    taken: tuple[tuple[str, int], ...]
    deciding: tuple[str, ...]
    going: tuple[str, ...] = ()
    kept: tuple[str, ...] = ()
    bottoming: tuple[str, int] | None = None

    def mulligans(self, player: str) -> int:
        return dict(self.taken)[player]


@dataclass(frozen=True)
class OpeningOption:
    """One option of an opening decision (the shape of :class:`solver.engine.turns.Option` that
    :mod:`solver.api.play` reads): ``kind``, the typed ``value`` (``keep``/``mulligan``, or the id of
    the card put on the bottom), its action string ``label`` and the ``choices`` it records."""

    kind: str
    value: str
    label: str
    choices: dict[str, Any]
    probability: None = None


@dataclass(frozen=True)
class OpeningDecision:
    """A decision of the opening: ``kind`` ``mulligan`` (keep or mulligan, CR 103.5) or ``bottom``
    (a card put on the bottom of the library), the ``player`` who makes it, its ``options``, the
    ``state`` it is made in and the process's ``progress``."""

    kind: str
    player: str
    options: tuple[OpeningOption, ...]
    state: GameState
    progress: MulliganProgress
    refusal: str | None = None   # unread text that acts "any time you could mulligan" (CR 103.5a)


def start(state: GameState) -> OpeningDecision | GameState:
    """The first decision of the mulligan process: the starting player (the active player of
    turn 1, first in turn order) declares first (CR 103.5). ``state``: each hand dealt."""
    players = _turn_order(state)
    return _next(state, MulliganProgress(tuple((p, 0) for p in players), players), None)


def answer(decision: OpeningDecision, option: OpeningOption,
           rng: random.Random | None = None) -> OpeningDecision | GameState:
    """The process after ``decision`` is answered with ``option``: the next decision, or the game's
    first state when every player has kept and put their cards on the bottom. ``rng`` shuffles the
    libraries of the players who take a mulligan (:class:`NeedsRandom` when it is needed and
    missing)."""
    state, p = decision.state, decision.progress
    if decision.kind == "bottom":
        state = _to_bottom(state, option.value)
        who, left = p.bottoming or (decision.player, 1)
        p = replace(p, bottoming=(who, left - 1) if left > 1 else None)
    elif option.value == "keep":
        p = _keep(p, decision.player)
    else:
        p = replace(p, deciding=p.deciding[1:], going=p.going + (decision.player,))
    return _next(state, p, rng)


def _keep(p: MulliganProgress, player: str) -> MulliganProgress:
    """CR 103.5: the hand is kept; after N mulligans, N cards go to the bottom."""
    n = p.mulligans(player)
    return replace(p, deciding=p.deciding[1:], kept=p.kept + (player,), bottoming=(player, n) if n else None)


def _next(state: GameState, p: MulliganProgress, rng: random.Random | None) -> OpeningDecision | GameState:
    """The next decision of the process, taking the mulligans when a round's declarations are made."""
    while True:
        if p.bottoming is not None:
            return _bottom_decision(state, p)
        if p.deciding:
            who = p.deciding[0]
            if p.mulligans(who) >= HAND_SIZE:   # a hand of zero cards: no further mulligan
                p = _keep(p, who)
                continue
            return _mulligan_decision(state, p)
        if not p.going:
            return state
        if rng is None:
            raise NeedsRandom("taking a mulligan shuffles the library (CR 103.5): give a seeded generator "
                              "(apply(..., rng=random.Random(seed)))")
        state = _take_mulligans(state, p.going, rng)
        taken = tuple((q, n + (q in p.going)) for q, n in p.taken)
        p = replace(p, taken=taken, deciding=p.going, going=())


def _mulligan_decision(state: GameState, p: MulliganProgress) -> OpeningDecision:
    who = p.deciding[0]
    n = p.mulligans(who)
    options = (OpeningOption("mulligan", "keep", "keep", {"mulligan": "keep", "mulligans": n}),
               OpeningOption("mulligan", "mulligan", "mulligan", {"mulligan": "mulligan", "mulligans": n + 1}))
    return OpeningDecision("mulligan", who, options, state, p, _mulligan_time_text(state, who))


def _mulligan_time_text(state: GameState, player: str) -> str | None:
    """CR 103.5a: an action a card allows "any time [its owner] could mulligan" (Serum Powder) is one
    more option of this decision; the project does not read such text, so the decision is refused
    (contract §2.0) rather than offered without it. The message names the card and its text."""
    for o in sorted(state.zone("hand", player), key=lambda o: o.id):
        for text, _kind, _affects in (card_parts(o.card) if o.card is not None else []):
            if "mulligan" in text.lower():
                return f"unsupported: {o.id}: {text} (an action any time its owner could mulligan, CR 103.5a)"
    return None


def _class(o: GameObject) -> Hashable:
    """Interchangeable cards of a hand at the start of the game: the same card of the same owner."""
    return (o.card, o.owner)


def _bottom_decision(state: GameState, p: MulliganProgress) -> OpeningDecision:
    assert p.bottoming is not None
    who, left = p.bottoming
    seen: dict[Hashable, str] = {}
    for o in sorted(state.zone("hand", who), key=lambda o: o.id):
        seen.setdefault(_class(o), o.id)
    options = tuple(OpeningOption("bottom", oid, f"bottom {oid}", {"bottom": oid, "left": left - 1})
                    for oid in sorted(seen.values()))
    return OpeningDecision("bottom", who, options, state, p)


def _to_bottom(state: GameState, oid: str) -> GameState:
    """CR 103.5: the card goes from its owner's hand to the bottom of their library (CR 400.7:
    the zone change; it keeps its timestamp, which no rule reads there)."""
    w = _World(state)
    move(w, oid, "library", timestamp=w.objects[oid].timestamp)
    return renumber(state, w.objects.values())


def _take_mulligans(state: GameState, players: tuple[str, ...], rng: random.Random) -> GameState:
    """CR 103.5: each player of ``players`` (in turn order) shuffles the cards of their hand into
    their library (CR 701.24: every order equally likely, drawn with ``rng``) and draws seven."""
    w = _World(state)
    for pid in players:
        for o in sorted(w.zone_list("hand", pid), key=lambda o: o.order):
            move(w, o.id, "library", timestamp=o.timestamp)
        library = sorted(w.zone_list("library", pid), key=lambda o: (o.order, o.id))
        slots = [o.order for o in library]
        rng.shuffle(library)
        for o, slot in zip(library, slots):
            w.put(o.with_(order=slot))
        for _ in range(HAND_SIZE):
            if draw(w, pid) is None:
                break
    return renumber(state, w.objects.values())


def _turn_order(state: GameState) -> tuple[str, ...]:
    """The players in turn order from the active player (the starting player, CR 103.1)."""
    ids = list(state.player_ids)
    i = ids.index(state.turn.active) if state.turn.active in ids else 0
    return tuple(ids[i:] + ids[:i])

