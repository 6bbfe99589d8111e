"""Whether the reader is reading the *structure* of an ability that stays unread
(:mod:`.skeleton`) — a context flag, below every reading module.

Inside :func:`skeleton_reading`, target phrases may be read into forms the engine's
target model does not evaluate — counts known only on casting ("X target …", "any
number of target …", CR 601.2b–c), a controller or graveyard named elsewhere in the
ability ("… defending player controls", "from that player's graveyard"), a further
description kept as printed (``Filter.condition``). Such forms appear only in the
:class:`~solver.core.ir.Skeleton` of an unsupported part, never in an ability the engine
models: outside the flag, the same words leave the line unread.
"""
from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from typing import Iterator

__all__ = ["skeleton_reading", "reading_skeleton"]

_SKELETON: ContextVar[bool] = ContextVar("skeleton", default=False)


@contextmanager
def skeleton_reading() -> Iterator[None]:
    """Within: target phrases may take the structure-only forms (module docstring)."""
    token = _SKELETON.set(True)
    try:
        yield
    finally:
        _SKELETON.reset(token)


def reading_skeleton() -> bool:
    """Is a structure being read (inside :func:`skeleton_reading`)?"""
    return _SKELETON.get()
