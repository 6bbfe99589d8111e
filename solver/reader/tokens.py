"""Tokens of Oracle text: the reader's first pass.

A card's Oracle text is split into lines (one ability or keyword line each,
CR 113.2c / 207.1), reminder text in parentheses is dropped (CR 207.2a: it has
no rules meaning), self-references are resolved to a single ``SELF`` token
(the card's name — also a legendary card's short name and each face name —
and "this creature", "this land", "this Aura", … of the 2024 templating),
and the rest is cut into tokens:

* ``SYM``   — a symbol in braces: ``{T}``, ``{Q}``, ``{G}``, ``{2}``, ``{W/B}`` …
  (``low`` holds the upper-case body: ``T``, ``G``, ``W/B``);
* ``PT``    — a power/toughness or counter pair: ``+1/+1``, ``-5/-5``, ``1/1``;
* ``NUM``   — a number written in digits (``low``: the digits);
* ``WORD``  — a word (``low``: lower-cased, typographic apostrophe normalised);
* ``PUNCT`` — ``, . : ; — • [ ] / + -``; ``QUOTE`` — a double quote;
* ``SELF``  — a reference to the object that has the ability.

Every token remembers whether a space preceded it, so a line can be printed
back (:func:`detokenize`) and normalised into a template (:func:`template`).

>>> [t.low for t in tokenize("{T}: Add {G}.")]
['T', ':', 'add', 'G', '.']
>>> [t.kind for t in tokenize("This land deals 1 damage to you.", ())][:2]
['SELF', 'WORD']
>>> strip_reminder("Flying (This creature can't be blocked.)")
'Flying'
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Iterable, NamedTuple, Sequence

NUMBER_WORDS: dict[str, int] = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
    "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
    "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20,
}

# Nouns that make "this <noun>" a self-reference (2024 templating: "this creature",
# "this land", "this Aura", …). Subtypes of the card itself are added per card.
SELF_NOUNS: frozenset[str] = frozenset({
    "creature", "land", "artifact", "enchantment", "aura", "permanent", "equipment", "vehicle", "planeswalker",
    "spell", "card", "token", "saga", "battle", "siege", "class", "case", "room", "fortification", "contraption",
    "attraction", "background", "shrine", "cartouche", "curse", "rune", "role", "food", "treasure", "clue",
    "plane", "scheme", "phenomenon", "dungeon", "spacecraft", "planet", "object", "source",
})

# One token with the whitespace before it; exactly one of the groups after the first matches.
_TOKEN_RE = re.compile(r"""(\s*)(?:
    (\{[^{}\s]+\})                                        # SYM
  | ([+\-]?(?:\d+|X|\*)/[+\-]?(?:\d+|X|\*)(?![\w/]))      # PT
  | (\d+)                                                # NUM
  | ('s\b|[^\W\d_](?:[\w'\-]*[\w'])?)                   # WORD
  | ([^\s\w])                                            # QUOTE, SELF (~) or PUNCT
)""", re.VERBOSE)

_REMINDER_RE = re.compile(r"\s*\([^()]*\)")


class Token(NamedTuple):
    """One token of a line (see the module docstring for the kinds)."""

    kind: str
    text: str
    low: str
    space: bool = False  # a space preceded it in the line

    def __repr__(self) -> str:  # compact, for debugging and doctests
        return f"{self.kind}:{self.text}"


def normalise_chars(text: str) -> str:
    """Typographic quotes, apostrophes and minus signs to ASCII; en dash to hyphen."""
    return (text.replace("\u2019", "'").replace("\u2018", "'").replace("\u201c", '"').replace("\u201d", '"')
            .replace("\u2212", "-").replace("\u2013", "-"))


def strip_reminder(text: str) -> str:
    """Drop reminder text (parenthesised, CR 207.2a), innermost first."""
    prev = None
    while prev != text:
        prev = text
        text = _REMINDER_RE.sub("", text)
    return text.strip()


def self_names(name: str, face_name: str | None = None, legendary: bool = False) -> list[str]:
    """The strings by which a card's text refers to itself, longest first.

    The full name, each face of a multi-face name (``A // B``), the name
    without an Alchemy ``A-`` prefix and, for legendary cards, the short name
    (the rule on shortened names of legendary cards, CR 201.4c in older
    editions) before the first comma ("Urborg" for "Urborg, Tomb of
    Yawgmoth") or before " the " ("Sorin" for "Sorin the Mirthless").
    """
    names: set[str] = set()
    parts = [name] + [p.strip() for p in name.split("//")]
    if face_name:
        parts.append(face_name)
    for p in parts:
        if not p:
            continue
        names.add(p)
        if p.startswith("A-"):
            names.add(p[2:])
    if legendary:
        for p in list(names):
            if "," in p:
                short = p.split(",", 1)[0].strip()
                if len(short) > 2:
                    names.add(short)
            elif (m := re.match(r"^(\S{3,}) the \S", p)) is not None:
                names.add(m.group(1))
    return sorted(names, key=lambda s: (-len(s), s))


@lru_cache(maxsize=4096)
def _name_pattern(names: tuple[str, ...]) -> re.Pattern[str]:
    alt = "|".join(re.escape(n) for n in names)
    return re.compile(r"(?<![\w'])(?:" + alt + r")(?![\w])")


def resolve_names(line: str, names: Sequence[str]) -> str:
    """Replace each self-reference by name with ``~``."""
    present = tuple(n for n in (normalise_chars(n) for n in names if n) if n in line)
    if not present:
        return line
    return _name_pattern(present).sub("~", line)


def tokenize(line: str, names: Sequence[str] = (), self_nouns: Iterable[str] = ()) -> list[Token]:
    """Tokens of one line (reminder text must already be removed).

    ``names`` are the card's self-reference names; ``self_nouns`` extra nouns
    (the card's own subtypes) that make "this <noun>" a self-reference.
    """
    line = normalise_chars(line)
    printed: list[str] = []  # the names replaced by "~", in order: a SELF token keeps its printed text
    if "~" not in line:
        present = tuple(n for n in (normalise_chars(n) for n in names if n) if n in line)
        if present:
            pat = _name_pattern(present)
            printed = pat.findall(line)
            line = pat.sub("~", line)
    else:
        line = resolve_names(line, names)
    printed.reverse()
    nouns = SELF_NOUNS | {n.lower() for n in self_nouns} if self_nouns else SELF_NOUNS
    out: list[Token] = []
    append = out.append
    for sp, sym, ptx, num, word, other in _TOKEN_RE.findall(line):
        space = bool(sp)
        if word:
            low = word.lower()
            if low in nouns and out and out[-1].low == "this":
                prev = out.pop()
                append(Token("SELF", prev.text + " " + word, "self", prev.space))
            else:
                append(Token("WORD", word, low, space))
        elif sym:
            append(Token("SYM", sym, sym[1:-1].upper(), space))
        elif num:
            append(Token("NUM", num, num, space))
        elif ptx:
            append(Token("PT", ptx, ptx.upper(), space))
        elif other == "~":
            append(Token("SELF", printed.pop() if printed else other, "self", space))
        elif other == '"':
            append(Token("QUOTE", other, '"', space))
        elif other:
            append(Token("PUNCT", other, other, space))
    return out


def detokenize(tokens: Sequence[Token]) -> str:
    """Print tokens back as text (spacing as in the source line)."""
    parts: list[str] = []
    for i, t in enumerate(tokens):
        if i and t.space:
            parts.append(" ")
        parts.append(t.text)
    return "".join(parts)


_KEEP_SYMBOLS = frozenset({"T", "Q", "E"})


def template(tokens: Sequence[Token]) -> str:
    """A line normalised into a template for coverage statistics.

    Self-references become ``~``, numbers (digits and number words) ``N``,
    runs of mana symbols ``{M}`` (``{T}``, ``{Q}``, ``{E}`` are kept),
    power/toughness pairs ``+N/+N``, and the card name after "named" ``NAME``.

    >>> template(tokenize("Shock deals 2 damage to any target.", ["Shock"]))
    '~ deals N damage to any target.'
    >>> template(tokenize("{2}{G}, {T}: Add {G}{G}."))
    '{M}, {T}: Add {M}.'
    """
    parts: list[str] = []
    prev_mana = False
    after_named = False
    for i, t in enumerate(tokens):
        if t.kind == "SYM" and t.low not in _KEEP_SYMBOLS:
            if prev_mana:
                continue
            text = "{M}"
            prev_mana = True
        else:
            prev_mana = False
            if t.kind == "SELF":
                text = "~"
            elif t.kind == "NUM" or (t.kind == "WORD" and t.low in NUMBER_WORDS):
                text = "N"
            elif t.kind == "PT":
                text = re.sub(r"\d+", "N", t.text)
            elif t.kind == "WORD" and after_named and t.text[:1].isupper():
                text = "NAME"
                if parts and parts[-1] == "NAME":
                    continue  # a name of several words is one placeholder
            else:
                text = t.text
        after_named = (t.kind == "WORD" and t.low == "named") or (after_named and text == "NAME")
        if i and t.space:
            parts.append(" ")
        parts.append(text)
    return "".join(parts)
