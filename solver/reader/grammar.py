"""The grammar of the Oracle-text reader: named templates over tokens.

Parsing is top-down with backtracking over the tokens of :mod:`.tokens`.  A
:class:`Cursor` walks a token list; each grammar function either consumes the
tokens of its phrase and returns its meaning in the IR of :mod:`solver.ir`, or
raises :class:`NoMatch` (the cursor is then restored by whoever tried it).  A
template matches a line only if it consumes *every* token of it, so any word
the grammar does not know makes the line unsupported instead of being skipped.

Layers, bottom up:

* phrases — numbers, mana runs, object descriptions (:func:`desc`, converted to
  :class:`~solver.ir.Selector` or :class:`~solver.ir.Filter` only when the IR
  can hold every word of them), target phrases (CR 115), costs (CR 118, 602.1a),
  mana production (CR 106, 605);
* clauses and sentences — the instructions of spells and abilities (CR 608):
  damage, destroy, pump, draw, tokens, counters, fight, conjure, …;
* line templates — :data:`LINE_TEMPLATES`, each with a name: keyword lines
  (CR 702), activated and mana abilities (CR 602, 605), triggered abilities
  (CR 603, 605.1b), statics (CR 604, 613), replacement effects (CR 614) and
  spell text (instants and sorceries).

Sentences after the one that defines an ability that the grammar cannot read
(for example "Spend this mana only to cast creature spells.") are kept as an
:class:`~solver.ir.Unsupported` *rider* after the ability, so the ability keeps
its place in printed order and nothing is dropped — except that a rider
mentioning "target" makes the whole line unsupported (its targets would be
incomplete), and so does any unread sentence of a non-mana activated or
triggered ability (its resolution would be wrong).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Callable, Iterable, Sequence

from ..ir import CARD_TYPES
from ..ir import (ability_kind_of_line, ActivationCondition, ANY_TARGET, ATTACHED, CONTROLLER, SELF, Ability, ActivatedAbility, Cost, Count,
                  CounterReplacement, Effect, Enchant, EntersWith, Filter, Keyword, ManaAbility,
                  ManaReplacement, Produce, Ref, Selector, SpendRestriction, Static, T, TargetSpec,
                  TokenReplacement, Trigger,
                  TriggeredAbility, TriggeredManaAbility, Unsupported)
from ..mana import COLORS, Mana, ManaCost, ManaSyntaxError, parse_symbol
from .subtypes import SUBTYPES
from .tokens import NUMBER_WORDS, Token, detokenize, template
from . import mana_riders
from . import structure
from . import statics
from . import casting_options  # alternative / additional costs, flashback … (reader/casting_options.py)


class NoMatch(Exception):
    """The tokens do not follow the template being tried."""


# --------------------------------------------------------------------------
# Vocabulary
# --------------------------------------------------------------------------

TYPE_WORDS: dict[str, str] = {
    "creature": "Creature", "land": "Land", "artifact": "Artifact", "enchantment": "Enchantment",
    "planeswalker": "Planeswalker", "battle": "Battle", "permanent": "Permanent", "instant": "Instant",
    "sorcery": "Sorcery",
}
TYPE_PLURALS: dict[str, str] = {w + "s": t for w, t in TYPE_WORDS.items() if w != "sorcery"}
TYPE_PLURALS["sorceries"] = "Sorcery"
COLOR_WORDS: dict[str, str] = {"white": "W", "blue": "U", "black": "B", "red": "R", "green": "G"}
BASIC_TYPES: dict[str, str] = {"Plains": "Plains", "Island": "Island", "Swamp": "Swamp", "Mountain": "Mountain",
                               "Forest": "Forest"}
BASIC_PLURALS: dict[str, str] = {"Plains": "Plains", "Islands": "Island", "Swamps": "Swamp",
                                 "Mountains": "Mountain", "Forests": "Forest"}
LAND_SUBTYPES = frozenset(BASIC_TYPES) | frozenset({"Desert", "Gate", "Lair", "Locus", "Mine", "Power-Plant",
                                                    "Tower", "Cave", "Sphere", "Town", "Urza's", "Planet"})
# Keyword abilities the IR gives a meaning (ir.Keyword's docstring); landwalk and
# protection take an argument, enchant is ir.Enchant.
SIMPLE_KEYWORDS: frozenset[str] = frozenset({
    "hexproof", "shroud", "haste", "flash", "flying", "trample", "first strike", "defender", "indestructible",
    "vigilance", "reach", "menace", "lifelink", "deathtouch", "double strike",
    # evasion (block restrictions only, solver/combat.py): CR 702.36 fear, 702.13 intimidate, 702.28 shadow,
    # 702.31 horsemanship, 702.118 skulk
    "fear", "intimidate", "shadow", "horsemanship", "skulk"})
# The two-word ones, read as a pair of words ("first strike", "double strike").
STRIKE_WORDS: frozenset[str] = frozenset({"first", "double"})
# Keywords an effect or static may grant (Effect.keywords / Static.keywords hold bare names).
GRANTABLE_KEYWORDS = SIMPLE_KEYWORDS

# Keyword abilities of CR 702 (lower case; multi-word names included).  A line made
# only of these is a keyword line; those outside SIMPLE_KEYWORDS are unsupported.
KEYWORD_NAMES: frozenset[str] = frozenset("""
deathtouch|defender|double strike|enchant|equip|first strike|flash|flying|haste|hexproof|indestructible|intimidate|
lifelink|protection|reach|shroud|trample|vigilance|ward|banding|bands with other|rampage|cumulative upkeep|flanking|
phasing|buyback|shadow|cycling|echo|horsemanship|fading|kicker|multikicker|flashback|madness|fear|morph|megamorph|
amplify|provoke|storm|affinity|entwine|modular|sunburst|bushido|soulshift|splice|offering|ninjutsu|
commander ninjutsu|epic|convoke|dredge|transmute|bloodthirst|haunt|replicate|forecast|graft|recover|ripple|
split second|suspend|vanishing|absorb|aura swap|delve|fortify|frenzy|gravestorm|poisonous|transfigure|champion|
changeling|evoke|hideaway|prowl|reinforce|conspire|persist|wither|retrace|devour|exalted|unearth|cascade|
annihilator|level up|rebound|totem armor|umbra armor|infect|battle cry|living weapon|undying|miracle|soulbond|
overload|scavenge|unleash|cipher|evolve|extort|fuse|bestow|tribute|dethrone|hidden agenda|double agenda|outlast|
prowess|dash|exploit|menace|renown|awaken|devoid|ingest|myriad|surge|skulk|emerge|escalate|melee|crew|fabricate|
partner|partner with|undaunted|improvise|aftermath|embalm|eternalize|afflict|ascend|assist|jump-start|mentor|
afterlife|riot|spectacle|escape|companion|mutate|encore|boast|foretell|demonstrate|daybound|nightbound|disturb|
decayed|cleave|training|compleated|reconfigure|blitz|casualty|enlist|read ahead|ravenous|squad|space sculptor|
visit|prototype|living metal|more than meets the eye|for mirrodin!|toxic|backup|bargain|craft|disguise|solved|
plot|saddle|spree|freerunning|gift|offspring|impending|exhaust|max speed|start your engines!|harmonize|mobilize|
job select|tiered|station|warp|sneak|landwalk|friends forever|choose a background|doctor's companion|
basic landcycling|landcycling|typecycling|hexproof from|protection from|plainswalk|islandwalk|swampwalk|
mountainwalk|forestwalk|nonbasic landwalk|legendary landwalk|snow landwalk|desertwalk|firebending|web-slinging|
infinity|paradigm|increment|vanishing|afterburner|specialize|class|level|channel|transmute|renew|endure|
""".replace("\n", "").split("|")) - {""}

ABILITY_WORDS: frozenset[str] = frozenset("""
adamant|addendum|alliance|battalion|bloodrush|celebration|channel|chroma|cohort|constellation|converge|corrupted|
council's dilemma|coven|delirium|descend 4|descend 8|domain|eerie|eminence|enrage|fateful hour|fathomless descent|
ferocious|flurry|formidable|grandeur|hellbent|heroic|imprint|inspired|join forces|kinship|landfall|lieutenant|
magecraft|metalcraft|morbid|pack tactics|paradox|parley|radiance|raid|rally|renew|revolt|secret council|
spell mastery|strive|survival|sweep|tempting offer|threshold|undergrowth|valiant|void|will of the council|
""".replace("\n", "").split("|")) - {""}

_IRREGULAR_PLURALS = {"elves": "Elf", "dwarves": "Dwarf", "wolves": "Wolf", "werewolves": "Werewolf",
                      "fungi": "Fungus", "plains": "Plains", "mice": "Mouse", "octopi": "Octopus",
                      "djinn": "Djinn", "efreet": "Efreet", "sheep": "Sheep", "samurai": "Samurai",
                      "ninja": "Ninja", "kor": "Kor", "moonfolk": "Moonfolk", "merfolk": "Merfolk",
                      "kithkin": "Kithkin", "homunculi": "Homunculus", "leonin": "Leonin", "azra": "Azra",
                      "mothfolk": "Mothfolk", "lizardfolk": "Lizardfolk", "vedalken": "Vedalken",
                      "viashino": "Viashino", "aetherborn": "Aetherborn", "naga": "Naga", "sphinxes": "Sphinx",
                      "foxes": "Fox", "allies": "Ally", "zombies": "Zombie", "fairies": "Faerie",
                      "faeries": "Faerie", "harpies": "Harpy", "mercenaries": "Mercenary", "sliver": "Sliver"}

# Lower-case words that are grammar, never a subtype even when capitalised at the start of a sentence.
_GRAMMAR_WORDS = frozenset({
    "each", "all", "other", "another", "target", "enchanted", "equipped", "nonbasic", "basic", "a", "an", "the",
    "you", "your", "lands", "creatures", "until", "if", "when", "whenever", "at", "this", "that", "it", "its",
    "they", "them", "up", "any", "one", "two", "three", "and", "or", "of", "with", "while", "add", "tap",
    "untap", "destroy", "draw", "create", "return", "put", "remove", "sacrifice", "pay", "look", "conjure",
    "nonland", "noncreature", "nonartifact", "nonenchantment", "players", "player", "opponent", "opponents",
    "permanents", "permanent", "card", "cards", "token", "tokens", "spell", "spells", "ability", "abilities",
}) | frozenset(TYPE_WORDS) | frozenset(TYPE_PLURALS) | frozenset(COLOR_WORDS) | frozenset(NUMBER_WORDS)


def singular(word: str) -> str:
    """The singular of a (capitalised) subtype as printed in a plural noun phrase."""
    low = word.lower()
    if low in _IRREGULAR_PLURALS:
        return _IRREGULAR_PLURALS[low]
    if low.endswith("ies") and len(low) > 4:
        return word[:-3] + "y"
    if low.endswith(("xes", "shes", "ches", "sses")):
        return word[:-2]
    if low.endswith("s") and not low.endswith("ss"):
        return word[:-1]
    return word


# --------------------------------------------------------------------------
# The cursor
# --------------------------------------------------------------------------


class Cursor:
    """A position in a token list, with word-sequence matching.

    A pattern element is a lower-case word or symbol body, ``"SELF"`` for a
    self-reference token, or a tuple/set of alternatives.
    """

    __slots__ = ("toks", "i")

    def __init__(self, toks: Sequence[Token], i: int = 0):
        self.toks = toks
        self.i = i

    def peek(self, k: int = 0) -> Token | None:
        j = self.i + k
        return self.toks[j] if 0 <= j < len(self.toks) else None

    def low(self, k: int = 0) -> str | None:
        t = self.peek(k)
        return t.low if t is not None else None

    def done(self) -> bool:
        return self.i >= len(self.toks)

    def end(self) -> None:
        if not self.done():
            raise NoMatch("unexpected words")

    def rest(self) -> list[Token]:
        return list(self.toks[self.i:])

    @staticmethod
    def _one(t: Token | None, p) -> bool:
        if t is None:
            return False
        if p.__class__ is str:
            return t.kind == "SELF" if p == "SELF" else t.low == p
        if "SELF" in p and t.kind == "SELF":
            return True
        return t.low in p

    def at(self, *pattern) -> bool:
        toks, i = self.toks, self.i
        if i + len(pattern) > len(toks):
            return False
        for k, p in enumerate(pattern):
            t = toks[i + k]
            if p.__class__ is str:
                if p == "SELF":
                    if t.kind != "SELF":
                        return False
                elif t.low != p:  # a SELF token's low is "self", never a pattern word
                    return False
            elif t.low not in p and not ("SELF" in p and t.kind == "SELF"):
                return False
        return True

    def take(self, *pattern) -> bool:
        if self.at(*pattern):
            self.i += len(pattern)
            return True
        return False

    def need(self, *pattern) -> None:
        if not self.take(*pattern):
            raise NoMatch("expected words")

    def next(self) -> Token:
        t = self.peek()
        if t is None:
            raise NoMatch("unexpected end")
        self.i += 1
        return t

    def attempt(self, fn: Callable, *args, **kw):
        """``fn(self, …)`` or None, restoring the position when it does not match."""
        save = self.i
        try:
            return fn(self, *args, **kw)
        except NoMatch:
            self.i = save
            return None

    def first(self, *fns: Callable, args: tuple = ()):
        """The result of the first of ``fns`` that matches (each tried from here)."""
        for fn in fns:
            save = self.i
            try:
                return fn(self, *args)
            except NoMatch:
                self.i = save
        raise NoMatch("no alternative matched")


def split_top(toks: Sequence[Token], sep: str) -> list[list[Token]]:
    """Split at ``sep`` punctuation outside double quotes."""
    out: list[list[Token]] = [[]]
    quoted = False
    for t in toks:
        if t.kind == "QUOTE":
            quoted = not quoted
        if t.kind == "PUNCT" and t.low == sep and not quoted:
            out.append([])
        else:
            out[-1].append(t)
    return out


def sentences(toks: Sequence[Token]) -> list[list[Token]]:
    """Sentences of a line (split at periods outside quotes; empty ones dropped)."""
    return [s for s in split_top(toks, ".") if s]


def find_top(toks: Sequence[Token], sep: str) -> int:
    quoted = False
    for i, t in enumerate(toks):
        if t.kind == "QUOTE":
            quoted = not quoted
        if t.kind == "PUNCT" and t.low == sep and not quoted:
            return i
    return -1


def mentions_target(toks: Iterable[Token]) -> bool:
    return any(t.kind == "WORD" and t.low in ("target", "targets") for t in toks)


# --------------------------------------------------------------------------
# Small phrases
# --------------------------------------------------------------------------


def number(c: Cursor, allow_a: bool = False, allow_x: bool = False) -> int | str:
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


# --------------------------------------------------------------------------
# Object descriptions (noun phrases)
# --------------------------------------------------------------------------


@dataclass
class Desc:
    """A noun phrase describing objects or players, before it is mapped to the IR."""

    types: list[str] = field(default_factory=list)
    types_joined_by_or: bool = False
    subtypes: list[str] = field(default_factory=list)
    nontypes: set[str] = field(default_factory=set)
    not_colors: set[str] = field(default_factory=set)
    basic: bool = False
    nonbasic: bool = False
    nonbasic_land_alternative: bool = False  # "artifact, enchantment, or nonbasic land" (CR 205.4c)
    total_pt_max: int | None = None  # "with total power and toughness N or less"
    other: bool = False
    who: str = "any"
    players: bool = False
    player_who: str = "any"
    zone: str = "battlefield"
    card: bool = False
    mv_max: int | None = None
    plural: bool = False
    on_battlefield: bool = False
    compound: bool = False  # a noun with two card types ("artifact creature": both required)
    # qualifiers only a targeting Filter holds (CR 115.1); a Selector refuses them
    colors: set[str] = field(default_factory=set)
    multicolored: bool = False
    colorless: bool = False
    tapped: bool | None = None
    combat: set[str] = field(default_factory=set)
    token: bool | None = None
    legendary: bool = False
    nonlegendary: bool = False
    mv_min: int | None = None
    power_min: int | None = None
    power_max: int | None = None
    toughness_min: int | None = None
    toughness_max: int | None = None
    keywords: set[str] = field(default_factory=set)
    not_keywords: set[str] = field(default_factory=set)
    other_than_self: bool = False

    @property
    def filter_only(self) -> bool:
        """Qualifiers that only :func:`to_filter` can hold."""
        return bool(self.colors or self.multicolored or self.colorless or self.tapped is not None or self.combat
                    or self.token is not None or self.legendary or self.nonlegendary or self.mv_min is not None
                    or self.power_min is not None or self.power_max is not None or self.toughness_min is not None
                    or self.toughness_max is not None or self.keywords or self.not_keywords
                    or self.other_than_self or self.total_pt_max is not None)

    @property
    def ambiguous(self) -> bool:
        """Alternatives whose parts carry different requirements ("Goblin creature or land",
        "artifact creature or enchantment"): no IR filter or selector says that."""
        return self.types_joined_by_or and (bool(self.subtypes) or self.compound)


def _noun(c: Cursor, d: Desc) -> None:
    """One noun of a description: [Subtype…] type | Subtype… | player | opponent."""
    subs: list[str] = []
    while True:
        save = c.i
        try:
            s = subtype_word(c)
        except NoMatch:
            break
        subs.append(s)
        if len(subs) > 2:
            c.i = save
            break
    t = c.peek()
    if t is not None and t.kind == "WORD" and t.low in TYPE_WORDS:
        c.i += 1
        d.types.append(TYPE_WORDS[t.low])
        d.subtypes.extend(subs)
        # "artifact creature": two card types, both required
        t2 = c.peek()
        if t2 is not None and t2.kind == "WORD" and (t2.low in TYPE_WORDS or t2.low in TYPE_PLURALS) and \
                t.low != "permanent":
            c.i += 1
            d.types.append(TYPE_WORDS.get(t2.low) or TYPE_PLURALS[t2.low])
            d.plural = t2.low in TYPE_PLURALS
            d.compound = True
        return
    if t is not None and t.kind == "WORD" and t.low in TYPE_PLURALS:
        c.i += 1
        d.types.append(TYPE_PLURALS[t.low])
        d.subtypes.extend(subs)
        d.plural = True
        return
    if subs:
        last = subs[-1]
        one = singular(last)
        if one != last and one in SUBTYPES:  # a plural: "Elves", "Forests"
            d.plural = True
            last = one
        d.subtypes.extend(subs[:-1] + [last])
        return
    if t is not None and t.kind == "WORD" and t.low in ("card", "cards") and c.low(1) in ("from", "in"):
        c.i += 1  # "target card from a graveyard": a card of any type (the zone follows)
        d.card = True
        d.plural = t.low == "cards"
        return
    if t is not None and t.kind == "WORD" and t.low in ("player", "players"):
        c.i += 1
        d.players = True
        d.plural = t.low == "players"
        return
    if t is not None and t.kind == "WORD" and t.low in ("opponent", "opponents"):
        c.i += 1
        d.players = True
        d.player_who = "opponent"
        d.plural = t.low == "opponents"
        return
    raise NoMatch("noun expected")


def desc(c: Cursor, targeting: bool = False) -> Desc:
    """adjective* noun (("," noun)* ","? "or" noun)? qualifiers*

    ``targeting``: a target's description (CR 115.1): the qualifiers only a
    :class:`~solver.ir.Filter` holds after the noun ("with power 2 or less",
    "with flying", "other than SELF") are read too."""
    d = Desc()
    while True:
        w = c.low()
        t = c.peek()
        if t is None or t.kind != "WORD":
            break
        if w in ("other", "another"):
            d.other = True
        elif w == "basic" and not c.at("basic", "land", "type"):
            d.basic = True
        elif w == "nonbasic":
            d.nonbasic = True
        elif w.startswith("non") and w[3:] in TYPE_WORDS:
            d.nontypes.add(TYPE_WORDS[w[3:]])
        elif w.startswith("non") and w[3:] in COLOR_WORDS:
            d.not_colors.add(COLOR_WORDS[w[3:]])
        elif w in COLOR_WORDS and not d.colors and c.low(1) != "or" and c.low(1) != ",":
            d.colors.add(COLOR_WORDS[w])  # one color: "target red creature" (CR 105.2)
        elif w == "multicolored":
            d.multicolored = True
        elif w == "colorless" and c.low(1) != "mana":
            d.colorless = True
        elif w in ("tapped", "untapped") and d.tapped is None:
            d.tapped = w == "tapped"
        elif w in ("attacking", "blocking"):
            d.combat.add(w)
            if c.at(w, "or", ("attacking", "blocking")):  # "attacking or blocking"
                c.i += 2
                d.combat.add(c.low())
        elif w == "nontoken" and d.token is None:
            d.token = False
        elif w == "legendary":
            d.legendary = True
        elif w == "nonlegendary":
            d.nonlegendary = True
        else:
            break
        c.i += 1
        # "nonartifact, nonblack creature": adjectives may be separated by commas
        if c.at(",") and c.peek(1) is not None and (c.low(1) or "").startswith("non"):
            c.i += 1
    pt = c.peek()
    if targeting and pt is not None and pt.kind == "PT" and re.fullmatch(r"\d+/\d+", pt.text) \
            and d.power_min is None and c.low(1) in ("creature", "creatures"):
        # "target 1/1 creature": exactly that power and toughness (CR 208.1)
        p_, t_ = (int(x) for x in pt.text.split("/"))
        d.power_min = d.power_max = p_
        d.toughness_min = d.toughness_max = t_
        c.i += 1
    _noun(c, d)
    # alternatives: "creature or player", "artifact, creature, or land"
    while c.at(",") and c.peek(1) is not None and (c.low(1) in TYPE_WORDS or c.low(1) in TYPE_PLURALS or c.low(1) == "or"
                                                   or c.at(",", "and", "/", "or")):
        c.i += 1
        if not c.take("and", "/", "or"):   # "artifacts, creatures, and/or lands": each target any of them
            c.take("or")
        _nonbasic_land(c, d)
        _noun(c, d)
        d.types_joined_by_or = True
    if c.at("or") and c.peek(1) is not None and (c.low(1) in TYPE_WORDS or c.low(1) in TYPE_PLURALS or
                                                 c.low(1) in ("player", "players", "opponent", "opponents")
                                                 or c.at("or", "nonbasic", ("land", "lands"))):
        c.i += 1
        _nonbasic_land(c, d)
        _noun(c, d)
        d.types_joined_by_or = True
    # qualifiers
    while True:
        if c.take("card") or c.take("cards"):
            d.card = True
            d.plural = d.plural or c.toks[c.i - 1].low == "cards"  # "creature cards": plural
        elif c.take("with", "mana", "value"):
            n = number(c)
            if c.take("or", "greater"):
                d.mv_min = n  # type: ignore[assignment]
            elif c.take("or", "less"):
                d.mv_max = n  # type: ignore[assignment]
            elif targeting:
                d.mv_min = d.mv_max = n  # type: ignore[assignment]  # "with mana value 2": exactly (CR 202.3)
            else:
                raise NoMatch("mana value bound")
        elif targeting and c.at("with", "total", "power", "and", "toughness") and d.total_pt_max is None:
            c.i += 5
            d.total_pt_max = number(c)  # type: ignore[assignment]  # Cut Down (CR 208)
            c.need("or", "less")
        elif targeting and c.at("with", ("power", "toughness")) and d.power_min is None and d.power_max is None \
                and d.toughness_min is None and d.toughness_max is None:
            c.i += 1
            what = c.next().low
            n = number(c)
            more = c.take("or", "greater")
            if not more:
                c.need("or", "less")
            setattr(d, f"{what}_{'min' if more else 'max'}", n)
        elif targeting and c.at(("with", "without")) and not d.keywords and not d.not_keywords and \
                (c.low(1) in GRANTABLE_KEYWORDS or (c.low(1) in STRIKE_WORDS and c.low(2) == "strike")):
            neg = c.next().low == "without"
            kw = c.next().low
            if kw in STRIKE_WORDS:
                kw += " " + c.next().low
            (d.not_keywords if neg else d.keywords).add(kw)
        elif targeting and c.take("other", "than", "SELF"):
            d.other_than_self = True
        elif c.take("you", "control"):
            d.who = "you"
        elif c.take("an", "opponent", "controls") or c.take("your", "opponents", "control") or \
                c.take("you", "don't", "control"):
            d.who = "opponent"
        elif c.take(("from", "in"), "your", "graveyard"):
            d.zone, d.who = "graveyard", "you"
        elif c.take(("from", "in"), "a", "graveyard"):
            d.zone = "graveyard"
        elif targeting and c.take(("from", "in"), "an", "opponent's", "graveyard"):
            d.zone, d.who = "graveyard", "opponent"  # its owner is an opponent
        elif c.take("on", "the", "battlefield"):
            d.on_battlefield = True
        else:
            break
    return d


def to_selector(d: Desc, attached: bool = False) -> Selector:
    """The IR selector for a description, if the IR can hold all of it."""
    if d.not_colors or d.players or d.zone != "battlefield" or d.mv_max is not None or d.card or d.ambiguous \
            or d.filter_only:
        raise NoMatch("selector cannot hold this description")
    types = [t for t in d.types if t != "Permanent"]
    if d.types_joined_by_or and len(d.types) > 1:
        raise NoMatch("a selector requires all of its types")
    if any(t in ("Instant", "Sorcery") for t in types):
        raise NoMatch("not a permanent")
    return Selector(who=d.who, types=frozenset(types), subtypes=frozenset(d.subtypes), nonbasic=d.nonbasic,
                    basic=d.basic, attached=attached, exclude_self=d.other, nontypes=frozenset(d.nontypes))


def _nonbasic_land(c: Cursor, d: Desc) -> None:
    """"…, or nonbasic land" as the last alternative: only lands can be basic (CR 205.4c), so the
    filter excludes basic objects of every listed type."""
    if c.at("nonbasic", ("land", "lands")) and not d.nonbasic_land_alternative and "Land" not in d.types:
        c.i += 1
        d.nonbasic_land_alternative = True


def to_filter(d: Desc) -> Filter:
    """The IR targeting filter for a description (CR 115.1), if the IR can hold it."""
    if d.other or d.ambiguous or (d.basic and d.nonbasic):
        raise NoMatch("filter cannot hold this description")
    if (d.basic or d.nonbasic) and (d.players or d.types_joined_by_or):
        raise NoMatch("basic/nonbasic qualifies one kind of object")
    if len(d.types) > 1 and not d.types_joined_by_or:
        raise NoMatch("a filter accepts any of its types, not all of them")
    types = set(d.types)
    if d.zone == "graveyard":
        if not d.card or d.players:
            raise NoMatch("graveyard objects are cards")
    elif d.card:
        raise NoMatch("cards outside the graveyard")
    if not types and d.subtypes and not d.players:
        # "target Equipment card in your graveyard": a card of any type with that subtype
        types = set(CARD_TYPES) if d.zone == "graveyard" else {"Permanent"}
    if not types and not d.subtypes and not d.players and d.zone == "graveyard":
        types = set(CARD_TYPES)  # "target card from a graveyard": any card
    if d.players and types and d.player_who != "any":
        raise NoMatch("mixed player and object controllers")
    if d.players and d.who != "any":
        raise NoMatch("players are not controlled")
    who = d.player_who if d.players and not types else d.who
    if "Instant" in types or "Sorcery" in types:
        if d.zone != "graveyard":
            raise NoMatch("spells are not modelled as targets")
    if d.nontypes and (d.players or not types):
        raise NoMatch("'non<type>' qualifies an object")
    if d.filter_only and (d.players or not types):
        raise NoMatch("object qualifiers on players")
    if d.types_joined_by_or and (d.colors or d.multicolored or d.colorless or d.tapped is not None or d.combat
                                 or d.token is not None or d.legendary or d.nonlegendary):
        raise NoMatch("an adjective before alternatives: which nouns it qualifies is not read")
    if (d.tapped is not None or d.combat or d.other_than_self) and d.zone != "battlefield":
        raise NoMatch("tapped/attacking/other qualify permanents")
    return Filter(types=frozenset(types), players=d.players, who=who, not_colors=frozenset(d.not_colors),
                  mv_max=d.mv_max, zone=d.zone, subtypes=frozenset(d.subtypes), nontypes=frozenset(d.nontypes),
                  colors=frozenset(d.colors), multicolored=d.multicolored, colorless=d.colorless,
                  tapped=d.tapped, combat=frozenset(d.combat), token=d.token,
                  supertypes=frozenset({"Legendary"} if d.legendary else set()) | (
                      frozenset({"Basic"}) if d.basic else frozenset()),
                  not_supertypes=frozenset({"Legendary"} if d.nonlegendary else set()) | (
                      frozenset({"Basic"}) if d.nonbasic or d.nonbasic_land_alternative else frozenset()),
                  mv_min=d.mv_min, power_min=d.power_min, power_max=d.power_max,
                  toughness_min=d.toughness_min, toughness_max=d.toughness_max,
                  keywords=frozenset(d.keywords), not_keywords=frozenset(d.not_keywords),
                  other_than_source=d.other_than_self, total_pt_max=d.total_pt_max)


def selector_phrase(c: Cursor) -> Selector:
    """A selector as the subject of a static: [each|all] [enchanted|equipped] desc."""
    c.take(("each", "all"))
    if c.take(("enchanted", "equipped", "fortified")):
        d = desc(c)
        if d.plural or d.who != "any" or d.other:
            raise NoMatch("'enchanted creatures' are not the attached object")
        return to_selector(d, attached=True)
    return to_selector(desc(c))


# --------------------------------------------------------------------------
# Scope: what the sentences of one ability or spell refer to
# --------------------------------------------------------------------------


@dataclass
class Scope:
    """Targets introduced so far (CR 115.1, one per instance of "target"), the
    object last mentioned ("it", "that creature"), and the source's nature."""

    targets: list[TargetSpec] = field(default_factory=list)
    last: Ref | None = None
    source_is_permanent: bool = True
    x_defined: bool = False
    effects: list[Effect] = field(default_factory=list)


