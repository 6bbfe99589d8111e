"""Game events the transition kernel records as it changes the game, for triggered abilities
(CR 603.2: an ability triggers whenever its trigger event occurs). The kernel
(:mod:`solver.engine.transition`) appends them to the world it changes; the rules layer
(:mod:`solver.rules.triggers`) says which triggered abilities each one triggers; the kernel then
queues those to be put on the stack (CR 603.3).

Each event is a small frozen value naming objects by id; an event that looks back in time
(a permanent leaving the battlefield, CR 603.10a) carries the object as it last existed.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .state import GameObject

__all__ = ["GameEvent", "Entered", "LeftBattlefield", "SpellCast", "LifeGained", "CardDrawn", "DamageDealt",
           "Attacked", "Blocked"]


@dataclass(frozen=True)
class GameEvent:
    """The base of the events below (CR 603.2)."""


@dataclass(frozen=True)
class Entered(GameEvent):
    """``oid`` entered the battlefield (CR 603.6a; checked after the event: the permanent as it is);
    ``tapped``: it entered tapped ("whenever a permanent you control enters tapped")."""

    oid: str
    tapped: bool = False


@dataclass(frozen=True)
class LeftBattlefield(GameEvent):
    """``before`` (the permanent as it last existed on the battlefield, CR 603.10a) left the
    battlefield for ``zone``; ``creature``: it was a creature then; ``dies_ok``: a move to the
    graveyard that is a death (CR 700.4); ``chars``: its characteristics then (the rules view's
    ``Chars``); ``abilities``: the abilities it had then (CR 603.10a: its own leaves-the-battlefield
    abilities, and those that look at others leaving with it)."""

    before: GameObject
    zone: str
    creature: bool
    dies_ok: bool = True
    chars: Any = None
    abilities: tuple[Any, ...] = ()


@dataclass(frozen=True)
class SpellCast(GameEvent):
    """Spell ``stack_id`` became cast by ``player`` (CR 601.2i)."""

    stack_id: str
    player: str
    nth: int | None = None   # the caster's spells this turn, this one included (None: not recorded)


@dataclass(frozen=True)
class LifeGained(GameEvent):
    """``player`` gained ``amount`` life (CR 119.3, 119.9)."""

    player: str
    amount: int


@dataclass(frozen=True)
class CardDiscarded(GameEvent):
    """``player`` discarded the card ``oid`` (CR 701.9a: moved from their hand to their graveyard; the
    card keeps its id there)."""

    player: str
    oid: str


@dataclass(frozen=True)
class CardDrawn(GameEvent):
    """``player`` drew a card (CR 121.1)."""

    player: str


@dataclass(frozen=True)
class DamageDealt(GameEvent):
    """``source`` dealt ``amount`` damage to ``target`` (a player or a permanent; what was prevented
    is not dealt, CR 615), combat damage when ``combat`` (CR 120.1, 510.2)."""

    source: str
    target: str
    amount: int
    combat: bool = False


@dataclass(frozen=True)
class Attacked(GameEvent):
    """``player`` declared ``attackers`` as attacking creatures (CR 508.1, 508.3a)."""

    player: str
    attackers: tuple[str, ...]


@dataclass(frozen=True)
class Blocked(GameEvent):
    """Blockers were declared: ``blocks`` pairs each blocking creature with the attackers it blocks
    (CR 509.1, 509.3c–d)."""

    blocks: tuple[tuple[str, tuple[str, ...]], ...]
    unblocked: tuple[str, ...] = ()   # the attacking creatures no creature blocks (CR 509.1h)
