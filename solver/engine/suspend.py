"""Counters removed by a resolving ability, and suspend's cast from exile (CR 122.1, 702.62a, 702.32a, 702.63a).

Two instructions of keyword abilities, through the kernel of :mod:`solver.engine.transition`:

* :func:`remove_counter` — "remove a <kind> counter from it": suspend's upkeep ability on the card in
  exile (CR 702.62a), fading's and vanishing's on the permanent (702.32a, 702.63a). Fading's "If you
  can't, sacrifice it": a permanent with no fade counter is sacrificed (put into its owner's graveyard by
  ``move``, CR 701.21a). Removing the last time counter triggers the source's "When the last time counter is
  removed from …" abilities that function where it is (:class:`~solver.core.ir.LastCounterRemovedTrigger`,
  CR 113.6, 603.2), queued through ``queue_triggers``;
* :func:`cast_suspended` — suspend's last ability: "if it's exiled, you may cast it without paying its mana
  cost if able. If you don't, it remains exiled." One outcome where the owner declines and one per legal
  choice of the spell's targets where they cast it (CR 601.2c, with the targeting rules' model): the card
  moves to the stack (``move``, CR 601.2a) with X 0 (CR 107.3b), is counted in ``turn.spells_cast`` (CR
  601.2i, 730.2) and its "cast" event recorded (prowess, CR 603.2). Timing rules don't apply — it is cast
  while an ability resolves (CR 608.2g) — but "can't cast" rules do (CR 601.3, 101.2): then, or with no
  legal choice of targets, it can't be cast ("if able") and stays exiled. Recorded as the choice
  ``suspend_cast: {player, card, cast[, targets]}`` (the owner's decision).

Refused (:class:`~solver.engine.transition.ResolutionUnsupported`, never guessed): a creature spell cast this
way (it gains haste "until you lose control of the spell or the permanent it becomes", a duration the
effects list does not hold), a modal spell, a card with additional costs or other ways of casting it
(kicker, buyback, casualty, prototype, an unread cost: CR 118.9, 601.2b-f) and a card with an unread
triggered ability ("When you cast this spell …" could trigger as it is cast, CR 603.2).
"""
from __future__ import annotations

from typing import Any

from ..core import ir
from ..core.events import SpellCast
from ..rules.casting_rules import cast_restriction
from ..rules.modes import modal_of
from ..rules.targeting import TargetingError, cast_source, spell_specs, targeting_problem
from mtgsolve.models.targets import enumerate_choices
from .copies import needs_cast_before
from .transition import (ResolutionUnsupported, _World, adjust_counters, counted_cast, move, queue_target_triggers,
                         queue_triggers)

__all__ = ["remove_counter", "cast_suspended", "cast_without_paying"]

#: Casting options a card cast "without paying its mana cost" could still use, which are not modeled here.
_UNMODELED_OPTIONS = (ir.AdditionalCost, ir.Kicker, ir.Casualty, ir.Buyback, ir.Prototype)


def remove_counter(w: _World, oid: str | None, counter: str, or_sacrifice: bool = False) -> list[_World]:
    """CR 122.1: one ``counter`` counter removed from ``oid`` (module docstring); the last time counter
    removed triggers "When the last time counter is removed" (CR 702.62a, 702.63a). ``or_sacrifice``: with
    none to remove, the permanent is sacrificed (fading, CR 702.32a)."""
    o = w.objects.get(oid) if oid is not None else None
    if o is None:
        return [w]
    have = o.counter(counter)
    if have <= 0:
        if or_sacrifice and o.zone == "battlefield":
            move(w, o.id, "graveyard")   # CR 701.21a: sacrificed (a creature dies, 700.4)
        return [w]
    adjust_counters(w, o.id, ((counter, -1),))
    if have == 1:
        _last_removed(w, o.id, counter)
    return [w]


def _last_removed(w: _World, oid: str, counter: str) -> None:
    """CR 603.2: the source's "When the last <counter> counter is removed" abilities that function in its
    zone (CR 113.6) trigger."""
    o = w.objects[oid]
    if o.card is None:
        return
    have = w.view().chars(oid).abilities if o.zone == "battlefield" else o.card.abilities
    live = [a for a in have if isinstance(a, ir.TriggeredAbility)
            and isinstance(a.trigger, ir.LastCounterRemovedTrigger)
            and a.trigger.counter == counter and a.trigger.zone == o.zone]
    if live:
        queue_triggers(w, o, ir.LastCounterRemovedTrigger, live)


