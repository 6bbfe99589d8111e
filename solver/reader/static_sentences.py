"""Replacement effects (CR 614) and statics (CR 604, 613) read from one sentence:
mana, counter and token replacements, "enters with", combat restrictions
(CR 506–509), player statics."""
from __future__ import annotations

from dataclasses import replace
from typing import Sequence

from ..core import ir
from ..core.ir import Ability, CounterReplacement, EntersWith, ManaReplacement, Selector, Static, TokenReplacement
from ..core.mana import COLORS
from .tokens import Token
from .vocabulary import BASIC_TYPES, COLOR_WORDS, singular
from .cursor import Cursor, NoMatch, sentences
from .phrases import color_word, counter_kind, is_subtype, number, subtype_word
from .descriptions import desc, selector_phrase, SELF_SELECTOR, to_selector
from .scope import amount
from .line_context import LineContext
from .activation_conditions import _controlled
from .production import amount_phrase


def mana_replacement(c: Cursor) -> ManaReplacement:
    """if <who taps what> for mana, it produces <what> instead … (CR 106.12b, 614.1a)."""
    c.need("if")
    if c.take("you", "tap"):
        tapper = "you"
        c.need(("a", "an"))
        sel = to_selector(desc(c))
    elif c.take("a", "player", "taps"):
        tapper = "any"
        c.need(("a", "an"))
        sel = to_selector(desc(c))
    else:
        tapper = "any"
        c.need(("a", "an"))
        sel = to_selector(desc(c))
        c.need("is", "tapped")
    c.need("for", "mana", ",", "it", "produces")
    if c.take("twice"):
        factor = 2
    elif c.take("three", "times"):
        factor = 3
    else:
        factor = 0
    if factor:
        c.need("as", "much", "of", "that", "mana", "instead")
        c.end()
        return ManaReplacement(sel, "multiply", tapper=tapper, factor=factor)
    t = c.peek()
    if t is not None and t.kind == "SYM" and t.low in COLORS + ("C",):
        mt = c.next().low
    elif c.take("colorless", "mana"):
        mt = "C"
    else:
        raise NoMatch("mana type")
    c.need("instead", "of", "any", "other", "type")
    op = "set_type_and_amount" if c.take("and", "amount") else "set_type"
    c.end()
    return ManaReplacement(sel, op, tapper=tapper, mana_type=mt)


def counter_replacement(c: Cursor) -> CounterReplacement:
    """Doubling Season's and Hardened Scales' wordings (CR 122.6, 614.1a)."""
    c.need("if")
    if c.take("an", "effect", "would", "put", "one", "or", "more"):
        kind = ""
        if c.kind() == "PT":
            kind = counter_kind(c)
        c.need("counters", "on", ("a", "an"))
        sel = to_selector(desc(c))
        c.need(",", "it", "puts", "twice", "that", "many", "of", "those", "counters", "on", "that")
        c.next()
        c.need("instead")
        c.end()
        return CounterReplacement(sel, "double", counter=kind)
    c.need("one", "or", "more")
    kind = counter_kind(c) if c.kind() == "PT" else ""
    c.need("counters", "would", "be", "put", "on", ("a", "an"))
    sel = to_selector(desc(c))
    c.need(",")
    if c.take("that", "many", "plus", "one"):
        op = "plus_one"
    elif c.take("twice", "that", "many"):
        op = "double"
    else:
        raise NoMatch("how many")
    if kind:
        if counter_kind(c) != kind:
            raise NoMatch("counter kind changes")
    c.need("counters", "are", "put", "on")
    if not c.take("it"):
        c.need("that")
        c.next()
    c.need("instead")
    c.end()
    return CounterReplacement(sel, op, counter=kind)


def token_replacement(c: Cursor) -> TokenReplacement:
    """Doubling Season's first line, old and new wordings (CR 111, 614.1a)."""
    c.need("if")
    if c.take("an", "effect", "would", "create", "one", "or", "more", "tokens", "under", "your", "control", ",",
              "it", "creates"):
        factor = _times(c)
        c.need("that", "many", "of", "those", "tokens", "instead")
    else:
        c.need("one", "or", "more", "tokens", "would", "be", "created", "under", "your", "control", ",")
        factor = _times(c)
        c.need("that", "many", "of", "those", "tokens", "are", "created", "instead")
    c.end()
    return TokenReplacement(factor)


