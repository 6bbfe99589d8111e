"""Effects (CR 608): the clauses and sentences of spells and abilities — damage,
destroy, pump, draw, tokens, counters, fight, conjure, searching a library (CR 701.23),
looking at its top cards and putting them back in any order (CR 401.4), …"""
from __future__ import annotations

from dataclasses import replace
from typing import Callable, Sequence

from ..core.ir import (CONTROLLER, PutFromHand, ArrangeTop, Conjure, Count, CounterSpell, CounterUnlessPays, CreateTokens, Damage, Destroy, Discard,
                  Draw, Effect,
                  Exile, Fight, Filter, GainLife, LookAtHand, LoseLife, Mill, Pump, PutCounters, Ref, ReturnToBattlefield,
                  ReturnToHand, SearchLibrary, SELF, SkipUntap, T, Tap, TargetSpec, UntilEndOfTurn, Untap, Transform,
                  ReturnTransformed, Blink, Flip, RevealTop, Meld, Scry, Surveil, ChooseFromTop, Shuffle,
                  PutFromHandOnTop, ItsControllerGainsLife, ItsControllerInvestigates, Selector, ExileIfDies,
                  ExiledCardTokens)
from ..core.mana import COLORS
from .tokens import Token
from .vocabulary import TYPE_WORDS
from .cursor import Cursor, NoMatch
from .phrases import color_word, counter_kind, mana_cost, mana_run, number, pt, subtype_word
from .scope import amount, keyword_list, object_ref, pump_until_eot, pump_until_eot_x, Scope, target_phrase
from .static_sentences import mana_replacement
from .effects_shields import cant_be_regenerated_rider, clause_prevent, clause_regenerate
from .cast_conditions import if_kicked_sentence
from .conditional_effects import if_condition_sentence, otherwise_sentence
from .effects_animate import clause_animate, clause_base_pt, still_its_types
from ..core.ir import Animate, ReturnExiled, Sacrifice
from ..core.ir import Ref
from ..core.ir import AdditionalLands
from . import effects_equip
from .effects_effb import CLAUSES_EFFB, x_of_pump
from .effects_connive import clause_connive, reflexive_sentence
from .effects_control import clause_gain_control
from .effects_groups import group_ref
from .effects_dealt import dealt_damage_sentence
from .effects_delayed import add_delayed, delayed_scope, delayed_sentence, delayed_time
from .effects_delayed_cast import delayed_cast_sentence
from .effects_effa import EFFA_CLAUSES, reveal_hand_discard
from .effects_mana import clause_add_mana
from .effects_pay import clause_extra_turn, clause_lose_game, clause_skip_next_combat, paid_or_flipped
from .effects_untap import clause_untap_chosen
from .effects_impulse import exile_top_playable
from .dig import (clause_exile_library, clause_exiled_to_hand, clause_lose_half_life, clause_shuffle_hand_into_library,
                  dig_passage)
from .effects_library import LIBRARY_CLAUSES, found_destination, library_card as _library_card, reveal_top_to_hand


def clause_damage(c: Cursor, s: Scope) -> list[Effect]:
    """SELF deals N damage to <target|you|each opponent|each player> [and N damage to <target>]*
    (CR 120; to each of those players, CR 120.3a)."""
    if not (c.take("SELF") or (c.at("it") and s.last == SELF and c.take("it"))):
        raise NoMatch("damage source")
    c.need(("deals", "deal"))
    out: list[Effect] = []
    while True:
        sacrificed = _sacrificed_stat(c)   # "deals damage equal to the sacrificed creature's power to …"
        n = sacrificed if sacrificed is not None else amount(c, s)
        if sacrificed is None:
            c.need("damage")
        c.need("to")
        if c.take("you"):
            ref = CONTROLLER
        elif c.take("each", "opponent"):
            ref = Ref("each_opponent")
        elif c.take("each", "player"):
            ref = Ref("each_player")
        elif (event_player := _event_player_object(c, s)) is not None:
            ref = event_player   # "to that player", "to them": the player the trigger event named (CR 608.2c)
        elif c.at(("each", "all")):
            ref = group_ref(c)   # "each creature [without flying]", "each other creature" (CR 608.2c)
            out.append(Damage(ref, n))
            if c.take("and", "each", "player"):
                out.append(Damage(Ref("each_player"), n))
            elif c.take("and", "each", "opponent"):
                out.append(Damage(Ref("each_opponent"), n))
            return out
        else:
            ref = target_phrase(c, s)
        out.append(Damage(ref, n))
        if c.at("and") and (c.kind(1) == "NUM" or c.low(1) == "x"):
            c.i += 1
            continue
        return out


def _event_player_object(c: Cursor, s: Scope) -> Ref | None:
    """"that player" / "them" as the object of a verb, when the trigger event names a player and no
    target was introduced that "them" could mean (CR 603.2, 608.2c); None otherwise."""
    if s.event_player is None:
        return None
    if c.take("that", "player") or (not s.targets and c.take("them")):
        return s.event_player
    return None


def _sacrificed_stat(c: Cursor) -> str | None:
    """"damage equal to the sacrificed creature's power / toughness" (a spell with an additional cost
    "sacrifice a creature", CR 601.2h, 608.2h: the creature as it last existed): the amount
    ``sacrificed:<stat>`` (the spell records it, object key ``sacrificed``); None when not this."""
    if not c.at("damage", "equal", "to", "the", "sacrificed", "creature's", ("power", "toughness")):
        return None
    c.i += 6
    return "sacrificed:" + c.next().low


def clause_destroy(c: Cursor, s: Scope) -> list[Effect]:
    """destroy <target> [and <target>]* (CR 701.8)."""
    c.need("destroy")
    if c.at(("all", "each")):
        return [Destroy(group_ref(c))]   # "Destroy all creatures" (CR 701.8, 608.2c)
    out: list[Effect] = [Destroy(object_ref(c, s))]
    while c.at("and", ("target", "up", "another", "any")):
        c.i += 1
        out.append(Destroy(target_phrase(c, s)))
    return out


def clause_pump(c: Cursor, s: Scope) -> list[Effect]:
    """<object> [each] gets +N/+N [and gains <kw>] until end of turn; <object> gains <kw> until end of turn."""
    ref = object_ref(c, s)
    each = c.take("each")
    if each and ref.kind != "each_target":
        raise NoMatch("'each' with one object")
    if c.take(("gains", "gain"), "protection", "from", "the", "color", "of", "your", "choice", "until", "end", "of",
              "turn"):   # a color chosen as it resolves (CR 608.2d, 702.16a, 105.1)
        return [Pump(ref, chosen_protection=True)]
    p, q, kws, has_x = pump_until_eot_x(c)
    return [Pump(ref, power=p, toughness=q, keywords=kws, x=x_of_pump(c, s) if has_x else None)]


