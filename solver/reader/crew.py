"""Crew (CR 702.122): "Crew N" means "Tap any number of other untapped creatures you control with
total power N or greater: This permanent becomes an artifact creature until end of turn." (702.122a).

The keyword line is read as that :class:`~solver.core.ir.ActivatedAbility`: its cost is
``Cost(crew=N)`` (the creatures tapped are chosen by the payment, :mod:`solver.payment.casting`;
tapping them is not a {T} cost, so summoning sickness doesn't matter, CR 302.6), no target, any time
its controller has priority (CR 602.5d: no timing restriction), and its effect the rule's: the
Vehicle becomes an artifact creature until end of turn, with its printed power and toughness
(:class:`~solver.core.ir.Animate` with no P/T of its own, CR 611.2a, 208.3; the resolved effect is an
``effects`` entry ending in the cleanup step, 514.2).
"""
from __future__ import annotations

from typing import Sequence

from ..core.ir import SELF, ActivatedAbility, Animate, Cost
from . import grammar as g
from .tokens import Token

__all__ = ["EFFECT", "line_crew"]

#: The crew ability's effect (CR 702.122a) as printed in the rule.
EFFECT = "This permanent becomes an artifact creature until end of turn."
#: … and as read: an artifact creature until end of turn, with its printed power and toughness.
CREWED = Animate(SELF, None, None, frozenset({"Artifact", "Creature"}))


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
    return [ActivatedAbility(Cost(crew=n), (), (CREWED,), False, raw)], 0   # its effect is read
