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