def target_phrase(c: Cursor, s: Scope, allow_graveyard: bool = False) -> Ref:
    """"any target", "any other target", "[up to N|N] [other|another] target <desc>" (CR 115.1, 115.6).

    Cards in a graveyard are accepted only where the clause says what happens
    to such a card (``allow_graveyard``)."""
    other = False
    lo = hi = 1
    if c.take("any", "other", "target"):
        filt, other = ANY_TARGET, True
    elif c.take("any", "target"):
        filt = ANY_TARGET
    else:
        if c.take("up", "to"):
            n = number(c)
            lo, hi = 0, n  # type: ignore[assignment]
        elif c.at(("one", "two", "three", "four", "five")) or (c.peek() is not None and c.peek().kind == "NUM"):
            save = c.i
            n = number(c)
            if not c.at(("target", "other")):
                c.i = save
                raise NoMatch("not a target count")
            lo = hi = n  # type: ignore[assignment]
        if c.take("another"):
            other = True
        elif c.take("other"):
            other = True
        c.need("target")
        d = desc(c, targeting=True)
        if d.other:
            other = True
            d.other = False
        if (hi > 1) != d.plural:
            raise NoMatch("number of targets and noun disagree")
        filt = to_filter(d)
        if filt.zone != "battlefield" and not allow_graveyard:
            raise NoMatch("a card in a graveyard here")
    distinct: tuple[int, ...] = ()
    if other:
        if not s.targets:
            raise NoMatch("'other' relative to the source is not modelled")
        if s.source_is_permanent and filt is not ANY_TARGET:
            raise NoMatch("'another target' of a permanent's ability also excludes the source")
        distinct = tuple(range(len(s.targets)))
    s.targets.append(TargetSpec(filt, lo, hi, distinct))
    i = len(s.targets) - 1
    ref = T(i) if hi == 1 else Ref("each_target", i)
    s.last = ref
    return ref


