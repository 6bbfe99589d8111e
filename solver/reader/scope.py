"""What the sentences of one ability or spell refer to (:class:`Scope`): its
targets (CR 115), "it"/"that creature" references and amounts."""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from ..core import ir
from ..core.ir import ANY_NUMBER, ANY_TARGET, ATTACHED, Effect, Ref, SELF, T, TargetSpec
from .vocabulary import GRANTABLE_KEYWORDS, STRIKE_WORDS
from .cursor import Cursor, NoMatch
from .phrases import number, pt
from .descriptions import desc, to_filter


@dataclass
class Scope:
    """Targets introduced so far (CR 115.1, one per instance of "target"), the
    object last mentioned ("it", "that creature"), and the source's nature."""

    targets: list[TargetSpec] = field(default_factory=list)
    last: Ref | None = None
    source_is_permanent: bool = True
    x_defined: bool = False
    effects: list[Effect] = field(default_factory=list)
    groups: int = 0  # group effects read so far (GroupPump slots, CR 611.2c)
    #: may an instruction add mana here ("Add {B}{B}{B}")? A spell, a triggered ability that is not a mana
    #: ability, a loyalty ability (CR 605.1a-b, 605.5a); never an activated ability without a target, which
    #: would be a mana ability (CR 605.1a), whose reader is the mana ability's (reader/production.py).
    adds_mana: bool = False
    event_player: Ref | None = None  # "that player": the player a trigger event names (CR 603.2)
    event_spell: Ref | None = None   # "that spell": the spell a cast trigger names (CR 603.2, 601.2i)


#: What a trigger event names, in its ability's effect (CR 603.2, 608.2c): the object ("it", "that
#: creature") and the player ("that player"); resolution finds them (``solver.engine.resolution``).
EVENT_OBJECT = Ref("event_object")
EVENT_PLAYER = Ref("event_player")


def trigger_scope(trig: ir.Trigger) -> Scope:
    """The scope of a triggered ability's effect (CR 603.2): "it" is the source for the source's own
    events ("when this creature enters"); the object the event names for an event of other objects —
    the permanent that entered ("whenever a creature you control enters"), the attacking creature
    ("whenever a creature you control attacks"), the creature that dealt combat damage; "that player"
    the player dealt combat damage or who cast the spell ("whenever an opponent casts a spell");
    the card a dying creature became in its owner's graveyard (CR 400.7d; what may be done to it:
    :func:`check_event_refs`). Other events ("equipped creature"'s, leaves-the-battlefield) bind
    nothing: their "it" stays unread."""
    s = Scope(last=SELF if trig.of_source else None)
    if isinstance(trig, (ir.ObjectEntersTrigger, ir.ObjectDiesTrigger, ir.DiscardTrigger)) or \
            (isinstance(trig, (ir.OtherAttacksTrigger, ir.CombatDamageTrigger)) and trig.subject == "filter"):
        s.last = EVENT_OBJECT
    if isinstance(trig, ir.CastTrigger):
        s.event_spell = EVENT_OBJECT   # "where X is that spell's mana value"
    if isinstance(trig, ir.CycleTrigger):
        s.x_defined = True             # X: the X paid for the cycling cost (CR 702.29c)
    if isinstance(trig, ir.CombatDamageTrigger) and trig.to == "creature":
        s.last = EVENT_OBJECT   # "… deals combat damage to a creature, exile that creature": the creature dealt it
    if isinstance(trig, ir.CombatDamageTrigger) or \
            (isinstance(trig, (ir.CastTrigger, ir.DrawTrigger, ir.DiscardTrigger)) and trig.who != "you"):
        s.event_player = EVENT_PLAYER
    if isinstance(trig, ir.CastTrigger):
        s.event_spell = EVENT_OBJECT
    return s


#: Effects that last (the effects list, CR 611.2a): it names the objects they affect by target only.
_LASTING = (ir.Pump, ir.UntilEndOfTurn, ir.ThisTurn)


#: What may be done to the card a dying creature became in its owner's graveyard (CR 400.7d: an
#: ability that triggers on a zone change finds the new object in the public zone it moved to).
FROM_GRAVEYARD = (ir.Exile, ir.ReturnToHand, ir.ReturnToBattlefield)


