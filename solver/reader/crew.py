"""Crew (CR 702.122): "Crew N" means "Tap any number of other untapped creatures you control with
total power N or greater: This permanent becomes an artifact creature until end of turn." (702.122a).

The keyword line is read as that :class:`~solver.core.ir.ActivatedAbility`: its cost is
``Cost(crew=N)`` (the creatures tapped are chosen by the payment, :mod:`solver.payment.casting`;
tapping them is not a {T} cost, so summoning sickness doesn't matter, CR 302.6), no target, any time
its controller has priority (CR 602.5d: no timing restriction), and its effect unread (the printed
effect, an :class:`~solver.core.ir.UnreadEffect` with the rule's words: becoming a creature is not modeled, so ``resolve``
of the ability answers ``unsupported``).
"""
from __future__ import annotations

from typing import Sequence

from ..core.ir import ActivatedAbility, Cost, UnreadEffect
from . import grammar as g
from .tokens import Token

__all__ = ["EFFECT", "line_crew"]

#: The crew ability's effect (CR 702.122a), unread: it acts only as the ability resolves.
EFFECT = "This permanent becomes an artifact creature until end of turn."


def line_crew(toks: Sequence[Token], ctx, raw: str) -> tuple[list, int]:
    """"Crew N" alone on its line (CR 702.122a)."""
    if ctx.is_spell:
        raise g.NoMatch("spell text")
    c = g.Cursor(toks)
    c.need("crew")
    n = g.number(c)
    if not isinstance(n, int) or n < 0:
        raise g.NoMatch("a fixed crew number")
    c.take(".")
    c.end()
    return [ActivatedAbility(Cost(crew=n), (), (UnreadEffect(EFFECT),), False, raw)], 1
