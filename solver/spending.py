"""Mana spending restrictions (CR 106.6): may restricted mana pay for this?

A :class:`~solver.ir.SpendRestriction` ("Spend this mana only to cast creature
spells or activate abilities of creatures") is judged against the *purpose* of
a payment:

* ``cast`` — casting a spell: the spell's characteristics (CR 109.3; a card
  being cast has the characteristics it has on the stack, continuous effects
  such as Celestial Dawn's included, CR 601.2a);
* ``activate`` — activating an ability (CR 602, mana abilities included,
  CR 605.1a) of a source: the source's characteristics;
* ``unknown`` — a bare cost (``pay`` with ``cost: "{1}{G}"``): nothing says
  what it is for, so restricted mana can't be spent on it.

Restrictions never change the mana's type (CR 106.6), so CR 106.7 ("could
produce") ignores them.
"""
from __future__ import annotations

from dataclasses import dataclass

from .characteristics import Chars, View
from .ir import Filter, SpendRestriction


@dataclass(frozen=True)
class Purpose:
    """What a payment pays for: ``kind`` is ``cast``, ``activate`` or ``unknown``;
    ``chars`` the spell's (cast) or the source's (activate) characteristics."""

    kind: str
    chars: Chars | None = None

    def describe(self) -> str:
        if self.kind == "cast" and self.chars is not None:
            return f"casting {self.chars.name}"
        if self.kind == "activate" and self.chars is not None:
            return f"activating an ability of {self.chars.name}"
        return "a cost of unknown purpose"


UNKNOWN = Purpose("unknown")


def cast_purpose(view: View, spell_id: str) -> Purpose:
    return Purpose("cast", view.chars(spell_id))


def activate_purpose(view: View, source_id: str) -> Purpose:
    return Purpose("activate", view.chars(source_id))


def filter_matches(f: Filter, c: Chars) -> bool:
    """Does an object with characteristics ``c`` fit a spending restriction's
    spell or source filter? Types and subtypes: any of (none listed: any);
    ``nontypes``: none of; ``supertypes``: all of; ``not_colors``: none of;
    ``colorless``: no color (CR 105.2c); ``multicolored``: two or more
    (CR 105.2b)."""
    if f.types and not (f.types & c.types):
        return False
    if f.subtypes and not (f.subtypes & c.subtypes):
        return False
    if f.nontypes & c.types:
        return False
    if not f.supertypes <= c.supertypes:
        return False
    if f.not_colors & c.colors:
        return False
    if f.colorless and c.colors:
        return False
    if f.multicolored and len(c.colors) < 2:
        return False
    if f.mv_max is not None and c.mana_value > f.mv_max:
        return False
    return True


def allows(r: SpendRestriction | None, purpose: Purpose) -> bool:
    """May mana restricted by ``r`` (None: unrestricted) be spent on ``purpose`` (CR 106.6)?"""
    if r is None:
        return True
    if purpose.kind == "cast" and purpose.chars is not None:
        return any(filter_matches(f, purpose.chars) for f in r.spells)
    if purpose.kind == "activate" and purpose.chars is not None:
        return r.abilities and (not r.sources or any(filter_matches(f, purpose.chars) for f in r.sources))
    return False