def clause_player_draws(c: Cursor, s: Scope) -> list[Effect]:
    """<target player | each player | each opponent> draws N cards / mills N cards;
    you mill N cards (CR 121, 701.17)."""
    if c.take("you", "mill") or c.take("mill"):
        ref, verb = None, "mills"
    else:
        ref = _player_ref(c, s)
        verb = c.next().low
    if verb not in ("draws", "mills"):
        raise NoMatch("draws or mills")
    if c.take("a", "card"):
        n: int | str | Count = 1
    else:
        n = amount(c, s)
        c.need("cards")
    return [Draw(n, ref) if verb == "draws" else Mill(n, ref)]


def clause_draw(c: Cursor, s: Scope) -> list[Effect]:
    c.take("you")
    c.need("draw")
    if c.take("a", "card"):
        if c.at("for", "each"):
            return [Draw(_returned_this_way(c, s))]
        return [Draw(1)]
    n = amount(c, s)
    c.need("cards")
    return [Draw(n)]


def _returned_this_way(c: Cursor, s: Scope) -> Count:
    """"for each card returned to your hand this way" right after "Return <targets> to their owners' hands"
    (CR 608.2c): the cards among those targets that went to the controller's hand (their owner's)."""
    c.need("for", "each", "card", "returned", "to", "your", "hand", "this", "way")
    prev = s.effects[-1] if s.effects else None
    if not isinstance(prev, ReturnToHand) or prev.to.kind != "each_target":
        raise NoMatch("'returned to your hand this way' without a return of targets just before")
    return Count(Selector(), what="returned_to_hand", slot=prev.to.index)


def clause_discard(c: Cursor, s: Scope) -> list[Effect]:
    """[you] discard a card / N cards (CR 701.9a: the controller chooses). Not "discard a <quality>
    card", "at random", nor another player's discard (their choice)."""
    c.take("you")
    c.need("discard")
    if c.take("a", "card"):
        return [Discard(1)]
    n = amount(c, s)
    c.need("cards")
    if c.at("at", "random"):
        raise NoMatch("a random discard")
    return [Discard(n)]


def clause_gain_life(c: Cursor, s: Scope) -> list[Effect]:
    """[you] gain N life / [you] lose N life (CR 119.3; the controller: "You draw two cards and lose
    2 life")."""
    c.take("you")
    verb = c.next().low
    if verb not in ("gain", "lose"):
        raise NoMatch("gain or lose")
    n = amount(c, s)
    c.need("life")
    return [GainLife(n) if verb == "gain" else LoseLife(CONTROLLER, n)]


def _player_ref(c: Cursor, s: Scope) -> Ref:
    """A player an effect names: "target player", "target opponent", "each opponent", "each player"."""
    if c.take("each", "opponent"):
        return Ref("each_opponent")
    if c.take("each", "player"):
        return Ref("each_player")
    if s.event_player is not None and (c.take("that", "player") or (not s.targets and c.take("they"))):
        return s.event_player  # the player the trigger event names (CR 603.2)
    if c.at("target", ("player", "opponent")):
        c.i += 1
        who = "opponent" if c.next().low == "opponent" else "any"
        s.targets.append(TargetSpec(Filter(types=frozenset(), players=True, who=who), 1, 1, ()))
        ref = T(len(s.targets) - 1)
        s.last = ref
        return ref
    if c.at(("draws", "mills", "gains", "loses")) and s.last is not None and s.last.kind == "target" and \
            s.targets[s.last.index].filter.players and not s.targets[s.last.index].filter.types:
        return s.last  # "Target player draws two cards and loses 2 life": the same player
    raise NoMatch("a player")


def clause_player_life(c: Cursor, s: Scope) -> list[Effect]:
    """<target player | target opponent | each opponent | each player> gains/loses N life (CR 119.3)."""
    ref = _player_ref(c, s)
    they = c.toks[c.i - 1].low == "they"   # "they lose 2 life": the verb agrees with "they"
    verb = c.next().low
    if verb not in (("gain", "lose") if they else ("gains", "loses")):
        raise NoMatch("gains or loses")
    n = amount(c, s)
    c.need("life")
    return [GainLife(n, ref) if verb in ("gains", "gain") else LoseLife(ref, n)]


def clause_its_controller(c: Cursor, s: Scope) -> list[Effect]:
    """its controller gains life equal to its power / its controller investigates — right after the
    only instruction before it, which destroys or exiles one target creature (CR 608.2h: "its" is
    that creature as it last existed on the battlefield)."""
    c.need("its", "controller")
    prev = s.effects[0] if len(s.effects) == 1 else None
    if not isinstance(prev, (Destroy, Exile)) or prev.to.kind != "target" or prev.optional:
        raise NoMatch("'its controller' after one removal of a target")
    spec = s.targets[prev.to.index]
    if not spec.filter.types or not spec.filter.types <= {"Creature", "Planeswalker"} or spec.filter.players:
        raise NoMatch("'its controller' of a creature or planeswalker")
    if c.take("investigates"):
        return [ItsControllerInvestigates(prev.to)]
    if spec.filter.types != {"Creature"}:
        raise NoMatch("the power of a creature")
    c.need("gains", "life", "equal", "to", "its", "power")
    return [ItsControllerGainsLife(prev.to)]


def clause_look_hand(c: Cursor, s: Scope) -> list[Effect]:
    """look at target player's hand."""
    c.need("look", "at", "target")
    t = c.next()
    if t.low == "player's":
        filt = Filter(players=True)
    elif t.low == "opponent's":
        filt = Filter(players=True, who="opponent")
    else:
        raise NoMatch("player's hand")
    c.need("hand")
    s.targets.append(TargetSpec(filt))
    ref = T(len(s.targets) - 1)
    return [LookAtHand(ref)]


_TOKEN_TYPES = {"artifact": "Artifact", "creature": "Creature", "enchantment": "Enchantment", "land": "Land"}


