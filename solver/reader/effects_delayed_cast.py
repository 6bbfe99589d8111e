"""Delayed triggered abilities on casting a spell, created by a resolving spell or ability for the rest of the
turn (CR 603.7a-c, 514.2):

* "Whenever you cast <a … spell> this turn, <instructions>." (Glimpse of Nature) — each time, this turn;
* "When you next cast <a … spell> this turn, <instructions>." — the next time only.

Read as one :class:`solver.core.ir.DelayedCast`: the event by the trigger-event grammar (a
:class:`~solver.core.ir.CastTrigger` of "you"), the instructions by the effect grammar. They may name no
target, no object of the event ("that spell", "it": the delayed ability does not record it), no X and
nothing the delayed ability would have to remember (as :func:`solver.reader.effects_delayed.add_delayed`):
such a sentence stays unread ("copy that spell", "that creature enters with an additional +1/+1 counter")."""
from __future__ import annotations

from typing import Sequence

from ..core import ir
from ..core.ir import Effect
from .cast_conditions import Instructions
from .cursor import Cursor, NoMatch
from .effects_delayed import add_delayed
from .scope import Scope, trigger_scope
from .tokens import Token
from .trigger_events import _trigger_event

__all__ = ["delayed_cast_sentence"]


def _event_words(toks: Sequence[Token]) -> tuple[list[Token], list[Token], bool] | None:
    """The trigger words without "next" and "this turn" (ending at the comma), the instructions' words (a final
    period dropped) and whether it is "when you next cast" — or None when the sentence is not this one."""
    body = list(toks[:-1]) if toks and toks[-1].text == "." else list(toks)
    c = Cursor(body)
    if c.take("whenever", "you", "cast"):
        once = False
    elif c.take("when", "you", "next", "cast"):
        once = True
    else:
        return None
    for j in range(c.i, len(body) - 2):
        if Cursor(body, j).at("this", "turn", ","):
            head = [body[0], body[1], body[3]] if once else body[:3]   # "next" dropped
            return head + body[c.i:j] + [body[j + 2]], body[j + 3:], once
    return None


def delayed_cast_sentence(toks: Sequence[Token], s: Scope, instructions: Instructions) -> list[Effect] | None:
    """The sentence as the :class:`ir.DelayedCast` it adds to ``s``; None when it is not one; ``NoMatch`` when it
    is but its event or instructions are not read, or name what the delayed ability can't find (CR 603.7c)."""
    split = _event_words(toks)
    if split is None:
        return None
    event, rest, once = split
    c = Cursor(event)
    trig, mana = _trigger_event(c)
    if mana or not isinstance(trig, ir.CastTrigger) or trig.who != "you" or not c.take(",") or not c.done():
        raise NoMatch("a cast event of yours")
    inner = trigger_scope(trig)
    inner.targets = list(s.targets)
    inner.x_defined = False
    n_targets = len(inner.targets)
    effects = instructions(Cursor(rest), inner)
    if len(inner.targets) != n_targets or any(ir.event_ref_kinds(e) for e in effects) \
            or any(isinstance(e, ir.UnreadEffect) for e in effects):
        raise NoMatch("a delayed cast trigger naming a target or its event")
    (added,) = add_delayed(("next_cast" if once else "cast", "you"), effects, s, inner)
    assert isinstance(added, ir.Delayed)
    cast = ir.DelayedCast(added.step, added.effects, "you", trigger=trig, once=once)
    s.effects[-1] = cast
    return [cast]
