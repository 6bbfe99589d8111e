"""Abilities that work from the hand, per-turn limits, and additional land plays.

Templates tried before the grammar's own (:func:`read_extra`, called by
:func:`solver.reader._read_one`):

* **cycling, typecycling and transmute** (CR 702.29a, 702.29e, 702.53a: transmute is
  activated only as a sorcery): "Cycling {U}", "Basic
  landcycling {1}", "Artifact landcycling {2}", "Plainscycling {2}" — an
  activated ability "[Cost], Discard this card: Draw a card." / "… Search your
  library for a [type] card …" that functions only while the card is in its
  owner's hand. The cost is read (mana and ``discard_self``); the effect is the
  keyword's meaning (:func:`cycling_effect`: draw a card, or the search of
  typecycling — "artifact landcycling": an artifact land card —, transmute's
  search); any other cycling word keeps it unread (``UnreadEffect`` with the
  printed line), so ``resolve`` refuses it while ``actions``, ``pay`` and
  ``targets`` answer it;
* **"[cost], Discard this card: [effect]"** (channel — an ability word, CR
  207.2c — and others): an activated ability that functions only in the hand
  (CR 113.6k: its cost moves the card out of the hand). The effect's targets are
  read as for any activated ability (:mod:`.structure`), the rest of the effect
  is unread; "This ability costs {N} less to activate for each <legendary
  creature> you control." is the ability's own cost reduction (CR 601.2f via
  602.2b); "Activate only as a sorcery." its timing (CR 602.5d);
* **"[cost]: [effect]. Activate only once each turn."** on a non-mana ability
  of a permanent (CR 602.5b): the ability with ``limit=1``, counted by the
  object key ``activated_this_turn``;
* **loyalty timing**: "As long as <this> entered this turn, you may activate her loyalty
  abilities any time you could cast an instant." — ``LoyaltyAsInstantIfEntered``;
* **"Cards in graveyards can't be the targets of spells or abilities."** —
  ``GraveyardCardsUntargetable`` (CR 115.1; solver/rules/targeting.py);
* **additional land plays** (CR 305.2): "You may play an additional land on
  each of your turns." / "You may play two additional lands on each of your
  turns." — ``AdditionalLands(amount=N)``;
* "You may play lands from your graveyard." (CR 305.1) — ``PlayLandsFromGraveyard``.

Anything else raises nothing and returns None: the grammar reads the line as
before (unsupported when no template reads it).
"""
from __future__ import annotations

from dataclasses import replace
from typing import Sequence

from ..core import ir
from ..core.ir import (SELF, ActivatedAbility, ActivationCondition, AllConditions, Cost, Filter, HandExactly,
                       InstantTime, OpponentControls, Selector, SorceryTime, UnreadEffect)
from .tokens import NUMBER_WORDS, Token
from .phrases import is_subtype
from .vocabulary import singular
from . import grammar
from .structure import structured_sentences
from .graveyard_abilities import line_graveyard_ability
from .crew import line_crew
from .keyword_abilities import line_keyword_ability

_TYPE_WORDS = {"creature": "Creature", "creatures": "Creature", "artifact": "Artifact", "artifacts": "Artifact",
               "land": "Land", "lands": "Land", "enchantment": "Enchantment", "enchantments": "Enchantment",
               "planeswalker": "Planeswalker", "planeswalkers": "Planeswalker"}
_SUPERTYPES = {"legendary": "Legendary", "snow": "Snow", "basic": "Basic"}


def _g():
    return grammar


