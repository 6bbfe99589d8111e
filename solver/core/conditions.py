"""Conditions of abilities (CR 602.5b, 602.5d, 602.5e, 611.3a): one frozen dataclass per kind,
each holding only its own fields, under the common base :class:`ActivationCondition`.

They restrict when an ability may be activated ("Activate only if you control five or more
lands", "Activate only as a sorcery"), when a static applies ("As long as it's your turn", CR
611.3a) and when a mana ability's rider or alternative production happens ("If you control a
God, …", read as it resolves, CR 608.2h). :mod:`solver.rules.conditions` evaluates them,
dispatching on the class; ``kind`` is a read-only class-level name of the kind. Every class is
also importable from :mod:`solver.core.ir`.
"""
from __future__ import annotations

from dataclasses import dataclass, fields, is_dataclass
from functools import lru_cache
from typing import Any, ClassVar, Iterable

from .selectors import Selector

__all__ = [
    "ActivationCondition", "ControlCount", "ControlAtMost", "ControlPower", "CountersOnSource", "EnteredThisTurn", "IsCreature",
    "YourTurn", "OpponentTurn", "DuringSteps", "PlayedLandThisTurn", "SorceryTime", "InstantTime", "GraveyardCard", "TotalPower", "OpponentPoison",
    "SameNameLands", "GraveyardCount", "Equipped", "AttachedToCreature", "SourceAttacking", "SourceUntapped", "SourceTapped", "GraveyardTypes",
    "CompoundCondition", "AnyCondition", "AllConditions", "OpponentControls", "HandExactly",
    "CreatureDiedThisTurn", "GainedLifeThisTurn", "AttackedThisTurn", "HISTORY_CONDITIONS", "reads_history",
    "CONDITION_CLASSES", "condition_classes",
]


@dataclass(frozen=True)
class ActivationCondition:
    """A condition of an ability (CR 602.5b: "Activate only if …"; CR 611.3a: "as long as …"):
    the base of every condition kind."""

    kind: ClassVar[str] = ""

    def describe(self) -> str:
        return self.kind


# --------------------------------------------------------------------------
# What you control (CR 602.5b)
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class ControlCount(ActivationCondition):
    """You control at least ``n`` permanents in ``selector`` ("Activate only if you control a
    Swamp or a Mountain", "… five or more lands"; CR 602.5b)."""

    kind: ClassVar[str] = "control"
    selector: "Selector | None" = None
    n: int = 1

    def describe(self) -> str:
        sel = self.selector
        if sel is not None and self.n == 1 and len(sel.subtypes) > 1 and not sel.types:
            # "a Swamp or a Mountain": any of the subtypes
            return "you control " + " or ".join(f"a {t}" for t in sorted(sel.subtypes))
        what = sel.describe() if sel else "permanents"
        return f"you control {self.n} or more {what.replace(' you control', '')}"


@dataclass(frozen=True)
class ControlAtMost(ActivationCondition):
    """You control at most ``n`` permanents in ``selector`` ("… enters tapped unless you control two
    or fewer other lands", CR 614.1c; read only in "enters tapped unless", where the condition is
    read as the permanent would enter, CR 614.12)."""

    kind: ClassVar[str] = "control_at_most"
    selector: "Selector | None" = None
    n: int = 0

    def describe(self) -> str:
        what = self.selector.describe() if self.selector else "permanents"
        return f"you control {self.n} or fewer {what.replace(' you control', '')}"


@dataclass(frozen=True)
class ControlPower(ActivationCondition):
    """You control a creature with power ``n`` or greater (ferocious, CR 207.2c)."""

    kind: ClassVar[str] = "control_power"
    n: int = 1

    def describe(self) -> str:
        return f"you control a creature with power {self.n} or greater"


@dataclass(frozen=True)
class TotalPower(ActivationCondition):
    """Creatures you control have total power ``n`` or greater (formidable, CR 207.2c: the sum of
    their powers, negative ones included)."""

    kind: ClassVar[str] = "total_power"
    n: int = 1

    def describe(self) -> str:
        return f"creatures you control have total power {self.n} or greater"


