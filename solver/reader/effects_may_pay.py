""""You may pay <mana>. If you do, <instructions>." (CR 608.2d, 118.3): two sentences read as one
:class:`~solver.core.ir.MayPay` — the resolving object's controller chooses to pay (mana abilities may be
activated, CR 605.3a) and then the instructions happen, or declines and nothing does. The mana is a fixed
cost (no {X}; not energy {E}, not life). Not read (the passage stays unread): "If you don't, …", "any
player may pay", "you may pay … rather than …", an instruction after "If you do" that creates a delayed
trigger or that the effect grammar does not read."""
from __future__ import annotations

from typing import Callable, Sequence

from ..core import ir
from ..core.ir import Effect
from .cursor import Cursor, NoMatch
from .phrases import mana_cost, mana_run
from .scope import Scope
from .tokens import Token

__all__ = ["may_pay_passage"]

Instructions = Callable[[Cursor, Scope], list[Effect]]


def may_pay_passage(sents: Sequence[Sequence[Token]], i: int, s: Scope, instructions: Instructions) -> int:
    """The passage at sentence ``i`` as one :class:`~solver.core.ir.MayPay` added to ``s``: the number of
    sentences read (2), or 0 when it has another form; :class:`NoMatch` when it has this one but a part
    is not read."""
    if i + 1 >= len(sents):
        return 0
    first, second = Cursor(sents[i]), Cursor(sents[i + 1])
    if not first.take("you", "may", "pay") or not second.take("if", "you", "do", ","):
        return 0
    mana = mana_cost(mana_run(first))
    first.take(".")
    first.end()
    if mana.x_count or not mana.symbols:
        raise NoMatch("a payment of X or of nothing")
    rest = list(second.rest())
    if rest and rest[-1].low == ".":
        rest = rest[:-1]
    c = Cursor(rest)
    then = instructions(c, s)
    c.end()
    if any(isinstance(e, (ir.Delayed, ir.UnreadEffect)) for e in then):
        raise NoMatch("an instruction after 'If you do' not read")
    s.effects.append(ir.MayPay(mana, tuple(then)))
    return 2
