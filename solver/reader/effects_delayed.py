"""Delayed triggered abilities created by a resolving spell or ability (CR 603.7a): the sentences

* "At the beginning of the next end step, <instructions>." / "<instructions> at the beginning of the
  next end step." — the next end step to begin, this turn's if it hasn't begun (CR 603.7b);
* "At the beginning of the next turn's upkeep, …" / "… at the beginning of the next turn's upkeep." (the
  cantrips: "Draw a card at the beginning of the next turn's upkeep") — the next turn's upkeep;
* "At the beginning of your next upkeep, …" / "… at the beginning of your next upkeep." — the upkeep of
  the controller's next turn;

read as one :class:`solver.core.ir.Delayed` instruction holding what happens then. The instructions are
read by the effect grammar; they may name no object that the delayed ability would have to remember
(its source, a target, "it", an attached permanent) and no X (CR 107.3: the delayed ability has no X of
its own): such a sentence stays unread. "You" is the delayed ability's controller, who controlled the
spell or ability that created it (603.7d)."""
from __future__ import annotations

import dataclasses
from typing import Sequence

from ..core.ir import Delayed, Effect
from ..core.selectors import Ref
from .cast_conditions import Instructions
from .cursor import Cursor, NoMatch
from .scope import Scope
from .tokens import Token

__all__ = ["delayed_sentence", "bound_refs", "delayed_time", "delayed_scope", "add_delayed"]

#: what a delayed instruction may name: players and groups looked at as it resolves (CR 603.7a, 608.2c)
_FREE_REFS = frozenset({"controller", "each_opponent", "each_player", "each_object"})
#: what it remembers as it is created: one object or player — its source or a target of the spell or
#: ability that created it (the record's ``it``, CR 603.7c)
_BOUND = frozenset({"self", "target", "created"})


def bound_refs(effects: object) -> set[Ref]:
    """The references of a delayed instruction bound as it is created (its source, a target: CR 603.7c)."""
    return {r for r in _refs(effects) if r.kind in _BOUND}


def _when(c: Cursor) -> tuple[str, str] | None:
    """"at the beginning of the next end step | the next turn's upkeep | your next upkeep" at the
    cursor, consumed: (step, whose); None when it isn't there (nothing consumed)."""
    save = c.i
    if not c.take("at", "the", "beginning", "of"):
        return None
    if c.take("the", "next", "end", "step"):
        return ("end", "any")
    if c.take("the", "next", "turn's", "upkeep"):
        return ("upkeep", "any")
    if c.take("your", "next", "upkeep"):
        return ("upkeep", "you")
    c.i = save
    return None


def _refs(value: object) -> list[Ref]:
    """Every :class:`Ref` inside an effect value (dataclass fields, tuples)."""
    if isinstance(value, Ref):
        return [value]
    if isinstance(value, (tuple, list)):
        return [r for v in value for r in _refs(v)]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return [r for f in dataclasses.fields(value) for r in _refs(getattr(value, f.name))]
    return []


#: selector and filter flags relative to the source: "sacrifice it" as a choice of the source only, "each
#: other creature", what it is attached to — the source as it is later might be a new object (CR 400.7)
_SOURCE_FLAGS = ("self_only", "exclude_self", "other_than_source", "attached")


def _names_source(value: object) -> bool:
    """Whether an effect value names its source other than by a :class:`Ref` (a selector's flags)."""
    if isinstance(value, (tuple, list, frozenset, set)):
        return any(_names_source(v) for v in value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type) and not isinstance(value, Ref):
        if any(getattr(value, f, False) is True for f in _SOURCE_FLAGS):
            return True
        return any(_names_source(getattr(value, f.name)) for f in dataclasses.fields(value))
    return False


def _has_x(value: object) -> bool:
    if value == "X":
        return True
    if isinstance(value, (tuple, list)):
        return any(_has_x(v) for v in value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return any(_has_x(getattr(value, f.name)) for f in dataclasses.fields(value))
    return False


def _split(toks: Sequence[Token]) -> tuple[tuple[str, str], list[Token]] | None:
    """The time and the instructions' words of a delayed sentence (a final period dropped), or None."""
    body = list(toks[:-1]) if toks and toks[-1].text == "." else list(toks)
    c = Cursor(body)
    when = _when(c)
    if when is not None:
        if not c.take(","):
            raise NoMatch("',' after the delayed trigger's time")
        return when, list(c.rest())
    for i in range(1, len(body)):
        if body[i].low == "at" and i + 4 < len(body):
            tail = Cursor(body[i:])
            when = _when(tail)
            if when is not None and tail.done():
                return when, body[:i]
    return None


def delayed_time(toks: Sequence[Token]) -> tuple[tuple[str, str], list[Token]] | None:
    """A delayed-trigger sentence's time (step, whose) and the words of its instructions, or None."""
    return _split(toks)


def delayed_scope(s: Scope) -> Scope:
    """The scope a delayed instruction is read in: the spell's or ability's targets, no X (CR 107.3)."""
    return Scope(targets=list(s.targets), last=s.last, source_is_permanent=s.source_is_permanent, x_defined=False)


def add_delayed(when: tuple[str, str], effects: Sequence[Effect], s: Scope, inner: Scope) -> list[Effect]:
    """The :class:`Delayed` instruction holding ``effects`` (read in ``inner``), added to ``s``;
    ``NoMatch`` when they name what the delayed ability could not find (CR 603.7a, 603.7c)."""
    s.targets[:] = inner.targets   # "target" in the sentence: a target of the spell or ability (CR 601.2c)
    if len(bound_refs(effects)) > 1 or any(r.kind not in _FREE_REFS | _BOUND for r in _refs(effects)) \
            or _has_x(effects) or _names_source(effects):
        raise NoMatch("a delayed instruction naming what it can't remember (CR 603.7c)")
    out: list[Effect] = [Delayed(when[0], tuple(effects), when[1])]
    s.effects.extend(out)
    return out


def delayed_sentence(toks: Sequence[Token], s: Scope, instructions: Instructions) -> list[Effect] | None:
    """A delayed-trigger sentence (module docstring) as the :class:`Delayed` instruction it adds to ``s``;
    None when the sentence is not one; ``NoMatch`` when it is but its instructions are not read or name
    what the delayed ability could not find (CR 603.7a, 603.7c)."""
    split = _split(toks)
    if split is None:
        return None
    when, words = split
    inner = delayed_scope(s)
    return add_delayed(when, instructions(Cursor(words), inner), s, inner)
