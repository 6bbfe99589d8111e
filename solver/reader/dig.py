"""Looking at the top N cards of a library and choosing among them (CR 401.5, 608.2c): the passage
"Look at the top N cards of your library[, where X is your devotion to <color>]." followed by the
instructions that say what happens to the cards seen — read into one :class:`~solver.core.ir.Dig`.

The second sentence takes some of the cards:

* "Put <K | up to K | any number> of them|those cards into your hand | onto the battlefield
  [tapped] | on top of your library | into your graveyard [and the rest|other <rest>]";
* "You may reveal <a … card | up to K … cards> from among them and put it|that card|them into your
  hand" / "You may put <a … card> from among them into your hand | onto the battlefield [tapped]";
* "Put any number of <… cards> [with total mana value N or less] from among them onto the
  battlefield".

The rest, in the same sentence or the next: "[then] put the rest [of the cards] on the bottom of
your library [in any order | in a random order]" / "into your graveyard". Thassa's-Oracle-like
passages end with "If X is greater than or equal to the number of cards in your library, you win
the game." (:class:`~solver.core.ir.WinIfLibraryAtMost`, CR 104.2b).

Anything else is no match (the line stays unread)."""
from __future__ import annotations

from dataclasses import replace
from typing import Sequence

from ..core.ir import (CONTROLLER, Count, Dig, Effect, ExiledToHand, ExileLibrary, Filter, LoseHalfLife, PileOnTop, Ref,
                      ShuffleHandIntoLibrary, T, TargetSpec, WinIfLibraryAtMost)
from .cursor import Cursor, NoMatch
from .descriptions import SELF_SELECTOR
from .effects_library import library_card
from .phrases import number
from .scope import Scope
from .tokens import Token
from .vocabulary import COLOR_WORDS, TYPE_WORDS

__all__ = ["dig_passage", "clause_exiled_to_hand", "clause_lose_half_life", "clause_exile_library",
           "clause_shuffle_hand_into_library"]

#: "that card" / "it": the card looked at.
_THAT_CARD = (("that", "card"), ("it",))

#: Where taken cards go: the words after "put … " and the zone (CR 401.4: "on top of").
_TO = ((("into", "your", "hand"), "hand"), (("onto", "the", "battlefield"), "battlefield"),
       (("on", "top", "of", "your", "library"), "top"), (("into", "your", "graveyard"), "graveyard"))
#: The permanent card types (CR 110.4), for "permanent cards".
_PERMANENT_TYPES = frozenset({"Artifact", "Battle", "Creature", "Enchantment", "Land", "Planeswalker"})


def dig_passage(sents: Sequence[Sequence[Token]], i: int, s: Scope) -> int:
    """The look-at-the-top-N passage starting at sentence ``i``: the number of sentences read (2
    or 3, and one more for a "you win the game" sentence), its effects appended to ``s``; 0 (and
    nothing appended) when the sentences are not this passage. Also the top-card passage
    (:func:`_top_card_passage`) and the opponent-chooses passage (:func:`_opponent_chooses`)."""
    if i + 1 >= len(sents):
        return 0
    used = _top_card_passage(sents, i, s) or _opponent_chooses(sents, i, s) or _pile_on_top(sents, i, s)
    if used:
        return used
    try:
        amount = _look(Cursor(sents[i]), s)
        dig, rest_read = _take(Cursor(sents[i + 1]))
        used = 2
        if not rest_read:
            if i + 2 >= len(sents):
                return 0
            dig = replace(dig, rest=_rest_sentence(Cursor(sents[i + 2])))
            used = 3
    except NoMatch:
        return 0
    effects: list[Effect] = [replace(dig, amount=amount)]
    if i + used < len(sents) and _wins(Cursor(sents[i + used])):
        effects.append(WinIfLibraryAtMost(amount))
        used += 1
    s.effects.extend(effects)
    return used


def _look(c: Cursor, s: Scope) -> int | str | Count:
    """"look at the top N|X cards of your library[, where X is your devotion to <color>]" (CR 700.5)."""
    c.need("look", "at", "the", "top")
    n = number(c, allow_x=True)
    c.need("cards", "of", "your", "library")
    if n == "X" and not s.x_defined:
        c.need(",", "where", "x", "is", "your", "devotion", "to")
        word = c.low()
        if word not in COLOR_WORDS:
            raise NoMatch("a color")
        c.i += 1
        c.end()
        return Count(SELF_SELECTOR, "devotion", color=COLOR_WORDS[word])
    c.end()
    return n


