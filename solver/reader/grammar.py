"""The grammar of the Oracle-text reader: named templates over tokens.

Parsing is top-down with backtracking over the tokens of :mod:`.tokens`.  A
:class:`Cursor` walks a token list; each grammar function either consumes the
tokens of its phrase and returns its meaning in the IR of :mod:`solver.core.ir`, or
raises :class:`NoMatch` (the cursor is then restored by whoever tried it).  A
template matches a line only if it consumes *every* token of it, so any word
the grammar does not know makes the line unsupported instead of being skipped.

Layers, bottom up (each a module of its own; :mod:`.shared_readers` lists them):

* phrases — numbers, mana runs, object descriptions (:func:`desc`, converted to
  :class:`~solver.core.ir.Selector` or :class:`~solver.core.ir.Filter` only when the IR
  can hold every word of them), target phrases (CR 115), costs (CR 118, 602.1a),
  mana production (CR 106, 605);
* clauses and sentences — the instructions of spells and abilities (CR 608):
  damage, destroy, pump, draw, tokens, counters, fight, conjure, …;
* line templates (this module) — :data:`LINE_TEMPLATES`, each with a name: keyword lines
  (CR 702), activated and mana abilities (CR 602, 605), triggered abilities
  (CR 603, 605.1b), statics (CR 604, 613), replacement effects (CR 614) and
  spell text (instants and sorceries).

Sentences after the one that defines an ability that the grammar cannot read
(for example "Spend this mana only to cast creature spells.") are kept as an
:class:`~solver.core.ir.Unsupported` *rider* after the ability, so the ability keeps
its place in printed order and nothing is dropped — except that a rider
mentioning "target" makes the whole line unsupported (its targets would be
incomplete), and so does any unread sentence of a non-mana activated or
triggered ability (its resolution would be wrong).
"""
from __future__ import annotations

from dataclasses import replace
from typing import Callable, Sequence

from ..core import ir
from ..core.ir import (Ability, ActivatedAbility, ActivationCondition, AllConditions, Enchant, EntersWith, Keyword, ManaAbility, SELF,
                  Selector, Static, TriggeredAbility, TriggeredManaAbility, Unsupported, GraveyardCount, GraveyardTypes,
                  condition_classes)
from ..core.mana import COLORS
from .subtypes import SUBTYPES
from .tokens import detokenize, template, tokenize, Token
from .vocabulary import (BASIC_PLURALS, BASIC_TYPES, COLOR_WORDS, _GRAMMAR_WORDS, KEYWORD_NAMES, LAND_SUBTYPES,
                         SIMPLE_KEYWORDS, singular, STRIKE_WORDS)
from .cursor import Cursor, find_top, mentions_target, NoMatch, sentences, split_top, strip_ability_word
from .phrases import color_word, number, pt
from .descriptions import SELF_SELECTOR, desc, selector_phrase, to_filter
from .scope import check_event_refs, keyword_list, Scope, trigger_scope
from .costs import cost_has_x, only_activated_ability_cost, only_mana_ability_cost, parse_cost
from .production import add_clause
from .line_context import LineContext, LineResult, _rider_or_fail, unsupported
from .static_sentences import (_in_addition, line_defined_pt, activate_as_haste, choose_as_enters, counter_replacement,
                               enters_with, enters_tapped_if, pay_life_as_enters, unless_paid,
                               line_characteristic_defining, line_combat, mana_replacement, must_target,
                               player_keyword, player_subtype, skip_step, token_replacement, no_maximum_hand_size,
                               look_at_top_any_time)
from .effects import effect_sentence, effect_text
from .cast_conditions import enters_with_if_cast
from .spend_restrictions import _spend_and_rider, spend_sentence
from .activation_conditions import activation_restriction
from .trigger_events import _trigger_event, intervening_if
from .keyword_counters import counter_keyword
from . import casting_options  # alternative / additional costs, flashback … (reader/casting_options.py)
from . import conditional_statics, effects_equip, mana_riders, statics, structure
# the grammar's former contents, re-exported: callers import them from here (``grammar.NoMatch`` …)
from .shared_readers import *  # noqa: F401,F403


