"""Sagas (CR 714): lore counters and chapter abilities.

* 714.2a–b: a chapter symbol ("I —", "II, III —") is a chapter ability: a triggered ability that
  triggers when a lore counter is put on the Saga that makes its lore counters at least the
  chapter number (from fewer).
* 714.2d: the final chapter number is the greatest chapter number among its chapter abilities.
* 714.3a: as a Saga enters the battlefield, its controller puts a lore counter on it.
* 714.3b: as a player's precombat main phase begins, that player puts a lore counter on each Saga
  they control (a turn-based action; it doesn't use the stack).
* 714.4: a Saga with chapter abilities whose lore counters are at least its final chapter number,
  and that isn't the source of a chapter ability that has triggered but not yet left the stack, is
  sacrificed (a state-based action).

The chapter abilities are recognised by their printed chapter symbols, whatever the reader made
of their effects: the project reads none of them yet, so every chapter that triggers is an unread
triggered ability (the soundness layer's ``counters`` event family, CR 714.2b), refused where it
could change an answer.
"""
from __future__ import annotations

import re
from typing import Any

from ..core.card import Card

_CHAPTER = re.compile(r"^((?:[IVX]+)(?:, [IVX]+)*) —")
_ROMAN = {"I": 1, "V": 5, "X": 10}


def roman(numeral: str) -> int:
    """A chapter number (CR 714.2a uses Roman numerals)."""
    total = 0
    for i, ch in enumerate(numeral):
        v = _ROMAN[ch]
        total += -v if i + 1 < len(numeral) and _ROMAN[numeral[i + 1]] > v else v
    return total


def is_saga(card: Card | None) -> bool:
    """A Saga card (CR 714.1: the enchantment subtype Saga)."""
    return card is not None and "Saga" in card.data.subtypes


def chapters(card: Card | None) -> tuple[tuple[frozenset[int], str], ...]:
    """The card's chapter abilities: (their chapter numbers, the printed line), in printed order."""
    if card is None:
        return ()
    return card.memo.get("chapters", lambda: _chapters(card.data.text))


def _chapters(text: str) -> tuple[tuple[frozenset[int], str], ...]:
    out = []
    for line in text.splitlines():
        m = _CHAPTER.match(line.strip())
        if m:
            out.append((frozenset(roman(n) for n in m.group(1).split(", ")), line.strip()))
    return tuple(out)


def chapter_line(text: str) -> bool:
    """Is this printed line a chapter ability (CR 714.2a)?"""
    return bool(_CHAPTER.match(text.strip()))


def final_chapter(card: Card | None) -> int | None:
    """CR 714.2d: the greatest chapter number, or None without chapter abilities."""
    numbers = [n for ns, _ in chapters(card) for n in ns]
    return max(numbers) if numbers else None


def chapters_triggered(card: Card | None, before: int, after: int) -> list[str]:
    """CR 714.2b: the chapter abilities that trigger as lore counters go from ``before`` to ``after``."""
    return [line for ns, line in chapters(card) if any(before < n <= after for n in ns)]


def ability_is_chapter(ability: Any) -> bool:
    """An ability (read or unread) printed as a chapter ability."""
    text = getattr(ability, "text", "") or ""
    return chapter_line(text)