@dataclass(frozen=True)
class SameNameLands(ActivationCondition):
    """You control ``n`` or more lands with the same name (CR 201.2)."""

    kind: ClassVar[str] = "same_name_lands"
    n: int = 1

    def describe(self) -> str:
        return f"you control {self.n} or more lands with the same name"


@dataclass(frozen=True)
class OpponentControls(ActivationCondition):
    """An opponent controls ``n`` or more permanents with all of ``selector``'s types ("Activate
    only if an opponent controls four or more lands", CR 602.5b; activated abilities only)."""

    kind: ClassVar[str] = "opponent_controls"
    selector: "Selector | None" = None
    n: int = 1

    def describe(self) -> str:
        return f"an opponent controls {self.n} or more {self.selector.describe() if self.selector else 'permanents'}"


# --------------------------------------------------------------------------
# The source (CR 602.5b, 611.3a)
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class CountersOnSource(ActivationCondition):
    """This permanent has at least ``n`` ``counter`` counters (CR 122.1)."""

    kind: ClassVar[str] = "counters"
    n: int = 1
    counter: str = ""

    def describe(self) -> str:
        return f"this permanent has {self.n} or more {self.counter} counters"


@dataclass(frozen=True)
class EnteredThisTurn(ActivationCondition):
    """This permanent entered the battlefield this turn (object key ``entered_this_turn``, CR 602.5b)."""

    kind: ClassVar[str] = "entered_this_turn"

    def describe(self) -> str:
        return "this permanent entered this turn"


@dataclass(frozen=True)
class IsCreature(ActivationCondition):
    """This permanent is a creature (CR 602.5b; a manland's own ability)."""

    kind: ClassVar[str] = "is_creature"

    def describe(self) -> str:
        return "this permanent is a creature"


@dataclass(frozen=True)
class Equipped(ActivationCondition):
    """An Equipment is attached to this permanent (CR 301.5; statics only, CR 611.3a)."""

    kind: ClassVar[str] = "equipped"

    def describe(self) -> str:
        return "this permanent is equipped"


@dataclass(frozen=True)
class AttachedToCreature(ActivationCondition):
    """This permanent is attached to a creature (CR 702.151a: reconfigure's "Activate only if this
    permanent is attached to a creature")."""

    kind: ClassVar[str] = "attached_to_creature"

    def describe(self) -> str:
        return "this permanent is attached to a creature"


@dataclass(frozen=True)
class SourceAttacking(ActivationCondition):
    """This permanent is attacking (CR 506.4; statics only, CR 611.3a)."""

    kind: ClassVar[str] = "attacking"

    def describe(self) -> str:
        return "this permanent is attacking"


@dataclass(frozen=True)
class SourceUntapped(ActivationCondition):
    """This permanent is untapped (CR 110.5; statics only, CR 611.3a)."""

    kind: ClassVar[str] = "untapped"

    def describe(self) -> str:
        return "this permanent is untapped"


@dataclass(frozen=True)
class SourceTapped(ActivationCondition):
    """This permanent is tapped (CR 110.5; an intervening "if" of its triggered ability, CR 603.4:
    "At the beginning of your draw step, if this artifact is tapped, …")."""

    kind: ClassVar[str] = "tapped"

    def describe(self) -> str:
        return "this permanent is tapped"


# --------------------------------------------------------------------------
# Turn and timing (CR 117, 307.1, 602.5d)
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class YourTurn(ActivationCondition):
    """During your turn (CR 602.5b, 611.3a)."""

    kind: ClassVar[str] = "your_turn"

    def describe(self) -> str:
        return "during your turn"


@dataclass(frozen=True)
class DuringSteps(ActivationCondition):
    """During one of ``steps`` (names of :data:`solver.core.state.STEPS`) — of your turn when ``yours``
    (CR 602.5b: "Activate only during your upkeep", "… during combat", "… during your turn, before
    attackers are declared": the steps of the turn before its declare attackers step, CR 508.1)."""

    kind: ClassVar[str] = "during_steps"
    steps: frozenset[str] = frozenset()
    yours: bool = False

    def describe(self) -> str:
        whose = "your " if self.yours else ""
        return f"during {whose}" + " or ".join(s.replace("_", " ") for s in sorted(self.steps))