def clause_tokens(c: Cursor, s: Scope) -> list[Effect]:
    """[for each opponent,] [you] create <N> <P/T> <colors> <Subtypes> <types> token(s) [with <keywords>] [for each
    +1/+1 counter on SELF] [, where X is that spell's mana value] [that's / that are tapped and attacking [that
    player [or a planeswalker they control]]] (CR 111.2, 508.4, 107.3)."""
    per_opponent = bool(c.take("for", "each", "opponent", ","))
    c.take("you")   # "you create …" (the controller, CR 111.2)
    c.need("create")
    n = amount(c, s, allow_a=True)
    sized = c.peek() is not None and c.peek().kind == "PT" and c.peek().text.upper() == "X/X"   # type: ignore[union-attr]
    if sized:
        c.i += 1
        p, q = 0, 0   # an X/X token: its size is read after "where X is …" (below)
    else:
        p, q = pt(c, signed=False)
    token = _token_description(c, n, p, q)
    if c.take("for", "each"):
        if n != 1:
            raise NoMatch("'for each' with a count")
        c.need(("+1/+1",), "counter", "on", "SELF")
        n = "counters:+1/+1"
    size = _token_size(c, s) if sized else None
    attacking = _entering_attacking(c, per_opponent)
    return [CreateTokens(n, token, tapped=bool(attacking), attacking=attacking, size=size)]


def _token_size(c: Cursor, s: Scope) -> Ref | str:
    """What X is for an X/X token (CR 107.3): ", where X is that spell's mana value" (CR 202.3: the spell a
    cast trigger names, CR 603.2), or the X the ability's cost defines (a cycle trigger's, CR 702.29c)."""
    if not c.at(","):
        if not s.x_defined:
            raise NoMatch("X not defined")
        return "X"
    c.need(",", "where", "x", "is", "that", "spell's", "mana", "value")
    if s.event_spell is None:
        raise NoMatch("'that spell' without a cast trigger")
    return s.event_spell


def _entering_attacking(c: Cursor, per_opponent: bool) -> str:
    """"that's / that are tapped and attacking [that player [or a planeswalker they control]]" after a
    token (CR 508.4): ``CreateTokens.attacking``; "" when absent. "For each opponent" goes only with
    "… attacking that player"."""
    if not (c.take(("that's", "which"), "tapped", "and", "attacking")
            or c.take("that", ("are", "is"), "tapped", "and", "attacking")):
        if per_opponent:
            raise NoMatch("'for each opponent' without 'attacking that player'")
        return ""
    if not per_opponent:
        return "chosen"
    c.need("that", "player")
    return "each_opponent_or_planeswalker" if c.take("or", "a", "planeswalker", "they", "control") \
        else "each_opponent"


def clause_exiled_card_tokens(c: Cursor, s: Scope) -> list[Effect]:
    """the exiled card's owner creates an X/X <colors> <Subtypes> creature token, where X is the mana value of
    the exiled card (linked abilities, CR 607.2a; :class:`~solver.core.ir.ExiledCardTokens`)."""
    c.need("the", "exiled", ("card's", "card’s"), "owner", "creates", ("a", "an"))
    t = c.next()
    if t.kind != "PT" or t.low.lower() != "x/x":
        raise NoMatch("an X/X token")
    token = _token_description(c, 1, 0, 0)
    c.need(",", "where", "x", "is", "the", "mana", "value", "of", "the", "exiled", "card")
    return [ExiledCardTokens(tuple((k, v) for k, v in token if k not in ("power", "toughness")))]


def _token_description(c: Cursor, n: object, p: int, q: int) -> tuple[tuple[str, object], ...]:
    """<colors> <Subtypes> <types> token(s) [with <keywords>]: the token's card mapping (CR 111.4)."""
    colors: list[str] = []
    if c.take("colorless"):
        pass
    else:
        colors.append(color_word(c))
        while c.take("and") or (c.at(",") and c.take(",")):
            colors.append(color_word(c))
    subs: list[str] = []
    while True:
        try:
            subs.append(subtype_word(c))
        except NoMatch:
            break
    types: list[str] = []
    while c.low() in _TOKEN_TYPES:
        types.append(_TOKEN_TYPES[c.next().low])
    if not subs or "Creature" not in types:
        raise NoMatch("creature token with a subtype")
    c.need("token" if n == 1 else "tokens")
    kws: tuple[str, ...] = ()
    if c.take("with"):
        kws = keyword_list(c)
    return (("name", " ".join(subs)), ("types", tuple(types)), ("subtypes", tuple(subs)), ("power", p),
            ("toughness", q), ("keywords", kws), ("colors", tuple(x for x in COLORS if x in colors)))


#: The predefined tokens (CR 111.10): name (its subtype) -> (card type, the abilities the rules give it).
PREDEFINED_TOKENS: dict[str, tuple[str, str]] = {
    "Treasure": ("Artifact", "{T}, Sacrifice this artifact: Add one mana of any color."),
    "Food": ("Artifact", "{2}, {T}, Sacrifice this artifact: You gain 3 life."),
    "Gold": ("Artifact", "Sacrifice this artifact: Add one mana of any color."),
    "Clue": ("Artifact", "{2}, Sacrifice this artifact: Draw a card."),
    "Blood": ("Artifact", "{1}, {T}, Discard a card, Sacrifice this artifact: Draw a card."),
    "Powerstone": ("Artifact", "{T}: Add {C}. This mana can't be spent to cast a nonartifact spell."),
    "Map": ("Artifact", "{1}, {T}, Sacrifice this artifact: Target creature you control explores. "
                        "Activate only as a sorcery."),
    "Shard": ("Enchantment", "{2}, Sacrifice this enchantment: Scry 1, then draw a card."),
}


def predefined_token(name: str) -> tuple[tuple[str, object], ...]:
    """The IR description of the predefined token ``name`` (CR 111.10): a colorless token of its
    type and subtype, named by its subtype (as the reader's creature tokens are), with the
    abilities the rules give it as its text."""
    card_type, text = PREDEFINED_TOKENS[name]
    return (("name", name), ("types", (card_type,)), ("subtypes", (name,)), ("colors", ()), ("text", text))


def clause_predefined_tokens(c: Cursor, s: Scope) -> list[Effect]:
    """[you] create <N> [tapped] <Treasure|Food|Gold|Clue|Blood|Powerstone|Map|Shard> token(s) (CR 111.10)."""
    c.take("you")
    c.need("create")
    n = amount(c, s, allow_a=True)
    tapped = c.take("tapped")
    t = c.next()
    if t.text not in PREDEFINED_TOKENS:
        raise NoMatch("a predefined token")
    c.need("token" if n == 1 else "tokens")
    return [CreateTokens(n, predefined_token(t.text), tapped=tapped)]


