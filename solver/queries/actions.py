"""The ``actions`` query (contract §2.6): everything the player may legally do now.

``{kind: actions, player: alice}`` (``player`` defaults to the player with
priority) answers::

    {"kind": "actions", "status": "ok", "count": 3,
     "actions": [{"kind": "cast", "object": "shock", "targets": 1, "payments": 1},
                 {"kind": "pass"},
                 {"kind": "play_land", "object": "forest-2"}]}

Entries are sorted by kind (``activate``, ``cast``, ``pass``, ``play_land``),
then object id, then ability index. ``cast`` and ``activate`` entries carry the
exact numbers of legal target choices (``targets``, 1 when the spell or
ability has no targets) and of distinct payments (``payments``, every X
counted when the cost has {X}); both are at least 1, since spells and
abilities without a legal target choice or without a payment are absent. An
entry whose card has text the project does not read carries ``unread`` (that
text, which cannot change the entry: text that could — an unread cost, target
or timing rule, an unread activated ability of the player — makes the whole
answer ``unsupported``, contract §2.0). ``unread`` is an extension of
contract §2.6. The rules live in
:mod:`solver.engine.actions`.
"""
from __future__ import annotations

from typing import Any

from ..core.errors import QueryError
from ..engine.actions import Oracle, legal_action_entries
from ..core.state import GameState
from . import Options, register
from .results import action_object


@register("actions")
def actions(state: GameState, query: dict, options: Options) -> dict:
    """The body of the ``actions`` query result (contract §2.6; CR 117, 305, 601, 602)."""
    allowed = {"kind", "player"}
    for k in query:
        if k not in allowed:
            import difflib
            m = difflib.get_close_matches(str(k), sorted(allowed), n=1)
            hint = f" (did you mean '{m[0]}'?)" if m else ""
            raise QueryError("", str(k), f"unknown key '{k}' for an actions query{hint}; allowed: player")
    player = query.get("player", state.priority)
    if not isinstance(player, str) or not state.is_player(player):
        raise QueryError("", "player", f"unknown player {player!r} (players: {', '.join(state.player_ids)})")
    oracle = Oracle(state, player, options)
    found, status, message = legal_action_entries(state, player, options, oracle=oracle)
    entries = [action_object(e) for e in found]
    body: dict[str, Any] = {}
    if status in ("timeout", "error"):
        body["status"] = status
        body["count"] = None
        body["actions"] = entries
        body["error" if status == "error" else "reason"] = message
        return body
    count = len(entries)
    if len(entries) > options.max_results:
        body["status"] = "truncated"
        entries = entries[:options.max_results]
    body["count"] = count
    body["actions"] = entries
    return body
