"""Effects of players' choices among their own cards and permanents (issue 26): another player's
discard (CR 701.9), sacrifice (CR 701.21), returning a permanent one controls to its owner's hand,
counters on each of a group of permanents (CR 122.1) and proliferate (CR 701.34). Registered in
:data:`.effects.CLAUSES` (:data:`EFFA_CLAUSES`)."""
from __future__ import annotations

from typing import Callable, Sequence

from ..core.ir import (SELF, ChooseDiscard, Discard, Effect, Filter, Proliferate, PutCountersOnEach, Ref, ReturnChosen,
                       SacrificeChosen, SacrificeUnlessPays, Selector, T, TargetSpec)
from .cursor import Cursor, NoMatch
from .descriptions import desc, to_selector
from .phrases import counter_kind, mana_cost, mana_run
from .scope import amount, Scope
from .tokens import Token
from .vocabulary import TYPE_WORDS


def _is_player_target(s: Scope, ref: Ref | None) -> bool:
    """``ref`` is a target slot of players only ("target player", "target opponent")."""
    if ref is None or ref.kind != "target" or ref.index >= len(s.targets):
        return False
    f = s.targets[ref.index].filter
    return f.players and not f.types


def player_subject(c: Cursor, s: Scope, verbs: tuple[str, ...]) -> Ref | None:
    """The player who acts, before a third-person verb in ``verbs``: "target player", "target
    opponent", "each opponent", "each player", "that player" (the player target named before), or
    nothing when the sentence goes on with the player target named before ("Target player draws two
    cards, then discards a card"). None: "you" (the controller; "[you] discard", "[you] sacrifice")."""
    if c.take("you") or c.at(("discard", "sacrifice")):
        return None
    if c.take("each", "opponent"):
        return Ref("each_opponent")
    if c.take("each", "player"):
        return Ref("each_player")
    if c.at("target", ("player", "opponent")):
        c.i += 1
        who = "opponent" if c.next().low == "opponent" else "any"
        s.targets.append(TargetSpec(Filter(types=frozenset(), players=True, who=who), 1, 1, ()))
        s.last = T(len(s.targets) - 1)
        return s.last
    if c.at("that", "player") and _is_player_target(s, s.last):
        c.i += 2
        return s.last
    if s.event_player is not None and c.take("that", "player"):
        return s.event_player  # the player the trigger event names (CR 603.2)
    if c.at(verbs) and _is_player_target(s, s.last):
        return s.last
    raise NoMatch("a player")


def _verb(c: Cursor, ref: Ref | None, word: str) -> None:
    """The verb, in the person of its subject ("discard" for you, "discards" for another player)."""
    c.need(word if ref is None else word + "s")


def clause_player_discards(c: Cursor, s: Scope) -> list[Effect]:
    """<target player | target opponent | each opponent | each player | that player> discards a card
    / N cards (CR 701.9a; the discarding player chooses, 701.9b). Not "at random", nor a card of a
    stated quality. "[You] discard …" is :func:`.effects.clause_discard`."""
    ref = player_subject(c, s, ("discards",))
    if ref is None:
        raise NoMatch("the controller's discard")
    _verb(c, ref, "discard")
    if c.take("a", "card"):
        n: int | str = 1
    else:
        n = amount(c, s)
        c.need("cards")
    if c.at("at", "random"):
        raise NoMatch("a random discard")
    return [Discard(n, to=ref)]


def _own_permanents_any_of(c: Cursor, s: Scope, allow_self: bool) -> tuple[Selector, int | str, frozenset[str]]:
    """As :func:`_own_permanents`, also "a|an <type> or <type>" (any of the card types, nothing else
    said of them): the selector without the types, and the types."""
    save = c.i
    try:
        what, n = _own_permanents(c, s, allow_self)
        return what, n, frozenset()
    except NoMatch:
        c.i = save
    if not c.take(("a", "an")):
        raise NoMatch("a permanent")
    d = desc(c)
    types = frozenset(d.types)
    if not d.types_joined_by_or or d.plural or d.subtypes or d.compound or d.players or d.zone != "battlefield" \
            or d.card or "Permanent" in types or d.who not in ("any", "you"):
        raise NoMatch("a permanent of one of several types")
    d.types, d.types_joined_by_or, d.who = [], False, "you"
    return to_selector(d), 1, types


