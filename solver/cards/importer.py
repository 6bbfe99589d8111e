"""Build a card database from an MTGJSON file (``mtgsolve cards import``).

Accepted inputs (plain JSON or ``.gz``):

* AtomicCards — ``{"meta": …, "data": {name: [face, …]}}``;
* a set file — ``{"meta": …, "data": {"code": …, "cards": [card, …], …}}``;
* AllPrintings — ``{"data": {set code: {"cards": […]}, …}}``;
* a plain list of cards, like ``solver/data/oracle-cards.json.gz``
  (or ``{"data": [card, …]}``, which is what this module writes).

One entry is kept per card name: the first face of a multi-face card (the
front face, ``side`` "a", as the shipped database does), the first printing
of a card in a set file.  Each entry keeps MTGJSON's Oracle fields and gains an
``mtgsolve`` summary of what the reader made of it::

    {"supported": ["mana ability: {T}: add {G}", …],
     "unsupported": [{"what": "prowess", "text": "Prowess"}, …],
     "fully_supported": false, "source": "reader"}

(cards of the hand-written library say ``"source": "library"``).  The output
file is ``{"meta": {...}, "data": [card, …]}``, which
:func:`solver.cards.oracle_index` loads when ``MTGSOLVE_CARDS`` names it.
"""
from __future__ import annotations

import gzip
import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from ..core.ir import Unsupported
from . import CardData
from . import read_card
from .library import LIBRARY

FORMAT = "mtgsolve-cards/1"
# MTGJSON fields the card database keeps (Oracle facts; printings' fields are dropped).
KEEP_FIELDS: tuple[str, ...] = (
    "name", "faceName", "manaCost", "type", "types", "subtypes", "supertypes", "power", "toughness", "loyalty",
    "defense", "text", "keywords", "layout", "colors", "colorIdentity", "manaValue", "side")


def _open_text(path: str | os.PathLike, mode: str = "rt"):
    p = str(path)
    if p.endswith(".gz"):
        return gzip.open(p, mode, encoding="utf-8")
    return open(p, mode, encoding="utf-8")


def _face_key(c: Mapping[str, Any]) -> tuple:
    return (0 if c.get("side") in (None, "a") else 1,)


def flatten(raw: Any) -> tuple[list[dict], str]:
    """Card mappings (one per name) from any accepted MTGJSON shape, and the shape's name."""
    shape = "list"
    if isinstance(raw, dict) and "data" in raw:
        raw = raw["data"]
        shape = "data"
    cards: list[dict] = []
    if isinstance(raw, list):
        cards = [c for c in raw if isinstance(c, dict) and c.get("name")]
        shape = "list" if shape == "list" else "data list"
    elif isinstance(raw, dict) and isinstance(raw.get("cards"), list):
        cards = [c for c in raw["cards"] if isinstance(c, dict) and c.get("name")]
        shape = "set file"
    elif isinstance(raw, dict) and raw and all(isinstance(v, dict) and "cards" in v for v in raw.values()):
        for code in sorted(raw):
            cards.extend(c for c in raw[code]["cards"] if isinstance(c, dict) and c.get("name"))
        shape = "AllPrintings"
    elif isinstance(raw, dict):
        for name, faces in raw.items():
            if isinstance(faces, dict):
                faces = [faces]
            if not isinstance(faces, list) or not faces:
                continue
            face = dict(sorted(faces, key=_face_key)[0])
            face.setdefault("name", name)
            cards.append(face)
        shape = "AtomicCards"
    else:
        raise ValueError("card file: expected a list of cards or an MTGJSON 'data' object")
    seen: dict[str, dict] = {}
    for c in cards:
        name = str(c["name"])
        prev = seen.get(name)
        if prev is None or _face_key(c) < _face_key(prev):
            seen[name] = c
    return list(seen.values()), shape


def load_cards(path: str | os.PathLike) -> list[dict]:
    """The cards of an MTGJSON file, one mapping per card name (see :func:`flatten`)."""
    with _open_text(path) as f:
        raw = json.load(f)
    return flatten(raw)[0]


def card_data(raw: Mapping[str, Any]):
    """``(CardData, bad_cost)``: the card's data; a mana cost the project cannot parse
    (un-set symbols such as ``{D}``) is replaced by no cost and flagged."""

    try:
        return CardData.from_mtgjson(raw), False
    except ValueError:
        d = dict(raw)
        d["manaCost"] = ""
        return CardData.from_mtgjson(d), True


