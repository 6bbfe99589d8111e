"""Messages and bounds shared by the situation loader's passes (:mod:`solver.io.load`: read, shape,
meaning) and the pydantic models of the shape (:mod:`solver.io.shape`, loaded only when a
document needs them): kept apart so that loading a situation imports no pydantic."""
from __future__ import annotations

import difflib
from typing import Any, Iterable

MAX_INT = 10**9  # bound on every number in a situation (keeps the CP-SAT models in range)
DEFAULT_LIFE = 20

# Tags of the discriminated unions below.  They appear in pydantic's error
# locations and are removed from the paths users see; "§" keeps them apart
# from any key a situation could use.
_TAG_OF_TYPE: tuple[tuple[type, str], ...] = (
    (bool, "§bool"), (int, "§int"), (str, "§str"), (dict, "§map"), (list, "§list"))


_UNION_TAGS = frozenset(tag for _, tag in _TAG_OF_TYPE)


def _tag_of(value: Any) -> str | None:
    for t, tag in _TAG_OF_TYPE:  # bool before int: True is an int in Python
        if isinstance(value, t):
            return tag
    return None


def _closest(word: str, candidates: Iterable[str], cutoff: float = 0.6) -> str | None:
    """The candidate most similar to ``word`` (ties: the first listed), or None."""
    best, best_score = None, cutoff
    for c in candidates:
        m = difflib.SequenceMatcher(None, word, c)
        if m.real_quick_ratio() >= best_score and m.quick_ratio() >= best_score:
            score = m.ratio()
            if score > best_score or (best is None and score >= best_score):
                best, best_score = c, score
    return best


def _did_you_mean(word: str, candidates: Iterable[str], cutoff: float = 0.6) -> str:
    m = _closest(word, candidates, cutoff)
    return f" (did you mean '{m}'?)" if m is not None else ""


def _unknown_key_message(key: Any, allowed: Iterable[str]) -> str:
    hint = _did_you_mean(key, allowed) if isinstance(key, str) else ""
    return f"unknown key {_show(key)}{hint}"


def _show(v: Any) -> str:
    """A value as a user would write it in YAML, short."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if v is None:
        return "null"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, str):
        s = v if len(v) <= 60 else v[:57] + "..."
        return "'" + " ".join(s.split("\n")) + "'"
    if isinstance(v, dict):
        return "a mapping"
    if isinstance(v, (list, tuple)):
        return "a list"
    return str(v)
