"""Activation conditions and limits of activated abilities (CR 602.5b):
"Activate only if you control …", "Activate only once each turn"."""
from __future__ import annotations

from typing import Sequence

from ..core.ir import (ActivationCondition, AnyCondition, ControlCount, ControlPower, CountersOnSource, DuringSteps,
                       EnteredThisTurn, GraveyardCard, GraveyardCount, GraveyardTypes, InstantTime, IsCreature, OpponentPoison, OpponentTurn, SameNameLands, Selector,
                       PlayedLandThisTurn, SorceryTime, TotalPower, YourTurn)
from .tokens import Token
from .cursor import Cursor, NoMatch
from .phrases import _counter_word, number, subtype_word
from .descriptions import desc, to_selector


def _controlled(c: Cursor) -> ActivationCondition:
    """After "you control": "a Swamp or a Mountain", "an artifact", "another Elf" (not the source), "five
    or more lands", "a creature with power 4 or greater" (Ferocious)."""
    if c.take("a", "creature", "with", "power"):
        n = number(c)
        c.need("or", "greater")
        return ControlPower(n=n)
    save = c.i
    n = c.attempt(number)
    if isinstance(n, int) and c.take("or", "more", "lands", "with", "the", "same", "name"):
        return SameNameLands(n=n)
    c.i = save
    if c.peek() is not None and c.low() not in ("a", "an", "another"):
        n = number(c)
        c.need("or", "more")
        d = desc(c)
        if not d.plural or d.who != "any":
            raise NoMatch("N or more <permanents>")
        d.who = "you"
        return ControlCount(to_selector(d), n=n)
    descs = []
    while True:
        another = bool(c.take("another"))   # "you control another Elf": one other than the source (CR 109.5)
        if not another:
            c.need(("a", "an"))
        d = desc(c)
        if d.plural or d.who != "any":
            raise NoMatch("a <permanent>")
        d.other = d.other or another
        d.who = "you"
        descs.append(d)
        if not c.take("or"):
            break
    if len(descs) == 1:
        return ControlCount(to_selector(descs[0]))
    if any(d.types or d.nontypes or d.basic or d.nonbasic or d.other or len(d.subtypes) != 1 for d in descs):
        raise NoMatch("alternatives other than subtypes")  # "a Swamp or a Mountain": any of the subtypes
    return ControlCount(Selector(who="you", subtypes=frozenset(s for d in descs for s in d.subtypes)))


def _graveyard_condition(c: Cursor) -> ActivationCondition | None:
    """"there are seven or more cards in your graveyard" (threshold), "there are four or more card types
    among cards in your graveyard" (delirium, CR 205.2a); None (nothing consumed) otherwise."""
    save = c.i
    c.i += 2
    n = c.attempt(number)
    if isinstance(n, int) and c.take("or", "more", "cards", "in", "your", "graveyard"):
        return GraveyardCount(n=n)
    if isinstance(n, int) and c.take("or", "more", "card", "types", "among", "cards", "in", "your", "graveyard"):
        return GraveyardTypes(n=n)
    c.i = save
    return None


def _activation_if(c: Cursor) -> ActivationCondition:
    """One condition after "Activate only if" (CR 602.5b)."""
    if c.take("you", "control"):
        return _controlled(c)
    if c.take("SELF", "entered", "this", "turn"):
        return EnteredThisTurn()
    if c.take("you", "played", "a", "land", "this", "turn") or c.take("you've", "played", "a", "land", "this", "turn"):
        return PlayedLandThisTurn()
    if c.take("there", "is", ("a", "an")):  # "there is an Elf card in your graveyard"
        sub = subtype_word(c)
        c.need("card", "in", "your", "graveyard")
        return GraveyardCard(Selector(subtypes=frozenset({sub})))
    if c.take("creatures", "you", "control", "have", "total", "power"):  # Formidable
        n = number(c)
        c.need("or", "greater")
        return TotalPower(n=n)
    if c.take("an", "opponent", "has"):  # Corrupted
        n = number(c)
        c.need("or", "more", "poison", "counters")
        return OpponentPoison(n=n)
    if c.take("SELF", "is", "a", "creature"):
        return IsCreature()
    if c.at("there", "are") and (graveyard := _graveyard_condition(c)) is not None:
        return graveyard
    if c.take("there", ("are", "is")):
        n = number(c, allow_a=True)
        if not c.take("or", "more") and n != 1:
            raise NoMatch("N or more counters")
        kind = _counter_word(c)
        c.need(("counter", "counters"), "on", "SELF")
        return CountersOnSource(n=n, counter=kind)
    if c.take("SELF", "has"):
        n = number(c, allow_a=True)
        if not c.take("or", "more") and n != 1:
            raise NoMatch("N or more counters")
        kind = _counter_word(c)
        c.need(("counter", "counters"), "on", "it")
        return CountersOnSource(n=n, counter=kind)
    raise NoMatch("activation condition")