def selector_static(c: Cursor, ctx: "LineContext") -> "Static | list[Ability]":
    """Statics whose subject is a set of permanents, read once and branched on the verb:

    * layer 4 type changes (CR 305.7, 613.1d): "<lands> are <Basic types>",
      "Each land is a Swamp in addition to its other land types", "<lands> are
      every basic land type in addition to their other types", "Enchanted
      creature is a Flagbearer";
    * layer 5 color changes (CR 613.1e): "<permanents> are <color>";
    * layer 6 grants (CR 613.1f): "<selector> have "<ability>"";
    * layer 6/7c anthems: "<selector> get(s) +N/+N [and have <kw>]", "<selector> have <kw>".
    """
    sel = selector_phrase(c)
    if c.take(("is", "are")):
        if c.take("every", "basic", "land", "type"):
            if not _in_addition(c):
                raise NoMatch("every basic land type")
            c.end()
            return ir.AddTypes(sel, all_basic=True)
        t = c.peek()
        if t is not None and t.low in COLOR_WORDS:
            col = color_word(c)
            c.end()
            return ir.SetColor(sel, color=frozenset({col}))
        c.take(("a", "an"))
        t = c.next()
        if t.kind != "WORD" or not t.text[:1].isupper() or t.low in _GRAMMAR_WORDS:
            raise NoMatch("subtype")
        sub = BASIC_PLURALS.get(t.text) or t.text
        if singular(sub) != sub and singular(sub) in SUBTYPES:
            sub = singular(sub)
        if sub not in SUBTYPES:
            raise NoMatch("not a subtype")
        addition = _in_addition(c)
        c.end()
        if sub in LAND_SUBTYPES:
            if "Land" not in sel.types:
                raise NoMatch("land types for lands")
            return (ir.AddTypes if addition else ir.SetLandTypes)(sel, subtypes=frozenset({sub}))
        return ir.AddTypes(sel, subtypes=frozenset({sub}))
    return _gets_or_has(c, sel, ctx)


def self_static(c: Cursor, ctx: "LineContext") -> "Static | list[Ability]":
    """"SELF gets +N/+N [and has <keywords>]", "SELF has <keywords>" — the anthem verbs of
    :func:`selector_static` with the source as subject (read under a condition:
    :mod:`.conditional_statics`)."""
    c.need("SELF")
    return _gets_or_has(c, SELF_SELECTOR, ctx)


def _gets_or_has(c: Cursor, sel: Selector, ctx: "LineContext") -> "Static | list[Ability]":
    """After the subject: "get(s) +N/+N [and have <keywords>]", "have <keywords>", "have "<ability>"" (layers 6, 7c)."""
    p = q = 0
    kws: tuple[str, ...] = ()
    if c.take(("gets", "get")):
        p, q = pt(c)
        if c.take("and", ("has", "have")):
            kws, quoted = _keywords_then_quoted(c, ctx)
            if quoted is not None:   # "… and has first strike, …, and "<ability>"" (layers 7c and 6)
                c.end()
                return [ir.StaticPump(sel, power=p, toughness=q, keywords=kws), ir.Grant(sel, granted=quoted)]
    else:
        c.need(("has", "have"))
        if c.at('"'):
            c.i += 1
            inner = []
            while not c.at('"'):
                inner.append(c.next())
            c.i += 1
            c.end()
            return ir.Grant(sel, granted=read_quoted(inner, ctx))
        kws = keyword_list(c)
    c.end()
    return ir.StaticPump(sel, power=p, toughness=q, keywords=kws)


def _keywords_then_quoted(c: Cursor, ctx: "LineContext") -> tuple[tuple[str, ...], Ability | None]:
    """Keywords granted, then perhaps ", and "<ability>"" last in the list (Kaldra Compleat: "has first
    strike, trample, indestructible, haste, and "Whenever …""; CR 613.1f)."""
    quote = next((i for i in range(c.i, len(c.toks)) if c.toks[i].low == '"'), None)
    if quote is None:
        return keyword_list(c), None
    head = list(c.toks[c.i:quote])
    while head and head[-1].low in (",", "and"):
        head.pop()
    kc = Cursor(head)
    kws = keyword_list(kc)
    kc.end()
    end = next((i for i in range(quote + 1, len(c.toks)) if c.toks[i].low == '"'), None)
    if end is None:
        raise NoMatch("an unclosed quoted ability")
    c.i = end + 1
    return kws, read_quoted(list(c.toks[quote + 1:end]), ctx)