def object_ref(c: Cursor, s: Scope, allow_target: bool = True) -> Ref:
    """SELF | it | that creature | enchanted creature | a target phrase."""
    if c.take("SELF"):
        s.last = SELF
        return SELF
    if c.at(("it", "itself")) or c.at("that", ("creature", "permanent", "land", "artifact")):
        if s.last is None:
            raise NoMatch("'it' without antecedent")
        c.i += 1 if c.low() in ("it", "itself") else 2
        return s.last
    if c.take(("enchanted", "equipped"), ("creature", "permanent", "land")):
        s.last = ATTACHED
        return ATTACHED
    if allow_target:
        return target_phrase(c, s)
    raise NoMatch("object expected")


def keyword_list(c: Cursor) -> tuple[str, ...]:
    """Keywords an effect grants: "flying", "flying and haste", "trample, haste, and flying"."""
    out: list[str] = []
    while True:
        if c.low() in STRIKE_WORDS and c.low(1) == "strike":
            out.append(c.next().low + " strike")
            c.next()
        elif c.low() in GRANTABLE_KEYWORDS and c.peek().kind == "WORD":
            out.append(c.next().low)
        else:
            raise NoMatch("keyword expected")
        if c.at(",") and (c.low(1) in GRANTABLE_KEYWORDS or c.low(1) in STRIKE_WORDS or c.at(",", "and")):
            c.i += 1
            c.take("and")
            continue
        if c.at("and") and (c.low(1) in GRANTABLE_KEYWORDS or (c.low(1) in STRIKE_WORDS and c.low(2) == "strike")):
            c.i += 1
            continue
        return tuple(out)


