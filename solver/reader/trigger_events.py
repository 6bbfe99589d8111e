"""Trigger events of triggered abilities (CR 603.1), read by a small grammar: "When/Whenever
<subject> <event>" and "At the beginning of <step>".

* subjects: the source itself ("this creature", ``SELF``), the permanent it is attached to
  ("equipped creature", "enchanted creature"), a description of permanents ("a land you control",
  "another nontoken creature", "this creature or another Ally you control"), players ("you",
  "a player", "an opponent");
* events of permanents: enters, dies, leaves the battlefield, attacks, blocks, becomes blocked,
  becomes tapped, deals combat damage to a player / an opponent, is tapped for mana — joined by "or"
  for one ability with several events ("enters or attacks", CR 603.2);
* events of players: casts a spell (a spell description, CR 601.2i), gains life, draws a card,
  attacks (CR 508.1);
* steps: "At the beginning of [your | each | each player's | each opponent's | the] upkeep / draw
  step / precombat (first) main phase / combat [on your turn] / postcombat (second) main phase /
  end step" (CR 503–513).

Anything else raises :class:`~.cursor.NoMatch` (the line stays unread, with its structure)."""
from __future__ import annotations

from dataclasses import replace
from typing import Sequence

from ..core.ir import (AttacksTrigger, BecomesBlockedTrigger, BecomesTappedTrigger, BlocksTrigger, CastSelfTrigger,
                       CastTrigger, DealtDamageTrigger, GroupCombatDamageTrigger, UnblockedTrigger,
                       CombatDamageTrigger, CycleTrigger, DiesTrigger, DrawTrigger, EitherTrigger, EntersTrigger, Filter,
                       LeavesTrigger, LifeGainTrigger, ObjectDiesTrigger, ObjectEntersTrigger, OtherAttacksTrigger,
                       StepTrigger, TappedForMana, Trigger, YouAttackTrigger, ActivationCondition, DiscardTrigger,
                       SourceTapped, SourceUntapped)
from .activation_conditions import _activation_if
from .conditional_statics import static_condition
from .history_conditions import history_condition
from .cursor import Cursor, NoMatch
from .phrases import color_word, counter_kind, number
from .tokens import Token
from .vocabulary import COLOR_WORDS, TYPE_WORDS
from .descriptions import Desc, desc, to_filter, to_selector
from .spend_restrictions import spell_phrase


def _trigger_event(c: Cursor) -> tuple[Trigger, bool]:
    """The event of a triggered ability; the flag says it is a tapped-for-mana event (CR 106.12a)."""
    w = c.next().low
    if w in ("when", "whenever"):
        return _when(c)
    if w == "at":
        return _step(c), False
    raise NoMatch("not a trigger")


def _when(c: Cursor) -> tuple[Trigger, bool]:
    if c.take("SELF"):
        return _self_events(c), False
    if c.take(("enchanted", "equipped")):
        save = c.i
        if c.take("creature", "attacks"):
            return OtherAttacksTrigger("attached"), False
        if c.take("creature", "deals", "combat", "damage"):
            to = _player_recipient(c) if c.take("to") else "any"   # "deals combat damage," (no recipient)
            return CombatDamageTrigger("attached", None, to), False
        c.i = save
        d = desc(c)
        c.need("is", "tapped", "for", "mana")
        return TappedForMana(to_selector(d, attached=True)), True
    if c.take("a", "player", "taps") or c.take("you", "tap"):
        who = "you" if c.toks[c.i - 1].low == "tap" else "any"
        c.need(("a", "an"))
        d = desc(c)
        c.need("for", "mana")
        if who == "you":
            if d.who == "opponent":
                raise NoMatch("you tap an opponent's permanent")
            d.who = "you"  # CR 602.2: only a permanent's controller activates its mana abilities
        return TappedForMana(to_selector(d)), True
    player = _player_event(c)
    if player is not None:
        return player, False
    if c.take("one", "or", "more"):   # "one or more creatures you control deal combat damage to a player"
        d = desc(c)
        c.need("deal", "combat", "damage", "to")
        to = _player_recipient(c)
        return GroupCombatDamageTrigger(_object_filter(d, False), to), False
    if c.take(("a", "an", "another")):
        other = c.toks[c.i - 1].low == "another"
        save = c.i
        d = desc(c)
        if c.take("is", "tapped", "for", "mana"):
            if other:
                raise NoMatch("another … is tapped for mana")
            return TappedForMana(to_selector(d)), True
        c.i = save
        return _object_events(c, other, self_too=False), False
    raise NoMatch("trigger event")


