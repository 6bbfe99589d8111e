"""Instructions that depend on how the spell was cast (CR 702.33e, 608.2c): "If this spell was kicked, …".

A sentence read here becomes one :class:`~solver.core.ir.IfCast` effect, which the resolution carries out
by the resolving spell's record (object key ``kicked``, CR 702.33d):

* "If this spell was kicked, <instructions>." — the instructions happen only if it was kicked
  (Into the Roil's "If this spell was kicked, draw a card.");
* "If this spell was kicked, <instruction> instead." — the instruction replaces the one just before it,
  of the same kind and on the same object or player (CR 608.2c: Burst Lightning's "it deals 4 damage
  instead", "that creature gets -5/-5 until end of turn instead"); "it deals N damage instead" keeps the
  earlier damage's recipient.

and, on a permanent card, the replacement effects on its entering (CR 614.1c) that apply only if its spell was cast
that way — :class:`~solver.core.ir.EntersWith` with ``if_cast``:

* "If this creature was kicked, it enters with N <kind> counters on it." (``kicked``, CR 702.33e);
* "This creature escapes with N <kind> counters on it." (``escape``, CR 702.138c: "If this permanent escaped,
  it enters with …").

The name of the card may stand for "this spell" (it is one ``SELF`` token). Not read (the sentence stays
an unread effect): an instruction choosing a target the unkicked spell doesn't have (CR 601.2c: the spell's
targets would depend on the kick), "instead" after an instruction of another kind or object, "kicked
twice", "kicked with its {N} kicker", "for each time it was kicked" (multikicker).
"""
from __future__ import annotations

from dataclasses import replace
from typing import Callable, Sequence

from ..core.ir import Damage, Effect, EntersWith, IfCast
from .cursor import Cursor, NoMatch
from .phrases import counter_kind, number
from .scope import Scope
from .tokens import Token

__all__ = ["if_kicked_sentence", "enters_with_if_cast", "conditional_instruction"]

Instructions = Callable[[Cursor, Scope], list[Effect]]


def if_kicked_sentence(toks: Sequence[Token], s: Scope, instructions: Instructions) -> list[Effect] | None:
    """The sentence "If this spell was kicked, …" (module docstring) as the effects it adds to ``s``
    (``instructions`` reads the words after the comma), None when it doesn't begin so; ``NoMatch`` when
    it does but the rest is not read."""
    c = Cursor(toks)
    if not c.take("if", "SELF", "was", "kicked", ","):
        return None
    rest = c.rest()
    instead = bool(rest) and rest[-1].low == "instead"
    return conditional_instruction(lambda then, other: IfCast("kicked", then, otherwise=other),
                                   list(rest[:-1] if instead else rest), instead, s, instructions)


def conditional_instruction(make: Callable[[tuple[Effect, ...], tuple[Effect, ...]], Effect], body: Sequence[Token],
                            instead: bool, s: Scope, instructions: Instructions) -> list[Effect]:
    """The instructions of a conditional sentence (CR 608.2c) as one effect ``make(then, otherwise)`` added
    to ``s``: with ``instead``, it replaces the instruction just before it (the same kind on the same object
    or player; "it deals N damage instead" keeps that damage's recipient), which becomes ``otherwise``.
    An instruction choosing a target only the condition gives is not read (CR 601.2c)."""
    c = Cursor(body)
    ntargets = len(s.targets)
    then = _elided_damage(c, s) if instead else None
    if then is None:
        then = instructions(c, s)
    if len(s.targets) != ntargets:
        raise NoMatch("a target only the condition gives (CR 601.2c)")
    if not instead:
        out: list[Effect] = [make(tuple(then), ())]
        s.effects.extend(out)
        return out
    prev = s.effects[-1] if s.effects else None
    if len(then) != 1 or prev is None or not _same_instruction(prev, then[0]):
        raise NoMatch("'instead' after an instruction of another kind")
    s.effects[-1] = make(tuple(then), (prev,))
    return [s.effects[-1]]


def _elided_damage(c: Cursor, s: Scope) -> list[Effect] | None:
    """"it deals N damage [instead]": the earlier damage's recipient, a new amount (CR 608.2c)."""
    if not (c.at(("it", "SELF"), ("deals", "deal")) and c.kind(2) == "NUM" and c.low(3) == "damage"
            and c.i + 4 == len(c.toks)):
        return None
    prev = s.effects[-1] if s.effects else None
    if not isinstance(prev, Damage):
        raise NoMatch("'it deals N damage instead' after an instruction other than damage")
    return [replace(prev, amount=int(c.toks[c.i + 2].low))]


def _same_instruction(prev: Effect, new: Effect) -> bool:
    """Does ``new`` replace ``prev`` ("… instead", CR 608.2c): the same kind of instruction on the same
    object or player (its ``to``), neither optional?"""
    if type(prev) is not type(new) or prev.optional or new.optional:
        return False
    return getattr(prev, "to", None) == getattr(new, "to", None)


def enters_with_if_cast(c: Cursor) -> EntersWith:
    """"If SELF was kicked, it enters with N <kind> counters on it" / "SELF escapes with N <kind> counters
    on it" (module docstring; CR 702.33e, 702.138c, 614.1c)."""
    if c.take("if", "SELF", "was", "kicked", ",", "it", "enters", "with"):
        how = "kicked"
    elif c.take("SELF", "escapes", "with"):
        how = "escape"
    else:
        raise NoMatch("not an enters-with of a way to cast")
    n = number(c, allow_a=True)
    kind = counter_kind(c)
    c.need("counter" if n == 1 else "counters", "on", "it")
    c.end()
    return EntersWith(counter=kind, amount=n, if_cast=how)
