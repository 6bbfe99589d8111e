"""Statics that forbid activating abilities (CR 602.5): "Activated abilities of
<permanents> can't be activated [unless they're mana abilities]." (Karn, the
Great Creator; Collector Ouphe; Null Rod; Damping Matrix) and "… of sources
with the chosen name …" (Phyrexian Revoker, Pithing Needle), read by
:func:`solver.reader.statics.activation_ban` as :class:`~solver.core.ir.CantActivate`.

Mana abilities are activated abilities (CR 605.1a): a ban without "unless
they're mana abilities" removes them from ``available_mana`` and ``pay``
(:func:`solver.rules.mana_sources.activations`); every ban removes non-mana abilities
from ``actions``. ``could_produce`` is not changed (CR 106.7 asks what an
ability would produce if it resolved, whether or not it could be activated,
as for per-turn limits and activation conditions). Rules layer: reads the rules
view only.
"""
from __future__ import annotations

from typing import Sequence

from ..core import ir
from .characteristics import View
from ..core.mana import ManaCost

__all__ = ["activation_ban", "chosen_name", "spend_as_any_color_reason"]


def chosen_name(obj) -> str | None:
    """The card name chosen for ``obj`` as it entered (object key ``chosen: {name}``), or None
    (none chosen: "the chosen name" names nothing, as an unchosen color adds nothing, CR 106.5)."""
    if obj is None:
        return None
    name = dict(obj.chosen).get("name")
    return name if isinstance(name, str) and name else None


def activation_ban(view: View, oid: str, mana: bool) -> str | None:
    """Why the activated abilities of ``oid`` (a permanent; or a card elsewhere, whose
    abilities only a chosen-name ban reaches) can't be activated now (CR 602.5),
    or None. ``mana``: the ability is a mana ability (CR 605.1a), which "unless they're mana
    abilities" exempts."""
    in_play = view.obj(oid).zone == "battlefield"
    for s in view.statics(ir.CantActivate):
        ab = s.ability
        if mana and ab.except_mana:
            continue
        if not in_play and not ab.chosen_name:
            continue   # "artifacts", "creatures": permanents only; a chosen name: cards anywhere (cycling)
        src = view.state.find(s.source)
        if ab.chosen_name:
            name = chosen_name(src)
            if name is None or view.chars(oid).name.casefold() != name.casefold():
                continue
        elif ab.affected is None or not view.matches(ab.affected, oid, src, s.controller):
            continue
        what = ab.text or ab.describe()
        return f"{view.chars(s.source).name} ({s.source}): \"{what}\" (CR 602.5)"
    return None


def spend_as_any_color_reason(view: View, player: str, sources: Sequence[tuple[str, ManaCost]]) -> str | None:
    """Why a payment of ``player`` can't be modeled exactly: "You may spend mana as though it
    were mana of any color to activate abilities of <permanents> you control" (CR 609.4b) is in
    force for ``player`` and one of ``sources`` — (permanent, mana cost) of an ability activated
    in or by the payment — is such a permanent and its cost has a symbol other than generic
    mana (the rule could change which mana pays it). None when the rule can't change it."""
    rules = [s for s in view.statics(ir.SpendAsAnyColor) if s.controller == player]
    for s in rules:
        src = view.state.find(s.source)
        for oid, cost in sources:
            if any(sym.kind not in ("generic", "X") for sym in cost.symbols) and \
                    s.ability.affected is not None and view.matches(s.ability.affected, oid, src, player):
                return (f"{view.chars(s.source).name}: mana spent as though it were mana of any color to activate "
                        f"abilities of {s.ability.affected.describe()} (CR 609.4b) is not modeled in payments "
                        f"({view.chars(oid).name}'s cost)")
    return None
