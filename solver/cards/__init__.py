"""Cards: Oracle data plus behaviour in the IR of :mod:`solver.core.ir`.

``get_card(name)`` returns a :class:`Card`: the card's Oracle facts and its
abilities.  Behaviour comes from the hand-written library
(:mod:`solver.cards.library`) or, for other cards, from the Oracle-text reader
when one is available; any text not understood is kept as
:class:`~solver.core.ir.Unsupported` parts.
"""
from __future__ import annotations

import re

import difflib
import gzip
import json
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping

from ..core.card import Card as Card, CardData as CardData  # re-exported: the card values
from ..core.ir import Ability, SpellBehaviour, Unsupported
from ..core.mana import ManaCost, ManaSyntaxError
from ..core.errors import MtgsolveError
from .faces import face_record, with_data_colors
from .library import LIBRARY

DATA_ENV = "MTGSOLVE_CARDS"  # read by the command line only (the edge), like its --cards option


DEFAULT_DB = Path(__file__).resolve().parent.parent / "data" / "oracle-cards.json.gz"


def _open_default() -> Any:
    return open(DEFAULT_DB, "rb")


@dataclass(frozen=True)
class CardDB:
    """A card database: the shipped ``solver/data/oracle-cards.json.gz`` (35,033 real cards from
    MTGJSON-shaped data) plus, when ``path`` names another MTGJSON-shaped file (a list of cards,
    or AtomicCards' ``data`` mapping of name → list of faces), that file's cards, which win on a
    name clash.

    It is passed explicitly: the situation loader reads names with it and the state it builds
    keeps it (``GameState.card_db``) for what the engine creates by name (conjured cards) and for
    writing the state back. The command line makes one from ``--cards`` or ``MTGSOLVE_CARDS``;
    :data:`SHIPPED` is the shipped database alone. Look-ups are cached per database.
    """

    path: str | None = None

    def get(self, name: str) -> Card:
        """The card called ``name`` (case-insensitive). Raises :class:`UnknownCard`."""
        # the shipped database's cards are the very objects ``get_card(name)`` gives (one cache entry)
        return get_card(name) if self.path is None else get_card(name, self.path)

    def canonical_name(self, name: str) -> str | None:
        """The database's spelling of ``name`` (case-insensitive), or None."""
        return canonical_name(name, self.path)

    def index(self) -> dict[str, dict]:
        """Every card by exact name (reads the whole database)."""
        return oracle_index(self.path)

    def suggest(self, name: str) -> str | None:
        """The closest known card name, for "did you mean" messages."""
        return suggest(name, self.path)

    def check(self) -> "CardDB":
        """This database, once its user file is known to be readable (a located line if not)."""
        _user_index(self.path)
        return self


SHIPPED = CardDB()
"""The shipped card database alone."""


def db_of(state: Any) -> CardDB:
    """The card database a game state was loaded with (:data:`SHIPPED` when none is recorded)."""
    db = getattr(state, "card_db", None)
    return db if isinstance(db, CardDB) else SHIPPED


@lru_cache(maxsize=8)
def oracle_index(path: str | None = None) -> dict[str, dict]:
    """Every card of the card database by exact name: the shipped cards, and the cards of the
    user's file at ``path`` (see :class:`CardDB`), which win on a name clash."""
    base = _builtin_index()
    user = _user_index(path)
    if not user:
        return base
    merged = dict(base)
    merged.update(user)
    return merged


@lru_cache(maxsize=None)
def _builtin_index() -> dict[str, dict]:
    """The shipped database by exact name."""
    with _open_default() as fb, gzip.open(fb, "rt", encoding="utf-8") as f:
        cards = _flatten(json.load(f))
    index: dict[str, dict] = {}
    for c in cards:
        index.setdefault(c["name"], c)
    return index


def _user_index(path: str | None) -> dict[str, dict]:
    """The cards of the user's database at ``path``, or ``{}``."""
    return _user_cards(path) if path else {}


@lru_cache(maxsize=8)
def _user_cards(path: str) -> dict[str, dict]:
    """The user's card database by exact name (cached by path). A file that
    can't be read is one located line (contract §3)."""
    opener = gzip.open if path.endswith(".gz") else open
    try:
        with opener(path, "rt", encoding="utf-8") as f:  # type: ignore[operator]
            raw = json.load(f)
        cards = _flatten(raw)
        if not all(isinstance(c, dict) and isinstance(c.get("name"), str) for c in cards):
            raise ValueError("expected MTGJSON cards (mappings with a 'name')")
    except (OSError, ValueError, EOFError) as e:  # the user's file: one located line (contract §3)
        reason = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
        raise MtgsolveError(path, "", f"cannot read this card database ({DATA_ENV} or --cards): "
                                      f"{reason}") from None
    index: dict[str, dict] = {}
    for c in cards:
        index.setdefault(c["name"], c)
    return index


def _user_hit(name: str, path: str | None) -> str | None:
    """The user database's spelling of ``name`` (case-insensitive), or None."""
    user = _user_index(path)
    if not user:
        return None
    if name in user:
        return name
    low = name.lower()
    return next((n for n in user if n.lower() == low), None)