def read_extra(toks: Sequence[Token], ctx, raw: str):
    """A :class:`~.grammar.LineResult` for a line one of this module's templates reads, else None."""
    g = _g()
    body = g.strip_ability_word(toks)
    for name, fn in (("cycling", line_cycling), ("hand ability", line_discard_self),
                     ("additional land plays", line_additional_lands),
                     ("lands from the graveyard", line_lands_from_graveyard), ("return cost", line_return_cost),
                     ("exile cost", line_exile_self), ("graveyard ability", line_graveyard_ability),
                     ("crew", line_crew), ("activated keyword", line_keyword_ability),
                     ("limited activated ability", line_limited),
                     ("loyalty timing", line_loyalty_as_instant),
                     ("untargetable graveyards", line_graveyards_untargetable)):
        try:
            parts, unread = fn(body, ctx, raw)
        except g.NoMatch:
            continue
        return g.LineResult(name, parts, unread=unread)
    return None


def line_cycling(toks: Sequence[Token], ctx, raw: str) -> tuple[list, int]:
    """"Cycling {cost}" / "[type words] [type]cycling {cost}" (CR 702.29a, 702.29e), or several of
    them in one line ("Plainscycling {2}, islandcycling {2}": one ability each, CR 702.29e)."""
    items = _g().split_top(toks, ",")
    abilities = [_one_cycling(item, raw) for item in items]
    return abilities, sum(1 for ab in abilities if isinstance(ab.effects[0], UnreadEffect))


def _one_cycling(toks: Sequence[Token], raw: str) -> ActivatedAbility:
    g = _g()
    c = g.Cursor(toks)
    words = 0
    while (t := c.peek()) is not None and t.kind == "WORD" and not t.low.endswith("cycling") \
            and not (words == 0 and t.low == "transmute"):
        c.i += 1
        words += 1
    t = c.peek()
    if words == 0 and t is not None and t.low == "transmute":
        sorcery = True   # CR 702.53a: "… Activate only as a sorcery."
    elif t is None or t.kind != "WORD" or not t.low.endswith("cycling") or words > 2:
        raise g.NoMatch("not cycling")
    elif t.low == "cycling" and words:
        raise g.NoMatch("words before cycling")
    else:
        sorcery = False
    keyword = [tok.text for tok in toks[:c.i + 1]]
    c.i += 1
    cost = _life_cost(c) if c.at("—") else Cost(mana=g.mana_cost(g.mana_run(c)), discard_self=True)
    c.end()
    effect = cycling_effect(keyword)
    return ActivatedAbility(cost, (), (effect or UnreadEffect(raw.strip()),), sorcery, raw, zone="hand",
                            cycling=not sorcery)   # transmute is not cycling (CR 702.53a, 702.29f)


def _life_cost(c) -> Cost:
    """"—Pay N life." after a cycling keyword (CR 702.29a, 118.1: a cost that is not mana; paying
    life, CR 119.4). Other costs ("—Sacrifice a land.") are not read."""
    g = _g()
    c.need("—", "pay")
    t = c.next()
    if t.kind != "NUM":
        raise g.NoMatch("an amount of life")
    c.need("life")
    c.take(".")
    return Cost(life=int(t.low), discard_self=True)


def cycling_effect(keyword: Sequence[str]) -> ir.Effect | None:
    """The effect a cycling keyword means, read from the keyword (not its reminder text):
    "Cycling" — draw a card (CR 702.29a); "[type]cycling" — search your library for a [type] card,
    reveal it, put it into your hand, then shuffle (CR 702.29e: "Plainscycling", "Wizardcycling" —
    a card of that subtype, CR 205.3; "Basic landcycling" — a basic land card; "Landcycling" — a
    land card); "Transmute" — a search for a card with the discarded card's mana value (CR 702.53a).
    "Artifact landcycling" — an artifact land card (both types). None (unread): any other word."""
    words = [w.lower() for w in keyword]
    if words == ["cycling"]:
        return ir.Draw(1)
    if words == ["transmute"]:
        return ir.Transmute()
    quality: Filter | None = None
    if words == ["basic", "landcycling"]:
        quality = Filter(types=frozenset({"Land"}), who="you", zone="library", supertypes=frozenset({"Basic"}))
    elif words == ["landcycling"]:
        quality = Filter(types=frozenset({"Land"}), who="you", zone="library")
    elif len(words) == 2 and words[1] == "landcycling" and words[0] in ("artifact", "enchantment", "creature"):
        # "Artifact landcycling {2}": an artifact land card, both card types (CR 702.29e, 205.2a)
        quality = Filter(types=frozenset({"Land"}), who="you", zone="library",
                         types_all=frozenset({"Land", words[0].capitalize()}))
    elif len(words) == 1 and words[0].endswith("cycling"):
        sub = keyword[0][:-len("cycling")]
        sub = sub[:1].upper() + sub[1:]   # "islandcycling" after a comma
        if not is_subtype(sub) or sub != singular(sub):
            return None
        quality = Filter(types=frozenset(), who="you", zone="library", subtypes=frozenset({sub}))
    else:
        return None
    return ir.SearchLibrary("hand", quality, tapped=False, shuffle=True)