def _take(c: Cursor) -> tuple[Dig, bool]:
    """The sentence that takes cards from among those seen: the :class:`Dig` (its ``amount`` and, when
    the rest is not said here, its ``rest`` still to be set) and whether the rest was read."""
    if c.take("you", "may"):
        dig = _may_take(c)
    else:
        c.need("put")
        dig = _put_some(c)
    if c.done():
        return dig, False
    c.need("and", "the", ("rest", "other"))
    rest = _rest(c)
    c.end()
    return replace(dig, rest=rest), True


def _dig(take: int | None, exact: bool, quality: Filter | None, to: str, tapped: bool,
         total: int | None = None) -> Dig:
    return Dig(0, take, exact, quality, to, "bottom", tapped=tapped, total_mv_max=total)


def _may_take(c: Cursor) -> Dig:
    """"reveal <cards> from among them and put it|that card|them into your hand" / "put <a card>
    from among them into your hand | onto the battlefield [tapped]" (a choice of up to so many)."""
    if c.take("reveal"):
        take, quality, total = _cards(c)
        c.need("from", "among", "them", "and", "put")
        if not (c.take(("it", "them")) or c.take("that", "card") or c.take("those", "cards")
                or c.take("the", "revealed", "cards")):
            raise NoMatch("the revealed cards")
        c.need("into", "your", "hand")
        return _dig(take, False, quality, "hand", False, total)
    c.need("put")
    take, quality, total = _cards(c)
    c.need("from", "among", "them")
    to, tapped = _destination(c)
    return _dig(take, False, quality, to, tapped, total)


def _put_some(c: Cursor) -> Dig:
    """"<K | up to K | any number> of them|those cards <destination>" or "any number of <cards>
    [with total mana value N or less] from among them <destination>"."""
    if c.at("any", "number", "of") and not c.at("any", "number", "of", ("them", "those")):
        take, quality, total = _cards(c)
        c.need("from", "among", "them")
        to, tapped = _destination(c)
        return _dig(take, False, quality, to, tapped, total)
    exact = True
    if c.take("any", "number"):
        k: int | None = None
        exact = False
    else:
        exact = not c.take("up", "to")
        k = number(c)
    c.need("of", ("them", "those"))
    c.take("cards")
    to, tapped = _destination(c)
    return _dig(k, exact, None, to, tapped)


def _destination(c: Cursor) -> tuple[str, bool]:
    for words, zone in _TO:
        if c.take(*words):
            tapped = zone == "battlefield" and c.take("tapped")
            return zone, tapped
    raise NoMatch("where the cards go")


def _cards(c: Cursor) -> tuple[int | None, Filter | None, int | None]:
    """"a|an <… card>" (one), "up to N <type> cards" (N), "any number of <[non<type>] type> cards
    [with total mana value N or less]" (any): how many, their quality and the bound on the total of
    their mana values (CR 202.3)."""
    if c.at(("a", "an")):
        f = library_card(c)
        return 1, _library(f), None
    if c.take("up", "to"):
        n: int | None = number(c)
    else:
        c.need("any", "number", "of")
        n = None
    f = _plural_cards(c)
    total = None
    if c.take("with", "total", "mana", "value"):
        total = number(c)
        c.need("or", "less")
    return n, f, total


def _library(f: Filter | None) -> Filter | None:
    return f if f is None else replace(f, who="you", zone="library")


def _plural_cards(c: Cursor) -> Filter | None:
    """"[non<type>] <type|permanent> cards" / "cards" (CR 205.2, 110.4)."""
    nontypes: set[str] = set()
    while (w := c.low()) is not None and w.startswith("non") and w[3:] in TYPE_WORDS:
        nontypes.add(TYPE_WORDS[w[3:]])
        c.i += 1
    if c.take("cards"):
        types: frozenset[str] = frozenset()
    elif c.take("permanent", "cards"):
        types = _PERMANENT_TYPES
    elif (w := c.low()) is not None and w in TYPE_WORDS and w != "permanent" and c.low(1) == "cards":
        c.i += 2
        types = frozenset({TYPE_WORDS[w]})
    else:
        raise NoMatch("cards")
    if not types and not nontypes:
        return None
    return Filter(types=types, nontypes=frozenset(nontypes), who="you", zone="library")


