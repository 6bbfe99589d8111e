"""Trigger events of triggered abilities (CR 603.1): "When SELF enters", "Whenever
a creature you control dies", …"""
from __future__ import annotations

from ..core.ir import (AttacksTrigger, BecomesTappedTrigger, DiesTrigger, EntersTrigger, TappedForMana, Trigger,
                       StepTrigger)
from .cursor import Cursor, NoMatch
from .descriptions import desc, to_selector


def _trigger_event(c: Cursor) -> tuple[Trigger, bool]:
    """The event of a triggered ability; the flag says it is a tapped-for-mana event (CR 106.12a)."""
    w = c.next().low
    if w in ("when", "whenever"):
        if c.take("SELF", "enters"):
            c.take("the", "battlefield")
            return EntersTrigger(), False
        if c.take("SELF", "dies") or c.take("SELF", "is", "put", "into", "a", "graveyard", "from", "the",
                                             "battlefield"):
            return DiesTrigger(), False
        if c.take("SELF", "attacks"):
            return AttacksTrigger(), False
        if c.take("SELF", "becomes", "tapped"):
            return BecomesTappedTrigger(), False
        if c.take(("enchanted", "equipped")):
            d = desc(c)
            c.need("is", "tapped", "for", "mana")
            return TappedForMana(to_selector(d, attached=True)), True
        if c.take("a", "player", "taps") or c.take("you", "tap"):
            who = "you" if c.toks[c.i - 1].low == "tap" else "any"
            c.need(("a", "an"))
            d = desc(c)
            c.need("for", "mana")
            if who == "you":
                if d.who == "opponent":
                    raise NoMatch("you tap an opponent's permanent")
                d.who = "you"  # CR 602.2: only a permanent's controller activates its mana abilities
            return TappedForMana(to_selector(d)), True
        if c.take(("a", "an")):
            d = desc(c)
            c.need("is", "tapped", "for", "mana")
            return TappedForMana(to_selector(d)), True
        raise NoMatch("trigger event")
    if w == "at":
        c.need("the", "beginning", "of", "your", "upkeep")
        return StepTrigger("upkeep", "you"), False
    raise NoMatch("not a trigger")
