"""Unread static abilities that provably change nothing on this board (contract §2.0):
the soundness analysis (:mod:`solver.rules.soundness.check`) treats such a part as not
functioning now, so it blocks no answer; on any other board it blocks as usual.

Wordings of statics of permanents on the battlefield (CR 604, 611.3):

* "As long as <this> isn't on the battlefield, …" (Grist, the Hunger Tide's
  "it's a 1/1 Insect creature in addition to its other types", CR 611.3b): on
  the battlefield its condition is false, so it does nothing there;

* "Creatures you control with +1/+1 counters on them have all activated abilities
  of all creature cards exiled with <this>." (layer 6, CR 613.1f): nothing is
  granted while the controller controls no creature with a +1/+1 counter, or no
  creature card is in exile at all (the situation doesn't record which cards
  were exiled with what, so any creature card in exile keeps it in force).

Rules layer: reads the rules view only; no card names, only wordings.
"""
from __future__ import annotations

import re

from ..characteristics import View
from ...core.state import GameObject

__all__ = ["inert_on_board"]

_WORDS = re.compile(r"[^a-z0-9+/ ]")
_GRANT = ("creatures you control with +1/+1 counters on them have all activated abilities of all creature cards "
          "exiled with ")


def _norm(text: str) -> str:
    return " ".join(_WORDS.sub(" ", text.lower().replace("’", "'").replace("'", "")).split())


def _grant_inert(view: View, o: GameObject) -> bool:
    countered = any(view.chars(q.id).is_creature and q.counter("+1/+1") > 0 for q in view.permanents_of(o.controller))
    exiled = any(q.card is not None and "Creature" in q.card.data.types for q in view.state.zone("exile"))
    return not (countered and exiled)


def _off_battlefield_only(view: View, o: GameObject, t: str) -> bool:
    """"as long as <this object's name, or its short name> isn't on the battlefield ,"""
    name = view.chars(o.id).name
    for n in {name, name.split(",")[0]}:
        if t.startswith("as long as " + _norm(n) + " isnt on the battlefield "):
            return True
    return False


def inert_on_board(view: View, o: GameObject, text: str) -> bool:
    """Is the unread static ``text`` of permanent ``o`` one of this module's wordings, and
    does it change nothing on this board?"""
    if o.zone != "battlefield":
        return False
    t = _norm(text)
    if t.startswith(_norm(_GRANT)):
        return _grant_inert(view, o)
    if _off_battlefield_only(view, o, t):
        return True
    return False