@dataclass(frozen=True)
class PlayedLandThisTurn(ActivationCondition):
    """"If you played a land this turn" (CR 305.1: playing a land is a special action; the turn's
    ``lands_played``, which counts the active player's — a player plays lands only during their own
    turn, CR 305.2, 505.6b, unless an effect says otherwise)."""

    kind: ClassVar[str] = "played_land_this_turn"

    def describe(self) -> str:
        return "if you played a land this turn"


@dataclass(frozen=True)
class OpponentTurn(ActivationCondition):
    """During an opponent's turn (CR 602.5b)."""

    kind: ClassVar[str] = "opponent_turn"

    def describe(self) -> str:
        return "during an opponent's turn"


@dataclass(frozen=True)
class SorceryTime(ActivationCondition):
    """"Activate only as a sorcery": when you could cast a sorcery (CR 602.5d, 307.1: your main
    phase, empty stack)."""

    kind: ClassVar[str] = "sorcery"

    def describe(self) -> str:
        return "as a sorcery"


@dataclass(frozen=True)
class InstantTime(ActivationCondition):
    """"Activate only as an instant": whenever you could cast an instant (CR 602.5d, 117.1: any
    time you have priority)."""

    kind: ClassVar[str] = "instant"

    def describe(self) -> str:
        return "as an instant"


# --------------------------------------------------------------------------
# Zones and players (CR 122.1f, 205.2a, 404)
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class GraveyardCard(ActivationCondition):
    """There is a card with one of ``selector``'s subtypes in your graveyard ("if there is an Elf
    card in your graveyard", CR 404)."""

    kind: ClassVar[str] = "graveyard_card"
    selector: "Selector | None" = None

    def describe(self) -> str:
        if self.selector is None:
            return self.kind
        return f"there is a {'/'.join(sorted(self.selector.subtypes))} card in your graveyard"


@dataclass(frozen=True)
class GraveyardCount(ActivationCondition):
    """``n`` or more cards are in your graveyard (threshold, CR 207.2c); with ``types``, cards of any of
    those card types as printed ("three or more land cards in your graveyard", CR 205.2a)."""

    kind: ClassVar[str] = "graveyard_count"
    n: int = 1
    types: frozenset[str] = frozenset()

    def describe(self) -> str:
        what = " or ".join(sorted(t.lower() for t in self.types)) + " " if self.types else ""
        return f"there are {self.n} or more {what}cards in your graveyard"

    def counts(self, card_types: Iterable[str]) -> bool:
        """Does a card of these printed card types count?"""
        return not self.types or bool(self.types & set(card_types))


@dataclass(frozen=True)
class GraveyardTypes(ActivationCondition):
    """``n`` or more card types among cards in your graveyard (delirium, CR 205.2a)."""

    kind: ClassVar[str] = "graveyard_types"
    n: int = 1

    def describe(self) -> str:
        return f"there are {self.n} or more card types among cards in your graveyard"


@dataclass(frozen=True)
class OpponentPoison(ActivationCondition):
    """An opponent has ``n`` or more poison counters (CR 122.1f)."""

    kind: ClassVar[str] = "opponent_poison"
    n: int = 1

    def describe(self) -> str:
        return f"an opponent has {self.n} or more poison counters"


@dataclass(frozen=True)
class HandExactly(ActivationCondition):
    """You have exactly ``n`` cards in hand (CR 402; activated abilities only)."""

    kind: ClassVar[str] = "hand_exactly"
    n: int = 1

    def describe(self) -> str:
        return f"you have exactly {self.n} cards in hand"


# --------------------------------------------------------------------------
# Combinations (CR 602.5b: "Activate only if … and …")
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class CompoundCondition(ActivationCondition):
    """A combination of the conditions ``parts`` (CR 602.5b)."""

    parts: tuple[ActivationCondition, ...] = ()


