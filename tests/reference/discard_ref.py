"""Brute-force reference for a discard of the player's choice (CR 701.9a-b), independent of the
engine: every combination of ``n`` cards of the hand (all of it when it holds ``n`` or fewer), kept
once per multiset of names (cards of one name in a hand are interchangeable). A result is the
sorted names of the cards discarded."""
from __future__ import annotations

from itertools import combinations
from typing import Sequence


def discard_results(hand: Sequence[str], n: int) -> set[tuple[str, ...]]:
    k = min(n, len(hand))
    return {tuple(sorted(hand[i] for i in combo)) for combo in combinations(range(len(hand)), k)}