def _times(c: Cursor) -> int:
    if c.take("twice"):
        return 2
    n = number(c)
    c.need("times")
    return int(n)


def enters_with(c: Cursor, x_defined: bool) -> EntersWith:
    """SELF enters [the battlefield] [tapped] [with N <kind> counters on it] (CR 614.1c, 107.3m)."""
    c.need("SELF", "enters")
    c.take("the", "battlefield")
    tapped = c.take("tapped")
    unless = None
    if tapped and c.take("unless", "you", "control"):  # "unless you control two or more other lands" (CR 614.1c)
        unless = c.attempt(_at_most) or _controlled(c)
        c.end()
        return EntersWith(tapped=True, unless=unless)
    kind = ""
    n: int | str = 0
    if c.take("with"):
        n = number(c, allow_a=True, allow_x=True)
        if n == "X" and not x_defined:
            raise NoMatch("X not in the mana cost")
        kind = counter_kind(c)
        c.need("counter" if n == 1 else "counters", "on", "it")
    if not tapped and not kind:
        raise NoMatch("enters with nothing")
    c.end()
    return EntersWith(counter=kind, amount=n, tapped=tapped)


def _at_most(c: Cursor) -> ir.ControlAtMost:
    """After "unless you control": "two or fewer other lands" (fast lands, CR 614.1c)."""
    n = number(c)
    c.need("or", "fewer")
    d = desc(c)
    if not d.plural or d.who != "any":
        raise NoMatch("N or fewer <permanents>")
    d.who = "you"
    return ir.ControlAtMost(to_selector(d), n=int(n))


def enters_tapped_if(c: Cursor) -> EntersWith:
    """"If you control two or more other lands, SELF enters tapped." (CR 614.1c: the condition read as
    it would enter, 614.12)."""
    c.need("if", "you", "control")
    cond = _controlled(c)
    c.need(",", "SELF", "enters")
    c.take("the", "battlefield")
    c.need("tapped")
    c.end()
    return EntersWith(tapped=True, when=cond)


def pay_life_as_enters(c: Cursor) -> EntersWith:
    """"As SELF enters, you may pay N life." — the first sentence of "… If you don't, it enters tapped."
    (CR 614.12, 614.1c; the grammar's line reader requires the second sentence, :func:`unless_paid`)."""
    c.need("as", "SELF", "enters")
    c.take("the", "battlefield")
    c.need(",", "you", "may", "pay")
    n = number(c)
    c.need("life")
    c.end()
    return EntersWith(pay_life=int(n))


def unless_paid(sentence: Sequence[Token]) -> bool:
    """"If you don't, it enters tapped." after :func:`pay_life_as_enters` (CR 614.1c)."""
    c = Cursor(sentence)
    if not c.take("if", "you", "don't", ",", ("it", "SELF"), "enters"):
        return False
    c.take("the", "battlefield")
    return c.take("tapped") and c.done()


def choose_as_enters(c: Cursor, pronoun: bool = False) -> EntersWith:
    """"As SELF enters, choose a color [other than <color>]." (CR 614.12: a
    replacement on entering; the choice is the object's ``chosen`` color).
    ``pronoun``: "As it enters, …" after a sentence about SELF entering."""
    c.need("as", ("SELF", "it") if pronoun else "SELF", "enters")
    c.take("the", "battlefield")
    c.need(",", "choose", "a")
    if c.take("creature", "type"):
        c.end()
        return EntersWith(choose="creature type")  # the object's `chosen` type (CR 205.3m)
    nonland = c.take("nonland")
    if c.take("card", "name"):
        c.end()
        # the object's `chosen` name (Pithing Needle; Phyrexian Revoker: a nonland card name)
        return EntersWith(choose="nonland card name" if nonland else "card name")
    if nonland:
        raise NoMatch("a nonland card name")
    c.need("color")
    excluded: tuple[str, ...] = ()
    if c.take("other", "than"):
        excluded = (color_word(c),)
    c.end()
    return EntersWith(choose="color", choose_except=excluded)


_IN_ADDITION = ("in", "addition", "to")


def _in_addition(c: Cursor) -> bool:
    """"in addition to its other types" (CR 205.1b: the new types are added, none replaced)."""
    if c.take(*_IN_ADDITION):
        c.need(("its", "their"), "other")
        c.take(("land", "creature", "card"))
        c.need("types")
        return True
    return False