def _self_events(c: Cursor) -> Trigger:
    """The events of "this permanent": one, or several joined by "or" (CR 603.2)."""
    if c.take("or", "another"):
        return _object_events(c, True, self_too=True)
    events = [_self_event(c)]
    while c.take("or"):
        events.append(_self_event(c))
    if len(events) == 1:
        return events[0]
    if len(set(events)) != len(events):
        raise NoMatch("an event named twice")
    return EitherTrigger(tuple(events))


def _self_event(c: Cursor) -> Trigger:
    if c.take("enters"):
        c.take("the", "battlefield")
        return EntersTrigger()
    if c.take("dies"):
        return DiesTrigger()
    if c.take("is", "put", "into", "a", "graveyard", "from", "the", "battlefield"):
        return DiesTrigger(any_permanent=True)   # any permanent's move, not only a creature's (CR 700.4)
    if c.take("leaves", "the", "battlefield"):
        return LeavesTrigger()
    if c.take("attacks", "and", "isn't", "blocked"):
        return UnblockedTrigger()
    if c.take("is", "dealt", "damage"):
        return DealtDamageTrigger()
    if c.take("attacks"):
        if c.at("and") or c.at("while") or c.at("alone"):
            raise NoMatch("attacks with a further condition")
        return AttacksTrigger()
    if c.take("blocks"):
        if c.at("a") or c.at("an"):
            raise NoMatch("blocks a described creature")
        return BlocksTrigger()
    if c.take("becomes", "blocked"):
        if c.at("by"):
            raise NoMatch("becomes blocked by a described creature")
        return BecomesBlockedTrigger()
    if c.take("becomes", "tapped"):
        return BecomesTappedTrigger()
    if c.take("deals", "combat", "damage", "to"):
        return CombatDamageTrigger("self", None, _player_recipient(c))
    if c.take("deals", "damage", "to"):
        return CombatDamageTrigger("self", None, _player_recipient(c), combat=False)
    raise NoMatch("event of this permanent")


def _player_recipient(c: Cursor) -> str:
    """"a player" | "an opponent" | "a creature" — whom combat damage is dealt to (not "or planeswalker")."""
    if c.take("a", "player"):
        to = "player"
    elif c.take("an", "opponent"):
        to = "opponent"
    elif c.take("a", "creature"):
        to = "creature"
    else:
        raise NoMatch("combat damage to something other than a player")
    if c.at("or"):
        raise NoMatch("combat damage to a player or another recipient")
    return to


