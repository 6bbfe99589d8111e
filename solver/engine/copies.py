"""Copies of spells on the stack (CR 707.10): casualty's copy (702.153a) and storm's copies (702.40a).

:func:`copy_spell` puts a copy of a spell that is on the stack onto the stack, on top, through the kernel's
one creation and zone change (:func:`~solver.engine.transition.create`, :func:`~solver.engine.transition.move`):

* the copy has the copied spell's characteristics — its card, or the face it was cast as — and every
  decision made for it: X, targets, how it was cast (kicked, alternative cost, buyback, casualty;
  CR 707.10); it is a copy (object key ``copy``: it ceases to exist when it leaves the stack, 707.10a,
  and a copy of a permanent spell becomes a token as it resolves, 608.3f); it is owned and controlled by
  the player who puts it on the stack (the controller of the ability that copies, 707.10) and is not cast
  (707.10: no "cast" triggers, no spell counted in ``turn.spells_cast``);
* "you may choose new targets for the copy" (707.10c): the player may leave the target unchanged, even if
  it is illegal now, or change it to any legal target — one branch per distinct choice, recorded as the
  choice ``copy_targets`` when there is more than one. A new target that has ward triggers it (a copy
  targeting a permanent, CR 702.21a, 115.1).

Refused (:class:`~solver.engine.transition.ResolutionUnsupported`, never guessed): a copied spell no longer on
the stack (the copy would use its last known information, CR 707.10, 113.7a), a modal spell (its modes are
not recorded on the stack object), and new targets for a spell with more than one target or a target
instance that chose a number of targets other than one (the choices of 707.10c for several targets are
not enumerated here).
"""
from __future__ import annotations

from typing import Any

from ..core import ir
from ..rules.modes import modal_of
from ..rules.targeting import TargetingError, slot_candidates, stack_source
from .transition import ResolutionUnsupported, _World, create, move, queue_target_triggers

__all__ = ["copy_spell", "copies_wanted", "needs_cast_before"]

#: The most distinct outcomes of one copying instruction that are listed (beyond: refused, never cut short).
OUTCOME_LIMIT = 4096


def needs_cast_before(card: Any) -> bool:
    """Does the card copy itself for each spell cast before it (storm, CR 702.40a)? Then the spell records
    ``cast_before`` as it is cast."""
    return card is not None and any(isinstance(e, ir.CopySpell) and e.per == "storm"
                                    for a in card.abilities if isinstance(a, ir.TriggeredAbility)
                                    for e in a.effects)


def copies_wanted(w: _World, spell_id: str, per: str) -> int:
    """How many copies: one, or for storm the spell's record of the spells cast before it this turn (all
    players, CR 702.40a); not recorded: refused."""
    if not per:
        return 1
    spell = w.objects.get(spell_id)
    n = spell.cast_before if spell is not None else None
    if n is None:
        raise ResolutionUnsupported(f"storm: how many spells were cast this turn before '{spell_id}' is not "
                                    "recorded (object key cast_before; turn.spells_cast as it was cast)")
    return n

#: What a spell records of how it was cast, kept by its copy (CR 707.10).
_DECISIONS = ("x", "targets", "front", "prototyped", "cast_with", "kicked", "buyback", "casualty")


def copy_spell(w: _World, spell_id: str, controller: str, resolving: str, new_targets: bool,
               n: int = 1) -> list[_World]:
    """Put ``n`` copies of spell ``spell_id`` on the stack under ``controller``, one at a time (module
    docstring; CR 707.10, 707.10c, 702.40a); ``resolving``: the resolving spell or ability that copies it,
    which no target of a copy may name here. One world per distinct choice of the copies' targets."""
    spell = w.objects.get(spell_id)
    if spell is None or spell.zone != "stack" or spell.ability is not None or spell.card is None:
        raise ResolutionUnsupported("copying a spell that has left the stack (the copy would have its last "
                                    "known information, CR 707.10, 113.7a) is not modeled")
    if modal_of(spell.card.spell) is not None:
        raise ResolutionUnsupported(f"copying the modal spell '{spell_id}' (its chosen modes are not recorded, "
                                    "CR 707.10)")
    worlds = [w]
    for _ in range(n):
        worlds = [v2 for v in worlds for v2 in _put_copy(v, spell_id, controller, resolving, new_targets)]
        if len(worlds) > OUTCOME_LIMIT:
            raise ResolutionUnsupported(f"more than {OUTCOME_LIMIT} distinct choices of targets for {n} copies "
                                        f"of '{spell_id}' (CR 707.10c) are not listed")
    return worlds


def _put_copy(w: _World, spell_id: str, controller: str, resolving: str, new_targets: bool) -> list[_World]:
    """One copy on top of the stack, one world per choice of its targets."""
    spell = w.objects[spell_id]
    assert spell.card is not None   # copy_spell checked it
    status: dict[str, Any] = {k: getattr(spell, k) for k in _DECISIONS}
    cid = create(w, spell.card, controller)
    move(w, cid, "stack", controller=controller, copy=True, card=spell.card, **status)   # CR 707.10
    choices = _target_choices(w, cid, resolving) if new_targets else [None]
    out: list[_World] = []
    for targets in choices:
        v = w.fork() if len(choices) > 1 else w
        if targets is not None:
            v.put(v.objects[cid].with_(targets=targets))
            if len(choices) > 1:
                _record(v, {"copy": cid, "targets": [list(g) for g in targets]})
        if v.objects[cid].targets:
            queue_target_triggers(v, cid)   # the new targets' ward abilities (CR 702.21a)
        out.append(v)
    return out


def _record(w: _World, value: dict[str, Any]) -> None:
    """The choice ``copy_targets``; a second copy's in one resolution makes the record the list of them."""
    prev = w.choices.get("copy_targets")
    w.choices["copy_targets"] = value if prev is None else (prev if isinstance(prev, list) else [prev]) + [value]


def _target_choices(w: _World, cid: str, resolving: str) -> list[tuple[tuple[str, ...], ...] | None]:
    """CR 707.10c: the copy's targets — unchanged, or changed to each legal target — or ``[None]``
    (targets unchanged) for a copy without targets."""
    o = w.objects[cid]
    view = w.view()
    try:
        src = stack_source(view, cid)
    except TargetingError as e:
        raise ResolutionUnsupported(f"the copy '{cid}': {e}") from None
    if not src.specs or not o.targets:
        return [None]
    if len(src.specs) != 1 or len(o.targets) != 1 or len(o.targets[0]) != 1:
        raise ResolutionUnsupported("choosing new targets for a copy of a spell with several targets, or none "
                                    "chosen for its target (CR 707.10c), is not modeled")
    spec = src.specs[0]
    cands = slot_candidates(view, src, spec)
    if resolving in cands:
        raise ResolutionUnsupported(f"a new target for the copy '{cid}' could be the resolving '{resolving}' "
                                    "(CR 707.10c), which is not modeled")
    kept = o.targets[0][0]
    return [((t,),) for t in [kept] + [c for c in cands if c != kept]]