def must_target(c: Cursor) -> Static:
    """Flagbearer requirements, current and previous Oracle wordings (CR 601.2c)."""
    if c.take("while", "an", "opponent", "is", "choosing", "targets", "as", "part", "of", "casting", "a", "spell",
              "they", "control", "or", "activating", "an", "ability", "they", "control", ",", "that", "player",
              "must", "choose", "at", "least", "one"):
        pass
    else:
        c.need("while", "choosing", "targets", "as", "part", "of", "casting", "a", "spell", "or", "activating",
               "an", "ability", ",", "your", "opponents", "must", "choose", "at", "least", "one")
    sub = subtype_word(c)
    bf = c.take("on", "the", "battlefield")
    c.need("if", "able")
    c.end()
    return ir.MustTarget(subtypes=frozenset({sub}), battlefield_only=bf)


def player_subtype(c: Cursor) -> Static:
    """"You are a Flagbearer." (a player with a subtype)."""
    c.need("you", "are", ("a", "an"))
    sub = subtype_word(c)
    c.end()
    return ir.PlayerSubtype(subtypes=frozenset({sub}))


def skip_step(c: Cursor) -> Static:
    """"Skip your draw step." (CR 614.1b, 614.10)."""
    c.need("skip", "your", "draw", "step")
    c.end()
    return ir.SkipStep(step="draw")


def no_maximum_hand_size(c: Cursor) -> Static:
    """"You have no maximum hand size." (CR 402.2)."""
    c.need("you", "have", "no", "maximum", "hand", "size")
    c.end()
    return ir.NoMaximumHandSize()


def look_at_top_any_time(c: Cursor) -> Static:
    """"You may look at the top card of your library any time." (CR 401.2)."""
    c.need("you", "may", "look", "at", "the", "top", "card", "of", "your", "library", "any", "time")
    c.end()
    return ir.LookAtTopAnyTime()


def player_keyword(c: Cursor) -> Static:
    """"You have hexproof." / "You have shroud." (CR 702.11d, 702.18b)."""
    c.need("you", "have")
    kw = c.next().low
    if kw not in ("hexproof", "shroud"):
        raise NoMatch("a player keyword")
    c.end()
    return ir.PlayerKeyword(keywords=(kw,))


def _combat_subject(c: Cursor) -> Selector:
    """The subject of a combat static: this creature, or "enchanted/equipped creature"."""
    if c.take("SELF"):
        return SELF_SELECTOR
    if c.at(("enchanted", "equipped")):
        sel = selector_phrase(c)
        if sel.types and sel.types != frozenset({"Creature"}):
            raise NoMatch("a creature")
        return sel
    raise NoMatch("combat subject")


