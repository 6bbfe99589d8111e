"""The ``resolve`` query (contract §2.7; CR 608, 701.14, 704).

.. code-block:: yaml

    query: {kind: resolve}          # the top of the stack

Result fields (contract §2.7), plus documented extensions:

* ``count`` — the number of distinct resulting situations;
* ``outcomes`` — sorted by the canonical JSON of ``choices``, then of
  ``situation``; each ``{"choices": {...}, "situation": {...}}``:

  - ``situation`` is a complete situation (format ``mtgsolve/1``) that loads
    again with :func:`solver.io.load.situation_from_dict`; every object has
    its ``id``; priority is the active player's (CR 117.3b);
  - ``choices`` — what was chosen on the way, keys present only when they
    happened: ``may`` (CR 608.2d; a list when the text has several "you
    may"), ``replacements`` (``[{object, counter, orders}]``: the replacement
    orders, by effect source ids, that give this number of counters — from
    the ``order`` mechanism), ``triggers`` (the triggered abilities put on
    the stack, top first: ``{id, ability, targets}``), ``legend_rule`` (ids
    kept, CR 704.5j), ``drawn`` (cards drawn from a shuffled library — a
    random result, not a choice);
  - (extension) ``alternatives`` — other choice sets that lead to the very
    same situation (e.g. "may" answered either way when the fight can't
    happen), with ``alternative_probabilities`` when a random event took part;
  - ``probability`` — present when a random event took part (drawing from a
    shuffled library): the chance of this outcome given its choices; the
    probabilities of the outcomes that share the same choices (apart from the
    random results under ``drawn``) sum to 1;
  - (extension) ``losers`` — players who lost the game by a state-based
    action (CR 704.5a–c). Kept outside the situation so that it stays
    loadable; the situation shows the life total that caused it.

* (extension) ``resolved`` — false when every target was illegal and the
  spell or ability was removed without resolving (CR 608.2b);
* (extension) ``unsupported`` — parts of cards involved that the project does
  not model (present only when non-empty).

Errors: an empty stack is a located :class:`~solver.core.errors.QueryError`
(``situation.yaml: query: nothing to resolve: the stack is empty``); a query
key other than ``kind`` likewise. Behaviour the project does not model gives
``status: error`` with ``error: "unsupported: …"``, never a guessed answer; a
top of the stack that cannot resolve as given (a mana ability on the stack,
CR 605.3b; a targeted spell without its targets) gives ``status: error``
with the reason. Options:
``max_results`` cuts the listing (``status: truncated``, ``count`` exact);
``timeout`` answers ``status: timeout`` with ``count: null``.
"""
from __future__ import annotations

import time
from typing import Any

from ..core.errors import QueryError
from ..engine.resolution import (CannotResolve, NothingToResolve, Outcome, ResolutionUnsupported, ResolveTimeout,
                                 resolve_top)
from ..core.state import GameState
from . import Options, register
from .canonical import canonical_outcomes

ALLOWED_KEYS = ("kind",)


@register("resolve")
def resolve(state: GameState, query: dict, options: Options) -> dict:
    for key in query:
        if key not in ALLOWED_KEYS:
            raise QueryError("", str(key), "unknown key for a resolve query (it takes only 'kind': "
                                           "the top of the stack resolves)")
    deadline = time.monotonic() + options.timeout if options.timeout else None
    try:
        res = resolve_top(state, deadline)
    except NothingToResolve:
        raise QueryError("", "", "nothing to resolve: the stack is empty") from None
    except ResolutionUnsupported as e:
        return {"status": "error", "error": f"unsupported: {e}"}
    except CannotResolve as e:
        return {"status": "error", "error": str(e)}
    except ResolveTimeout:
        return {"status": "timeout", "count": None, "outcomes": []}
    outcomes = [outcome_json(o, sit) for o, sit in canonical_outcomes(res.outcomes)]
    body: dict = {"count": len(outcomes), "resolved": res.resolved}
    if len(outcomes) > options.max_results:
        body["status"] = "truncated"
        outcomes = outcomes[:options.max_results]
    body["outcomes"] = outcomes
    if res.unsupported:   # unread text that cannot change these outcomes (else the answer is refused)
        body["unread"] = list(res.unsupported)
    return body


def outcome_json(o: Outcome, situation: dict) -> dict:
    """The contract §2.7 entry of outcome ``o``, ``situation`` being its state written as a situation."""
    d: dict[str, Any] = {"choices": o.choices}
    if o.alternatives:
        d["alternatives"] = list(o.alternatives)
    if o.probability is not None:
        d["probability"] = float(o.probability)
        if o.alternatives:
            d["alternative_probabilities"] = [None if p is None else float(p) for p in o.alternative_probabilities]
    if o.losers:
        d["losers"] = list(o.losers)
    d["situation"] = situation
    return d
