"""What the project understood of a card, for ``mtgsolve cards show``."""
from __future__ import annotations

from ..cards import Card
from ..core.ir import AFFECTS, Unsupported, is_activated, is_triggered
from ..rules.soundness.unread import MULTI_FACE
from ..rules.soundness.unread import card_parts
from ..cards import other_faces

BASIC_MANA = {"Plains": "W", "Island": "U", "Swamp": "B", "Mountain": "R", "Forest": "G"}


def describe_card(card: Card) -> dict:
    """A deterministic description: one line per ability in printed order
    (numbered as ``{object, index}`` counts them), the intrinsic mana abilities
    of basic land types (CR 305.6), the spell effect, and every unsupported part."""
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

    unread = card_parts(card)
    faces = d.name.split(" // ")
    out = {
        "name": d.name,
        "mana_cost": d.mana_cost.text,
        "type_line": d.type_line,
        "layout": d.layout,
        "oracle_text": d.text,
        "source": card.source,
        "fully_modeled": not unread,
        "lines": lines,
        "unsupported": [u.text or u.what for u in card.abilities if isinstance(u, Unsupported)],
        "unread": [{"text": t, "kind": k, "affects": [a for a in AFFECTS if a in aff]} for t, k, aff in unread],
        # the structure read of unread lines (kind, cost, timing, target slots; reader/skeleton.py)
        "structures": [{"text": u.text or u.what, "structure": u.structure.describe()}
                       for u in card.abilities if isinstance(u, Unsupported) and u.structure is not None],
    }
    if len(faces) > 1 or d.layout in MULTI_FACE:
        known = {f.data.name for f in other_faces(card)}   # solver/data/card-faces.json (CR 709, 715)
        out["faces"] = [{"name": faces[0], "read": True}] + [{"name": f, "read": f in known} for f in faces[1:]]
    return out
