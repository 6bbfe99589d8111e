"""Brute-force reference for copying a spell on the stack with new targets (CR 707.10, 707.10c; casualty,
702.153a), written independently of :mod:`solver.engine.copies`.

For a situation whose stack has, on top, the casualty trigger of the spell just below it: write the situation
as a document, replace the trigger by a copy of the spell (the same card and record, ``copy: true``, the
trigger's controller), load it, and list the copy's legal target choices with the targets reference
(:func:`reference.targets_ref.reference_targets`, ``how: copy``). The copy's targets are its original ones
(kept even if illegal, 707.10c) or any of those choices: a sorted list of distinct target lists. Small,
single-target spells only.
"""
from __future__ import annotations

import copy as _copy

from mtgsolve.solver.io.dump import dump_state
from mtgsolve.solver.io.load import situation_from_dict

from .targets_ref import reference_targets


def reference_copy_targets(state) -> list[list[list[str]]]:
    """The distinct target lists the copy of the spell under the casualty trigger may have."""
    doc = dump_state(state)
    stack = doc["stack"]
    trigger, spell = stack[0], stack[1]
    assert "ability" in trigger and trigger["ability"]["source"] == spell["id"]
    if not spell.get("casualty"):
        return []                       # the intervening "if" is false (CR 603.4): no copy
    twin = _copy.deepcopy(spell)
    twin["id"] = spell["id"] + "-copy"
    twin["copy"] = True
    twin["controller"] = trigger.get("controller", spell.get("controller"))
    doc["stack"] = [twin] + stack[1:]
    st = situation_from_dict(doc).state
    kept = [list(g) for g in spell.get("targets", [])]
    got = reference_targets(st, {"kind": "targets", "spell": twin["id"], "how": "copy"})
    out = {tuple(tuple(g) for g in kept)} | {tuple(tuple(g) for g in c) for c in got["choices"]}
    return sorted([list(g) for g in c] for c in out)


def reference_storm_targets(state) -> list[list[list[list[str]]]]:
    """Storm (CR 702.40a): the copies' targets, one list per copy in the order they are put on the stack:
    every combination of each copy's choices (the copies' legal targets don't depend on one another for
    spells that can't target spells), sorted."""
    from itertools import product

    doc = dump_state(state)
    spell = doc["stack"][1]
    n = spell.get("cast_before", 0)
    one = reference_copy_targets_any(state)
    return sorted([list(c) for c in product(one, repeat=n)])


def reference_copy_targets_any(state) -> list[list[list[str]]]:
    """One copy's target choices, whatever the spell records of casualty (storm copies it unconditionally)."""
    doc = dump_state(state)
    spell = doc["stack"][1]
    twin = _copy.deepcopy(spell)
    twin["id"] = spell["id"] + "-copy"
    twin["copy"] = True
    twin.pop("cast_before", None)
    doc["stack"] = [twin] + doc["stack"][1:]
    st = situation_from_dict(doc).state
    kept = [list(g) for g in spell.get("targets", [])]
    got = reference_targets(st, {"kind": "targets", "spell": twin["id"], "how": "copy"})
    out = {tuple(tuple(g) for g in kept)} | {tuple(tuple(g) for g in c) for c in got["choices"]}
    return sorted([list(g) for g in c] for c in out)