@dataclass(frozen=True)
class AnyCondition(CompoundCondition):
    """One of ``parts`` holds (CR 602.5b: "… or …")."""

    kind: ClassVar[str] = "any"

    def describe(self) -> str:
        return " or ".join(p.describe() for p in self.parts)


@dataclass(frozen=True)
class AllConditions(CompoundCondition):
    """Each of ``parts`` holds (CR 602.5b: "… and …")."""

    kind: ClassVar[str] = "all"

    def describe(self) -> str:
        return " and ".join(p.describe() for p in self.parts)


# --------------------------------------------------------------------------
# What happened this turn (the turn's history, ``turn.history``; issue 27)
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class CreatureDiedThisTurn(ActivationCondition):
    """"If a creature died this turn" (morbid; CR 700.4: a creature put into a graveyard from the
    battlefield this turn, any player's, a token's too)."""

    kind: ClassVar[str] = "creature_died_this_turn"

    def describe(self) -> str:
        return "a creature died this turn"


@dataclass(frozen=True)
class GainedLifeThisTurn(ActivationCondition):
    """"If you gained life this turn" (CR 119.3: you gained 1 or more life this turn)."""

    kind: ClassVar[str] = "gained_life_this_turn"

    def describe(self) -> str:
        return "you gained life this turn"


@dataclass(frozen=True)
class AttackedThisTurn(ActivationCondition):
    """"If you attacked this turn" (raid, ``n`` 1) / "if you attacked with ``n`` or more creatures this
    turn" (CR 508.1: you declared that many creatures as attackers this turn)."""

    kind: ClassVar[str] = "attacked_this_turn"
    n: int = 1

    def describe(self) -> str:
        return "you attacked this turn" if self.n == 1 else f"you attacked with {self.n} or more creatures this turn"


#: The conditions that look back at this turn (read from ``turn.history``; refused where it is not recorded).
HISTORY_CONDITIONS: tuple[type[ActivationCondition], ...] = (CreatureDiedThisTurn, GainedLifeThisTurn, AttackedThisTurn)


def reads_history(abilities: Any) -> bool:
    """Does any of ``abilities`` (read abilities: a tuple of IR values) hold a condition that looks back
    at this turn (:data:`HISTORY_CONDITIONS`)? A walk of their fields."""
    try:
        return _reads_cached(abilities)
    except TypeError:   # an unhashable value
        return _reads(abilities)


@lru_cache(maxsize=8192)
def _reads_cached(abilities: Any) -> bool:
    return _reads(abilities)


def _reads(v: Any) -> bool:
    if isinstance(v, HISTORY_CONDITIONS):
        return True
    if isinstance(v, (tuple, list, frozenset)):
        return any(_reads(x) for x in v)
    if is_dataclass(v) and not isinstance(v, type):
        return any(_reads(getattr(v, f.name)) for f in fields(v))
    return False


#: Every condition kind.
CONDITION_CLASSES: tuple[type[ActivationCondition], ...] = (
    ControlCount, ControlAtMost, ControlPower, TotalPower, SameNameLands, OpponentControls, CountersOnSource, EnteredThisTurn,
    IsCreature, Equipped, AttachedToCreature, SourceAttacking, SourceUntapped, SourceTapped, YourTurn, OpponentTurn, DuringSteps, PlayedLandThisTurn, SorceryTime, InstantTime,
    GraveyardCard, GraveyardCount, GraveyardTypes, OpponentPoison, HandExactly, AnyCondition, AllConditions,
    CreatureDiedThisTurn, GainedLifeThisTurn, AttackedThisTurn)


def condition_classes(cond: ActivationCondition | None) -> set[type[ActivationCondition]]:
    """The kinds of a condition and of all its parts (CR 602.5b)."""
    if cond is None:
        return set()
    out: set[type[ActivationCondition]] = {type(cond)}
    if isinstance(cond, CompoundCondition):
        for p in cond.parts:
            out |= condition_classes(p)
    return out
