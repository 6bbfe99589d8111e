"""Small phrases: numbers, mana symbols and costs (CR 107.4, 202.1), power/toughness,
subtypes (CR 205.3), colours and counter kinds (CR 122.1)."""
from __future__ import annotations

from typing import Literal, Sequence, overload

from ..core.mana import Mana, ManaCost, ManaSyntaxError, parse_symbol
from .subtypes import SUBTYPES
from .tokens import NUMBER_WORDS, Token
from .vocabulary import COLOR_WORDS, singular
from .cursor import Cursor, NoMatch


@overload
def number(c: Cursor, allow_a: bool = False, allow_x: Literal[False] = False) -> int: ...
@overload
def number(c: Cursor, allow_a: bool = False, *, allow_x: bool) -> int | str: ...


def number(c: Cursor, allow_a: bool = False, allow_x: bool = False) -> int | str:
    """A count: a numeral, a number word ("three"), "a"/"an" when ``allow_a``, and "X"
    (returned as ``"X"``) when ``allow_x`` (CR 107.3)."""
    t = c.peek()
    if t is None:
        raise NoMatch("number expected")
    if t.kind == "NUM":
        c.i += 1
        return int(t.low)
    if t.kind == "WORD":
        if t.low in NUMBER_WORDS:
            c.i += 1
            return NUMBER_WORDS[t.low]
        if allow_a and t.low in ("a", "an"):
            c.i += 1
            return 1
        if allow_x and t.low == "x":
            c.i += 1
            return "X"
    raise NoMatch("number expected")


def mana_run(c: Cursor) -> list[Token]:
    """Consecutive mana symbols (not {T}, {Q}, {E})."""
    out = []
    while (t := c.peek()) is not None and t.kind == "SYM" and t.low not in ("T", "Q", "E"):
        out.append(t)
        c.i += 1
    if not out:
        raise NoMatch("mana expected")
    return out


def mana_amount(c: Cursor) -> Mana:
    """A run of mana symbols as an amount of mana (CR 106.1b, 106.10)."""
    syms = mana_run(c)
    try:
        return Mana.parse("".join(t.text for t in syms))
    except ManaSyntaxError as e:
        raise NoMatch(str(e)) from None


def mana_cost(toks: Sequence[Token]) -> ManaCost:
    try:
        for t in toks:
            parse_symbol(t.low)
        return ManaCost.parse("".join(t.text for t in toks))
    except ManaSyntaxError as e:
        raise NoMatch(str(e)) from None


def pt(c: Cursor, signed: bool = True) -> tuple[int, int]:
    t = c.peek()
    if t is None or t.kind != "PT":
        raise NoMatch("power/toughness expected")
    p, q = t.text.split("/")
    if signed and not (p[:1] in "+-" and q[:1] in "+-"):
        raise NoMatch("signed p/t expected")
    try:
        vals = int(p), int(q)
    except ValueError:
        raise NoMatch("variable p/t") from None
    c.i += 1
    return vals


def is_subtype(word: str) -> bool:
    """A subtype (CR 205.3) as printed, singular or plural."""
    return word in SUBTYPES or singular(word) in SUBTYPES


def subtype_word(c: Cursor) -> str:
    """A subtype word as printed (singular or plural, see :data:`.subtypes.SUBTYPES`)."""
    t = c.peek()
    if t is None or t.kind != "WORD" or not t.text[:1].isupper() or not is_subtype(t.text):
        raise NoMatch("subtype expected")
    c.i += 1
    return t.text


def color_word(c: Cursor) -> str:
    t = c.peek()
    if t is None or t.low not in COLOR_WORDS:
        raise NoMatch("color expected")
    c.i += 1
    return COLOR_WORDS[t.low]


def _counter_word(c: Cursor) -> str:
    """A counter's kind when counting or removing counters: a word or ``+1/+1``/``-1/-1`` (CR 122.1)."""
    t = c.next()
    if t.kind == "PT" and t.text in ("+1/+1", "-1/-1"):
        return t.text
    if t.kind == "WORD" and t.low.isalpha() and t.low not in ("counter", "counters", "a", "an", "the", "x", "any"):
        return t.low
    raise NoMatch("counter kind")


# Counters with a rules meaning of their own (CR 122.1b keyword counters, 122.1c–h):
# the IR would carry them as plain counters, so text putting them is not claimed.
RULES_COUNTERS = frozenset({
    "flying", "first", "double", "deathtouch", "decayed", "exalted", "haste", "hexproof", "indestructible",
    "lifelink", "menace", "reach", "shadow", "trample", "vigilance", "shield", "stun", "finality", "loyalty",
    "defense", "lore", "time", "poison", "rad", "ticket", "experience", "energy"})


def counter_kind(c: Cursor) -> str:
    """The kind of a counter: ``+1/+1``, ``-1/-1`` or a word (CR 122.1)."""
    t = c.next()
    if t.kind == "PT" and t.text in ("+1/+1", "-1/-1"):
        return t.text
    if t.kind == "WORD" and t.low.isalpha() and t.low not in ("counter", "counters", "a", "an", "the") \
            and t.low not in RULES_COUNTERS:
        return t.low
    raise NoMatch("counter kind")
