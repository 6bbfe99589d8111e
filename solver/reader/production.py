"""Mana production: "Add {G}", "Add one mana of any color", variable amounts
(CR 106, 605)."""
from __future__ import annotations

from typing import Callable, Sequence

from ..core.ir import (DEVOTION_TO_CHOSEN, AmongColors, AnyColor, AnyType, ChosenColor, Combination, CommanderIdentity, Count,
                       CountedMana, CouldProduce, DifferentColors, Filter, FixedMana, ManaChoice, Produce,
                       SacrificedCouldProduce, ThatLandProduced)
from ..core.mana import Mana
from .vocabulary import COLOR_WORDS, SIMPLE_KEYWORDS, TYPE_PLURALS, TYPE_WORDS
from .cursor import Cursor, NoMatch
from .phrases import _counter_word, mana_amount, number
from .descriptions import desc, SELF_SELECTOR, to_selector
from .scope import amount


def _combinations(n: int, letters: Sequence[str]) -> tuple[Mana, ...]:
    """Every amount of ``n`` mana made of ``letters`` ("in any combination of {R} and/or {G}")."""
    out: list[Mana] = []

    def rec(i: int, left: int, acc: list[str]) -> None:
        if i == len(letters) - 1:
            out.append(Mana.of(acc + [letters[i]] * left))
            return
        for k in range(left, -1, -1):
            rec(i + 1, left - k, acc + [letters[i]] * k)
    rec(0, n, [])
    return tuple(out)


def _self_power(c: Cursor) -> bool:
    """"this creature's power" / "<name>'s power"."""
    return c.take("SELF", "'s", "power") or c.take("this", "creature's", "power")


def amount_phrase(c: Cursor, x_cost: bool = False) -> Count:
    """What a variable amount of mana equals (CR 107.3): "this creature's power",
    "the greatest power among creatures you control", "the number of charge
    counters on this artifact", "the number of Allies you control", "X plus
    one" (``x_cost``: X is the number of counters the cost removes)."""
    if _self_power(c):
        return Count(SELF_SELECTOR, "power")
    if c.take("SELF", "'s", "toughness") or c.take("this", "creature's", "toughness"):
        return Count(SELF_SELECTOR, "greatest_toughness")
    if c.take("your", "life", "total"):
        return Count(SELF_SELECTOR, "life")  # CR 119
    if c.take("your", "devotion", "to"):
        return Count(SELF_SELECTOR, "devotion", color=COLOR_WORDS[_one_color_word(c)])  # CR 700.5
    if c.take("the", "greatest", "toughness", "among"):
        d = desc(c)
        if not d.plural or d.types != ["Creature"]:
            raise NoMatch("greatest toughness among creatures")
        return Count(to_selector(d), "greatest_toughness")
    if x_cost and c.take("x"):
        if c.take("plus", "one"):
            return Count(SELF_SELECTOR, "x", plus=1)
        return Count(SELF_SELECTOR, "x")
    if c.take("the", "greatest", "power", "among"):
        d = desc(c)
        if not d.plural or d.types != ["Creature"]:
            raise NoMatch("greatest power among creatures")
        return Count(to_selector(d), "greatest_power")
    c.need("the", "number", "of")
    save = c.i
    try:
        kind = _counter_word(c)
        c.need("counters", "on", "SELF")
        return Count(SELF_SELECTOR, "counters", counter=kind)
    except NoMatch:
        c.i = save
    if (cards := c.attempt(_graveyard_cards, True)) is not None:
        return cards
    d = desc(c)
    if not d.plural:
        raise NoMatch("'the number of' takes a plural noun")
    if c.take("with"):  # "creatures you control with defender"
        kw = c.next().low
        if kw not in SIMPLE_KEYWORDS:
            raise NoMatch("with <keyword>")
        return Count(to_selector(d), keyword=kw)
    return Count(to_selector(d))


def _one_color_word(c: Cursor) -> str:
    w = c.next().low
    if w not in COLOR_WORDS:
        raise NoMatch("a color")
    return w


