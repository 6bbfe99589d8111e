"""Costs of activated abilities and additional costs (CR 118, 602.1a)."""
from __future__ import annotations

from dataclasses import replace
from typing import Sequence

from ..core.ir import Cost, Selector
from ..core.mana import ManaCost
from .tokens import Token
from .cursor import Cursor, NoMatch, split_top
from .phrases import _counter_word, mana_cost, mana_run, number
from .descriptions import Desc, desc, to_selector


def cost_item(c: Cursor, acc: dict) -> None:
    t = c.peek()
    if t is None:
        raise NoMatch("empty cost")
    if t.kind == "SYM" and t.low == "T":
        c.i += 1
        acc["tap"] = True
    elif t.kind == "SYM" and t.low == "Q":
        c.i += 1
        acc["untap"] = True
    elif t.kind == "SYM":
        acc["mana"].extend(mana_run(c))
    elif c.take("pay"):
        if c.kind() == "SYM":
            acc["mana"].extend(mana_run(c))
        else:
            n = number(c)
            c.need("life")
            acc["life"] += n
    elif c.take("sacrifice", "SELF"):
        acc["sacrifice_self"] = True
    elif c.take("return", "SELF", "to", "its", "owner's", "hand"):
        acc["return_self"] = True  # CR 602.2b, 601.2h: the permanent returned as the cost
    elif c.take("sacrifice", ("a", "an", "another")):
        other = c.toks[c.i - 1].low == "another"
        d = desc(c)
        if d.plural:
            raise NoMatch("one permanent")
        d.other = d.other or other
        if d.who == "any":
            d.who = "you"  # CR 701.21a: you can sacrifice only permanents you control
        if acc["sacrifice"] is not None or acc["sacrifice_any"]:
            raise NoMatch("two sacrifices")
        if d.types_joined_by_or and len(d.types) > 1:
            acc["sacrifice_any"] = _alternatives(d)  # "another creature or artifact": either kind
        else:
            acc["sacrifice"] = to_selector(d)
    elif c.at("remove", "any", "number", "of") or c.at("remove", "x") or c.at("remove", "one", "or", "more"):
        # "Remove any number of / X / one or more <kind> counters from this permanent" (CR 107.3a)
        c.i += 1
        least = 1 if c.take("one", "or", "more") else 0
        c.take("any", "number", "of") or c.take("x")
        kind = _counter_word(c)
        c.need("counters", "from", "SELF")
        if acc["remove_counters"] is not None or acc.get("remove_x_counters") is not None:
            raise NoMatch("two counter removals")
        acc["remove_x_counters"] = (kind, least)
    elif c.take("remove"):
        n = number(c, allow_a=True)
        t2 = c.next()
        if t2.kind not in ("WORD", "PT") or t2.low in ("counter", "counters"):
            raise NoMatch("counter kind expected")
        kind = t2.text.lower() if t2.kind == "WORD" else t2.text
        c.need(("counter", "counters"))
        c.need("from", "SELF")
        if acc["remove_counters"] is not None or acc.get("remove_x_counters") is not None:
            raise NoMatch("two counter removals")
        acc["remove_counters"] = (kind, n)
    elif c.take("tap"):
        # "Tap an untapped creature you control", "Tap three untapped Elves you control" (CR 118.1)
        n = number(c, allow_a=True)
        c.need("untapped")
        d = desc(c)
        if d.who != "you" or (n > 1) != d.plural or acc["tap_other_creatures"] or not isinstance(n, int):
            raise NoMatch("'N untapped <permanents> you control', once")
        if not (d.types == ["Creature"] and not d.subtypes and not d.other and not d.nontypes):
            acc["tap_selector"] = to_selector(d)
        acc["tap_other_creatures"] += n
    elif c.take("put"):
        # "Put a -0/-1 counter on this creature" (a cost, CR 118.1; Wall of Roots)
        n = number(c, allow_a=True)
        t2 = c.next()
        if not isinstance(n, int) or t2.kind not in ("WORD", "PT") or t2.low in ("counter", "counters", "x"):
            raise NoMatch("counter kind expected")
        kind = t2.text.lower() if t2.kind == "WORD" else t2.text
        c.need(("counter", "counters"), "on", "SELF")
        if acc["put_counters"] is not None:
            raise NoMatch("two counter puts")
        acc["put_counters"] = (kind, n)
    elif c.at("sacrifice") and c.kind(1) in ("NUM", "WORD") and c.low(1) not in ("a", "an", "another", "SELF"):
        c.i += 1   # "Sacrifice two Foods", "Sacrifice three other creatures" (CR 701.21a)
        n = number(c)
        d = desc(c)
        if not isinstance(n, int) or n < 2 or not d.plural or acc["sacrifice"] is not None or acc["sacrifice_any"]:
            raise NoMatch("N permanents, one sacrifice")
        if d.who == "any":
            d.who = "you"
        acc["sacrifice_any"] = _alternatives(d) if d.types_joined_by_or and len(d.types) > 1 else (to_selector(d),)
        acc["sacrifice_count"] = n
    elif c.take("discard", "your", "hand"):
        acc["discard_hand"] = True  # CR 701.9: every card in the hand (none is fine)
    elif c.take("discard"):
        acc["discard"], acc["discard_type"] = _cards(c, acc["discard"])  # "Discard two cards" (CR 701.9a)
    elif c.take("exile"):
        n, kind = _cards(c, acc["exile_graveyard"])
        c.need("from", "your", "graveyard")  # CR 406.2: "Exile a creature card from your graveyard"
        acc["exile_graveyard"], acc["exile_graveyard_type"] = n, kind
    else:
        raise NoMatch("unknown cost")
    c.end()