def combat_static(c: Cursor) -> Static:
    """Combat restrictions and requirements (CR 508.1c–d, 509.1b–c; ir.Static's combat kinds):
    "~ can't attack", "~ can't block", "~ can't attack or block", "~ can't attack alone",
    "~ can't block alone", "~ can't attack or block alone", "~ attacks each combat if able",
    "~ blocks each combat if able", "~ attacks or blocks each combat if able", "~ can block an
    additional creature each combat", "~ can block any number of creatures", "~ can block only
    creatures with flying", "~ can't be blocked", "~ can't be blocked except by two or more
    creatures", "All creatures able to block ~ do so" (Lure), and "Creatures can't attack you
    unless their controller pays {N} for each creature they control that's attacking you"
    (Ghostly Prison, Propaganda; CR 508.1g)."""
    if c.take("creatures", "can't", "attack", "you", "unless", "their", "controller", "pays"):
        t = c.next()
        if t.kind != "SYM" or not t.low.isdigit():
            raise NoMatch("generic mana")
        c.need("for", "each", "creature", "they", "control", "that's", "attacking", "you")
        return ir.AttackTax(amount=int(t.low))
    if c.take("all", "creatures", "able", "to", "block"):
        sel = _combat_subject(c)
        c.need("do", "so")
        return ir.Lure(sel)
    sel = _combat_subject(c)
    if c.take("can't", "block", "and", "can't", "be", "blocked"):
        raise _Both([ir.CantBlock, ir.Unblockable], sel)
    if c.take("can't", "be", "blocked"):
        if c.done():
            return ir.Unblockable(sel)
        if c.take("by", "more", "than", "one", "creature"):
            return ir.MaxBlockers(sel, amount=1)
        if c.take("by", "creatures", "with", "power"):
            n = number(c)
            kind: type[ir.UnblockablePowerLe | ir.UnblockablePowerGe] | None = ir.UnblockablePowerLe \
                if c.take("or", "less") else ir.UnblockablePowerGe if c.take("or", "greater") else None
            if kind is None or not isinstance(n, int):
                raise NoMatch("power N or less/greater")
            return kind(sel, amount=n)
        if c.take("except", "by"):
            if c.at(("two", "three", "four", "five")) or c.kind() == "NUM":
                n = number(c)
                c.need("or", "more", "creatures")
                if not isinstance(n, int) or n < 2:
                    raise NoMatch("a number")
                return ir.MinBlockers(sel, amount=n)
            return _blocker_filter(c, ir.BlockableOnlyBy, sel)
        c.need("by")
        return _blocker_filter(c, ir.UnblockableBy, sel)
    if c.take("can't", "block", "creatures", "with", "power"):
        n = number(c)
        limit: type[ir.CantBlockPowerLe | ir.CantBlockPowerGe] | None = ir.CantBlockPowerLe \
            if c.take("or", "less") else ir.CantBlockPowerGe if c.take("or", "greater") else None
        if limit is None or not isinstance(n, int):
            raise NoMatch("power N or less/greater")
        return limit(sel, amount=n)
    if c.take("can't", "attack", "unless", "defending", "player", "controls", ("a", "an")):
        t = c.next()
        if t.text not in BASIC_TYPES:
            raise NoMatch("a basic land type")
        return ir.AttackNeedsDefenderLand(sel, subtypes=frozenset({t.text}))
    if c.take("must", "be", "blocked", "if", "able"):
        return ir.MustBeBlocked(sel)
    if c.take("can", "block", "any", "number", "of", "creatures"):
        return ir.BlockAnyNumber(sel)
    if c.take("can", "block", "an", "additional", "creature", "each", "combat"):
        return ir.BlockAdditional(sel, amount=1)
    if c.take("can", "block", "only", "creatures", "with", "flying"):
        return ir.BlockOnlyFlying(sel)
    if c.take("can't"):
        kinds: list[type[ir.CombatStatic]] = [ir.CantAttack] if c.take("attack") else \
            [ir.CantBlock] if c.take("block") else []
        if not kinds:
            raise NoMatch("can't attack/block")
        if kinds == [ir.CantAttack] and c.take("or", "block"):
            kinds.append(ir.CantBlock)
        if c.take("alone"):
            kinds = [_ALONE[k] for k in kinds]
        if len(kinds) == 2:
            raise _Both(kinds, sel)
        return kinds[0](sel)
    if c.take("attacks", "each", "combat", "if", "able"):
        return ir.MustAttack(sel)
    if c.take("blocks", "each", "combat", "if", "able"):
        return ir.MustBlock(sel)
    if c.take("attacks", "or", "blocks", "each", "combat", "if", "able"):
        raise _Both([ir.MustAttack, ir.MustBlock], sel)
    raise NoMatch("combat static")


def _blocker_filter(c: Cursor, kind: type[ir.UnblockableBy | ir.BlockableOnlyBy], sel: Selector) -> Static:
    """Blockers described after "by": "creatures with flying [or reach]", "<color> creatures",
    "<Subtypes>" (Walls). Stored in ``keywords`` / ``color`` / ``subtypes`` (any of them matches)."""
    if c.take("creatures", "with"):
        kws = [c.next().low]
        while c.take("or"):
            kws.append(c.next().low)
        if any(k not in ("flying", "reach") for k in kws):
            raise NoMatch("flying or reach")
        return kind(sel, keywords=tuple(kws))
    t = c.peek()
    if t is not None and t.low in COLOR_WORDS:
        col = color_word(c)
        c.need("creatures")
        return kind(sel, color=frozenset({col}))
    sub = subtype_word(c)
    one = singular(sub)
    if one == sub or not is_subtype(one):
        raise NoMatch("a plural subtype")
    return kind(sel, subtypes=frozenset({one}))


#: "can't attack alone" / "can't block alone" (CR 506.5): the alone form of each restriction
_ALONE: dict[type[ir.CombatStatic], type[ir.CombatStatic]] = {ir.CantAttack: ir.CantAttackAlone,
                                                               ir.CantBlock: ir.CantBlockAlone}


