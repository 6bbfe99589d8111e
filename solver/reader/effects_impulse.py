"""Exiling the top cards of a library with a permission to play them (CR 611.2a, 601.2a, 305.1):

    Exile the top <N> card(s) of your library. <Duration>, you may play|cast <them>.
    Exile the top <N> card(s) of your library. You may play|cast <them> <duration>.

<Duration>: "this turn", "until end of turn" (CR 514.2) or "until the end of your next turn" (CR 611.2);
<them>: "that card", "those cards", "them", "it", "the exiled card(s)", "cards exiled this way". Read as
one :class:`~solver.core.ir.ExileTopPlayable`. Other wordings of the permission — "without paying its mana
cost", "one of those cards", "until your next end step", "spells from among them", conditions ("if it's
red") — are not this template and stay unread."""
from __future__ import annotations

from typing import Sequence

from ..core.ir import ExileTopPlayable
from .cursor import Cursor, NoMatch
from .scope import Scope, amount
from .tokens import Token

__all__ = ["exile_top_playable"]


def _exiled_top(c: Cursor, s: Scope) -> int | str:
    """"exile the top card|N cards of your library" (CR 406.3): N."""
    c.need("exile", "the", "top")
    if c.take("card"):
        n: int | str = 1
    else:
        n = amount(c, s)
        c.need("cards")
    c.need("of", "your", "library")
    c.end()
    return n


def _duration(c: Cursor) -> str | None:
    """"this turn" / "until end of turn" → ``end_of_turn``; "until the end of your next turn" →
    ``end_of_next_turn``; None when no duration is here."""
    if c.take("this", "turn") or c.take("until", "end", "of", "turn"):
        return "end_of_turn"
    if c.take("until", "the", "end", "of", "your", "next", "turn"):
        return "end_of_next_turn"
    return None


def _those_cards(c: Cursor) -> None:
    """The exiled cards named again: "that card", "those cards", "them", "it", "the exiled card(s)",
    "cards exiled this way"."""
    if c.take("that", "card") or c.take("those", "cards") or c.take("them") or c.take("it") \
            or c.take("the", "exiled", ("card", "cards")) or c.take("cards", "exiled", "this", "way"):
        return
    raise NoMatch("the exiled cards")


def _permission(c: Cursor) -> tuple[str, bool]:
    """"[<duration>,] you may play|cast <them> [<duration>]": (until, spells only)."""
    before = _duration(c)
    if before is not None:
        c.need(",")
    c.need("you", "may")
    verb = c.next().low if c.at(("play", "cast")) else None
    if verb is None:
        raise NoMatch("play or cast")
    _those_cards(c)
    after = _duration(c)
    c.end()
    if (before is None) == (after is None):
        raise NoMatch("one duration")
    return before or after or "", verb == "cast"


def exile_top_playable(sents: Sequence[Sequence[Token]], i: int, s: Scope) -> int:
    """The two sentences at ``i`` as one :class:`ExileTopPlayable` (this module's template): the number of
    sentences read (2), or 0."""
    if i + 1 >= len(sents):
        return 0
    first, second = Cursor(sents[i]), Cursor(sents[i + 1])
    try:
        n = _exiled_top(first, s)
        until, spells_only = _permission(second)
    except NoMatch:
        return 0
    s.effects.append(ExileTopPlayable(n, until, spells_only))
    return 2
