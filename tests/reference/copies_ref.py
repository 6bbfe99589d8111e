"""Brute-force reference for copying a spell on the stack with new targets (CR 707.10, 707.10c; casualty,
702.153a; storm, 702.40a), written independently of :mod:`solver.engine.copies`.

For a situation document whose stack has, on top, the copying trigger of the spell just below it: replace the
trigger by a copy of the spell (the same card and record, ``copy: true``, the trigger's controller), load it,
and list the copy's legal target choices with the targets reference
(:func:`reference.targets_ref.reference_targets`, ``how: copy``). A copy's targets are the spell's (kept
even if illegal, 707.10c) or any of those choices. Small, single-target spells only.
"""
from __future__ import annotations

import copy as _copy
from itertools import product

from mtgsolve.solver.io.load import situation_from_dict

from .targets_ref import reference_targets


def _one_copy(doc: dict) -> list[list[list[str]]]:
    """The distinct target lists one copy of the spell under the trigger may have, sorted."""
    stack = doc["stack"]
    trigger, spell = stack[0], stack[1]
    spell_id = spell.get("id") or situation_from_dict(doc).state.obj(trigger["ability"]["source"]).id
    twin = _copy.deepcopy(spell)
    twin["id"] = spell_id + "-copy"
    twin["copy"] = True
    twin["controller"] = trigger.get("controller", spell.get("controller"))
    twin.pop("cast_before", None)
    new = _copy.deepcopy(doc)
    new["stack"] = [twin, dict(spell, id=spell_id)] + stack[2:]
    st = situation_from_dict(new).state
    kept = [list(g) for g in spell.get("targets", [])]
    got = reference_targets(st, {"kind": "targets", "spell": twin["id"], "how": "copy"})
    out = {tuple(tuple(g) for g in kept)} | {tuple(tuple(g) for g in c) for c in got["choices"]}
    return sorted([list(g) for g in c] for c in out)


def reference_copy_targets(doc: dict) -> list[list[list[str]]]:
    """Casualty: the copy's possible targets; none when no casualty cost was paid (603.4: no copy)."""
    if not doc["stack"][1].get("casualty"):
        return []
    return _one_copy(doc)


def reference_storm_targets(doc: dict) -> list[list[list[list[str]]]]:
    """Storm: the copies' targets, one list per copy in the order they are put on the stack — every
    combination of each copy's choices (the copies' legal targets don't depend on one another for spells
    that can't target spells), sorted."""
    n = doc["stack"][1].get("cast_before", 0)
    return sorted([list(c) for c in product(_one_copy(doc), repeat=n)])
