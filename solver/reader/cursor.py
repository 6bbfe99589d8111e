"""The token cursor of the grammar and sentence splitting.

:class:`Cursor` walks a token list; each grammar function either consumes the
tokens of its phrase and returns its meaning, or raises :class:`NoMatch` (the
cursor is then restored by whoever tried it).  Also: splitting a line into
sentences and top-level parts, and dropping an ability word (CR 207.2c)."""
from __future__ import annotations

from typing import Callable, Iterable, Sequence

from .tokens import Token
from .vocabulary import ABILITY_WORDS


class NoMatch(Exception):
    """The tokens do not follow the template being tried."""


class Cursor:
    """A position in a token list, with word-sequence matching.

    A pattern element is a lower-case word or symbol body, ``"SELF"`` for a
    self-reference token, or a tuple/set of alternatives.
    """

    __slots__ = ("toks", "i")

    def __init__(self, toks: Sequence[Token], i: int = 0):
        self.toks = toks
        self.i = i

    def peek(self, k: int = 0) -> Token | None:
        j = self.i + k
        return self.toks[j] if 0 <= j < len(self.toks) else None

    def low(self, k: int = 0) -> str | None:
        t = self.peek(k)
        return t.low if t is not None else None

    def kind(self, k: int = 0) -> str | None:
        """The kind of the token ``k`` ahead ("WORD", "NUM", "SYM", "PT", …), None past the end."""
        t = self.peek(k)
        return t.kind if t is not None else None

    def done(self) -> bool:
        return self.i >= len(self.toks)

    def end(self) -> None:
        if not self.done():
            raise NoMatch("unexpected words")

    def rest(self) -> list[Token]:
        return list(self.toks[self.i:])

    @staticmethod
    def _one(t: Token | None, p) -> bool:
        if t is None:
            return False
        if p.__class__ is str:
            return t.kind == "SELF" if p == "SELF" else t.low == p
        if "SELF" in p and t.kind == "SELF":
            return True
        return t.low in p

    def at(self, *pattern) -> bool:
        toks, i = self.toks, self.i
        if i + len(pattern) > len(toks):
            return False
        for k, p in enumerate(pattern):
            t = toks[i + k]
            if p.__class__ is str:
                if p == "SELF":
                    if t.kind != "SELF":
                        return False
                elif t.low != p:  # a SELF token's low is "self", never a pattern word
                    return False
            elif t.low not in p and not ("SELF" in p and t.kind == "SELF"):
                return False
        return True

    def take(self, *pattern) -> bool:
        if self.at(*pattern):
            self.i += len(pattern)
            return True
        return False

    def need(self, *pattern) -> None:
        if not self.take(*pattern):
            raise NoMatch("expected words")

    def next(self) -> Token:
        t = self.peek()
        if t is None:
            raise NoMatch("unexpected end")
        self.i += 1
        return t

    def attempt(self, fn: Callable, *args, **kw):
        """``fn(self, …)`` or None, restoring the position when it does not match."""
        save = self.i
        try:
            return fn(self, *args, **kw)
        except NoMatch:
            self.i = save
            return None

    def first(self, *fns: Callable, args: tuple = ()):
        """The result of the first of ``fns`` that matches (each tried from here)."""
        for fn in fns:
            save = self.i
            try:
                return fn(self, *args)
            except NoMatch:
                self.i = save
        raise NoMatch("no alternative matched")


def split_top(toks: Sequence[Token], sep: str) -> list[list[Token]]:
    """Split at ``sep`` punctuation outside double quotes."""
    out: list[list[Token]] = [[]]
    quoted = False
    for t in toks:
        if t.kind == "QUOTE":
            quoted = not quoted
        if t.kind == "PUNCT" and t.low == sep and not quoted:
            out.append([])
        else:
            out[-1].append(t)
    return out


def sentences(toks: Sequence[Token]) -> list[list[Token]]:
    """Sentences of a line (split at periods outside quotes; empty ones dropped)."""
    return [s for s in split_top(toks, ".") if s]


def find_top(toks: Sequence[Token], sep: str) -> int:
    quoted = False
    for i, t in enumerate(toks):
        if t.kind == "QUOTE":
            quoted = not quoted
        if t.kind == "PUNCT" and t.low == sep and not quoted:
            return i
    return -1


def mentions_target(toks: Iterable[Token]) -> bool:
    return any(t.kind == "WORD" and t.low in ("target", "targets") for t in toks)


def strip_ability_word(toks: Sequence[Token]) -> Sequence[Token]:
    """Drop an ability word and its dash (CR 207.2c: ability words have no rules meaning)."""
    for k in range(1, 5):
        if k < len(toks) and toks[k].low == "—":
            head = " ".join(t.low for t in toks[:k])
            if head in ABILITY_WORDS:
                return toks[k + 1:]
            break
    return toks