def clause_investigate(c: Cursor, s: Scope) -> list[Effect]:
    """[you] investigate [twice] (CR 701.16a: create a Clue token)."""
    c.take("you")
    c.need("investigate")
    return [CreateTokens(2 if c.take("twice") else 1, predefined_token("Clue"))]


def clause_return(c: Cursor, s: Scope) -> list[Effect]:
    """return <target card in your graveyard> to the battlefield."""
    c.need("return")
    ref = target_phrase(c, s, allow_graveyard=True)
    spec = s.targets[ref.index]
    if spec.filter.zone != "graveyard" or ref.kind != "target":
        raise NoMatch("return from a graveyard")
    c.need("to", "the", "battlefield")
    return [ReturnToBattlefield(ref)]


def _to_owners_hand(c: Cursor, graveyard: bool) -> None:
    """"to its owner's hand" (a permanent) / "to your hand" (a card in your graveyard)."""
    if c.take("to", "its", "owner's", "hand") or c.take("to", "their", "owners'", "hands"):
        return
    if graveyard and c.take("to", "your", "hand"):
        return
    raise NoMatch("to its owner's hand")


def clause_exile(c: Cursor, s: Scope) -> list[Effect]:
    """exile <permanent> / exile <target card from a graveyard> (CR 406.2, 701.13? — exile is a
    zone change to the exile zone). "Exile … until …" (a duration) is not this template."""
    c.need("exile")
    save = c.i
    if s.last is not None and s.last.kind == "event_object" and (c.take("that", "card") or c.take("it")) \
            and c.take("from", ("your", "their"), "graveyard"):
        return [Exile(s.last)]   # "exile that card from your graveyard": the card its event named (CR 400.7)
    c.i = save
    ref = _exiled_object(c, s, allow_graveyard=True)
    if s.source_is_permanent and c.take("until", "SELF", "leaves", "the", "battlefield"):
        return [Exile(ref, until_source_leaves=True)]   # CR 610.3: it returns as the source leaves
    if c.at("until") or c.at("instead") or c.at("face", "down") or c.at("with"):
        raise NoMatch("exile with a duration or a rider")
    return [Exile(ref)]


def _exiled_object(c: Cursor, s: Scope, allow_graveyard: bool = False) -> Ref:
    """What "exile …" names: the source, "it", "that creature" (:func:`object_ref`) or a target phrase."""
    save = c.i
    try:
        return object_ref(c, s)
    except NoMatch:
        c.i = save
        return target_phrase(c, s, allow_graveyard=allow_graveyard)


def _return_exiled(c: Cursor) -> tuple[str, bool]:
    """"return it / that card / those cards / them to the battlefield [tapped] under its owner's / their
    owners' / your control" (the rest of a flicker, CR 400.7): (``under``, ``tapped``)."""
    c.need("return")
    if not (c.take(("it", "them")) or c.take("that", "card") or c.take("those", "cards")):
        raise NoMatch("the exiled card")
    c.need("to", "the", "battlefield")
    tapped = bool(c.take("tapped"))
    if c.take("under", "your", "control"):
        return "you", tapped
    if c.take("under", "its", "owner's", "control") or c.take("under", "their", ("owners'", "owner's"), "control"):
        return "owner", tapped
    raise NoMatch("under whose control")


def clause_flicker(c: Cursor, s: Scope) -> list[Effect]:
    """exile <permanents>, then return <them> to the battlefield under <its owner's | your> control
    (:class:`~solver.core.ir.Blink`)."""
    c.need("exile")
    ref = _exiled_object(c, s)   # "another target creature you control", "up to one other target …"
    if ref.kind not in ("self", "target", "each_target"):
        raise NoMatch("flicker of an object other than the source or a target")
    c.need(",", "then")
    under, tapped = _return_exiled(c)
    return [Blink(ref, under, tapped)]


def flicker_return_sentence(toks: Sequence[Token], s: Scope) -> bool:
    """"Return that card to the battlefield under its owner's control." right after a sentence exiling
    permanents: the two are one flicker (the previous :class:`Exile` becomes a :class:`Blink`)."""
    prev = s.effects[-1] if s.effects else None
    if not isinstance(prev, Exile) or prev.until_source_leaves or prev.optional:
        return False
    c = Cursor(toks)
    try:
        under, tapped = _return_exiled(c)
        c.take(".")
        c.end()
    except NoMatch:
        return False
    s.effects[-1] = Blink(prev.to, under, tapped)
    return True


def delayed_return_sentence(toks: Sequence[Token], s: Scope) -> list[Effect] | None:
    """"Return it / that card to the battlefield [tapped] under its owner's / your control at the beginning
    of the next end step." right after a sentence exiling one object — the source or one target (CR 603.7a,
    603.7c): a delayed triggered ability remembering the exiled card (:class:`ReturnExiled`); None when
    the sentence is not this."""
    prev = s.effects[-1] if s.effects else None
    if not isinstance(prev, Exile) or prev.until_source_leaves or prev.optional \
            or prev.to.kind not in ("self", "target"):
        return None
    if prev.to.kind == "target" and s.targets[prev.to.index].max != 1:
        return None   # several exiled cards: the delayed ability remembers one object
    split = delayed_time(toks)
    if split is None or split[0] != ("end", "any"):
        return None
    c = Cursor(split[1])
    try:
        under, tapped = _return_exiled(c)
        c.end()
    except NoMatch:
        return None
    return add_delayed(split[0], [ReturnExiled(prev.to, under, tapped)], s, delayed_scope(s))


def delayed_token_sentence(toks: Sequence[Token], s: Scope) -> list[Effect] | None:
    """"Exile / Sacrifice it / that token / the token at the beginning of the next end step." right after an
    instruction creating one token (CR 603.7a, 603.7c): a delayed triggered ability remembering that token;
    None when the sentence is not this."""
    prev = s.effects[-1] if s.effects else None
    if not isinstance(prev, CreateTokens) or prev.amount != 1 or prev.optional:
        return None
    split = delayed_time(toks)
    if split is None or split[0] != ("end", "any"):
        return None
    c = Cursor(split[1])
    verb = c.next().low if c.peek() is not None else ""
    if verb not in ("exile", "sacrifice") or not (c.take("it") or c.take(("that", "the"), ("token", "creature"))) \
            or not c.done():
        return None
    created = Ref("created")
    effect: Effect = Exile(created) if verb == "exile" else Sacrifice(created, by_you=True)
    return add_delayed(split[0], [effect], s, delayed_scope(s))