def _rest(c: Cursor) -> str:
    """"on the bottom [of your library] [in any order | in a random order]" / "into your graveyard"."""
    if c.take("into", "your", "graveyard"):
        return "graveyard"
    c.need("on", "the", "bottom")
    c.take("of", "your", "library")
    if c.take("in", "a", "random", "order"):
        return "bottom_random"
    c.take("in", "any", "order")
    return "bottom"


def _rest_sentence(c: Cursor) -> str:
    """"[then] put the rest [of the cards] <rest>"."""
    c.take("then")
    c.need("put", "the", "rest")
    c.take("of", "the", "cards")
    rest = _rest(c)
    c.end()
    return rest


def _wins(c: Cursor) -> bool:
    """"If X is greater than or equal to the number of cards in your library, you win the game"."""
    return c.take("if", "x", "is", "greater", "than", "or", "equal", "to", "the", "number", "of", "cards", "in",
                  "your", "library", ",", "you", "win", "the", "game") and c.done()


def _that_card(c: Cursor) -> None:
    if not any(c.take(*words) for words in _THAT_CARD):
        raise NoMatch("that card")


def _top_card_passage(sents: Sequence[Sequence[Token]], i: int, s: Scope) -> int:
    """"Look at the top card of <your | target player's> library." then "You may put that card|it
    on the bottom [of <that player's|your|their> library] | into <your|their|that player's>
    graveyard." / "You may reveal that card and put it into your hand. [If you do, you lose life
    equal to its mana value.]" / "If it's <a … card>, you may [reveal it and] put it into your hand
    | onto the battlefield [tapped]." — one :class:`Dig` of one card whose card not taken stays on
    top (CR 401.5, 608.2c-d): the number of sentences read, or 0."""
    first, second = Cursor(sents[i]), Cursor(sents[i + 1])
    ntargets = len(s.targets)
    try:
        first.need("look", "at", "the", "top", "card", "of")
        whose = _library_owner(first, s)
        first.need("library")
        first.end()
        dig = _top_card_instruction(second, whose != CONTROLLER)
    except NoMatch:
        del s.targets[ntargets:]
        return 0
    used = 2
    if dig.to == "hand" and i + 2 < len(sents) and _lose_life_mv(Cursor(sents[i + 2])):
        dig = replace(dig, lose_life_mv=True)
        used = 3
    s.effects.append(replace(dig, whose=whose))
    return used


def _library_owner(c: Cursor, s: Scope) -> Ref:
    """"your" (the controller) or "target player's" (a target, CR 115.1)."""
    if c.take("your"):
        return CONTROLLER
    c.need("target", "player's")
    s.targets.append(TargetSpec(Filter(types=frozenset(), players=True, who="any"), 1, 1, ()))
    ref = T(len(s.targets) - 1)
    s.last = ref
    return ref


def _top_card_instruction(c: Cursor, other: bool) -> Dig:
    """The sentence after "Look at the top card of … library." (``other``: another player's)."""
    quality: Filter | None = None
    if c.take("if", "it's"):
        quality = _library(library_card(c))
        if quality is None:
            raise NoMatch("a quality")
        c.need(",")
    c.need("you", "may")
    if c.take("reveal"):
        _that_card(c)
        c.need("and", "put", "it", "into", "your", "hand")
        c.end()
        return Dig(1, 1, False, quality, "hand", "stay")
    c.need("put")
    _that_card(c)
    if c.take("on", "the", "bottom"):
        if c.take("of"):
            c.need(("that", "their") if other else ("your",))
            if c.low(-1) == "that":
                c.need("player's")
            c.need("library")
        to, tapped = "bottom", False
    elif c.at("into", ("that", "their") if other else ("your",)) and c.low(2) in ("player's", "graveyard"):
        c.i += 2
        c.take("player's")
        c.need("graveyard")
        to, tapped = "graveyard", False
    elif not other:
        to, tapped = _destination(c)
        if to not in ("hand", "battlefield"):
            raise NoMatch("where the card goes")
    else:
        raise NoMatch("where the card goes")
    c.end()
    return Dig(1, 1, False, quality, to, "stay", tapped=tapped)


