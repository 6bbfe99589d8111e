"""Brute-force reference for the faces of multi-face cards (issue 24): what each object of a
board *is* — its name, mana value, colors, types, power and toughness — computed here from
the shipped face data (``solver/data/card-faces.json.gz``, read directly, not through the
card library), the zone and the face the situation records; which faces an object may show in
each zone (the loader's validation, for the fuzz test); what each land or mana creature could
produce, read plainly from the text of its face that is up; and each face as a card of its own.

Independent of ``solver.cards.faces``, ``solver.io.faces`` and ``solver.rules.characteristics``.
The rules, as the reference reads them:

* CR 712.8a, 710.2, 715.4: off the battlefield and the stack a card has only its front face's
  characteristics (a flip card unflipped, an adventurer card as the creature);
* CR 709.4: a split (or aftermath) card off the stack has both halves' characteristics
  combined — both names, the total mana value, every color and type; 709.3b: on the stack only
  the half cast;
* CR 712.8d: a double-faced permanent with its back face up, or a spell cast as its back face
  (712.11b), has the back face's characteristics; 712.8e: a *transforming* card's back face
  has the mana value of its front face (a modal double-faced card's back face its own);
* CR 710.1c: a flipped flip card keeps its color and mana cost;
* CR 712.8g: a melded permanent's mana value is the total of its two fronts';
* CR 715.3b: a spell cast as an Adventure has only the Adventure's characteristics.
"""
from __future__ import annotations

import gzip
import json
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

from mtgsolve.solver.cards import card_from_mapping
from mtgsolve.solver.core.state import GameState, GameObject

FACES_FILE = Path(__file__).resolve().parents[2] / "solver" / "data" / "card-faces.json.gz"
BATTLEFIELD_BACK = ("transform", "modal_dfc", "flip", "meld")   # CR 712.8d, 712.12, 710.1, 712.4
STACK_FACES = ("adventure", "split", "aftermath", "modal_dfc", "transform")  # 715.3, 709.3, 712.11, 702.146
WUBRG = "WUBRG"


@lru_cache(maxsize=None)
def records() -> dict[str, dict[str, Any]]:
    """The face data: full card name → ``{"layout", "faces": [MTGJSON face, …]}``, complete
    records only (one face per ``//`` part)."""
    with gzip.open(FACES_FILE, "rt", encoding="utf-8") as f:
        raw = json.load(f)["cards"]
    return {k: v for k, v in raw.items() if len(v["faces"]) == len(k.split(" // "))}


def record(full_name: str) -> dict[str, Any] | None:
    return records().get(full_name)


def mana_value(cost: str | None) -> int:
    """CR 202.3: the total of a mana cost's symbols, read plainly ({X} 0, {2/W} 2, hybrid 1)."""
    n = 0
    for sym in re.findall(r"\{([^}]*)\}", cost or ""):
        if sym.isdigit():
            n += int(sym)
        elif sym in ("X", "Y", "Z"):
            continue
        elif sym.startswith("2/"):
            n += 2
        else:
            n += 1
    return n


def _face(full: str, name: str) -> dict[str, Any]:
    rec = records()[full]
    return next(f for f in rec["faces"] if f["name"].lower() == name.lower())


def _plain(face: dict[str, Any], mv: int, colors: set[str] | None = None) -> dict[str, Any]:
    def num(v: Any) -> int | None:
        return int(v) if isinstance(v, str) and v.lstrip("-").isdigit() else None

    return {"name": face["name"], "mana_value": mv,
            "colors": set(face["colors"] or ()) if colors is None else colors,
            "types": set(face["types"]), "subtypes": set(face["subtypes"]), "supertypes": set(face["supertypes"]),
            "power": num(face["power"]), "toughness": num(face["toughness"])}