def clause_return_to_hand(c: Cursor, s: Scope) -> list[Effect]:
    """return <permanent> to its owner's hand / return <target card in your graveyard> to your hand /
    return [up to one] target <spell description> to its owner's hand (CR 115.1: a spell on the stack)."""
    c.need("return")
    spell = _target_spell(c, s)
    if spell is not None:
        _to_owners_hand(c, False)
        return [ReturnToHand(spell)]
    save = c.i
    try:
        ref = object_ref(c, s)
        graveyard = False
    except NoMatch:
        c.i = save
        ref = target_phrase(c, s, allow_graveyard=True)
        graveyard = s.targets[ref.index].filter.zone == "graveyard" if ref.kind == "target" else False
    _to_owners_hand(c, graveyard)
    return [ReturnToHand(ref)]


def _target_spell(c: Cursor, s: Scope) -> Ref | None:
    """"[up to one] target <spell description>" (CR 115.1, 601.2c: "up to one" may choose none): the new
    target, consumed; None (nothing consumed) when the object is not a spell."""
    save = c.i
    lo = 0 if c.take("up", "to", "one") else 1
    if not c.take("target"):
        c.i = save
        return None
    try:
        filt = _spell_filter(c)
    except NoMatch:
        c.i = save
        return None
    s.targets.append(TargetSpec(filt, lo, 1, ()))
    s.last = T(len(s.targets) - 1)
    return s.last


def _spell_filter(c: Cursor) -> Filter:
    """"spell", "creature spell", "noncreature spell", "instant or sorcery spell",
    "artifact or enchantment spell" (the object of "counter target …"): a spell
    on the stack, CR 115.1 / 701.6a. The pseudo-type ``Spell`` is any spell. Then
    "with mana value N [or less | or greater]" (:func:`_spell_mana_value`)."""
    types: list[str] = []
    non: list[str] = []
    while True:
        t = c.peek()
        if t is None or t.kind != "WORD":
            raise NoMatch("spell description")
        if t.low == "spell":
            c.i += 1
            break
        if t.low.startswith("non") and t.low[3:] in TYPE_WORDS and t.low[3:] != "permanent":
            non.append(TYPE_WORDS[t.low[3:]])
        elif t.low in TYPE_WORDS and t.low != "permanent":
            types.append(TYPE_WORDS[t.low])
        elif t.low not in ("or", ","):
            raise NoMatch("spell description")
        c.i += 1
    if non and types:
        raise NoMatch("mixed spell description")
    mv_min, mv_max = _spell_mana_value(c)
    return Filter(types=frozenset(types or ["Spell"]), zone="stack", nontypes=frozenset(non), mv_min=mv_min,
                  mv_max=mv_max)


def clause_skip_untap(c: Cursor, s: Scope) -> list[Effect]:
    """<it | that creature | those creatures | target …> doesn't untap during its controller's next
    untap step (CR 502.3; the object key ``skip_untap``). "… for as long as …" is not this template."""
    if c.take("those", ("creatures", "permanents", "lands")):
        if s.last is None or s.last.kind != "each_target":
            raise NoMatch("'those' without a plural antecedent")
        ref = s.last
    else:
        ref = object_ref(c, s)
    c.need(("doesn't", "don't"), "untap", "during")
    if not (c.take(("its", "their"), ("controller's", "controllers'"), "next", "untap", "step")
            or (ref == SELF and c.take("your", "next", "untap", "step"))):
        raise NoMatch("next untap step")
    return [SkipUntap(ref)]


def clause_counter(c: Cursor, s: Scope) -> list[Effect]:
    """counter target [<types>] spell [unless its controller pays <mana>] (CR 701.6a: it goes to its
    owner's graveyard; CR 118.12: the "unless" payment, a fixed amount of mana, or {X} when the spell or
    ability announces X in its cost, CR 107.3a — not "{X}, where X is …")."""
    c.need("counter")
    if s.event_spell is not None and not s.targets and c.take("that", "spell"):
        if not (c.done() or c.at(".")):   # "counter that spell": the spell its cast trigger named (CR 603.2)
            raise NoMatch("counter the cast spell with a rider")
        return [CounterSpell(s.event_spell)]
    if c.take("that", "spell"):   # "counter that spell if …" after the spell was targeted (CR 608.2c)
        if s.last is None or s.last.kind != "target" or s.targets[s.last.index].filter.zone != "stack":
            raise NoMatch("'that spell' without a targeted spell")
        ref = s.last
        mv_max = _if_mana_value_at_most(c)
        if mv_max is None or not (c.done() or c.at(".") or c.at("instead")):
            raise NoMatch("counter that spell with a rider")
        return [CounterSpell(ref, mv_max)]
    c.need("target")
    filt = _spell_filter(c)
    mv_max = _if_mana_value_at_most(c)
    if mv_max is not None:
        s.targets.append(TargetSpec(filt, 1, 1, ()))
        s.last = T(len(s.targets) - 1)
        if not (c.done() or c.at(".")):
            raise NoMatch("counter with a rider")
        return [CounterSpell(s.last, mv_max)]
    unless = None
    if c.take("unless", "its", "controller", "pays"):
        unless = mana_cost(mana_run(c))
        if unless.x_count and (not s.x_defined or c.at(",", "where")):
            raise NoMatch("an unless payment of an X its spell or ability doesn't announce")
    if not c.done() and not c.at(".") and not c.at(",") and not c.at("and"):
        raise NoMatch("counter with a rider")
    s.targets.append(TargetSpec(filt, 1, 1, ()))
    ref = T(len(s.targets) - 1)
    s.last = ref
    return [CounterSpell(ref) if unless is None else CounterUnlessPays(ref, unless)]


def exile_if_dies_sentence(c: Cursor, s: Scope) -> ExileIfDies | None:
    """"If that creature [or planeswalker] would die this turn, exile it instead." after an instruction on a
    target; "If a creature dealt damage this way would die this turn, exile it instead." after damage
    (CR 614.1a, 700.4, 120.3e); None (nothing consumed) when the sentence is neither."""
    save = c.i
    if c.take("if", "that", "creature"):
        c.take("or", "planeswalker")   # "that creature or planeswalker": optional words
        ref = s.last
        if ref is None or ref.kind != "target":
            c.i = save
            return None
    elif c.take("if", "a", "creature", "dealt", "damage", "this", "way"):
        if not any(isinstance(e, Damage) for e in s.effects):
            c.i = save
            return None
        ref = None
    else:
        return None
    if c.take("would", "die", "this", "turn", ",", "exile", "it", "instead") and c.done():
        return ExileIfDies(ref)
    c.i = save
    return None