def _rest_cost(cost_toks: Sequence[Token], rest: Sequence[Sequence[Token]]) -> Cost:
    """The cost read from the items of ``cost_toks`` left once a special item (discarding or exiling
    this card, returning a permanent) is taken out, joined again by the line's own comma (CR 602.1a)."""
    if not rest:
        return Cost()
    comma = next(t for t in cost_toks if t.kind == "PUNCT" and t.low == ",")
    joined: list[Token] = []
    for i, it in enumerate(rest):
        joined += ([comma] if i else []) + list(it)
    return _g().parse_cost(joined)


def _discard_self(item: Sequence[Token]) -> bool:
    return len(item) == 2 and item[0].low == "discard" and item[1].kind == "SELF"


def _is_card_self(t: Token) -> bool:
    return t.kind == "SELF" and t.text.lower().endswith(" card")


def line_discard_self(toks: Sequence[Token], ctx, raw: str) -> tuple[list, int]:
    """"[cost], Discard this card: [effect]" — an activated ability of the card in the hand (CR 113.6k)."""
    g = _g()
    k = g.find_top(toks, ":")
    if k <= 0:
        raise g.NoMatch("no colon")
    items = g.split_top(toks[:k], ",")
    mine = [it for it in items if _discard_self(it)]
    if len(mine) != 1 or not _is_card_self(mine[0][1]):
        raise g.NoMatch("no 'Discard this card' in the cost")
    rest = [it for it in items if not _discard_self(it)]
    cost = _rest_cost(toks[:k], rest)
    if cost.tap or cost.untap or cost.sacrifice_self or cost.remove_counters or cost.sacrifice is not None \
            or cost.tap_other_creatures or cost.put_counters or cost.discard_hand or cost.remove_x_counters \
            or cost.loyalty is not None:
        raise g.NoMatch("a cost part of a permanent")
    cost = replace(cost, discard_self=True)
    eff = toks[k + 1:]
    if any(_is_card_self(t) for t in eff):
        raise g.NoMatch("the effect names this card (it may work from another zone)")
    sents = g.sentences(eff)
    if not sents or any(t.low == "add" for t in sents[0][:3]):
        raise g.NoMatch("a mana ability (CR 605.1a)")
    s = g.Scope(last=SELF, source_is_permanent=False, x_defined=g.cost_has_x(cost))
    sorcery, reduction, body = False, None, []
    for st in sents:
        c = g.Cursor(st)
        if c.take("activate", "only", "as", "a", "sorcery") and c.done():
            sorcery = True
            continue
        red = _reduction(st)
        if red is not None:
            if reduction is not None:
                raise g.NoMatch("two reductions")
            reduction = red
            continue
        body.append(st)
    if not body:
        raise g.NoMatch("no effect")

    # the grammar tried the whole effect: with a reduction or timing sentence taken off, the rest is new to it
    n = structured_sentences(body, s, retry=len(body) > 1 or len(body) < len(sents))
    return [ActivatedAbility(cost, tuple(s.targets), tuple(s.effects), sorcery, raw, zone="hand",
                             reduction=reduction)], n


