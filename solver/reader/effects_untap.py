""""Untap up to N lands" (CR 608.2c: the controller chooses, as the instruction happens, up to N
permanents of the description — no target, CR 115.10): :class:`solver.core.ir.UntapChosen`. "Untap up
to two target lands" is a targeted untap (the tap/untap clause), not this one."""
from __future__ import annotations

from ..core.ir import Effect, UntapChosen
from .cursor import Cursor, NoMatch
from .descriptions import desc, to_selector
from .phrases import number
from .scope import Scope

__all__ = ["clause_untap_chosen"]


def clause_untap_chosen(c: Cursor, s: Scope) -> list[Effect]:
    """[you] untap up to <N> <permanents> (any controller's unless "you control")."""
    c.take("you")
    c.need("untap", "up", "to")
    n = number(c)
    if not isinstance(n, int) or c.at("target"):
        raise NoMatch("up to N permanents, no target")
    d = desc(c)
    if d.plural != (n != 1) or d.players or d.zone != "battlefield" or d.card or d.other or d.other_than_self:
        raise NoMatch("permanents")
    if d.who not in ("any", "you"):
        raise NoMatch("permanents another player controls")
    return [UntapChosen(to_selector(d), n)]