def countered_instead_rider(c: Cursor) -> str:
    """"If that spell is countered this way, exile it instead of putting it into its owner's graveyard." /
    "…, put it into its owner's hand instead of into that player's graveyard." (CR 614.1a: a replacement
    effect of the resolving spell on the countering it just described, CR 701.6a): the zone (``exile``,
    ``hand``), the sentence consumed; "" (nothing consumed) when it is neither."""
    save = c.i
    if c.take("if", "that", "spell", "is", "countered", "this", "way", ","):
        if c.take("exile", "it", "instead", "of", "putting", "it", "into", "its", ("owner's", "owner’s"),
                  "graveyard") and c.done():
            return "exile"
        if c.take("put", "it", "into", "its", ("owner's", "owner’s"), "hand", "instead", "of", "into", "that",
                  ("player's", "player’s"), "graveyard") and c.done():
            return "hand"
    c.i = save
    return ""


def _spell_mana_value(c: Cursor) -> tuple[int | None, int | None]:
    """"with mana value N" / "N or less" / "N or greater" after a spell description (CR 202.3: a spell's
    X counts on the stack): the (least, most) mana value; (None, None) when not there. "with mana value X"
    and other amounts stay unread (NoMatch)."""
    if not c.at("with", "mana", "value"):
        return None, None
    if c.kind(3) != "NUM":
        raise NoMatch("a spell's mana value other than a number")
    n = int(c.toks[c.i + 3].low)
    c.i += 4
    if c.take("or", "less"):
        return None, n
    if c.take("or", "greater"):
        return n, None
    return n, n


def _if_mana_value_at_most(c: Cursor) -> int | None:
    """"if its mana value is N or less" after a spell (CR 202.3, 608.2c); None when not there."""
    if not c.at("if", "its", "mana", "value", "is"):
        return None
    if c.kind(5) != "NUM" or c.low(6) != "or" or c.low(7) != "less":
        return None
    n = int(c.toks[c.i + 5].low)
    c.i += 8
    return n


def clause_tap(c: Cursor, s: Scope) -> list[Effect]:
    w = c.next().low
    if w not in ("tap", "untap"):
        raise NoMatch("tap/untap")
    ref = object_ref(c, s)
    return [Tap(ref) if w == "tap" else Untap(ref)]


def clause_counters(c: Cursor, s: Scope) -> list[Effect]:
    """put <N> <kind> counter(s) on <object>."""
    c.need("put")
    n = amount(c, s, allow_a=True)
    kind = counter_kind(c)
    c.need("counter" if n == 1 else "counters")
    c.need("on")
    ref = object_ref(c, s)
    if ref.kind == "each_target":
        raise NoMatch("counters on several targets")
    return [PutCounters(ref, n, kind)]


def clause_fight(c: Cursor, s: Scope) -> list[Effect]:
    """[have] <object> fight(s) <target creature> (CR 701.14)."""
    have = c.take("have")
    a = object_ref(c, s)
    c.need("fight" if have else "fights")
    b = target_phrase(c, s)
    spec = s.targets[b.index]
    if spec.filter.types != frozenset({"Creature"}) or spec.filter.players:
        raise NoMatch("fight a creature")
    return [Fight(a, b)]


def clause_conjure(c: Cursor, s: Scope) -> list[Effect]:
    """conjure <N> card(s) named <Name> into your library|hand [, then shuffle] (digital, see rules §1.12)."""
    c.need("conjure")
    n = amount(c, s, allow_a=True)
    c.need("card" if n == 1 else "cards", "named")
    words = []
    while not c.at("into") and not c.done():
        t = c.next()
        words.append(t)
    if not words:
        raise NoMatch("name")
    name = " ".join(t.text for t in words)
    if any(t.kind == "SELF" for t in words):
        raise NoMatch("conjuring itself")
    c.need("into", "your")
    zone = c.next().low
    if zone not in ("library", "hand"):
        raise NoMatch("zone")
    shuffle = zone == "library" and c.take(",", "then", "shuffle")
    if zone == "library" and not shuffle:
        raise NoMatch("position in library")
    return [Conjure(n, name, zone, shuffle=shuffle)]


def clause_search(c: Cursor, s: Scope) -> list[Effect]:
    """search your library for <a card | a [basic] <type or land subtype> card>[, reveal it],
    put it|that card onto the battlefield [tapped] | into your hand, then shuffle (CR 701.23,
    701.24; revealing, CR 701.20, changes nothing the game state holds)."""
    c.need("search", "your", "library", "for")
    quality = _library_card(c)
    zone, tapped = found_destination(c)
    c.need(",", "then", "shuffle")
    return [SearchLibrary(zone, quality, tapped=tapped, shuffle=True)]


def clause_put_from_hand(c: Cursor, s: Scope) -> list[Effect]:
    """put <a card | a|an <type or subtype> card>[ with mana value equal to the number of <kind> counters on
    this <permanent>] from your hand onto the battlefield [tapped] (CR 608.2c; "you may" before it,
    608.2d): a choice among the distinct qualifying cards of the player's own hand (CR 402.3)."""
    c.need("put")
    lows = [t.low for t in c.toks]
    k = next((i for i in range(c.i, len(lows) - 3) if lows[i:i + 4] == ["with", "mana", "value", "equal"]), None)
    if k is not None:   # the card's description ends before its mana value bound
        sub = Cursor(c.toks[c.i:k])
        quality = _library_card(sub)
        sub.end()
        c.i = k
    else:
        quality = _library_card(c)
    mv_counters = ""
    if c.take("with", "mana", "value", "equal", "to", "the", "number", "of"):
        mv_counters = counter_kind(c)
        c.need(("counter", "counters"), "on")
        if not (c.take("SELF") or (c.take("this") and c.peek() is not None and c.next().low in TYPE_WORDS)):
            raise NoMatch("counters on this permanent")
    c.need("from", "your", "hand", "onto", "the", "battlefield")
    return [PutFromHand(quality, tapped=c.take("tapped"), mv_counters=mv_counters)]


def clause_arrange_top(c: Cursor, s: Scope) -> list[Effect]:
    """look at the top N cards of your library, then put them back in any order (CR 401.4)."""
    c.need("look", "at", "the", "top")
    n = amount(c, s)
    if not isinstance(n, int) or n < 2:
        raise NoMatch("a number of cards")
    c.need("cards", "of", "your", "library", ",", "then", "put", "them", "back", "in", "any", "order")
    return [ArrangeTop(n)]


