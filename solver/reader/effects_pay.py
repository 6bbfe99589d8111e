"""Passages of two or three sentences whose later sentences depend on the first (CR 608.2c):

* "You may pay {4}. If you do, <instructions>." — an optional payment while resolving (CR 608.2d,
  118.1; :class:`solver.core.ir.MayPay`): the instructions happen only if the cost was paid;
* "Pay {2}{G}{G}. If you don't, <instructions>." — the same choice, the instructions happening only if
  the cost was not paid (``MayPay.otherwise``), also as a delayed trigger's instruction ("At the
  beginning of your next upkeep, pay {2}{G}{G}. If you don't, you lose the game.", CR 603.7a);
* "Flip a coin. If you win the flip, <instructions>. If you lose the flip, <instructions>." (either
  "if" sentence may stand alone, in either order) — a coin flip (CR 705.1–705.2,
  :class:`solver.core.ir.CoinFlip`).

And the clauses "you lose the game" (CR 104.3e, :class:`solver.core.ir.LoseGame`) and "take an extra
turn after this one" (CR 500.7, :class:`solver.core.ir.ExtraTurn`).

The instructions are read by the effect grammar (the caller's sentence reader); anything it does not
read leaves the whole passage unread. A mana payment with X is not read (CR 107.3: nothing says
what X is)."""
from __future__ import annotations

from typing import Callable, Sequence

from ..core.ir import CONTROLLER, CoinFlip, Effect, ExtraTurn, LoseGame, MayPay, Ref, SkipNextCombat
from ..core.mana import ManaCost
from .cursor import Cursor, NoMatch
from .effects_delayed import add_delayed, delayed_scope, delayed_time
from .phrases import mana_cost, mana_run
from .scope import Scope, target_phrase
from .tokens import Token

__all__ = ["paid_or_flipped", "clause_lose_game", "clause_extra_turn", "clause_skip_next_combat"]

Sentences = Sequence[Sequence[Token]]
SentenceReader = Callable[[Sequence[Token], Scope], object]


def _inner(toks: Sequence[Token], s: Scope, read: SentenceReader) -> tuple[Effect, ...]:
    """The instructions of one sentence (``read`` appends them to ``s.effects``), taken out of ``s``."""
    saved = list(s.effects)
    s.effects[:] = []
    try:
        read(toks, s)
        return tuple(s.effects)
    finally:
        s.effects[:] = saved


def _may_pay(sents: Sentences, i: int, s: Scope, read: SentenceReader) -> int:
    """"You may pay <mana>. If you do, <instructions>.": sentences read (2), or 0."""
    if i + 1 >= len(sents):
        return 0
    first, second = Cursor(sents[i]), Cursor(sents[i + 1])
    if not first.take("you", "may", "pay") or not second.take("if", "you", "do", ","):
        return 0
    run = first.attempt(mana_run)
    if run is None:
        return 0   # "you may pay 2 life" and other costs: not this passage
    cost = mana_cost(run)
    first.take(".")
    if not first.done() or cost.x_count:
        return 0
    then = _inner(second.rest(), s, read)
    s.effects.append(MayPay(cost, then))
    return 2


def _pay_words(toks: Sequence[Token]) -> ManaCost | None:
    """"pay <mana>" (the whole of ``toks``, a final period aside) as the cost, or None."""
    c = Cursor(toks)
    if not c.take("pay"):
        return None
    run = c.attempt(mana_run)
    c.take(".")
    if run is None or not c.done():
        return None
    cost = mana_cost(run)
    return None if cost.x_count else cost


def _pay_or_else(sents: Sentences, i: int, s: Scope, read: SentenceReader) -> int:
    """"[At the beginning of your next upkeep,] pay <mana>. If you don't, <instructions>.": sentences
    read (2), or 0."""
    if i + 1 >= len(sents):
        return 0
    second = Cursor(sents[i + 1])
    if not second.take("if", "you", "don't", ","):
        return 0
    split = delayed_time(sents[i])
    when, words = split if split is not None else (None, list(sents[i]))
    cost = _pay_words(words)
    if cost is None:
        return 0
    if when is None:
        s.effects.append(MayPay(cost, (), _inner(second.rest(), s, read)))
        return 2
    inner = delayed_scope(s)
    add_delayed(when, [MayPay(cost, (), _inner(second.rest(), inner, read))], s, inner)
    return 2


def clause_lose_game(c: Cursor, s: Scope) -> list[Effect]:
    """"you lose the game" (CR 104.3e)."""
    c.need("you", "lose", "the", "game")
    return [LoseGame(CONTROLLER)]


def clause_skip_next_combat(c: Cursor, s: Scope) -> list[Effect]:
    """"target opponent / target player / each opponent skips their next combat phase", "you skip your next
    combat phase" (CR 614.10)."""
    if c.take("you", "skip", "your"):
        ref: Ref = CONTROLLER
    elif c.take("each", "opponent", "skips", "their"):
        ref = Ref("each_opponent")
    else:
        ref = target_phrase(c, s)
        spec = s.targets[ref.index]
        if not spec.filter.players or spec.filter.types or ref.kind != "target":
            raise NoMatch("a target player")
        c.need("skips", "their")
    c.need("next", "combat", "phase")
    return [SkipNextCombat(ref)]


def clause_extra_turn(c: Cursor, s: Scope) -> list[Effect]:
    """"[you] take an extra turn after this one" (CR 500.7)."""
    c.take("you")
    c.need("take", "an", "extra", "turn", "after", "this", "one")
    return [ExtraTurn(CONTROLLER)]


def _flip_branch(toks: Sequence[Token]) -> tuple[str, Sequence[Token]] | None:
    """"If you win|lose the flip, <instructions>": ("win"|"lose", the instructions), or None."""
    c = Cursor(toks)
    if not c.take("if", "you"):
        return None
    side = c.next().low if c.at(("win", "lose")) else None
    if side is None or not c.take("the", "flip", ","):
        return None
    return side, c.rest()


def _coin_flip(sents: Sentences, i: int, s: Scope, read: SentenceReader) -> int:
    """"Flip a coin. If you win|lose the flip, … [If you lose|win the flip, …]": sentences read, or 0."""
    c = Cursor(sents[i])
    if not c.take("flip", "a", "coin"):
        return 0
    c.take(".")
    if not c.done():
        return 0
    branches: dict[str, tuple[Effect, ...]] = {}
    used = 1
    while i + used < len(sents) and (b := _flip_branch(sents[i + used])) is not None and b[0] not in branches:
        branches[b[0]] = _inner(b[1], s, read)
        used += 1
    if not branches:
        return 0   # what the flip decides is not in this passage
    s.effects.append(CoinFlip(branches.get("win", ()), branches.get("lose", ())))
    return used


def paid_or_flipped(sents: Sentences, i: int, s: Scope, read: SentenceReader) -> int:
    """The passage at sentence ``i`` (see the module docstring): the number of sentences read, or 0.
    Raises :class:`~solver.reader.cursor.NoMatch` when the passage is there but its instructions are not read."""
    return _may_pay(sents, i, s, read) or _pay_or_else(sents, i, s, read) or _coin_flip(sents, i, s, read)