def _graveyard_cards(c: Cursor, plural: bool) -> Count:
    """"[black] creature cards in your graveyard" / "permanent card in your graveyard"
    (after "the number of" / "for each"): a count of cards in the controller's graveyard."""
    colors = set()
    while c.low() in COLOR_WORDS:
        colors.add(COLOR_WORDS[c.next().low])
    types: set[str] = set()
    t = c.next().low
    if t in TYPE_WORDS and TYPE_WORDS[t] != "Permanent":
        types.add(TYPE_WORDS[t])
    elif t == "permanent":
        types |= {"Artifact", "Battle", "Creature", "Enchantment", "Land", "Planeswalker"}  # CR 110.4b
    else:
        raise NoMatch("a card type")
    c.need("cards" if plural else "card", "in", "your", "graveyard")
    return Count(SELF_SELECTOR, "cards",
                 card_filter=Filter(types=frozenset(types), colors=frozenset(colors), zone="graveyard"))


def _for_each_counter(c: Cursor, x_cost: bool) -> Count:
    """"<kind> counter on this …" / "<kind> counter removed this way" (after "for each")."""
    kind = _counter_word(c)
    c.need("counter")
    if c.take("on", "SELF"):
        return Count(SELF_SELECTOR, "counters", counter=kind)
    if x_cost and c.take("removed", "this", "way"):
        return Count(SELF_SELECTOR, "x")
    raise NoMatch("counters on this permanent")


def _variable_produce(c: Cursor, x_cost: bool) -> Produce:
    """Variable amounts of mana (CR 107.3): "an amount of {G} equal to …", "that
    much {C}", "X mana of any one color, where X is …", "X mana in any
    combination of {U} and/or {R}[, where X is …]", "X {G} or X {W}, where X is …"."""
    if c.take("an", "amount", "of", "mana", "of", "that", "color", "equal", "to", "your", "devotion", "to", "that",
              "color"):
        # after "Choose a color.": that many of the chosen color, its devotion (CR 700.5, 106.1b)
        return AnyColor(count=Count(SELF_SELECTOR, "devotion", color=DEVOTION_TO_CHOSEN))
    if c.take("an", "amount", "of"):
        m = mana_amount(c)
        c.need("equal", "to")
        return CountedMana((m,), count=amount_phrase(c, x_cost))
    if x_cost and c.take("that", "much"):
        return CountedMana((mana_amount(c),), count=Count(SELF_SELECTOR, "x"))
    c.need("x")
    if c.kind() == "SYM":  # "X {G} or X {W}"
        opts = [mana_amount(c)]
        while c.take("or", "x") or c.take(",", "or", "x"):
            opts.append(mana_amount(c))
        if len(opts) < 2 or len(set(opts)) != len(opts):
            raise NoMatch("X {A} or X {B}")
        make: Callable[[Count], Produce] = lambda n: ManaChoice(tuple(opts), count=n)
    else:
        c.need("mana")
        if c.take("of", "any", "one", "color"):
            make = lambda n: AnyColor(count=n)  # noqa: E731
        elif c.take("in", "any", "combination", "of", "colors"):
            make = lambda n: Combination(count=n)  # noqa: E731
        else:
            c.need("in", "any", "combination", "of")
            units = _combination_units(c)
            make = lambda n: Combination(units, count=n)  # noqa: E731
    if c.take(",", "where", "x", "is"):
        count = amount_phrase(c, x_cost)
    elif x_cost:
        count = Count(SELF_SELECTOR, "x")
    else:
        raise NoMatch("X not defined")
    return make(count)


def _combination_units(c: Cursor) -> tuple[Mana, ...]:
    """The types after "in any combination of": "{R} and/or {G}", "{U}, {B}, and/or {R}"
    (distinct single symbols)."""
    parts = [mana_amount(c)]
    while c.take(","):
        if c.at("and", "/", "or"):
            break
        parts.append(mana_amount(c))
    c.need("and", "/", "or")
    parts.append(mana_amount(c))
    letters = [t for p in parts for t in p.types()]
    if any(p.total != 1 for p in parts) or len(set(letters)) != len(letters):
        raise NoMatch("combination of single symbols")
    return tuple(parts)


