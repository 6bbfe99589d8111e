"""Effects on every permanent of a description (CR 608.2c): "Destroy all creatures", "~ deals 2 damage
to each creature and each player", "Destroy all artifacts and enchantments", "each other creature
you control". The group is a :class:`~solver.core.ir.Filter` of the battlefield, read by the object
description reader, matched as the effect happens (:class:`~solver.core.ir.Ref` ``each_object``)."""
from __future__ import annotations

from dataclasses import replace

from ..core.ir import Ref
from .cursor import Cursor, NoMatch
from .descriptions import desc, to_filter

__all__ = ["group_ref"]


def group_ref(c: Cursor) -> Ref:
    """"each [other] <permanent description>" / "all [other] <permanents>" as a reference to every
    permanent that fits; "other" excludes the source (CR 109.5)."""
    if not c.take(("each", "all")):
        raise NoMatch("a group")
    other = bool(c.take("other"))
    save = c.i
    d = desc(c, targeting=True)   # the qualifiers a Filter holds ("without flying", "with power 2 or less")
    if d.players or d.zone != "battlefield" or d.card or not d.types or "Ability" in d.types or "Spell" in d.types:
        c.i = save
        raise NoMatch("not permanents on the battlefield")
    if d.other:
        other, d.other = True, False
    f = to_filter(d)
    if f.condition or f.controller_ref or f.players:
        raise NoMatch("a description only read as structure")
    return Ref("each_object", group=replace(f, other_than_source=other or f.other_than_source))
