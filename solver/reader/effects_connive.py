"""Connive (CR 701.50), read by grammar: "<it | this creature | he | she | target creature [you
control] | target attacking creature> connives [N | X, where X is the number of attacking creatures]" —
:class:`~solver.core.ir.Connive` on the source, a target, or the object its trigger event named (X
counted as it resolves, CR 107.3, 506.4). Not read (the sentence stays unread): another "X, where X is …", "each creature
that convoked this spell connives", "Whenever … connives" (no event of its own). "When it connives this way,
<instructions>." after a connive is a reflexive triggered ability (CR 603.12, :func:`reflexive_sentence`)."""
from __future__ import annotations

from typing import Callable, Sequence

from ..core import ir
from ..core.ir import Count, Effect, Selector
from .cursor import Cursor, NoMatch
from .phrases import number
from .scope import Scope, object_ref
from .tokens import Token

__all__ = ["clause_connive", "reflexive_sentence"]


def clause_connive(c: Cursor, s: Scope) -> list[Effect]:
    """<object> connives [N] (module docstring)."""
    if c.at(("he", "she")) and s.last == ir.SELF:
        c.i += 1
        ref = ir.SELF
    else:
        ref = object_ref(c, s)
    if ref.kind not in ("self", "target", "event_object") or (ref.kind == "self" and not s.source_is_permanent):
        raise NoMatch("a permanent that connives")
    if ref.kind == "target" and s.targets[ref.index].filter.types != frozenset({"Creature"}):
        raise NoMatch("a target creature connives")
    c.need("connives")
    n: int | Count = 1
    if c.take("x", ",", "where", "x", "is", "the", "number", "of", "attacking", "creatures"):
        n = Count(Selector(types=frozenset({"Creature"}), attacking=True))   # CR 506.4, 701.50e
    elif c.kind() == "NUM":
        got = number(c)
        if not isinstance(got, int) or got < 1:
            raise NoMatch("connive N")
        n = got
    return [ir.Connive(ref, n)]


def reflexive_sentence(toks: Sequence[Token], s: Scope,
                       instructions: Callable[[Cursor, Scope], list[Effect]]) -> list[Effect] | None:
    """"When <it | this creature> connives this way, <instructions>." right after a connive: a reflexive
    triggered ability (CR 603.12) — :class:`~solver.core.ir.Reflexive`, its targets its own (read in a scope
    of their own, chosen as it is put on the stack, 603.3d); None (nothing read) when the sentence is not
    one."""
    c = Cursor(toks)
    if not (c.take("when", "it", "connives", "this", "way", ",") or c.take("when", "SELF", "connives", "this",
                                                                            "way", ",")):
        return None
    if not s.effects or not isinstance(s.effects[-1], ir.Connive):
        raise NoMatch("'connives this way' without a connive")
    inner = Scope(source_is_permanent=s.source_is_permanent)
    effects = instructions(c, inner)
    if not c.done():
        raise NoMatch("unexpected words")
    out: list[Effect] = [ir.Reflexive(tuple(effects), tuple(inner.targets))]
    s.effects.extend(out)
    return out
