"""Brute-force reference for cascade (CR 702.85a), from the rules text alone, independent of the engine:
the controller exiles cards from the top of their (known) library until a nonland card with a mana value
less than the spell's is exiled; they may cast it (one outcome declining, one casting); every exiled card
not cast goes on the bottom of the library in a random order: each permutation equally likely, distinct
resulting libraries kept with their probability. Onto an empty library the cards form a library in
random order (written as the multiset of names, ``random``)."""
from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import permutations
from typing import Callable, Sequence

Key = tuple[bool, str, tuple[str, ...]]


def cascade(library: Sequence[str], mana_value: Callable[[str], int], is_land: Callable[[str], bool],
            n: int) -> dict[Key, Fraction]:
    """``(cast, "known" | "random", library names top first — sorted when random)`` → probability."""
    exiled: list[str] = []
    hit = None
    for name in library:
        exiled.append(name)
        if not is_land(name) and mana_value(name) < n:
            hit = name
            break
    below = list(library[len(exiled):])
    out: dict[Key, Fraction] = {}
    for cast in ([False, True] if hit is not None else [False]):
        left = list(exiled)
        if cast:
            left.remove(hit)
        if not below and left:
            out[(cast, "random", tuple(sorted(left)))] = Fraction(1)
            continue
        counts = Counter(tuple(below) + p for p in permutations(left))
        total = sum(counts.values())
        for lib, k in counts.items():
            out[(cast, "known", lib)] = Fraction(k, total)
    return out