class _Both(Exception):
    """Two combat statics from one sentence ("can't attack or block")."""

    def __init__(self, kinds: list[type[ir.CombatStatic]], sel: Selector):
        self.kinds, self.sel = kinds, sel


def line_combat(toks: Sequence[Token], ctx: "LineContext", raw: str) -> list[Ability]:
    """A one-sentence combat static line (see :func:`combat_static`)."""
    if ctx.is_spell:
        raise NoMatch("a spell's instructions")
    sents = sentences(toks)
    if len(sents) != 1:
        raise NoMatch("one sentence")
    c = Cursor(sents[0])
    try:
        a = combat_static(c)
        c.end()
        return [replace(a, text=raw)]
    except _Both as both:
        c.end()
        return [k(both.sel, text=raw) for k in both.kinds]


def activate_as_haste(c: Cursor) -> Static:
    c.need("you", "may", "activate", "abilities", "of")
    sel = to_selector(desc(c))
    c.need("as", "though", "those")
    c.next()
    c.need("had", "haste")
    c.end()
    return ir.ActivateAsHaste(sel)


def _own_color(c: Cursor) -> frozenset[str]:
    """After "SELF is": "colorless", "all colors", "every color", or colors joined by "and"/","."""
    if c.take("colorless"):
        return frozenset()
    if c.take("all", "colors") or c.take("every", "color"):
        return frozenset(COLORS)
    out = {color_word(c)}
    while c.take(",", "and") or c.take(",") or c.take("and"):
        out.add(color_word(c))
    return frozenset(out)


def line_characteristic_defining(toks: Sequence[Token], ctx: LineContext, raw: str) -> list[Ability]:
    """A characteristic-defining ability of the card itself (CR 604.3, functioning in every zone):
    "SELF is colorless." (Ghostfire), "SELF is all colors." (Transguild Courier), "SELF is
    <color> [and <color>]." (604.3a) — its color, layer 5 (613.1e) — and "SELF is every creature
    type." (205.3m, as changeling, 702.73a); "This ability doesn't affect its color identity."
    after it says what it is (CR 903.4)."""
    sents = sentences(toks)
    if not sents or len(sents) > 2:
        raise NoMatch("one sentence")
    c = Cursor(sents[0])
    c.need("SELF", "is")
    if c.take("every", "creature", "type"):
        c.end()
        a = ir.CharacteristicDefining(every_creature_type=True, text=raw)
    else:
        a = ir.CharacteristicDefining(colors=_own_color(c), text=raw)
        c.end()
    if len(sents) == 2:
        words = " ".join(t.low for t in sents[1] if t.kind == "WORD")
        if words != "this ability doesn't affect its color identity":
            raise NoMatch("another sentence")
    return [a]


def _defined_amount(c: Cursor) -> ir.Count:
    """What a power or toughness is equal to, for layer 7a (CR 613.4a): a count that reads no power,
    toughness or ability — the number of permanents of a description, of cards of a type in your
    graveyard, your life total (:func:`.production.amount_phrase`)."""
    n = amount_phrase(c)
    if n.what not in ("number", "cards", "life") or n.keyword or n.min_power is not None or n.same_name:
        raise NoMatch("an amount read from power, toughness or abilities")
    return n


def line_defined_pt(toks: Sequence[Token], ctx: LineContext, raw: str) -> list[Ability]:
    """A characteristic-defining ability of the card's own power and toughness (CR 604.3, 208.2a;
    layer 7a, 613.4a): "This creature's power is equal to …", "SELF's power and toughness are
    each equal to …", "SELF's toughness is equal to …"."""
    sents = sentences(toks)
    if len(sents) != 1 or ctx.is_spell:
        raise NoMatch("one sentence of a permanent card")
    c = Cursor(sents[0])
    if not (c.take("SELF", "'s") or c.take("this", "creature's")):
        raise NoMatch("this creature's")
    if c.take("power", "and", "toughness", "are", "each", "equal", "to"):
        n = _defined_amount(c)
        a = ir.DefinedPT(power=n, toughness=n, text=raw)
    elif c.take("power", "is", "equal", "to"):
        a = ir.DefinedPT(power=_defined_amount(c), text=raw)
    else:
        c.need("toughness", "is", "equal", "to")
        a = ir.DefinedPT(toughness=_defined_amount(c), text=raw)
    c.take(".")
    c.end()
    return [a]
