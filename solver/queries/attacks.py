"""The ``attacks`` query (contract §2.8; CR 508.1).

::

    query: {kind: attacks}          # player: the active player (default)

Result: ``{"count": n, "declarations": [{"attackers": {id: what it attacks}, "cost"?: "{N}"}, …]}``,
sorted canonically (by the sorted list of (attacker, what it attacks) pairs; the
empty declaration first), ``count`` exact, ``status: truncated`` beyond
``options.max_results``, ``status: timeout`` when ``options.timeout`` struck.
Rules: :mod:`solver.engine.combat`; model: :mod:`models.combat`.
"""
from __future__ import annotations

from ..engine.combat import CombatError, attack_declarations
from ..core.errors import QueryError
from ..core.state import GameState
from . import Options, register
from .results import attack_object

KEYS = frozenset({"kind", "player"})


@register("attacks")
def attacks_query(state: GameState, query: dict, options: Options) -> dict:
    """Every legal declaration of attackers (contract §2.8)."""
    unknown = sorted(set(query) - KEYS)
    if unknown:
        raise QueryError("", unknown[0], f"unknown key '{unknown[0]}' for an attacks query (expected player)")
    player = query.get("player", state.turn.active)
    if not isinstance(player, str) or not state.is_player(player):
        raise QueryError("", "player", f"'{player}' is not a player (players: {', '.join(state.player_ids)})")
    try:
        count, decls, status = attack_declarations(state, player, options.max_results, options.timeout)
    except CombatError as e:
        raise QueryError("", "", str(e)) from None
    out: dict = {"count": count, "declarations": [attack_object(d) for d in decls]}
    if status != "ok":
        out["status"] = status
    return out