def clause_scry_surveil(c: Cursor, s: Scope) -> list[Effect]:
    """[you] scry N / surveil N (CR 701.22a, 701.25a): keyword actions of the controller."""
    c.take("you")
    verb = c.next().low
    if verb not in ("scry", "surveil"):
        raise NoMatch("scry or surveil")
    n = amount(c, s)
    return [Scry(n) if verb == "scry" else Surveil(n)]


def clause_shuffle(c: Cursor, s: Scope) -> list[Effect]:
    """shuffle [your library] (CR 701.24a); "shuffle <cards> into your library" is not this template."""
    c.take("you")
    c.need("shuffle")
    c.take("your", "library")
    if not c.done() and not c.at(",") and not c.at("and") and not c.at("then"):
        raise NoMatch("shuffle something into a library")
    return [Shuffle()]


def clause_hand_on_top(c: Cursor, s: Scope) -> list[Effect]:
    """put <N> cards from your hand on top of your library in any order (CR 401.4; Brainstorm)."""
    c.need("put")
    if c.take("a", "card"):
        n: int | str = 1
    else:
        n = amount(c, s)
        c.need("cards")
    c.need("from", "your", "hand", "on", "top", "of", "your", "library")
    if n != 1:
        c.need("in", "any", "order")
    return [PutFromHandOnTop(n)]


def clause_transform(c: Cursor, s: Scope) -> list[Effect]:
    """transform <object> (CR 701.27a); exile <object>, then return it to the battlefield
    transformed under its owner's control (CR 712.14a: it returns as a new object, back face up)."""
    if c.take("transform"):
        return [Transform(object_ref(c, s))]
    c.need("exile")
    ref = object_ref(c, s)
    c.need(",", "then", "return", "it", "to", "the", "battlefield", "transformed", "under", "its", "owner's",
           "control")
    return [ReturnTransformed(ref)]


def _name_until(c: Cursor, *stop: str) -> str:
    """The card name printed from here to the words ``stop`` (or the end), as printed."""
    out: list[str] = []
    while not c.done() and not (stop and c.at(*stop)):
        t = c.next()
        out.append((" " if t.space and out else "") + t.text)
    name = "".join(out).strip()
    if not name:
        raise NoMatch("a card name")
    return name


def clause_meld(c: Cursor, s: Scope) -> list[Effect]:
    """if you both own and control <this permanent> and a creature named <Name>, exile them, then
    meld them into <Name> (CR 701.42a, 712.4)."""
    c.need("if", "you", "both", "own", "and", "control", "SELF", "and", "a", "creature", "named")
    partner = _name_until(c, ",", "exile", "them")
    c.need(",", "exile", "them", ",", "then", "meld", "them", "into")
    return [Meld(partner, _name_until(c))]


def clause_flip(c: Cursor, s: Scope) -> list[Effect]:
    """flip <this permanent | it> (CR 710.1; "flip a coin" is no object)."""
    c.need("flip")
    return [Flip(object_ref(c, s, allow_target=False))]


def _reveal_top(sents: Sequence[Sequence[Token]], i: int, s: Scope) -> int:
    """"Look at the top card of your library. You may reveal that card. If <a … card> is revealed
    this way, <instructions>." (Delver of Secrets): the number of sentences read (3), or 0."""
    if i + 2 >= len(sents):
        return 0
    first, second, third = (Cursor(sents[i + k]) for k in range(3))
    if not (first.take("look", "at", "the", "top", "card", "of", "your", "library") and first.done()):
        return 0
    if not second.take("you", "may", "reveal", ("that", "it")):
        return 0
    second.take("card")                                    # "reveal that card" / "reveal it"
    if not second.done():
        return 0
    try:
        third.need("if")
        quality = _quality_card(third)
        third.need("is", "revealed", "this", "way", ",")
    except NoMatch:
        return 0
    saved = list(s.effects)
    s.effects[:] = []
    try:
        effect_sentence(third.rest(), s)
        then = tuple(s.effects)
    finally:
        s.effects[:] = saved
    if any(e.optional for e in then):
        raise NoMatch("a choice inside what a revealed card does")   # one "may" (the reveal) is modeled
    s.effects.append(RevealTop(quality, then, optional=True))
    return 3


def _choose_from_top(sents: Sequence[Sequence[Token]], i: int, s: Scope) -> int:
    """"Look at the top N cards of your library. Put one of them into your hand and the rest|other
    on the bottom of your library [in any order]." (Sleight of Hand, Anticipate): the number of
    sentences read (2), or 0. "… in a random order" is not this template (a random event)."""
    if i + 1 >= len(sents):
        return 0
    first, second = Cursor(sents[i]), Cursor(sents[i + 1])
    try:
        first.need("look", "at", "the", "top")
        n = amount(first, s)
        first.need("cards", "of", "your", "library")
        first.end()
        second.need("put", "one", "of", "them", "into", "your", "hand", "and", "the", ("rest", "other"), "on", "the",
                    "bottom", "of", "your", "library")
        if not second.done():
            second.need("in", "any", "order")
        second.end()
    except NoMatch:
        return 0
    s.effects.append(ChooseFromTop(n))
    return 2


def _quality_card(c: Cursor) -> Filter | None:
    """"a card", "an instant or sorcery card", "a creature card", "a land card": a card of one of
    the types named (CR 205.2)."""
    if not c.take(("a", "an")):
        raise NoMatch("a card")
    types: set[str] = set()
    while c.low() in TYPE_WORDS and c.low() != "permanent":
        types.add(TYPE_WORDS[c.next().low])
        if not c.take("or"):
            break
    c.need("card")
    return Filter(types=frozenset(types), who="you", zone="library") if types else None


def clause_until_eot(c: Cursor, s: Scope) -> list[Effect]:
    """until end of turn, <replacement effect on mana> (a continuous effect from a resolving object)."""
    c.need("until", "end", "of", "turn", ",")
    r = mana_replacement(c)
    return [UntilEndOfTurn(r)]


def clause_additional_land(c: Cursor, s: Scope) -> list[Effect]:
    """"(you may) play an additional land this turn" / "play two additional lands this turn": more land
    plays for the resolving object's controller this turn (CR 305.2, 611.2a; the "you may" is the
    permission's, read by :func:`instructions` — a land play is never forced, so it is dropped)."""
    c.need("play")
    n = 1 if c.take("an") else int(number(c))
    c.need("additional", "land" if n == 1 else "lands", "this", "turn")
    return [UntilEndOfTurn(AdditionalLands(amount=n))]


