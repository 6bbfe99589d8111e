"""Instructions that depend on the game as the spell or ability resolves (CR 608.2c), by a condition
the activation and static condition readers read ("you control three or more artifacts", "an opponent
has 10 or less life", "there are seven or more cards in your graveyard" …):

* "[Then] if <condition>, <instructions>." — the instructions happen only if it holds;
* "If <condition>, <instruction> instead." and "<instruction> instead if <condition>." — the
  instruction replaces the one just before it, of the same kind on the same object or player (Galvanic
  Blast's "~ deals 4 damage instead if you control three or more artifacts": the earlier damage's
  recipient, a new amount).

* "Otherwise, <instructions>." right after "If <condition>, <instructions>." — what happens when the
  condition does not hold (the :class:`~solver.core.ir.IfCondition`'s ``otherwise``).

Each becomes one :class:`~solver.core.ir.IfCondition`. Not read (the sentence stays unread): "if you do"
and other conditions on what happened while resolving, "instead" after an instruction of another kind,
an instruction choosing a target only the condition gives."""
from __future__ import annotations

from typing import Callable, Sequence

from ..core.ir import ActivationCondition, Effect, IfCondition
from .activation_conditions import _activation_if
from .cast_conditions import conditional_instruction
from .conditional_statics import static_condition
from .history_conditions import history_condition
from .cursor import Cursor, NoMatch
from .scope import Scope
from .tokens import Token

__all__ = ["if_condition_sentence", "otherwise_sentence"]

Instructions = Callable[[Cursor, Scope], list[Effect]]


def _condition(c: Cursor) -> ActivationCondition:
    """A condition read by the activation or the static condition reader, to the end of ``c``'s run
    (the caller checks what follows)."""
    for read in (_activation_if, static_condition, history_condition):
        save = c.i
        try:
            return read(c)
        except NoMatch:
            c.i = save
    raise NoMatch("a condition the readers don't read")


def if_condition_sentence(toks: Sequence[Token], s: Scope, instructions: Instructions) -> list[Effect] | None:
    """The sentence as :class:`IfCondition` effects added to ``s`` (module docstring); None when it
    has no such form; ``NoMatch`` when it has but a part is not read."""
    words = [t.low for t in toks]
    if words[:2] == ["then", "if"]:   # "Then if …, …": the same conditional, after what came before
        toks, words = toks[1:], words[1:]
    if words[:1] == ["if"]:
        c = Cursor(toks)
        c.i = 1
        if c.at("you", "do") or c.at("you", "don't") or c.at("it", "was") or c.at("SELF", "was"):
            return None
        try:
            cond = _condition(c)
        except NoMatch:
            return None     # another reader's "If …" (a meld's "if you both own and control …"), or unread
        if not c.take(","):
            return None
        rest = c.rest()
        instead = bool(rest) and rest[-1].low == "instead"
        return conditional_instruction(lambda then, other: IfCondition(cond, then, otherwise=other),
                                       list(rest[:-1] if instead else rest), instead, s, instructions)
    if "instead" in words and words.index("instead") + 1 < len(words) and words[words.index("instead") + 1] == "if":
        k = words.index("instead")
        c = Cursor(toks)
        c.i = k + 2
        try:
            cond = _condition(c)
        except NoMatch:
            return None
        if not c.done():
            return None
        return conditional_instruction(lambda then, other: IfCondition(cond, then, otherwise=other),
                                       list(toks[:k]), True, s, instructions)
    return None


def otherwise_sentence(toks: Sequence[Token], s: Scope, instructions: Instructions) -> list[Effect] | None:
    """"Otherwise, <instructions>." after a conditional sentence with no ``otherwise`` of its own (CR
    608.2c): the instructions become its ``otherwise``; None when the sentence is not of this form;
    ``NoMatch`` when it is but nothing before it is such a conditional, or the instructions are unread."""
    c = Cursor(toks)
    if not c.take("otherwise", ","):
        return None
    prev = s.effects[-1] if s.effects else None
    if not isinstance(prev, IfCondition) or prev.otherwise:
        raise NoMatch("'Otherwise' after no conditional instruction")
    ntargets = len(s.targets)
    rest = list(c.rest())
    if rest and rest[-1].low == ".":
        rest = rest[:-1]
    body = Cursor(rest)
    other = instructions(body, s)
    body.end()
    if len(s.targets) != ntargets:
        raise NoMatch("a target only the condition's failing gives (CR 601.2c)")
    s.effects[-1] = IfCondition(prev.condition, prev.then, otherwise=tuple(other))
    return [s.effects[-1]]