def _reduction(st: Sequence[Token]) -> tuple[int, Filter] | None:
    """"This ability costs {N} less to activate for each [supertype] <type> you control." (CR 601.2f)."""
    g = _g()
    c = g.Cursor(st)
    if not c.take("this", "ability", "costs"):
        return None
    t = c.next()
    if t.kind != "SYM" or not t.low.isdigit():
        raise g.NoMatch("a reduction by generic mana")
    c.need("less", "to", "activate", "for", "each")
    supers = set()
    while c.low() in _SUPERTYPES:
        supers.add(_SUPERTYPES[c.next().low])
    w = c.low()
    if w not in _TYPE_WORDS:
        raise g.NoMatch("a card type")
    c.i += 1
    c.need("you", "control")
    c.end()
    return int(t.low), Filter(types=frozenset({_TYPE_WORDS[w]}), who="you", supertypes=frozenset(supers))


def _restriction(st: Sequence[Token]) -> tuple[int | None, ActivationCondition | None]:
    """The last sentence of a non-mana ability: "Activate only once each turn." (CR 602.5b), "Activate
    only if an opponent controls N or more <permanents>.", "Activate only if you have exactly N cards
    in hand.", or what :func:`.grammar.activation_restriction` reads ("… only if you control …",
    "… only during your turn", joined by "and only")."""
    g = _g()
    c = g.Cursor(st)
    if c.take("activate", "only", "if", "an", "opponent", "controls"):
        n = g.number(c)
        c.need("or", "more")
        w = c.low()
        if w not in _TYPE_WORDS:
            raise g.NoMatch("a card type")
        c.i += 1
        c.end()
        return None, OpponentControls(Selector(who="opponent", types=frozenset({_TYPE_WORDS[w]})),
                                         n=int(n))
    c = g.Cursor(st)
    if c.take("activate", "only", "if", "you", "have", "exactly"):
        n = g.number(c)
        c.need("cards", "in", "hand")
        c.end()
        return None, HandExactly(n=int(n))
    r = g.activation_restriction(st)
    if r is None:
        raise g.NoMatch("no restriction")
    limit, conds = r
    if any(isinstance(k, InstantTime) for k in conds):
        raise g.NoMatch("'as an instant' is not read for non-mana abilities")
    cond = None if not conds else conds[0] if len(conds) == 1 else AllConditions(parts=tuple(conds))
    return limit, cond


def line_limited(toks: Sequence[Token], ctx, raw: str) -> tuple[list, int]:
    """"[cost]: [effect]. Activate only once each turn." / "… Activate only if …" on a permanent's
    non-mana ability (CR 602.5b): the ability read without its last sentence
    (:func:`.structure.line_activated_structure`, or the grammar's activated template), with its
    ``limit`` and ``condition``."""
    g = _g()
    if ctx.is_spell:
        raise g.NoMatch("spell text")
    sents = g.sentences(toks)
    if len(sents) < 2 or [t.low for t in sents[-1][:2]] != ["activate", "only"]:
        raise g.NoMatch("no restriction")
    limit, cond = _restriction(sents[-1])
    k = g.find_top(toks, ":")
    if k <= 0:
        raise g.NoMatch("no colon")
    start = len(toks) - (1 if toks[-1].low == "." else 0) - len(sents[-1])
    head = list(toks[:start])   # the ability without its last sentence (ending with its period)
    res = g.read_line(head, ctx, raw)
    if res.template is None or len(res.abilities) != 1 or not isinstance(res.abilities[0], ActivatedAbility):
        raise g.NoMatch("the ability is not read")
    a = res.abilities[0]
    if a.zone != "battlefield" or a.limit is not None or a.condition is not None or a.cost.loyalty is not None:
        raise g.NoMatch("not a permanent's ability")
    if isinstance(cond, SorceryTime) and limit is None:
        return [replace(a, sorcery=True, text=raw)], res.unread
    if isinstance(cond, SorceryTime):
        cond, a = None, replace(a, sorcery=True)
    return [replace(a, limit=limit, condition=cond, text=raw)], res.unread