def _lose_life_mv(c: Cursor) -> bool:
    """"If you do, you lose life equal to its mana value" (CR 608.2c, 202.3)."""
    return c.take("if", "you", "do", ",", "you", "lose", "life", "equal", "to", "its", "mana", "value") and c.done()


def _opponent_chooses(sents: Sequence[Sequence[Token]], i: int, s: Scope) -> int:
    """"Reveal the top N cards of your library. An opponent chooses <one of them | a … card from
    among them>. Put that card <into your hand | onto the battlefield> and <the other | the rest>
    <into your graveyard | on the bottom …>" / "… and exile the other [with a <kind> counter on
    it]": one :class:`Dig` whose choice an opponent makes (CR 608.2d): 3 sentences, or 0."""
    if i + 2 >= len(sents):
        return 0
    first, second, third = (Cursor(sents[i + k]) for k in range(3))
    try:
        first.need("reveal", "the", "top")
        n = number(first)
        first.need("cards", "of", "your", "library")
        first.end()
        second.need("an", "opponent", "chooses")
        if second.take("one", "of", "them"):
            quality: Filter | None = None
        else:
            quality = _library(library_card(second))
            second.need("from", "among", "them")
        second.end()
        third.need("put", "that", "card")
        to, tapped = _destination(third)
        third.need("and")
        rest, counter = _other_rest(third)
        third.end()
    except NoMatch:
        return 0
    s.effects.append(Dig(n, 1, True, quality, to, rest, tapped=tapped, chooser="opponent", rest_counter=counter))
    return 3


def _other_rest(c: Cursor) -> tuple[str, str]:
    """"exile the other [with a <kind> counter on it]" / "the other|rest <rest>"."""
    if c.take("exile", "the", ("other", "rest")):
        if c.take("with", "a"):
            kind = c.next().low
            c.need("counter", "on", ("it", "them"))
            return "exile", kind
        return "exile", ""
    c.need("the", ("other", "rest"))
    return _rest(c), ""


def clause_exiled_to_hand(c: Cursor, s: Scope) -> list[Effect]:
    """"put a card you own with a <kind> counter on it from exile into your hand" (CR 122.1)."""
    c.need("put", "a", "card", "you", "own", "with", "a")
    kind = c.next().low
    c.need("counter", "on", "it", "from", "exile", "into", "your", "hand")
    return [ExiledToHand(kind)]


def _pile_on_top(sents: Sequence[Sequence[Token]], i: int, s: Scope) -> int:
    """"Search your library and graveyard for N cards and exile the rest. Put the chosen cards on top
    of your library in any order." (CR 701.23a, 401.4): 2 sentences, or 0."""
    first, second = Cursor(sents[i]), Cursor(sents[i + 1])
    try:
        first.need("search", "your", "library", "and", "graveyard", "for")
        n = number(first)
        first.need("cards", "and", "exile", "the", "rest")
        first.end()
        second.need("put", "the", "chosen", "cards", "on", "top", "of", "your", "library", "in", "any", "order")
        second.end()
    except NoMatch:
        return 0
    s.effects.append(PileOnTop(n))
    return 2


def clause_lose_half_life(c: Cursor, s: Scope) -> list[Effect]:
    """"you lose half your life, rounded up" (CR 107.1a, 119.3)."""
    c.need("you", "lose", "half", "your", "life", ",", "rounded", "up")
    return [LoseHalfLife()]


def clause_exile_library(c: Cursor, s: Scope) -> list[Effect]:
    """"exile all cards from target player's library" (CR 406.1)."""
    c.need("exile", "all", "cards", "from")
    ref = _library_owner(c, s)
    c.need("library")
    return [ExileLibrary(ref)]


def clause_shuffle_hand_into_library(c: Cursor, s: Scope) -> list[Effect]:
    """"that player shuffles their hand into their library" after a target player (CR 701.24a)."""
    if s.last is None or s.last.kind != "target":
        raise NoMatch("that player")
    c.need("that", "player", "shuffles", "their", "hand", "into", "their", "library")
    return [ShuffleHandIntoLibrary(s.last)]