def _flatten(raw: Any) -> list[dict]:
    if isinstance(raw, dict) and "data" in raw:
        raw = raw["data"]
    if isinstance(raw, dict):
        out = []
        for name, faces in raw.items():
            if isinstance(faces, list) and faces:
                f = dict(faces[0])
                f.setdefault("name", name)
                out.append(f)
            elif isinstance(faces, dict):
                f = dict(faces)
                f.setdefault("name", name)
                out.append(f)
            elif isinstance(faces, list):
                continue
        return out
    if isinstance(raw, list):
        return [c for c in raw if isinstance(c, dict) and "name" in c]
    raise ValueError("card database: expected a list of cards or an MTGJSON 'data' mapping")


@lru_cache(maxsize=4096)
def _builtin_lookup(name: str) -> tuple[str | None, dict | None] | None:
    """``name``'s spelling and record in the shipped database through its index (:mod:`.lookup`),
    without reading the whole database (start-up time); None when the database is already in memory
    or no index is available (then the callers read :func:`oracle_index`)."""
    if _builtin_index.cache_info().currsize:
        return None
    from .lookup import lookup

    return lookup(DEFAULT_DB, _builtin_index, name)


def _exact_record(name: str, path: str | None = None) -> dict | None:
    """``oracle_index(path).get(name)``, reading the whole database only when there is no index."""
    user = _user_index(path)
    if name in user:
        return user[name]
    found = _builtin_lookup(name)
    if found is None:
        return oracle_index(path).get(name)
    return found[1] if found[0] == name else None


@lru_cache(maxsize=8)
def _lower_index(path: str | None = None) -> dict[str, str]:
    return {n.lower(): n for n in oracle_index(path)}


def canonical_name(name: str, path: str | None = None) -> str | None:
    """The database's spelling of ``name`` (case-insensitive), or None; the
    user's database at ``path`` (``--cards``) first."""
    hit = _user_hit(name, path)
    if hit is not None:
        return hit
    if name in _library_data():
        return name
    found = _builtin_lookup(name)
    if found is not None and found[0] is not None:
        return found[0]  # what the lines below give, without reading the whole database
    idx = oracle_index(path)
    if name in idx:
        return name
    return _lower_index(path).get(name.lower()) or _face_aliases(path).get(name.lower())


@lru_cache(maxsize=8)
def _face_aliases(path: str | None = None) -> dict[str, str]:
    """A face's own name (lower case) → the multi-face card's full name ("Bonecrusher Giant" →
    "Bonecrusher Giant // Stomp"), where only one card has a face of that name and no card is
    called that (CR 709, 712, 715: each face has its own name)."""
    seen: dict[str, set[str]] = {}
    for full in oracle_index(path):
        if " // " in full:
            for face in full.split(" // "):
                seen.setdefault(face.lower(), set()).add(full)
    low = _lower_index(path)
    return {face: next(iter(fulls)) for face, fulls in seen.items() if len(fulls) == 1 and face not in low}


def suggest(name: str, path: str | None = None) -> str | None:
    """The closest known card name, for "did you mean" messages."""

    lib = list(LIBRARY)
    m = difflib.get_close_matches(name, lib, n=1, cutoff=0.6)
    if m:
        return m[0]
    low = _lower_index(path)
    m = difflib.get_close_matches(name.lower(), list(low), n=1, cutoff=0.8)
    return low[m[0]] if m else None


class UnknownCard(KeyError):
    def __init__(self, name: str, path: str | None = None):
        super().__init__(name)
        self.name = name
        self.suggestion = suggest(name, path)

    def __str__(self) -> str:
        s = f"unknown card '{self.name}'"
        if self.suggestion:
            s += f" (did you mean '{self.suggestion}'?)"
        return s


LIBRARY_DATA = Path(__file__).resolve().parent.parent / "data" / "library-cards.json"


@lru_cache(maxsize=None)
def _library_data() -> dict[str, dict]:
    """Oracle data of the hand-written library's cards, shipped separately so
    that situations using only those cards never load the 35,033-card
    database (start-up time). A test checks it equals the database's entries."""
    with open(LIBRARY_DATA, encoding="utf-8") as f:
        return json.load(f)


@lru_cache(maxsize=None)
def get_card(name: str, path: str | None = None) -> Card:
    """The card called ``name`` (case-insensitive) in the shipped database, or in the database
    with the user's file at ``path`` (:class:`CardDB`). Raises :class:`UnknownCard`."""

    user = _user_hit(name, path)  # the user's database (--cards) wins on a name clash
    if user is not None:
        data = CardData.from_mtgjson(with_data_colors(_user_index(path)[user]))
        build = LIBRARY.get(user)
        lib = _library_data()
        if build is not None and user in lib and data.text == CardData.from_mtgjson(lib[user]).text:
            abilities, spell = build(data)  # the same Oracle text: the hand-written behaviour
            return Card(data, tuple(abilities), spell, "library")
        return read_card(data)
    lib = _library_data()
    hit = name if name in lib else next((n for n in lib if n.lower() == name.lower()), None)
    if hit is not None:
        data = CardData.from_mtgjson(with_data_colors(lib[hit]))
        abilities, spell = LIBRARY[hit](data)
        return Card(data, tuple(abilities), spell, "library")
    canon = canonical_name(name, path)
    if canon is None:
        raise UnknownCard(name, path)
    data = CardData.from_mtgjson(with_data_colors(_exact_record(canon, path) or oracle_index(path)[canon]))
    build = LIBRARY.get(canon)
    if build is not None:
        abilities, spell = build(data)
        return Card(data, tuple(abilities), spell, "library")
    return read_card(data)


