"""Parts of cards on the battlefield that bear on mana but are not modeled.

The mana queries (``could_produce``, ``available_mana``, ``pay`` and, through
pay, ``actions``) never silently ignore such a part:

* an unsupported part whose line is a **mana ability** (CR 605.1a: "[cost]:
  Add …", or a "tapped for mana" trigger, CR 605.1b) — what it would add is
  unknown, so every answer that depends on mana could be wrong: the query
  answers ``unsupported`` (:func:`blocking`);
* an unread **rider** of a modeled mana ability: an unread spending
  restriction ("Spend this mana only …", "This mana can't be spent …") could
  make mana unusable, so it blocks too; any other rider ("When you spend this
  mana to cast …, scry 2", "and that spell can't be countered") changes
  nothing the mana queries answer and is listed in the result's
  ``unsupported`` notes (:func:`notes`).

Which permanents matter: all of them. "Could produce" chains reach any
permanent (CR 106.7), and one answer covers the whole battlefield, so the
check is not narrowed to the paying player's permanents.
"""
from __future__ import annotations

import re

from .characteristics import View
from .ir import Unsupported

_ADD = re.compile(r":\s*Add\b|\btapped for mana\b|\btaps? [^,.]* for mana\b", re.IGNORECASE)
_SPEND = re.compile(r"\bspend this mana\b|\bmana can't be spent\b|\bthis mana\b[^.]*\bspent\b", re.IGNORECASE)


def _parts(view: View) -> list[tuple[str, Unsupported]]:
    out = []
    for o in view.permanents:
        for a in view.chars(o.id).abilities:
            if isinstance(a, Unsupported):
                out.append((o.id, a))
    return out


def _is_rider(u: Unsupported) -> bool:
    return u.kind == "rider" or u.what.startswith("rider: ")


def blocking(view: View) -> str | None:
    """Why the mana queries can't answer exactly on this battlefield, or None."""
    for oid, u in _parts(view):
        if _is_rider(u):
            if _SPEND.search(u.what):
                return f"'{oid}': the spending rule of its mana is not modeled ({u.what.removeprefix('rider: ')})"
        elif _ADD.search(u.text or u.what):
            return f"'{oid}': its mana ability is not modeled ({(u.text or u.what).strip()})"
    return None


def notes(view: View) -> list[str]:
    """Unread riders of modeled mana abilities that don't change the answers (for the result's notes)."""
    return sorted({f"{oid}: {u.what.removeprefix('rider: ')}" for oid, u in _parts(view)
                   if _is_rider(u) and not _SPEND.search(u.what)})
