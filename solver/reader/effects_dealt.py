"""Instructions that read the result of an earlier one (CR 608.2c): "<Source> deals N damage to any target. If a
player is dealt damage this way, <instructions>." (Play with Fire) — read as one
:class:`~solver.core.ir.IfDealtDamage` holding the damage just read. The instructions may name no new target
and nothing of the player or object dealt damage ("they discard a card", "it gets +5/+0": not modeled, so
unread); other qualities ("if a creature is dealt damage this way") stay unread."""
from __future__ import annotations

from typing import Sequence

from ..core.ir import Damage, Effect, IfDealtDamage, UnreadEffect, event_ref_kinds
from .cast_conditions import Instructions
from .cursor import Cursor, NoMatch
from .scope import Scope
from .tokens import Token

__all__ = ["dealt_damage_sentence"]


def dealt_damage_sentence(toks: Sequence[Token], s: Scope, instructions: Instructions) -> list[Effect] | None:
    """The sentence as the :class:`IfDealtDamage` that replaces the damage before it in ``s``; None when it is
    not one; ``NoMatch`` when its instructions are not read or name what is not modeled."""
    body = list(toks[:-1]) if toks and toks[-1].text == "." else list(toks)
    c = Cursor(body)
    if not c.take("if", "a", "player", "is", "dealt", "damage", "this", "way", ","):
        return None
    prev = s.effects[-1] if s.effects else None
    if not isinstance(prev, Damage) or prev.optional:
        raise NoMatch("no damage just before")
    n_targets, last = len(s.targets), s.last
    s.last = None   # "it" / "they" would be the player dealt damage: not modeled
    then = instructions(Cursor(c.rest()), s)
    s.last = last
    if len(s.targets) != n_targets or any(event_ref_kinds(e) for e in then) \
            or any(isinstance(e, UnreadEffect) for e in then):
        raise NoMatch("instructions naming a target or the player dealt damage")
    out = IfDealtDamage(prev, tuple(then))
    s.effects[-1] = out
    return []