# --------------------------------------------------------------------------
# Costs (CR 118, 602.1a)
# --------------------------------------------------------------------------


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
        if c.peek() is not None and c.peek().kind == "SYM":
            acc["mana"].extend(mana_run(c))
        else:
            n = number(c)
            c.need("life")
            acc["life"] += n
    elif c.take("sacrifice", "SELF"):
        acc["sacrifice_self"] = True
    elif c.take("sacrifice", ("a", "an", "another")):
        other = c.toks[c.i - 1].low == "another"
        d = desc(c)
        if d.plural:
            raise NoMatch("one permanent")
        d.other = d.other or other
        if d.who == "any":
            d.who = "you"  # CR 701.21a: you can sacrifice only permanents you control
        if acc["sacrifice"] is not None:
            raise NoMatch("two sacrifices")
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
    elif c.take("discard", "your", "hand"):
        acc["discard_hand"] = True  # CR 701.9: every card in the hand (none is fine)
    else:
        raise NoMatch("unknown cost")
    c.end()


def parse_cost(toks: Sequence[Token]) -> Cost:
    """An activation cost: items separated by commas (CR 602.1a)."""
    acc: dict = {"mana": [], "tap": False, "untap": False, "life": 0, "sacrifice_self": False,
                 "sacrifice": None, "remove_counters": None, "tap_other_creatures": 0, "tap_selector": None,
                 "put_counters": None, "discard_hand": False}
    items = split_top(toks, ",")
    if not toks or any(not it for it in items):
        raise NoMatch("empty cost item")
    for it in items:
        cost_item(Cursor(it), acc)
    mana = acc.pop("mana")
    return Cost(mana=mana_cost(mana) if mana else ManaCost(), **acc)


def cost_has_x(cost: Cost) -> bool:
    return cost.mana.x_count > 0


def only_mana_ability_cost(cost: Cost) -> None:
    """Cost parts modelled only for mana abilities (the payment and available-mana
    models): tapping permanents of a kind, putting counters, discarding the hand.
    A non-mana ability with one stays unread (NoMatch)."""
    if cost.tap_selector is not None or cost.put_counters is not None or cost.discard_hand:
        raise NoMatch("a cost part modelled only for mana abilities")


# --------------------------------------------------------------------------
# Mana production (CR 106, 605)
# --------------------------------------------------------------------------


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


SELF_SELECTOR = Selector(self_only=True)


def _counter_word(c: Cursor) -> str:
    """A counter's kind when counting or removing counters: a word or ``+1/+1``/``-1/-1`` (CR 122.1)."""
    t = c.next()
    if t.kind == "PT" and t.text in ("+1/+1", "-1/-1"):
        return t.text
    if t.kind == "WORD" and t.low.isalpha() and t.low not in ("counter", "counters", "a", "an", "the", "x", "any"):
        return t.low
    raise NoMatch("counter kind")


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
    if c.take("an", "amount", "of"):
        m = mana_amount(c)
        c.need("equal", "to")
        return Produce("count", (m,), count=amount_phrase(c, x_cost))
    if x_cost and c.take("that", "much"):
        return Produce("count", (mana_amount(c),), count=Count(SELF_SELECTOR, "x"))
    c.need("x")
    if c.peek() is not None and c.peek().kind == "SYM":  # "X {G} or X {W}"
        opts = [mana_amount(c)]
        while c.take("or", "x") or c.take(",", "or", "x"):
            opts.append(mana_amount(c))
        if len(opts) < 2 or len(set(opts)) != len(opts):
            raise NoMatch("X {A} or X {B}")
        kind, options, letters = "choice", tuple(opts), None
    else:
        c.need("mana")
        if c.take("of", "any", "one", "color"):
            kind, options = "any_color", ()
        elif c.take("in", "any", "combination", "of", "colors"):
            kind, options = "combination", ()
        else:
            c.need("in", "any", "combination", "of")
            kind, options = "combination", _combination_units(c)
    if c.take(",", "where", "x", "is"):
        count = amount_phrase(c, x_cost)
    elif x_cost:
        count = Count(SELF_SELECTOR, "x")
    else:
        raise NoMatch("X not defined")
    return Produce(kind, options, count=count)


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
            return Produce("count", (first,), count=Count(count.selector, count.what, count.counter, plus=1))
        if c.take("for", "each"):
            if not triggered:
                save = c.i
                try:
                    count = _for_each_counter(c, x_cost)
                    c.end()
                    return Produce("count", (first,), count=count)
                except NoMatch:
                    c.i = save
                if (cards := c.attempt(_graveyard_cards, False)) is not None:
                    return Produce("count", (first,), count=cards)
            d = desc(c)
            if d.plural:
                raise NoMatch("'for each' takes a singular noun")
            if not triggered and c.take("with", "power"):  # "creature with power 4 or greater you control"
                n = number(c)
                c.need("or", "greater")
                if d.who == "any" and c.take("you", "control"):
                    d.who = "you"
                return Produce("count", (first,), count=Count(to_selector(d), min_power=n))
            if not triggered and c.take("with"):  # "for each creature you control with defender"
                kw = c.next().low
                if kw not in SIMPLE_KEYWORDS:
                    raise NoMatch("with <keyword>")
                return Produce("count", (first,), count=Count(to_selector(d), keyword=kw))
            if not triggered and c.take("named", "SELF"):  # "for each artifact you control named ~"
                return Produce("count", (first,), count=Count(to_selector(d), same_name=True))
            return Produce("count", (first,), count=Count(to_selector(d)))
        opts = [first]
        while c.at(",") and c.peek(1) is not None and c.peek(1).kind == "SYM":
            c.i += 1
            opts.append(mana_amount(c))
        if (c.at(",", "or") or c.at("or")) and (chosen := c.attempt(_or_chosen_color)) is not None:
            return Produce("chosen_color", tuple(opts), amount=chosen)
        if c.take(",", "or") or (len(opts) == 1 and c.take("or")):
            opts.append(mana_amount(c))
        elif len(opts) > 1:
            raise NoMatch("list without 'or'")
        if len(opts) == 1:
            return Produce("fixed", (first,))
        if len(set(opts)) != len(opts):
            raise NoMatch("repeated option")
        return Produce("choice", tuple(opts))
    n = number(c)
    if not isinstance(n, int) or n < 1:
        raise NoMatch("amount expected")
    t = c.peek()
    if n >= 2 and t is not None and t.kind == "SYM":  # "Add six {G}" (Castle Garenbrig)
        m = mana_amount(c)
        return Produce("fixed", (m.scale(n),))
    c.need("mana")
    if n >= 2 and c.take("of", "different", "colors"):
        return Produce("different_colors", amount=n)
    if c.take("of", "the", "chosen", "color"):
        return Produce("chosen_color", amount=n)
    if c.take("in", "any", "combination", "of", "colors"):
        return Produce("combination", amount=n)
    if c.take("in", "any", "combination", "of"):
        # every multiset of n of those types
        letters = [t for p in _combination_units(c) for t in p.types()]
        return Produce("choice", _combinations(n, letters))
    c.need("of", "any")
    if n > 1:
        c.need("one", "color")
        return Produce("any_color", amount=n)
    one = c.take("one")
    kind = c.next().low
    if kind not in ("color", "type"):
        raise NoMatch("color or type")
    of_type = kind == "type"
    if c.done():
        return Produce("any_type" if of_type else "any_color")
    if one:
        raise NoMatch("'any one color' then more words")
    if not of_type and c.take("among", "legendary", "creature", "cards", "in", "your", "graveyard"):
        c.end()  # The Grey Havens
        return Produce("among_colors", among=(Filter(types=frozenset({"Creature"}), supertypes=frozenset({"Legendary"}),
                                                     who="you", zone="graveyard"),))
    if not of_type and c.take("among"):
        among = _among_you_control(c)
        c.end()
        return Produce("among_colors", among=among)
    if c.take("that", ("land", "permanent"), "produced"):
        if not triggered or not of_type:
            raise NoMatch("'that land produced' belongs to a triggered mana ability")
        return Produce("that_land_produced")
    if c.take("the", "sacrificed") or c.take("that", "the", "sacrificed"):
        d = desc(c)
        c.need("could", "produce")
        if d.types != ["Land"] or d.subtypes or d.who != "any":
            raise NoMatch("sacrificed land")
        return Produce("sacrificed_could_produce", of_type=of_type)
    c.need("that")
    c.need(("a", "an"))
    d = desc(c)
    c.need("could", "produce")
    return Produce("could_produce", selector=to_selector(d), of_type=of_type)


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
    if triggered:
        c.take("that", "player") or c.take("its", "controller") or c.take("you")
    c.need(("add", "adds"))
    p = produce(c, triggered, x_cost)
    c.end()
    return p