def line_additional_lands(toks: Sequence[Token], ctx, raw: str) -> tuple[list, int]:
    """"You may play an additional land on each of your turns." / "… two additional lands …" (CR 305.2)."""
    g = _g()
    if ctx.is_spell:
        raise g.NoMatch("spell text")
    c = g.Cursor(toks)
    c.need("you", "may", "play")
    if c.take("an"):
        n = 1
        c.need("additional", "land")
    else:
        w = c.low()
        if w not in NUMBER_WORDS:
            raise g.NoMatch("a number")
        c.i += 1
        n = NUMBER_WORDS[w]
        c.need("additional", "lands")
    c.need("on", "each", "of", "your", "turns")
    c.take(".")
    c.end()
    return [ir.AdditionalLands(amount=n, text=raw)], 0


def line_lands_from_graveyard(toks: Sequence[Token], ctx, raw: str) -> tuple[list, int]:
    """"You may play lands from your graveyard." (CR 305.1, 611.3): a permanent's static permission."""
    g = _g()
    if ctx.is_spell:
        raise g.NoMatch("spell text")
    c = g.Cursor(toks)
    c.need("you", "may", "play", "lands", "from", "your", "graveyard")
    c.take(".")
    c.end()
    return [ir.PlayLandsFromGraveyard(text=raw)], 0


def line_loyalty_as_instant(toks: Sequence[Token], ctx, raw: str) -> tuple[list, int]:
    """"As long as SELF entered this turn, you may activate her|his|its loyalty abilities any time you
    could cast an instant." (CR 606.3: loyalty abilities are otherwise activated only as a sorcery)."""
    g = _g()
    c = g.Cursor(toks)
    c.need("as", "long", "as", "SELF", "entered", "this", "turn", ",", "you", "may", "activate")
    if not (c.take(("her", "his", "its")) or c.take("SELF", "'s")):
        raise g.NoMatch("whose loyalty abilities")
    c.need("loyalty", "abilities", "any", "time", "you", "could", "cast", "an", "instant")
    c.take(".")
    c.end()
    return [ir.LoyaltyAsInstantIfEntered(text=raw)], 0


def _return_item(item: Sequence[Token]) -> Selector | None:
    """"Return a|an <permanent> you control to its owner's hand" as a cost item, else None."""
    g = _g()
    c = g.Cursor(item)
    if not c.take("return") or not c.take(("a", "an")):
        return None
    try:
        d = g.desc(c)
        if d.who != "you":
            c.need("you", "control")
            d.who = "you"
        c.need("to", "its", "owner's", "hand")
        c.end()
        sel = g.to_selector(d)
    except g.NoMatch:
        return None
    return sel if not sel.self_only and not sel.attached else None


def _permanent_ability(cost, toks: Sequence[Token], k: int, raw: str) -> tuple[list, int]:
    """The rest of a permanent's non-mana activated ability whose cost (before the colon at ``k``) was
    read: its effect sentences, an "Activate only …" restriction (CR 602.5b; "as a sorcery" →
    ``sorcery``) and its targets. Returns (abilities, sentences read)."""
    g = _g()
    sents = g.sentences(toks[k + 1:])
    if not sents or any(t.low == "add" for t in sents[0][:3]) or any(_is_card_self(t) for t in toks[k + 1:]):
        raise g.NoMatch("a mana ability or one working from another zone")
    limit, cond = None, None
    if len(sents) > 1 and [t.low for t in sents[-1][:2]] == ["activate", "only"]:
        limit, cond = _restriction(sents[-1])
        sents = sents[:-1]
    sorcery = isinstance(cond, SorceryTime)
    if sorcery:
        cond = None
    s = g.Scope(last=SELF, source_is_permanent=True, x_defined=g.cost_has_x(cost))

    n = structured_sentences(sents, s, retry=len(sents) > 1) if len(sents) > 1 else _one_sentence(sents[0], s)
    return [ActivatedAbility(cost, tuple(s.targets), tuple(s.effects), sorcery, raw, limit=limit,
                             condition=cond)], n


