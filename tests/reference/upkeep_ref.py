"""Brute-force reference for the upkeep cards (issues 26, 27), written from the rules, independent of
the engine and the payment model:

* the untap step (CR 502.3): the active player's tapped permanents untap, except those whose printed
  text says "doesn't untap during your untap step" (read here from the card's Oracle text), those an
  Aura or Equipment attached to them says so of ("Enchanted creature doesn't untap during its
  controller's untap step."), and those marked to skip their next untap step;
* "you may pay {N}. If you do, …" (CR 608.2d, 605.3a): the controller declines or pays {N} by tapping
  N of their untapped basic lands (each adds one mana, CR 305.6) — every combination, kept once per
  multiset of land names;
* a coin flip (CR 705.2): won or lost, 1/2 each; "If you lose the flip, this artifact deals D damage
  to you": the controller's life after each.
"""
from __future__ import annotations

import re
from fractions import Fraction
from itertools import combinations
from typing import Sequence

from mtgsolve.solver.core.state import GameState

_DOESNT_UNTAP = re.compile(r"^this \w+ doesn't untap during your untap step\.$", re.I | re.M)
_HOLDS_ATTACHED = re.compile(r"^(?:enchanted|equipped) \w+ doesn't untap during its controller's untap step\.$",
                             re.I | re.M)


def stays_tapped(state: GameState) -> set[str]:
    """The ids of the active player's permanents still tapped after their untap step (CR 502.3)."""
    active = state.turn.active
    held = {o.attached_to for o in state.objects if o.zone == "battlefield" and o.attached_to is not None
            and o.card is not None and _HOLDS_ATTACHED.search(o.card.data.text or "")}
    out = set()
    for o in state.objects:
        if o.zone != "battlefield" or o.controller != active or not o.tapped:
            continue
        text = (o.card.data.text or "") if o.card is not None else ""
        if o.skip_untap or _DOESNT_UNTAP.search(text) or o.id in held:
            out.add(o.id)
    return out


def may_pay_results(untapped_lands: Sequence[str], n: int) -> set[tuple[str, ...] | None]:
    """None (declined) or the sorted names of the lands tapped to pay {n}."""
    out: set[tuple[str, ...] | None] = {None}
    for combo in combinations(range(len(untapped_lands)), n):
        out.add(tuple(sorted(untapped_lands[i] for i in combo)))
    return out


def coin_flip_lives(life: int, damage_if_lost: int) -> dict[int, Fraction]:
    """The controller's life after the flip, with its probability (CR 705.2, 120.3a)."""
    out: dict[int, Fraction] = {}
    for lost in (False, True):
        after = life - damage_if_lost if lost else life
        out[after] = out.get(after, Fraction(0)) + Fraction(1, 2)
    return out


def untap_up_to_results(lands: Sequence[tuple[str, str, bool]], n: int) -> set[tuple[tuple[str, str], ...]]:
    """"Untap up to n lands" (CR 608.2c, 701.26b) over ``lands`` (name, controller, tapped), any of them
    chosen: each distinct result as the sorted (name, controller) of the lands that become untapped —
    choosing an untapped land changes nothing; lands of one name, controller and status are alike."""
    out: set[tuple[tuple[str, str], ...]] = set()
    for k in range(n + 1):
        for combo in combinations(range(len(lands)), k):
            out.add(tuple(sorted((lands[i][0], lands[i][1]) for i in combo if lands[i][2])))
    return out
