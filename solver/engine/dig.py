"""The combinatorics of looking at the top N cards of a library and choosing among them
(:class:`~solver.core.ir.Dig`; CR 401.5, 608.2c), on classes of interchangeable cards (small
integers, in order of first appearance): what is seen, what may be taken, and the orders of the
cards put on the bottom.

* What is seen: of a library in a known order, its top ``n`` cards; of a library in random order
  (CR 701.24a), a random event — one outcome per distinct sequence of classes on top, with its
  probability (drawing without replacement), as a draw from such a library is
  (:func:`solver.engine.resolution._draw`), or, where their order can't matter (none goes to a
  graveyard), per distinct multiset (:func:`seen_multisets`).
* What may be taken: every distinct sub-multiset of the eligible cards seen of the size the
  instruction allows (interchangeable cards counted once, CR 608.2c: the player's choice).
* The rest on the bottom: "in any order" is the player's choice, one outcome per distinct order
  (CR 401.4); "in a random order" a random event, each distinct order equally likely.

The resolution handler (:func:`solver.engine.resolution._do_dig`) moves the cards."""
from __future__ import annotations

import itertools
import math
from collections import Counter
from fractions import Fraction
from typing import Callable, Sequence

from .transition import ResolutionUnsupported

__all__ = ["multiset_orders", "orders_count", "OUTCOME_LIMIT", "seen_sequences", "seen_multisets", "takes", "distinct_orders", "check_limit"]

#: The most branches one look at the top of a library may make (seen × taken × orders); more is
#: refused (unsupported) rather than enumerated.
OUTCOME_LIMIT = 4096


def seen_sequences(keys: Sequence[int], n: int, random_order: bool) -> list[tuple[tuple[int, ...], Fraction]]:
    """The top ``n`` cards of a library whose cards are of the classes ``keys`` (top first): the
    one sequence on top with probability 1, or, for a library in random order, every distinct
    sequence of classes with its probability (CR 701.24a: each order of the library equally
    likely)."""
    n = min(n, len(keys))
    if not random_order:
        return [(tuple(keys[:n]), Fraction(1))]
    out: list[tuple[tuple[int, ...], Fraction]] = []

    def walk(prefix: list[int], left: Counter[int], total: int, p: Fraction) -> None:
        if len(prefix) == n:
            out.append((tuple(prefix), p))
            return
        for k in sorted(left):
            if left[k]:
                left[k] -= 1
                prefix.append(k)
                walk(prefix, left, total - 1, p * Fraction(left[k] + 1, total))
                prefix.pop()
                left[k] += 1
            check_limit(len(out), "distinct sequences of cards on top of a library in random order")

    walk([], Counter(keys), len(keys), Fraction(1))
    return out


def seen_multisets(keys: Sequence[int], n: int) -> list[tuple[tuple[int, ...], Fraction]]:
    """The top ``n`` cards of a library in random order whose cards are of the classes ``keys``,
    where their order does not matter (none of them goes to a graveyard): every distinct multiset
    of classes (a sorted tuple) with its probability, C(c_1, m_1)···C(c_j, m_j) / C(L, n)."""
    counts = Counter(keys)
    n = min(n, len(keys))
    classes = sorted(counts)
    total = math.comb(len(keys), n)
    out: list[tuple[tuple[int, ...], Fraction]] = []
    for ms in itertools.product(*(range(min(counts[k], n) + 1) for k in classes)):
        if sum(ms) != n:
            continue
        ways = math.prod(math.comb(counts[k], m) for k, m in zip(classes, ms))
        out.append((tuple(k for k, m in zip(classes, ms) for _ in range(m)), Fraction(ways, total)))
        check_limit(len(out), "distinct sets of cards on top of a library in random order")
    return out


def takes(seen: Sequence[int], eligible: Callable[[int], bool], take: int | None, exact: bool,
          mana_value: Callable[[int], int] | None = None, total_max: int | None = None,
          rest_ordered: bool = False) -> list[tuple[int, ...]]:
    """Every distinct choice of cards from ``seen`` whose class is ``eligible``, as the positions
    in ``seen`` taken: of ``min(take, eligible cards)`` cards when ``exact`` ("put two of them"),
    else of up to ``take`` (``None``: any number); with ``total_max``, the sum of their
    ``mana_value`` at most that (CR 202.3). Interchangeable cards are one choice: two choices are
    one when they take the same classes — and, when ``rest_ordered`` (the rest keep their order,
    into a graveyard), leave the same sequence of classes."""
    size = sum(1 for k in seen if eligible(k))
    most = size if take is None else min(take, size)
    found: dict[tuple[tuple[int, ...], tuple[int, ...]], tuple[int, ...]] = {}
    for r in ([most] if exact else range(most + 1)):
        for pos in itertools.combinations(range(len(seen)), r):
            chosen = tuple(sorted(seen[i] for i in pos))
            if not all(eligible(k) for k in chosen):
                continue
            if total_max is not None and mana_value is not None and sum(mana_value(k) for k in chosen) > total_max:
                continue
            rest = tuple(seen[i] for i in range(len(seen)) if i not in pos) if rest_ordered else ()
            found.setdefault((chosen, rest), pos)
    check_limit(len(found), "choices among the cards looked at")
    return [found[key] for key in sorted(found, key=lambda t: (len(t[0]), t))]


def distinct_orders(keys: Sequence[int]) -> list[tuple[int, ...]]:
    """Every distinct order of a multiset of classes (CR 401.4: interchangeable cards in any order
    are one order), in lexicographic order; under a uniformly random order each is equally likely
    (each is reached by the same number of permutations)."""
    check_limit(_orders_count(keys), "distinct orders of the cards put on the bottom")
    return multiset_orders(keys)


def multiset_orders(keys: Sequence[int]) -> list[tuple[int, ...]]:
    """Every distinct order of a multiset of class indices (permutations of equal elements are one
    order), in lexicographic order, without a limit (callers bound the count)."""
    left = Counter(keys)
    out: list[tuple[int, ...]] = []

    def walk(prefix: list[int]) -> None:
        if len(prefix) == len(keys):
            out.append(tuple(prefix))
            return
        for k in sorted(left):
            if left[k]:
                left[k] -= 1
                prefix.append(k)
                walk(prefix)
                prefix.pop()
                left[k] += 1

    walk([])
    return out


def orders_count(keys: Sequence[int]) -> int:
    """How many distinct orders a multiset of classes has (the multinomial coefficient), without
    enumerating them."""
    return _orders_count(keys)


def _orders_count(keys: Sequence[int]) -> int:
    n = 1
    for i in range(2, len(keys) + 1):
        n *= i
    for m in Counter(keys).values():
        for i in range(2, m + 1):
            n //= i
    return n


def check_limit(count: int, what: str) -> None:
    """Refuse (unsupported) more than :data:`OUTCOME_LIMIT` branches of one look at a library."""
    if count > OUTCOME_LIMIT:
        raise ResolutionUnsupported(f"more than {OUTCOME_LIMIT} {what}: not enumerated")
