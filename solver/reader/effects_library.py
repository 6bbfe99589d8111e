"""Library effects (issue 26, helper library): positions in a library (CR 401.4), the searches'
further shapes (CR 701.23), amounts from last known information (CR 608.2h, 113.7a), "each
player shuffles their hand and graveyard into their library" (CR 701.24a) — and the card
descriptions of a search, shared with :func:`solver.reader.effects.clause_search`.

Grammar (each a clause of :data:`LIBRARY_CLAUSES`):

* ``put <permanent> into its owner's library second|third|fourth|fifth from the top`` /
  ``put <permanent> on the bottom|on top of its owner's library`` (:class:`PutInLibrary`);
* ``its|that creature's controller gains N life | life equal to its power|toughness|mana value``
  and ``you gain life equal to its power|toughness|mana value`` right after the one instruction
  that removed one target (:class:`ItsControllerGainsLife`, :class:`GainLifeEqualTo`);
* ``search your library for <card>[, reveal it], then shuffle and put that card on top``;
  ``search your library for up to N cards named <this card>, reveal them, put them into your
  hand, then shuffle``; ``… for <card> with mana value X or less, put it onto the battlefield
  …``; ``… for an instant card or a card with flash, …`` (:class:`SearchLibrary`);
* ``shuffle <this card> into its owner's library`` (:class:`ShuffleSelfIntoLibrary`);
* ``each player shuffles their hand and graveyard into their library, then draws N cards``
  (:class:`Wheel`);
* ``[you] untap all <permanents you control>`` (:class:`Untap` of the group, CR 701.26b);
* ``<player> puts all the cards from their graveyard on the bottom of their library in a random
  order`` (:class:`GraveyardToBottom`);
* the passage ``defending player reveals the top card of their library. If it's a <type> card,
  that player puts it into their hand.`` (:func:`reveal_top_to_hand`, :class:`RevealTopToHand`).
"""
from __future__ import annotations

from typing import Callable, Sequence

from ..core.ir import (Destroy, Effect, Exile, Filter, GainLifeEqualTo, GraveyardToBottom,
                       ItsControllerGainsLife, PutInLibrary, Ref, ReturnAllFromGraveyard, RevealTopToHand, SearchLibrary, ShuffleSelfIntoLibrary, TargetSpec, Untap,
                       Wheel, T)
from .cursor import Cursor, NoMatch
from .effects_groups import group_ref
from .phrases import number, subtype_word
from .scope import Scope, object_ref
from .tokens import Token
from .vocabulary import BASIC_TYPES, COLOR_WORDS, LAND_SUBTYPES, TYPE_WORDS

_LAND_SUBTYPE_WORDS = {t.lower(): t for t in LAND_SUBTYPES}
_ORDINALS = {"second": 1, "third": 2, "fourth": 3, "fifth": 4}
_STATS = {"power": "power", "toughness": "toughness"}


# ---------------------------------------------------------------------------
# The card a search looks for (CR 701.23)
# ---------------------------------------------------------------------------

def library_card(c: Cursor) -> Filter | None:
    """The card a search looks for (CR 701.23): "a card" (None: no stated quality), or "a|an
    [basic] <type> card" ("a basic land card", "a creature card") or "a|an [basic] <subtype>
    [or <subtype>]* [<type>] card" ("a basic Forest card", "a Forest or Plains card", "an
    Equipment card", "a Goblin card", "a Dragon creature card": a card of one of those subtypes,
    CR 205.3, and of the type when one is named)."""
    f, x = _library_card(c, allow_x=False)
    return f


def library_card_x(c: Cursor) -> tuple[Filter | None, bool]:
    """:func:`library_card`, also with "with mana value X or less" (CR 107.3m: X of the resolving
    spell): the filter and whether that bound is X."""
    return _library_card(c, allow_x=True)


def _library_card(c: Cursor, allow_x: bool) -> tuple[Filter | None, bool]:
    if not c.take(("a", "an")):
        raise NoMatch("a card")
    if c.take("card"):
        return None, False
    colors: frozenset[str] = frozenset()
    if c.low() in COLOR_WORDS:  # "a green creature card" (CR 105.2)
        colors = frozenset({COLOR_WORDS[c.next().low]})
    supertypes = frozenset({"Basic"}) if c.take("basic") else frozenset()
    types, subtypes = _card_types(c)
    c.need("card")
    if types == frozenset({"Land"}) and not subtypes and c.take("with", "a", "basic", "land", "type"):
        subtypes = sorted(BASIC_TYPES.values())   # CR 205.3i: a card with one of the five basic land types
    if not types and not subtypes:
        raise NoMatch("a basic card of no type")
    if allow_x and c.take("with", "mana", "value", "x", "or", "less"):
        return Filter(types=types, who="you", zone="library", supertypes=supertypes,
                      subtypes=frozenset(subtypes), colors=colors), True
    b = _library_card_bounds(c)
    return Filter(types=types, who="you", zone="library", supertypes=supertypes, subtypes=frozenset(subtypes),
                  colors=colors, mv_min=b.get("mv_min"), mv_max=b.get("mv_max"), power_min=b.get("power_min"),
                  power_max=b.get("power_max"), toughness_min=b.get("toughness_min"),
                  toughness_max=b.get("toughness_max")), False


