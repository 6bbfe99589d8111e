"""Brute-force reference for playing a land whose text decides how it enters, written from the
Oracle text and the rules, independently of the reader and the engine:

* "As this land enters, you may pay N life. If you don't, it enters tapped." — the controller
  chooses as it would enter (CR 614.12); paying needs N or more life (CR 119.4);
* "This land enters tapped unless you control two or fewer other lands." (CR 614.1c);
* "This land enters tapped unless you control two or more other lands." (CR 614.1c);
* "If you control two or more other lands, this land enters tapped." (CR 614.1c);
* "This land enters tapped." — always;
* any other land enters untapped.

The conditions count the lands the player controls as the land would enter (it is not one of them,
CR 614.12). A result is the set of ``(tapped, life after)`` outcomes of playing the land: one per
choice the player may make.
"""
from __future__ import annotations

import re

_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5}


def play_outcomes(text: str, other_lands: int, life: int) -> set[tuple[bool, int]]:
    """Every ``(tapped, life)`` result of playing a land with Oracle ``text``."""
    lines = text.split("\n")
    for line in lines:
        m = re.fullmatch(r"As [^,]+ enters(?: the battlefield)?, you may pay (\d+) life\. "
                         r"If you don't, it enters(?: the battlefield)? tapped\.", line)
        if m:
            n = int(m.group(1))
            out = {(True, life)}
            if life >= n:
                out.add((False, life - n))
            return out
        m = re.fullmatch(r"[^.]+ enters tapped unless you control (\w+) or fewer other lands\.", line)
        if m:
            return {(other_lands > _WORDS[m.group(1)], life)}
        m = re.fullmatch(r"[^.]+ enters tapped unless you control (\w+) or more other lands\.", line)
        if m:
            return {(other_lands < _WORDS[m.group(1)], life)}
        m = re.fullmatch(r"If you control (\w+) or more other lands, [^,]+ enters tapped\.", line)
        if m:
            return {(other_lands >= _WORDS[m.group(1)], life)}
        if re.fullmatch(r"(This land|[^.]+) enters tapped\.", line):
            return {(True, life)}
    return {(False, life)}


def put_from_hand_outcomes(hand: list[tuple[str, str]], life: int) -> set[tuple[str | None, int]]:
    """"You may put a land card from your hand onto the battlefield tapped." (CR 608.2c-d): ``hand`` the
    (name, Oracle text) of each card in the controller's hand (land cards have "Land" in their text's
    key, given here as the name prefixed with "L:"); the outcomes ``(name put or None, life after)``:
    none, or each distinct land card (cards of one name are interchangeable), a shock land paid or not
    (it enters tapped either way)."""
    out: set[tuple[str | None, int]] = {(None, life)}
    for name, text in hand:
        if not name.startswith("L:"):
            continue
        for tapped, after in play_outcomes(text, 0, life):
            out.add((name[2:], after))
    return out