def _player_event(c: Cursor) -> Trigger | None:
    """"you cast <spell>", "a player casts …", "an opponent casts …", "you gain life", "you draw a
    card", "you attack"; None when the subject is not a player."""
    save = c.i
    if c.take("you"):
        who = "you"
    elif c.take("a", "player"):
        who = "any"
    elif c.take("an", "opponent"):
        who = "opponent"
    else:
        return None
    if who == "you" and c.take("cycle", "SELF"):
        if not c.toks[c.i - 1].text.lower().startswith("this "):
            raise NoMatch("you cycle <a name>: this card only")
        return CycleTrigger()   # CR 702.29c
    if who == "you" and c.take("cast", "SELF"):
        if c.toks[c.i - 1].text.lower() != "this spell":
            raise NoMatch("you cast <a name>: this spell only")
        return CastSelfTrigger()
    if c.take(("cast", "casts")):
        nth = _nth_spell(c)
        if nth:
            return CastTrigger(who, (), nth)
        if c.at("your") or c.at("another") or c.at("this") or c.at("their"):
            raise NoMatch("cast with a count or of this spell")
        colors = _spell_colors(c)
        spells = spell_phrase(c)
        if colors:   # "a green spell", "a white or blue spell": any of the colors (CR 105.2, 202.2)
            spells = tuple(replace(f, colors=frozenset({col})) for col in colors for f in spells)
        if any(f.from_zones or f.not_from_zones or f.not_owned or f.chosen_type or f.has_x for f in spells):
            raise NoMatch("a spell described by where it is cast from or a choice")
        mv_counters = _mv_equal_to_counters(c)
        if c.at("that") or c.at("with") or c.at("during") or c.at("from"):
            raise NoMatch("a further condition on the spell")
        any_spell = all(f == Filter(zone="stack") for f in spells)
        return CastTrigger(who, () if any_spell else spells, mv_counters=mv_counters)
    if who == "you" and c.take("gain", "life"):
        return LifeGainTrigger()
    if c.at(("discard", "discards"), "a", "card") and (c.low() == "discard") == (who == "you"):
        c.i += 3
        return DiscardTrigger(who)   # "whenever you discard a card" (CR 701.9a)
    if c.take(("draw", "draws"), "a", "card"):
        if c.at("except") or (c.toks[c.i - 3].low == "draw") != (who == "you"):
            raise NoMatch("a draw with an exception, or a verb not agreeing with its subject")
        return DrawTrigger(who)
    if who == "you" and c.take("attack"):
        if c.take("with"):   # "with three or more creatures": a count of the creatures declared (CR 508.1)
            n = number(c)
            if not isinstance(n, int) or n < 1 or not c.take("or", "more", "creatures") or not c.at(","):
                raise NoMatch("you attack with a described or uncounted group")
            return YouAttackTrigger(n)
        return YouAttackTrigger()
    c.i = save
    raise NoMatch("event of a player")


def _mv_equal_to_counters(c: Cursor) -> str:
    """"with mana value equal to the number of <kind> counters on this <permanent>" after a cast spell
    (CR 202.3, 122.1): the counter kind, consumed; "" when not there (nothing consumed)."""
    if not c.take("with", "mana", "value", "equal", "to", "the", "number", "of"):
        return ""
    kind = counter_kind(c)
    c.need(("counter", "counters"), "on")
    if not (c.take("SELF") or (c.take("this") and c.peek() is not None and c.next().low in TYPE_WORDS)):
        raise NoMatch("counters on this permanent")
    return kind


def _spell_colors(c: Cursor) -> list[str]:
    """"a green", "a white or blue" before the rest of a spell's description: the colors (any of),
    consumed; [] when the description names no color (nothing consumed)."""
    save = c.i
    c.take(("a", "an"))
    if c.low() not in COLOR_WORDS:
        c.i = save
        return []
    colors = [color_word(c)]
    while c.at("or") and c.low(1) in COLOR_WORDS:
        c.i += 1
        colors.append(color_word(c))
    return colors


_ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5}


def _nth_spell(c: Cursor) -> int:
    """"your second spell each turn" / "their first spell each turn" (CR 601.2i: the caster's spells
    cast this turn, counted in order); 0 when the words are not this shape."""
    save = c.i
    if c.take(("your", "their")) and c.low() in _ORDINALS:
        n = _ORDINALS[c.next().low]
        if c.take("spell", "each", "turn"):
            return n
    c.i = save
    return 0


def _object_filter(d: Desc, other: bool) -> Filter:
    """The permanents a trigger describes ("a land you control", "another creature"), as a filter of
    the battlefield; "another" is every one but the source (CR 109.5)."""
    if d.other:
        other = True
        d.other = False
    if d.zone != "battlefield" or d.card or d.players:
        raise NoMatch("not a description of permanents")
    f = to_filter(d)
    if f.condition or f.controller_ref:
        raise NoMatch("a description only read as structure")
    return replace(f, other_than_source=other or f.other_than_source)


