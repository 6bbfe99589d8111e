"""Activation conditions (CR 602.5b, 602.5d, 602.5e) read on the board as it is now.

"Activate only if you control an Urza's Power-Plant and an Urza's Tower",
"Activate only as a sorcery", and the conditions of mana abilities' riders
and conditional amounts ("If you control a Nissa planeswalker, …", read as
the ability resolves, CR 608.2h). Rules layer: reads the rules view only.
Both :mod:`solver.rules.mana_sources` and :mod:`solver.rules.mana_riders` use it.
"""
from __future__ import annotations

from collections import Counter
from typing import Callable

from .characteristics import View
from ..core import ir
from ..core.errors import UnsupportedCase
from ..core.state import TurnHistory
from ..core.ir import ActivationCondition

__all__ = ["condition_holds"]


def condition_holds(view: View, cond: ActivationCondition, source, player: str) -> bool:
    """Is an activation restriction met now (CR 602.5b, 602.5d, 602.5e)?

    Timing is read from the situation's ``turn``: "as a sorcery" needs the
    player's own main phase and an empty stack (CR 307.1); "as an instant"
    only needs priority, which every mana query assumes (CR 605.3a). Dispatches on
    the condition's class (:data:`_HOLDS`)."""
    check = _HOLDS.get(type(cond))
    if check is None:
        raise ValueError(f"unknown activation condition {cond.kind!r}")
    return check(view, cond, source, player)


def _control(view: View, cond: ir.ControlCount, source, player: str) -> bool:
    return len(view.select(cond.selector, source, player)) >= cond.n


def _control_at_most(view: View, cond: ir.ControlAtMost, source, player: str) -> bool:
    """CR 614.1c: "unless you control N or fewer <permanents>"."""
    return len(view.select(cond.selector, source, player)) <= cond.n


def _control_power(view: View, cond: ir.ControlPower, source, player: str) -> bool:
    return any(view.chars(q.id).is_creature and (view.chars(q.id).power or 0) >= cond.n
               for q in view.permanents_of(player))


def _sorcery(view: View, cond: ir.SorceryTime, source, player: str) -> bool:
    turn = view.state.turn
    return turn.active == player and turn.step in ("main1", "main2") and not view.state.zone("stack")


def _attached_to_creature(view: View, source) -> bool:
    """CR 702.151a: the source is attached to a creature on the battlefield."""
    host = view.state.find(source.attached_to) if source.attached_to is not None else None
    return host is not None and host.zone == "battlefield" and view.chars(host.id).is_creature


def _graveyard_card(view: View, cond: ir.GraveyardCard, source, player: str) -> bool:
    sel = cond.selector
    assert sel is not None, "a graveyard-card condition names the card's subtypes"
    return any(o.owner == player and view.chars(o.id).subtypes & sel.subtypes for o in view.state.zone("graveyard"))


def _graveyard_count(view: View, cond: ir.GraveyardCount, source, player: str) -> bool:
    """Threshold: ``n`` or more cards (of ``types``, as printed) in the player's graveyard."""
    return sum(1 for o in view.state.zone("graveyard") if o.owner == player
               and cond.counts(o.card.data.types if o.card is not None else ())) >= cond.n


def _graveyard_types(view: View, cond: ir.GraveyardTypes, source, player: str) -> bool:
    """Delirium: ``n`` or more card types (CR 205.2a) among the cards in the player's graveyard, as printed."""
    return len({t for o in view.state.zone("graveyard") if o.owner == player and o.card is not None
                for t in o.card.data.types if t in ir.CARD_TYPES}) >= cond.n


def _total_power(view: View, cond: ir.TotalPower, source, player: str) -> bool:
    return sum(view.chars(q.id).power or 0 for q in view.permanents_of(player)
               if view.chars(q.id).is_creature) >= cond.n


def _same_name_lands(view: View, cond: ir.SameNameLands, source, player: str) -> bool:
    names = Counter(view.chars(q.id).name for q in view.permanents_of(player) if view.chars(q.id).is_land)
    return max(names.values(), default=0) >= cond.n


def _history(view: View, cond: ActivationCondition) -> TurnHistory:
    """The turn's history (``turn.history``) a condition that looks back at this turn reads; refused
    (:class:`UnsupportedCase`) where the situation does not record it — never guessed."""
    h = view.state.turn.history
    if h is None:
        raise UnsupportedCase(f"unsupported: \"{cond.describe()}\" looks back at this turn, which the situation "
                              "does not record (turn.history)")
    return h


#: How each condition kind is checked, by class (the kinds only statics or non-mana activated
#: abilities carry — equipped, attacking, opponent_controls, hand_exactly — are checked
#: where those are applied; untapped and tapped are also a triggered ability's intervening "if",
#: CR 603.4:
#: :mod:`solver.rules.characteristics`, :mod:`.hand_abilities`).
_HOLDS: dict[type, Callable[..., bool]] = {
    ir.ControlCount: _control,
    ir.ControlAtMost: _control_at_most,
    ir.ControlPower: _control_power,
    ir.CountersOnSource: lambda view, cond, source, player: source.counter(cond.counter) >= cond.n,
    ir.EnteredThisTurn: lambda view, cond, source, player: source.entered_this_turn,
    ir.IsCreature: lambda view, cond, source, player: view.chars(source.id).is_creature,
    ir.AttachedToCreature: lambda view, cond, source, player: _attached_to_creature(view, source),
    ir.SourceTapped: lambda view, cond, source, player: source.tapped,       # CR 110.5, 603.4
    ir.SourceUntapped: lambda view, cond, source, player: not source.tapped,
    ir.YourTurn: lambda view, cond, source, player: view.state.turn.active == player,
    ir.OpponentTurn: lambda view, cond, source, player: view.state.turn.active != player,
    ir.DuringSteps: lambda view, cond, source, player: (view.state.turn.step in cond.steps
                                                        and (not cond.yours or view.state.turn.active == player)),
    ir.PlayedLandThisTurn: lambda view, cond, source, player: (view.state.turn.active == player
                                                               and view.state.turn.lands_played > 0),
    ir.SorceryTime: _sorcery,
    ir.InstantTime: lambda view, cond, source, player: True,
    ir.GraveyardCard: _graveyard_card,
    ir.GraveyardCount: _graveyard_count,
    ir.GraveyardTypes: _graveyard_types,
    ir.TotalPower: _total_power,
    ir.OpponentPoison: lambda view, cond, source, player: any(p.poison >= cond.n for p in view.state.players
                                                              if p.id != player),
    ir.SameNameLands: _same_name_lands,
    ir.CreatureDiedThisTurn: lambda view, cond, source, player: _history(view, cond).died > 0,   # CR 700.4
    ir.GainedLifeThisTurn: lambda view, cond, source, player: _history(view, cond).gained_by(player) > 0,
    ir.AttackedThisTurn: lambda view, cond, source, player: _history(view, cond).attacked_by(player) >= cond.n,
    ir.AnyCondition: lambda view, cond, source, player: any(condition_holds(view, c, source, player)
                                                            for c in cond.parts),
    ir.AllConditions: lambda view, cond, source, player: all(condition_holds(view, c, source, player)
                                                             for c in cond.parts),
}
