"""The ``targets`` query (contract §2.4; CR 115, 601.2c, 602.2b, 603.3d).

::

    query: {kind: targets, cast: shock}
    # or activate: {object: id, index: n} | trigger: {object: id, index: n} | spell: <stack id>
    # how: cast | activate | trigger | copy | change | random; player: who chooses
    # alternative: with cast, the alternative cost it is cast for (an overloaded spell has no
    # targets, CR 702.96b; a contract extension, as in pay and actions)

Result: ``{"count": n, "choices": [[[ids...] per slot] ...]}``, choices sorted,
``status: truncated`` (count still exact) when more than
``options.max_results`` choices exist, ``status: timeout`` when
``options.timeout`` struck first. A source with no target slots answers
``count: 1, choices: [[]]``.

Defaults: ``how`` is ``cast`` / ``activate`` / ``trigger`` for the three
first forms; for ``spell:`` it is the way the object's targets were first
chosen (``copy`` for a copy, else ``cast``, ``activate`` or ``trigger``).
``player`` defaults to the spell's or ability's controller. ``how`` must fit
the source: a spell takes ``cast``, an activated ability ``activate``, a
triggered ability ``trigger``, and any of them ``copy``, ``change`` or
``random``. Rules and interpretations: :mod:`solver.rules.targeting`.
"""
from __future__ import annotations

from ..rules.faces import cast_transformed, is_aftermath
from ..rules.characteristics import View
from ..core.errors import QueryError
from ..core.state import GameState
from ..rules.targeting import (HOWS, TargetingError, TargetingSource, activated_source, cast_source, stack_source,
                         targeting_problem, triggered_source)
from . import Options, register
from ..rules.casting_options import find_alternative
from mtgsolve.models.targets import enumerate_choices

FORMS = ("cast", "activate", "trigger", "spell")
KEYS = frozenset({"kind", "player", "how", "modes", "alternative"}) | frozenset(FORMS)


def _err(path: str, message: str) -> QueryError:
    return QueryError("", path, message)


def _ability_ref(query: dict, form: str) -> tuple[str, int]:
    ref = query[form]
    if not isinstance(ref, dict):
        raise _err(form, "expected a mapping {object: id, index: n}")
    unknown = sorted(set(ref) - {"object", "index"})
    if unknown:
        raise _err(f"{form}.{unknown[0]}", f"unknown key '{unknown[0]}' (expected object, index)")
    obj = ref.get("object")
    if not isinstance(obj, str):
        raise _err(f"{form}.object", "expected an object id")
    idx = ref.get("index", None)
    if idx is None:
        raise _err(f"{form}.index", "missing ability index (1-based)")
    if not isinstance(idx, int) or isinstance(idx, bool):
        raise _err(f"{form}.index", f"expected a positive integer, got {idx!r}")
    return obj, idx


def source_from_query(state: GameState, view: View, query: dict) -> TargetingSource:
    """The spell or ability a ``targets`` query names (raises :class:`QueryError`)."""
    unknown = sorted(set(query) - KEYS)
    if unknown:
        raise _err(unknown[0], f"unknown key '{unknown[0]}' for a targets query "
                               f"(expected one of {', '.join(FORMS)}, and optionally how, player, modes, "
                               "alternative)")
    given = [f for f in FORMS if f in query]
    if len(given) != 1:
        raise _err("", "a targets query needs exactly one of cast, activate, trigger, spell"
                       + (f" (got {', '.join(given)})" if given else ""))
    form = given[0]
    try:
        if form == "cast":
            cid = query["cast"]
            if not isinstance(cid, str):
                raise _err("cast", "expected the id of a card in hand")
            o = state.find(cid)
            if o is None:
                raise _err("cast", f"no object with id '{cid}'")
            # CR 715.3d: the creature of a card on an adventure; 702.127a: an aftermath half (face) from a graveyard
            if o.zone != "hand" and not (o.zone == "exile" and (o.on_adventure or o.may_play is not None)) and \
                    not (o.zone == "graveyard" and is_aftermath(o.card) and o.front is not None) and \
                    not cast_transformed(o):   # 702.146a: a disturb card's back face (face) from a graveyard
                raise _err("cast", f"'{cid}' is not in a hand (it is in the {o.zone}); "
                                   "use spell: for a spell on the stack")
            alt = query.get("alternative", "") or ""
            if not isinstance(alt, str):
                raise _err("alternative", f"expected the name of an alternative cost, got {alt!r}")
            if alt:
                if find_alternative(o, alt) is None:
                    raise _err("alternative", f"{o.name} has no alternative cost {alt!r}")
            return cast_source(view, cid, alt)
        if form == "spell":
            sid = query["spell"]
            if not isinstance(sid, str):
                raise _err("spell", "expected the id of a spell or ability on the stack")
            return stack_source(view, sid)
        obj, idx = _ability_ref(query, form)
        if state.find(obj) is None:
            raise _err(f"{form}.object", f"no object with id '{obj}'")
        if form == "activate":
            return activated_source(view, obj, idx)
        return triggered_source(view, obj, idx)
    except TargetingError as e:
        raise _err(e.field, e.message) from None


@register("targets")
def targets_query(state: GameState, query: dict, options: Options) -> dict:
    """Every legal choice of targets (contract §2.4)."""

    view = View.of(state)
    source = source_from_query(state, view, query)
    how = query.get("how", source.default_how)
    if how not in HOWS:
        raise _err("how", f"unknown how '{how}' (expected one of {', '.join(HOWS)})")
    allowed = source.allowed_hows()
    if how not in allowed:
        kind = {"spell": "a spell", "activated": "an activated ability", "triggered": "a triggered ability"}[source.kind]
        raise _err("how", f"'{how}' does not fit {kind} (expected one of {', '.join(allowed)})")
    player = query.get("player", source.controller)
    if not isinstance(player, str) or not state.is_player(player):
        raise _err("player", f"'{player}' is not a player (players: {', '.join(state.player_ids)})")
    if source.modal is not None or "modes" in query:  # a modal spell or ability (CR 700.2): solver/rules/modes.py
        from .targets_modes import modal_targets
        return modal_targets(view, source, query, player, how, options)
    problem = targeting_problem(view, source, chooser=player, how=how)
    ans = enumerate_choices(problem, max_results=options.max_results, time_limit=options.timeout)
    out: dict = {"count": ans.count, "choices": [[list(ids) for ids in choice] for choice in ans.choices]}
    if ans.timed_out:
        out["status"] = "timeout"
    elif ans.truncated:
        out["status"] = "truncated"
    return out
