"""Reading statics that forbid activating abilities (CR 602.5): "Activated
abilities of <permanents> can't be activated [unless they're mana abilities]."

* "Activated abilities of artifacts can't be activated." (Collector Ouphe, Null
  Rod, Stony Silence), "… of artifacts your opponents control …" (Karn, the
  Great Creator), "… of artifacts and creatures … unless they're mana
  abilities." (Damping Matrix), "… of creatures …" (Cursed Totem);
* "Activated abilities of sources with the chosen name can't be activated
  [unless they're mana abilities]." (Phyrexian Revoker, Pithing Needle,
  Sorcerous Spyglass): the name chosen as the source entered, its ``chosen``
  name (the entering choice is read by the grammar's "choose a card name").

Each becomes ``Static("cant_activate", …)`` (one per kind of permanent), applied
by :mod:`solver.activation_rules`. Anything else stays unread.
"""
from __future__ import annotations

from typing import Sequence

from ..ir import Static
from .tokens import Token


def _g():
    from . import grammar
    return grammar


_HEAD = ("activated", "abilities", "of")
_TAIL = ("can't", "be", "activated")
_UNLESS = ("unless", "they're", "mana", "abilities")


def _subjects(c) -> list[Static]:
    """"sources with the chosen name" or "<permanents> [, <permanents>] [and|or <permanents>]"."""
    g = _g()
    if c.take("sources", "with", "the", "chosen", "name"):
        return [Static("cant_activate", chosen_name=True)]
    descs = [g.desc(c)]
    while c.take(",", "and") or c.take(",", "or") or c.take("and") or c.take("or") or c.take(","):
        descs.append(g.desc(c))
    out = []
    for i, d in enumerate(descs):
        if not d.plural or d.types_joined_by_or or (d.who != "any" and len(descs) > 1):
            raise g.NoMatch("plural permanents, one kind each (whose: only with one kind)")
        out.append(Static("cant_activate", g.to_selector(d)))
    return out


def line_activation_ban(toks: Sequence[Token], ctx, raw: str) -> list:
    """The whole line, one sentence: the statics it makes (with ``text``), or NoMatch."""
    g = _g()
    sents = g.sentences(toks)
    if len(sents) != 1:
        raise g.NoMatch("one sentence")
    c = g.Cursor(sents[0])
    c.need(*_HEAD)
    parts = _subjects(c)
    c.need(*_TAIL)
    except_mana = c.take(*_UNLESS)
    c.end()
    return [Static("cant_activate", p.affected, chosen_name=p.chosen_name, except_mana=except_mana, text=raw)
            for p in parts]
