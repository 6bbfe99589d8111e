"""A card's values: its Oracle facts (:class:`CardData`) and its behaviour in the ability IR
(:class:`Card`). The card database that makes them is :mod:`solver.cards`; the game state
(:mod:`solver.core.state`) holds them.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Mapping, Protocol

from .ir import Ability, SpellBehaviour, Unsupported
from .mana import ManaCost, ManaSyntaxError
from .memo import Memo


@dataclass(frozen=True)
class CardData:
    """A card's Oracle facts (MTGJSON field names in the source)."""

    name: str
    mana_cost: ManaCost
    type_line: str
    types: tuple[str, ...]
    subtypes: tuple[str, ...]
    supertypes: tuple[str, ...]
    power: str | None
    toughness: str | None
    loyalty: str | None
    text: str
    keywords: tuple[str, ...]
    layout: str
    colors: tuple[str, ...] | None = None  # MTGJSON "colors" when given (tokens, color indicators); else from the mana cost
    unreadable_cost: str | None = None  # a printed mana cost with symbols outside CR 107.4 ({D}, {HW}…): reported unsupported
    color_identity: tuple[str, ...] | None = None  # MTGJSON "colorIdentity" when given; else see ``identity``
    color_indicator: tuple[str, ...] | None = None  # MTGJSON "colorIndicator": a color indicator (CR 202.2e, 204)
    side: str | None = None  # MTGJSON "side" of a face of a multi-face card: "a" (front), "b" …
    defense: str | None = None  # a battle's printed defense (CR 310.4)

    @property
    def identity(self) -> frozenset[str]:
        """The card's color identity (CR 903.4): the colors of the mana symbols in its mana cost
        and rules text (reminder text aside) and its colors (a color indicator, CR 204); the card
        database's value when it gives one."""
        if self.color_identity is not None:
            return frozenset(self.color_identity)
        text = re.sub(r"\([^)]*\)", "", self.text)
        out = set(self.mana_cost.colors) | set(self.colors or ())
        for sym in re.findall(r"\{([^}]*)\}", text):
            out |= {c for c in "WUBRG" if c in sym.upper().split("/")}
        return frozenset(out)

    @classmethod
    def from_mtgjson(cls, d: Mapping[str, Any]) -> "CardData":
        try:
            cost, unreadable = ManaCost.parse(d.get("manaCost") or ""), None
        except ManaSyntaxError:
            cost, unreadable = ManaCost(), str(d.get("manaCost"))
        return cls(
            name=str(d["name"]),
            mana_cost=cost,
            unreadable_cost=unreadable,
            type_line=str(d.get("type") or ""),
            types=tuple(d.get("types") or ()),
            subtypes=tuple(d.get("subtypes") or ()),
            supertypes=tuple(d.get("supertypes") or ()),
            power=None if d.get("power") is None else str(d.get("power")),
            toughness=None if d.get("toughness") is None else str(d.get("toughness")),
            loyalty=None if d.get("loyalty") is None else str(d.get("loyalty")),
            text=str(d.get("text") or ""),
            keywords=tuple(d.get("keywords") or ()),
            layout=str(d.get("layout") or "normal"),
            colors=None if d.get("colors") is None else tuple(sorted(d["colors"], key="WUBRG".find)),
            color_identity=None if d.get("colorIdentity") is None
            else tuple(sorted(d["colorIdentity"], key="WUBRG".find)),
            color_indicator=None if d.get("colorIndicator") is None
            else tuple(sorted(d["colorIndicator"], key="WUBRG".find)),
            side=None if d.get("side") is None else str(d["side"]),
            defense=None if d.get("defense") is None else str(d["defense"]),
        )


@dataclass(frozen=True)
class Card:
    """A card: Oracle facts plus behaviour.

    ``abilities`` are in printed order (activated and triggered abilities are
    numbered from them, contract §2); ``spell`` is the instant/sorcery effect;
    ``source`` says where the behaviour came from (``library``, ``reader``,
    ``none``).
    """

    data: CardData
    abilities: tuple[Ability, ...] = ()
    spell: SpellBehaviour | None = None
    source: str = "library"
    # what the rules derive from the card alone, once (its unread parts per zone; solver/core/memo.py)
    memo: Memo = field(default_factory=Memo, init=False, compare=False, repr=False)

    @property
    def name(self) -> str:
        return self.data.name

    @property
    def unsupported(self) -> tuple[Unsupported, ...]:
        return tuple(a for a in self.abilities if isinstance(a, Unsupported))

    @property
    def fully_supported(self) -> bool:
        return not self.unsupported


class CardSource(Protocol):
    """What the game state needs of the card database it was loaded with
    (:class:`solver.cards.CardDB`): cards by name."""

    def get(self, name: str) -> Card: ...

    def canonical_name(self, name: str) -> str | None: ...
