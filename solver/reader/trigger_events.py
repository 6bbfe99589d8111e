"""Trigger events of triggered abilities (CR 603.1): "When SELF enters", "Whenever
a creature you control dies", …"""
from __future__ import annotations

from ..core.ir import Trigger
from .cursor import Cursor, NoMatch
from .descriptions import desc, to_selector


def _trigger_event(c: Cursor) -> tuple[Trigger, bool]:
    """The event of a triggered ability; the flag says it is a tapped-for-mana event (CR 106.12a)."""
    w = c.next().low
    if w in ("when", "whenever"):
        if c.take("SELF", "enters"):
            c.take("the", "battlefield")
            return Trigger("enters"), False
        if c.take("SELF", "dies") or c.take("SELF", "is", "put", "into", "a", "graveyard", "from", "the",
                                             "battlefield"):
            return Trigger("dies"), False
        if c.take("SELF", "attacks"):
            return Trigger("attacks"), False
        if c.take("SELF", "becomes", "tapped"):
            return Trigger("becomes_tapped"), False
        if c.take(("enchanted", "equipped")):
            d = desc(c)
            c.need("is", "tapped", "for", "mana")
            return Trigger("tapped_for_mana", to_selector(d, attached=True)), True
        if c.take("a", "player", "taps") or c.take("you", "tap"):
            who = "you" if c.toks[c.i - 1].low == "tap" else "any"
            c.need(("a", "an"))
            d = desc(c)
            c.need("for", "mana")
            if who == "you":
                if d.who == "opponent":
                    raise NoMatch("you tap an opponent's permanent")
                d.who = "you"  # CR 602.2: only a permanent's controller activates its mana abilities
            return Trigger("tapped_for_mana", to_selector(d)), True
        if c.take(("a", "an")):
            d = desc(c)
            c.need("is", "tapped", "for", "mana")
            return Trigger("tapped_for_mana", to_selector(d)), True
        raise NoMatch("trigger event")
    if w == "at":
        c.need("the", "beginning", "of", "your", "upkeep")
        return Trigger("upkeep"), False
    raise NoMatch("not a trigger")