def line_return_cost(toks: Sequence[Token], ctx, raw: str) -> tuple[list, int]:
    """"Return a <permanent> you control to its owner's hand[, cost]: [effect]. [Activate only …]" —
    a non-mana activated ability of a permanent whose cost returns another permanent (CR 602.1a); the
    permanent returned is a choice of the payment (``return``, as for casting costs)."""
    g = _g()
    if ctx.is_spell:
        raise g.NoMatch("spell text")
    k = g.find_top(toks, ":")
    if k <= 0:
        raise g.NoMatch("no colon")
    items = g.split_top(toks[:k], ",")
    sels = [sel for it in items if (sel := _return_item(it)) is not None]
    if len(sels) != 1:
        raise g.NoMatch("no return cost")
    rest = [it for it in items if _return_item(it) is None]
    cost = _rest_cost(toks[:k], rest)
    g.only_mana_ability_cost(cost)
    if cost.remove_x_counters is not None or cost.loyalty is not None:
        raise g.NoMatch("a cost part of another ability")
    cost = replace(cost, return_=sels[0])
    return _permanent_ability(cost, toks, k, raw)


def _one_sentence(st: Sequence[Token], s) -> int:
    """One effect sentence: read by the effect grammar, else its structure (unread effect)."""
    g = _g()
    try:
        g.effect_sentence(st, s)
        return 0
    except g.NoMatch:
        s.targets.clear()
        s.effects.clear()
        s.last = SELF

    return structured_sentences([st], s, retry=False)


def _exile_self(item: Sequence[Token]) -> bool:
    """"Exile this artifact" (a permanent: not "this card", which works from another zone)."""
    return len(item) == 2 and item[0].low == "exile" and item[1].kind == "SELF" and not _is_card_self(item[1])


def line_exile_self(toks: Sequence[Token], ctx, raw: str) -> tuple[list, int]:
    """"[cost], Exile this artifact: [effect]" — a permanent's non-mana ability that exiles it as a cost
    (Relic of Progenitus; CR 602.2b, 601.2h)."""
    g = _g()
    if ctx.is_spell:
        raise g.NoMatch("spell text")
    k = g.find_top(toks, ":")
    if k <= 0:
        raise g.NoMatch("no colon")
    items = g.split_top(toks[:k], ",")
    if sum(1 for it in items if _exile_self(it)) != 1:
        raise g.NoMatch("no 'Exile this permanent' cost")
    rest = [it for it in items if not _exile_self(it)]
    cost = _rest_cost(toks[:k], rest)
    g.only_mana_ability_cost(cost)
    if cost.sacrifice_self or cost.remove_x_counters is not None or cost.loyalty is not None:
        raise g.NoMatch("another cost moving the permanent")
    cost = replace(cost, exile_self=True)
    return _permanent_ability(cost, toks, k, raw)


def line_graveyards_untargetable(toks: Sequence[Token], ctx, raw: str) -> tuple[list, int]:
    """"Cards in graveyards can't be the targets of spells or abilities." (a restriction on every
    player's choice of targets, CR 115.1): ``GraveyardCardsUntargetable``."""
    g = _g()
    if ctx.is_spell:
        raise g.NoMatch("spell text")
    c = g.Cursor(toks)
    c.need("cards", "in", "graveyards", "can't", "be", "the", "targets", "of", "spells", "or", "abilities")
    c.take(".")
    c.end()
    return [ir.GraveyardCardsUntargetable(text=raw)], 0