def characteristics(o: GameObject) -> dict[str, Any] | None:
    """The printed characteristics of ``o`` from the face data (None: not a multi-face card
    whose faces the data holds). ``o``'s recorded face is read from the situation as loaded:
    the face name it shows (``o.card.name`` when it records another card as ``front``) and
    the card it is (its full name)."""
    whole = o.front if o.front is not None else o.card
    if whole is None:
        return None
    full = whole.data.name
    rec = record(full)
    if rec is None:
        return None
    layout, fs = rec["layout"], rec["faces"]
    shown = o.card.data.name if o.front is not None else None
    if layout in ("split", "aftermath") and not (o.zone == "stack" and shown):
        out = _plain(fs[0], sum(mana_value(f["manaCost"]) for f in fs),
                     {c for f in fs for c in (f["colors"] or ())})        # CR 709.4
        for f in fs[1:]:
            for k in ("types", "subtypes", "supertypes"):
                out[k] |= set(f[k])
        out["name"] = full
        return out
    if shown is None:
        return _plain(fs[0], mana_value(fs[0]["manaCost"]))
    face = _face(full, shown)
    if layout == "transform":
        return _plain(face, mana_value(fs[0]["manaCost"]))                # CR 712.8e
    if layout == "flip":
        return _plain(face, mana_value(fs[0]["manaCost"]), set(fs[0]["colors"] or ()))   # CR 710.1c
    if layout == "meld":
        other = o.melded_with
        total = mana_value(fs[0]["manaCost"])
        if other is not None:
            orec = record(other.data.name)
            total += mana_value(orec["faces"][0]["manaCost"] if orec else other.data.mana_cost.text)
        return _plain(face, total)                                         # CR 712.8g
    return _plain(face, mana_value(face["manaCost"]))                      # 712.8d, 715.3b, 709.3b


# ---------------------------------------------------------------------------
# Which face an object may show where (the loader's validation, CR 712.8a)
# ---------------------------------------------------------------------------


def _types_shown(rec: dict[str, Any], face_index: int | None) -> set[str]:
    fs = rec["faces"]
    if face_index is None and rec["layout"] in ("split", "aftermath"):
        return {t for f in fs for t in f["types"]}
    return set(fs[face_index or 0]["types"])


def day_or_night_bound(full: str, face_index: int | None) -> bool:
    """Does the face shown have daybound or nightbound (CR 702.145)? Then, on the battlefield, it is
    day or night (702.145d): with no ``day_night`` the situation can't be."""
    rec = record(full)
    if rec is None or rec["layout"] != "transform":
        return False
    text = rec["faces"][face_index or 0]["text"] or ""
    return bool(re.search(r"^(Daybound|Nightbound)\b", text, re.M))


def face_problem(full: str, face_index: int | None, zone: str, on_adventure: bool = False) -> str | None:
    """Why an object of the card ``full`` can't be in ``zone`` showing its face number
    ``face_index`` (None: no face given; 0 its front) with ``on_adventure`` — None when it can.
    The situation format's rules (docs/situation-format.md "Faces"): off the battlefield and the
    stack a card shows its front only (CR 712.8a; a split card its halves combined, 709.4); a
    split card on the stack is a half (709.3); a back face up on the battlefield is a
    transforming, modal double-faced, flip or meld card's (712.8d, 712.12, 710.1, 712.4); a face
    cast is an Adventure, a split half, a modal double-faced or a transforming card's (715.3,
    709.3, 712.11b, 702.146b); "on an adventure" is an adventurer card in exile (715.3d)."""
    rec = record(full)
    layout = rec["layout"] if rec else "normal"
    if on_adventure and (zone != "exile" or layout != "adventure"):
        return "on_adventure"
    split = layout in ("split", "aftermath")
    if face_index is None or (face_index == 0 and not split):
        return "face" if zone == "stack" and split else None
    if rec is None or face_index < 0:
        return "face"
    if zone == "battlefield":
        return None if layout in BATTLEFIELD_BACK else "face"
    if zone == "stack":
        return None if layout in STACK_FACES else "face"
    return "face"