def _or_chosen_color(c: Cursor) -> int:
    """", or one mana of the chosen color" / "or N mana of the chosen color" after a
    list of symbols (Thriving lands): the amount of mana of the chosen color."""
    c.take(",")
    c.need("or")
    n = number(c)
    if not isinstance(n, int) or n < 1:
        raise NoMatch("amount expected")
    c.need("mana", "of", "the", "chosen", "color")
    return n


def produce(c: Cursor, triggered: bool = False, x_cost: bool = False) -> Produce:
    """What follows "Add": the mana a mana ability produces. ``x_cost``: the
    cost removes X counters ("Remove X storage counters from this land")."""
    if not triggered:
        save = c.i
        try:
            return _variable_produce(c, x_cost)
        except NoMatch:
            c.i = save
    c.take("an", "additional")
    t = c.peek()
    if t is not None and t.kind == "SYM":
        return _symbols_produce(c, triggered, x_cost)
    return _amount_produce(c, triggered)


def _symbols_produce(c: Cursor, triggered: bool, x_cost: bool) -> Produce:
    """"Add {G}", "Add {R} or {G}", "Add {W}, {U}, or {B}", "Add {B} for each …", "Add {G}, or one mana
    of the chosen color" (CR 106.1, 605.1a)."""
    first = mana_amount(c)
    if not triggered and (c.at(",", "then", "add", "an", "additional") or c.at(",", "plus", "an", "additional")):
        # "{B}, then add an additional {B} for each charge counter removed this way" (Mana Batteries),
        # "{C}, plus an additional {C} for each art counter on this land"
        c.i += 1
        c.take("then", "add") or c.take("plus")
        c.need("an", "additional")
        if mana_amount(c) != first:
            raise NoMatch("an additional amount of another kind")
        c.need("for", "each")
        count = _for_each_counter(c, x_cost)
        return CountedMana((first,), count=Count(count.selector, count.what, count.counter, plus=1))
    if c.take("for", "each"):
        return _for_each_produce(c, first, triggered, x_cost)
    opts = [first]
    while c.at(",") and c.kind(1) == "SYM":
        c.i += 1
        opts.append(mana_amount(c))
    if (c.at(",", "or") or c.at("or")) and (chosen := c.attempt(_or_chosen_color)) is not None:
        return ChosenColor(tuple(opts), amount=chosen)
    if c.take(",", "or") or (len(opts) == 1 and c.take("or")):
        opts.append(mana_amount(c))
    elif len(opts) > 1:
        raise NoMatch("list without 'or'")
    if len(opts) == 1:
        return FixedMana((first,))
    if len(set(opts)) != len(opts):
        raise NoMatch("repeated option")
    return ManaChoice(tuple(opts))


def _for_each_produce(c: Cursor, first: Mana, triggered: bool, x_cost: bool) -> Produce:
    """After "Add <mana> for each": counters, cards in a graveyard, or permanents (CR 106.1, 107.3a)."""
    if not triggered:
        save = c.i
        try:
            count = _for_each_counter(c, x_cost)
            c.end()
            return CountedMana((first,), count=count)
        except NoMatch:
            c.i = save
        if (cards := c.attempt(_graveyard_cards, False)) is not None:
            return CountedMana((first,), count=cards)
    d = desc(c)
    if d.plural:
        raise NoMatch("'for each' takes a singular noun")
    if not triggered and c.take("with", "power"):  # "creature with power 4 or greater you control"
        n = number(c)
        c.need("or", "greater")
        if d.who == "any" and c.take("you", "control"):
            d.who = "you"
        return CountedMana((first,), count=Count(to_selector(d), min_power=n))
    if not triggered and c.take("with"):  # "for each creature you control with defender"
        kw = c.next().low
        if kw not in SIMPLE_KEYWORDS:
            raise NoMatch("with <keyword>")
        return CountedMana((first,), count=Count(to_selector(d), keyword=kw))
    if not triggered and c.take("named", "SELF"):  # "for each artifact you control named ~"
        return CountedMana((first,), count=Count(to_selector(d), same_name=True))
    return CountedMana((first,), count=Count(to_selector(d)))


