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

__all__ = ["clause_animate", "still_its_types"]

_ANIMATE_TYPES = {"artifact": "Artifact", "enchantment": "Enchantment", "land": "Land"}


def clause_animate(c: Cursor, s: Scope) -> list[Effect]:
    """["until end of turn,"] <object> becomes a N/N [colors] [subtypes] [types] creature [with <keywords>]
    [until end of turn]."""
    leading = bool(c.take("until", "end", "of", "turn", ","))
    ref: Ref = object_ref(c, s)
    if ref.kind not in ("self", "target"):
        raise NoMatch("an object other than the source or a target")
    c.need(("becomes", "become"), ("a", "an"))
    p, t = pt(c, signed=False)
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
    if not leading:
        c.need("until", "end", "of", "turn")
    if not c.done():
        raise NoMatch("more after the creature's description")
    return [Animate(ref, p, t, frozenset(types), frozenset(subtypes), frozenset(colors) if colors else None, kws)]


def still_its_types(toks) -> bool:
    """"It's still a land." / "It's still an artifact." (CR 205.1b): nothing more to read."""
    words = [t.low for t in toks]
    return words in (["it's", "still", "a", "land", "."], ["it's", "still", "an", "artifact", "."],
                     ["it's", "still", "a", "land"], ["it's", "still", "an", "artifact"])


def clause_becomes_artifact_creature(c: Cursor, s: Scope) -> list[Effect]:
    """"<this Vehicle | it | target Vehicle> becomes an artifact creature until end of turn." — crew's effect
    (CR 702.122a) in other abilities (Fleetwheel Cruiser's "When this Vehicle enters, it becomes an artifact
    creature until end of turn."): an artifact creature with its printed power and toughness (CR 208.3; an
    ``Animate`` without P/T of its own, 611.2a)."""
    ref: Ref = object_ref(c, s)
    if ref.kind not in ("self", "target"):
        raise NoMatch("an object other than the source or a target")
    c.need(("becomes", "become"), "an", "artifact", "creature", "until", "end", "of", "turn")
    if not c.done():
        raise NoMatch("more after 'until end of turn'")
    return [Animate(ref, None, None, frozenset({"Artifact", "Creature"}))]
