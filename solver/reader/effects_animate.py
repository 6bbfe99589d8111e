"""A permanent becoming a creature until end of turn (CR 611.2a, 613): "This land becomes a 2/2
Assembly-Worker artifact creature until end of turn. It's still a land.", "… becomes a 3/3 white and
blue Elemental creature with flying until end of turn", "Until end of turn, this land becomes …" —
the manlands' and animated artifacts' activated abilities, read as one :class:`~solver.core.ir.Animate`.
"It's still a land." (and "It's still an artifact.") only restates that the types are added (CR 205.1b):
read with it. Not read: "until your next turn", "for as long as …", "with base power and toughness",
an object other than the source or a target, a creature type the subtype list doesn't know."""
from __future__ import annotations

from ..core.ir import Animate, Effect, Ref, SELF
from .cursor import Cursor, NoMatch
from .phrases import is_subtype, pt
from .scope import Scope, keyword_list, object_ref
from .vocabulary import COLOR_WORDS

__all__ = ["clause_animate", "clause_base_pt", "still_its_types"]

_ANIMATE_TYPES = {"artifact": "Artifact", "enchantment": "Enchantment", "land": "Land"}


def clause_animate(c: Cursor, s: Scope) -> list[Effect]:
    """["until end of turn,"] <object> becomes a N/N [colors] [subtypes] [types] creature [with <keywords>]
    [until end of turn]."""
    leading = bool(c.take("until", "end", "of", "turn", ","))
    ref: Ref = object_ref(c, s)
    if ref.kind not in ("self", "target"):
        raise NoMatch("an object other than the source or a target")
    c.need(("becomes", "become"), ("a", "an"))
    p: int | None
    t: int | None
    if c.peek() is not None and c.peek().kind == "PT":   # type: ignore[union-attr]
        p, t = pt(c, signed=False)
    elif c.at("artifact", "creature"):
        p = t = None   # "becomes an artifact creature": its printed power and toughness (a Vehicle, CR 301.7)
    else:
        raise NoMatch("a power and toughness")
    colors: set[str] = set()
    while c.low() in COLOR_WORDS or c.low() in ("and", ","):
        word = c.next().low
        if word in COLOR_WORDS:
            colors.add(COLOR_WORDS[word])
    subtypes: list[str] = []
    types: set[str] = {"Creature"}
    while c.peek() is not None and c.low() != "creature":
        w = c.next()
        if w.low in _ANIMATE_TYPES:
            types.add(_ANIMATE_TYPES[w.low])
        elif is_subtype(w.text):
            subtypes.append(w.text)
        else:
            raise NoMatch("a word in the creature's description")
    c.need("creature")
    kws: tuple[str, ...] = ()
    if c.take("with"):
        kws = keyword_list(c)
    _still_or_in_addition(c)
    if not leading:
        c.need("until", "end", "of", "turn")
    if not c.done():
        raise NoMatch("more after the creature's description")
    return [Animate(ref, p, t, frozenset(types), frozenset(subtypes), frozenset(colors) if colors else None, kws)]


def clause_base_pt(c: Cursor, s: Scope) -> list[Effect]:
    """["until end of turn,"] <this creature | it | target creature> has base power and toughness N/N [and gains
    <keywords>] [until end of turn] (CR 613.4b: layer 7b; 611.2a): an :class:`Animate` adding no type."""
    leading = bool(c.take("until", "end", "of", "turn", ","))
    ref: Ref = object_ref(c, s)
    if ref.kind not in ("self", "target"):
        raise NoMatch("an object other than the source or a target")
    c.need("has", "base", "power", "and", "toughness")
    p, t = pt(c, signed=False)
    kws: tuple[str, ...] = ()
    if c.take("and", "gains"):
        kws = keyword_list(c)
    if not leading:
        c.need("until", "end", "of", "turn")
    if not c.done():
        raise NoMatch("more after the base power and toughness")
    return [Animate(ref, p, t, frozenset(), frozenset(), None, kws)]


def _still_or_in_addition(c: Cursor) -> None:
    """"that's still a <type>" / "in addition to its other types" after the creature's description: the
    permanent keeps its types (CR 205.1b) — nothing more to read."""
    if c.take("that's", "still", ("a", "an")):
        w = c.next()
        if w.low not in _ANIMATE_TYPES and w.low != "planeswalker":
            raise NoMatch("still a card type")
    else:
        c.take("in", "addition", "to", "its", "other", "types")


def still_its_types(toks) -> bool:
    """"It's still a land." / "It's still an artifact." (CR 205.1b): nothing more to read."""
    words = [t.low for t in toks]
    return words in (["it's", "still", "a", "land", "."], ["it's", "still", "an", "artifact", "."],
                     ["it's", "still", "a", "land"], ["it's", "still", "an", "artifact"])