def _deck_construction_only(words: list[str]) -> bool:
    """Partner and its variants (CR 702.124): "Partner", "Partner—<name of a group>", "Choose a Background",
    "Doctor's companion"."""
    if words in (["partner"], ["choose", "a", "background"], ["doctor's", "companion"], ["doctor", "'s", "companion"]):
        return True
    return len(words) > 2 and words[:2] == ["partner", "—"] and all(w.replace("&", "").replace("-", "").isalpha()
                                                                     or w in ("&", "-") for w in words[2:])


def _keyword_item(toks: Sequence[Token], ctx: LineContext, raw: str) -> list[Ability]:
    c = Cursor(toks)
    first = c.low()
    if first is None:
        raise NoMatch("empty")
    if (read := statics.keyword_item(toks, raw)) is not None:  # qualities, affinity, ward (reader/statics.py)
        return read
    # protection from <color> [and from <color>]* / from all colors (CR 702.16)
    if c.take("protection", "from"):
        save = c.i
        try:
            if c.take("all", "colors") or c.take("each", "color"):
                cols = list(COLORS)
            else:
                cols = [color_word(c)]
                while c.take("and", "from") or c.take(",", "from") or c.take(",", "and", "from"):
                    cols.append(color_word(c))
            c.end()
            return [Keyword("protection", col) for col in cols]
        except NoMatch:
            c.i = save
            return [unsupported("protection from " + template(c.rest()), raw)]
    if c.take("enchant"):
        save = c.i
        try:
            d = desc(c)
            c.end()
            if d.plural:
                raise NoMatch("singular")
            return [Enchant(to_filter(d))]
        except NoMatch:
            c.i = save
            return [unsupported("enchant " + template(c.rest()), raw)]
    t = toks[0]  # nothing taken yet: the line's first token
    if t.kind == "WORD" and t.low.endswith("walk") and t.low[:-4].capitalize() in BASIC_TYPES and len(toks) == 1:
        return [Keyword("landwalk", t.low[:-4].capitalize())]
    if len(toks) == 2 and first in STRIKE_WORDS and toks[1].low == "strike":  # first / double strike
        return [Keyword(first + " strike")]
    c.i = 0
    if len(toks) == 1 and t.kind == "WORD" and t.low in SIMPLE_KEYWORDS:
        return [Keyword(t.low)]
    if first == "toxic" and len(toks) == 2 and toks[1].low.isdigit() and int(toks[1].low) > 0:
        return [Keyword("toxic", toks[1].low)]   # CR 702.164a: "toxic N"
    if first == "cascade" and len(toks) == 1:
        # CR 702.85a: "When you cast this spell, exile cards … until …; you may cast that card …"
        return [TriggeredAbility(trigger=ir.CastSelfTrigger(), effects=(ir.Cascade(),), text=raw)]
    if _deck_construction_only([x.low for x in toks]):
        # "Partner", "Partner—Friends forever", "Choose a Background", "Doctor's companion" (CR 702.124 and its
        # variants): rules for building a deck with two commanders, nothing in a game; "Partner with [name]"
        # (702.124j) has a trigger, and stays unread
        return [Keyword(" ".join(x.low for x in toks).split("—")[0].strip())]
    if len(toks) == 1 and t.kind == "WORD" and t.low in ("devoid", "changeling"):
        # characteristic-defining keywords (CR 604.3): "This object has no color" (702.114a), "This
        # object is every creature type" (702.73a); they function in every zone
        return [ir.CharacteristicDefining(colors=frozenset(), text=raw) if t.low == "devoid"
                else ir.CharacteristicDefining(every_creature_type=True, text=raw)]
    counted = counter_keyword([x.low for x in toks], raw)   # modular, fading, vanishing (CR 702.43a, 702.32a, 702.63a)
    if counted is not None:
        return counted
    meaning = keyword_trigger_meaning([x.low for x in toks], ctx)
    if meaning is not None:
        return [_keyword_trigger(meaning, raw)]
    # other keywords: unsupported, named by the keyword and its parameter's template
    words = [x.low for x in toks]
    for n in range(min(5, len(words)), 0, -1):
        head = " ".join(words[:n])
        if head == "enchant":
            continue
        if head in KEYWORD_NAMES or head in ctx.keywords or (n == 1 and head.endswith(("cycling", "walk"))):
            tail = template(toks[n:]).strip()
            return [unsupported(head + (" " + tail if tail else ""), raw)]
    raise NoMatch("not a keyword")


