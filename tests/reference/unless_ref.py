"""Brute-force reference for "counter target spell unless its controller pays {N}" (CR 118.12,
701.6a), written independently of the engine and of the payment model: the spell's controller
declines (the spell is countered) or pays {N} by tapping N of their untapped basic lands (each
adds one mana, CR 305.6) — every combination of N lands, kept once per multiset of land names
(lands of one name, untapped, are interchangeable).

A result is ``None`` (declined) or the sorted names of the lands tapped.
"""
from __future__ import annotations

from itertools import combinations
from typing import Sequence


def unless_results(untapped_lands: Sequence[str], n: int) -> set[tuple[str, ...] | None]:
    out: set[tuple[str, ...] | None] = {None}
    for combo in combinations(range(len(untapped_lands)), n):
        out.add(tuple(sorted(untapped_lands[i] for i in combo)))
    return out