def check_event_refs(s: Scope, trig: ir.Trigger) -> None:
    """Refuse (unread) what the kernel and resolution don't decide: a lasting effect on the player a
    trigger event named (the effects list records the event's object, "it gets +1/+0 until end of
    turn", entry key ``event_object``, not its player); after a dies trigger, anything but exiling or
    returning the card it became in the graveyard (CR 400.7d; "its power", "its controller" and the
    like are not read either)."""
    if any(isinstance(e, _LASTING) and "event_player" in ir.event_ref_kinds(e) for e in s.effects):
        raise NoMatch("a lasting effect on the player its trigger event named")
    if isinstance(trig, ir.DiesTrigger):
        # "When this creature dies, return it to its owner's hand": "it" is the card the source became in the
        # graveyard (CR 400.7d), the object its own event named — found there only to be exiled or returned
        s.effects[:] = [replace(e, to=EVENT_OBJECT) if isinstance(e, FROM_GRAVEYARD) and e.to == SELF else e
                        for e in s.effects]
    if isinstance(trig, (ir.ObjectDiesTrigger, ir.DiscardTrigger)) and any(
            "event_object" in ir.event_ref_kinds(e) and not isinstance(e, FROM_GRAVEYARD) for e in s.effects):
        raise NoMatch("a dies trigger's effect on the card other than exiling or returning it")


def target_phrase(c: Cursor, s: Scope, allow_graveyard: bool = False) -> Ref:
    """"any target", "any other target", "[up to N|N] [other|another] target <desc>" (CR 115.1, 115.6).

    Cards in a graveyard are accepted only where the clause says what happens
    to such a card (``allow_graveyard``)."""
    other = False
    lo = hi = 1
    if c.take("any", "other", "target"):
        filt, other = ANY_TARGET, True
    elif c.take("any", "target"):
        filt = ANY_TARGET
    else:
        if c.take("any", "number", "of"):
            lo, hi = 0, ANY_NUMBER      # "any number of target …" (CR 601.2c, 115.1)
        elif c.take("up", "to"):
            n = number(c)
            lo, hi = 0, n
        elif c.at(("one", "two", "three", "four", "five")) or c.kind() == "NUM":
            save = c.i
            n = number(c)
            if not c.at(("target", "other")):
                c.i = save
                raise NoMatch("not a target count")
            lo = hi = n
        if c.take("another"):
            other = True
        elif c.take("other"):
            other = True
        c.need("target")
        d = desc(c, targeting=True)
        if d.other:
            other = True
            d.other = False
        if (hi > 1) != d.plural:
            raise NoMatch("number of targets and noun disagree")
        filt = to_filter(d)
        if filt.zone != "battlefield" and not allow_graveyard:
            raise NoMatch("a card in a graveyard here")
    distinct: tuple[int, ...] = ()
    if other and not s.targets and s.source_is_permanent:
        # "another target creature" of a permanent's ability, its first target: any but the source (CR 109.5,
        # 115.1; ``Filter.other_than_source``, as the structure reader reads it)
        filt, other = replace(filt, other_than_source=True), False
    if other:
        if not s.targets:
            raise NoMatch("'other' relative to the source is not modelled")
        if s.source_is_permanent and filt is not ANY_TARGET:
            raise NoMatch("'another target' of a permanent's ability also excludes the source")
        distinct = tuple(range(len(s.targets)))
    s.targets.append(TargetSpec(filt, lo, hi, distinct))
    i = len(s.targets) - 1
    ref = T(i) if hi == 1 else Ref("each_target", i)
    s.last = ref
    return ref


