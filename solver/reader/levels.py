"""Lines that hold only at a level: a leveler's striations (CR 711) and a Class's levels (CR 716).

:func:`leveled_lines` turns them into unread parts whose ``what`` names the level, keeping their
structure (:mod:`.skeleton`), so that a keyword or a static printed below a level is never read as
the card's own ability at every level.
"""
from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from ..core.ir import Skeleton, Unsupported, ability_kind_of_line
from .cursor import NoMatch
from .line_reading import LineReading
from .skeleton import line_skeleton

_STRIATION = re.compile(r"^LEVEL (\d+)(?:-\d+|\+)$")
_CLASS_LEVEL = re.compile(r"^[^:]*\}: Level (\d+)\.?$")
_PT = re.compile(r"^[\d*+-]+/[\d*+-]+$")

#: ``Unsupported.what`` prefixes of a line that holds only at a level: its minimum level follows.
STRIATION, CLASS_LEVEL = "level striation ", "class level "


def leveled_lines(out: list[LineReading], ctx: Any) -> list[LineReading]:
    """The lines of a card that hold only at some level, unread: a leveler's striations (CR 711.2a-b:
    "LEVEL N-M" and the power/toughness and abilities after it, only while the permanent has N or more
    level counters) and a Class's abilities after its "[cost]: Level N" ability (CR 716.2a-d: only while
    it is level N or greater, a level the situation does not record). Each keeps its printed line as its
    text, its kind and its structure; ``what`` names the level (``level striation 2: …``,
    ``class level 2: …``)."""
    level, prefix, res = None, "", []
    for r in out:
        clean = r.clean.strip()
        m, c = _STRIATION.match(clean), _CLASS_LEVEL.match(clean)
        if m:
            level, prefix = int(m.group(1)), STRIATION
        if c:
            level, prefix = int(c.group(1)), CLASS_LEVEL
            res.append(r)            # the level ability itself (CR 716.2a) is the Class's at every level
            continue
        if level is None:
            res.append(r)
            continue
        u = Unsupported(f"{prefix}{level}: {clean}", r.raw, ability_kind_of_line(r.raw),
                        structure=_structure(r, ctx, bool(m) or bool(_PT.match(clean))))
        res.append(replace(r, template="structure only" if u.structure else None, parts=(u,), unread=0))
    return res


def _structure(r: LineReading, ctx: Any, level_box: bool) -> Skeleton | None:
    """The structure of a line in a level: a level symbol or a power/toughness box is a characteristic of
    the striation (CR 711.2a); another line's is its own (:func:`.skeleton.line_skeleton`)."""
    if level_box:
        return Skeleton(kind="static")
    known = next((p.structure for p in r.parts if isinstance(p, Unsupported) and p.structure), None)
    if known is not None:
        return known
    try:
        return line_skeleton(r.tokens, ctx)
    except NoMatch:
        return None