#: Keywords that are triggered abilities, by their rules meaning (CR 702.108a prowess, 702.45a bushido N,
#: 702.91a battle cry, 702.135a afterlife N), read by the trigger and effect grammar like any printed line;
#: ``{n}`` is the keyword's number, ``{w}`` its word. Only on creature cards: the meanings name "this creature".
KEYWORD_TRIGGER_MEANINGS: dict[str, str] = {
    "prowess": "Whenever you cast a noncreature spell, this creature gets +1/+1 until end of turn.",
    "bushido": "Whenever this creature blocks or becomes blocked, this creature gets +{n}/+{n} until end of turn.",
    "battle cry": "Whenever this creature attacks, each other attacking creature gets +1/+0 until end of turn.",
    "afterlife": "When this creature dies, create {w} 1/1 white and black Spirit creature token{s} with flying.",
}
_NUMBER_WORDS = {1: "a", 2: "two", 3: "three", 4: "four", 5: "five"}


def keyword_trigger_meaning(words: list[str], ctx: LineContext) -> str | None:
    """The meaning of a keyword line that is one triggered ability ("prowess", "bushido 2", "battle cry",
    "afterlife 1"), or None."""
    if not ctx.is_creature:
        return None
    for name, meaning in KEYWORD_TRIGGER_MEANINGS.items():
        head = name.split()
        if words[:len(head)] != head:
            continue
        rest = words[len(head):]
        if "{n}" not in meaning and "{w}" not in meaning:
            return meaning if not rest else None
        if len(rest) != 1 or not rest[0].isdigit() or int(rest[0]) not in _NUMBER_WORDS:
            return None
        n = int(rest[0])
        return meaning.format(n=n, w=_NUMBER_WORDS[n], s="s" if n > 1 else "")
    return None


def _keyword_trigger(meaning: str, raw: str) -> Ability:
    """A keyword that is a triggered ability (CR 702.108a prowess): its rules meaning read as the
    printed triggered ability it stands for, keeping the keyword line as its text."""
    (ability,) = line_triggered(tokenize(meaning, (), ("creature",)), LineContext(), meaning)
    assert isinstance(ability, TriggeredAbility)
    return replace(ability, text=raw)


def line_keywords(toks: Sequence[Token], ctx: LineContext, raw: str) -> list[Ability]:
    """A keyword line: keywords separated by commas or semicolons (CR 702)."""
    items: list[list[Token]] = []
    for part in split_top(toks, ";"):
        items.extend(split_top(part, ","))
    if len(toks) > 1 and toks[0].low == "ward" and toks[1].low == "—":
        items = [list(toks)]  # "Ward—{2}, Pay 2 life.": an em-dash cost runs to the end of the line (CR 702.21a)
    if not items or any(not it for it in items):
        raise NoMatch("empty keyword")
    # a final period is allowed only after a keyword's em-dash cost ("Ward—Pay 3 life.")
    last = items[-1]
    if last and last[-1].kind == "PUNCT" and last[-1].low == ".":
        if not any(t.low == "—" for t in last):
            raise NoMatch("a sentence")
    out: list[Ability] = []
    for it in items:
        if it and it[-1].low == "." and any(t.low == "—" for t in it):
            it = it[:-1]
        out.extend(_keyword_item(it, ctx, raw))
    return out


