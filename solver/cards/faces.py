"""Every face of the multi-face cards, and the colors the card data gives.

The shipped database (``solver/data/oracle-cards.json.gz``) holds one record per card: for a
card named ``Front // Back`` that is its first face. ``solver/data/card-faces.json.gz`` holds
every face of 928 of the 949 such cards (MTGJSON field names; sources in
``solver/data/README.md``), and ``solver/data/card-colors.json.gz`` the colors of the 585 cards
whose color is not their mana cost's (a color indicator, CR 204; devoid, 702.114; a
color-defining ability, 604.3; a split card's both halves, 709.4).

A face is read like any card (:func:`solver.cards.read_card`), as a single-faced card
(``layout`` "normal") with its own characteristics: name, mana cost, types, text, power,
toughness, loyalty, defense and colors (CR 709.1b, 712.2 — each face has its own set of
characteristics).
"""
from __future__ import annotations

import gzip
import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping

DATA = Path(__file__).resolve().parent.parent / "data"
FACES_DATA = DATA / "card-faces.json.gz"
COLORS_DATA = DATA / "card-colors.json.gz"

#: Layouts whose faces are in the face data (MTGJSON's multi-face layouts).
FACE_LAYOUTS = frozenset({"adventure", "aftermath", "flip", "meld", "modal_dfc", "prepare", "reversible_card",
                          "split", "transform"})


@dataclass(frozen=True)
class FaceRecord:
    """The faces of one multi-face card: its layout and each face's MTGJSON fields, in printed
    order (side "a" first)."""

    full_name: str
    layout: str
    faces: tuple[Mapping[str, Any], ...]

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(str(f["name"]) for f in self.faces)


@lru_cache(maxsize=None)
def _faces() -> dict[str, FaceRecord]:
    with gzip.open(FACES_DATA, "rt", encoding="utf-8") as f:
        raw = json.load(f)["cards"]
    return {full: FaceRecord(full, str(e["layout"]), tuple(e["faces"])) for full, e in raw.items()}


@lru_cache(maxsize=None)
def _colors() -> dict[str, Mapping[str, Any]]:
    with gzip.open(COLORS_DATA, "rt", encoding="utf-8") as f:
        return dict(json.load(f)["cards"])


def face_record(full_name: str) -> FaceRecord | None:
    """The faces of the card called ``full_name`` (its database name, ``Front // Back``), or None
    when the face data has none (a single-faced card, or one of the 21 cards whose later faces no
    source had: they keep their first face only, card-faces.md)."""
    if " // " not in full_name:
        return None
    rec = _faces().get(full_name)
    return rec if rec is not None and len(rec.faces) == len(full_name.split(" // ")) else None


@lru_cache(maxsize=None)
def _by_face_name() -> dict[str, tuple[tuple[str, int], ...]]:
    out: dict[str, list[tuple[str, int]]] = {}
    for full, rec in _faces().items():
        for i, name in enumerate(rec.names):
            out.setdefault(name.lower(), []).append((full, i))
    return {k: tuple(v) for k, v in out.items()}


def cards_with_face(name: str) -> tuple[tuple[str, int], ...]:
    """``(full card name, face index)`` for every multi-face card with a face called ``name``
    (case-insensitive): a meld result is the back face of both its halves (CR 712.4)."""
    return _by_face_name().get(name.lower(), ())


def data_colors(name: str) -> Mapping[str, Any] | None:
    """The card data's colors for the card (or back face) called ``name``, when they are not its
    mana cost's: ``{"colors": [...], "colorIndicator": [...]?, "why": ...}``; None otherwise."""
    return _colors().get(name)


def with_data_colors(d: Mapping[str, Any]) -> Mapping[str, Any]:
    """An MTGJSON card mapping with the colors the card data gives it (unless it gives its own)."""
    if d.get("colors") is not None:
        return d
    found = data_colors(str(d.get("name")))
    if found is None:
        return d
    out = dict(d)
    out["colors"] = list(found["colors"])
    if found.get("colorIndicator") is not None:
        out["colorIndicator"] = list(found["colorIndicator"])
    return out
