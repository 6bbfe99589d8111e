"""The ``pass`` query (contract §2.10; CR 117.3d–117.4, 500–514).

.. code-block:: yaml

    query: {kind: pass}             # the player with priority passes

Result: ``count`` and ``outcomes`` (sorted by the canonical JSON of
``choices``, then of ``situation``), each ``{"choices": {...}, "situation":
{...}}`` with ``probability`` when a random event took part (drawing from a
``shuffled`` library).  ``choices`` keys, present when they happened:
``attackers`` / ``blockers`` (the declaration, as ``attacks`` / ``blocks``
list it), ``damage`` (the combat damage assignment), ``discard`` (cards
discarded to hand size, CR 514.1), ``drawn`` (a random draw), and the keys
of ``resolve`` (``may``, ``triggers``, ``legend_rule``, …).  The rules are
in :mod:`solver.engine.turns`; this module parses and formats.

Status ``unsupported`` (contract §2.0) when any unread part of the situation
could change what happens, or the engine meets something it does not model
(a step trigger it cannot read, combat without :mod:`solver.engine.combat`);
``error`` when no player can pass (the game is over, the untap step).
"""
from __future__ import annotations

from ..core.errors import QueryError, UnsupportedCase
from ..engine.resolution import CannotResolve, ResolutionUnsupported
from ..core.state import GameState
from . import Options, register
from .canonical import canonical_branches
from ..io.load import dump_state
from ..engine.turns import GameOver, pass_priority
from ..rules.soundness.check import Scope, blocking
from .results import unsupported_result

ALLOWED_KEYS = ("kind",)


@register("pass")
def pass_query(state: GameState, query: dict, options: Options) -> dict:
    for key in query:
        if key not in ALLOWED_KEYS:
            raise QueryError("", str(key), "unknown key for a pass query (it takes only 'kind': "
                                           "the player with priority passes)")
    blocked = _blocking(state)
    if blocked is not None:
        return blocked
    if state.turn.step == "untap":
        return {"status": "error", "error": "no player receives priority during the untap step (CR 502.4)"}
    try:
        branches = pass_priority(state)
    except GameOver as e:
        return {"status": "error", "error": str(e)}
    except (UnsupportedCase, ResolutionUnsupported) as e:
        msg = str(e)
        return {"status": "unsupported", "reason": msg if msg.startswith("unsupported") else f"unsupported: {msg}"}
    except CannotResolve as e:
        return {"status": "error", "error": str(e)}
    outcomes = []
    for b in canonical_branches(branches):
        d: dict = {"choices": b.choices}
        if b.probability is not None:
            d["probability"] = float(b.probability)
        d["situation"] = dump_state(b.state)
        outcomes.append(d)
    body: dict = {"count": len(outcomes)}
    if len(outcomes) > options.max_results:
        body["status"] = "truncated"
        outcomes = outcomes[:options.max_results]
    body["outcomes"] = outcomes
    return body


def _blocking(state: GameState) -> dict | None:
    """Contract §2.0: every unread part can change what passing does."""
    parts = blocking(state, Scope("pass", state.priority))
    if not parts:
        return None
    res = unsupported_result("pass", parts)
    res.pop("kind", None)
    return res
