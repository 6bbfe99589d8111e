"""Brute-force reference for mana added by a resolving spell or ability (CR 106.1, 106.4, 608.2).

From the card's read production (the IR: card data) alone, by plain enumeration: every pool the
controller may have after the mana is added — each color for "one mana of any color" (CR 106.1b),
each type for "of any type" (colorless included), every sequence of colors for "N mana in any
combination of colors" collapsed to its multiset, every set of distinct colors for "N mana of
different colors". Nothing of the engine's enumeration is used; only fixed amounts (no counts)."""
from __future__ import annotations

import itertools

from mtgsolve.solver.core import ir
from mtgsolve.solver.core.mana import Mana

FIVE = ("W", "U", "B", "R", "G")
SIX = FIVE + ("C",)


def _letters(m: Mana) -> list[str]:
    return [t for t in SIX for _ in range(m.text.count("{" + t + "}"))]


def added(produce: ir.Produce) -> set[tuple[str, ...]]:
    """Every multiset of mana ``produce`` may add (sorted letters), or raise ValueError for a kind
    the reference does not enumerate."""
    if produce.count is not None or produce.instead is not None:
        raise ValueError("counted production")
    if isinstance(produce, ir.FixedMana):
        return {tuple(sorted(_letters(produce.options[0])))}
    if isinstance(produce, ir.ManaChoice):
        return {tuple(sorted(_letters(o))) for o in produce.options}
    if isinstance(produce, ir.AnyColor):
        return {(c,) * produce.amount for c in FIVE}
    if isinstance(produce, ir.AnyType):
        return {(t,) * produce.amount for t in SIX}
    if isinstance(produce, ir.Combination) and not produce.options:
        return {tuple(sorted(seq)) for seq in itertools.product(FIVE, repeat=produce.amount)}
    if isinstance(produce, ir.DifferentColors):
        return {tuple(sorted(seq)) for seq in itertools.product(FIVE, repeat=produce.amount)
                if len(set(seq)) == len(seq)}
    raise ValueError(f"kind {produce.kind}")


def pools_after(pool: Mana, produce: ir.Produce) -> set[tuple[str, ...]]:
    """The pools (sorted letters) after ``produce``'s mana joins ``pool`` (CR 106.4)."""
    return {tuple(sorted(_letters(pool) + list(extra))) for extra in added(produce)}
