"""Mana added by a resolving spell or ability (CR 106.1, 106.4, 608.2): "Add {B}{B}{B}" (a ritual),
"add one mana of any color" in a triggered ability that is not a mana ability (CR 605.5a), "Add two
mana in any combination of colors", "Add {R} for each …" — read by the mana production grammar
(:func:`solver.reader.production.produce`) as :class:`~solver.core.ir.AddMana`.

Only where the scope allows it (``Scope.adds_mana``: spells, non-mana triggered abilities, loyalty
abilities); an activated ability without a target that could add mana is a mana ability (CR 605.1a)
and is read as one, never as an ability that uses the stack. Productions that need a mana ability's
own context (what a sacrificed land or the tapped land could produce, X counters removed) are not read
here; "Spend this mana only …" (CR 106.6) is a sentence of its own that stays unread, so the spell or
ability is not fully read and its resolution is refused."""
from __future__ import annotations

from ..core.ir import AddMana, CouldProduce, Effect, SacrificedCouldProduce, ThatLandProduced
from .cursor import Cursor, NoMatch
from .production import produce
from .scope import Scope

__all__ = ["clause_add_mana"]

#: productions that only a mana ability's own context determines (CR 106.7, 605.1b)
_MANA_ABILITY_ONLY = (CouldProduce, SacrificedCouldProduce, ThatLandProduced)


def clause_add_mana(c: Cursor, s: Scope) -> list[Effect]:
    """["you"] "add" <mana> — the whole rest of the sentence (CR 106.4, 608.2c)."""
    if not s.adds_mana:
        raise NoMatch("mana added here would be a mana ability's (CR 605.1a)")
    c.take("you")
    c.need("add")
    p = produce(c)
    if not c.done():
        raise NoMatch("more after the mana")
    if isinstance(p, _MANA_ABILITY_ONLY) or p.instead is not None:
        raise NoMatch("a production of a mana ability's own context")
    return [AddMana(p)]
