"""Mana symbols, mana costs and amounts of mana (CR 106, 107.4, 202.3).

A *cost* is a sequence of symbols (``{2}{G/W}{B/P}``); an *amount* of mana is a
multiset of the six types of mana (CR 106.1b), written canonically as
``{W}{U}{B}{R}{G}{C}`` in that order.

>>> str(ManaCost.parse("{G}{2}{X}"))
'{X}{2}{G}'
>>> ManaCost.parse("{1}{G/W}{G/W}").mana_value
3
>>> Mana.parse("{G}{W}{C}{W}").text
'{W}{W}{G}{C}'
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from typing import Iterable, Iterator

COLORS: tuple[str, ...] = ("W", "U", "B", "R", "G")
TYPES: tuple[str, ...] = ("W", "U", "B", "R", "G", "C")  # CR 106.1b: six types of mana
COLOR_NAMES = {"W": "white", "U": "blue", "B": "black", "R": "red", "G": "green", "C": "colorless"}
NAME_TO_COLOR = {v: k for k, v in COLOR_NAMES.items()}

_SYMBOL_RE = re.compile(r"\{([^{}]*)\}")


class ManaSyntaxError(ValueError):
    """A mana string that does not follow CR 107.4."""


@dataclass(frozen=True, order=True)
class Symbol:
    """One mana symbol of CR 107.4.

    ``kind`` is one of ``color`` (``{W}``), ``colorless`` (``{C}``), ``generic``
    (``{3}``), ``X``, ``hybrid`` (``{W/U}``), ``mono_hybrid`` (``{2/W}``),
    ``colorless_hybrid`` (``{C/W}``), ``phyrexian`` (``{W/P}``),
    ``hybrid_phyrexian`` (``{W/U/P}``) or ``snow`` (``{S}``).
    """

    kind: str
    colors: tuple[str, ...] = ()
    generic: int = 0

    @property
    def text(self) -> str:
        k = self.kind
        if k == "color":
            return "{%s}" % self.colors[0]
        if k == "colorless":
            return "{C}"
        if k == "generic":
            return "{%d}" % self.generic
        if k == "X":
            return "{X}"
        if k == "snow":
            return "{S}"
        if k == "hybrid":
            return "{%s/%s}" % self.colors
        if k == "mono_hybrid":
            return "{%d/%s}" % (self.generic, self.colors[0])
        if k == "colorless_hybrid":
            return "{C/%s}" % self.colors[0]
        if k == "phyrexian":
            return "{%s/P}" % self.colors[0]
        if k == "hybrid_phyrexian":
            return "{%s/%s/P}" % self.colors
        raise AssertionError(k)

    @property
    def mana_value(self) -> int:
        """CR 202.3: X counts 0; a hybrid symbol counts its largest component (202.3f)."""
        if self.kind == "generic":
            return self.generic
        if self.kind == "X":
            return 0
        if self.kind == "mono_hybrid":
            return max(self.generic, 1)
        return 1

    @property
    def is_colored(self) -> bool:
        """CR 107.4e/f: hybrid and Phyrexian symbols are colored symbols."""
        return bool(self.colors)

    def payment_options(self) -> tuple[tuple[str, int], ...]:
        """The ways to pay this symbol once announced (CR 601.2b, 107.4).

        Each option is ``(what, n)``: ``what`` is a type letter (pay n mana of
        exactly that type), ``*`` (n mana of any type), ``S`` (n mana from snow
        sources, CR 107.4h) or ``life`` (pay n life, CR 107.4f).  ``{X}`` has
        no options here: its value is chosen first (CR 107.3a).
        """
        k = self.kind
        if k == "color":
            return ((self.colors[0], 1),)
        if k == "colorless":
            return (("C", 1),)
        if k == "generic":
            return (("*", self.generic),) if self.generic else ()
        if k == "snow":
            return (("S", 1),)
        if k == "hybrid":
            return ((self.colors[0], 1), (self.colors[1], 1))
        if k == "mono_hybrid":
            return ((self.colors[0], 1), ("*", self.generic))
        if k == "colorless_hybrid":
            return ((self.colors[0], 1), ("C", 1))
        if k == "phyrexian":
            return ((self.colors[0], 1), ("life", 2))
        if k == "hybrid_phyrexian":
            return ((self.colors[0], 1), (self.colors[1], 1), ("life", 2))
        if k == "X":
            return ()
        raise AssertionError(k)

    def sort_key(self) -> tuple[int, int, int, str]:
        """Canonical order in a cost: X, generic, snow, colorless, then by color WUBRG."""
        rank = {"X": 0, "generic": 1, "snow": 2, "colorless": 3}.get(self.kind)
        if rank is not None:
            return (rank, 0, 0, "")
        first = COLORS.index(self.colors[0])
        kind_rank = ["mono_hybrid", "colorless_hybrid", "hybrid", "hybrid_phyrexian", "phyrexian", "color"].index(self.kind)
        second = COLORS.index(self.colors[1]) if len(self.colors) > 1 else -1
        return (4, kind_rank, first, str(second))


def parse_symbol(body: str) -> Symbol:
    """Parse the inside of one ``{…}`` symbol."""
    b = body.strip().upper()
    if b in COLORS:
        return Symbol("color", (b,))
    if b == "C":
        return Symbol("colorless")
    if b == "X":
        return Symbol("X")
    if b == "S":
        return Symbol("snow")
    if b.isdigit():
        return Symbol("generic", (), int(b))
    parts = b.split("/")
    if len(parts) == 2:
        a, c = parts
        if c == "P" and a in COLORS:
            return Symbol("phyrexian", (a,))
        if a.isdigit() and c in COLORS:
            return Symbol("mono_hybrid", (c,), int(a))
        if a == "C" and c in COLORS:
            return Symbol("colorless_hybrid", (c,))
        if a in COLORS and c in COLORS and a != c:
            return Symbol("hybrid", (a, c))
    if len(parts) == 3 and parts[2] == "P" and parts[0] in COLORS and parts[1] in COLORS and parts[0] != parts[1]:
        return Symbol("hybrid_phyrexian", (parts[0], parts[1]))
    raise ManaSyntaxError(f"unknown mana symbol '{{{body}}}'")


def _tokens(text: str) -> list[str]:
    text = text.strip()
    pos = 0
    out: list[str] = []
    for m in _SYMBOL_RE.finditer(text):
        if text[pos:m.start()].strip():
            raise ManaSyntaxError(f"unexpected '{text[pos:m.start()].strip()}' in mana string '{text}'")
        out.append(m.group(1))
        pos = m.end()
    if text[pos:].strip():
        raise ManaSyntaxError(f"unexpected '{text[pos:].strip()}' in mana string '{text}'")
    return out


@dataclass(frozen=True)
class ManaCost:
    """A mana cost: an ordered, canonical tuple of symbols (CR 107.4, 202.1)."""

    symbols: tuple[Symbol, ...] = ()

    @classmethod
    def parse(cls, text: str | None) -> "ManaCost":
        if not text:
            return cls(())
        syms = [parse_symbol(t) for t in _tokens(text)]
        generic = sum(s.generic for s in syms if s.kind == "generic")
        others = [s for s in syms if s.kind != "generic"]
        if generic or any(s.kind == "generic" for s in syms) and not others:
            others.append(Symbol("generic", (), generic))
        return cls(tuple(sorted(others, key=Symbol.sort_key)))

    @property
    def text(self) -> str:
        return "".join(s.text for s in self.symbols)

    def __str__(self) -> str:  # pragma: no cover - trivial
        return self.text

    @cached_property
    def mana_value(self) -> int:
        return sum(s.mana_value for s in self.symbols)

    @property
    def x_count(self) -> int:
        return sum(1 for s in self.symbols if s.kind == "X")

    @property
    def generic(self) -> int:
        return sum(s.generic for s in self.symbols if s.kind == "generic")

    @cached_property
    def colors(self) -> frozenset[str]:
        """CR 202.2: an object's colors come from the colored symbols of its mana cost (computed once
        per cost: card costs are shared by every object of the card)."""
        return frozenset(c for s in self.symbols for c in s.colors)

    def with_x(self, x: int) -> "ManaCost":
        """The cost with every {X} replaced by ``x`` generic (CR 107.3a, 601.2f)."""
        n = self.x_count * x
        rest = [s for s in self.symbols if s.kind not in ("X", "generic")]
        g = self.generic + n
        if g:
            rest.append(Symbol("generic", (), g))
        return ManaCost(tuple(sorted(rest, key=Symbol.sort_key)))

    def __add__(self, other: "ManaCost") -> "ManaCost":
        return ManaCost.parse(self.text + other.text)

    def __bool__(self) -> bool:
        return bool(self.symbols)


@dataclass(frozen=True)
class Mana:
    """An amount of mana: counts of each of the six types (CR 106.1b)."""

    counts: tuple[int, int, int, int, int, int] = (0, 0, 0, 0, 0, 0)

    @classmethod
    def parse(cls, text: str | None) -> "Mana":
        """Parse a pool string such as ``{R}{R}{C}`` (generic ``{2}`` means colorless, CR 106.10)."""
        counts = [0] * 6
        for t in _tokens(text or ""):
            s = parse_symbol(t)
            if s.kind in ("color",):
                counts[TYPES.index(s.colors[0])] += 1
            elif s.kind == "colorless":
                counts[5] += 1
            elif s.kind == "generic":
                counts[5] += s.generic
            else:
                raise ManaSyntaxError(f"'{s.text}' is not a type of mana")
        return cls(tuple(counts))  # type: ignore[arg-type]

    @classmethod
    def of(cls, items: Iterable[str] | dict[str, int]) -> "Mana":
        counts = [0] * 6
        if isinstance(items, dict):
            for t, n in items.items():
                counts[TYPES.index(t)] += n
        else:
            for t in items:
                counts[TYPES.index(t)] += 1
        return cls(tuple(counts))  # type: ignore[arg-type]

    @property
    def text(self) -> str:
        return "".join("{%s}" % t * n for t, n in zip(TYPES, self.counts))

    def __str__(self) -> str:  # pragma: no cover
        return self.text

    def __getitem__(self, t: str) -> int:
        return self.counts[TYPES.index(t)]

    def __add__(self, o: "Mana") -> "Mana":
        return Mana(tuple(a + b for a, b in zip(self.counts, o.counts)))  # type: ignore[arg-type]

    def __sub__(self, o: "Mana") -> "Mana":
        return Mana(tuple(a - b for a, b in zip(self.counts, o.counts)))  # type: ignore[arg-type]

    def scale(self, k: int) -> "Mana":
        return Mana(tuple(a * k for a in self.counts))  # type: ignore[arg-type]

    def __le__(self, o: "Mana") -> bool:  # multiset inclusion
        return all(a <= b for a, b in zip(self.counts, o.counts))

    @property
    def total(self) -> int:
        return sum(self.counts)

    def types(self) -> Iterator[str]:
        for t, n in zip(TYPES, self.counts):
            if n:
                yield t

    def __bool__(self) -> bool:
        return any(self.counts)


def canonical_types(types: Iterable[str]) -> list[str]:
    """Sort type letters in the order W U B R G C."""
    return sorted(set(types), key=TYPES.index)


_COLOR_NAMES = {"white": "W", "blue": "U", "black": "B", "red": "R", "green": "G"}


def chosen_color_letter(value: object) -> str | None:
    """The color letter of a situation's ``chosen: {color: …}`` value
    ("green" or "G", any case), or None when it names no color."""
    if not isinstance(value, str):
        return None
    v = value.strip().lower()
    if v in _COLOR_NAMES:
        return _COLOR_NAMES[v]
    return v.upper() if v in ("w", "u", "b", "r", "g") else None
