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

from ..engine.actions import actions_result
from ..core.state import GameState
from . import Options, register


@register("actions")
def actions(state: GameState, query: dict, options: Options) -> dict:
    """Contract §2.6 (CR 117, 305, 601, 602)."""
    return actions_result(state, query, options)
