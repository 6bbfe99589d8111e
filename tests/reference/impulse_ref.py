"""Brute-force reference for "Exile the top N cards of your library. <Duration>, you may play those cards."
(CR 406.3, 401.2, 611.2a), written independently of the engine: the card's printed text gives N, the
duration and play or cast; resolving with a library in known order exiles its top N cards; with a library in
random order every order of the library is equally likely, so the probability of each result — the cards
exiled (by name) and the cards left (by name, still in random order) — is the number of orders giving it over
the number of orders. Each exiled card may then be played (or cast) by the caster, until the end of this turn
or of their next turn."""
from __future__ import annotations

import re
from collections import Counter
from fractions import Fraction
from itertools import permutations

_NUMBERS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10}
_SHAPE = re.compile(r"exile the top (card|\w+ cards) of your library\. (until end of turn, |until the end of your "
                    r"next turn, )?you may (play|cast) (?:that card|those cards|them|it)( this turn| until end of "
                    r"turn| until the end of your next turn)?\.", re.I)


def reference_shape(text: str) -> tuple[int | str, str, bool] | None:
    """(N — ``"X"`` for X —, ``end_of_turn`` | ``end_of_next_turn``, cast only) of the printed text, or None
    (no such passage, or not exactly one duration)."""
    m = _SHAPE.search(text)
    if m is None or bool(m.group(2)) == bool(m.group(4)):
        return None
    word = m.group(1).split()[0].lower()
    n: int | str = 1 if word == "card" else "X" if word == "x" else _NUMBERS.get(word, 0)
    if not n:
        return None
    duration = (m.group(2) or m.group(4) or "").strip(" ,").lower()
    until = "end_of_next_turn" if "next turn" in duration else "end_of_turn"
    return n, until, m.group(3).lower() == "cast"


def reference_outcomes(library: list[str], n: int, shuffled: bool) -> dict[tuple[tuple[str, ...], tuple[str, ...]], Fraction]:
    """{(exiled names sorted, library names left — sorted when shuffled, else top first): probability}."""
    if not shuffled:
        return {(tuple(sorted(library[:n])), tuple(library[n:])): Fraction(1)}
    orders = list(permutations(library))
    out: Counter = Counter()
    for order in orders:
        out[(tuple(sorted(order[:n])), tuple(sorted(order[n:])))] += 1
    return {k: Fraction(v, len(orders)) for k, v in out.items()}