def line_activated(toks: Sequence[Token], ctx: LineContext, raw: str) -> list[Ability]:
    """<cost>: <effect> — an activated ability (CR 602) or an activated mana ability (CR 605.1a)."""
    k = find_top(toks, ":")
    if k <= 0:
        raise NoMatch("no colon")
    cost_toks, eff = toks[:k], toks[k + 1:]
    if cost_toks[0].low == "[":
        raise NoMatch("loyalty ability")
    cost = parse_cost(cost_toks)
    sents = sentences(eff)
    if not sents:
        raise NoMatch("no effect")
    if len(sents) > 1 and [t.low for t in sents[0]] == ["choose", "a", "color"] and sents[1][0].low == "add" \
            and any(t.low == "that" for t in sents[1]):
        sents = sents[1:]   # "Choose a color. Add … of that color …": the color chosen as it resolves (CR 106.1b)
    if sents[0] and (sents[0][0].low == "add" or [t.low for t in sents[0][:4]] == ["for", "each", "color", "among"]):
        if mentions_target(eff):
            raise NoMatch("an ability with a target is not a mana ability (CR 605.5a)")
        only_activated_ability_cost(cost)  # the mana models don't choose cards to discard or exile
        prod = add_clause(Cursor(sents[0]), x_cost=cost.remove_x_counters is not None)
        damage = 0
        rest = []
        spend = None
        limit: int | None = None
        conds: list[ActivationCondition] = []
        riders: list = []
        for st in sents[1:]:
            c = Cursor(st)
            if c.take("SELF", "deals") and (n := c.attempt(number)) is not None and \
                    c.take("damage", "to", "you") and c.done():
                damage += n
            elif (r := activation_restriction(st)) is not None and not (r[0] is not None and limit is not None):
                limit = r[0] if r[0] is not None else limit  # CR 602.5b
                conds.extend(r[1])
            elif spend is None and (sp := spend_sentence(st)) is not None:
                spend = sp  # CR 106.6
            elif spend is None and (split := _spend_and_rider(st)) is not None:
                spend = split[0]  # CR 106.6; "and that spell can't be countered" stays an unsupported rider
                rest.append(split[1])
            elif (rd := mana_riders.rider(st)) is not None:
                riders.append(rd)  # CR 605.1a: an additional effect of the mana ability
            elif prod.instead is None and (alt := mana_riders.instead(st, cost.remove_x_counters is not None)):
                prod = replace(prod, instead=alt)  # "If <condition>, add … instead" (CR 608.2h)
            else:
                rest.append(st)
        cond = None if not conds else conds[0] if len(conds) == 1 else AllConditions(parts=tuple(conds))
        if condition_classes(cond) & {GraveyardCount, GraveyardTypes}:
            raise NoMatch("a graveyard condition of a mana ability (another activation could change it)")
        return _rider_or_fail(ManaAbility(cost, prod, damage, raw, spend=spend, limit=limit, condition=cond,
                                          riders=tuple(riders)), rest, raw)
    if cost.remove_x_counters is not None:
        raise NoMatch("a variable counter cost is modelled only for mana abilities")
    only_mana_ability_cost(cost)
    s = Scope(last=SELF, source_is_permanent=not ctx.is_spell, x_defined=cost_has_x(cost))
    sorcery = False
    body = []
    for st in sents:
        c = Cursor(st)
        if c.take("activate", "only", "as", "a", "sorcery") and c.done():
            sorcery = True
            continue
        body.append(st)
    effect_text(body, s)   # passages of several sentences read as one, as for spells and triggers
    if not s.effects:
        raise NoMatch("no effect")
    return [ActivatedAbility(cost, tuple(s.targets), tuple(s.effects), sorcery, raw)]


def line_triggered(toks: Sequence[Token], ctx: LineContext, raw: str) -> list[Ability]:
    """When/Whenever/At <event>, <effect> (CR 603; 605.1b for triggered mana abilities)."""
    if not toks or toks[0].low not in ("when", "whenever", "at"):
        raise NoMatch("not a trigger")
    c = Cursor(toks)
    trig, mana = _trigger_event(c)
    c.need(",")
    sents = sentences(c.rest())
    cond = None
    if sents and not mana:
        cond, first = intervening_if(sents[0])
        sents = [list(first)] + list(sents[1:])
    if mana:
        if len(sents) != 1:
            raise NoMatch("triggered mana ability with more")
        return [TriggeredManaAbility(trig, add_clause(Cursor(sents[0]), triggered=True), raw)]
    s = trigger_scope(trig)
    s.adds_mana = True  # not a mana ability (CR 605.5a)
    if cond is not None and s.last is None and _about_self(c.rest()):
        s.last = SELF   # "if this artifact is tapped, it deals 1 damage to you": "it" is the source
    effect_text(sents, s)
    if not s.effects:
        raise NoMatch("no effect")
    check_event_refs(s, trig)
    return [TriggeredAbility(trig, tuple(s.targets), tuple(s.effects), raw, condition=cond)]


def _about_self(rest: Sequence[Token]) -> bool:
    """An intervening "if" clause whose subject is the source ("if SELF is tapped, …", CR 603.4)."""
    return len(rest) > 1 and rest[0].low == "if" and rest[1].kind == "SELF"


