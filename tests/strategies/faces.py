"""Random boards with multi-face cards of every layout the card data has, in every zone and
every legal state (issue 24 item 5): a permanent front or back face up (``face``, or the face's
own name written as the card), a flip card flipped, a melded permanent, a spell on the stack as
each face or half, an adventurer card in exile with or without ``on_adventure``, the game's
``day_night``. Only legal combinations (docs/situation-format.md "Faces"); the fuzz test
(tests/test_fuzz_input.py) draws the illegal ones.

:func:`face_boards` draws a situation document (a dict, ``format: mtgsolve/1``) whose objects
have explicit ids (``o1``, ``o2``, …); :data:`FACE_CARDS` lists the cards by layout."""
from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

#: Multi-face cards by layout: (card as written, its full name).
FACE_CARDS: dict[str, tuple[str, ...]] = {
    "transform": ("Delver of Secrets // Insectile Aberration", "Search for Azcanta // Azcanta, the Sunken Ruin",
                  "Dowsing Dagger // Lost Vale", "Reckless Stormseeker // Storm-Charged Slasher",
                  "Brutal Cathar // Moonrage Brute"),
    "modal_dfc": ("Blightstep Pathway // Searstep Pathway", "Brightclimb Pathway // Grimclimb Pathway",
                  "Clearwater Pathway // Murkwater Pathway", "Cragcrown Pathway // Timbercrown Pathway",
                  "Tangled Florahedron // Tangled Vale", "Kazandu Mammoth // Kazandu Valley",
                  "Skyclave Cleric // Skyclave Basilica", "Spikefield Hazard // Spikefield Cave",
                  "Emeria's Call // Emeria, Shattered Skyclave", "Esika, God of the Tree // The Prismatic Bridge",
                  "Kianne, Dean of Substance // Imbraham, Dean of Theory"),
    "adventure": ("Bonecrusher Giant // Stomp", "Brazen Borrower // Petty Theft", "Lovestruck Beast // Heart's Desire",
                  "Giant Killer // Chop Down"),
    "split": ("Fire // Ice", "Spite // Malice", "Dead // Gone"),
    "aftermath": ("Cut // Ribbons", "Commit // Memory"),
    "flip": ("Akki Lavarunner // Tok-Tok, Volcano Born", "Budoka Gardener // Dokai, Weaver of Life"),
    "meld": ("Hanweir Battlements // Hanweir, the Writhing Township", "Graf Rats // Chittering Host"),
}
#: Each meld card's partner (CR 712.4a) and the melded face.
MELD = {"Hanweir Battlements // Hanweir, the Writhing Township":
        ("Hanweir Garrison // Hanweir, the Writhing Township", "Hanweir, the Writhing Township"),
        "Graf Rats // Chittering Host": ("Midnight Scavengers // Chittering Host", "Chittering Host")}
DAYBOUND = ("Reckless Stormseeker // Storm-Charged Slasher", "Brutal Cathar // Moonrage Brute")
PLAIN_PERMANENTS = ("Forest", "Island", "Mountain", "Swamp", "Plains", "Grizzly Bears", "White Knight",
                    "Black Knight", "Llanowar Elves")
#: Spells that ask about colors, types and mana values of what they target.
SPELLS = ("Doom Blade", "Abrupt Decay", "Fatal Push", "Lightning Bolt", "Essence Scatter", "Negate",
          "Red Elemental Blast", "Force of Will")
#: Spells on the stack: (card, face or None, targets given as "player", "permanent" or None).
STACK_SPELLS: tuple[tuple[str, str | None, str | None], ...] = (
    ("Bonecrusher Giant // Stomp", None, None), ("Bonecrusher Giant // Stomp", "Stomp", "player"),
    ("Lovestruck Beast // Heart's Desire", "Heart's Desire", None), ("Brazen Borrower // Petty Theft", None, None),
    ("Fire // Ice", "Ice", "permanent"), ("Spite // Malice", "Malice", "creature"),
    ("Delver of Secrets // Insectile Aberration", None, None), ("Kazandu Mammoth // Kazandu Valley", None, None),
    ("Spikefield Hazard // Spikefield Cave", None, "player"), ("Skyclave Cleric // Skyclave Basilica", None, None),
    ("Akki Lavarunner // Tok-Tok, Volcano Born", None, None), ("Graf Rats // Chittering Host", None, None),
    ("Cut // Ribbons", "Cut", "creature"), ("Lightning Bolt", None, "player"),
    ("Esika, God of the Tree // The Prismatic Bridge", "The Prismatic Bridge", None),
    ("Kianne, Dean of Substance // Imbraham, Dean of Theory", "Imbraham, Dean of Theory", None),
    ("Beloved Beggar // Generous Soul", "Generous Soul", None))            # disturb (CR 702.146b)

ALL_FACE_CARDS = tuple(c for cards in FACE_CARDS.values() for c in cards)
PLAYERS = ("alice", "bob")


def layout_of(full: str) -> str:
    return next((k for k, v in FACE_CARDS.items() if full in v), "normal")


def _faces(full: str) -> list[str]:
    return full.split(" // ")


def _named(draw, full: str, face: str | None, obj: dict[str, Any]) -> dict[str, Any]:
    """The card written as its full name, its front's name, or (a later face shown) that face's
    own name in place of ``face``."""
    how = draw(st.sampled_from(["full", "front", "own"]))
    if face is not None and how == "own" and layout_of(full) not in ("split", "aftermath", "meld"):
        return {**obj, "card": face}
    obj = {**obj, "card": full if how == "full" or layout_of(full) in ("split", "aftermath") else _faces(full)[0]}
    if face is not None:
        obj["face"] = face
    return obj


