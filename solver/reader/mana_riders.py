"""Sentences after "Add …" in a mana ability that the IR models (CR 605.1a):
additional effects (:class:`~solver.core.ir.ManaRider`) and conditional amounts
("If <condition>, add {C}{C}{C} instead", :attr:`~solver.core.ir.Produce.instead`).

Read on their own so that :func:`solver.reader.grammar.line_activated` needs
only one call per sentence; every function returns None for a sentence it
does not read completely (the sentence then stays an unsupported rider).

Templates:

* "SELF doesn't untap during your next untap step." (CR 502.3);
* "Put a/an/N <kind> counter(s) on SELF." (CR 122.1);
* "If there are no <kind> counters on SELF, sacrifice it." (depletion lands);
* "You gain N life.", "Each opponent gains N life.", "Each player loses N
  life.", optionally after "If you control <permanents>," (CR 119.3, 119.4);
* "Draw a card." / "Draw N cards." (CR 121.1);
* "If <condition>, add <mana> instead." / "If <condition>, instead add <mana>."
  (CR 614.1a wording of a self-replacing amount; the condition is read as the
  ability resolves, CR 608.2h).
"""
from __future__ import annotations

from typing import Sequence

from ..core.ir import (ActivationCondition, AddCountersRider, AllConditions, ControlCount, DrawRider, GainLifeRider,
                       LoseLifeRider, ManaRider, Produce, SacrificeIfNone, Selector, SkipUntapRider)
from .tokens import Token
from .cursor import Cursor, NoMatch
from .phrases import _counter_word, is_subtype, number
from .production import add_clause, produce
from .activation_conditions import _activation_if, _controlled


def _condition(c) -> ActivationCondition:
    """After "if": "you control …" (also "an Urza's Power-Plant and an Urza's
    Tower"), "SELF has a <kind> counter on it", "there are N or more …"."""
    if c.take("you", "control"):
        parts: list[ActivationCondition] = []
        while True:
            save = c.i
            if c.take(("a", "an"), "urza's") and c.peek() is not None and is_subtype(c.peek().text):
                parts.append(ControlCount(Selector(who="you", subtypes=frozenset({c.next().text}))))
            else:
                c.i = save
                parts.append(_controlled_until_and(c))
            if not c.take("and"):
                break
        return parts[0] if len(parts) == 1 else AllConditions(parts=tuple(parts))
    return _activation_if(c)


def _controlled_until_and(c) -> ActivationCondition:
    """One "you control" condition, stopping before "and" or ","."""
    stop = c.i
    toks = c.toks
    while stop < len(toks) and toks[stop].low not in ("and", ","):
        stop += 1
    sub = Cursor(toks[c.i:stop])
    cond = _controlled(sub)
    sub.end()
    c.i = stop
    return cond


def rider(st: Sequence[Token]) -> ManaRider | None:
    """One additional-effect sentence of a mana ability, or None."""
    c = Cursor(st)
    try:
        cond = None
        if c.take("if"):
            if c.take("there", "are", "no"):
                kind = _counter_word(c)
                c.need("counters", "on", "SELF", ",", "sacrifice", "it")
                c.end()
                return SacrificeIfNone(counter=kind)
            cond = _condition(c)
            c.need(",")
        if cond is None and c.take("SELF", "doesn't", "untap", "during", "your", "next", "untap", "step"):
            c.end()
            return SkipUntapRider()
        if cond is None and c.take("put"):
            n = number(c, allow_a=True)
            kind = _counter_word(c)
            c.need(("counter", "counters"), "on", "SELF")
            c.end()
            if not isinstance(n, int) or n < 1:
                return None
            return AddCountersRider(n=n, counter=kind)
        if cond is None and c.take("draw"):
            n = number(c, allow_a=True)
            c.need(("card", "cards"))
            c.end()
            return DrawRider(n=n) if isinstance(n, int) and n >= 1 else None
        who = None
        if c.take("you"):
            who, verbs = "you", ("gain", "lose")
        elif c.take("each", "opponent"):
            who, verbs = "each_opponent", ("gains", "loses")
        elif c.take("each", "player"):
            who, verbs = "each_player", ("gains", "loses")
        if who is None:
            return None
        verb = c.next().low
        if verb not in verbs:
            return None
        n = number(c)
        c.need("life")
        c.end()
        if not isinstance(n, int) or n < 1:
            return None
        return (GainLifeRider if verb == verbs[0] else LoseLifeRider)(n=n, who=who, condition=cond)
    except NoMatch:
        return None


def instead(st: Sequence[Token], x_cost: bool = False) -> tuple[ActivationCondition, Produce] | None:
    """"If <condition>, add <mana> instead." / "If <condition>, instead add <mana>." or None."""
    c = Cursor(st)
    try:
        c.need("if")
        cond = _condition(c)
        c.need(",")
        if c.take("instead"):
            prod = add_clause(c, x_cost=x_cost)
        else:
            c.need("add")
            prod = produce(c, x_cost=x_cost)
            c.need("instead")
            c.end()
        return cond, prod
    except NoMatch:
        return None
