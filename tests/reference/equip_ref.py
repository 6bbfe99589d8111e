"""Brute-force reference for resolving an equip ability (CR 702.6a, 702.6c, 701.3, 301.5, 608.2b, 704.5n).

Written from the rules, without the engine: it reads the situation (loaded), the card data and the
characteristics view (what each object is on this board, CR 613). The top of the stack is an equip
ability of an Equipment (``index``: which of its equip abilities) with one target; the expected
outcome, one situation, is derived so:

* the target is legal as the ability resolves (608.2b) when it is a creature on the battlefield its
  controller controls (702.6a), with the equip ability's quality ("Equip Knight": a Knight, 702.6c),
  not with shroud nor protection from artifacts or the Equipment's colors (702.18a, 702.16b); an
  illegal target: the ability doesn't resolve, nothing changes;
* otherwise the Equipment is attached to the target (701.3a) — unless it is no longer on the
  battlefield (it left: the ability has last known information, 400.7), it is a creature itself
  without reconfigure or is no Equipment (301.5c), or it is already attached to the target (701.3b):
  then nothing changes; reconfigure's first ability (702.151a) targets *another* creature, and once
  attached such an Equipment isn't a creature (702.151b: the characteristics view says so);
* then state-based actions: an Equipment attached to a noncreature, or while a creature, becomes
  unattached (704.5n).

``summary`` writes a state's battlefield plainly — id, what it is attached to, power and toughness
(after the characteristics view) — so the engine's outcome is summarised the same way and compared
(tests/test_equip.py).
"""
from __future__ import annotations

from typing import Any

from mtgsolve.solver.core.state import GameState
from mtgsolve.solver.rules.characteristics import View


def summary(state: GameState) -> list[tuple[Any, ...]]:
    """(id, attached_to, power, toughness) of each permanent, sorted."""
    view = View(state)
    rows = []
    for o in state.battlefield:
        c = view.chars(o.id)
        rows.append((o.id, o.attached_to, c.power if c.is_creature else None,
                     c.toughness if c.is_creature else None))
    return sorted(rows, key=repr)


def _equip_quality(card_text: str, index: int) -> str | None:
    """The printed quality of the ``index``-th activated ability when it is an "Equip <Subtype> {N}" line."""
    equips = [ln for ln in card_text.split("\n") if ln.startswith(("Equip {", "Equip—")) or
              (ln.startswith("Equip ") and "{" in ln.split()[-1])]
    words = equips[index - 1].split()
    return words[1] if len(words) > 2 and not words[1].startswith("{") else None


def _legal_target(view: View, state: GameState, controller: str, target: str, quality: str | None,
                  source_colors: frozenset[str]) -> bool:
    o = state.find(target)
    if o is None or o.zone != "battlefield" or o.controller != controller:
        return False
    c = view.chars(target)
    if not c.is_creature or (quality is not None and quality not in c.subtypes):
        return False
    return "shroud" not in _keywords(c) and not _protected(c, source_colors)


def _keywords(c: Any) -> set[str]:
    return {str(getattr(a, "name", "")) for a in c.abilities}


def _protected(c: Any, colors: frozenset[str]) -> bool:
    """Protection from artifacts, or from a color of the Equipment (CR 702.16b, 702.16d)."""
    froms = {str(getattr(a, "arg", "")) for a in c.abilities if getattr(a, "name", "") == "protection"}
    return "Artifact" in froms or bool(froms & set(colors))


def expected(state: GameState) -> list[tuple[Any, ...]]:
    """The summary of the one outcome of resolving the equip ability on top of the stack."""
    top = state.zone("stack")[0]
    assert top.ability is not None and top.targets is not None
    eq = state.find(top.ability.source)
    assert eq is not None and eq.card is not None
    target = top.targets[0][0]
    view = View(state)
    reconfigure = "Reconfigure {" in eq.card.data.text     # its first ability attaches (702.151a)
    quality = None if reconfigure else _equip_quality(eq.card.data.text, top.ability.index)
    colors = view.chars(eq.id).colors if eq.zone == "battlefield" else frozenset()
    attach: dict[str, str | None] = {o.id: o.attached_to for o in state.battlefield}
    another = not reconfigure or target != eq.id          # "another target creature you control"
    if another and _legal_target(view, state, top.controller, target, quality, frozenset(colors)):
        on_bf = eq.zone == "battlefield" and not top.last_known
        c = view.chars(eq.id) if on_bf else None
        # 301.5c: an Equipment that's a creature equips only with reconfigure
        if c is not None and (reconfigure or not c.is_creature) and "Equipment" in c.subtypes \
                and attach[eq.id] != target:
            attach[eq.id] = target
    after = _replace_objects(state, attach)
    # 704.5n: an Equipment attached to a noncreature (or while a creature itself) falls off
    v2 = View(after)
    fixed = {o.id: (None if o.attached_to is not None and _falls_off(v2, o.id, o.attached_to) else o.attached_to)
             for o in after.battlefield}
    return summary(_replace_objects(after, fixed))


def _falls_off(view: View, eq: str, host: str) -> bool:
    """CR 704.5n, 301.5c: attached to a noncreature, while a creature itself, or to a creature with
    protection from it."""
    h, e = view.chars(host), view.chars(eq)
    return not h.is_creature or e.is_creature or _protected(h, frozenset(e.colors))


def _replace_objects(state: GameState, attach: dict[str, str | None]) -> GameState:
    """The state with what each permanent is attached to replaced."""
    return state.with_(objects=tuple(o.with_(attached_to=attach[o.id]) if o.id in attach else o
                                     for o in state.objects))
