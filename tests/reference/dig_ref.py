"""Brute-force reference for "look at the top N cards of your library and choose among them"
(CR 401.5, 608.2c), written independently of the engine (solver/engine/dig.py and
resolution._do_dig): walk every order of a library in random order (each equally likely, CR
701.24a), every subset of the cards seen that may be taken and every permutation of the cards
put on top or on the bottom, and keep each distinct result once.

A library is a list of card names, top first; cards with the same name are interchangeable, so a
result is identified by names only: ``(hand, library, graveyard, battlefield, exile, life)`` — the
names put into the hand and onto the battlefield sorted (one way to take a set of cards), the
library top first, the graveyard's and exile's new names in the order they were put there
(library order), the life lost.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from itertools import permutations, product
from math import factorial
from typing import Callable, Sequence

Result = tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...], tuple[str, ...], tuple[str, ...], int]


@dataclass(frozen=True)
class Look:
    """The instruction: look at ``n``; take ``take`` (None: any number) — exactly as many as there are
    up to it when ``exact`` — of the cards ``eligible`` says, their mana values (``mv``) summing to at
    most ``total_max``; put them ``to`` hand|battlefield|top|bottom|graveyard, the rest ``rest``
    bottom|bottom_random|graveyard|exile|stay (left where they are); ``lose_life``: lose life equal to
    the mana value of each card taken."""

    n: int
    take: int | None
    exact: bool
    to: str
    rest: str
    eligible: Callable[[str], bool] = lambda name: True
    mv: Callable[[str], int] = lambda name: 0
    total_max: int | None = None
    lose_life: bool = False


def _allowed(look: Look, seen: Sequence[str], mask: Sequence[bool]) -> bool:
    chosen = [c for c, m in zip(seen, mask) if m]
    if not all(look.eligible(c) for c in chosen):
        return False
    can = sum(1 for c in seen if look.eligible(c))
    most = can if look.take is None else min(look.take, can)
    if len(chosen) > most or (look.exact and len(chosen) != most):
        return False
    return look.total_max is None or sum(look.mv(c) for c in chosen) <= look.total_max


def known_results(library: Sequence[str], look: Look) -> dict[Result, set[tuple[str, ...]]]:
    """Every distinct result of the instruction on a library in the known order ``library``, each
    with the sorted names of the taken cards that reach it."""
    seen, unseen = list(library[:look.n]), list(library[look.n:])
    out: dict[Result, set[tuple[str, ...]]] = {}
    for mask in product((False, True), repeat=len(seen)):
        if not _allowed(look, seen, mask):
            continue
        taken = [c for c, m in zip(seen, mask) if m]
        rest = [c for c, m in zip(seen, mask) if not m]
        tops = permutations(taken) if look.to in ("top", "bottom") else [tuple(taken)]
        for top in tops:
            bottoms = list(permutations(rest)) if look.rest in ("bottom", "bottom_random") else [tuple(rest)]
            for bottom in bottoms:
                lib = (tuple(top) if look.to == "top" else ()) + (tuple(rest) if look.rest == "stay" else ()) \
                    + tuple(unseen) + (tuple(bottom) if look.rest in ("bottom", "bottom_random") else ()) \
                    + (tuple(top) if look.to == "bottom" else ())
                gy = (tuple(rest) if look.rest == "graveyard" else ()) + (tuple(taken) if look.to == "graveyard" else ())
                hand = tuple(sorted(taken)) if look.to == "hand" else ()
                bf = tuple(sorted(taken)) if look.to == "battlefield" else ()
                ex = tuple(rest) if look.rest == "exile" else ()
                life = sum(look.mv(c) for c in taken) if look.lose_life else 0
                out.setdefault((hand, lib, gy, bf, ex, life), set()).add(tuple(sorted(taken)))
    return out


def shuffled_results(library: Sequence[str], look: Look) -> set[Result]:
    """Every distinct result on a library in random order: over every order of its cards. The cards
    never seen, when none of the seen ones goes back into the library, stay a library in random order:
    their multiset (sorted) is the result, not one order of it."""
    out: set[Result] = set()
    unseen_random = len(library) > look.n and look.to in ("hand", "battlefield", "graveyard") \
        and look.rest in ("graveyard", "exile")
    for order in set(permutations(library)):
        for r in known_results(order, look):
            out.add((r[0], tuple(sorted(r[1])), *r[2:]) if unseen_random else r)   # type: ignore[arg-type]
    return out


def seen_probability(library: Sequence[str], n: int, names: Sequence[str], ordered: bool) -> Fraction:
    """The chance that the top ``n`` cards of ``library`` in random order are ``names`` (top first
    when ``ordered``, else as a multiset)."""
    hits = 0
    for order in permutations(library):
        top = order[:n]
        hits += (list(top) == list(names)) if ordered else (Counter(top) == Counter(names))
    return Fraction(hits, factorial(len(library)))


def random_order_probability(rest: Sequence[str]) -> Fraction:
    """The chance of one order of names of ``rest`` put on the bottom in a random order."""
    orders = set(permutations(rest))
    return Fraction(1, len(orders))


def pile_results(library: Sequence[str], graveyard: Sequence[str], n: int) -> set[tuple[tuple[str, ...], tuple[str, ...]]]:
    """Every distinct (library, exile) after "Search your library and graveyard for ``n`` cards and
    exile the rest. Put the chosen cards on top of your library in any order.": every ordered choice
    of ``n`` of the cards (all when fewer); the rest exiled library first, in order."""
    pool = list(library) + list(graveyard)
    k = min(n, len(pool))
    out: set[tuple[tuple[str, ...], tuple[str, ...]]] = set()
    for chosen in permutations(range(len(pool)), k):
        out.add((tuple(pool[i] for i in chosen), tuple(pool[i] for i in range(len(pool)) if i not in chosen)))
    return out
