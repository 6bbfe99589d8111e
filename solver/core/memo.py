"""Caches, in one place: what is derived once from an immutable value.

Every cache of the project is one of these two kinds, owned by the object it describes:

* :class:`Memo` — a per-object memo, held by the immutable object it describes:
  :class:`~solver.core.state.GameState` (its object index, its unread parts, the events a
  resolution can cause, the steps begun), :class:`~solver.core.card.Card` (its unread parts'
  classification per zone) and the rules view :class:`~solver.rules.characteristics.View`
  (interchangeable classes, the base polyhedra of payments, producible mana, one-mana
  sources). It lives and dies with its owner, so it can never be stale: a changed state is a
  new state with an empty memo.
* :class:`BoundedCache` — a small cache keyed by a frozen value shared across owners (the
  payment counting DP of one payment problem: agents ask several questions of one situation,
  and identical costs share it). It forgets its oldest entry past its bound.

The other caches are ``functools.lru_cache`` on pure functions of their arguments (the card
database and the reader, :mod:`solver.cards`, :mod:`solver.reader`), which are values too.
"""
from __future__ import annotations

from typing import Callable, Generic, Hashable, TypeVar

_T = TypeVar("_T")
_K = TypeVar("_K", bound=Hashable)


class Memo:
    """``get(key, compute)``: ``compute()`` once per key, for the lifetime of the owner."""

    __slots__ = ("values",)

    def __init__(self) -> None:
        self.values: dict[Hashable, object] = {}

    def get(self, key: Hashable, compute: Callable[[], _T]) -> _T:
        values = self.values
        if key in values:
            return values[key]  # type: ignore[return-value]
        v = values[key] = compute()
        return v

    def __repr__(self) -> str:  # never part of an owner's repr or equality
        return "Memo()"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Memo)

    def __hash__(self) -> int:
        return 0

    def __reduce__(self) -> tuple[type[Memo], tuple[()]]:
        return (Memo, ())  # a pickled owner starts with an empty memo


class BoundedCache(Generic[_K, _T]):
    """A value-keyed cache of at most ``size`` entries, forgetting the oldest first."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._values: dict[_K, _T] = {}

    def get(self, key: _K, compute: Callable[[], _T]) -> _T:
        values = self._values
        if key in values:
            return values[key]
        v = compute()
        if len(values) >= self.size:
            values.pop(next(iter(values)))
        values[key] = v
        return v
