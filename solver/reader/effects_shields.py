"""Shields (CR 701.15, 614.8, 615): "Regenerate <permanent>" and the prevention effects of resolving
spells and abilities — "Prevent the next N damage that would be dealt to <any target | target … |
you | this creature> this turn", "Prevent all [combat] damage that would be dealt [to <…>] this
turn" (a fog, CR 615.1), "Prevent all [combat] damage that would be dealt by <…> this turn",
"Prevent all [combat] damage <…> would deal this turn", "… dealt to and dealt by <…> this turn" —
and the riders "It can't be regenerated" / "A creature destroyed this way can't be regenerated"
(CR 701.15b)."""
from __future__ import annotations

from ..core.ir import CONTROLLER, Effect, PreventDamage, Ref, Regenerate
from .cursor import Cursor, NoMatch
from .scope import Scope, amount, object_ref

__all__ = ["clause_regenerate", "clause_prevent", "cant_be_regenerated_rider"]


def clause_regenerate(c: Cursor, s: Scope) -> list[Effect]:
    """regenerate <this permanent | it | enchanted creature | target …> (CR 701.15a). The verb may
    come as a self-reference token when the card is named by the word itself."""
    t = c.peek()
    if not (c.take("regenerate") or (t is not None and t.kind == "SELF" and t.text.lower() == "regenerate"
                                     and c.take("SELF") and not c.at(("deals", "gets", "gains")))):
        raise NoMatch("regenerate")
    return [Regenerate(object_ref(c, s))]


def _protected(c: Cursor, s: Scope) -> Ref:
    """Whom a shield protects: "you", or a permanent (this one, it, enchanted creature, a target
    phrase such as "any target" or "target creature", CR 115.1)."""
    if c.take("you"):
        return CONTROLLER
    return object_ref(c, s)


def _this_turn(c: Cursor) -> None:
    """The shield's duration (CR 615.7: "this turn"); what follows is the sentence's."""
    c.need("this", "turn")


def clause_prevent(c: Cursor, s: Scope) -> list[Effect]:
    """prevent the next N damage that would be dealt to <…> this turn (CR 615.7); prevent all
    [combat] damage that would be dealt [to <…> | by <…> | to and dealt by <…>] this turn; prevent
    all [combat] damage <…> would deal this turn (CR 615.1)."""
    c.need("prevent")
    if c.take("the", "next"):
        n: int | str | None = amount(c, s)
        c.need("damage", "that", "would", "be", "dealt", "to")
        to = _protected(c, s)
        _this_turn(c)
        return [PreventDamage(to=to, amount=n)]
    c.need("all")
    combat = c.take("combat")
    c.need("damage")
    if not c.take("that", "would", "be", "dealt"):
        source = object_ref(c, s)
        c.need("would", "deal")
        _this_turn(c)
        return [PreventDamage(source=source, combat_only=combat)]
    if c.at("this", "turn"):
        _this_turn(c)
        return [PreventDamage(combat_only=combat)]
    if c.take("to", "and", "dealt", "by"):
        ref = object_ref(c, s)
        _this_turn(c)
        return [PreventDamage(to=ref, combat_only=combat), PreventDamage(source=ref, combat_only=combat)]
    if c.take("by"):
        source = object_ref(c, s)
        _this_turn(c)
        return [PreventDamage(source=source, combat_only=combat)]
    c.need("to")
    to = _protected(c, s)
    _this_turn(c)
    return [PreventDamage(to=to, combat_only=combat)]


def cant_be_regenerated_rider(c: Cursor) -> bool:
    """"It|They|That creature can't be regenerated." / "A creature|Creatures|A permanent destroyed
    this way can't be regenerated." (CR 701.15b: the destruction just described can't be replaced
    by regeneration); consumes the sentence when it is one."""
    save = c.i
    if c.take(("they", "it")) or c.take("that", ("creature", "permanent")) or (
            (c.take(("a", "the"), ("creature", "permanent")) or c.take(("creatures", "permanents")))
            and c.take("destroyed", "this", "way")):
        if c.take(("can't", "can’t"), "be", "regenerated") and c.done():
            return True
    c.i = save
    return False
