"""What the project understood of a card, for ``mtgsolve cards show``.

A multi-face card is described whole and face by face (CR 709.1b, 712.2, 715.2: each face has its own
set of characteristics): per face its name, mana cost, type line, power/toughness, loyalty, defense,
colors (with the color indicator when the face has one, CR 204), Oracle text and what the reader made
of it. A face the card data lacks is listed as unread (``read: false``). Naming a face's own name
(``Insectile Aberration``, ``Stomp``) describes the whole card (:func:`card_for_show`).
"""
from __future__ import annotations

from typing import Any

from ..cards import Card, CardDB, faces
from ..cards.faces import cards_with_face
from ..core.ir import AFFECTS, Unsupported, is_activated, is_triggered
from ..io.faces import by_face_name
from ..rules.soundness.unread import MULTI_FACE
from ..rules.soundness.unread import card_parts

BASIC_MANA = {"Plains": "W", "Island": "U", "Swamp": "B", "Mountain": "R", "Forest": "G"}


def card_for_show(name: str, cards: CardDB) -> tuple[Card, str | None]:
    """The card ``cards show NAME`` describes and the later face ``name`` named (None: the card or its front):
    a later face's own name, even where the database also lists that face as an entry of its own
    (a transforming card's back face, a meld result), is the whole multi-face card (CR 712.2).
    Raises :class:`solver.cards.UnknownCard`."""
    hit = by_face_name(name, cards)
    if hit is not None:
        return hit
    return cards.get(name), None


def also_face_of(name: str, card: Card) -> list[str]:
    """The other multi-face cards with a face called ``name`` ("Fire": Start // Fire and Fire // Ice;
    a meld result: both its halves), by name."""
    return sorted({full for full, _ in cards_with_face(name)} - {card.data.name})


def _lines(card: Card) -> list[str]:
    """One line per ability in printed order (numbered as ``{object, index}`` counts them), the
    intrinsic mana abilities of basic land types (CR 305.6) and the spell effect."""
    d = card.data
    lines: list[str] = []
    n_act = n_trig = 0
    for a in card.abilities:
        if is_activated(a):
            n_act += 1
            lines.append(f"[activated {n_act}] {a.describe()}")
        elif is_triggered(a):
            n_trig += 1
            lines.append(f"[triggered {n_trig}] {a.describe()}")
        else:
            lines.append(a.describe())
    if "Land" in d.types:
        for t, c in BASIC_MANA.items():
            if t in d.subtypes:
                lines.append(f"intrinsic (CR 305.6, {t}): mana ability: {{T}}: add {{{c}}}")
    if card.spell is not None:
        lines.append(card.spell.describe())
    return lines


def _colors(card: Card) -> list[str]:
    """The card's colors (CR 202.2: its mana cost's, or the card data's — a color indicator, 204;
    devoid, 702.114; a split card's both halves, 709.4), in WUBRG order."""
    d = card.data
    cs = d.colors if d.colors is not None else tuple(c for c in "WUBRG" if c in d.mana_cost.colors)
    return list(cs)


def _reading(card: Card, unread: list[tuple[str, str, frozenset[str]]]) -> dict[str, Any]:
    """What the reader made of one card or face: its lines, unread parts and read structures."""
    return {
        "lines": _lines(card),
        "unsupported": [u.text or u.what for u in card.abilities if isinstance(u, Unsupported)],
        "unread": [{"text": t, "kind": k, "affects": [a for a in AFFECTS if a in aff]} for t, k, aff in unread],
        # the structure read of unread lines (kind, cost, timing, target slots; reader/skeleton.py)
        "structures": [{"text": u.text or u.what, "structure": u.structure.describe()}
                       for u in card.abilities if isinstance(u, Unsupported) and u.structure is not None],
    }


def _characteristics(card: Card) -> dict[str, Any]:
    d = card.data
    return {"name": d.name, "mana_cost": d.mana_cost.text, "type_line": d.type_line, "power": d.power,
            "toughness": d.toughness, "loyalty": d.loyalty, "defense": d.defense, "colors": _colors(card),
            "color_indicator": None if d.color_indicator is None else list(d.color_indicator),
            "oracle_text": d.text}


def describe_face(face: Card) -> dict[str, Any]:
    """One face, read as a card of its own (CR 709.1b, 712.2): its characteristics, its Oracle
    text and what the reader made of it; ``read`` true (the face is in the card data)."""
    unread = card_parts(face)
    return {**_characteristics(face), "read": True, "fully_modeled": not unread, **_reading(face, unread)}


def _faces(card: Card) -> list[dict[str, Any]]:
    """Every face of a multi-face card, front first (a split card's halves left to right); a face
    the card data lacks: its name and ``read`` false (it stays an unread part)."""
    known = faces(card)
    if known:
        return [describe_face(f) for f in known]
    names = card.data.name.split(" // ")
    return [{"name": names[0], "read": True}] + [{"name": f, "read": False} for f in names[1:]]


def describe_card(card: Card) -> dict:
    """A deterministic description of the card as a whole (its front face, or a split card's
    combined characteristics, CR 709.4): characteristics, ``lines`` (one per ability in printed
    order), every unsupported part; and for a multi-face card ``faces``, each face described by
    :func:`describe_face` (the front's abilities are the card's own; a split card's are its
    halves', 709.3). ``fully_modeled`` is true only when every face is."""
    d = card.data
    unread = card_parts(card)
    out: dict[str, Any] = {
        **_characteristics(card),
        "layout": d.layout,
        "source": card.source,
        "fully_modeled": not unread,
        **_reading(card, unread),
    }
    if " // " in d.name or d.layout in MULTI_FACE:
        out["faces"] = _faces(card)
        out["fully_modeled"] = out["fully_modeled"] and all(f.get("fully_modeled", f["read"]) for f in out["faces"])
    return out