# --------------------------------------------------------------------------
# Effects (CR 608): clauses and sentences
# --------------------------------------------------------------------------


def amount(c: Cursor, s: Scope, allow_a: bool = False) -> int | str:
    n = number(c, allow_a=allow_a, allow_x=True)
    if n == "X" and not s.x_defined:
        raise NoMatch("X not defined by a cost")
    return n


def clause_damage(c: Cursor, s: Scope) -> list[Effect]:
    """SELF deals N damage to <target|you> [and N damage to <target>]* (CR 120)."""
    if not (c.take("SELF") or (c.at("it") and s.last == SELF and c.take("it"))):
        raise NoMatch("damage source")
    c.need(("deals", "deal"))
    out = []
    while True:
        n = amount(c, s)
        c.need("damage", "to")
        if c.take("you"):
            ref = CONTROLLER
        else:
            ref = target_phrase(c, s)
        out.append(Effect("damage", ref, amount=n))
        if c.at("and") and (c.peek(1) is not None and (c.peek(1).kind == "NUM" or c.low(1) == "x")):
            c.i += 1
            continue
        return out


def clause_destroy(c: Cursor, s: Scope) -> list[Effect]:
    """destroy <target> [and <target>]* (CR 701.8)."""
    c.need("destroy")
    out = [Effect("destroy", object_ref(c, s))]
    while c.at("and", ("target", "up", "another", "any")):
        c.i += 1
        out.append(Effect("destroy", target_phrase(c, s)))
    return out


def clause_pump(c: Cursor, s: Scope) -> list[Effect]:
    """<object> [each] gets +N/+N [and gains <kw>] until end of turn; <object> gains <kw> until end of turn."""
    ref = object_ref(c, s)
    each = c.take("each")
    if each and ref.kind != "each_target":
        raise NoMatch("'each' with one object")
    p = q = 0
    kws: tuple[str, ...] = ()
    if c.take(("gets", "get")):
        p, q = pt(c)
        if c.take("and", ("gains", "gain")):
            kws = keyword_list(c)
    elif c.take(("gains", "gain")):
        kws = keyword_list(c)
    else:
        raise NoMatch("gets or gains")
    c.need("until", "end", "of", "turn")
    return [Effect("pump", ref, power=p, toughness=q, keywords=kws)]


def clause_player_draws(c: Cursor, s: Scope) -> list[Effect]:
    """<target player | each player | each opponent> draws N cards / mills N cards;
    you mill N cards (CR 121, 701.17)."""
    if c.take("you", "mill"):
        ref, verb = None, "mills"
    else:
        ref = _player_ref(c, s)
        verb = c.next().low
    if verb not in ("draws", "mills"):
        raise NoMatch("draws or mills")
    if c.take("a", "card"):
        n: int | str | Count = 1
    else:
        n = amount(c, s)
        c.need("cards")
    return [Effect("draw" if verb == "draws" else "mill", ref, amount=n)]


def clause_draw(c: Cursor, s: Scope) -> list[Effect]:
    c.take("you")
    c.need("draw")
    if c.take("a", "card"):
        return [Effect("draw", amount=1)]
    n = amount(c, s)
    c.need("cards")
    return [Effect("draw", amount=n)]


def clause_gain_life(c: Cursor, s: Scope) -> list[Effect]:
    c.need("you", "gain")
    n = amount(c, s)
    c.need("life")
    return [Effect("gain_life", amount=n)]


def _player_ref(c: Cursor, s: Scope) -> Ref:
    """A player an effect names: "target player", "target opponent", "each opponent", "each player"."""
    if c.take("each", "opponent"):
        return Ref("each_opponent")
    if c.take("each", "player"):
        return Ref("each_player")
    if c.at("target", ("player", "opponent")):
        c.i += 1
        who = "opponent" if c.next().low == "opponent" else "any"
        s.targets.append(TargetSpec(Filter(types=frozenset(), players=True, who=who), 1, 1, ()))
        ref = T(len(s.targets) - 1)
        s.last = ref
        return ref
    if c.at(("draws", "mills", "gains", "loses")) and s.last is not None and s.last.kind == "target" and \
            s.targets[s.last.index].filter.players and not s.targets[s.last.index].filter.types:
        return s.last  # "Target player draws two cards and loses 2 life": the same player
    raise NoMatch("a player")


def clause_player_life(c: Cursor, s: Scope) -> list[Effect]:
    """<target player | target opponent | each opponent | each player> gains/loses N life (CR 119.3)."""
    ref = _player_ref(c, s)
    verb = c.next().low
    if verb not in ("gains", "loses"):
        raise NoMatch("gains or loses")
    n = amount(c, s)
    c.need("life")
    return [Effect("gain_life" if verb == "gains" else "lose_life", ref, amount=n)]


def clause_look_hand(c: Cursor, s: Scope) -> list[Effect]:
    """look at target player's hand."""
    c.need("look", "at", "target")
    t = c.next()
    if t.low == "player's":
        filt = Filter(players=True)
    elif t.low == "opponent's":
        filt = Filter(players=True, who="opponent")
    else:
        raise NoMatch("player's hand")
    c.need("hand")
    s.targets.append(TargetSpec(filt))
    ref = T(len(s.targets) - 1)
    return [Effect("look_hand", ref)]


_TOKEN_TYPES = {"artifact": "Artifact", "creature": "Creature", "enchantment": "Enchantment", "land": "Land"}


def clause_tokens(c: Cursor, s: Scope) -> list[Effect]:
    """create <N> <P/T> <colors> <Subtypes> <types> token(s) [with <keywords>] [for each +1/+1 counter on SELF]."""
    c.need("create")
    n = amount(c, s, allow_a=True)
    p, q = pt(c, signed=False)
    colors: list[str] = []
    if c.take("colorless"):
        pass
    else:
        colors.append(color_word(c))
        while c.take("and") or (c.at(",") and c.take(",")):
            colors.append(color_word(c))
    subs: list[str] = []
    while True:
        try:
            subs.append(subtype_word(c))
        except NoMatch:
            break
    types: list[str] = []
    while c.low() in _TOKEN_TYPES:
        types.append(_TOKEN_TYPES[c.next().low])
    if not subs or "Creature" not in types:
        raise NoMatch("creature token with a subtype")
    c.need("token" if n == 1 else "tokens")
    kws: tuple[str, ...] = ()
    if c.take("with"):
        kws = keyword_list(c)
    if c.take("for", "each"):
        if n != 1:
            raise NoMatch("'for each' with a count")
        c.need(("+1/+1",), "counter", "on", "SELF")
        n = "counters:+1/+1"
    token = (("name", " ".join(subs)), ("types", tuple(types)), ("subtypes", tuple(subs)), ("power", p),
             ("toughness", q), ("keywords", kws), ("colors", tuple(x for x in COLORS if x in colors)))
    return [Effect("tokens", amount=n, token=token)]


def clause_return(c: Cursor, s: Scope) -> list[Effect]:
    """return <target card in your graveyard> to the battlefield."""
    c.need("return")
    ref = target_phrase(c, s, allow_graveyard=True)
    spec = s.targets[ref.index]
    if spec.filter.zone != "graveyard" or ref.kind != "target":
        raise NoMatch("return from a graveyard")
    c.need("to", "the", "battlefield")
    return [Effect("return_to_battlefield", ref)]


def _to_owners_hand(c: Cursor, graveyard: bool) -> None:
    """"to its owner's hand" (a permanent) / "to your hand" (a card in your graveyard)."""
    if c.take("to", "its", "owner's", "hand") or c.take("to", "their", "owners'", "hands"):
        return
    if graveyard and c.take("to", "your", "hand"):
        return
    raise NoMatch("to its owner's hand")


def clause_exile(c: Cursor, s: Scope) -> list[Effect]:
    """exile <permanent> / exile <target card from a graveyard> (CR 406.2, 701.13? — exile is a
    zone change to the exile zone). "Exile … until …" (a duration) is not this template."""
    c.need("exile")
    save = c.i
    try:
        ref = object_ref(c, s)
    except NoMatch:
        c.i = save
        ref = target_phrase(c, s, allow_graveyard=True)
    if c.at("until") or c.at("instead") or c.at("face", "down") or c.at("with"):
        raise NoMatch("exile with a duration or a rider")
    return [Effect("exile", ref)]


def clause_return_to_hand(c: Cursor, s: Scope) -> list[Effect]:
    """return <permanent> to its owner's hand / return <target card in your graveyard> to your hand."""
    c.need("return")
    save = c.i
    try:
        ref = object_ref(c, s)
        graveyard = False
    except NoMatch:
        c.i = save
        ref = target_phrase(c, s, allow_graveyard=True)
        graveyard = s.targets[ref.index].filter.zone == "graveyard" if ref.kind == "target" else False
    _to_owners_hand(c, graveyard)
    return [Effect("return_to_hand", ref)]


