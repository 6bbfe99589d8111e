"""Resolving a ward ability (CR 702.21a-b, 608.2): "counter that spell or ability unless that player
pays [cost]" (rules layer).

The ward ability on the stack names the spell or ability that targeted its permanent (object key
``refers_to``, put there by :func:`solver.engine.transition.queue_target_triggers`). As it
resolves:

* when that spell or ability has left the stack (``refers_to`` absent), nothing happens;
* otherwise its controller ("that player") chooses: pay the ward cost — every distinct payment of
  the payment model (:func:`solver.payment.answers.payments`, as the ``pay`` query lists them;
  mana abilities may be activated, CR 605.3a) is a distinct outcome, paid through the kernel
  (:func:`solver.engine.transition.pay`: life through ``change_life``, sacrifices through
  ``move``) — or decline, and the spell or ability is countered (CR 701.6a: a spell to its owner's
  graveyard through ``move``, a copy or an ability removed from the stack). A spell that can't be
  countered (:class:`~solver.core.ir.CantBeCountered`, CR 101.2) is not countered, but its
  controller may still pay (the ward rulings).

The choice is recorded as ``choices.ward``: ``{"paid": true, "payment": <payment>}`` or
``{"paid": false}``. :func:`ward_decider` says who makes it (the turn engine's ``ward`` decision,
:mod:`solver.engine.turns`). The cost is the one printed (CR 702.21b: an X ward is not read).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..core import ir
from ..core.json_value import JsonObject
from ..core.state import GameObject, GameState
from .transition import ResolutionUnsupported, _cease, _World, ability_of, move, pay

if TYPE_CHECKING:  # pragma: no cover
    from ..payment.paid import CostPayment
from ..rules.characteristics import View
from ..rules.costs import TotalCost
from ..rules.spending import filter_matches
from mtgsolve.models.payment import Unsupported
from ..core.errors import UnsupportedCase
from ..payment.answers import payments

__all__ = ["resolve_ward", "ward_decider", "ward_cost", "WardChoice", "cant_be_countered", "counter_object"]


@dataclass(frozen=True)
class WardChoice:
    """The typed value of a ``ward`` decision's option: ``payment`` (a contract §2.3 payment
    object) when the player pays, None when they decline (CR 702.21a)."""

    payment: JsonObject | None

    @property
    def paid(self) -> bool:
        return self.payment is not None


def ward_of(state: GameState, o: GameObject) -> ir.Ward | None:
    """The ward ability a stack object ``o`` is (from its source's card, or its last known one)."""
    if o.ability is None:
        return None
    src = state.find(o.ability.source)
    card = dict(o.last_known).get("card") or (src.card if src is not None else None)
    ab = ability_of(card, o.ability.index)
    return ab if isinstance(ab, ir.Ward) else None


def ward_decider(state: GameState) -> str | None:
    """Who chooses as the top of the stack resolves, when it is a ward ability whose spell or
    ability is still on the stack: that object's controller (CR 702.21a); otherwise None."""
    stack = state.zone("stack")
    if not stack or ward_of(state, stack[0]) is None or stack[0].refers_to is None:
        return None
    target = state.find(stack[0].refers_to)
    return target.controller if target is not None and target.zone == "stack" else None


def ward_cost(ward: ir.Ward) -> Any:
    """The ward cost as a total cost for the payment model (:class:`solver.rules.costs.TotalCost`)."""

    return TotalCost(what="cost", mana=ward.cost.mana, life=ward.cost.life, sacrifice=ward.cost.sacrifice,
                     subject="ward")


def cant_be_countered(state: GameState, oid: str) -> bool:
    """CR 101.2: a spell with "This spell can't be countered" is not countered, nor one that a permanent's
    "[Creature] spells [you control] can't be countered." describes (CR 113.6: that ability works on the
    battlefield, with the permanent's abilities after continuous effects, CR 613)."""
    o = state.find(oid)
    if o is None or o.card is None or o.ability is not None:
        return False
    if any(isinstance(a, ir.CantBeCountered) and a.spells is None for a in o.card.abilities):
        return True
    view = View.of(state)
    for p in state.battlefield:
        for a in view.chars(p.id).abilities:
            if isinstance(a, ir.CantBeCountered) and a.spells is not None and (
                    a.spells.who != "you" or p.controller == o.controller) \
                    and filter_matches(a.spells, view.chars(oid)):
                return True
    return False


def counter_object(w: _World, oid: str, resolving: str, *, instead: str = "") -> None:
    """CR 701.6a: counter spell or ability ``oid`` on the stack: a spell card to its owner's graveyard
    (through ``move``; ``instead``: to that zone instead — ``exile``, ``hand`` — the countering spell's "If
    that spell is countered this way, exile it instead …", CR 614.1a), a copy or an ability removed from the
    stack; a spell that can't be countered stays (CR 101.2)."""
    o = w.objects.get(oid)
    if o is None or o.zone != "stack" or cant_be_countered(w.view().state, oid):
        return
    if o.ability is not None or o.copy or o.card is None:
        _cease(w, oid, resolving=resolving)
    else:
        move(w, oid, instead or "graveyard")


def resolve_ward(w: _World, o: GameObject, ward: ir.Ward) -> list[_World]:
    """Resolve ward ability ``o`` on branch ``w`` (module docstring): every distinct outcome, each with
    its ``choices.ward``; the ward ability leaves the stack (CR 608.2n)."""
    target = w.objects.get(o.refers_to) if o.refers_to is not None else None
    if target is None or target.zone != "stack":
        _cease(w, o.id)           # its spell or ability has left the stack: nothing happens
        return [w]
    player = target.controller
    out = []
    decline = w.fork()
    decline.choices["ward"] = {"paid": False}
    counter_object(decline, target.id, o.id)
    _cease(decline, o.id)
    out.append(decline)
    for cp in _payments(w, player, ward):
        payment = cp.move()       # the typed payment (contract §2.3), recorded as its contract object
        v = w.fork()
        v.choices["ward"] = {"paid": True, "payment": payment.to_json()}
        if payment.draw:   # the random or unknown card drawn while resolving is not followed here
            raise ResolutionUnsupported("a payment during resolution that draws cards is not modeled")
        pay(v, player, payment)
        _cease(v, o.id)
        out.append(v)
    return out


def _payments(w: _World, player: str, ward: ir.Ward) -> "list[CostPayment]":
    """Every distinct payment of the ward cost by ``player`` now (the ``pay`` query's payments)."""

    try:
        return payments(w.view(), player, ward_cost(ward))
    except (Unsupported, UnsupportedCase) as e:
        raise ResolutionUnsupported(f"paying ward ({ward.text or ward.cost.describe()}): {e}") from None
