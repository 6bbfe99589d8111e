"""The ``order`` query (contract §2.5; CR 614, 616).

Every distinct result of applying the replacement effects that modify one
event, in each order the affected object's controller may choose, with the
orders (ids of the effects' sources) leading to it — from the one ordering
mechanism, :mod:`solver.rules.replacement`.

Events:

* ``{kind: tap_for_mana, object: id}`` — the permanent is tapped for mana by
  its controller (CR 106.12b). Optional ``index`` (the mana ability, 1-based
  among its activated abilities; default: every mana ability with {T}) and
  ``mana`` (what the ability would produce before replacement, e.g.
  ``"{G}"``; default: every amount it may produce). ``result`` is the mana
  produced after replacement (triggered mana abilities such as Mana Flare are
  not replacement effects and are not included);
* ``{kind: counters, object: id, counter: "+1/+1", amount: n}`` — counters put
  on a permanent (CR 122.6);
* ``{kind: enter, object: id}`` — a spell on the stack becoming a permanent
  with the counters its "enters with" effects give it (X is the spell's
  ``x``, CR 107.3m; optional ``x`` overrides it).
"""
from __future__ import annotations

from ..rules.characteristics import View
from ..core.errors import QueryError
from ..core import ir
from ..core.ir import ManaAbility
from ..core.mana import Mana, ManaSyntaxError
from ..rules.mana_sources import could_produce, production_choices
from ..rules.replacement import EventOutcomes, counter_event, mana_event
from ..core.state import GameState
from . import Options, register

EVENT_KINDS = ("tap_for_mana", "counters", "enter")


def _object(state: GameState, event: dict, zone: str | None) -> str:
    oid = event.get("object")
    if not isinstance(oid, str):
        raise QueryError("", "event.object", f"expected an object id, got {oid!r}")
    o = state.find(oid)
    if o is None:
        what = "a player, not an object" if state.is_player(oid) else "no such object"
        raise QueryError("", "event.object", f"{oid!r}: {what}")
    if zone == "battlefield" and o.zone != "battlefield":
        raise QueryError("", "event.object", f"{oid!r} is not a permanent (it is in the {o.zone})")
    if zone == "stack" and (o.zone != "stack" or o.card is None):
        raise QueryError("", "event.object", f"{oid!r} is not a spell on the stack (it is in the {o.zone})")
    return oid


def _int(event: dict, key: str, default: int | None = None) -> int:
    v = event.get(key, default)
    if isinstance(v, bool) or not isinstance(v, int) or v < 0:
        raise QueryError("", f"event.{key}", f"expected a non-negative integer, got {v!r}")
    return v


def _tap_for_mana(state: GameState, view: View, event: dict, options: Options) -> tuple[list, str]:
    oid = _object(state, event, "battlefield")
    controller = state.obj(oid).controller
    acts = view.chars(oid).activated
    if "index" in event:
        index = _int(event, "index")
        if not 1 <= index <= len(acts):
            raise QueryError("", "event.index", f"{oid} has {len(acts)} activated abilities; no ability {index}")
        ab = acts[index - 1]
        if not isinstance(ab, ManaAbility) or not ab.cost.tap:
            raise QueryError("", "event.index", f"ability {index} of {oid} is not a mana ability with {{T}} "
                                                "(CR 106.12: only those tap a permanent for mana)")
        abilities = [ab]
    else:
        abilities = [a for a in acts if isinstance(a, ManaAbility) and a.cost.tap]
        if not abilities:
            raise QueryError("", "event.object", f"{oid} has no mana ability with {{T}} in its cost "
                                                 "(CR 106.12: it can't be tapped for mana)")
    if "mana" in event:
        try:
            produced = [Mana.parse(str(event["mana"]))]
        except ManaSyntaxError as e:
            raise QueryError("", "event.mana", str(e)) from None
    else:
        needs_cp = any(isinstance(a.produce, (ir.CouldProduce, ir.SacrificedCouldProduce)) for a in abilities)
        cp = could_produce(view, options.timeout) if needs_cp else {}
        produced = sorted({m for a in abilities for m in production_choices(view, oid, a.produce, cp)},
                          key=lambda m: m.counts)
    merged: dict = {}
    status = "ok"
    cut = False
    for m in produced:
        ev = mana_event(view, oid, controller, m, max_orders=options.max_results, timeout=options.timeout,
                        share=False)
        if ev.status != "ok":
            status = ev.status
        cut = cut or ev.truncated
        for r, orders in ev.results.items():
            merged.setdefault(r, set()).update(orders)
    out = []
    for r in sorted(merged, key=lambda r: (r.total, tuple(-c for c in r.counts))):
        orders = sorted(merged[r])
        # the same order may come from several amounts: the union is exact unless a listing was cut
        out.append(({"mana": r.text}, orders, len(orders) + (1 if cut else 0)))
    return out, status


def _counters(state: GameState, view: View, event: dict, options: Options, entering: bool) -> tuple[list, str]:
    if entering:
        oid = _object(state, event, "stack")
        x = _int(event, "x", state.obj(oid).x)
        ev: EventOutcomes = counter_event(view, oid, None, 0, True, x, max_orders=options.max_results,
                                          timeout=options.timeout)
    else:
        oid = _object(state, event, "battlefield")
        counter = event.get("counter")
        if not isinstance(counter, str) or not counter:
            raise QueryError("", "event.counter", f"expected a counter name such as '+1/+1', got {counter!r}")
        amount = _int(event, "amount", 1)
        ev = counter_event(view, oid, counter, amount, False, None, max_orders=options.max_results,
                           timeout=options.timeout)
    out = []
    for r in sorted(ev.results):
        out.append(({"counters": dict(r)}, ev.results[r], ev.order_counts[r]))
    return out, ev.status


@register("order")
def order(state: GameState, query: dict, options: Options) -> dict:
    event = query.get("event")
    if not isinstance(event, dict):
        raise QueryError("", "event", "expected an event mapping such as {kind: tap_for_mana, object: forest}")
    kind = event.get("kind")
    if kind not in EVENT_KINDS:
        raise QueryError("", "event.kind", f"unknown event kind {kind!r}; known: {', '.join(EVENT_KINDS)}")
    view = View.of(state)
    if kind == "tap_for_mana":
        outs, status = _tap_for_mana(state, view, event, options)
    else:
        outs, status = _counters(state, view, event, options, kind == "enter")
    truncated = False
    outcomes = []
    for result, orders, n in outs[:options.max_results]:
        if len(orders) < n:
            truncated = True
        outcomes.append({"result": result, "orders": [list(o) for o in orders[:options.max_results]]})
    if len(outs) > options.max_results:
        truncated = True
    if status == "ok" and truncated:
        status = "truncated"
    return {"status": status, "count": len(outs), "outcomes": outcomes}
