"""Brute-force references for players' choices among their own cards and permanents, independent
of the engine (plain enumeration over indices, kept once per multiset of names: objects of one name
and one status on a test board are interchangeable):

* :func:`choose_results` — a player chooses ``n`` of their objects (all of them when they have
  fewer): a discard of their choice (CR 701.9), a sacrifice (CR 701.21a), a permanent returned to
  the hand; a result is the sorted names chosen;
* :func:`each_player_results` — several players choose independently: the product of their results;
* :func:`choose_one_results` — the controller chooses one card of a quality from a revealed hand;
* :func:`proliferate_results` — CR 701.34a: any subset of the permanents that have counters, each
  chosen one getting one more counter of each kind it has; a result is the sorted
  ``(name, counters)`` of the whole board after."""
from __future__ import annotations

from itertools import combinations, product
from typing import Callable, Mapping, Sequence


def choose_results(objects: Sequence[str], n: int) -> set[tuple[str, ...]]:
    k = min(n, len(objects))
    return {tuple(sorted(objects[i] for i in combo)) for combo in combinations(range(len(objects)), k)}


def each_player_results(objects_by_player: Sequence[Sequence[str]], n: int) -> set[tuple[tuple[str, ...], ...]]:
    return set(product(*(choose_results(objs, n) for objs in objects_by_player)))


Board = Sequence[tuple[str, Mapping[str, int]]]


def proliferate_results(board: Board) -> set[tuple[tuple[str, tuple[tuple[str, int], ...]], ...]]:
    out = set()
    with_counters = [i for i, (_name, counters) in enumerate(board) if any(counters.values())]
    for k in range(len(with_counters) + 1):
        for chosen in combinations(with_counters, k):
            after = []
            for i, (name, counters) in enumerate(board):
                extra = 1 if i in chosen else 0
                after.append((name, tuple(sorted((kind, m + extra) for kind, m in counters.items() if m))))
            out.add(tuple(sorted(after)))
    return out


def choose_one_results(hand: Sequence[str], qualifies: Callable[[str], bool]) -> set[tuple[str, ...]]:
    """"You choose a <quality> card from it. That player discards that card." (CR 701.9a): one of the
    qualifying cards of the revealed hand; nothing when none qualifies."""
    found = {(name,) for name in hand if qualifies(name)}
    return found or {()}