def rules_gap(full: str, face_index: int | None, zone: str) -> str | None:
    """What else the rules forbid of an object the situation format's rules allow (the loader
    does not check these; tests/test_fuzz_input.py): a land on the stack (CR 305.1, 305.9: a
    land is played, never cast), an instant or sorcery on the battlefield (304.4, 307.4), a
    transforming card cast transformed without an ability that lets it be (702.146b disturb;
    712.11a otherwise front face up)."""
    rec = record(full)
    if rec is None:
        return None
    types = _types_shown(rec, face_index)
    if zone == "stack" and "Land" in types:
        return "a land on the stack"
    if zone == "battlefield" and types & {"Instant", "Sorcery"}:
        return "an instant or sorcery on the battlefield"
    if zone == "stack" and rec["layout"] == "transform" and face_index == 1 and not re.search(
            r"^(Disturb|More Than Meets the Eye)\b", rec["faces"][0]["text"], re.M):
        return "a transforming card cast transformed without disturb"
    return None


# ---------------------------------------------------------------------------
# Each face as a card of its own, and its mana
# ---------------------------------------------------------------------------


@lru_cache(maxsize=None)
def face_card(full: str, name: str):
    """The face called ``name`` of ``full`` read as a single-faced card (CR 712.2, 709.1b:
    each face its own set of characteristics) from the raw face record."""
    return card_from_mapping({**_face(full, name), "layout": "normal"})


def face_cards(full: str) -> list[tuple[str, Any]]:
    """(face name, card) for the faces ``full`` may be cast or played as other than its front:
    both halves of a split card (709.3), the Adventure (715.3), a modal double-faced card's back
    face (712.12). Transforming, flip and meld back faces are never cast from the hand."""
    rec = record(full)
    if rec is None:
        return []
    fs = rec["faces"]
    if rec["layout"] in ("split", "aftermath"):
        chosen = fs
    elif rec["layout"] in ("adventure", "modal_dfc"):
        chosen = fs[1:]
    else:
        chosen = []
    return [(f["name"], face_card(full, f["name"])) for f in chosen]


_ADD = re.compile(r"^\{T\}: Add (.+)\.$")


def text_of(o: GameObject) -> str | None:
    """The Oracle text of the face ``o`` shows on the battlefield, from the face data (None:
    not a multi-face card the data holds)."""
    whole = o.front if o.front is not None else o.card
    rec = record(whole.data.name) if whole is not None else None
    if rec is None:
        return None
    shown = o.card.data.name if o.front is not None else rec["faces"][0]["name"]
    return _face(whole.data.name, shown)["text"]


def produces(text: str) -> set[str] | None:
    """The mana types the plain "{T}: Add …." lines of ``text`` make (CR 106.1, 605.1a): {C},
    a colored symbol, "{X} or {Y}", "one mana of any color", "N mana of any one color"; None
    when another line could make mana (the reference does not read it)."""
    out: set[str] = set()
    for line in text.split("\n"):
        if "Add " not in line:
            continue
        m = _ADD.match(line.strip())
        if m is None:
            return None
        what = m.group(1)
        if re.fullmatch(r"(one|two|three) mana of any (one )?color", what):
            out |= set(WUBRG)
            continue
        syms = re.findall(r"\{([WUBRGC])\}", what)
        if not syms or re.sub(r"\{[WUBRGC]\}|, | or |or ", "", what):
            return None
        out |= set(syms)
    return out


def reference_could_produce(state: GameState, ids: list[str]) -> dict[str, set[str]]:
    """What each of the permanents ``ids`` (multi-face cards, or basic lands) could produce (CR
    106.7), from its face's text alone (nothing else on the board changes mana here)."""
    out: dict[str, set[str]] = {}
    basic = {"Plains": "W", "Island": "U", "Swamp": "B", "Mountain": "R", "Forest": "G"}
    for oid in ids:
        o = state.obj(oid)
        text = text_of(o)
        if text is None:
            out[oid] = {basic[o.card.data.name]}
            continue
        made = produces(text)
        assert made is not None, f"reference: {o.card.name} makes mana in a way it does not read"
        out[oid] = made
    return out
