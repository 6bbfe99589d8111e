"""The ``could_produce`` query (contract §2.1; CR 106.7).

For each permanent asked about (default: every permanent), the types of mana
it could produce, in W U B R G C order, from :func:`solver.rules.mana_sources.could_produce`
(the least fixed point decided by :mod:`models.producible`).
"""
from __future__ import annotations

from ..rules.characteristics import View
from ..core.errors import QueryError
from ..core.mana import canonical_types
from ..rules.mana_sources import could_produce as could_produce_all
from ..core.state import GameState
from . import Options, register


def object_list(state: GameState, query: dict, key: str = "objects") -> list[str] | None:
    """The permanents named by ``query[key]`` (None when absent), validated."""
    if key not in query or query[key] is None:
        return None
    objs = query[key]
    if isinstance(objs, str):
        objs = [objs]
    if not isinstance(objs, list):
        raise QueryError("", key, f"expected a list of permanent ids, got {objs!r}")
    out = []
    for i, oid in enumerate(objs):
        o = state.find(oid) if isinstance(oid, str) else None
        if o is None:
            what = "a player, not a permanent" if isinstance(oid, str) and state.is_player(oid) else "no such object"
            raise QueryError("", f"{key}[{i}]", f"{oid!r}: {what}")
        if o.zone != "battlefield":
            raise QueryError("", f"{key}[{i}]", f"{oid!r} is not a permanent (it is in the {o.zone})")
        out.append(oid)
    return out


@register("could_produce")
def could_produce(state: GameState, query: dict, options: Options) -> dict:
    objs = object_list(state, query)
    view = View.of(state)
    try:
        cp = could_produce_all(view, options.timeout)
    except TimeoutError:
        return {"status": "timeout", "could_produce": None}
    ids = objs if objs is not None else [o.id for o in view.permanents]
    out: dict = {"could_produce": {oid: canonical_types(cp[oid]) for oid in sorted(ids)}}
    return out
