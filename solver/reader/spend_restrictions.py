"""Mana spending restrictions (CR 106.6): "Spend this mana only to cast …"."""
from __future__ import annotations

from dataclasses import replace
from typing import Sequence

from ..core.ir import Filter, SpendRestriction
from .subtypes import SUBTYPES
from .tokens import Token, tokenize
from .vocabulary import singular, TYPE_PLURALS, TYPE_WORDS
from .cursor import Cursor, NoMatch
from .phrases import is_subtype, number, subtype_word


# Card types a spell may have ("an instant or sorcery spell"); lands are played, not cast.
SPELL_TYPE_WORDS: dict[str, str] = {w: t for w, t in TYPE_WORDS.items() if t not in ("Land", "Permanent")}
# Card types of a permanent whose abilities are activated ("abilities of land sources").
SOURCE_TYPE_WORDS: dict[str, str] = {w: t for w, t in TYPE_WORDS.items() if t not in ("Permanent", "Instant", "Sorcery")}
# Adjectives of a spell or source description in a spending restriction.
_SPEND_ADJECTIVES = frozenset({"colorless", "multicolored", "legendary"})


def _spend_nouns(c: Cursor, types: dict[str, str], plurals: dict[str, str]) -> list[tuple[str | None, str | None]]:
    """A list of nouns joined by ",", "or", "and", "and/or": each ``(subtype, type)``
    ("Dragon creature" → ("Dragon", "Creature"); "Knight" → ("Knight", None);
    "instant" → (None, "Instant")). Every conjunction names alternatives
    ("instant and sorcery spells": each spell is one or the other)."""

    def starts_noun(t: Token | None) -> bool:
        return t is not None and t.kind == "WORD" and (
            t.low in types or t.low in plurals or (t.text[:1].isupper() and is_subtype(t.text)))

    out: list[tuple[str | None, str | None]] = []
    while True:
        sub = c.attempt(subtype_word)
        if sub is not None and singular(sub) in SUBTYPES:
            sub = singular(sub)
        t = c.peek()
        typ = None
        if t is not None and t.kind == "WORD" and (t.low in types or t.low in plurals):
            typ = types.get(t.low) or plurals[t.low]
            c.i += 1
        if sub is None and typ is None:
            if out:
                raise NoMatch("noun expected after a conjunction")
            return out
        out.append((sub, typ))
        save = c.i
        comma = c.take(",")
        conj = c.take("and", "/", "or") or c.take("or") or c.take("and")
        if not (comma or conj) or not starts_noun(c.peek()):
            c.i = save
            return out


def _spend_filters(adjs: set[str], non: set[str], nouns: list[tuple[str | None, str | None]],
                   zone: str) -> tuple[Filter, ...]:
    """The filters (any of) for adjectives + nouns (see :class:`~solver.core.ir.Filter`)."""
    def one(types: frozenset[str] = frozenset(), subtypes: frozenset[str] = frozenset()) -> Filter:
        return Filter(types=types, subtypes=subtypes, zone=zone, nontypes=frozenset(non),
                      colorless="colorless" in adjs, multicolored="multicolored" in adjs,
                      supertypes=frozenset({"Legendary"}) if "legendary" in adjs else frozenset())

    if not nouns:
        return (one(),)
    # a noun is never (None, None) (_spend_nouns), so these leave nothing out
    if all(s is None for s, _ in nouns):
        return (one(types=frozenset(t for _, t in nouns if t is not None)),)
    if all(t is None for _, t in nouns):
        return (one(subtypes=frozenset(s for s, _ in nouns if s is not None)),)
    return tuple(one(types=frozenset({t}) if t else frozenset(), subtypes=frozenset({s}) if s else frozenset())
                 for s, t in nouns)


def _spend_adjectives(c: Cursor) -> tuple[set[str], set[str]]:
    adjs: set[str] = set()
    non: set[str] = set()
    while (w := c.low()) is not None:
        if w in _SPEND_ADJECTIVES:
            adjs.add(w)
        elif w.startswith("non") and w[3:] in SPELL_TYPE_WORDS:
            non.add(SPELL_TYPE_WORDS[w[3:]])
        else:
            break
        c.i += 1
    return adjs, non


def _spell_qualifiers(c: Cursor) -> dict:
    """Qualifiers after "spell(s)" in a spending restriction (CR 106.6): "of the
    chosen type", "with mana value N or greater / or less", "with {X} in its/their mana
    cost(s)", "from your graveyard", "from exile" (the zone it is cast from)."""
    q: dict = {}
    while True:
        if "chosen_type" not in q and c.take("of", "the", "chosen", "type"):
            q["chosen_type"] = True
        elif "mv_min" not in q and c.at("with", "mana", "value"):
            save = c.i
            c.i += 3
            n = c.attempt(number)
            if isinstance(n, int) and c.take("or", "greater"):
                q["mv_min"] = n
            elif isinstance(n, int) and c.take("or", "less"):
                q["mv_min"], q["mv_max"] = None, n   # "mana value 3 or less" (CR 202.3)
            else:
                c.i = save
                break
        elif "has_x" not in q and (c.take("with", "X", "in", "their", "mana", "costs")
                                   or c.take("with", "X", "in", "its", "mana", "cost")):
            q["has_x"] = True
        elif "from_zones" not in q and c.take("from", "your", "graveyard"):
            q["from_zones"] = frozenset({"graveyard"})
        elif "from_zones" not in q and c.take("from", "exile"):
            q["from_zones"] = frozenset({"exile"})
        elif "not_owned" not in q and c.take("you", "don't", "own"):
            q["not_owned"] = True
        else:
            break
    return q