def _object_events(c: Cursor, other: bool, self_too: bool) -> Trigger:
    """"<permanents> enters [the battlefield] [under your control]", "… dies", "… attacks",
    "… deals combat damage to a player"."""
    d = desc(c)
    if c.take("enters") or c.take("enter"):
        c.take("the", "battlefield")
        if c.take("under", "your", "control"):
            if d.who == "opponent":
                raise NoMatch("an opponent's permanent under your control")
            d.who = "you"
        elif c.at("under"):
            raise NoMatch("enters under another player's control")
        tapped = c.take("tapped")   # "Whenever a permanent you control enters tapped" (CR 603.6a)
        if tapped and self_too:
            raise NoMatch("this or another … enters tapped")
        return ObjectEntersTrigger(_object_filter(d, other), self_too, tapped)
    if c.take("dies") or c.take("die"):
        return ObjectDiesTrigger(_object_filter(d, other), self_too)
    if self_too:
        raise NoMatch("this or another … with another event")
    if c.take("attacks"):
        alone = bool(c.take("alone"))
        if c.at("and") or c.at("while"):
            raise NoMatch("attacks with a further condition")
        return OtherAttacksTrigger("filter", _object_filter(d, other), alone)
    if c.take("deals", "combat", "damage", "to"):
        return CombatDamageTrigger("filter", _object_filter(d, other), _player_recipient(c))
    raise NoMatch("event of permanents")


_STEP_WORDS: tuple[tuple[tuple[str, ...], str], ...] = (
    (("upkeep",), "upkeep"), (("draw", "step"), "draw"), (("precombat", "main", "phase"), "main1"),
    (("first", "main", "phase"), "main1"), (("postcombat", "main", "phase"), "main2"),
    (("second", "main", "phase"), "main2"), (("end", "step"), "end"))


def _step(c: Cursor) -> StepTrigger:
    """"the beginning of <whose> <step>" (CR 603.2b). "Your first/second main phase" is the
    precombat/postcombat main phase (CR 505.1); "the end step" is every end step."""
    c.need("the", "beginning", "of")
    if c.take("combat"):
        if c.take("on", "your", "turn"):
            return StepTrigger("beginning_of_combat", "you")
        if c.take("on", "each", "opponent's", "turn"):
            return StepTrigger("beginning_of_combat", "opponent")
        return StepTrigger("beginning_of_combat", "each")
    if c.take("each", "combat"):
        return StepTrigger("beginning_of_combat", "each")
    if c.take("your"):
        whose = "you"
    elif c.take("each", "opponent's"):
        whose = "opponent"
    elif c.take("each", "player's") or c.take("each") or c.take("the"):
        whose = "each"
        if c.at("next") or c.at("upkeep", "of"):
            raise NoMatch("a delayed or another player's step")
    else:
        raise NoMatch("whose step")
    for words, step in _STEP_WORDS:
        if c.take(*words):
            return StepTrigger(step, whose)
    raise NoMatch("step or phase")


def _source_tapped(c: Cursor) -> ActivationCondition:
    """"if this artifact is tapped" / "… is untapped" (CR 110.5, 603.4): the source's status."""
    c.need("SELF", "is")
    if c.take("tapped"):
        return SourceTapped()
    c.need("untapped")
    return SourceUntapped()


def intervening_if(first: Sequence[Token]) -> tuple[ActivationCondition | None, Sequence[Token]]:
    """An intervening "if" clause (CR 603.4) at the start of a triggered ability's effect: "When
    this creature enters, if you control a Swamp, …" — the condition (read by the activation and
    static condition readers) and the rest of the sentence; (None, ``first``) when there is none.
    An "if" clause whose condition is not read raises :class:`NoMatch` (the trigger stays unread:
    it is checked as the event happens, which nothing else would do)."""
    if not first or first[0].low != "if":
        return None, first
    for read in (_source_tapped, _activation_if, static_condition, history_condition):
        c = Cursor(first)
        c.i = 1
        try:
            cond = read(c)
        except NoMatch:
            continue
        if c.take(","):
            return cond, first[c.i:]
    raise NoMatch("an intervening 'if' clause (CR 603.4) whose condition is not read")