def _own_permanents(c: Cursor, s: Scope, allow_self: bool) -> tuple[Selector, int | str]:
    """"a|an|N <permanents>" a player sacrifices or returns: a description the IR selector holds
    whole, of permanents that player controls (CR 701.21a: only one's own), and how many; "this
    <permanent>" (the source itself, or "it" when it names the source) when ``allow_self``."""
    if allow_self and (c.take("SELF") or (s.last == SELF and c.take("it"))):
        return Selector(who="you", self_only=True), 1
    if c.take("another"):
        n: int | str = 1
        other = True
    else:
        n = amount(c, s, allow_a=True)
        other = False
    d = desc(c)
    if d.plural != (n != 1) or d.players or d.zone != "battlefield" or d.card:
        raise NoMatch("permanents of the player's own")
    d.other = d.other or other or d.other_than_self   # "a creature other than this creature"
    d.other_than_self = False
    if d.who not in ("any", "you"):
        raise NoMatch("permanents another player controls")
    d.who = "you"
    return to_selector(d), n


def clause_sacrifice(c: Cursor, s: Scope) -> list[Effect]:
    """[you] sacrifice <a|N permanents | this permanent> / <player> sacrifices <a|N permanents>
    (CR 701.21a: the sacrificing player chooses among the permanents they control that match,
    as the effect resolves; all of them when they control fewer; "… of their choice" says it again).
    "sacrifice this permanent unless you pay <mana>" is :class:`SacrificeUnlessPays`; "sacrifice it"
    only when "it" is the source."""
    ref = player_subject(c, s, ("sacrifices",))
    _verb(c, ref, "sacrifice")
    what, n, any_of = _own_permanents_any_of(c, s, allow_self=ref is None)
    c.take("of", "their", "choice") or c.take("of", "his", "or", "her", "choice")  # they choose (701.21a)
    if what.self_only:
        s.last = SELF
        if c.take("unless", "you", "pay"):
            return [_unless_you_pay(c)]
    return [SacrificeChosen(what, n, to=ref, any_of_types=any_of)]


def _unless_you_pay(c: Cursor) -> Effect:
    """"sacrifice this permanent unless you pay <mana>" (CR 118.12): a fixed amount of mana, the
    end of the instruction — not X, "… for each …", "its echo cost"."""
    mana = mana_cost(mana_run(c))
    if mana.x_count or not mana.symbols:
        raise NoMatch("an unless payment of fixed mana")
    if not (c.done() or c.at(".")):
        raise NoMatch("more to the payment")
    return SacrificeUnlessPays(mana)


def clause_return_chosen(c: Cursor, s: Scope) -> list[Effect]:
    """return a|an <permanent> you control to its owner's hand (the controller chooses it as the
    effect resolves: no target, CR 608.2c; "When this land enters, return a land you control to its
    owner's hand")."""
    c.need("return")
    if not c.at(("a", "an")):
        raise NoMatch("a permanent of the controller's")
    save = c.i
    what, n = _own_permanents(c, s, allow_self=False)
    if not any(t.low == "control" for t in c.toks[save:c.i]):
        raise NoMatch("'you control' named")
    c.need("to", "its", "owner's", "hand")
    return [ReturnChosen(what, n)]


def clause_counters_each(c: Cursor, s: Scope) -> list[Effect]:
    """put <N> <kind> counter(s) on each [other] <permanent> [you control] (CR 122.1; the objects
    are those matching as the effect resolves, CR 608.2c)."""
    c.need("put")
    n = amount(c, s, allow_a=True)
    kind = counter_kind(c)
    c.need("counter" if n == 1 else "counters", "on", "each")
    d = desc(c)
    if d.plural or d.players or d.zone != "battlefield" or d.card:
        raise NoMatch("each permanent")
    return [PutCountersOnEach(to_selector(d), n, kind)]


