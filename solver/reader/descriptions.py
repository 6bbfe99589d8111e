"""Object descriptions (noun phrases): :func:`desc` reads "nontoken creature you
control with power 2 or less" into a :class:`Desc`, which becomes an IR
:class:`~solver.core.ir.Selector` or :class:`~solver.core.ir.Filter` only when the IR can
hold every word of it."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..core.ir import CARD_TYPES, Filter, Selector
from .subtypes import SUBTYPES
from .vocabulary import COLOR_WORDS, GRANTABLE_KEYWORDS, singular, STRIKE_WORDS, TYPE_PLURALS, TYPE_WORDS
from .cursor import Cursor, NoMatch
from .phrases import is_subtype, number, subtype_word
from .reading_mode import reading_skeleton


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
    # structure-only forms (reader/reading_mode.py): an owner/controller named elsewhere, a further condition
    controller_ref: str = ""
    condition: str = ""
    not_subtypes: set[str] = field(default_factory=set)  # "non-Human" (CR 205.3)
    monocolored: bool = False

    @property
    def filter_only(self) -> bool:
        """Qualifiers that only :func:`to_filter` can hold."""
        return bool(self.colors or self.multicolored or self.colorless or self.tapped is not None or self.combat
                    or self.token is not None or self.legendary or self.nonlegendary or self.mv_min is not None
                    or self.power_min is not None or self.power_max is not None or self.toughness_min is not None
                    or self.toughness_max is not None or self.keywords or self.not_keywords
                    or self.other_than_self or self.total_pt_max is not None or bool(self.controller_ref)
                    or bool(self.condition) or bool(self.not_subtypes) or self.monocolored)

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
    if subs:   # "Wolf or Werewolf", "Aura or Equipment card": subtypes as alternatives (any of, CR 205.3)
        save = c.i
        if c.take("and", "/", "or") or c.take("or"):
            try:
                subs.append(subtype_word(c))
            except NoMatch:
                c.i = save
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
    if t is not None and t.kind == "WORD" and t.low in ("token", "tokens") and d.token is None:
        c.i += 1  # "target token you control", "target Incubator token": a token permanent (CR 111.1)
        d.token = True
        d.plural = t.low == "tokens"
        if subs:
            d.subtypes.extend(subs)
        else:
            d.types.append("Permanent")
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
    if t is not None and t.kind == "WORD" and t.low in ("ability", "abilities") and reading_skeleton() \
            and not subs:
        c.i += 1  # "target activated ability", "target spell or ability": an ability on the stack (CR 113.1c)
        d.types.append("Ability")
        d.zone = "stack"
        d.plural = t.low == "abilities"
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
    :class:`~solver.core.ir.Filter` holds after the noun ("with power 2 or less",
    "with flying", "other than SELF") are read too."""
    d = Desc()
    _adjectives(c, d)
    if targeting:
        _exact_power_toughness(c, d)
    _nouns(c, d)
    _qualifiers(c, d, targeting)
    return d


_SKELETON_ADJECTIVES = frozenset({"face-down", "face-up", "enchanted", "equipped", "historic",
                                  "modified", "unblocked", "exiled", "suspended", "outlaw", "snow", "blocked",
                                  "activated", "triggered"})


def _skeleton_adjective(c: Cursor, d: Desc) -> bool:
    """Structure-only adjectives (reader/reading_mode.py), kept as printed in ``d.condition``:
    colors as alternatives ("red or green", "white, blue, or black"), and :data:`_SKELETON_ADJECTIVES`."""
    t = c.peek()
    if t is None or t.kind != "WORD":
        return False
    w = t.low
    if w in COLOR_WORDS and (c.low(1) == "or" or (c.low(1) == "," and c.low(2) in COLOR_WORDS)):
        start = c.i
        while c.low() in COLOR_WORDS or c.low() in (",", "or", "and/or"):
            c.i += 1
        words = [x.text for x in c.toks[start:c.i]]
        if words[-1] in (",", "or"):
            c.i = start
            return False
    elif c.at("activated", "or", "triggered"):
        words = ["activated", "or", "triggered"]
        c.i += 3
    elif w in _SKELETON_ADJECTIVES and c.low(1) not in (",", "or", None):
        words = [t.text]
        c.i += 1
    else:
        return False
    d.condition = " ".join(([d.condition] if d.condition else []) + words).replace(" ,", ",")
    return True


def _adjectives(c: Cursor, d: Desc) -> None:
    """The adjectives before the noun: "other", "nonbasic", "red", "tapped", "attacking", "legendary", …"""
    while True:
        t = c.peek()
        if t is None or t.kind != "WORD":
            break
        w = t.low
        if reading_skeleton() and _skeleton_adjective(c, d):
            continue
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
        elif w == "monocolored":
            d.monocolored = True         # exactly one color (CR 105.2c)
        elif w.startswith("non-") and is_subtype(t.text[4:]):
            d.not_subtypes.add(t.text[4:] if t.text[4:] in SUBTYPES else singular(t.text[4:]))
        elif w == "colorless" and c.low(1) != "mana":
            d.colorless = True
        elif w in ("tapped", "untapped") and d.tapped is None:
            d.tapped = w == "tapped"
        elif w in ("attacking", "blocking"):
            d.combat.add(w)
            if c.at(w, "or", ("attacking", "blocking")):  # "attacking or blocking"
                c.i += 2
                d.combat.add(c.toks[c.i].low)  # the second word at() matched
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


