"""Mana production (CR 106, 605): what a mana ability adds (:class:`Produce`) and the
additional effects of its resolution (:class:`ManaRider`), one frozen dataclass per kind, each
holding only its own fields; and :func:`describe_spell_filter`, the words of a spell
description they and the IR share. :mod:`solver.rules.mana_sources` and
:mod:`solver.rules.mana_riders` dispatch on the class; ``kind`` is a read-only class-level name
of the kind. Every name is also importable from :mod:`solver.core.ir`.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import ClassVar

from .mana import Mana

from .conditions import ActivationCondition
from .selectors import Count, Filter, Selector, describe_spell_filter

__all__ = [
    "Produce", "FixedMana", "ManaChoice", "AnyColor", "AnyType", "Combination", "CouldProduce",
    "SacrificedCouldProduce", "ThatLandProduced", "ChosenColor", "CountedMana", "DifferentColors", "AmongColors",
    "CommanderIdentity", "PRODUCE_CLASSES", "fixed", "choice",
    "ManaRider", "SkipUntapRider", "AddCountersRider", "SacrificeIfNone", "LifeRider", "GainLifeRider",
    "LoseLifeRider", "DrawRider", "RIDER_CLASSES", "describe_spell_filter",
]



@dataclass(frozen=True)
class Produce:
    """What a mana ability adds (CR 106.1, 605): the base of the production kinds below, one
    class each. ``instead``: "If <condition>, add … instead" — another production used when
    the condition holds as the ability resolves (CR 608.2h). ``kind`` is a read-only
    class-level name of the kind.

    The reads every production answers — ``options`` (the mana amounts it names),
    ``amount`` (how many mana), ``count`` (a variable amount, CR 107.3), ``selector``,
    ``of_type``, ``among`` — are the kind's own fields where it has them and these class-level
    defaults otherwise (nothing named, one mana, no variable amount)."""

    kind: ClassVar[str] = ""
    instead: "tuple[ActivationCondition, Produce] | None" = field(default=None, kw_only=True)

    @property
    def options(self) -> tuple[Mana, ...]:
        return ()

    @property
    def amount(self) -> int:
        return 1

    @property
    def count(self) -> "Count | None":
        return None

    @property
    def selector(self) -> "Selector | None":
        return None

    @property
    def of_type(self) -> bool:
        return False

    @property
    def among(self) -> "tuple[Filter, ...]":
        return ()

    def describe(self) -> str:
        if self.instead is not None:
            base = replace(self, instead=None).describe()
            return f"{base}; if {self.instead[0].describe()}, {self.instead[1].describe()} instead"
        return self._text()

    def _text(self) -> str:
        return self.kind


@dataclass(frozen=True)
class FixedMana(Produce):
    """``options`` holds one amount, added as it is (``{C}{C}``; CR 106.1)."""

    kind: ClassVar[str] = "fixed"
    options: tuple[Mana, ...] = ()

    def _text(self) -> str:
        return self.options[0].text


@dataclass(frozen=True)
class ManaChoice(Produce):
    """One of ``options`` ("{W}{W}, {W}{B}, or {B}{B}", "{R} or {G}"; CR 106.1); with ``count``
    each option is scaled by it ("X {G} or X {W}", CR 107.3)."""

    kind: ClassVar[str] = "choice"
    options: tuple[Mana, ...] = ()
    count: "Count | None" = None

    def _text(self) -> str:
        if self.count is not None:
            return " or ".join("X " + o.text for o in self.options) + f", where X is {self.count.describe()}"
        return " or ".join(o.text for o in self.options)


@dataclass(frozen=True)
class AnyColor(Produce):
    """``amount`` mana of one chosen color (CR 106.1b); with ``count``, X mana of any one color,
    where X is it (CR 107.3)."""

    kind: ClassVar[str] = "any_color"
    amount: int = 1
    count: "Count | None" = None

    def _text(self) -> str:
        if self.count is not None:
            return f"X mana of any one color, where X is {self.count.describe()}"
        return f"{self.amount} mana of any one color"


@dataclass(frozen=True)
class AnyType(Produce):
    """``amount`` mana of one chosen type (colorless included, CR 106.1)."""

    kind: ClassVar[str] = "any_type"
    amount: int = 1

    def _text(self) -> str:
        return f"{self.amount} mana of any one type"


@dataclass(frozen=True)
class Combination(Produce):
    """``amount`` mana in any combination of colors (CR 106.1b); with ``options`` (one-mana
    units) only those types; with ``count`` a variable amount ("X mana in any combination of
    {U} and/or {R}", CR 107.3)."""

    kind: ClassVar[str] = "combination"
    options: tuple[Mana, ...] = ()
    amount: int = 1
    count: "Count | None" = None

    def _text(self) -> str:
        if self.count is not None:
            kinds = " and/or ".join(o.text for o in self.options) or "colors"
            return f"X mana in any combination of {kinds}, where X is {self.count.describe()}"
        return f"{self.amount} mana in any combination of colors"


@dataclass(frozen=True)
class CouldProduce(Produce):
    """One mana of any color (``of_type`` False) or type (True) that a permanent in ``selector``
    could produce (CR 106.7)."""

    kind: ClassVar[str] = "could_produce"
    selector: "Selector | None" = None
    of_type: bool = False

    def _text(self) -> str:
        if self.selector is None:
            return self.kind
        return f"one mana of any {'type' if self.of_type else 'color'} that {self.selector.describe()} could produce"


@dataclass(frozen=True)
class SacrificedCouldProduce(Produce):
    """One mana of any type (``of_type``) or color the sacrificed permanent could produce (CR 106.7)."""

    kind: ClassVar[str] = "sacrificed_could_produce"
    of_type: bool = False

    def _text(self) -> str:
        return "one mana of any type the sacrificed permanent could produce"


@dataclass(frozen=True)
class ThatLandProduced(Produce):
    """(A triggered mana ability) one mana of any type that land produced (CR 106.12a, 605.1b)."""

    kind: ClassVar[str] = "that_land_produced"

    def _text(self) -> str:
        return "one mana of any type that land produced"


@dataclass(frozen=True)
class ChosenColor(Produce):
    """``amount`` mana of the color chosen for the source as it entered (its ``chosen`` color,
    :class:`EntersWith`), or one of ``options`` ("{R} or one mana of the chosen color"); with no
    color chosen that part adds nothing (CR 106.5: mana of an undefined type)."""

    kind: ClassVar[str] = "chosen_color"
    options: tuple[Mana, ...] = ()
    amount: int = 1

    def _text(self) -> str:
        return " or ".join([o.text for o in self.options] + [f"{self.amount} mana of the chosen color"])


@dataclass(frozen=True)
class CountedMana(Produce):
    """``options[0]`` once for each permanent counted by ``count`` (or ``count``'s amount, see
    :class:`Count`; CR 107.3)."""

    kind: ClassVar[str] = "count"
    options: tuple[Mana, ...] = ()
    count: "Count | None" = None

    def _text(self) -> str:
        if self.count is None:
            return self.kind
        return f"{self.options[0].text} for each of {self.count.describe()}"


@dataclass(frozen=True)
class DifferentColors(Produce):
    """``amount`` mana of different colors (one of each of ``amount`` distinct colors: "two mana
    of different colors", CR 106.1b)."""

    kind: ClassVar[str] = "different_colors"
    amount: int = 1

    def _text(self) -> str:
        return f"{self.amount} mana of different colors"


@dataclass(frozen=True)
class AmongColors(Produce):
    """One mana of any color (``each``: of each color) among the permanents you control that match one of ``among``
    (characteristics now, CR 105.2, 106.5: none of those permanents colored, no mana) — "any
    color among legendary creatures and planeswalkers you control"; a filter with ``zone``
    ``graveyard`` looks at the cards in your graveyard instead."""

    kind: ClassVar[str] = "among_colors"
    among: "tuple[Filter, ...]" = ()
    each: bool = False   # "For each color among permanents you control, add one mana of that color"

    def _text(self) -> str:
        what = " or ".join(describe_spell_filter(f)[:-len(" spells")] +
                           (" cards in your graveyard" if f.zone == "graveyard" else " permanents you control")
                           for f in self.among)
        return f"one mana of {'each' if self.each else 'any'} color among {what}"


@dataclass(frozen=True)
class CommanderIdentity(Produce):
    """One mana of any color in the color identity of the controller's commander(s) (CR 903.4;
    objects marked ``commander``, in any zone); with no commander, no mana (CR 903.4f)."""

    kind: ClassVar[str] = "commander_identity"

    def _text(self) -> str:
        return "one mana of any color in your commander's color identity"


#: Every production kind.
PRODUCE_CLASSES: tuple[type[Produce], ...] = (
    FixedMana, ManaChoice, AnyColor, AnyType, Combination, CouldProduce, SacrificedCouldProduce, ThatLandProduced,
    ChosenColor, CountedMana, DifferentColors, AmongColors, CommanderIdentity)


def fixed(text: str) -> Produce:
    return FixedMana((Mana.parse(text),))


def choice(*texts: str) -> Produce:
    return ManaChoice(tuple(Mana.parse(t) for t in texts))


@dataclass(frozen=True)
class ManaRider:
    """An additional effect of an activated mana ability, part of its resolution
    (CR 605.1a: a mana ability may have effects besides adding mana; it resolves
    immediately, CR 605.3b): the base of the rider kinds below, one class each.

    ``condition``: the rider happens only if it holds as the ability resolves
    ("If you control a God, … you gain 1 life"; :class:`ActivationCondition`).
    ``kind`` is a read-only class-level name of the kind."""

    kind: ClassVar[str] = ""
    condition: "ActivationCondition | None" = field(default=None, kw_only=True)

    def describe(self) -> str:
        out = self._text()
        return f"if {self.condition.describe()}, {out}" if self.condition is not None else out

    def _text(self) -> str:
        return self.kind


@dataclass(frozen=True)
class SkipUntapRider(ManaRider):
    """"This land doesn't untap during your next untap step" (CR 502.3: an effect that keeps
    it tapped; object key ``skip_untap``)."""

    kind: ClassVar[str] = "skip_untap"

    def _text(self) -> str:
        return "this permanent doesn't untap during your next untap step"


@dataclass(frozen=True)
class AddCountersRider(ManaRider):
    """Put ``n`` ``counter`` counters on this permanent (CR 122.1)."""

    kind: ClassVar[str] = "add_counters"
    n: int = 1
    counter: str = ""

    def _text(self) -> str:
        return f"put {self.n} {self.counter} counter(s) on this permanent"


@dataclass(frozen=True)
class SacrificeIfNone(ManaRider):
    """"If there are no ``counter`` counters on this land, sacrifice it" (depletion lands;
    checked after the cost removed one, CR 701.21)."""

    kind: ClassVar[str] = "sacrifice_if_none"
    counter: str = ""

    def _text(self) -> str:
        return f"if there are no {self.counter} counters on this permanent, sacrifice it"


@dataclass(frozen=True)
class LifeRider(ManaRider):
    """``who`` (``you``, ``each_opponent``, ``each_player``) gains or loses ``n`` life
    (CR 119.3); ``verb`` says which."""

    verb: ClassVar[str] = ""
    n: int = 1
    who: str = "you"

    def _text(self) -> str:
        who = {"you": "you", "each_opponent": "each opponent", "each_player": "each player"}[self.who]
        return f"{who} {self.verb}{'s' if who != 'you' else ''} {self.n} life"


@dataclass(frozen=True)
class GainLifeRider(LifeRider):
    """``who`` gains ``n`` life (CR 119.3)."""

    kind: ClassVar[str] = "gain_life"
    verb: ClassVar[str] = "gain"


@dataclass(frozen=True)
class LoseLifeRider(LifeRider):
    """``who`` loses ``n`` life (CR 119.3)."""

    kind: ClassVar[str] = "lose_life"
    verb: ClassVar[str] = "lose"


@dataclass(frozen=True)
class DrawRider(ManaRider):
    """You draw ``n`` cards (CR 121.1)."""

    kind: ClassVar[str] = "draw"
    n: int = 1

    def _text(self) -> str:
        return f"draw {self.n} card(s)"


#: Every mana-rider kind.
RIDER_CLASSES: tuple[type[ManaRider], ...] = (SkipUntapRider, AddCountersRider, SacrificeIfNone, GainLifeRider,
                                              LoseLifeRider, DrawRider)
