"""Mana spending restrictions (CR 106.6): may restricted mana pay for this?

A :class:`~solver.core.ir.SpendRestriction` ("Spend this mana only to cast creature
spells or activate abilities of creatures") is judged against the *purpose* of
a payment:

* ``cast`` — casting a spell: the spell's characteristics (CR 109.3; a card
  being cast has the characteristics it has on the stack, continuous effects
  such as Celestial Dawn's included, CR 601.2a);
* ``activate`` — activating an ability (CR 602, mana abilities included,
  CR 605.1a) of a source: the source's characteristics;
* ``unknown`` — a bare cost (``pay`` with ``cost: "{1}{G}"``): nothing says
  what it is for, so restricted mana can't be spent on it.

A spell is also judged by what characteristics don't hold: {X} in its mana
cost (CR 107.3) and the zone it is cast from (CR 601.2a: where the card is
now; "your hand/graveyard" means the caster owns it). "Of the chosen type"
refers to the creature type chosen for the mana's source as it entered
(CR 614.12; object key ``chosen: {type: …}``): :func:`bind_restriction`
replaces it by that type when the ability is listed
(:func:`solver.rules.mana_sources.activations`), so two sources with different
chosen types carry different restrictions.

Restrictions never change the mana's type (CR 106.6), so CR 106.7 ("could
produce") ignores them.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from .characteristics import Chars, View
from ..core.errors import UnsupportedCase
from ..core.ir import Filter, SpendRestriction
from ..core.state import GameObject


@dataclass(frozen=True)
class Purpose:
    """What a payment pays for: ``kind`` is ``cast``, ``activate`` or ``unknown``;
    ``chars`` the spell's (cast) or the source's (activate) characteristics.
    For ``cast``: ``zone`` the zone the spell is cast from (CR 601.2a: where the
    card is now), ``owner`` its owner, ``player`` the caster (the payer),
    ``has_x`` whether its mana cost has {X} (CR 107.3)."""

    kind: str
    chars: Chars | None = None
    zone: str = ""
    owner: str = ""
    player: str = ""
    has_x: bool = False

    def describe(self) -> str:
        if self.kind == "cast" and self.chars is not None:
            return f"casting {self.chars.name}"
        if self.kind == "activate" and self.chars is not None:
            return f"activating an ability of {self.chars.name}"
        return "a cost of unknown purpose"


UNKNOWN = Purpose("unknown")


def cast_purpose(view: View, spell_id: str, player: str = "") -> Purpose:
    """Casting ``spell_id`` (by ``player``; default its owner) from the zone it is in now."""
    o = view.state.obj(spell_id)
    has_x = bool(o.card is not None and o.card.data.mana_cost.x_count)
    return Purpose("cast", view.chars(spell_id), o.zone, o.owner, player or o.owner, has_x)


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
    if f.nontypes & c.types or not f.types_all <= c.types:
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
    if f.mv_min is not None and c.mana_value < f.mv_min:
        return False
    if not f.colors <= c.colors:
        return False
    if f.chosen_type:
        return False  # "of the chosen type" with no type chosen: no object has it (CR 106.6)
    return True


def _cast_from(zone: str, purpose: Purpose) -> bool:
    """Is the spell cast from ``zone`` ("your hand", "your graveyard", "exile")?"""
    if purpose.zone != zone:
        return False
    return zone == "exile" or purpose.owner == purpose.player


def spell_matches(f: Filter, purpose: Purpose) -> bool:
    """Does the spell cast for ``purpose`` fit spell filter ``f`` (characteristics,
    {X} in its mana cost, the zone it is cast from)?"""
    if purpose.chars is None or not filter_matches(f, purpose.chars):
        return False
    if f.has_x and not purpose.has_x:
        return False
    if f.not_owned and purpose.owner == purpose.player:
        return False
    if f.from_zones or f.not_from_zones:
        if purpose.zone not in ("hand", "graveyard", "exile", "library", "command"):
            raise UnsupportedCase(f"a spending restriction on the zone a spell is cast from, for "
                                  f"{purpose.chars.name} in the {purpose.zone or 'unknown zone'}")
        if f.from_zones and not any(_cast_from(z, purpose) for z in f.from_zones):
            return False
        if any(_cast_from(z, purpose) for z in f.not_from_zones):
            return False
    return True


def allows(r: SpendRestriction | None, purpose: Purpose) -> bool:
    """May mana restricted by ``r`` (None: unrestricted) be spent on ``purpose`` (CR 106.6)?"""
    if r is None:
        return True
    if purpose.kind == "cast" and purpose.chars is not None:
        return any(spell_matches(f, purpose) for f in r.spells)
    if purpose.kind == "activate" and purpose.chars is not None:
        return r.abilities and (not r.sources or any(filter_matches(f, purpose.chars) for f in r.sources))
    return False


def _bind_filter(f: Filter, chosen_type: str | None) -> Filter:
    if not f.chosen_type or chosen_type is None:
        return f
    return replace(f, chosen_type=False, subtypes=f.subtypes | {chosen_type})


def bind_restriction(r: SpendRestriction | None, source: GameObject | None) -> SpendRestriction | None:
    """The restriction of ``source``'s ability with "the chosen type" replaced by the
    type chosen for ``source`` (object key ``chosen: {type: …}``, CR 614.12); with
    none chosen, "of the chosen type" stays unbound and allows nothing."""
    if r is None or source is None:
        return r
    if not any(f.chosen_type for f in r.spells + r.sources):
        return r
    t = chosen_type_of(source)
    return replace(r, spells=tuple(_bind_filter(f, t) for f in r.spells),
                   sources=tuple(_bind_filter(f, t) for f in r.sources))


def chosen_type_of(o: GameObject) -> str | None:
    """The creature type chosen for ``o`` as it entered (``chosen: {type: Elf}``), or None."""
    t = dict(o.chosen).get("type")
    return t if isinstance(t, str) and t else None
