"""The ``blocks`` query (contract §2.9; CR 509.1).

::

    query: {kind: blocks}           # player: the defending player (default: the only defending player)

Result: ``{"count": n, "declarations": [{"blockers": {id: [attacker ids]}}, …]}``,
sorted by the sorted list of (blocker, attackers) pairs (the empty declaration
first), ``count`` exact, ``status: truncated`` / ``timeout`` as for ``attacks``.
Rules: :mod:`solver.engine.combat`; model: :mod:`models.combat`.
"""
from __future__ import annotations

from ..engine.combat import CombatError, block_declarations
from ..core.errors import QueryError
from ..core.state import GameState
from . import Options, register
from .results import block_object

KEYS = frozenset({"kind", "player"})


@register("blocks")
def blocks_query(state: GameState, query: dict, options: Options) -> dict:
    """Every legal declaration of blockers (contract §2.9)."""
    unknown = sorted(set(query) - KEYS)
    if unknown:
        raise QueryError("", unknown[0], f"unknown key '{unknown[0]}' for a blocks query (expected player)")
    player = query.get("player")
    if player is not None and (not isinstance(player, str) or not state.is_player(player)):
        raise QueryError("", "player", f"'{player}' is not a player (players: {', '.join(state.player_ids)})")
    try:
        count, decls, status = block_declarations(state, player, options.max_results, options.timeout)
    except CombatError as e:
        raise QueryError("", "player" if "name the" in str(e) else "", str(e)) from None
    out: dict = {"count": count, "declarations": [block_object(d) for d in decls]}
    if status != "ok":
        out["status"] = status
    return out
