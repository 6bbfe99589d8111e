"""The limits every question is answered under (contract §2: ``max_results`` and ``timeout``).

Plain data shared by the rules layer (the ``actions`` engine gives its sub-questions what
remains of the time) and the interface (the query façades, the runner, the API); the query
package re-exports it as :class:`solver.queries.Options`.
"""
from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Options"]


@dataclass(frozen=True)
class Options:
    """Limits honoured by every query: ``max_results`` (listing cut, status
    ``truncated``) and ``timeout`` in seconds (status ``timeout``)."""

    max_results: int = 10_000
    timeout: float | None = None


QUERY_KINDS: tuple[str, ...] = ("could_produce", "available_mana", "pay", "targets", "order", "actions", "resolve",
                                "pass", "attacks", "blocks")
"""The query kinds of contract §2 this version answers, in the contract's order (:mod:`solver.queries`
dispatches them; the situation loader validates a file's queries against them)."""
