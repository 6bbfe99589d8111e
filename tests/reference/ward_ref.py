"""Brute-force reference for resolving a ward ability (CR 702.21a-b, 608.2, 101.2, 701.6a).

Written from the rules, without the engine: the top of the stack is an ability ``{source, index}``
whose ability (the n-th triggered or activated ability of the source's card in printed order) is a
:class:`~solver.core.ir.Ward`; its object key ``refers_to`` names the spell or ability it would
counter. Then:

* no ``refers_to``, or it names something no longer on the stack: one outcome, nothing happens;
* otherwise the controller of that spell or ability ("that player") either declines — the spell is
  countered (to its owner's graveyard; an ability or copy removed from the stack) unless it says
  "This spell can't be countered" (CR 101.2) — or pays the ward cost in any distinct way: the mana
  part by the pay reference's plain simulation (``pay_ref.brute_payments``: every order of mana
  activations, every way of spending), the life part only with at least that much life (CR 119.4).

Each outcome is summarised plainly (what was paid; the ids on the stack top first; graveyards; life
totals; tapped permanents; pools), so that the engine's outcome states can be summarised the same
way and compared (tests/test_ward.py). Small boards only.
"""
from __future__ import annotations

import json
from typing import Any

from mtgsolve.solver.core.ir import CantBeCountered, Ward, numbered_abilities
from mtgsolve.solver.core.mana import ManaCost
from mtgsolve.solver.core.state import GameState
from mtgsolve.solver.rules.characteristics import View

from .pay_ref import TotalCost, brute_payments


def _ward(state: GameState) -> Ward | None:
    top = state.zone("stack")[0]
    if top.ability is None:
        return None
    src = state.find(top.ability.source)
    card = dict(top.last_known).get("card") or (src.card if src is not None else None)
    numbered = numbered_abilities(card.abilities) if card is not None else []
    ab = numbered[top.ability.index - 1] if 1 <= top.ability.index <= len(numbered) else None
    return ab if isinstance(ab, Ward) else None


def summary(state: GameState, paid: dict | None, declined: bool) -> dict:
    """A plain description of a situation after a ward resolution, with the choice that led there."""
    return {"paid": None if paid is None else json.dumps(paid, sort_keys=True), "declined": declined,
            "stack": [o.id for o in state.zone("stack")],
            "graveyard": sorted(o.id for o in state.objects if o.zone == "graveyard"),
            "life": {p.id: p.life for p in state.players},
            "tapped": sorted(o.id for o in state.objects if o.zone == "battlefield" and o.tapped),
            "pools": {pid: m.text for pid, m in state.mana_pool if m}}


def ward_outcomes(state: GameState) -> list[dict]:
    """Every outcome of resolving the ward ability on top of the stack, summarised (:func:`summary`)."""
    ward = _ward(state)
    assert ward is not None, "the top of the stack is not a ward ability"
    top = state.zone("stack")[0]
    rest = [o.id for o in state.zone("stack")[1:]]
    graveyard = sorted(o.id for o in state.objects if o.zone == "graveyard")
    life = {p.id: p.life for p in state.players}
    tapped = sorted(o.id for o in state.objects if o.zone == "battlefield" and o.tapped)
    pools = {pid: m.text for pid, m in state.mana_pool if m}
    base = {"paid": None, "declined": False, "stack": rest, "graveyard": graveyard, "life": life,
            "tapped": tapped, "pools": pools}
    target = state.find(top.refers_to) if top.refers_to is not None else None
    if target is None or target.zone != "stack":
        return [base]
    player = target.controller
    out = []
    uncounterable = target.card is not None and any(isinstance(a, CantBeCountered) for a in target.card.abilities)
    declined = dict(base, declined=True)
    if not uncounterable:
        declined["stack"] = [i for i in rest if i != target.id]
        if target.ability is None and not target.copy and target.card is not None:
            declined["graveyard"] = sorted(graveyard + [target.id])
    out.append(declined)
    for payment in _payments(state, player, ward):
        # the payment as the engine records it (contract §2.3, a pool left empty unwritten)
        written = dict(payment, pool_after={pid: m for pid, m in payment["pool_after"].items() if m})
        after = dict(base, paid=json.dumps(written, sort_keys=True))
        after["tapped"] = sorted(set(tapped) | set(payment["tap"]))
        after["life"] = dict(life, **{player: life[player] - payment["life"] - payment["damage"]})
        left = {pid: m for pid, m in pools.items() if pid != player}
        left.update({pid: m for pid, m in payment["pool_after"].items() if m})
        after["pools"] = left
        out.append(after)
    return out


def _payments(state: GameState, player: str, ward: Ward) -> list[dict[str, Any]]:
    """The distinct payments of the ward cost: the mana part by the pay reference, the life part
    payable only with at least that much life (CR 119.4)."""
    life = state.player(player).life
    if ward.cost.life > life:
        return []
    mana: ManaCost = ward.cost.mana
    if not mana:
        return [{"tap": [], "untap": [], "sacrifice": [], "life": ward.cost.life, "damage": 0, "x": 0,
                 "pool_after": {player: state.pool(player).text}}]
    pays = brute_payments(View(state), player, TotalCost(what="cost", mana=mana, life=ward.cost.life))
    return [p for p in pays if p["life"] + p.get("damage", 0) <= life]