def clause_proliferate(c: Cursor, s: Scope) -> list[Effect]:
    """[you] proliferate (CR 701.34a)."""
    c.take("you")
    c.need("proliferate")
    return [Proliferate()]


EFFA_CLAUSES: tuple[tuple[str, Callable[[Cursor, Scope], list[Effect]]], ...] = (
    ("player discards", clause_player_discards), ("sacrifice", clause_sacrifice),
    ("return a permanent you control", clause_return_chosen), ("counters on each", clause_counters_each),
    ("proliferate", clause_proliferate),
)


_PERMANENT_TYPES = frozenset({"Artifact", "Creature", "Enchantment", "Land", "Planeswalker", "Battle"})


def _hand_card_quality(c: Cursor) -> Filter | None:
    """"a card", "a nonland card", "a noncreature, nonland card", "a creature or planeswalker card",
    "a nonland permanent card", "an instant or sorcery card" [with mana value N or less|greater]
    (CR 205.2): a card of any of the types named, none of the "non" types, within the mana values
    named. None: any card."""
    if not c.take(("a", "an")):
        raise NoMatch("a card")
    types: set[str] = set()
    non: set[str] = set()
    while not c.at("card"):
        w = c.next().low
        if w.startswith("non") and w[3:] in TYPE_WORDS and w[3:] != "permanent":
            non.add(TYPE_WORDS[w[3:]])
        elif w == "permanent":
            types |= _PERMANENT_TYPES
        elif w in TYPE_WORDS:
            types.add(TYPE_WORDS[w])
        elif w not in (",", "or"):
            raise NoMatch("a card's types")
    c.need("card")
    lo, hi = _mana_value_range(c)
    if not (types or non or lo is not None or hi is not None):
        return None
    return Filter(types=frozenset(types), nontypes=frozenset(non), zone="hand", mv_min=lo, mv_max=hi)


def _mana_value_range(c: Cursor) -> tuple[int | None, int | None]:
    """"with mana value N or less|greater" (CR 202.3), or nothing."""
    if not c.take("with", "mana", "value"):
        return None, None
    t = c.next()
    if t.kind != "NUM":
        raise NoMatch("a mana value")
    n = int(t.low)
    if c.take("or", "less"):
        return None, n
    c.need("or", "greater")
    return n, None


def reveal_hand_discard(sents: Sequence[Sequence[Token]], i: int, s: Scope) -> int:
    """"<Target player | Target opponent> reveals their hand. You choose <a … card> [with mana value
    …] from it [with mana value …]. That player discards that card." (Duress, Thoughtseize,
    Inquisition of Kozilek): the number of sentences read (3), or 0. The controller sees the revealed
    hand and chooses (CR 701.20a, 701.9a)."""
    if i + 2 >= len(sents):
        return 0
    first, second, third = (Cursor(sents[i + k]) for k in range(3))
    ntargets, last = len(s.targets), s.last
    try:
        if not first.at("target", ("player", "opponent")):
            raise NoMatch("a target player")
        ref = player_subject(first, s, ("reveals",))
        first.need("reveals", "their", "hand")
        first.end()
        second.need("you", "choose")
        quality = _hand_card_quality(second)
        second.need("from", "it")
        if not second.done():
            if quality is not None and (quality.mv_min is not None or quality.mv_max is not None):
                raise NoMatch("two mana value ranges")
            lo, hi = _mana_value_range(second)
            quality = Filter(types=quality.types if quality else frozenset(),
                             types_all=quality.types_all if quality else frozenset(),
                             nontypes=quality.nontypes if quality else frozenset(), zone="hand", mv_min=lo, mv_max=hi)
        second.end()
        third.need("that", "player", "discards", "that", "card")
        third.end()
    except NoMatch:
        del s.targets[ntargets:]
        s.last = last
        return 0
    assert ref is not None
    s.effects.append(ChooseDiscard(ref, quality))
    return 3
