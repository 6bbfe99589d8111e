"""Unread static abilities that provably change nothing on this board (contract §2.0):
the soundness analysis (:mod:`solver.soundness`) treats such a part as not
functioning now, so it blocks no answer; on any other board it blocks as usual.

Two wordings, both of statics of permanents on the battlefield (CR 604, 611.3):

* "Creatures you control with +1/+1 counters on them have all activated abilities
  of all creature cards exiled with <this>." (layer 6, CR 613.1f): nothing is
  granted while the controller controls no creature with a +1/+1 counter, or no
  creature card is in exile at all (the situation doesn't record which cards
  were exiled with what, so any creature card in exile keeps it in force);
* "You may spend mana as though it were mana of any color to activate abilities
  of creatures you control." (CR 609.4b): it changes no payment while no
  creature the controller controls has an activated ability whose cost has a
  colored, hybrid or Phyrexian mana symbol (an unread activated ability of a
  creature counts as one), and the grant above is inert too.

Rules layer: reads the rules view only; no card names, only wordings.
"""
from __future__ import annotations

import re

from . import ir
from .characteristics import View
from .state import GameObject

__all__ = ["inert_on_board"]

_WORDS = re.compile(r"[^a-z0-9+/ ]")
_GRANT = ("creatures you control with +1/+1 counters on them have all activated abilities of all creature cards "
          "exiled with ")
_SPEND = ("you may spend mana as though it were mana of any color to activate abilities of creatures you control")


def _norm(text: str) -> str:
    return " ".join(_WORDS.sub(" ", text.lower().replace("’", "'").replace("'", "")).split())


def _grant_inert(view: View, o: GameObject) -> bool:
    countered = any(view.chars(q.id).is_creature and q.counter("+1/+1") > 0 for q in view.permanents_of(o.controller))
    exiled = any(q.card is not None and "Creature" in q.card.data.types for q in view.state.zone("exile"))
    return not (countered and exiled)


def _colored(cost: ir.Cost | None) -> bool:
    if cost is None:
        return True
    return any(s.kind not in ("generic", "X") or s.colors for s in cost.mana.symbols)


def _spend_inert(view: View, o: GameObject) -> bool:
    for q in view.permanents_of(o.controller):
        if not view.chars(q.id).is_creature:
            continue
        for a in view.chars(q.id).activated:
            if isinstance(a, ir.Unsupported) or _colored(getattr(a, "cost", None)):
                return False
    return all(_grant_inert(view, s) for s in view.permanents_of(o.controller)
               if any(_norm(getattr(a, "text", "") or "").startswith(_norm(_GRANT))
                      for a in (s.card.unsupported if s.card is not None else ())))


def inert_on_board(view: View, o: GameObject, text: str) -> bool:
    """Is the unread static ``text`` of permanent ``o`` one of this module's wordings, and
    does it change nothing on this board?"""
    if o.zone != "battlefield":
        return False
    t = _norm(text)
    if t.startswith(_norm(_GRANT)):
        return _grant_inert(view, o)
    if t == _norm(_SPEND):
        return _spend_inert(view, o)
    return False
