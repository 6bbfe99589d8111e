"""The ``targets`` query for a modal spell or ability (CR 700.2, 601.2b–c; docs/targets.md "Modes").

Not a query kind of its own: :mod:`solver.queries.targets` hands modal sources here.

::

    query: {kind: targets, cast: kolaghans-command}              # every legal selection of modes
    query: {kind: targets, cast: kolaghans-command, modes: [2, 4]}  # the modes fixed (1-based, printed order)
    query: {kind: targets, spell: kolaghans-command}  # on the stack: the modes its object key ``modes`` records

Result (contract §2.4 shape, plus two extension fields):

* ``count``: the number of legal (modes, targets) choices — the sum over legal
  selections of their numbers of target choices (each counted without listing);
* ``choices``: the choices of targets, one entry per instance of "target" in the
  chosen modes, in printed order (a mode without targets contributes none);
* ``modes``: parallel to ``choices``, the selection (sorted 1-based mode
  numbers) each choice belongs to; the pairs are sorted by (modes, choice);
* ``by_modes``: ``[{modes, count}]`` for every legal selection (count > 0), sorted.

A selection is legal only when every chosen mode has a legal choice of targets
(CR 700.2a–b). With ``modes`` given, only that selection is answered (count 0
when it can't be chosen); a selection the text does not allow (wrong number of
modes, a mode twice without "you may choose the same mode more than once", no
such mode) is a query error. ``modes`` on a source without modes is an error.
Over ``max_results`` choices: ``status: truncated``, ``count`` and ``by_modes``
exact, the listing the first selections' choices in order.
"""
from __future__ import annotations

import time

from ..rules.characteristics import View
from ..core.errors import QueryError, UnsupportedCase
from ..rules.modes import selection_error, with_modes
from ..rules.targeting import TargetingSource, mode_selection_counts, targeting_problem
from . import Options
from mtgsolve.models.targets import count_choices, enumerate_choices


def modal_targets(view: View, source: TargetingSource, query: dict, player: str, how: str, options: Options) -> dict:
    """The body of a ``targets`` result for a modal source (module docstring)."""

    mc = source.modal
    if mc is None:
        raise QueryError("", "modes", "this spell or ability has no modes (CR 700.2); drop 'modes'")
    if "modes" not in query and "spell" in query:
        # the modes of a spell or ability on the stack were chosen when it was put there (CR 700.2a-b,
        # 700.2g for copies): the object key ``modes`` records them; without it, never guess
        if source.selection is None:
            raise UnsupportedCase("the modes chosen for a modal spell or ability on the stack are not part of "
                                  "the situation; give them with the object key modes or the query's "
                                  "modes: [..] (CR 700.2)")
        counts = [(source.selection, count_choices(targeting_problem(view, source, player, how)))]
    elif "modes" in query:
        sel = query["modes"]
        why = selection_error(mc, sel)
        if why is not None:
            raise QueryError("", "modes", why)
        sel = tuple(sorted(sel))
        counts = [(sel, count_choices(targeting_problem(view, with_modes(source, sel), player, how)))]
    else:
        counts = mode_selection_counts(view, source, player, how)
    legal = [(sel, n) for sel, n in counts if n > 0]
    total = sum(n for _, n in legal)
    deadline = None if options.timeout is None else time.perf_counter() + options.timeout
    limit = options.max_results
    choices: list[list[list[str]]] = []
    modes: list[list[int]] = []
    truncated = timed_out = False
    for sel, n in legal:
        room = None if limit is None else limit - len(choices)
        if room is not None and room <= 0:
            truncated = True
            break
        left = None if deadline is None else max(0.001, deadline - time.perf_counter())
        ans = enumerate_choices(targeting_problem(view, with_modes(source, sel), player, how),
                                max_results=room, time_limit=left)
        choices.extend([list(ids) for ids in ch] for ch in ans.choices)
        modes.extend([list(sel)] * len(ans.choices))
        if ans.timed_out:
            timed_out = True
            break
        if ans.truncated:
            truncated = True
            break
    out: dict = {"count": total, "choices": choices, "modes": modes,
                 "by_modes": [{"modes": list(sel), "count": n} for sel, n in legal]}
    if timed_out:
        out["status"] = "timeout"
    elif truncated:
        out["status"] = "truncated"
    return out