def _card_types(c: Cursor) -> tuple[frozenset[str], list[str]]:
    """"<type> [or <type>]*" ("an instant or sorcery card": either type) or "<subtype> [or
    <subtype>]* [<type>]" of a searched card (CR 205.2, 205.3)."""
    if c.low() in TYPE_WORDS and c.low() != "permanent":
        named = {TYPE_WORDS[c.next().low]}
        while c.at("or") and c.low(1) in TYPE_WORDS and c.low(1) != "permanent":
            c.i += 1
            named.add(TYPE_WORDS[c.next().low])
        return frozenset(named), []
    subtypes: list[str] = []
    while True:
        t = c.peek()
        if t is not None and t.low in _LAND_SUBTYPE_WORDS:
            subtypes.append(_LAND_SUBTYPE_WORDS[c.next().low])
        else:
            subtypes.append(subtype_word(c))
        if not c.take("or"):
            break
    types: frozenset[str] = frozenset()
    if c.low() in TYPE_WORDS and c.low() != "permanent":
        types = frozenset({TYPE_WORDS[c.next().low]})
    return types, subtypes


def _library_card_bounds(c: Cursor) -> dict[str, int]:
    """"with mana value N or less / N or greater", "with power / toughness N or less / N or greater"
    after a searched card (CR 202.3, 208): the printed values of the card in the library."""
    out: dict[str, int] = {}
    if not c.at("with"):
        return out
    save = c.i
    c.i += 1
    if c.take("mana", "value"):
        key = "mv"
    elif c.take(("power", "toughness")):
        key = c.toks[c.i - 1].low
    else:
        c.i = save
        return out
    n = number(c)
    if not isinstance(n, int):
        raise NoMatch("a bound")
    if c.take("or", "less"):
        out[f"{key}_max"] = n
    elif c.take("or", "greater"):
        out[f"{key}_min"] = n
    else:
        raise NoMatch("or less / or greater")
    return out


# ---------------------------------------------------------------------------
# Searches (CR 701.23)
# ---------------------------------------------------------------------------

def clause_search_top(c: Cursor, s: Scope) -> list[Effect]:
    """search your library for <card>[, reveal it|that card], then shuffle and put that card|the
    card|it on top (Vampiric Tutor, Mystical Tutor, Worldly Tutor; CR 701.23, 701.24a, 401.4)."""
    c.need("search", "your", "library", "for")
    quality = library_card(c)
    if c.take(",", "reveal", ("it", "that")):
        c.take("card")
    c.take(",")
    c.need("then", "shuffle", "and", "put")
    if not (c.take(("that", "the"), "card") or c.take("it")):
        raise NoMatch("the card found")
    c.need("on", "top")
    c.take("of", "your", "library")
    return [SearchLibrary("top", quality)]


def clause_search_named_self(c: Cursor, s: Scope) -> list[Effect]:
    """search your library for up to N cards named <this card>, reveal them, put them into your hand,
    then shuffle (Squadron Hawk; CR 701.23b: up to N, so fewer may be found; CR 201.4: the card's own
    name)."""
    c.need("search", "your", "library", "for", "up", "to")
    n = number(c)
    c.need("cards", "named", "SELF", ",")
    if c.take("reveal", "them"):
        c.need(",")
    c.need("put", "them", "into", "your", "hand", ",", "then", "shuffle")
    return [SearchLibrary("hand", None, up_to=n, named_self=True)]