def _spell_filter(c: Cursor) -> Filter:
    """"spell", "creature spell", "noncreature spell", "instant or sorcery spell",
    "artifact or enchantment spell" (the object of "counter target …"): a spell
    on the stack, CR 115.1 / 701.6a. The pseudo-type ``Spell`` is any spell."""
    types: list[str] = []
    non: list[str] = []
    while True:
        t = c.peek()
        if t is None or t.kind != "WORD":
            raise NoMatch("spell description")
        if t.low == "spell":
            c.i += 1
            break
        if t.low.startswith("non") and t.low[3:] in TYPE_WORDS and t.low[3:] != "permanent":
            non.append(TYPE_WORDS[t.low[3:]])
        elif t.low in TYPE_WORDS and t.low != "permanent":
            types.append(TYPE_WORDS[t.low])
        elif t.low not in ("or", ","):
            raise NoMatch("spell description")
        c.i += 1
    if non and types:
        raise NoMatch("mixed spell description")
    return Filter(types=frozenset(types or ["Spell"]), zone="stack", nontypes=frozenset(non))


def clause_skip_untap(c: Cursor, s: Scope) -> list[Effect]:
    """<it | that creature | those creatures | target …> doesn't untap during its controller's next
    untap step (CR 502.3; the object key ``skip_untap``). "… for as long as …" is not this template."""
    if c.take("those", ("creatures", "permanents", "lands")):
        if s.last is None or s.last.kind != "each_target":
            raise NoMatch("'those' without a plural antecedent")
        ref = s.last
    else:
        ref = object_ref(c, s)
    c.need(("doesn't", "don't"), "untap", "during")
    if not (c.take(("its", "their"), ("controller's", "controllers'"), "next", "untap", "step")
            or (ref == SELF and c.take("your", "next", "untap", "step"))):
        raise NoMatch("next untap step")
    return [Effect("skip_untap", ref)]


def clause_counter(c: Cursor, s: Scope) -> list[Effect]:
    """counter target [<types>] spell (CR 701.6a: it goes to its owner's graveyard).
    "… unless its controller pays …" is not this template."""
    c.need("counter", "target")
    filt = _spell_filter(c)
    if not c.done() and not c.at(".") and not c.at(",") and not c.at("and"):
        raise NoMatch("counter with a rider")
    s.targets.append(TargetSpec(filt, 1, 1, ()))
    ref = T(len(s.targets) - 1)
    s.last = ref
    return [Effect("counter", ref)]


def clause_tap(c: Cursor, s: Scope) -> list[Effect]:
    w = c.next().low
    if w not in ("tap", "untap"):
        raise NoMatch("tap/untap")
    ref = object_ref(c, s)
    return [Effect(w, ref)]


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


def clause_counters(c: Cursor, s: Scope) -> list[Effect]:
    """put <N> <kind> counter(s) on <object>."""
    c.need("put")
    n = amount(c, s, allow_a=True)
    kind = counter_kind(c)
    c.need("counter" if n == 1 else "counters")
    c.need("on")
    ref = object_ref(c, s)
    if ref.kind == "each_target":
        raise NoMatch("counters on several targets")
    return [Effect("counters", ref, amount=n, counter=kind)]


def clause_fight(c: Cursor, s: Scope) -> list[Effect]:
    """[have] <object> fight(s) <target creature> (CR 701.14)."""
    have = c.take("have")
    a = object_ref(c, s)
    c.need("fight" if have else "fights")
    b = target_phrase(c, s)
    spec = s.targets[b.index]
    if spec.filter.types != frozenset({"Creature"}) or spec.filter.players:
        raise NoMatch("fight a creature")
    return [Effect("fight", a, other=b)]


def clause_conjure(c: Cursor, s: Scope) -> list[Effect]:
    """conjure <N> card(s) named <Name> into your library|hand [, then shuffle] (digital, see rules §1.12)."""
    c.need("conjure")
    n = amount(c, s, allow_a=True)
    c.need("card" if n == 1 else "cards", "named")
    words = []
    while not c.at("into") and not c.done():
        t = c.next()
        words.append(t)
    if not words:
        raise NoMatch("name")
    name = " ".join(t.text for t in words)
    if any(t.kind == "SELF" for t in words):
        raise NoMatch("conjuring itself")
    c.need("into", "your")
    zone = c.next().low
    if zone not in ("library", "hand"):
        raise NoMatch("zone")
    shuffle = zone == "library" and c.take(",", "then", "shuffle")
    if zone == "library" and not shuffle:
        raise NoMatch("position in library")
    return [Effect("conjure", amount=n, card=name, zone=zone, shuffle=shuffle)]


def clause_until_eot(c: Cursor, s: Scope) -> list[Effect]:
    """until end of turn, <replacement effect on mana> (a continuous effect from a resolving object)."""
    c.need("until", "end", "of", "turn", ",")
    r = mana_replacement(c)
    return [Effect("continuous", granted=r)]


CLAUSES: tuple[tuple[str, Callable[[Cursor, Scope], list[Effect]]], ...] = (
    ("damage", clause_damage), ("destroy", clause_destroy), ("draw", clause_draw),
    ("gain life", clause_gain_life), ("look at hand", clause_look_hand), ("create tokens", clause_tokens),
    ("return to battlefield", clause_return), ("return to hand", clause_return_to_hand), ("exile", clause_exile),
    ("counter spell", clause_counter), ("player life", clause_player_life), ("skip untap", clause_skip_untap),
    ("player draws or mills", clause_player_draws),
    ("tap/untap", clause_tap), ("put counters", clause_counters),
    ("fight", clause_fight), ("conjure", clause_conjure), ("until end of turn", clause_until_eot),
    ("pump", clause_pump),
)


def clause(c: Cursor, s: Scope) -> list[Effect]:
    for _name, fn in CLAUSES:
        save, ntargets, last = c.i, len(s.targets), s.last
        try:
            return fn(c, s)
        except NoMatch:
            c.i = save
            del s.targets[ntargets:]
            s.last = last
    raise NoMatch("no clause")


def effect_sentence(toks: Sequence[Token], s: Scope) -> list[Effect]:
    """One sentence of instructions: ["you may"] clause ((", then" | "and" | "then") clause)*."""
    c = Cursor(toks)
    if c.at(("they", "it"), "can't", "be", "regenerated"):
        c.i += 4
        c.end()
        if not any(e.kind == "destroy" for e in s.effects):
            raise NoMatch("nothing to regenerate")
        s.effects[:] = [replace(e, keywords=e.keywords + ("can't be regenerated",))
                        if e.kind == "destroy" and "can't be regenerated" not in e.keywords else e
                        for e in s.effects]
        return []
    optional = c.take("you", "may")
    out = clause(c, s)
    while not c.done():
        if not (c.take(",", "then") or c.take("then") or c.take("and") or c.take(",", "and")):
            raise NoMatch("unexpected words")
        out.extend(clause(c, s))
    if optional:
        out = [replace(e, optional=True) for e in out]
    s.effects.extend(out)
    return out


def effect_text(sents: Sequence[Sequence[Token]], s: Scope) -> list[Effect]:
    for st in sents:
        effect_sentence(st, s)
    return list(s.effects)


# --------------------------------------------------------------------------
# Replacement effects and statics (CR 614, 604, 613)
# --------------------------------------------------------------------------


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
        if c.peek() is not None and c.peek().kind == "PT":
            kind = counter_kind(c)
        c.need("counters", "on", ("a", "an"))
        sel = to_selector(desc(c))
        c.need(",", "it", "puts", "twice", "that", "many", "of", "those", "counters", "on", "that")
        c.next()
        c.need("instead")
        c.end()
        return CounterReplacement(sel, "double", counter=kind)
    c.need("one", "or", "more")
    kind = counter_kind(c) if c.peek() is not None and c.peek().kind == "PT" else ""
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
    kind, n = "", 0
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
    if c.take(*_IN_ADDITION):
        c.need(("its", "their"), "other")
        c.take(("land", "creature", "card"))
        c.need("types")
        return True
    return False


def selector_static(c: Cursor, ctx: "LineContext") -> Static:
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
            return Static("add_types", sel, all_basic=True)
        t = c.peek()
        if t is not None and t.low in COLOR_WORDS:
            col = color_word(c)
            c.end()
            return Static("set_color", sel, color=frozenset({col}))
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
            return Static("add_types" if addition else "set_land_types", sel, subtypes=frozenset({sub}))
        return Static("add_types", sel, subtypes=frozenset({sub}))
    p = q = 0
    kws: tuple[str, ...] = ()
    if c.take(("gets", "get")):
        p, q = pt(c)
        if c.take("and", ("has", "have")):
            kws = keyword_list(c)
    else:
        c.need(("has", "have"))
        if c.at('"'):
            c.i += 1
            inner = []
            while not c.at('"'):
                inner.append(c.next())
            c.i += 1
            c.end()
            return Static("grant", sel, granted=read_quoted(inner, ctx))
        kws = keyword_list(c)
    c.end()
    return Static("pump", sel, power=p, toughness=q, keywords=kws)


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
    return Static("must_target", subtypes=frozenset({sub}), battlefield_only=bf)


def player_subtype(c: Cursor) -> Static:
    """"You are a Flagbearer." (a player with a subtype)."""
    c.need("you", "are", ("a", "an"))
    sub = subtype_word(c)
    c.end()
    return Static("player_subtype", subtypes=frozenset({sub}))


