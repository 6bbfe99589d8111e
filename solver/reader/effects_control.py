"""Control-changing instructions (CR 613.1b, 611.2a–b): "gain control of <target permanent> [until end of
turn]" — Act of Treason's "Gain control of target creature until end of turn. Untap that creature. It gains
haste until end of turn." (its other sentences are the untap and pump readers'), Threaten's "Untap target
creature and gain control of it until end of turn.", Agent of Treachery's "gain control of target
permanent." — read as one :class:`~solver.core.ir.GainControl`. Not read: "for as long as …", "until
the end of your next turn", "until end of combat", control of a spell or of a player, an object other than
a target or "it"."""
from __future__ import annotations

from ..core.ir import Effect, GainControl
from .cursor import Cursor, NoMatch
from .scope import Scope, object_ref

__all__ = ["clause_gain_control"]


def clause_gain_control(c: Cursor, s: Scope) -> list[Effect]:
    """[you] gain control of <target permanent | it | that creature> [until end of turn] (CR 613.1b)."""
    c.take("you")
    c.need("gain", "control", "of")
    ref = object_ref(c, s)
    if ref.kind != "target":
        raise NoMatch("control of an object other than a target")
    if s.targets[ref.index].filter.zone not in (None, "battlefield"):
        raise NoMatch("control of a spell or a card")
    s.last = ref
    until_eot = bool(c.take("until", "end", "of", "turn"))
    if not c.done() and not c.at(("and", ",", "then")):
        raise NoMatch("a duration the reader does not hold")
    return [GainControl(ref, until_eot)]