def spell_phrase(c: Cursor) -> tuple[Filter, ...]:
    """[a|an] adjective* nouns ("spell"|"spells") qualifiers* — "a Dragon creature
    spell", "instant and/or sorcery spells", "a noncreature spell", "colorless
    Eldrazi spells", "a creature spell of the chosen type", "creature spells with
    mana value 4 or greater", "spells with {X} in their mana costs", "a spell
    from your graveyard"."""
    c.take(("a", "an"))
    adjs, non = _spend_adjectives(c)
    nouns = _spend_nouns(c, SPELL_TYPE_WORDS, {})
    c.need(("spell", "spells"))
    q = _spell_qualifiers(c)
    return tuple(replace(f, **q) for f in _spend_filters(adjs, non, nouns, "stack"))


def source_phrase(c: Cursor) -> tuple[Filter, ...]:
    """The object whose abilities the mana may pay for: [a|an] adjective* nouns
    ["source"|"sources"] — "artifacts", "an artifact source", "Dragons",
    "a Cleric, Rogue, Warrior, or Wizard", "colorless Eldrazi"."""
    c.take(("a", "an"))
    adjs, non = _spend_adjectives(c)
    nouns = _spend_nouns(c, SOURCE_TYPE_WORDS, {w: t for w, t in TYPE_PLURALS.items() if t in SOURCE_TYPE_WORDS.values()})
    source_word = c.take(("source", "sources"))
    chosen = source_word and c.take("of", "the", "chosen", "type")  # "a [creature] source of the chosen type"
    if not nouns and not chosen:
        raise NoMatch("source description expected")
    return tuple(replace(f, chosen_type=True) if chosen else f
                 for f in _spend_filters(adjs, non, nouns, "battlefield"))


def spend_restriction(c: Cursor) -> SpendRestriction:
    """"Spend this mana only to <purpose> [, <purpose>]* [or <purpose>]" where a
    purpose is "cast <spells>" or "activate abilities [of <sources>]" /
    "activate an ability [of <source>]"; or "This mana can't be spent to cast
    nonartifact spells" (CR 106.6). Anything else (spending triggers, chosen
    types, costs with {X}, zones, kicked spells …) does not match."""
    if c.take("this", "mana", "can't", "be", "spent", "to", "cast", "spells", "from", "your", "hand"):
        c.end()  # CR 106.6, 601.2a: any spell cast from elsewhere, any ability, any other cost
        return SpendRestriction(spells=(Filter(zone="stack", not_from_zones=frozenset({"hand"})),),
                                abilities=True, other=True)
    if c.take("this", "mana", "can't", "be", "spent", "to", "cast"):
        c.take(("a", "an"))
        w = c.low()
        if w is None or not w.startswith("non") or w[3:] not in SPELL_TYPE_WORDS:
            raise NoMatch("only 'nonTYPE spells' is read")
        c.i += 1
        c.need(("spell", "spells"))
        c.end()
        return SpendRestriction(spells=(Filter(types=frozenset({SPELL_TYPE_WORDS[w[3:]]}), zone="stack"),),
                                abilities=True, other=True)
    c.need("spend", "this", "mana", "only", "to")
    spells: list[Filter] = []
    abilities = False
    sources: list[Filter] = []
    any_source = False
    while True:
        if c.take("cast"):
            spells.extend(spell_phrase(c))
            while c.at("or") or c.at(",", ("a", "an")):
                save = c.i
                c.i += 1
                more = c.attempt(spell_phrase)
                if more is None:
                    c.i = save
                    break
                spells.extend(more)
        elif c.take("activate", "abilities") or c.take("activate", ("an", "a"), "ability"):
            abilities = True
            if c.take("of"):
                sources.extend(source_phrase(c))
            else:
                any_source = True
        else:
            raise NoMatch("purpose expected")
        if c.done():
            break
        c.take(",")
        c.take("or")
        c.take("to")
        if c.done():
            raise NoMatch("dangling conjunction")
    return SpendRestriction(spells=tuple(spells), abilities=abilities,
                            sources=() if any_source else tuple(sources))


_UNCOUNTERABLE = (",", "and", "that", "spell", "can't", "be", "countered")


def _spend_and_rider(toks: Sequence[Token]) -> tuple[SpendRestriction, list[Token]] | None:
    """"Spend this mana only to cast …, and that spell can't be countered" (Cavern
    of Souls): the restriction, and the rider's tokens (read as unsupported)."""
    n = len(_UNCOUNTERABLE)
    if len(toks) <= n or tuple(t.low for t in toks[-n:]) != _UNCOUNTERABLE:
        return None
    r = spend_sentence(toks[:-n])
    return None if r is None else (r, list(toks[-n + 1:]))


def spend_sentence(toks: Sequence[Token]) -> SpendRestriction | None:
    """A whole sentence read as a spending restriction, or None."""
    c = Cursor(toks)
    try:
        r = spend_restriction(c)
        c.end()
        return r
    except NoMatch:
        return None


def read_spend_restriction(text: str) -> SpendRestriction | None:
    """A restriction as :meth:`SpendRestriction.describe` writes it ("spend this mana only to cast
    artifact spells") read back, or None when the grammar does not give the same restriction back
    (a chosen type, which belongs to a source, CR 106.6): the situation format's restricted mana."""
    toks = tokenize(text[:1].upper() + text[1:])
    r = spend_sentence(toks)
    return r if r is not None and r.describe() == text.strip() else None
