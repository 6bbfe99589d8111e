"""Brute-force reference for the library effects of helper "library" (issue 26), written
independently of the engine (solver/engine/resolution.py), by plain enumeration over card names:

* a permanent put into its owner's library N cards from the top or on the bottom (CR 401.4: a
  library with fewer cards takes it at its bottom);
* the life "its controller" gains after the removal: the creature's last known power or toughness
  (CR 608.2h: printed value plus +1/+1 and -1/-1 counters, nothing else on these boards), a
  permanent's mana value (CR 202.3, from its printed mana cost), or a fixed number — none for 0 or
  less (CR 119.3);
* a search for up to N cards that qualify (CR 701.23b: any number from none to N; cards with the
  same name are interchangeable): every distinct multiset of names found;
* "then shuffle and put that card on top": the card found on top, the rest in any order (the rest
  sorted, known when it is one name, else in random order below the one known card);
* cards put under a known library in a random order: every permutation, distinct results kept
  with their probability (the share of permutations giving it).
"""
from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import combinations, permutations
from typing import Callable, Sequence


def put_at(library: Sequence[str], card: str, position: int) -> list[str]:
    """The library (top first) after ``card`` is put ``position`` cards from the top (-1: bottom)."""
    lib = list(library)
    at = len(lib) if position < 0 or position > len(lib) else position
    return lib[:at] + [card] + lib[at:]


def life_gained(power: int, toughness: int, counters: int, mana_value: int, stat: str, fixed: int | None) -> int:
    """The life gained for the removed permanent (CR 608.2h, 119.3). ``counters``: its number of
    +1/+1 counters (negative: -1/-1 counters)."""
    if fixed is not None:
        return max(0, fixed)
    value = {"power": power + counters, "toughness": toughness + counters, "mana_value": mana_value}[stat]
    return max(0, value)


def search_up_to(library: Sequence[str], qualifies: Callable[[str], bool], n: int) -> set[tuple[str, ...]]:
    """Every distinct sorted multiset of names a search for up to ``n`` qualifying cards finds."""
    idx = [i for i, name in enumerate(library) if qualifies(name)]
    out: set[tuple[str, ...]] = set()
    for k in range(0, min(n, len(idx)) + 1):
        for pick in combinations(idx, k):
            out.add(tuple(sorted(library[i] for i in pick)))
    return out


def tutor_to_top(library: Sequence[str], qualifies: Callable[[str], bool],
                 stated: bool) -> set[tuple[tuple[str, ...], bool] | None]:
    """Every distinct library after "search for a card, then shuffle and put that card on top": the
    card found first and the rest sorted, with whether the rest is in random order (two or more names
    below the known card); finding nothing leaves the library shuffled (``None``)."""
    out: set[tuple[tuple[str, ...], bool] | None] = set()
    for i, name in enumerate(library):
        if qualifies(name):
            rest = sorted(list(library[:i]) + list(library[i + 1:]))
            out.add(((name,) + tuple(rest), len(set(rest)) > 1))
    if stated or not out:
        out.add(None)   # nothing found: the library shuffled
    return out


def random_bottom(library: Sequence[str], cards: Sequence[str]) -> dict[tuple[str, ...], Fraction]:
    """Every distinct library after ``cards`` go under ``library`` in a uniformly random order, with
    its probability."""
    counts: Counter[tuple[str, ...]] = Counter()
    total = 0
    for perm in permutations(cards):
        counts[tuple(library) + perm] += 1
        total += 1
    return {lib: Fraction(k, total) for lib, k in counts.items()}


def reveal_top(library: Sequence[str], qualifies: Callable[[str], bool],
               random_order: bool) -> dict[tuple[tuple[str, ...], tuple[str, ...]], Fraction] | None:
    """"Reveal the top card; if it qualifies, put it into your hand": every distinct (hand, library)
    with its probability — the top card of a known library, or each card of a library in random order
    (equally likely). A card staying on top of a random rest of two or more names: ``None`` (not
    writable); the rest of a random library is given sorted."""
    if not library:
        return {((), ()): Fraction(1)}
    if not random_order or len(set(library)) == 1:
        top = library[0]
        if qualifies(top):
            return {((top,), tuple(library[1:])): Fraction(1)}
        return {((), tuple(library)): Fraction(1)}
    out: dict[tuple[tuple[str, ...], tuple[str, ...]], Fraction] = {}
    for i, top in enumerate(library):
        rest = list(library[:i]) + list(library[i + 1:])
        if qualifies(top):
            key = ((top,), tuple(sorted(rest)))
        elif len(set(rest)) > 1:
            return None
        else:
            key = ((), (top,) + tuple(rest))
        out[key] = out.get(key, Fraction(0)) + Fraction(1, len(library))
    return out


def draws_after_shuffle(cards: Sequence[str], n: int) -> dict[tuple[str, ...], Fraction]:
    """Every distinct sequence of the first ``n`` cards (all, if fewer) of ``cards`` put in a uniformly
    random order, with its probability (a shuffle, then ``n`` draws)."""
    counts: Counter[tuple[str, ...]] = Counter()
    total = 0
    for perm in permutations(cards):
        counts[perm[:n]] += 1
        total += 1
    return {seq: Fraction(k, total) for seq, k in counts.items()}