def _exact_power_toughness(c: Cursor, d: Desc) -> None:
    """"target 1/1 creature": a target with exactly that power and toughness (CR 208.1)."""
    pt = c.peek()
    if pt is not None and pt.kind == "PT" and re.fullmatch(r"\d+/\d+", pt.text) \
            and d.power_min is None and c.low(1) in ("creature", "creatures"):
        p_, t_ = (int(x) for x in pt.text.split("/"))
        d.power_min = d.power_max = p_
        d.toughness_min = d.toughness_max = t_
        c.i += 1


def _nouns(c: Cursor, d: Desc) -> None:
    """The noun and its alternatives: "creature or player", "artifact, creature, or land"."""
    _noun(c, d)
    while c.at(",") and c.peek(1) is not None and (c.low(1) in TYPE_WORDS or c.low(1) in TYPE_PLURALS or c.low(1) == "or"
                                                   or c.at(",", "and", "/", "or")):
        c.i += 1
        if not c.take("and", "/", "or"):   # "artifacts, creatures, and/or lands": each target any of them
            c.take("or")
        _nonbasic_land(c, d)
        _noun(c, d)
        d.types_joined_by_or = True
    if c.at("and", "/", "or") and (c.low(3) in TYPE_WORDS or c.low(3) in TYPE_PLURALS):
        c.i += 2  # "artifacts and/or enchantments": each one any of them, as "or" (CR 115.1)
    if c.at("or") and c.peek(1) is not None and (c.low(1) in TYPE_WORDS or c.low(1) in TYPE_PLURALS or
                                                 c.low(1) in ("player", "players", "opponent", "opponents")
                                                 or c.at("or", "nonbasic", ("land", "lands"))):
        c.i += 1
        _nonbasic_land(c, d)
        _noun(c, d)
        d.types_joined_by_or = True


def _qualifiers(c: Cursor, d: Desc, targeting: bool) -> None:
    """What follows the noun: "card", "with mana value 3 or less", "you control", "in your graveyard", …;
    with ``targeting``, those only a :class:`~solver.core.ir.Filter` holds too (see :func:`desc`)."""
    while True:
        if c.take("card") or c.take("cards"):
            d.card = True
            d.plural = d.plural or c.toks[c.i - 1].low == "cards"  # "creature cards": plural
        elif c.take("with", "mana", "value"):
            n = number(c)
            if c.take("or", "greater"):
                d.mv_min = n
            elif c.take("or", "less"):
                d.mv_max = n
            elif targeting:
                d.mv_min = d.mv_max = n  # "with mana value 2": exactly (CR 202.3)
            else:
                raise NoMatch("mana value bound")
        elif targeting and c.at("with", "total", "power", "and", "toughness") and d.total_pt_max is None:
            c.i += 5
            d.total_pt_max = number(c)  # Cut Down (CR 208)
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
        elif targeting and d.card and c.take(("from", "in"), "graveyards"):
            d.zone = "graveyard"  # "target creature cards from graveyards": each from any graveyard
        elif targeting and d.token is None and d.types and not d.players and c.take(("token", "tokens")):
            d.token = True  # "target creature token"
        elif targeting and reading_skeleton() and _skeleton_qualifier(c, d):
            pass
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


_GRAVEYARD_REFS: tuple[tuple[str, ...], ...] = (
    ("that", "player's"), ("defending", "player's"), ("target", "player's"), ("target", "opponent's"),
    ("their",), ("its", "owner's"), ("that", "opponent's"), ("enchanted", "player's"), ("each", "opponent's"),
)


def _skeleton_qualifier(c: Cursor, d: Desc) -> bool:
    """Structure-only qualifiers (reader/reading_mode.py): a card "from a single graveyard" (a
    condition across the targets), "from <a player named elsewhere>'s graveyard"."""
    if d.card and c.take(("from", "in"), "a", "single", "graveyard"):
        d.zone, d.condition = "graveyard", "from a single graveyard"
        return True
    for ref in _GRAVEYARD_REFS:
        if d.card and c.at(("from", "in"), *ref, "graveyard"):
            if ref[0] == "target":
                return False  # another target: its own slot, not read here
            start = c.i
            c.i += len(ref) + 2
            d.zone, d.condition = "graveyard", " ".join(t.text for t in c.toks[start:c.i])
            return True
    return False


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
    types_all: frozenset[str] = frozenset()
    if len(d.types) > 1 and not d.types_joined_by_or:
        if not (d.compound and len(d.types) == 2):
            raise NoMatch("a filter accepts any of its types, not all of them")
        types_all = frozenset(d.types)   # "artifact creature": both card types required (CR 205.2a)
    types = set(d.types[-1:]) if types_all else set(d.types)
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
                                 or d.token is not None or d.legendary or d.nonlegendary or d.monocolored
                                 or d.not_subtypes):
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
                  other_than_source=d.other_than_self, total_pt_max=d.total_pt_max,
                  controller_ref=d.controller_ref, condition=d.condition,
                  not_subtypes=frozenset(d.not_subtypes), monocolored=d.monocolored, types_all=types_all)


def selector_phrase(c: Cursor) -> Selector:
    """A selector as the subject of a static: [each|all] [enchanted|equipped] desc."""
    c.take(("each", "all"))
    if c.take(("enchanted", "equipped", "fortified")):
        d = desc(c)
        if d.plural or d.who != "any" or d.other:
            raise NoMatch("'enchanted creatures' are not the attached object")
        return to_selector(d, attached=True)
    return to_selector(desc(c))


SELF_SELECTOR = Selector(self_only=True)