@lru_cache(maxsize=None)
def _face_cards(full_name: str) -> tuple[Card, ...]:
    """Every face of the card called ``full_name``, each read as a card of its own (a face on its
    own is one set of characteristics, so layout "normal": CR 709.1b, 712.2), in printed order;
    ``()`` when the face data has none (:func:`.faces.face_record`)."""
    rec = face_record(full_name)
    if rec is None:
        return ()
    faces_ = [dict(f) for f in rec.faces]
    if rec.layout == "flip":
        # a flipped permanent's mana cost and color don't change (CR 710.1c, 710.2): they are the card's
        for f in faces_[1:]:
            f["manaCost"], f["colors"] = faces_[0].get("manaCost"), faces_[0].get("colors")
    return tuple(read_card(CardData.from_mtgjson({**f, "layout": "normal"})) for f in faces_)


def faces(card: Card) -> tuple[Card, ...]:
    """Every face of ``card`` (a multi-face card: its front face first, CR 712.1; a split card's
    halves left to right, 709.1), each a :class:`Card` read like any card; ``()`` for a
    single-faced card or one whose other faces the data lacks."""
    return _face_cards(card.data.name) if " // " in card.data.name else ()


def face_named(card: Card, name: str) -> Card | None:
    """``card``'s face called ``name`` (case-insensitive), or None."""
    low = name.lower()
    return next((f for f in faces(card) if f.data.name.lower() == low), None)


def split_card(data: CardData) -> Card:
    """A split card whose halves are in the face data (CR 709): off the stack it has the
    combined characteristics of its halves (CR 709.4: both names, the combined mana cost,
    every color and type, both texts); it is cast as one half (709.3), whose abilities are the
    half's (:func:`other_faces`), so the whole card has no abilities of its own."""
    halves = _face_cards(data.name)
    cost = halves[0].data.mana_cost
    for h in halves[1:]:
        cost = cost + h.data.mana_cost

    def union(attr: str) -> tuple[str, ...]:
        out: list[str] = []
        for h in halves:
            out.extend(x for x in getattr(h.data, attr) if x not in out)
        return tuple(out)

    colors = set(cost.colors)
    for h in halves:
        colors |= set(h.data.colors or ())
    combined = replace(data, mana_cost=cost, types=union("types"), subtypes=union("subtypes"),
                       supertypes=union("supertypes"), colors=tuple(c for c in "WUBRG" if c in colors),
                       text="\n//\n".join(h.data.text for h in halves),
                       type_line=" // ".join(h.data.type_line for h in halves))
    return Card(combined, (), None, "reader")


def other_faces(card: Card) -> tuple[Card, ...]:
    """The faces ``card`` may be cast, played or turned to other than its front: both halves of a
    split card (CR 709.3), an Adventure (715.3), a modal double-faced card's back face (712.12),
    a transforming card's back face (712.8d), a flip card's flipped face (710), a meld card's
    melded face (712.4); ``()`` when none is known."""
    fs = faces(card)
    if not fs:
        return ()
    return fs if card.data.layout in ("split", "aftermath") else fs[1:]


def card_from_mapping(d: Mapping[str, Any], path: str | None = None) -> Card:
    """An inline card (contract §1: a mapping with MTGJSON's field names); ``path``: the user's
    card file of the database it is read beside (:class:`CardDB`)."""
    data = CardData.from_mtgjson(d)
    if data.unreadable_cost is not None:  # a user's inline card must use CR 107.4 symbols
        ManaCost.parse(data.unreadable_cost)  # raises ManaSyntaxError naming the symbol

    build = LIBRARY.get(data.name)
    known = _exact_record(data.name, path) if build is not None else None
    if build is not None and known is not None and data.text == CardData.from_mtgjson(known).text:
        abilities, spell = build(data)
        return Card(data, tuple(abilities), spell, "library")
    return read_card(data)


def read_card(data: CardData) -> Card:
    """Behaviour for a card outside the hand-written library.

    Uses the Oracle-text reader (:mod:`solver.reader`), which reports every
    line it does not read as unsupported (keywords with no rules meaning here
    included), so nothing is silently ignored.
    """
    from ..reader import read  # imported on first use: only cards outside the library need the reader

    if data.layout in ("split", "aftermath") and face_record(data.name) is not None:
        return split_card(data)
    extra: tuple[Ability, ...] = ()
    if data.unreadable_cost is not None:
        extra = (Unsupported(f"mana cost {data.unreadable_cost}", data.unreadable_cost),)
    abilities, spell = read(data)
    return Card(data, extra + tuple(abilities), spell, "reader")
