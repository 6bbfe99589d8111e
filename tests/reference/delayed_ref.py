"""Reference for delayed triggered abilities (CR 603.7), written from the rules independently of the
engine: which delayed triggers in force trigger as a player passes priority with an empty stack and
the game moves on to the next step in which players receive priority, and which stay in force.

A record is ``(step, controller, turn_created, whose)``: ``end`` — "at the beginning of the next end
step", the next end step to begin (CR 603.7b); ``upkeep`` — "the next turn's upkeep" (``whose`` ``any``)
or "your next upkeep" (``you``), of a turn after the one it was created in. Each triggers once
(603.7c).
"""
from __future__ import annotations

Record = tuple[str, str, int, str]

#: the next step with priority after each starting step, for a two-player game with no attackers
#: possible to declare being irrelevant here (CR 500.1, 514.3: cleanup has no priority; 502.4 untap)
_NEXT = {"upkeep": "draw", "draw": "main1", "main2": "end"}


def next_step(turn: int, active: str, step: str, players: tuple[str, str]) -> tuple[int, str, str]:
    """(turn, active player, step) of the next step in which a player receives priority."""
    if step == "end":   # cleanup, then the next player's untap step (no priority), then their upkeep
        return turn + 1, players[1 - players.index(active)], "upkeep"
    return turn, active, _NEXT[step]


def triggered(records: list[Record], turn: int, active: str, step: str) -> tuple[list[Record], list[Record]]:
    """(the records that trigger as ``step`` of turn ``turn`` begins, the ones still in force)."""
    fire, keep = [], []
    for r in records:
        kind, controller, created, whose = r
        if kind == "end":
            goes = step == "end"
        else:
            goes = step == "upkeep" and turn > created and (whose == "any" or active == controller)
        (fire if goes else keep).append(r)
    return fire, keep
