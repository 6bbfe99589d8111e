"""Choosing the modes of a modal spell or ability (CR 700.2, 601.2b–c, 602.2b, 603.3c).

The rules layer between the IR's modes (:class:`solver.core.ir.Mode`, read by
:mod:`solver.reader.modes`) and the targeting model (:mod:`models.targets`):

* CR 601.2b: the modes are announced first; 601.2c: then the targets, for the
  chosen modes only (700.2c: a target of a mode not chosen does not exist);
* CR 700.2a–b: a mode that would be illegal — no legal choice of targets — can't
  be chosen; so a *selection* of modes is legal only when its combined target
  problem has a solution (each chosen mode's instances of "target" are distinct
  instances, CR 601.2c: one object may be chosen once for each);
* CR 700.2d: a mode is chosen at most once unless the card says "You may choose
  the same mode more than once", in which case it counts as that many modes
  (its targets that many times).

A selection is a sorted tuple of 1-based mode numbers in printed order;
selections are listed in lexicographic order. The number of (selection,
targets) choices is the sum over legal selections of the number of target
choices for that selection (:func:`models.targets.count_choices` per
selection: no enumeration).

This module is the modes' data (what may be chosen, the slots of a selection); the
questions that need targeting — which selections have legal targets, how many (modes,
targets) choices there are — are answered in :mod:`solver.rules.targeting`
(``mode_selection_counts``, ``modal_choice_count``, ``has_legal_modes``), which builds on
this module (no import cycle).
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, replace
from itertools import combinations, combinations_with_replacement
from typing import Any, Sequence

from ..core import ir
from ..core.ir import TargetSpec

__all__ = ["ModeChoice", "TargetingSource", "modal_of", "selections", "selection_specs", "selection_error", "with_modes",
           "selection_effects", "unchosen_unread", "chooses_on_stack"]


@dataclass(frozen=True)
class ModeChoice:
    """The modes of a spell or ability as far as choosing them goes: each mode's
    target instances, and how many modes may be chosen (CR 700.2)."""

    modes: tuple[tuple[ir.TargetSpec, ...], ...]
    min_modes: int
    max_modes: int
    repeat: bool = False

    @property
    def n(self) -> int:
        return len(self.modes)


@dataclass(frozen=True)
class TargetingSource:
    """A spell or ability whose targets are being chosen.

    ``kind``: ``spell`` | ``activated`` | ``triggered``. ``object_id``: the
    spell's card (in hand or on the stack) or the ability's source object.
    ``controller``: who controls the spell or ability (hexproof and "you
    control" are relative to this player, CR 702.11b, 109.5). ``colors``: the
    colors of the source for protection (CR 702.16b: a spell's own colors, an
    ability's source's colors). ``self_id``: the spell or ability on the
    stack, never a legal target for itself (CR 115.5). ``default_how``: the
    ``how`` that applies when the query gives none.
    """

    kind: str
    object_id: str
    controller: str
    specs: tuple[TargetSpec, ...]
    colors: frozenset[str] = frozenset()
    self_id: str | None = None
    default_how: str = "cast"
    types: frozenset[str] = frozenset()     # card types / subtypes of the spell or the ability's source:
    subtypes: frozenset[str] = frozenset()  # qualities for protection and hexproof from (CR 702.16b, 702.11e)
    # a modal spell or ability (CR 700.2; solver/rules/modes.py): its modes' target instances; ``specs`` are
    # those of the modes ``selection`` chosen (None: not chosen yet — no target problem before, CR 601.2b-c)
    modal: ModeChoice | None = None
    selection: tuple[int, ...] | None = None

    def allowed_hows(self) -> tuple[str, ...]:
        """The ``how`` values that make sense for this kind of source."""
        first = {"spell": "cast", "activated": "activate", "triggered": "trigger"}[self.kind]
        return (first, "copy", "change", "random")


def modal_of(x: object) -> ModeChoice | None:
    """The mode choice of a :class:`~solver.core.ir.SpellBehaviour`, activated or triggered ability
    (None when it has no modes)."""
    modes = getattr(x, "modes", ()) or ()
    if not modes:
        return None
    return ModeChoice(tuple(tuple(m.targets) for m in modes), int(getattr(x, "min_modes", 1)),
                      int(getattr(x, "max_modes", 1)), bool(getattr(x, "mode_repeat", False)))


def selections(mc: ModeChoice) -> list[tuple[int, ...]]:
    """Every selection of modes the text allows (ignoring targets), sorted."""
    pick = combinations_with_replacement if mc.repeat else combinations
    out: list[tuple[int, ...]] = []
    for k in range(mc.min_modes, mc.max_modes + 1):
        out.extend(pick(range(1, mc.n + 1), k))
    return sorted(out)


def selection_error(mc: ModeChoice, sel: object) -> str | None:
    """Why ``sel`` (a list of 1-based mode numbers) is not a selection the text allows, or None."""
    if not isinstance(sel, (list, tuple)) or any(not isinstance(i, int) or isinstance(i, bool) for i in sel):
        return "expected a list of mode numbers (1-based, printed order)"
    bad = [i for i in sel if not 1 <= i <= mc.n]
    if bad:
        return f"no mode {bad[0]} (the card has {mc.n} modes)"
    if not mc.repeat and len(set(sel)) != len(sel):
        return "a mode can't be chosen more than once (CR 700.2d)"
    if not mc.min_modes <= len(sel) <= mc.max_modes:
        n = str(mc.min_modes) if mc.min_modes == mc.max_modes else f"{mc.min_modes} to {mc.max_modes}"
        return f"choose {n} mode(s), not {len(sel)} (CR 700.2)"
    return None


def selection_specs(mc: ModeChoice, sel: tuple[int, ...]) -> tuple[ir.TargetSpec, ...]:
    """The instances of "target" of the chosen modes, in printed order (a mode chosen
    twice gives its instances twice, CR 700.2d); "another target" links stay inside a mode."""
    out: list[ir.TargetSpec] = []
    for i in sel:
        off = len(out)
        for spec in mc.modes[i - 1]:
            out.append(replace(spec, distinct_from=tuple(d + off for d in spec.distinct_from))
                       if spec.distinct_from else spec)
    return tuple(out)


def with_modes(source: "TargetingSource", sel: tuple[int, ...]) -> "TargetingSource":
    """The targeting source with the modes ``sel`` chosen (CR 601.2b): its slots are those modes'."""
    assert source.modal is not None
    return replace(source, specs=selection_specs(source.modal, tuple(sel)), selection=tuple(sel))


_TARGET_REFS = ("target", "each_target")


def _shifted(v: Any, targets: int, groups: int) -> Any:
    """``v`` (an effect, a reference, a tuple of them, nested) with its target references moved ``targets``
    slots on and its group-effect slots (``slot``, the effects entry's ``affected`` lists) ``groups`` on."""
    if isinstance(v, ir.Ref):
        return replace(v, index=v.index + targets) if v.kind in _TARGET_REFS and targets else v
    if not targets and not groups:
        return v
    if isinstance(v, tuple):
        items = tuple(_shifted(x, targets, groups) for x in v)
        return v if all(a is b for a, b in zip(items, v)) else items
    if dataclasses.is_dataclass(v) and not isinstance(v, type):
        changes: dict[str, Any] = {}
        for f in dataclasses.fields(v):
            old = getattr(v, f.name)
            new = old + groups if f.name == "slot" and isinstance(old, int) and not isinstance(old, bool) \
                else _shifted(old, targets, groups)
            if new is not old:
                changes[f.name] = new
        return replace(v, **changes) if changes else v
    return v


def _group_slots(v: Any) -> int:
    """How many group-effect slots the effects ``v`` use (one past the highest ``slot``; 0: none)."""
    if isinstance(v, tuple):
        return max((_group_slots(x) for x in v), default=0)
    if dataclasses.is_dataclass(v) and not isinstance(v, type):
        own = getattr(v, "slot", None)
        n = own + 1 if isinstance(own, int) and not isinstance(own, bool) else 0
        return max([n] + [_group_slots(getattr(v, f.name)) for f in dataclasses.fields(v)])
    return 0


def selection_effects(modes: Sequence[ir.Mode], sel: Sequence[int]) -> tuple[ir.Effect, ...]:
    """The effects of the chosen modes, in printed order (CR 700.2, 608.2c: a modal spell or ability
    does what its chosen modes say, in the order written; a mode chosen twice, twice, CR 700.2d), each
    mode's target references moved to its slots among the selection's (:func:`selection_specs`) and
    its group-effect slots after the earlier modes'."""
    out: list[ir.Effect] = []
    targets = groups = 0
    for i in sorted(sel):
        m = modes[i - 1]
        out.extend(_shifted(tuple(m.effects), targets, groups))
        targets += len(m.targets)
        groups += _group_slots(tuple(m.effects))
    return tuple(out)


def unchosen_unread(modes: Sequence[ir.Mode], sel: Sequence[int]) -> frozenset[str]:
    """The texts of unread effects (``UnreadEffect``) only modes not in ``sel`` have: on the stack they are
    no part of what the spell or ability does (CR 700.2a, 601.2b: its modes were chosen)."""
    chosen = {e.text for i in set(sel) for e in modes[i - 1].effects if isinstance(e, ir.UnreadEffect)}
    return frozenset(e.text for m in modes for e in m.effects
                     if isinstance(e, ir.UnreadEffect) and e.text not in chosen)


def chooses_on_stack(a: object) -> bool:
    """Does putting ``a`` (a triggered ability) on the stack involve a choice of modes or targets
    (CR 603.3c-d)?"""
    return bool(getattr(a, "targets", ()) or getattr(a, "modes", ()))
