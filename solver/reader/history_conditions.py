"""Conditions that look back at this turn (issue 27), read from the turn's history the transition kernel
records (``turn.history``, :class:`~solver.core.state.TurnHistory`):

* "a creature died this turn" (morbid; CR 700.4) — :class:`~solver.core.ir.CreatureDiedThisTurn`;
* "you gained life this turn" (CR 119.3) — :class:`~solver.core.ir.GainedLifeThisTurn`;
* "you attacked this turn" (raid), "you attacked with N or more creatures this turn" (CR 508.1) —
  :class:`~solver.core.ir.AttackedThisTurn`.

Read in intervening "if" clauses (CR 603.4: :func:`solver.reader.trigger_events.intervening_if`) and in
conditional instructions (CR 608.2c: :mod:`.conditional_effects`); not in activation restrictions.
Not read (the clause stays unread): "a creature died under your control this turn", "you attacked with
a <desc> this turn", "… this combat", "an opponent lost life this turn" (spectacle's record is read
by the casting model only), and anything else."""
from __future__ import annotations

from ..core.ir import ActivationCondition, AttackedThisTurn, CreatureDiedThisTurn, GainedLifeThisTurn
from .cursor import Cursor, NoMatch
from .phrases import number

__all__ = ["history_condition"]


def history_condition(c: Cursor) -> ActivationCondition:
    """One condition on this turn's history (module docstring), or :class:`NoMatch`."""
    if c.take("a", "creature", "died", "this", "turn"):
        return CreatureDiedThisTurn()
    if c.take("you", "gained", "life", "this", "turn"):
        return GainedLifeThisTurn()
    if c.take("you", "attacked", "this", "turn"):
        return AttackedThisTurn(1)
    if c.take("you", "attacked", "with"):
        n = number(c)
        if isinstance(n, int) and n >= 1 and c.take("or", "more", "creatures", "this", "turn"):
            return AttackedThisTurn(n)
    raise NoMatch("a condition on this turn's history")