CLAUSES: tuple[tuple[str, Callable[[Cursor, Scope], list[Effect]]], ...] = (
    ("damage", clause_damage), ("destroy", clause_destroy), ("draw", clause_draw),
    ("gain life", clause_gain_life), ("discard", clause_discard), ("look at hand", clause_look_hand),
    ("create tokens", clause_tokens),
    ("transform", clause_transform), ("flip", clause_flip), ("meld", clause_meld),
    ("return to battlefield", clause_return), ("return to hand", clause_return_to_hand),
    ("flicker", clause_flicker), ("exiled to hand", clause_exiled_to_hand), ("exile library", clause_exile_library),
    ("shuffle hand into library", clause_shuffle_hand_into_library), ("exile", clause_exile),
    ("lose half life", clause_lose_half_life),
    ("counter spell", clause_counter), ("player life", clause_player_life), ("skip untap", clause_skip_untap),
    ("lose the game", clause_lose_game), ("untap up to N", clause_untap_chosen), ("extra turn", clause_extra_turn),
    ("skip next combat", clause_skip_next_combat),
    ("player draws or mills", clause_player_draws),
    ("tap/untap", clause_tap), ("put counters", clause_counters),
    ("fight", clause_fight), ("conjure", clause_conjure), ("until end of turn", clause_until_eot),
    ("search library", clause_search),
    ("additional land this turn", clause_additional_land), ("put from hand", clause_put_from_hand),
    ("look at the top cards", clause_arrange_top),
    ("scry or surveil", clause_scry_surveil), ("predefined tokens", clause_predefined_tokens),
    ("investigate", clause_investigate), ("its controller", clause_its_controller), ("shuffle", clause_shuffle), ("hand on top", clause_hand_on_top),
    *LIBRARY_CLAUSES, *EFFA_CLAUSES,
    ("pump", clause_pump), ("regenerate", clause_regenerate), ("prevent damage", clause_prevent),
    ("attach", effects_equip.clause_attach), ("animate", clause_animate),
    ("base power and toughness", clause_base_pt),
    ("add mana", clause_add_mana), ("connive", clause_connive), ("gain control", clause_gain_control),
    ("the exiled card's owner creates", clause_exiled_card_tokens),
) + CLAUSES_EFFB


def clause(c: Cursor, s: Scope) -> list[Effect]:
    for _name, fn in CLAUSES:
        save, ntargets, last = c.i, len(s.targets), s.last
        try:
            return fn(c, s)
        except NoMatch:
            c.i = save
            del s.targets[ntargets:]
            s.last = last
    raise NoMatch("no clause")


def effect_sentence(toks: Sequence[Token], s: Scope) -> list[Effect]:
    """One sentence of instructions: ["you may"] clause ((", then" | "and" | "then") clause)*."""
    c = Cursor(toks)
    exile_if = exile_if_dies_sentence(c, s)
    if exile_if is not None:
        s.effects.append(exile_if)
        return [exile_if]
    instead = countered_instead_rider(c)
    if instead:
        if not s.effects or not isinstance(s.effects[-1], (CounterSpell, CounterUnlessPays)):
            raise NoMatch("nothing countered this way")
        s.effects[-1] = replace(s.effects[-1], instead=instead)
        return []
    if cant_be_regenerated_rider(c):
        if not any(isinstance(e, Destroy) for e in s.effects):
            raise NoMatch("nothing to regenerate")
        s.effects[:] = [replace(e, cant_be_regenerated=True) if isinstance(e, Destroy) else e
                        for e in s.effects]
        return []
    if still_its_types(toks) and s.effects and isinstance(s.effects[-1], Animate):
        return []   # "It's still a land." after "… becomes a 2/2 … creature" (CR 205.1b)
    if flicker_return_sentence(toks, s):
        return []   # "Exile target creature. Return that card to the battlefield under its owner's control."
    reflexive = reflexive_sentence(toks, s, instructions)   # "When it connives this way, …" (CR 603.12)
    if reflexive is not None:
        return reflexive
    dealt = dealt_damage_sentence(toks, s, instructions)   # "If a player is dealt damage this way, …" (608.2c)
    if dealt is not None:
        return dealt
    kicked = if_kicked_sentence(toks, s, instructions)   # "If this spell was kicked, …" (CR 702.33e)
    if kicked is not None:
        return kicked
    delayed = delayed_return_sentence(toks, s) or delayed_token_sentence(toks, s) \
        or delayed_cast_sentence(toks, s, instructions) \
        or delayed_sentence(toks, s, instructions)   # "… at the beginning of the next end step" (CR 603.7a)
    if delayed is not None:
        return delayed
    conditional = if_condition_sentence(toks, s, instructions) \
        or otherwise_sentence(toks, s, instructions)   # "If you control …, …", "Otherwise, …" (CR 608.2c)
    if conditional is not None:
        return conditional
    out = instructions(c, s)
    s.effects.extend(out)
    return out


def instructions(c: Cursor, s: Scope) -> list[Effect]:
    """["you may"] clause ((", then" | "and" | "then") clause)* to the end of ``c`` (CR 608.2c-d)."""
    optional = c.take("you", "may")
    out = clause(c, s)
    while not c.done():
        if not (c.take(",", "then") or c.take("then") or c.take("and") or c.take(",", "and")):
            raise NoMatch("unexpected words")
        out.extend(clause(c, s))
    if optional:   # a permission ("you may play an additional land") is no choice made as it resolves
        out = [e if isinstance(e, UntilEndOfTurn) and isinstance(e.granted, AdditionalLands)
               else replace(e, optional=True) for e in out]
    return out


def effect_text(sents: Sequence[Sequence[Token]], s: Scope) -> list[Effect]:
    """Sentences of instructions, in order (CR 608.2c); a look-at-the-top-card-and-reveal passage
    (:func:`_reveal_top`) and a look-at-the-top-cards-and-take-one passage (:func:`_choose_from_top`)
    are read as one."""
    i = 0
    while i < len(sents):
        used = _reveal_top(sents, i, s) or _choose_from_top(sents, i, s) or dig_passage(sents, i, s) \
            or reveal_hand_discard(sents, i, s) \
            or paid_or_flipped(sents, i, s, effect_sentence) \
            or reveal_top_to_hand(sents, i, s) \
            or exile_top_playable(sents, i, s)   # "you may pay …. If you do, …", a coin flip; Goblin Guide's reveal;
        #                                          "Exile the top card … You may play that card this turn."
        if used:
            i += used
            continue
        effect_sentence(sents[i], s)
        i += 1
    return list(s.effects)
