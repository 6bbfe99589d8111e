"""Brute-force reference for scry (CR 701.22a) and surveil (CR 701.25a), written independently
of the engine (solver/engine/resolution.py): walk every subset of the cards looked at that goes
to the bottom (scry) or the graveyard (surveil) and every permutation of each part, and keep each
distinct result once.

A library is given as a list of card names, top first; cards with the same name there are
interchangeable, so a result is identified by names only:

* scry gives the library's names, top first (the cards kept on top, then the cards not looked
  at, then the cards put on the bottom);
* surveil gives ``(library, graveyard)``: the library's names top first and the sorted names
  of the cards put into the graveyard (their order there is no choice of the player).
"""
from __future__ import annotations

from itertools import permutations, product
from typing import Sequence


def scry_results(library: Sequence[str], n: int) -> set[tuple[str, ...]]:
    """Every distinct library after scry ``n``."""
    seen, rest = list(library[:n]), list(library[n:])
    out: set[tuple[str, ...]] = set()
    for bottom_mask in product((False, True), repeat=len(seen)):
        top = [c for c, b in zip(seen, bottom_mask) if not b]
        bottom = [c for c, b in zip(seen, bottom_mask) if b]
        for t in permutations(top):
            for b in permutations(bottom):
                out.add(tuple(t) + tuple(rest) + tuple(b))
    return out


def surveil_results(library: Sequence[str], n: int) -> set[tuple[tuple[str, ...], tuple[str, ...]]]:
    """Every distinct (library, graveyard cards added) after surveil ``n``."""
    seen, rest = list(library[:n]), list(library[n:])
    out: set[tuple[tuple[str, ...], tuple[str, ...]]] = set()
    for gy_mask in product((False, True), repeat=len(seen)):
        top = [c for c, g in zip(seen, gy_mask) if not g]
        gy = tuple(sorted(c for c, g in zip(seen, gy_mask) if g))
        for t in permutations(top):
            out.add((tuple(t) + tuple(rest), gy))
    return out


def choose_one_results(library: Sequence[str], n: int) -> set[tuple[str, tuple[str, ...]]]:
    """Every distinct (card taken into the hand, library after) of "look at the top ``n`` cards, put
    one of them into your hand and the rest on the bottom in any order"."""
    seen, rest = list(library[:n]), list(library[n:])
    out: set[tuple[str, tuple[str, ...]]] = set()
    for i, taken in enumerate(seen):
        for b in permutations(seen[:i] + seen[i + 1:]):
            out.add((taken, tuple(rest) + tuple(b)))
    return out


def hand_on_top_results(hand: Sequence[str], library: Sequence[str], n: int) -> set[tuple[tuple[str, ...], tuple[str, ...]]]:
    """Every distinct (library, sorted hand) after putting ``n`` cards from ``hand`` on top of
    ``library`` in any order (all of them when the hand holds fewer)."""
    k = min(n, len(hand))
    out: set[tuple[tuple[str, ...], tuple[str, ...]]] = set()
    for chosen in permutations(range(len(hand)), k):
        rest = tuple(sorted(hand[i] for i in range(len(hand)) if i not in chosen))
        out.add((tuple(hand[i] for i in chosen) + tuple(library), rest))
    return out
