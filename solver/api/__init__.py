"""The agents' API (python-chess-shaped): situations, legal actions, masks, moves, whole games,
the environment.

``from mtgsolve.solver.api import Situation`` is the public entry point; the names below are
defined in :mod:`solver.api.situation` (the situation and its legal actions), with the game
driver in :mod:`solver.api.play`, the agents' encoding in :mod:`solver.api.encoding`, decks
and opening situations in :mod:`solver.api.games` and the PettingZoo environment in
:mod:`solver.api.env`.
"""
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from .situation import (Action, ActionError, AmbiguousActionError, IllegalActionError, InvalidActionError,
                            LegalActions, Payment, Situation, UnsupportedActionError, UnsupportedCaseError, Verdict)

__all__ = [
    "Action", "ActionError", "AmbiguousActionError", "IllegalActionError", "InvalidActionError", "LegalActions",
    "Payment", "Situation", "UnsupportedActionError", "UnsupportedCaseError", "Verdict",
]


def __getattr__(name: str) -> Any:
    """The API's names, loaded on first use (PEP 562): importing a submodule such as
    :mod:`solver.api.describe` does not load the engine."""
    if name in __all__:
        from . import situation

        return getattr(situation, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