def summarise(raw: Mapping[str, Any]) -> dict[str, Any]:
    """What the project understands of one card: the ``mtgsolve`` entry of the database."""

    data, bad_cost = card_data(raw)
    build = LIBRARY.get(data.name)
    if build is not None:
        abilities, spell = build(data)
        source = "library"
    else:
        card = read_card(data)
        abilities, spell, source = list(card.abilities), card.spell, card.source
    supported = [a.describe() for a in abilities if not isinstance(a, Unsupported)]
    if spell is not None:
        supported.append(spell.describe())
    unsupported = [{"what": a.what, "text": a.text} for a in abilities if isinstance(a, Unsupported)]
    if bad_cost:
        unsupported.insert(0, {"what": "mana cost", "text": str(raw.get("manaCost") or "")})
    return {"supported": supported, "unsupported": unsupported, "fully_supported": not unsupported,
            "source": source}


@dataclass
class ImportSummary:
    """What ``cards import`` did."""

    source: str
    out: str
    shape: str = ""
    cards: int = 0
    fully_supported: int = 0
    with_unsupported: int = 0
    seconds: float = 0.0
    top_unsupported: list[tuple[str, int]] = field(default_factory=list)

    def lines(self) -> list[str]:
        share = 100 * self.fully_supported / self.cards if self.cards else 0.0
        out = [f"Imported {self.cards:,} cards from {self.source} ({self.shape}) into {self.out}",
               f"  fully supported: {self.fully_supported:,} ({share:.1f}%); "
               f"with unsupported parts: {self.with_unsupported:,}",
               f"  took {self.seconds:.2f} s"]
        if self.top_unsupported:
            out.append("  most common unsupported parts:")
            out.extend(f"    {n:6,}  {w}" for w, n in self.top_unsupported)
        return out

    def __str__(self) -> str:
        return "\n".join(self.lines())

    def to_json(self) -> dict[str, Any]:
        return {"source": self.source, "out": self.out, "shape": self.shape, "cards": self.cards,
                "fully_supported": self.fully_supported, "with_unsupported": self.with_unsupported,
                "seconds": round(self.seconds, 3),
                "top_unsupported": [{"what": w, "count": n} for w, n in self.top_unsupported]}


def import_cards(src_path: str | os.PathLike, out_path: str | os.PathLike, top: int = 10) -> ImportSummary:
    """Read an MTGJSON file and write the card database to ``out_path`` (gzip if it ends in ``.gz``).

    The file is written to a temporary name and renamed, so a failed import
    leaves nothing half-written.
    """
    from collections import Counter

    t0 = time.perf_counter()
    with _open_text(src_path) as f:
        raw = json.load(f)
    cards, shape = flatten(raw)
    summary = ImportSummary(source=str(src_path), out=str(out_path), shape=shape)
    counts: Counter = Counter()
    out_cards = []
    for c in sorted(cards, key=lambda c: str(c["name"])):
        entry = {k: c[k] for k in KEEP_FIELDS if k in c}
        entry["mtgsolve"] = s = summarise(c)
        out_cards.append(entry)
        summary.cards += 1
        if s["fully_supported"]:
            summary.fully_supported += 1
        else:
            summary.with_unsupported += 1
            for u in s["unsupported"]:
                counts[u["what"]] += 1
    summary.top_unsupported = counts.most_common(top)
    doc = {"meta": {"format": FORMAT, "source": os.path.basename(str(src_path)), "cards": summary.cards,
                    "fully_supported": summary.fully_supported},
           "data": out_cards}
    out = Path(out_path)
    if out.parent and not out.parent.exists():
        out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(out.name + ".tmp")
    try:
        if str(out).endswith(".gz"):
            with gzip.open(tmp, "wt", encoding="utf-8") as f:
                json.dump(doc, f, ensure_ascii=False, separators=(",", ":"))
        else:
            with open(tmp, "w", encoding="utf-8") as f:
                json.dump(doc, f, ensure_ascii=False, indent=0, separators=(",", ":"))
        os.replace(tmp, out)
    finally:
        if tmp.exists():
            tmp.unlink()
    summary.seconds = time.perf_counter() - t0
    return summary