def clause_search_up_to(c: Cursor, s: Scope) -> list[Effect]:
    """search your library for up to N [basic] <type | subtype [or subtype]*> cards | up to N cards,
    [reveal them,] put them into your hand | onto the battlefield [tapped], then shuffle (Primeval Titan,
    Explosive Vegetation, Harrow; CR 701.23b: up to N, so fewer may be found, 701.23a, 701.24)."""
    c.need("search", "your", "library", "for", "up", "to")
    n = number(c)
    if not isinstance(n, int) or n < 2:
        raise NoMatch("a number of cards")
    quality: Filter | None = None
    if not c.take("cards"):
        supertypes = frozenset({"Basic"}) if c.take("basic") else frozenset()
        types, subtypes = _card_types(c)
        c.need("cards")
        if not types and not subtypes:
            raise NoMatch("cards of no type")
        quality = Filter(types=types, who="you", zone="library", supertypes=supertypes, subtypes=frozenset(subtypes))
    c.need(",")
    if c.take("reveal", "them"):
        c.need(",")
    c.need("put", "them")
    if c.take("into", "your", "hand"):
        zone, tapped = "hand", False
    else:
        c.need("onto", "the", "battlefield")
        zone, tapped = "battlefield", bool(c.take("tapped"))
    c.need(",", "then", "shuffle")
    return [SearchLibrary(zone, quality, tapped=tapped, up_to=n)]


def clause_search_more(c: Cursor, s: Scope) -> list[Effect]:
    """search your library for <card with mana value X or less> | <an instant card or a card with
    flash>[, reveal it], put it onto the battlefield [tapped] | into your hand, then shuffle (Green
    Sun's Zenith, Mystical Teachings; CR 701.23, 107.3m, 702.8)."""
    c.need("search", "your", "library", "for")
    quality, x = library_card_x(c)
    keyword = ""
    if c.take("or", "a", "card", "with", "flash"):
        keyword = "flash"
    if not x and not keyword:
        raise NoMatch("a search of the other template")
    if x and not s.x_defined:
        raise NoMatch("X not defined by a cost")
    zone, tapped = found_destination(c)
    c.need(",", "then", "shuffle")
    return [SearchLibrary(zone, quality, tapped=tapped, or_keyword=keyword, mv_max_x=x)]


def found_destination(c: Cursor) -> tuple[str, bool]:
    """", [reveal it / that card,] put it / that card into your hand | onto the battlefield [tapped]" after a
    search (CR 701.23a; revealing, 701.20, changes nothing the game state holds): (zone, tapped)."""
    c.need(",")
    if c.take("reveal", ("it", "that")):
        c.take("card")
        c.need(",")
    c.need("put")
    if not (c.take("it") or c.take("that", "card")):
        raise NoMatch("the card found")
    if c.take("into", "your", "hand"):
        return "hand", False
    if c.take("onto", "the", "battlefield"):
        return "battlefield", bool(c.take("tapped"))
    raise NoMatch("a destination")


def _found_onto_battlefield(c: Cursor, verb: str) -> bool:
    """"<verb> it|that card onto the battlefield [tapped]": whether tapped."""
    c.need(verb)
    if not (c.take("it") or c.take("that", "card")):
        raise NoMatch("the card found")
    c.need("onto", "the", "battlefield")
    return c.take("tapped")


def clause_its_controller_searches(c: Cursor, s: Scope) -> list[Effect]:
    """its controller may search their library for <card>, put it|that card onto the battlefield
    [tapped], then shuffle — after the removal of one target (Ghost Quarter; CR 608.2h: its controller
    as it last existed; 608.2d: that player's choice). "That player may search …" after the removal of
    one target permanent "an opponent controls" is the same player: the opponent who controlled it
    (Boseiju, Who Endures)."""
    that_player = c.take("that", "player")
    if not that_player:
        c.need("its", "controller")
    c.need("may", "search", "their", "library", "for")
    prev, spec = _removed_target(s)
    if that_player and spec.filter.who != "opponent":
        raise NoMatch("'that player' names no player")
    quality = library_card(c)
    c.need(",")
    tapped = _found_onto_battlefield(c, "put")
    c.need(",", "then", "shuffle")
    return [SearchLibrary("battlefield", quality, tapped=tapped, by_controller_of=prev.to, searcher_may=True)]


def clause_each_player_searches(c: Cursor, s: Scope) -> list[Effect]:
    """each player searches their library for <card>, puts it onto the battlefield [tapped], then
    shuffles (Field of Ruin; CR 101.4: in turn order, each their own)."""
    c.need("each", "player", "searches", "their", "library", "for")
    quality = library_card(c)
    c.need(",")
    tapped = _found_onto_battlefield(c, "puts")
    c.need(",", "then", "shuffles")
    return [SearchLibrary("battlefield", quality, tapped=tapped, each_player=True)]


