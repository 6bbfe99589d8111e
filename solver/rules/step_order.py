"""The order of steps within a turn (CR 500.1): which step follows the current one.

Shared by the turn engine (:mod:`solver.engine.turns`) and the soundness layer's reach of ``pass``
(:mod:`solver.rules.soundness.step_reach`), below both.
"""
from __future__ import annotations

import dataclasses

from ..core.card import Card
from ..core.ir import SkipStep
from ..core.state import STEPS, GameState
from .characteristics import View

__all__ = ["next_step", "has_first_strike", "card_mentions"]


def has_first_strike(state: GameState) -> bool:
    """Does an attacking or blocking creature have first strike or double strike (CR 510.4)?"""

    view = View.of(state)
    for o in state.battlefield:
        if o.attacking is not None or o.blocking:
            c = view.chars(o.id)
            if c.keyword("first strike") or c.keyword("double strike"):
                return True
    return False


def next_step(state: GameState) -> str | None:
    """The step after the current one (None: the turn is over), CR 500.1, 508.8, 510.4."""
    i = STEPS.index(state.turn.step)
    while True:
        i += 1
        if i >= len(STEPS):
            return None
        nxt = STEPS[i]
        attackers = any(o.attacking is not None for o in state.battlefield)
        if nxt in ("declare_blockers", "first_strike_damage", "combat_damage") and not attackers:
            continue  # CR 508.8
        if nxt == "first_strike_damage" and not has_first_strike(state):
            continue  # CR 510.4
        if nxt == "draw" and _skips(state, "draw"):
            continue  # CR 614.10: "Skip your draw step."
        if nxt == "beginning_of_combat" and state.turn.active in state.turn.skip_combat:
            return "main2"   # CR 614.10, 614.10a: "skips their next combat phase" (turn.skip_combat)
        return nxt


def card_mentions(card: Card | None, cls: type) -> bool:
    """Whether ``card`` has an ability of class ``cls``, printed or inside one it grants (a static's
    quoted ability, CR 613.1f) — once per card: where none does, no view need be built."""
    return card is not None and card.memo.get(("mentions", cls.__name__), lambda: _inside(card.abilities, cls))


def _inside(v: object, cls: type) -> bool:
    if isinstance(v, cls):
        return True
    if isinstance(v, (tuple, list)):
        return any(_inside(x, cls) for x in v)
    if dataclasses.is_dataclass(v) and not isinstance(v, type):
        return any(_inside(getattr(v, f.name), cls) for f in dataclasses.fields(v))
    return False


def _skips(state: GameState, step: str) -> bool:
    """Does a static ability of a permanent the active player controls make them skip ``step``
    ("Skip your draw step.", :class:`~solver.core.ir.SkipStep`, CR 614.1b, 614.10)?"""
    if not any(card_mentions(o.card, SkipStep) for o in state.battlefield):
        return False   # no view to build
    return any(s.controller == state.turn.active and s.ability.step == step for s in View(state).statics(SkipStep))