def player_keyword(c: Cursor) -> Static:
    """"You have hexproof." / "You have shroud." (CR 702.11d, 702.18b)."""
    c.need("you", "have")
    kw = c.next().low
    if kw not in ("hexproof", "shroud"):
        raise NoMatch("a player keyword")
    c.end()
    return Static("player_keyword", keywords=(kw,))


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
        return Static("attack_tax", amount=int(t.low))
    if c.take("all", "creatures", "able", "to", "block"):
        sel = _combat_subject(c)
        c.need("do", "so")
        return Static("lure", sel)
    sel = _combat_subject(c)
    if c.take("can't", "block", "and", "can't", "be", "blocked"):
        raise _Both(["cant_block", "unblockable"], sel)
    if c.take("can't", "be", "blocked"):
        if c.done():
            return Static("unblockable", sel)
        if c.take("by", "more", "than", "one", "creature"):
            return Static("max_blockers", sel, amount=1)
        if c.take("by", "creatures", "with", "power"):
            n = number(c)
            kind = "unblockable_power_le" if c.take("or", "less") else "unblockable_power_ge" \
                if c.take("or", "greater") else None
            if kind is None or not isinstance(n, int):
                raise NoMatch("power N or less/greater")
            return Static(kind, sel, amount=n)
        if c.take("except", "by"):
            if c.at(("two", "three", "four", "five")) or c.peek() is not None and c.peek().kind == "NUM":
                n = number(c)
                c.need("or", "more", "creatures")
                if not isinstance(n, int) or n < 2:
                    raise NoMatch("a number")
                return Static("min_blockers", sel, amount=n)
            return _blocker_filter(c, "blockable_only_by", sel)
        c.need("by")
        return _blocker_filter(c, "unblockable_by", sel)
    if c.take("can't", "block", "creatures", "with", "power"):
        n = number(c)
        kind = "cant_block_power_le" if c.take("or", "less") else "cant_block_power_ge" \
            if c.take("or", "greater") else None
        if kind is None or not isinstance(n, int):
            raise NoMatch("power N or less/greater")
        return Static(kind, sel, amount=n)
    if c.take("can't", "attack", "unless", "defending", "player", "controls", ("a", "an")):
        t = c.next()
        if t.text not in BASIC_TYPES:
            raise NoMatch("a basic land type")
        return Static("attack_needs_defender_land", sel, subtypes=frozenset({t.text}))
    if c.take("must", "be", "blocked", "if", "able"):
        return Static("must_be_blocked", sel)
    if c.take("can", "block", "any", "number", "of", "creatures"):
        return Static("block_any_number", sel)
    if c.take("can", "block", "an", "additional", "creature", "each", "combat"):
        return Static("block_additional", sel, amount=1)
    if c.take("can", "block", "only", "creatures", "with", "flying"):
        return Static("block_only_flying", sel)
    if c.take("can't"):
        kinds = ["cant_attack"] if c.take("attack") else ["cant_block"] if c.take("block") else []
        if not kinds:
            raise NoMatch("can't attack/block")
        if kinds == ["cant_attack"] and c.take("or", "block"):
            kinds.append("cant_block")
        if c.take("alone"):
            kinds = [k + "_alone" for k in kinds]
        if len(kinds) == 2:
            raise _Both(kinds, sel)
        return Static(kinds[0], sel)
    if c.take("attacks", "each", "combat", "if", "able"):
        return Static("must_attack", sel)
    if c.take("blocks", "each", "combat", "if", "able"):
        return Static("must_block", sel)
    if c.take("attacks", "or", "blocks", "each", "combat", "if", "able"):
        raise _Both(["must_attack", "must_block"], sel)
    raise NoMatch("combat static")


def _blocker_filter(c: Cursor, kind: str, sel: Selector) -> Static:
    """Blockers described after "by": "creatures with flying [or reach]", "<color> creatures",
    "<Subtypes>" (Walls). Stored in ``keywords`` / ``color`` / ``subtypes`` (any of them matches)."""
    if c.take("creatures", "with"):
        kws = [c.next().low]
        while c.take("or"):
            kws.append(c.next().low)
        if any(k not in ("flying", "reach") for k in kws):
            raise NoMatch("flying or reach")
        return Static(kind, sel, keywords=tuple(kws))
    t = c.peek()
    if t is not None and t.low in COLOR_WORDS:
        col = color_word(c)
        c.need("creatures")
        return Static(kind, sel, color=frozenset({col}))
    sub = subtype_word(c)
    one = singular(sub)
    if one == sub or not is_subtype(one):
        raise NoMatch("a plural subtype")
    return Static(kind, sel, subtypes=frozenset({one}))


class _Both(Exception):
    """Two combat statics from one sentence ("can't attack or block")."""

    def __init__(self, kinds: list[str], sel: Selector):
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
        return [Static(k, both.sel, text=raw) for k in both.kinds]


def activate_as_haste(c: Cursor) -> Static:
    c.need("you", "may", "activate", "abilities", "of")
    sel = to_selector(desc(c))
    c.need("as", "though", "those")
    c.next()
    c.need("had", "haste")
    c.end()
    return Static("activate_as_haste", sel)


# --------------------------------------------------------------------------
# Line context and results
# --------------------------------------------------------------------------


@dataclass
class LineContext:
    """What a line template knows about the card."""

    x_in_cost: bool = False
    is_spell: bool = False  # instant or sorcery: lines are the spell's instructions
    keywords: frozenset[str] = frozenset()  # MTGJSON's keyword names, lower case
    spell_scope: Scope | None = None


@dataclass
class LineResult:
    """The meaning of one line: the template that read it and its parts."""

    template: str | None
    abilities: list[Ability]
    spell_effects: bool = False  # the line added targets/effects to the spell
    unread: int = 0  # sentences read only for their structure (Effect(kind="unread"), reader/structure.py)


def unsupported(what: str, raw: str) -> Unsupported:
    return Unsupported(what=what, text=raw, kind=ability_kind_of_line(raw))


def _rider_or_fail(ability: Ability, rest: Sequence[Sequence[Token]], raw: str) -> list[Ability]:
    """The ability plus an unsupported rider for sentences not read (see module docstring)."""
    if not rest:
        return [ability]
    toks = [t for st in rest for t in st]
    if mentions_target(toks):
        raise NoMatch("rider with targets")
    # a rider is part of the ability before it, not an ability of its own: kind "rider" keeps
    # the {object, index} numbering of activated abilities right
    return [ability, Unsupported("rider: " + ". ".join(template(st) for st in rest), raw, "rider")]


# --------------------------------------------------------------------------
# Mana spending restrictions (CR 106.6)
# --------------------------------------------------------------------------

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
    """The filters (any of) for adjectives + nouns (see :class:`~solver.ir.Filter`)."""
    common = dict(zone=zone, nontypes=frozenset(non), colorless="colorless" in adjs,
                  multicolored="multicolored" in adjs,
                  supertypes=frozenset({"Legendary"}) if "legendary" in adjs else frozenset())
    if not nouns:
        return (Filter(**common),)
    if all(s is None for s, _ in nouns):
        return (Filter(types=frozenset(t for _, t in nouns), **common),)
    if all(t is None for _, t in nouns):
        return (Filter(subtypes=frozenset(s for s, _ in nouns), **common),)
    return tuple(Filter(types=frozenset({t}) if t else frozenset(), subtypes=frozenset({s}) if s else frozenset(),
                        **common) for s, t in nouns)


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
    chosen type", "with mana value N or greater", "with {X} in its/their mana
    cost(s)", "from your graveyard", "from exile" (the zone it is cast from)."""
    q: dict = {}
    while True:
        if "chosen_type" not in q and c.take("of", "the", "chosen", "type"):
            q["chosen_type"] = True
        elif "mv_min" not in q and c.at("with", "mana", "value"):
            save = c.i
            c.i += 3
            n = c.attempt(number)
            if not isinstance(n, int) or not c.take("or", "greater"):
                c.i = save
                break
            q["mv_min"] = n
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


# --------------------------------------------------------------------------
# Line templates
# --------------------------------------------------------------------------


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
    t = c.peek()
    if t.kind == "WORD" and t.low.endswith("walk") and t.low[:-4].capitalize() in BASIC_TYPES and len(toks) == 1:
        return [Keyword("landwalk", t.low[:-4].capitalize())]
    if len(toks) == 2 and first in STRIKE_WORDS and toks[1].low == "strike":  # first / double strike
        return [Keyword(first + " strike")]
    c.i = 0
    if len(toks) == 1 and t.kind == "WORD" and t.low in SIMPLE_KEYWORDS:
        return [Keyword(t.low)]
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


def line_keywords(toks: Sequence[Token], ctx: LineContext, raw: str) -> list[Ability]:
    """A keyword line: keywords separated by commas or semicolons (CR 702)."""
    items: list[list[Token]] = []
    for part in split_top(toks, ";"):
        items.extend(split_top(part, ","))
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


def _controlled(c: Cursor) -> ActivationCondition:
    """After "you control": "a Swamp or a Mountain", "an artifact", "five or more
    lands", "a creature with power 4 or greater" (Ferocious)."""
    if c.take("a", "creature", "with", "power"):
        n = number(c)
        c.need("or", "greater")
        return ActivationCondition("control_power", n=n)
    save = c.i
    n = c.attempt(number)
    if isinstance(n, int) and c.take("or", "more", "lands", "with", "the", "same", "name"):
        return ActivationCondition("same_name_lands", n=n)
    c.i = save
    if c.peek() is not None and c.low() not in ("a", "an"):
        n = number(c)
        c.need("or", "more")
        d = desc(c)
        if not d.plural or d.who != "any":
            raise NoMatch("N or more <permanents>")
        d.who = "you"
        return ActivationCondition("control", to_selector(d), n=n)
    descs = []
    while True:
        c.need(("a", "an"))
        d = desc(c)
        if d.plural or d.who != "any":
            raise NoMatch("a <permanent>")
        d.who = "you"
        descs.append(d)
        if not c.take("or"):
            break
    if len(descs) == 1:
        return ActivationCondition("control", to_selector(descs[0]))
    if any(d.types or d.nontypes or d.basic or d.nonbasic or d.other or len(d.subtypes) != 1 for d in descs):
        raise NoMatch("alternatives other than subtypes")  # "a Swamp or a Mountain": any of the subtypes
    return ActivationCondition("control", Selector(who="you", subtypes=frozenset(s for d in descs for s in d.subtypes)))


