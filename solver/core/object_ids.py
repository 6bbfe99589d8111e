"""Automatic ids of objects (contract §1, "Objects"): the base id of a card name and the first free
numbered id. The situation loader (:mod:`solver.io.load`) numbers the objects of a file with them, and
the rules layer names the objects it creates later (tokens, copies) the same way.

>>> object_id_base("Urborg, Tomb of Yawgmoth")
'urborg-tomb-of-yawgmoth'
>>> next_free_id("forest", {"forest", "forest-2"})
'forest-3'
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Container

__all__ = ["next_free_id", "object_id_base"]

_APOSTROPHES = re.compile(r"['’]")


@lru_cache(maxsize=4096)
def object_id_base(name: str) -> str:
    """The automatic id of a card name (contract §1): lower-cased, apostrophes
    dropped, every other run of characters that are not letters or digits
    turned into ``-``, no ``-`` at either end.

    >>> object_id_base("Toralf's Disciple"), object_id_base("Coalition Honor Guard")
    ('toralfs-disciple', 'coalition-honor-guard')
    """
    s = _APOSTROPHES.sub("", name.lower())
    s = "".join(c if c.isalnum() else "-" for c in s)
    s = re.sub(r"-+", "-", s).strip("-")
    return s or "object"


def _numbered(base: str, n: int) -> str:
    """The n-th id of a base name: ``base``, ``base-2``, ``base-3``, …"""
    return base if n == 1 else f"{base}-{n}"


def _free_number(base: str, taken: Container[str], start: int = 1) -> int:
    n = start
    while _numbered(base, n) in taken:
        n += 1
    return n


def next_free_id(base: str, taken: Container[str], start: int = 1) -> str:
    """The first of ``base``, ``base-2``, ``base-3``, … (from the ``start``-th) not in ``taken``.

    Used for automatic ids and for new objects (tokens, copies) created later.
    """
    return _numbered(base, _free_number(base, taken, start))
