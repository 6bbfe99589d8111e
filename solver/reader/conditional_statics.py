"""Static abilities that apply only while a condition holds (CR 604.1, 611.3a):
"As long as <condition>, <static>." and "<static> as long as <condition>."

The static is one the grammar already reads — an anthem or self-pump
("this creature gets +1/+0 and has haste", layers 6 and 7c) or a combat
requirement or restriction ("attacks each combat if able", CR 508.1d) — and
carries the condition (``Static.condition``); :mod:`solver.rules.characteristics`
applies it only while the condition holds, evaluated on the board as it is
(CR 611.3a: such an effect isn't locked in; it applies whenever its condition
is true). A list "gets +2/+2, has flying, and attacks each combat if able"
gives one static per item, all with the same condition.

Conditions read (each needs no power, toughness or ability of any permanent,
so the characteristics computation can evaluate them after layer 5 without
reading itself):

* "you control a|an <permanent>", "you control N or more <permanents>",
  "you control a <Subtype> or a <Subtype>" (``control``, :mod:`.activation_conditions`);
* "it's your turn" (``your_turn``);
* "this creature is equipped" (``equipped``: an Equipment is attached to it, CR 301.5);
* "it has a +1/+1 counter on it", "… N or more <kind> counters on it" (``counters``);
* "it's attacking" / "this creature is attacking" (``attacking``, CR 506.4) and "it's
  untapped" / "this creature is untapped" (``untapped``);
* "there are N or more cards in your graveyard" / "N or more cards are in
  your graveyard" (threshold; ``graveyard_count``);
* "there are N or more card types among cards in your graveyard" (delirium,
  CR 205.2a; ``graveyard_types``);
* "an opponent has N or more poison counters" (``opponent_poison``).

A conditional flash ("This spell has flash as long as you control a Merfolk") works
while the card is in a hand (CR 702.8a), where these statics are not applied: it
stays unsupported, as does anything else.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Callable, Sequence

from ..core import ir
from ..core.ir import (Ability, ActivationCondition, ControlCount, CountersOnSource, Equipped, GraveyardCount, GraveyardTypes,
                       OpponentPoison, SourceAttacking, SourceUntapped, Static, YourTurn)
from .activation_conditions import _controlled
from .cursor import Cursor, NoMatch, sentences
from .phrases import _counter_word, number
from .static_sentences import _Both
from .tokens import Token
from .vocabulary import TYPE_WORDS

__all__ = ["line_conditional_static", "static_condition"]

# static kinds a condition may govern: the ones the characteristics view gathers (layers 6/7c)
# and the combat requirements and restrictions read through it (solver/engine/combat.py)
_GOVERNED: tuple[type[Static], ...] = (ir.StaticPump, ir.MustAttack, ir.MustBlock, ir.CantAttack, ir.CantBlock,
                                       ir.Unblockable, ir.CantAttackAlone, ir.CantBlockAlone)

Body = Callable[[Cursor], Static]


def static_condition(c: Cursor) -> ActivationCondition:
    """The condition after "as long as" (see the module docstring)."""
    if c.take("you", "control"):
        cond = _controlled(c)
        if not isinstance(cond, ControlCount):
            raise NoMatch("a condition read from power")   # would read layer 7 while computing it
        return cond
    if c.take("it's", "your", "turn"):
        return YourTurn()
    if c.take(("SELF", "it"), "is", "equipped"):
        return Equipped()
    if c.take(("SELF", "it"), "is", "attacking") or c.take("it's", "attacking"):
        return SourceAttacking()
    if c.take(("SELF", "it"), "is", "untapped") or c.take("it's", "untapped"):
        return SourceUntapped()
    if c.take(("SELF", "it"), "has"):   # "it has a +1/+1 counter on it", "three or more … counters"
        n = number(c, allow_a=True)
        if n != 1 and not c.take("or", "more"):
            raise NoMatch("N or more counters")
        kind = _counter_word(c)
        c.need(("counter", "counters"), "on", "it")
        return CountersOnSource(n=n, counter=kind)
    if c.take("an", "opponent", "has"):
        n = number(c)
        c.need("or", "more", "poison", "counters")
        return OpponentPoison(n=n)
    c.take("there", "are")
    n = number(c)
    if not isinstance(n, int):
        raise NoMatch("a number")
    c.need("or", "more")
    if c.take("card", "types", "among", "cards", "in", "your", "graveyard"):
        return GraveyardTypes(n=n)
    if c.take("cards", "in", "your", "graveyard") or c.take("cards", "are", "in", "your", "graveyard"):
        return GraveyardCount(n=n)
    t = c.peek()
    if t is not None and t.low in TYPE_WORDS and TYPE_WORDS[t.low] in ir.CARD_TYPES:   # "land cards" (CR 205.2a)
        c.i += 1
        c.need("cards", "in", "your", "graveyard")
        return GraveyardCount(n=n, types=frozenset({TYPE_WORDS[t.low]}))
    raise NoMatch("a static condition")


_COMBAT_VERBS = frozenset({"can't", "attacks", "blocks", "can"})


def _split_verbs(piece: list[Token]) -> list[list[Token]]:
    """"SELF gets +2/+2 and can't block": two statics of the same subject."""
    if not piece or piece[0].kind != "SELF":
        return [piece]
    for i in range(1, len(piece) - 1):
        if piece[i].low == "and" and piece[i + 1].low in _COMBAT_VERBS:
            return [piece[:i], [piece[0], *piece[i + 1:]]]
    return [piece]


def _statics(body: Sequence[Token], readers: Sequence[Body]) -> list[Static]:
    """The statics of ``body``: one sentence, or a list "SELF gets …, has …, and attacks …"
    whose later items share the first one's subject (the source)."""
    items: list[list[Token]] = [[]]
    for t in body:
        if t.low == ",":
            items.append([])
        else:
            items[-1].append(t)
    if len(items) > 2 and body and body[0].kind == "SELF":
        if items[-1] and items[-1][0].low == "and":
            items[-1] = items[-1][1:]
        pieces = [items[0]] + [[body[0], *item] for item in items[1:]]
    else:
        pieces = [list(body)]
    pieces = [part for piece in pieces for part in _split_verbs(piece)]
    out: list[Static] = []
    for piece in pieces:
        for read in readers:
            c = Cursor(piece)
            try:
                s = read(c)
                c.end()
            except NoMatch:
                continue
            except _Both as both:   # "can't attack or block": two combat statics
                c.end()
                out.extend(k(both.sel) for k in both.kinds)
                break
            out.append(s)
            break
        else:
            raise NoMatch("a static the condition governs")
    return out