def _amount_produce(c: Cursor, triggered: bool) -> Produce:
    """"Add N mana of …", "Add one mana of any color", "… of any type that a land you control could
    produce", "… that land produced" (CR 106.1, 106.7, 605.1a)."""
    n = number(c)
    if not isinstance(n, int) or n < 1:
        raise NoMatch("amount expected")
    t = c.peek()
    if n >= 2 and t is not None and t.kind == "SYM":  # "Add six {G}" (Castle Garenbrig)
        m = mana_amount(c)
        return FixedMana((m.scale(n),))
    c.need("mana")
    if n >= 2 and c.take("of", "different", "colors"):
        return DifferentColors(amount=n)
    if c.take("of", "the", "chosen", "color"):
        return ChosenColor(amount=n)
    if c.take("in", "any", "combination", "of", "colors"):
        return Combination(amount=n)
    if c.take("in", "any", "combination", "of"):
        # every multiset of n of those types
        letters = [t for p in _combination_units(c) for t in p.types()]
        return ManaChoice(_combinations(n, letters))
    c.need("of", "any")
    if n > 1:
        c.need("one", "color")
        return AnyColor(amount=n)
    one = c.take("one")
    kind = c.next().low
    if kind not in ("color", "type"):
        raise NoMatch("color or type")
    of_type = kind == "type"
    if c.done():
        return AnyType() if of_type else AnyColor()
    if one:
        raise NoMatch("'any one color' then more words")
    if not of_type and c.take("in", "your", "commander's", "color", "identity"):
        c.end()  # Arcane Signet, Command Tower (CR 903.4, 903.4f)
        return CommanderIdentity()
    if not of_type and c.take("among", "legendary", "creature", "cards", "in", "your", "graveyard"):
        c.end()  # The Grey Havens
        return AmongColors(among=(Filter(types=frozenset({"Creature"}), supertypes=frozenset({"Legendary"}),
                                                     who="you", zone="graveyard"),))
    if not of_type and c.take("among"):
        among = _among_you_control(c)
        c.end()
        return AmongColors(among=among)
    if c.take("that", ("land", "permanent"), "produced"):
        if not triggered or not of_type:
            raise NoMatch("'that land produced' belongs to a triggered mana ability")
        return ThatLandProduced()
    if c.take("the", "sacrificed") or c.take("that", "the", "sacrificed"):
        d = desc(c)
        c.need("could", "produce")
        if d.types != ["Land"] or d.subtypes or d.who != "any":
            raise NoMatch("sacrificed land")
        return SacrificedCouldProduce(of_type=of_type)
    c.need("that")
    c.need(("a", "an"))
    d = desc(c)
    c.need("could", "produce")
    return CouldProduce(selector=to_selector(d), of_type=of_type)


def _among_you_control(c: Cursor) -> tuple[Filter, ...]:
    """"[legendary] creatures and planeswalkers you control" / "legendary
    permanents you control" (after "any color among"): one filter per noun."""
    legendary = c.take("legendary")
    types: list[frozenset[str]] = []
    while True:
        w = c.next().low
        if w == "permanents":
            types.append(frozenset())
        elif w in TYPE_PLURALS and TYPE_PLURALS[w] not in ("Instant", "Sorcery", "Permanent"):
            types.append(frozenset({TYPE_PLURALS[w]}))
        else:
            raise NoMatch("plural permanent type")
        if not (c.take("and") or c.take("or") or c.take(",", "and") or c.take(",")):
            break
    c.need("you", "control")
    sup = frozenset({"Legendary"}) if legendary else frozenset()
    return tuple(Filter(types=t, supertypes=sup, who="you") for t in types)


def add_clause(c: Cursor, triggered: bool = False, x_cost: bool = False) -> Produce:
    """["that player" | "its controller" | "you"] "add(s)" <mana>."""
    if not triggered and c.take("for", "each", "color", "among"):
        among = _among_you_control(c)      # one mana of each of those colors (CR 105.2, 106.1b)
        c.need(",", "add", "one", "mana", "of", "that", "color")
        c.end()
        return AmongColors(among=among, each=True)
    if triggered:
        c.take("that", "player") or c.take("its", "controller") or c.take("you")
    c.need(("add", "adds"))
    p = produce(c, triggered, x_cost)
    c.end()
    return p