def clause_shuffle_self_into(c: Cursor, s: Scope) -> list[Effect]:
    """shuffle <this card> into its owner's library — a spell's last instruction (Green Sun's
    Zenith; CR 701.24a, 608.2n)."""
    if s.source_is_permanent:
        raise NoMatch("a permanent shuffled into a library")
    c.need("shuffle", "SELF", "into", "its", "owner's", "library")
    c.end()
    return [ShuffleSelfIntoLibrary()]


def clause_wheel(c: Cursor, s: Scope) -> list[Effect]:
    """each player shuffles their hand and graveyard into their library, then draws N cards
    (Timetwister; CR 701.24a, 121)."""
    c.need("each", "player", "shuffles", "their", "hand", "and", "graveyard", "into", "their", "library", ",",
           "then", "draws")
    n = number(c)
    c.need("cards")
    return [Wheel(n)]


# ---------------------------------------------------------------------------
# Positions in a library (CR 401.4)
# ---------------------------------------------------------------------------

def clause_put_in_library(c: Cursor, s: Scope) -> list[Effect]:
    """put <permanent> into its owner's library second|third|… from the top / on the bottom of its
    owner's library / on top of its owner's library (Oust, Condemn; CR 401.4, 400.7)."""
    c.need("put")
    ref = object_ref(c, s)
    if ref.kind not in ("target", "self", "attached") or (ref.kind == "self" and not s.source_is_permanent) or \
            (ref.kind == "target" and s.targets[ref.index].filter.zone != "battlefield"):
        raise NoMatch("a permanent put into a library")   # a card elsewhere, several, a spell itself: unread
    if c.take("into", "its", "owner's", "library"):
        word = c.next().low
        if word not in _ORDINALS:
            raise NoMatch("a position")
        c.need("from", "the", "top")
        return [PutInLibrary(ref, _ORDINALS[word])]
    if c.take("on", "the", "bottom", "of", "its", "owner's", "library"):
        return [PutInLibrary(ref, -1)]
    c.need("on", "top", "of", "its", "owner's", "library")
    return [PutInLibrary(ref, 0)]


def clause_graveyard_to_bottom(c: Cursor, s: Scope) -> list[Effect]:
    """<player> puts all the cards from their graveyard on the bottom of their library in a random
    order (Endurance; a random event, :class:`GraveyardToBottom`)."""
    ref = _one_player(c, s)
    c.need("puts", "all", "the", "cards", "from", "their", "graveyard", "on", "the", "bottom", "of", "their",
           "library", "in", "a", "random", "order")
    return [GraveyardToBottom(ref)]


def _one_player(c: Cursor, s: Scope) -> Ref:
    """"target player" / "up to one target player" (CR 115.1, 601.2c: a target chosen or not)."""
    lo = 0 if c.take("up", "to", "one") else 1
    c.need("target", "player")
    s.targets.append(TargetSpec(Filter(types=frozenset(), players=True, who="any"), lo, 1, ()))
    ref = T(len(s.targets) - 1)
    s.last = ref
    return ref


# ---------------------------------------------------------------------------
# Amounts from last known information (CR 608.2h, 113.7a)
# ---------------------------------------------------------------------------

def _removed_target(s: Scope) -> tuple[Destroy | Exile | PutInLibrary, TargetSpec]:
    """The one instruction before, which removes one target permanent — "its" names it as it last
    existed on the battlefield (CR 608.2h)."""
    prev = s.effects[0] if len(s.effects) == 1 else None
    if not isinstance(prev, (Destroy, Exile, PutInLibrary)) or prev.to.kind != "target" or prev.optional:
        raise NoMatch("'its' after one removal of a target")
    spec = s.targets[prev.to.index]
    if not spec.filter.types or spec.filter.players or spec.filter.zone != "battlefield":
        raise NoMatch("'its' of a permanent")
    return prev, spec


def _stat(c: Cursor, spec: TargetSpec) -> str:
    """"its power" / "its toughness" (of a creature, CR 208) / "its mana value" (CR 202.3)."""
    c.need("its")
    if c.take("mana", "value"):
        return "mana_value"
    word = c.next().low
    if word not in _STATS:
        raise NoMatch("power, toughness or mana value")
    if spec.filter.types != {"Creature"}:
        raise NoMatch("the power or toughness of a creature")
    return _STATS[word]