#: Card types a cost's "a <type> card" names (CR 205.2a; one type: the payment's card filter holds one).
_CARD_TYPE_WORDS = {"artifact": "Artifact", "creature": "Creature", "enchantment": "Enchantment", "land": "Land",
                    "instant": "Instant", "sorcery": "Sorcery", "planeswalker": "Planeswalker", "battle": "Battle"}


def _cards(c: Cursor, before: int) -> tuple[int, str]:
    """"a card", "two cards", "a land card" — N cards, with at most one card type (CR 205.2a), of a
    cost that discards or exiles them; not "at random", "named …" or anything after (NoMatch)."""
    if before:
        raise NoMatch("two such costs")
    n = number(c, allow_a=True)
    if not isinstance(n, int) or n < 1:
        raise NoMatch("a fixed number of cards")
    kind = ""
    if c.low() in _CARD_TYPE_WORDS:
        kind = _CARD_TYPE_WORDS[c.next().low]
    c.need(("card", "cards"))
    if (c.toks[c.i - 1].low == "cards") != (n > 1):
        raise NoMatch("number and noun disagree")
    return n, kind


def _alternatives(d: Desc) -> tuple[Selector, ...]:
    """"another creature or artifact": one selector per type, the description's other words shared."""
    return tuple(to_selector(replace(d, types=[t], types_joined_by_or=False)) for t in d.types)


def parse_cost(toks: Sequence[Token]) -> Cost:
    """An activation cost: items separated by commas (CR 602.1a)."""
    acc: dict = {"mana": [], "tap": False, "untap": False, "life": 0, "sacrifice_self": False,
                 "sacrifice": None, "remove_counters": None, "tap_other_creatures": 0, "tap_selector": None,
                 "put_counters": None, "discard_hand": False, "discard": 0, "discard_type": "",
                 "exile_graveyard": 0, "exile_graveyard_type": "", "sacrifice_any": (), "return_self": False,
                 "sacrifice_count": 0}
    items = split_top(toks, ",")
    if not toks or any(not it for it in items):
        raise NoMatch("empty cost item")
    for it in items:
        cost_item(Cursor(it), acc)
    mana = acc.pop("mana")
    if acc["sacrifice_count"] and (mana or acc["tap_other_creatures"] or acc["sacrifice"] is not None):
        raise NoMatch("sacrificing several permanents with a mana payment or other tapping is not modeled")
    return Cost(mana=mana_cost(mana) if mana else ManaCost(), **acc)


def cost_has_x(cost: Cost) -> bool:
    return cost.mana.x_count > 0


def only_mana_ability_cost(cost: Cost) -> None:
    """Cost parts modelled only for mana abilities (the payment and available-mana
    models): putting counters, discarding the hand. A non-mana ability with one
    stays unread (NoMatch). ("Tap an untapped Wizard you control" is paid for both:
    :attr:`solver.rules.costs.TotalCost.tap_selector`.)"""
    if cost.put_counters is not None or cost.discard_hand:
        raise NoMatch("a cost part modelled only for mana abilities")


def only_activated_ability_cost(cost: Cost) -> None:
    """Cost parts paid only for abilities that are not mana abilities (chosen outside the mana
    models: :mod:`solver.payment.casting`): discarding or exiling cards, a sacrifice of one of
    several kinds. A mana ability with one stays unread (NoMatch)."""
    if cost.discard or cost.exile_graveyard or cost.sacrifice_any or cost.return_self:
        raise NoMatch("a cost part modelled only for abilities that are not mana abilities")
