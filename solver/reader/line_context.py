"""What a line template knows about its card (:class:`LineContext`), what it
returns (:class:`LineResult`), and unsupported parts and riders (see
:mod:`.grammar`'s docstring)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from ..core.ir import Ability, ability_kind_of_line, Unsupported
from .tokens import template, Token
from .cursor import mentions_target, NoMatch
from .scope import Scope


@dataclass
class LineContext:
    """What a line template knows about the card."""

    x_in_cost: bool = False
    is_spell: bool = False  # instant or sorcery: lines are the spell's instructions
    is_creature: bool = False  # a creature card ("this creature" in a keyword's meaning, CR 702)
    keywords: frozenset[str] = frozenset()  # MTGJSON's keyword names, lower case
    spell_scope: Scope | None = None


@dataclass
class LineResult:
    """The meaning of one line: the template that read it and its parts."""

    template: str | None
    abilities: list[Ability]
    spell_effects: bool = False  # the line added targets/effects to the spell
    unread: int = 0  # sentences read only for their structure (UnreadEffect, reader/structure.py)


def unsupported(what: str, raw: str) -> Unsupported:
    return Unsupported(what=what, text=raw, kind=ability_kind_of_line(raw))


def _rider_or_fail(ability: Ability, rest: Sequence[Sequence[Token]], raw: str) -> list[Ability]:
    """The ability plus an unsupported rider for sentences not read (see module docstring)."""
    if not rest:
        return [ability]
    toks = [t for st in rest for t in st]
    if mentions_target(toks):
        raise NoMatch("rider with targets")
    # a rider is part of the ability before it, not an ability of its own: kind "rider" keeps
    # the {object, index} numbering of activated abilities right
    return [ability, Unsupported("rider: " + ". ".join(template(st) for st in rest), raw, "rider")]