def _front_is_permanent(full: str) -> bool:
    return full not in ("Spikefield Hazard // Spikefield Cave", "Emeria's Call // Emeria, Shattered Skyclave")


@st.composite
def _permanent(draw, oid: str, day_night: str | None) -> dict[str, Any]:
    base: dict[str, Any] = {"id": oid, "tapped": draw(st.integers(0, 3)) == 0}
    if draw(st.integers(0, 3)) == 0:
        return {**base, "card": draw(st.sampled_from(PLAIN_PERMANENTS))}
    layout = draw(st.sampled_from(["transform", "modal_dfc", "adventure", "flip", "meld"]))
    pool = FACE_CARDS[layout] if day_night is not None else [c for c in FACE_CARDS[layout] if c not in DAYBOUND]
    full = draw(st.sampled_from(pool))   # a daybound permanent means it is day or night (CR 702.145d)
    back = _faces(full)[1]
    if full in DAYBOUND:     # CR 702.145: front face up by day, back face up at night
        face = back if day_night == "night" else None
    elif layout in ("adventure",):
        face = None                                  # CR 715.4: a permanent adventurer is the creature
    elif layout == "meld":
        if draw(st.booleans()):
            return {**base, "card": draw(st.sampled_from([full, MELD[full][0]])).split(" // ")[0]}
        melded = MELD[full][1]
        return {**base, "card": melded} if draw(st.booleans()) else {**base, "card": full.split(" // ")[0],
                                                                      "face": melded}
    else:
        face = back if (draw(st.booleans()) or not _front_is_permanent(full)) else None
    return _named(draw, full, face, base)


@st.composite
def _card_elsewhere(draw, oid: str, zone: str) -> dict[str, Any]:
    pool = ALL_FACE_CARDS + (SPELLS if zone == "hand" else ()) + PLAIN_PERMANENTS[:2]
    full = draw(st.sampled_from(pool))
    obj: dict[str, Any] = {"id": oid}
    if zone == "exile" and layout_of(full) == "adventure" and draw(st.booleans()):
        obj["on_adventure"] = True                  # CR 715.3d
    if " // " not in full:
        return {**obj, "card": full}
    how = draw(st.sampled_from(["full", "front", "own"]))
    if how == "own" and zone == "hand" and layout_of(full) not in ("split", "aftermath", "meld"):
        return {**obj, "card": _faces(full)[1]}      # a later face's name names the card in the hand
    return {**obj, "card": full if how != "front" or layout_of(full) in ("split", "aftermath") else _faces(full)[0]}


@st.composite
def face_boards(draw, *, stack: bool = True, require_stack: bool = False, max_permanents: int = 5) -> dict[str, Any]:
    """A legal situation document with multi-face cards in every zone (no query); with
    ``require_stack`` one or two spells on the stack, without ``stack`` none."""
    day_night = draw(st.sampled_from([None, "day", "night"]))
    n = [0]

    def oid() -> str:
        n[0] += 1
        return f"o{n[0]}"

    bf: dict[str, list] = {"alice": [{"id": oid(), "card": draw(st.sampled_from(PLAIN_PERMANENTS[:5]))}
                                     for _ in range(draw(st.integers(0, 3)))],
                           "bob": [{"id": "bears", "card": "Grizzly Bears"}]}
    for _ in range(draw(st.integers(0, max_permanents))):
        bf[draw(st.sampled_from(PLAYERS))].append(draw(_permanent(oid(), day_night)))
    if draw(st.integers(0, 5)) == 0:   # both halves of a meld pair, unmelded, on one side (CR 712.4)
        full = draw(st.sampled_from(sorted(MELD)))
        side = draw(st.sampled_from(PLAYERS))
        bf[side] += [{"id": oid(), "card": full.split(" // ")[0]},
                     {"id": oid(), "card": MELD[full][0].split(" // ")[0]}]
    doc: dict[str, Any] = {"format": "mtgsolve/1", "players": list(PLAYERS), "battlefield": bf}
    for zone in ("hand", "graveyard", "library", "exile"):
        cards = [draw(_card_elsewhere(oid(), zone)) for _ in range(draw(st.integers(0, 3 if zone == "hand" else 2)))]
        if cards:
            doc[zone] = {"alice": cards}
    if require_stack or (stack and draw(st.booleans())):
        items = []
        for _ in range(draw(st.integers(1, 2))):
            card, face, tg = draw(st.sampled_from(STACK_SPELLS))
            who = draw(st.sampled_from(PLAYERS))
            item: dict[str, Any] = {"id": oid(), "card": card, "controller": who, "owner": who}
            if face is not None:
                item = _named(draw, card, face, item) if layout_of(card) not in ("split", "aftermath") else \
                    {**item, "face": face}
            if tg == "player":
                item["targets"] = [["bob" if who == "alice" else "alice"]]
            elif tg in ("permanent", "creature"):
                item["targets"] = [["bears"]]
            items.append(item)
        doc["stack"] = items
    active = draw(st.sampled_from(PLAYERS))
    step = "main1" if "stack" not in doc and draw(st.booleans()) else draw(st.sampled_from(["main1", "end", "upkeep"]))
    doc["turn"] = {"number": 3, "active": active, "step": step, "priority": draw(st.sampled_from(PLAYERS)),
                   "lands_played": draw(st.integers(0, 1))}
    if day_night is not None:
        doc["day_night"] = day_night
    return doc
