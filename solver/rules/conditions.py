"""Activation conditions (CR 602.5b, 602.5d, 602.5e) read on the board as it is now.

"Activate only if you control an Urza's Power-Plant and an Urza's Tower",
"Activate only as a sorcery", and the conditions of mana abilities' riders
and conditional amounts ("If you control a Nissa planeswalker, …", read as
the ability resolves, CR 608.2h). Rules layer: reads the rules view only.
Both :mod:`solver.rules.mana_sources` and :mod:`solver.rules.mana_riders` use it.
"""
from __future__ import annotations

from collections import Counter

from .characteristics import View
from ..core.ir import ActivationCondition

__all__ = ["condition_holds"]


def condition_holds(view: View, cond: ActivationCondition, source, player: str) -> bool:
    """Is an activation restriction met now (CR 602.5b, 602.5d, 602.5e)?

    Timing is read from the situation's ``turn``: "as a sorcery" needs the
    player's own main phase and an empty stack (CR 307.1); "as an instant"
    only needs priority, which every mana query assumes (CR 605.3a)."""
    k = cond.kind
    turn = view.state.turn
    if k == "control":
        return len(view.select(cond.selector, source, player)) >= cond.n
    if k == "control_power":
        return any(view.chars(q.id).is_creature and (view.chars(q.id).power or 0) >= cond.n
                   for q in view.permanents_of(player))
    if k == "counters":
        return source.counter(cond.counter) >= cond.n
    if k == "entered_this_turn":
        return source.entered_this_turn
    if k == "is_creature":
        return view.chars(source.id).is_creature
    if k == "your_turn":
        return turn.active == player
    if k == "opponent_turn":
        return turn.active != player
    if k == "sorcery":
        return turn.active == player and turn.step in ("main1", "main2") and not view.state.zone("stack")
    if k == "instant":
        return True
    if k == "graveyard_card":
        sel = cond.selector
        assert sel is not None, "a graveyard-card condition names the card's subtypes"
        return any(o.owner == player and view.chars(o.id).subtypes & sel.subtypes
                   for o in view.state.zone("graveyard"))
    if k == "total_power":
        return sum(view.chars(q.id).power or 0 for q in view.permanents_of(player)
                   if view.chars(q.id).is_creature) >= cond.n
    if k == "opponent_poison":
        return any(p.poison >= cond.n for p in view.state.players if p.id != player)
    if k == "same_name_lands":
        names = Counter(view.chars(q.id).name for q in view.permanents_of(player) if view.chars(q.id).is_land)
        return max(names.values(), default=0) >= cond.n
    if k == "any":
        return any(condition_holds(view, c, source, player) for c in cond.parts)
    if k == "all":
        return all(condition_holds(view, c, source, player) for c in cond.parts)
    raise ValueError(f"unknown activation condition {k!r}")