def clause_its_controller_life(c: Cursor, s: Scope) -> list[Effect]:
    """its|that creature's controller gains N life / gains life equal to its toughness|mana value
    (Oust, Condemn; CR 608.2h, 119.3). "equal to its power" after a destroy or exile is
    :func:`solver.reader.effects.clause_its_controller`'s (the same value)."""
    if not (c.take("its", "controller") or c.take("that", ("creature's", "permanent's"), "controller")):
        raise NoMatch("its controller")
    prev, spec = _removed_target(s)
    c.need("gains")
    if c.kind() == "NUM" or c.low() in ("one", "two", "three", "four", "five", "six", "seven", "eight"):
        n = number(c)
        c.need("life")
        return [ItsControllerGainsLife(prev.to, fixed=n)]
    c.need("life", "equal", "to")
    return [ItsControllerGainsLife(prev.to, stat=_stat(c, spec))]


def clause_you_gain_life_equal(c: Cursor, s: Scope) -> list[Effect]:
    """you gain life equal to its power|toughness|mana value, after the removal of one target
    (Divine Offering; CR 608.2h, 119.3)."""
    c.need("you", "gain", "life", "equal", "to")
    prev, spec = _removed_target(s)
    return [GainLifeEqualTo(prev.to, _stat(c, spec))]


def clause_return_all_from_graveyard(c: Cursor, s: Scope) -> list[Effect]:
    """return all [legendary] <type> [and|or <type>]* cards | <subtype> [<type>] cards from your graveyard to the
    battlefield [tapped] (Aftermath Analyst, Splendid Reclamation; CR 400.7, 608.2c)."""
    c.need("return", "all")
    supertypes = frozenset({"Legendary"}) if c.take("legendary") else frozenset()
    if c.low() in TYPE_WORDS:
        named = {TYPE_WORDS[c.next().low]}
        while (c.at(("and", "or")) or c.at(",")) and (c.low(1) in TYPE_WORDS or c.low(1) in ("and", "or")):
            c.i += 1
            c.take(("and", "or"))
            if c.low() not in TYPE_WORDS:
                raise NoMatch("a card type")
            named.add(TYPE_WORDS[c.next().low])
        types, subtypes = frozenset(named), list[str]()
    else:
        types, subtypes = _card_types(c)
        if not subtypes:
            raise NoMatch("cards of a type")
    c.need("cards", "from", "your", "graveyard", "to", "the", "battlefield")
    tapped = bool(c.take("tapped"))
    quality = Filter(types=types, who="you", zone="graveyard", supertypes=supertypes, subtypes=frozenset(subtypes))
    return [ReturnAllFromGraveyard(quality, tapped)]


def clause_untap_all(c: Cursor, s: Scope) -> list[Effect]:
    """[you] untap all <permanents> [you control] (Sword of Feast and Famine; CR 701.26b, 608.2c:
    the permanents it describes as it happens)."""
    c.take("you")
    c.need("untap")
    if not c.at("all"):
        raise NoMatch("untap all")
    return [Untap(group_ref(c))]



LIBRARY_CLAUSES: tuple[tuple[str, Callable[[Cursor, Scope], list[Effect]]], ...] = (
    ("search to the top", clause_search_top), ("search named self", clause_search_named_self),
    ("search up to N", clause_search_up_to),
    ("search more", clause_search_more), ("shuffle self into library", clause_shuffle_self_into),
    ("wheel", clause_wheel), ("put in library", clause_put_in_library),
    ("graveyard to bottom", clause_graveyard_to_bottom), ("its controller life", clause_its_controller_life),
    ("gain life equal to", clause_you_gain_life_equal), ("untap all", clause_untap_all),
    ("its controller searches", clause_its_controller_searches), ("return all from graveyard", clause_return_all_from_graveyard), ("each player searches", clause_each_player_searches),
)


def reveal_top_to_hand(sents: Sequence[Sequence[Token]], i: int, s: Scope) -> int:
    """"Defending player reveals the top card of their library. If it's a <type> card, that player
    puts it into their hand." (Goblin Guide; CR 701.20a, 506.2): the number of sentences read (2), or
    0. Only in a permanent's ability (a defending player is the one its source attacks)."""
    if i + 1 >= len(sents) or not s.source_is_permanent:
        return 0
    first, second = Cursor(sents[i]), Cursor(sents[i + 1])
    try:
        first.need("defending", "player", "reveals", "the", "top", "card", "of", "their", "library")
        first.end()
        second.need("if", "it's", ("a", "an"))
        types = {TYPE_WORDS[second.next().low]} if second.low() in TYPE_WORDS and second.low() != "permanent" else set()
        second.need("card", ",", "that", "player", "puts", "it", "into", "their", "hand")
        second.end()
    except NoMatch:
        return 0
    if not types:
        return 0
    s.effects.append(RevealTopToHand(Ref("defending_player"), Filter(types=frozenset(types), zone="library")))
    return 2