def cast_suspended(w: _World, oid: str | None) -> list[_World]:
    """CR 702.62a, 608.2g: the owner of the exiled card ``oid`` casts it without paying its mana cost, or
    declines (module docstring): one world per distinct choice."""
    o = w.objects.get(oid) if oid is not None else None
    if o is None or o.zone != "exile" or o.card is None:
        return [w]   # "if it's exiled": a card that left exile is a new object (CR 400.7)
    return cast_without_paying(w, o.id, o.owner, "suspend_cast", "suspend, CR 702.62a")


def cast_without_paying(w: _World, oid: str, player: str, key: str, why: str, haste: bool = True) -> list[_World]:
    """``player`` casts the exiled card ``oid`` without paying its mana cost as an ability resolves, or
    declines (CR 608.2g, 118.9; module docstring): one world per distinct choice, recorded as the choice
    ``key`` (``{player, card, cast[, targets]}``). ``why`` names the rule for refusals; ``haste``: a creature
    spell cast this way gains haste (suspend) — refused."""
    o = w.objects[oid]
    if o.card is None:
        return [w]
    _refuse_unmodeled(o, why, haste)
    view = w.view()
    if "Land" in o.card.data.types or cast_restriction(view, player, False):
        return [w]   # it can't be cast (CR 305.9, 601.3): "if able" — it remains exiled
    choices = _target_choices(w, o.id, player)
    if not choices:
        return [w]   # no legal choice of targets (CR 601.2c): it can't be cast and remains exiled
    decline = w.fork()
    decline.choices[key] = {"player": player, "card": o.id, "cast": False}
    return [decline] + [_cast(w.fork(), o.id, player, targets, len(choices) > 1, key) for targets in choices]


def _refuse_unmodeled(o: Any, rule: str, haste: bool) -> None:
    """What casting the card this way could involve that is not modeled (module docstring)."""
    card = o.card
    why = ""
    if haste and "Creature" in card.data.types:
        why = "a creature spell cast this way gains haste until its controller loses control of it (CR 702.62a)"
    elif modal_of(card.spell) is not None:
        why = "its modes would be chosen as it is cast (CR 700.2, 601.2b)"
    elif any(isinstance(a, _UNMODELED_OPTIONS) for a in card.abilities):
        why = "it has an additional cost or another way of casting it (CR 118.9, 601.2b)"
    elif any(isinstance(a, ir.Unsupported) and "costs" in a.affects for a in card.abilities):
        why = "it has unread text about its costs (CR 601.2f)"
    elif any(isinstance(a, ir.Unsupported) and a.kind == "triggered" for a in card.abilities):
        why = "it has an unread triggered ability, which could trigger as it is cast (CR 603.2)"
    if why:
        raise ResolutionUnsupported(f"casting {o.name} ({o.id}) from exile without paying its mana cost "
                                    f"({rule}) is not modeled: {why}")


def _target_choices(w: _World, oid: str, player: str) -> list[tuple[tuple[str, ...], ...] | None]:
    """Every legal choice of the spell's targets as it is cast (CR 601.2c, 115.1; Flagbearers apply):
    ``[None]`` for a spell without targets, ``[]`` when it can't be cast for want of targets."""
    o = w.objects[oid]
    assert o.card is not None
    if not spell_specs(o.card):
        return [None]
    view = w.view()
    try:
        answer = enumerate_choices(targeting_problem(view, cast_source(view, oid), chooser=player, how="cast"))
    except TargetingError as e:
        raise ResolutionUnsupported(f"the targets of {o.name} cast from exile: {e}") from None
    return [tuple(tuple(g) for g in c) for c in answer.choices]


def _cast(w: _World, oid: str, player: str, targets: tuple[tuple[str, ...], ...] | None, record: bool,
          key: str) -> _World:
    """The card cast: on top of the stack under its owner with X 0 and ``targets`` (CR 601.2a-c, 107.3b),
    its targets' ward abilities queued (702.21a), counted and its "cast" event recorded (CR 601.2i)."""
    status: dict[str, Any] = {}
    card = w.objects[oid].card
    if w.spells_cast is not None and needs_cast_before(card):   # storm (CR 702.40a)
        status["cast_before"] = sum(n for _, n in w.spells_cast)
    move(w, oid, "stack", controller=player, x=0, targets=targets, **status)
    if targets:
        queue_target_triggers(w, oid)
    nth = None
    if w.spells_cast is not None:
        w.spells_cast = counted_cast(w.spells_cast, player, w.base.player_ids)
        nth = dict(w.spells_cast).get(player)
    w.events.append(SpellCast(oid, player, nth))
    rec: dict[str, Any] = {"player": player, "card": oid, "cast": True}
    if record and targets:
        rec["targets"] = [list(g) for g in targets]
    w.choices[key] = rec
    return w