#: The steps of a turn with priority before its declare attackers step (CR 508.1; the untap step has none).
_BEFORE_ATTACKERS = frozenset({"upkeep", "draw", "main1", "beginning_of_combat"})
#: The steps of the combat phase (CR 506.1).
_COMBAT = frozenset({"beginning_of_combat", "declare_attackers", "declare_blockers", "first_strike_damage",
                     "combat_damage", "end_of_combat"})


def _steps(c: Cursor) -> DuringSteps | None:
    """"during your upkeep", "during each upkeep" / "during any upkeep step", "during combat", "during
    the declare blockers step", "during your turn, before attackers are declared", "before attackers are
    declared" (CR 602.5b), else None (nothing consumed)."""
    for words, steps, yours in (
            (("during", "your", "turn", ",", "before", "attackers", "are", "declared"), _BEFORE_ATTACKERS, True),
            (("before", "attackers", "are", "declared"), _BEFORE_ATTACKERS, False),
            (("during", "your", "upkeep"), frozenset({"upkeep"}), True),
            (("during", "each", "upkeep"), frozenset({"upkeep"}), False),
            (("during", "any", "upkeep", "step"), frozenset({"upkeep"}), False),
            (("during", "combat"), _COMBAT, False),
            (("during", "the", "declare", "blockers", "step"), frozenset({"declare_blockers"}), False)):
        if c.take(*words):
            return DuringSteps(steps=steps, yours=yours)
    return None


def activation_restriction(st: Sequence[Token]) -> tuple[int | None, list[ActivationCondition]] | None:
    """A restriction sentence of a mana ability (CR 602.5b, 602.5d, 602.5e):
    "Activate only once each turn.", "Activate no more than three times each
    turn.", "Activate only if <condition> [or if <condition>].", "Activate only
    during your turn.", "Activate only as a sorcery.", joined by "and only".
    Returns (per-turn limit, conditions), or None if the sentence is something else."""
    c = Cursor(st)
    if not c.take("activate"):
        return None
    limit: int | None = None
    conds: list[ActivationCondition] = []
    try:
        if c.take("no", "more", "than"):
            limit = number(c)
            c.need("times", "each", "turn")
        else:
            c.need("only")
            c.i -= 1
        while c.take("only") or c.take("and", "only"):
            if c.take("once", "each", "turn"):
                if limit is not None:
                    raise NoMatch("two limits")
                limit = 1
            elif c.take("if"):
                alts = [_activation_if(c)]
                while c.take("or", "if"):
                    alts.append(_activation_if(c))
                conds.append(alts[0] if len(alts) == 1 else AnyCondition(parts=tuple(alts)))
            elif (steps := _steps(c)) is not None:
                conds.append(steps)
            elif c.take("during", "your", "turn"):
                conds.append(YourTurn())
            elif c.take("during", ("an", "each"), "opponent's", "turn"):
                conds.append(OpponentTurn())
            elif c.take("as", "a", "sorcery"):
                conds.append(SorceryTime())
            elif c.take("as", "an", "instant"):
                conds.append(InstantTime())
            else:
                raise NoMatch("restriction")
        c.end()
    except NoMatch:
        return None
    if limit is None and not conds:
        return None
    return limit, conds