def line_conditional_static(toks: Sequence[Token], raw: str, readers: Sequence[Body]) -> list[Ability]:
    """One sentence "As long as <condition>, <static>." or "<static> as long as <condition>."
    (``readers``: the grammar's static readers, tried in order on the static's words)."""
    sents = sentences(toks)
    if len(sents) != 1:
        raise NoMatch("one sentence")
    words = sents[0]
    c = Cursor(words)
    if c.take("as", "long", "as"):
        cond = static_condition(c)
        c.need(",")
        body = words[c.i:]
        if body and body[0].low == "it":   # "As long as this creature is equipped, it gets …"
            body = [body[0]._replace(kind="SELF", low="self"), *body[1:]]
    else:
        at = next((i for i in range(len(words) - 2)
                   if (words[i].low, words[i + 1].low, words[i + 2].low) == ("as", "long", "as")), None)
        if at is None or at == 0:
            raise NoMatch("as long as")
        c = Cursor(words[at + 3:])
        cond = static_condition(c)
        c.end()
        body = words[:at]
    statics = _statics(body, readers)
    if any(not isinstance(s, _GOVERNED) for s in statics):
        raise NoMatch("a static kind a condition doesn't govern here")
    if any(isinstance(s, ir.StaticPump) and "flash" in s.keywords for s in statics):   # works on a spell in the hand (CR 702.8a), not read there
        raise NoMatch("a conditional flash")
    return [replace(s, condition=cond, text=raw) for s in statics]