def _with_text(a: Ability, raw: str) -> Ability:
    """``a`` with the line it was read from as its ``text`` (keywords and unsupported parts have none of their own)."""
    return a if isinstance(a, (Keyword, Enchant, Unsupported)) else replace(a, text=raw)


# Single-sentence static and replacement templates: name → parser(cursor, ctx).
STATIC_TEMPLATES: tuple[tuple[str, Callable[[Cursor, LineContext], "Ability | list[Ability]"]], ...] = (
    ("mana replacement", lambda c, ctx: mana_replacement(c)),
    ("counter replacement", lambda c, ctx: counter_replacement(c)),
    ("token replacement", lambda c, ctx: token_replacement(c)),
    ("enters with", lambda c, ctx: enters_with(c, ctx.x_in_cost)),
    ("enters with if kicked or escaped", lambda c, ctx: enters_with_if_cast(c)),
    ("choose a color as it enters", lambda c, ctx: choose_as_enters(c)),
    ("enters tapped if", lambda c, ctx: enters_tapped_if(c)),
    ("pay life as it enters", lambda c, ctx: pay_life_as_enters(c)),
    ("flagbearer requirement", lambda c, ctx: must_target(c)),
    ("player subtype", lambda c, ctx: player_subtype(c)),
    ("player keyword", lambda c, ctx: player_keyword(c)),
    ("skip your draw step", lambda c, ctx: skip_step(c)),
    ("no maximum hand size", lambda c, ctx: no_maximum_hand_size(c)),
    ("look at the top card any time", lambda c, ctx: look_at_top_any_time(c)),
    ("activate as though haste", lambda c, ctx: activate_as_haste(c)),
    ("selector static", selector_static),
)

_SPEND_WHITE = ("you may spend white mana as though it were mana of any color . you may spend other mana only "
                "as though it were colorless mana").split()


def line_spend_white(toks: Sequence[Token], ctx: LineContext, raw: str) -> list[Ability]:
    """Celestial Dawn's two-sentence mana-spending rule (CR 609.4b)."""
    c = Cursor(toks)
    c.need(*_SPEND_WHITE)
    c.take(".")
    c.end()
    return [ir.SpendWhiteAsAny(text=raw)]


def _one_static(a: "Static | list[Ability]") -> Static:
    """One static ability (a conditional static, CR 611.3a, reads one)."""
    if isinstance(a, list):
        raise NoMatch("several statics under one condition")
    return a


def line_static(toks: Sequence[Token], ctx: LineContext, raw: str) -> list[Ability]:
    """A static or replacement ability: its first sentence by one of STATIC_TEMPLATES."""
    sents = sentences(toks)
    if not sents:
        raise NoMatch("empty")
    first = sents[0]
    for _name, fn in STATIC_TEMPLATES:
        c = Cursor(first)
        try:
            got = fn(c, ctx)
            c.end()
        except NoMatch:
            continue
        rest = sents[1:]
        extra: list[Ability] = []
        a, *more = got if isinstance(got, list) else [got]   # an anthem and a quoted grant, one sentence
        extra += more
        if isinstance(a, ir.SetColor) and rest and _same_is_true_for_cards(rest[0]):
            # Celestial Dawn: "The same is true for spells you control and nonland cards you own
            # that aren't on the battlefield." (layer 5 for objects off the battlefield)
            extra.append(ir.SetColorCards(color=a.color, text=""))
            rest = rest[1:]
        if isinstance(a, EntersWith) and not a.choose and rest and \
                (ch := Cursor(rest[0]).attempt(choose_as_enters, True)) is not None:
            # "This land enters tapped. As it enters, choose a color other than red." (Thriving lands)
            a = replace(a, choose=ch.choose, choose_except=ch.choose_except)
            rest = rest[1:]
        if isinstance(a, EntersWith) and a.pay_life:
            # "As this land enters, you may pay 2 life. If you don't, it enters tapped." (CR 614.12)
            if not rest or not unless_paid(rest[0]):
                continue
            a = replace(a, tapped=True)
            rest = rest[1:]
        out = _rider_or_fail(_with_text(a, raw), rest, raw)
        return out[:1] + [_with_text(e, raw) for e in extra] + out[1:]
    raise NoMatch("no static template")


