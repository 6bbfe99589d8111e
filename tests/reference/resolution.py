"""Brute-force reference for :mod:`models.resolution` (putting triggered
abilities on the stack, CR 603.3b/d), written independently of the CP-SAT
model: walk every permutation of the triggers and every combination of their
target choices, and keep each distinct resulting stack once.

A stack is identified by its sequence, bottom first, of (trigger key, choice
index): triggers with equal keys are interchangeable (the same ability with
the same information and the same legal choices), so swapping them gives the
same stack.
"""
from __future__ import annotations

from itertools import permutations, product
from typing import Hashable, Sequence


def distinct_stacks(keys: Sequence[Hashable], n_choices: Sequence[int]) -> list[tuple[tuple[Hashable, int], ...]]:
    """Every distinct stack of these triggers, sorted (by repr, keys may be of any type)."""
    seen: set = set()
    for perm in permutations(range(len(keys))):
        for pick in product(*(range(n) for n in n_choices)):
            seen.add(tuple((keys[t], pick[t]) for t in perm))
    return sorted(seen, key=repr)