def object_ref(c: Cursor, s: Scope, allow_target: bool = True) -> Ref:
    """SELF | it | that creature | him / her (the source, named just before) | enchanted creature | a target
    phrase."""
    if c.take("SELF"):
        s.last = SELF
        return SELF
    if c.at(("it", "itself")) or c.at("that", ("creature", "permanent", "land", "artifact")):
        if s.last is None:
            raise NoMatch("'it' without antecedent")
        c.i += 1 if c.low() in ("it", "itself") else 2
        return s.last
    if c.at(("him", "her", "himself", "herself")) and s.last == SELF:   # a planeswalker named before (CR 201.5)
        c.i += 1
        return SELF
    if c.take(("enchanted", "equipped"), ("creature", "permanent", "land")):
        s.last = ATTACHED
        return ATTACHED
    if allow_target:
        return target_phrase(c, s)
    raise NoMatch("object expected")


def keyword_list(c: Cursor) -> tuple[str, ...]:
    """Keywords an effect grants: "flying", "flying and haste", "trample, haste, and flying"."""
    out: list[str] = []
    while True:
        if c.low() in STRIKE_WORDS and c.low(1) == "strike":
            out.append(c.next().low + " strike")
            c.next()
        elif c.low() in GRANTABLE_KEYWORDS and c.kind() == "WORD":
            out.append(c.next().low)
        else:
            raise NoMatch("keyword expected")
        if c.at(",") and (c.low(1) in GRANTABLE_KEYWORDS or c.low(1) in STRIKE_WORDS or c.at(",", "and")):
            c.i += 1
            c.take("and")
            continue
        if c.at("and") and (c.low(1) in GRANTABLE_KEYWORDS or (c.low(1) in STRIKE_WORDS and c.low(2) == "strike")):
            c.i += 1
            continue
        return tuple(out)


def amount(c: Cursor, s: Scope, allow_a: bool = False) -> int | str:
    n = number(c, allow_a=allow_a, allow_x=True)
    if n == "X" and not s.x_defined:
        raise NoMatch("X not defined by a cost")
    return n


def _x_pt(c: Cursor) -> tuple[int, int] | None:
    """"+X/+X", "+X/+0", "-X/-X", "+0/+X" (CR 107.3): the coefficients of X; None (nothing read) otherwise."""
    t = c.peek()
    if t is None or t.kind != "PT":
        return None
    sides = t.text.lower().split("/")
    coef = {"+x": 1, "-x": -1, "+0": 0}
    if len(sides) != 2 or any(s not in coef for s in sides) or "x" not in t.text.lower():
        return None
    c.i += 1
    return coef[sides[0]], coef[sides[1]]


def pump_until_eot_x(c: Cursor) -> tuple[int, int, tuple[str, ...], bool]:
    """As :func:`pump_until_eot`, also "get(s) +X/+X …" (the last item True: ``power``/``toughness``
    are coefficients of X) and "gain(s) <keywords> and get(s) +N/+N until end of turn"."""
    p = q = 0
    kws: tuple[str, ...] = ()
    has_x = False
    if c.take(("gains", "gain")):
        kws = keyword_list(c)
        if not c.take("and"):
            c.need("until", "end", "of", "turn")
            return p, q, kws, False
        c.need(("gets", "get"))
        xs = _x_pt(c)
        (p, q), has_x = (xs, True) if xs is not None else (pt(c), False)
    elif c.take(("gets", "get")):
        xs = _x_pt(c)
        (p, q), has_x = (xs, True) if xs is not None else (pt(c), False)
        if c.take("and", ("gains", "gain")):
            kws = keyword_list(c)
    else:
        raise NoMatch("gets or gains")
    c.need("until", "end", "of", "turn")
    return p, q, kws, has_x


def pump_until_eot(c: Cursor) -> tuple[int, int, tuple[str, ...]]:
    """"get(s) +N/+N [and gain(s) <keywords>] until end of turn" / "gain(s) <keywords> until end of turn"
    (CR 611.2a, 613.4c): the power and toughness change and the keywords granted (a Pump's or a GroupPump's)."""
    p = q = 0
    kws: tuple[str, ...] = ()
    if c.take(("gets", "get")):
        p, q = pt(c)
        if c.take("and", ("gains", "gain")):
            kws = keyword_list(c)
    elif c.take(("gains", "gain")):
        kws = keyword_list(c)
    else:
        raise NoMatch("gets or gains")
    c.need("until", "end", "of", "turn")
    return p, q, kws