def _same_is_true_for_cards(sentence: Sequence[Token]) -> bool:
    words = " ".join(t.low for t in sentence if t.kind == "WORD")
    return words in ("the same is true for spells you control and nonland cards you own that aren't on the battlefield",
                     "the same is true for spells you control and nonland cards you own that are n't on the battlefield",
                     "the same is true for spells you control and nonland cards you own that arent on the battlefield")


def line_spell(toks: Sequence[Token], ctx: LineContext, raw: str) -> list[Ability]:
    """Instructions of an instant or sorcery (CR 608.2c): sentences of clauses."""
    if not ctx.is_spell or ctx.spell_scope is None:
        raise NoMatch("not a spell")
    s = ctx.spell_scope
    save_t, save_e, save_l = list(s.targets), list(s.effects), s.last
    try:
        effect_text(sentences(toks), s)
    except NoMatch:
        s.targets[:], s.effects[:], s.last = save_t, save_e, save_l
        raise
    return []


LINE_TEMPLATES: tuple[tuple[str, Callable[[Sequence[Token], LineContext, str], list[Ability]]], ...] = (
    ("casting option", lambda toks, ctx, raw: casting_options.line_casting_option(toks, ctx, raw)),  # CR 601.2b, 118.9
    ("keywords", line_keywords),
    ("activated ability", line_activated),
    ("triggered ability", line_triggered),
    ("characteristic-defining ability", line_characteristic_defining),  # CR 604.3: before an instant's instructions
    ("characteristic-defining power and toughness", line_defined_pt),  # CR 604.3, 613.4a
    ("spell instructions", line_spell),
    ("mana spending rule", line_spend_white),
    ("combat static", line_combat),
    ("conditional static", lambda toks, ctx, raw: conditional_statics.line_conditional_static(  # CR 611.3a
        toks, raw, (lambda c: _one_static(self_static(c, ctx)), lambda c: _one_static(selector_static(c, ctx)),
                    combat_static))),
    ("casting rule", lambda toks, ctx, raw: statics.line_casting(toks, ctx, raw)),  # reader/statics.py
    ("loyalty ability", lambda toks, ctx, raw: statics.line_loyalty(toks, ctx, raw)),  # CR 606
    ("static ability", line_static),
)


def read_line(toks: Sequence[Token], ctx: LineContext, raw: str) -> LineResult:
    """The meaning of one line: the first template that reads all of it, else unsupported."""
    body = strip_ability_word(toks)
    if body and body[0].low in ("equip", "fortify") and not ctx.is_spell:  # "Equip {N}", "Fortify {N}" (structure.py)
        try:
            parts, n = structure.line_equip(body, ctx, raw)
            return LineResult("equip", parts, unread=n)
        except NoMatch:
            pass
    if body and body[0].low == "reconfigure" and not ctx.is_spell:  # CR 702.151a (reader/effects_equip.py)
        try:
            return LineResult("equip", list(effects_equip.reconfigure_abilities(body, raw)))
        except NoMatch:
            pass
    for name, fn in LINE_TEMPLATES:
        try:
            parts = fn(body, ctx, raw)
        except NoMatch:
            continue
        if name == "static ability" or name == "activated ability":
            # name the template more precisely for statistics
            if parts and isinstance(parts[0], ManaAbility):
                name = "mana ability"
        if name == "keywords":  # what an unread keyword could change, when known
            parts = [replace(p, affects=structure.keyword_affects(p.what))
                     if isinstance(p, Unsupported) and not p.affects and structure.keyword_affects(p.what) else p
                     for p in parts]
        return LineResult(name, parts, spell_effects=name == "spell instructions", unread=structure.unread_count(parts))
    st = structure.fallback(body, ctx, raw)  # the structure, when the effect is not read (reader/structure.py)
    if st is not None:
        name, parts, n, spell = st
        return LineResult(name, parts, spell_effects=spell, unread=n)
    u = unsupported(template(body), raw)
    aff = structure.line_affects(body, ctx, raw)
    return LineResult(None, [replace(u, affects=aff) if aff else u])


def read_quoted(toks: Sequence[Token], ctx: LineContext) -> Ability:
    """A quoted ability granted by a static (one ability, fully understood)."""
    inner_ctx = LineContext(keywords=ctx.keywords)
    res = read_line(toks, inner_ctx, detokenize(toks))
    if res.template is None or len(res.abilities) != 1 or isinstance(res.abilities[0], Unsupported):
        raise NoMatch("quoted ability not understood")
    return res.abilities[0]
