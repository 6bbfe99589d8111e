"""The ``available_mana`` query (contract §2.2; CR 106, 605, 616).

Every maximal multiset of mana the player could have in their pool by
activating mana abilities now: the mana already in their pool, activated mana
abilities whose costs they can pay (with mana from other abilities, life,
sacrifices, counters, other creatures tapped), the triggered mana abilities
and replacement effects on each production event in every order the player may
choose (all folded into each ability's outcomes by
:mod:`solver.rules.mana_sources`). Bundles are exact (no wildcard), listed only when
no other reachable pool contains them, and decided by :mod:`models.available`.

A thin façade: the problem is built by :mod:`solver.payment.available`.
"""
from __future__ import annotations

from typing import Any, cast

from mtgsolve.models.available import Unsupported, maximal_bundles

from ..payment.available import available_problem, restricted_in_pool, restricted_sources  # the compile step
from ..rules.characteristics import View
from ..core.errors import QueryError
from ..core.mana import Mana
from ..rules.mana_sources import activations
from ..core.state import GameState
from . import Options, register

__all__ = ["available_mana", "available_problem", "check_player", "restricted_in_pool", "restricted_sources"]


def check_player(state: GameState, query: dict) -> str:
    """The query's player (default: the player with priority), validated."""
    player = query.get("player", state.priority)
    if not isinstance(player, str) or not state.is_player(player):
        raise QueryError("", "player", f"unknown player {player!r}; players: {', '.join(state.player_ids)}")
    return player


@register("available_mana")
def available_mana(state: GameState, query: dict, options: Options) -> dict:
    player = check_player(state, query)
    view = View.of(state)
    try:
        acts = activations(view, player)
        restricted = restricted_sources(view, acts)
        in_pool = restricted_in_pool(view, player, acts)
        problem = available_problem(view, player)
        res = maximal_bundles(problem, options.max_results, options.timeout)
    except Unsupported as e:
        return {"status": "error", "error": f"unsupported: {e}"}
    bundles = [Mana(cast("tuple[int, int, int, int, int, int]", b)).text for b in res.bundles]
    out: dict[str, Any] = {"status": res.status, "count": res.count, "bundles": bundles}
    if restricted:   # extension: which permanents' mana in the bundles is restricted (CR 106.6)
        out["restricted"] = [{"objects": list(ids), "restriction": text} for ids, text in restricted]
    if in_pool:      # extension: restricted mana already in the pool, counted in the bundles (CR 106.6)
        out["restricted_pool"] = [{"mana": mana, "restriction": text} for mana, text in in_pool]
    return out
