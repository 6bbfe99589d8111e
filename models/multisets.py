"""Choosing ``n`` items from classes of interchangeable items (principle 2: counts per class).

Used by the delve count (:mod:`models.payment_delve`: which graveyard cards are exiled) and by the
card choices of casting options (:mod:`solver.payment.casting`: cards discarded, exiled or returned).
Plain Python, no solver: importing it costs nothing.
"""
from __future__ import annotations

from typing import Iterator


def multisets(sizes: list[int], n: int) -> Iterator[tuple[int, ...]]:
    """Every way to take ``n`` items from classes of these sizes (how many of each), in
    lexicographic order (first classes first, most first)."""
    if not sizes:
        if n == 0:
            yield ()
        return
    for k in range(min(sizes[0], n), -1, -1):
        for rest in multisets(sizes[1:], n - k):
            yield (k,) + rest


def multiset_count(sizes: list[int], n: int) -> int:
    """The number of :func:`multisets` (a product of polynomials, no listing)."""
    ways = [1] + [0] * n
    for s in sizes:
        nxt = [0] * (n + 1)
        for have, w in enumerate(ways):
            if w:
                for k in range(0, min(s, n - have) + 1):
                    nxt[have + k] += w
        ways = nxt
    return ways[n]
