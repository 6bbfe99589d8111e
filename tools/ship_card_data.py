"""Build the shipped face and colour data (``solver/data/card-faces.json.gz``,
``solver/data/card-colors.json.gz``) from the project's shared card facts
(``../shared/data/card-faces.json.gz``, ``card-colors.json.gz``; their sources, commits and known
gaps are in ``../shared/data/card-faces.md``, summarised in ``solver/data/README.md``).

Run from the repository root: ``python tools/ship_card_data.py [SHARED_DATA_DIR]``. The output is
deterministic (sorted keys, no timestamps, gzip mtime 0), so a rerun on the same input writes the
same bytes. The package never reads ``../shared`` at run time.

What is kept: per face the characteristics the rules read (name, side, mana cost, type line and
types, power, toughness, loyalty, defense, text, colours, colour indicator) and ``source``; per
colour entry ``colors``, ``colorIndicator`` and ``why``. Where the colour file and the face file
disagree on a face's colours (the three LCI back faces card-faces.md names), the colour file —
the majority of its sources — wins.
"""
from __future__ import annotations

import gzip
import io
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "solver" / "data"
FACE_FIELDS = ("name", "side", "manaCost", "type", "types", "subtypes", "supertypes", "keywords", "power",
               "toughness", "loyalty", "defense", "text", "colors", "colorIndicator", "source")
COLOR_FIELDS = ("colors", "colorIndicator", "why")


def _write(path: Path, doc: object) -> None:
    raw = json.dumps(doc, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode("utf-8")
    buf = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=buf, mtime=0, compresslevel=9) as f:
        f.write(raw)
    path.write_bytes(buf.getvalue())


def main(shared: Path) -> None:
    faces = json.load(gzip.open(shared / "card-faces.json.gz", "rt", encoding="utf-8"))
    colors = json.load(gzip.open(shared / "card-colors.json.gz", "rt", encoding="utf-8"))
    col = {n: {k: v[k] for k in COLOR_FIELDS if k in v} for n, v in colors["cards"].items()}
    cards = {}
    for full, entry in faces["cards"].items():
        out_faces = []
        for f in entry["faces"]:
            g = {k: f[k] for k in FACE_FIELDS if k in f}
            fixed = col.get(f["name"])
            if fixed is not None and f.get("side") != "a" and fixed["colors"] != g.get("colors"):
                g["colors"] = fixed["colors"]           # the colour file's majority (card-faces.md)
                if "colorIndicator" in fixed:
                    g["colorIndicator"] = fixed["colorIndicator"]
            out_faces.append(g)
        cards[full] = {"layout": entry["layout"], "faces": out_faces}
    about = ("Every face of the multi-face cards of oracle-cards.json.gz (names with ' // '), MTGJSON field "
             "names; card facts from MTGJSON (2022, 2026 set files), the project's own database, Scryfall "
             "spoiler data and Forge card scripts' fact lines: see solver/data/README.md. Built by "
             "tools/ship_card_data.py.")
    _write(OUT / "card-faces.json.gz", {"_about": about, "cards": cards})
    about_c = ("The colours of the cards whose colour is not their mana cost's: colour indicators (CR 204), "
               "devoid (702.114), colour-defining abilities (604.3), split and aftermath cards (709.4). Keys "
               "are oracle-cards names (a back face under its own name). Sources: see solver/data/README.md. "
               "Built by tools/ship_card_data.py.")
    _write(OUT / "card-colors.json.gz", {"_about": about_c, "cards": col})


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT.parent / "shared" / "data")
