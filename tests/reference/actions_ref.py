"""Brute-force reference for the ``actions`` query (contract §2.6), written
independently of :mod:`solver.actions`: the timing rules spelled out plainly,
and every count obtained by brute force from the other references
(``reference_targets`` lists every target choice, ``brute_pay`` every payment).

It is as plain as possible and slow; use it on small boards only.
"""
from __future__ import annotations

from reference.pay_ref import brute_pay
from reference.targets_ref import reference_targets
from solver import ir
from solver.characteristics import View
from solver.state import GameState

SORCERY_STEPS = {"main1", "main2"}


def _flash(card) -> bool:
    return any(isinstance(a, ir.Keyword) and a.name == "flash" for a in card.abilities) or \
        "Flash" in card.data.keywords


def reference_actions(state: GameState, player: str) -> list[dict]:
    """Every legal action of ``player``, sorted like the query's result."""
    t = state.turn
    stack = [o for o in state.objects if o.zone == "stack"]
    if t.step == "untap":
        return []
    if t.step == "cleanup" and not stack:
        return []
    if (t.priority or t.active) != player:
        return []
    out = [{"kind": "pass"}]
    sorcery_time = t.active == player and t.step in SORCERY_STEPS and not stack
    view = View(state)
    for o in state.objects:
        if o.zone != "hand" or o.owner != player or o.card is None:
            continue
        if "Land" in o.card.data.types:
            if sorcery_time and t.lands_played == 0:
                out.append({"kind": "play_land", "object": o.id})
            continue
        if not (sorcery_time or "Instant" in o.card.data.types or _flash(o.card)):
            continue
        n_targets = reference_targets(state, {"kind": "targets", "cast": o.id, "player": player})["count"]
        if not n_targets:
            continue
        q = {"kind": "pay", "cast": o.id, "player": player}
        if o.card.data.mana_cost.x_count:
            q["x"] = "any"
        n_pay = brute_pay(state, q, view)["count"]
        if n_pay:
            out.append({"kind": "cast", "object": o.id, "targets": n_targets, "payments": n_pay})
    for o in state.objects:
        if o.zone != "battlefield" or o.controller != player:
            continue
        for i, a in enumerate(view.chars(o.id).activated, start=1):
            if not isinstance(a, ir.ActivatedAbility):
                continue  # mana abilities are not actions
            if a.sorcery and not sorcery_time:
                continue
            ref = {"object": o.id, "index": i}
            n_targets = reference_targets(state, {"kind": "targets", "activate": ref, "player": player})["count"]
            if not n_targets:
                continue
            q = {"kind": "pay", "activate": ref, "player": player}
            if a.cost.mana.x_count:
                q["x"] = "any"
            n_pay = brute_pay(state, q, view)["count"]
            if n_pay:
                out.append({"kind": "activate", "object": o.id, "index": i, "targets": n_targets, "payments": n_pay})
    order = {"activate": 0, "cast": 1, "pass": 2, "play_land": 3}
    out.sort(key=lambda e: (order[e["kind"]], e.get("object", ""), e.get("index", 0)))
    return out
