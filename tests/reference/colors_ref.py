"""Brute-force reference for an object's color (CR 105.2, 202.2), written independently of
``solver/rules/characteristics.py``: it reads the shipped data files with the standard library and
the printed mana cost as a string, nothing of the engine.

An object's colors, as printed (no continuous effect), are

* the colors the shipped color data gives for the card's name (``card-colors.json.gz``: a color
  indicator, CR 204; devoid, 702.114a; a color-defining ability, 604.3; a split card's halves,
  709.4);
* else, for a later face of a multi-face card, the face's own ``colors`` in ``card-faces.json.gz``
  (None: unknown — the caller skips it);
* else what the text's own characteristic-defining ability says: a line "Devoid", "<name> is
  colorless." or "<name> is all colors." (604.3);
* else the colored symbols of the printed mana cost (202.2; hybrid symbols count both colors).
"""
from __future__ import annotations

import gzip
import json
import re
from functools import lru_cache
from pathlib import Path

DATA = Path(__file__).resolve().parent.parent.parent / "solver" / "data"
UNKNOWN = None


@lru_cache(maxsize=None)
def color_data() -> dict[str, list[str]]:
    with gzip.open(DATA / "card-colors.json.gz", "rt", encoding="utf-8") as f:
        return {name: list(e["colors"]) for name, e in json.load(f)["cards"].items()}


@lru_cache(maxsize=None)
def later_faces() -> dict[str, list[str] | None]:
    """Each later face's name (side b, c …) and its ``colors`` in the face data (None: unknown)."""
    with gzip.open(DATA / "card-faces.json.gz", "rt", encoding="utf-8") as f:
        raw = json.load(f)["cards"]
    out: dict[str, list[str] | None] = {}
    for entry in raw.values():
        for face in entry["faces"][1:]:
            out[str(face["name"])] = face.get("colors")
    return out


def cost_colors(mana_cost: str) -> frozenset[str]:
    """The colors of the symbols of a printed mana cost such as ``{2}{W/U}{B}`` (CR 202.2)."""
    out: set[str] = set()
    for sym in re.findall(r"\{([^}]*)\}", mana_cost or ""):
        out |= {c for c in sym.upper().split("/") if c in "WUBRG"}
    return frozenset(out)


def text_colors(name: str, text: str) -> frozenset[str] | None:
    """What the card's own characteristic-defining line says of its color, or None (CR 604.3)."""
    for line in (text or "").split("\n"):
        line = re.sub(r"\([^)]*\)", "", line).strip()
        if line.lower() == "devoid":
            return frozenset()
        if line == f"{name} is colorless.":
            return frozenset()
        if line.startswith(f"{name} is all colors."):
            return frozenset("WUBRG")
    return None


def printed_colors(name: str, mana_cost: str, text: str, face_of: str | None = None) -> frozenset[str] | None:
    """The colors of the card called ``name`` (a face's own name when it shows a later face;
    ``face_of``: then the whole card's name), or None when the data gives none for a later face."""
    data = color_data()
    if name in data:
        return frozenset(data[name])
    if face_of is not None and name in later_faces():
        face = later_faces()[name]
        return None if face is None else frozenset(face)
    by_text = text_colors(name, text)
    if by_text is not None:
        return by_text
    return cost_colors(mana_cost)