def _activation_if(c: Cursor) -> ActivationCondition:
    """One condition after "Activate only if" (CR 602.5b)."""
    if c.take("you", "control"):
        return _controlled(c)
    if c.take("SELF", "entered", "this", "turn"):
        return ActivationCondition("entered_this_turn")
    if c.take("there", "is", ("a", "an")):  # "there is an Elf card in your graveyard"
        sub = subtype_word(c)
        c.need("card", "in", "your", "graveyard")
        return ActivationCondition("graveyard_card", Selector(subtypes=frozenset({sub})))
    if c.take("creatures", "you", "control", "have", "total", "power"):  # Formidable
        n = number(c)
        c.need("or", "greater")
        return ActivationCondition("total_power", n=n)
    if c.take("an", "opponent", "has"):  # Corrupted
        n = number(c)
        c.need("or", "more", "poison", "counters")
        return ActivationCondition("opponent_poison", n=n)
    if c.take("SELF", "is", "a", "creature"):
        return ActivationCondition("is_creature")
    if c.take("there", ("are", "is")):
        n = number(c, allow_a=True)
        if not c.take("or", "more") and n != 1:
            raise NoMatch("N or more counters")
        kind = _counter_word(c)
        c.need(("counter", "counters"), "on", "SELF")
        return ActivationCondition("counters", n=n, counter=kind)
    if c.take("SELF", "has"):
        n = number(c, allow_a=True)
        if not c.take("or", "more") and n != 1:
            raise NoMatch("N or more counters")
        kind = _counter_word(c)
        c.need(("counter", "counters"), "on", "it")
        return ActivationCondition("counters", n=n, counter=kind)
    raise NoMatch("activation condition")


def activation_restriction(st: Sequence[Token]) -> tuple[int | None, list[ActivationCondition]] | None:
    """A restriction sentence of a mana ability (CR 602.5b, 602.5d, 602.5e):
    "Activate only once each turn.", "Activate no more than three times each
    turn.", "Activate only if <condition> [or if <condition>].", "Activate only
    during your turn.", "Activate only as a sorcery.", joined by "and only".
    Returns (per-turn limit, conditions), or None if the sentence is something else."""
    c = Cursor(st)
    if not c.take("activate"):
        return None
    limit: int | None = None
    conds: list[ActivationCondition] = []
    try:
        if c.take("no", "more", "than"):
            limit = number(c)
            c.need("times", "each", "turn")
        else:
            c.need("only")
            c.i -= 1
        while c.take("only") or c.take("and", "only"):
            if c.take("once", "each", "turn"):
                if limit is not None:
                    raise NoMatch("two limits")
                limit = 1
            elif c.take("if"):
                alts = [_activation_if(c)]
                while c.take("or", "if"):
                    alts.append(_activation_if(c))
                conds.append(alts[0] if len(alts) == 1 else ActivationCondition("any", parts=tuple(alts)))
            elif c.take("during", "your", "turn"):
                conds.append(ActivationCondition("your_turn"))
            elif c.take("during", ("an", "each"), "opponent's", "turn"):
                conds.append(ActivationCondition("opponent_turn"))
            elif c.take("as", "a", "sorcery"):
                conds.append(ActivationCondition("sorcery"))
            elif c.take("as", "an", "instant"):
                conds.append(ActivationCondition("instant"))
            else:
                raise NoMatch("restriction")
        c.end()
    except NoMatch:
        return None
    if limit is None and not conds:
        return None
    return limit, conds


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
    if sents[0] and sents[0][0].low == "add":
        if mentions_target(eff):
            raise NoMatch("an ability with a target is not a mana ability (CR 605.5a)")
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
        cond = None if not conds else conds[0] if len(conds) == 1 else ActivationCondition("all", parts=tuple(conds))
        return _rider_or_fail(ManaAbility(cost, prod, damage, raw, spend=spend, limit=limit, condition=cond,
                                          riders=tuple(riders)), rest, raw)
    if cost.remove_x_counters is not None:
        raise NoMatch("a variable counter cost is modelled only for mana abilities")
    only_mana_ability_cost(cost)
    s = Scope(last=SELF, source_is_permanent=not ctx.is_spell, x_defined=cost_has_x(cost))
    sorcery = False
    for st in sents:
        c = Cursor(st)
        if c.take("activate", "only", "as", "a", "sorcery") and c.done():
            sorcery = True
            continue
        effect_sentence(st, s)
    if not s.effects:
        raise NoMatch("no effect")
    return [ActivatedAbility(cost, tuple(s.targets), tuple(s.effects), sorcery, raw)]


def _trigger_event(c: Cursor) -> tuple[Trigger, bool]:
    """The event of a triggered ability; the flag says it is a tapped-for-mana event (CR 106.12a)."""
    w = c.next().low
    if w in ("when", "whenever"):
        if c.take("SELF", "enters"):
            c.take("the", "battlefield")
            return Trigger("enters"), False
        if c.take("SELF", "dies") or c.take("SELF", "is", "put", "into", "a", "graveyard", "from", "the",
                                             "battlefield"):
            return Trigger("dies"), False
        if c.take("SELF", "attacks"):
            return Trigger("attacks"), False
        if c.take("SELF", "becomes", "tapped"):
            return Trigger("becomes_tapped"), False
        if c.take(("enchanted", "equipped")):
            d = desc(c)
            c.need("is", "tapped", "for", "mana")
            return Trigger("tapped_for_mana", to_selector(d, attached=True)), True
        if c.take("a", "player", "taps") or c.take("you", "tap"):
            who = "you" if c.toks[c.i - 1].low == "tap" else "any"
            c.need(("a", "an"))
            d = desc(c)
            c.need("for", "mana")
            if who == "you":
                if d.who == "opponent":
                    raise NoMatch("you tap an opponent's permanent")
                d.who = "you"  # CR 602.2: only a permanent's controller activates its mana abilities
            return Trigger("tapped_for_mana", to_selector(d)), True
        if c.take(("a", "an")):
            d = desc(c)
            c.need("is", "tapped", "for", "mana")
            return Trigger("tapped_for_mana", to_selector(d)), True
        raise NoMatch("trigger event")
    if w == "at":
        c.need("the", "beginning", "of", "your", "upkeep")
        return Trigger("upkeep"), False
    raise NoMatch("not a trigger")


def line_triggered(toks: Sequence[Token], ctx: LineContext, raw: str) -> list[Ability]:
    """When/Whenever/At <event>, <effect> (CR 603; 605.1b for triggered mana abilities)."""
    if not toks or toks[0].low not in ("when", "whenever", "at"):
        raise NoMatch("not a trigger")
    c = Cursor(toks)
    trig, mana = _trigger_event(c)
    c.need(",")
    sents = sentences(c.rest())
    if mana:
        if len(sents) != 1:
            raise NoMatch("triggered mana ability with more")
        return [TriggeredManaAbility(trig, add_clause(Cursor(sents[0]), triggered=True), raw)]
    s = Scope(last=SELF if trig.event in ("enters", "dies", "attacks", "becomes_tapped") else None)
    effect_text(sents, s)
    if not s.effects:
        raise NoMatch("no effect")
    return [TriggeredAbility(trig, tuple(s.targets), tuple(s.effects), raw)]


def _with_text(a: Ability, raw: str) -> Ability:
    return replace(a, text=raw) if hasattr(a, "text") and not isinstance(a, Unsupported) else a


# Single-sentence static and replacement templates: name → parser(cursor, ctx).
STATIC_TEMPLATES: tuple[tuple[str, Callable[[Cursor, LineContext], Ability]], ...] = (
    ("mana replacement", lambda c, ctx: mana_replacement(c)),
    ("counter replacement", lambda c, ctx: counter_replacement(c)),
    ("token replacement", lambda c, ctx: token_replacement(c)),
    ("enters with", lambda c, ctx: enters_with(c, ctx.x_in_cost)),
    ("choose a color as it enters", lambda c, ctx: choose_as_enters(c)),
    ("flagbearer requirement", lambda c, ctx: must_target(c)),
    ("player subtype", lambda c, ctx: player_subtype(c)),
    ("player keyword", lambda c, ctx: player_keyword(c)),
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
    return [Static("spend_white_as_any", text=raw)]


def line_static(toks: Sequence[Token], ctx: LineContext, raw: str) -> list[Ability]:
    """A static or replacement ability: its first sentence by one of STATIC_TEMPLATES."""
    sents = sentences(toks)
    if not sents:
        raise NoMatch("empty")
    first = sents[0]
    for _name, fn in STATIC_TEMPLATES:
        c = Cursor(first)
        try:
            a = fn(c, ctx)
            c.end()
        except NoMatch:
            continue
        rest = sents[1:]
        extra: list[Ability] = []
        if isinstance(a, Static) and a.kind == "set_color" and rest and _same_is_true_for_cards(rest[0]):
            # Celestial Dawn: "The same is true for spells you control and nonland cards you own
            # that aren't on the battlefield." (layer 5 for objects off the battlefield)
            extra.append(Static("set_color_cards", color=a.color, text=""))
            rest = rest[1:]
        if isinstance(a, EntersWith) and not a.choose and rest and \
                (ch := Cursor(rest[0]).attempt(choose_as_enters, True)) is not None:
            # "This land enters tapped. As it enters, choose a color other than red." (Thriving lands)
            a = replace(a, choose=ch.choose, choose_except=ch.choose_except)
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
    ("spell instructions", line_spell),
    ("mana spending rule", line_spend_white),
    ("combat static", line_combat),
    ("casting rule", lambda toks, ctx, raw: statics.line_casting(toks, ctx, raw)),  # reader/statics.py
    ("loyalty ability", lambda toks, ctx, raw: statics.line_loyalty(toks, ctx, raw)),  # CR 606
    ("static ability", line_static),
)


def strip_ability_word(toks: Sequence[Token]) -> Sequence[Token]:
    """Drop an ability word and its dash (CR 207.2c: ability words have no rules meaning)."""
    for k in range(1, 5):
        if k < len(toks) and toks[k].low == "—":
            head = " ".join(t.low for t in toks[:k])
            if head in ABILITY_WORDS:
                return toks[k + 1:]
            break
    return toks


def read_line(toks: Sequence[Token], ctx: LineContext, raw: str) -> LineResult:
    """The meaning of one line: the first template that reads all of it, else unsupported."""
    body = strip_ability_word(toks)
    if body and body[0].low == "equip" and not ctx.is_spell:  # "Equip {N}": its structure (reader/structure.py)
        try:
            parts, n = structure.line_equip(body, ctx, raw)
            return LineResult("equip", parts, unread=n)
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
