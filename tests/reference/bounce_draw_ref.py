"""Brute-force reference for "Return any number of target nonland, nontoken permanents you control to their
owners' hands. Draw a card for each card returned to your hand this way." (CR 601.2c, 608.2b, 608.2c, 400.3,
121.1), written independently of the engine: the choices of targets are every subset of the caster's
nonland, nontoken permanents (no hexproof or protection here: the caster's own permanents); resolving with a
chosen set moves each chosen permanent still there to its owner's hand, then the caster draws as many cards
as went to their own hand, from the top of their library (listed, known order)."""
from __future__ import annotations

from itertools import combinations


def reference_choices(doc: dict, caster: str) -> list[list[str]]:
    """Every legal set of targets (sorted ids), sorted."""
    mine = [o["id"] for o in _permanents(doc) if o.get("controller", o["_side"]) == caster
            and not o.get("token") and "Land" not in o["_types"]]
    return sorted(sorted(c) for n in range(len(mine) + 1) for c in combinations(sorted(mine), n))


def reference_result(doc: dict, caster: str, chosen: list[str]) -> dict[str, list[str]]:
    """``{"hand:<player>": ids, "battlefield": ids}`` after the spell resolves with ``chosen``."""
    perms = {o["id"]: o for o in _permanents(doc)}
    hands: dict[str, list[str]] = {}
    mine = 0
    for oid in chosen:
        owner = perms[oid].get("owner", perms[oid]["_side"])
        hands.setdefault(owner, []).append(oid)
        mine += owner == caster
    library = [c["id"] for c in doc.get("library", {}).get(caster, [])]   # top first
    hands.setdefault(caster, []).extend(library[:mine])
    out = {f"hand:{p}": sorted(ids) for p, ids in hands.items()}
    out["battlefield"] = sorted(oid for oid in perms if oid not in chosen)
    return out


def _permanents(doc: dict) -> list[dict]:
    from mtgsolve.solver.cards import get_card
    out = []
    for side, objs in doc.get("battlefield", {}).items():
        for o in objs:
            out.append({**o, "_side": side, "_types": get_card(o["card"]).data.types})
    return out
