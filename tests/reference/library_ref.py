"""Brute-force reference for the library effects of resolution (CR 701.23 search,
CR 401.4 "look at the top N cards, then put them back in any order"), written
independently of the engine (solver/engine/resolution.py): walk every card the player could
find and every permutation of the cards looked at, and keep each distinct result once.

A library is given as a list of card names, top first. Cards with the same name in a
library are interchangeable (nothing else tells them apart there), so a result is
identified by names only:

* a search gives ``(found, remaining)`` — the name of the card found (``None``: nothing)
  and the sorted names left in the library (it is shuffled after, so its order is not
  part of the result);
* putting the top cards back gives the library's names, top first.
"""
from __future__ import annotations

from itertools import combinations, permutations
from typing import Callable, Sequence


def search_results(library: Sequence[str], qualifies: Callable[[str], bool],
                   stated_quality: bool) -> set[tuple[str | None, tuple[str, ...]]]:
    """Every distinct result of searching ``library`` for one card that ``qualifies``.
    With a stated quality the player may find nothing (CR 701.23b); searching for "a
    card" they must find one if there is one (CR 701.23c)."""
    out: set[tuple[str | None, tuple[str, ...]]] = set()
    for i, name in enumerate(library):
        if qualifies(name):
            rest = list(library[:i]) + list(library[i + 1:])
            out.add((name, tuple(sorted(rest))))
    if stated_quality or not out:
        out.add((None, tuple(sorted(library))))
    return out


def arrange_results(library: Sequence[str], n: int) -> set[tuple[str, ...]]:
    """Every distinct library after looking at its top ``n`` cards and putting them back
    in any order (CR 401.4): each permutation of the top ``n``, the rest unchanged."""
    top, rest = list(library[:n]), list(library[n:])
    return {tuple(p) + tuple(rest) for p in permutations(top)}


def search_up_to_results(library: Sequence[str], qualifies: Callable[[str], bool],
                         n: int) -> set[tuple[tuple[str, ...], tuple[str, ...]]]:
    """Every distinct result of searching ``library`` for up to ``n`` cards that ``qualify`` (CR 701.23b:
    "up to", so any number from none to ``n``): (the sorted names found, the sorted names left)."""
    idx = [i for i, name in enumerate(library) if qualifies(name)]
    out: set[tuple[tuple[str, ...], tuple[str, ...]]] = set()
    for k in range(min(n, len(idx)) + 1):
        for pick in combinations(idx, k):
            found = tuple(sorted(library[i] for i in pick))
            rest = tuple(sorted(library[i] for i in range(len(library)) if i not in pick))
            out.add((found, rest))
    return out
