"""Permissions to play cards from zones other than the hand (CR 305.1, 601.2a, 611.2, 611.3).

* A card in exile with a :class:`~solver.core.state.PlayPermission` (object key ``may_play``), left by a
  resolved "Exile the top card of your library. You may play that card this turn." (CR 611.2a: a
  continuous effect from a resolving spell or ability) may be played by that player until the permission
  ends: cast as a spell under the normal timing rules and paying its costs (CR 601.2a, 601.2f, 307.1), or,
  unless it says "cast", played as a land with a land play left (CR 305.1, 305.2) — as if from the hand.
* "You may play lands from your graveyard." (``ir.PlayLandsFromGraveyard``, a static of a permanent,
  CR 611.3) lets its controller play land cards they own from their graveyard, with a land play left.

Durations: "this turn" / "until end of turn" end in the cleanup step (CR 514.2); "until the end of your
next turn" ends in the cleanup step of that player's next turn: as that turn begins it becomes a
"this turn" permission (:func:`next_turn_permissions`, :func:`end_of_turn_permissions`).
"""
from __future__ import annotations

from ..core import ir
from ..core.state import GameObject, GameState, PlayPermission
from .characteristics import View

__all__ = ["exile_permission", "graveyard_land_permission", "playable_elsewhere", "next_turn_permissions",
           "end_of_turn_permissions"]


def _is_land(o: GameObject) -> bool:
    return o.card is not None and "Land" in o.card.data.types


def exile_permission(o: GameObject, player: str, *, land: bool) -> bool:
    """May ``player`` play the card ``o`` from exile by a permission in force (CR 611.2) — as a land
    (``land``) or cast as a spell? "You may cast" never plays a land (CR 305.9)."""
    perm = o.may_play
    if perm is None or o.zone != "exile" or o.card is None or perm.player != player:
        return False
    return not perm.spells_only if land else True


def graveyard_land_permission(view: View, o: GameObject, player: str) -> bool:
    """May ``player`` play the land card ``o`` from their graveyard: "You may play lands from your
    graveyard." of a permanent they control (CR 305.1, 611.3)?"""
    if o.zone != "graveyard" or o.owner != player or not _is_land(o):
        return False
    return any(s.controller == player for s in view.statics(ir.PlayLandsFromGraveyard))


def playable_elsewhere(view: View, o: GameObject, player: str) -> bool:
    """May ``player`` play ``o`` from where it is, outside their hand, by one of this module's permissions
    (a land played, anything else cast)?"""
    if _is_land(o):
        return exile_permission(o, player, land=True) or graveyard_land_permission(view, o, player)
    return exile_permission(o, player, land=False)


def _with_permissions(state: GameState, change: "dict[str, PlayPermission | None]") -> GameState:
    if not change:
        return state
    objs = tuple(o.with_(may_play=change[o.id]) if o.id in change else o for o in state.objects)
    return state.with_(objects=objs)


def end_of_turn_permissions(state: GameState) -> GameState:
    """CR 514.2: the cleanup step ends "this turn" / "until end of turn" permissions (``end_of_turn``)."""
    return _with_permissions(state, {o.id: None for o in state.objects
                                     if o.may_play is not None and o.may_play.until == "end_of_turn"})


def next_turn_permissions(state: GameState, active: str) -> GameState:
    """As ``active``'s turn begins, their "until the end of your next turn" permissions last until the end of
    this turn (CR 611.2: the duration names that turn)."""
    return _with_permissions(state, {o.id: PlayPermission(o.may_play.player, "end_of_turn", o.may_play.spells_only)
                                     for o in state.objects if o.may_play is not None
                                     and o.may_play.until == "end_of_next_turn" and o.may_play.player == active})
