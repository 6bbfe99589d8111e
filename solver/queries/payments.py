"""The contract's payment objects (contract §2.3), written from the typed payments of the
rules layer: the ``pay`` query's ``payments``, and anyone else (API, apps) that reports one.

* :func:`paid_object` — the object of the payment model's part (:class:`models.payment.Paid`);
* :func:`payment_object` — the object of a :class:`~solver.payment.paid.CostPayment`, with the
  cards and permanents a casting mode's costs chose (the extension keys ``exile``,
  ``discard``, ``return``; more permanents under ``sacrifice``);
* :func:`outcome_result` — the contract fields of a :class:`~solver.payment.paid.PayOutcome`.

Key order is the pay query's, kept byte for byte: ``tap``, ``untap``, ``sacrifice``,
``life``, ``damage``, ``x``, ``pool_after`` always (the paying player's pool even when
empty); the extension keys only when not empty. The API's move (:meth:`solver.core.moves.Payment.to_json`)
writes the same payment with another order (every pool, only when not empty; ``exile``
last) — see :func:`payment_object`.
"""
from __future__ import annotations

from typing import Any, Iterable

from mtgsolve.models.payment import Paid, mana_text

from ..payment.paid import CostPayment, PayOutcome

__all__ = ["outcome_result", "paid_object", "payment_object"]


def _ids_map(uses: Iterable[tuple[str, tuple[tuple[Any, int], ...]]]) -> dict[str, dict[str, int]]:
    return {oid: {str(k): n for k, n in sorted(cs, key=lambda kn: str(kn[0]))} for oid, cs in uses}


def paid_object(p: Paid, exile_last: bool = False) -> dict:
    """The contract §2.3 payment object of ``p``: ``tap``, ``untap``, ``sacrifice``, ``life``,
    ``damage``, ``x``, ``pool_after`` always; the extension keys only when not empty, in the
    order the pay query has always written them (``exile`` after ``remove_counters``, or last
    when ``exile_last``: the listing of delve's counting DP; counters put as a cost after the
    cards drawn when no rider added counters)."""
    out: dict[str, Any] = {"tap": list(p.tap), "untap": list(p.untap), "sacrifice": list(p.sacrifice),
                           "life": p.life, "damage": p.damage, "x": p.x, "pool_after": {p.player: mana_text(p.pool_after)}}
    if p.remove_counters:
        out["remove_counters"] = {oid: {name: n} for oid, name, n in p.remove_counters}
    if p.exile and not exile_last:
        out["exile"] = list(p.exile)       # delve (CR 702.66a): the first cards of each class, in zone order
    if p.skip_untap:
        out["skip_untap"] = list(p.skip_untap)
    if p.counters_added:
        out["add_counters"] = _ids_map(p.add_counters)
    if p.draw:
        out["draw"] = p.draw
    if p.counters_put and not p.counters_added:
        out["add_counters"] = _ids_map(p.add_counters)
    if p.activated:
        out["activated"] = _ids_map(p.activated)
    if p.life_gained:
        out["life_gained"] = dict(p.life_gained)
    if p.life_lost:
        out["life_lost"] = dict(p.life_lost)
    if p.restricted_after:
        # restricted mana left in the pool keeps its restriction (CR 106.6): listed apart from pool_after
        out["restricted_pool_after"] = {p.player: [{"mana": mana_text(amounts), "restriction": text}
                                                   for text, amounts in p.restricted_after]}
    if p.exile and exile_last:
        out["exile"] = list(p.exile)
    return out


def payment_object(cp: CostPayment) -> dict:
    """The contract §2.3 payment object of ``cp``: :func:`paid_object` of its model part, then
    each of the casting mode's choices in the mode's order — merged into ``sacrifice`` (or an
    ``exile`` already there), else a key of its own after the others.

    One writer for this object and :meth:`~solver.core.moves.Payment.to_json` would need one
    key order: they differ in where ``exile`` goes, whether the payer's empty pool is written
    and the order of ``restricted_pool_after``, the riders and ``draw`` — merging them changes
    the bytes of either the pay answers or the API's moves."""
    out = paid_object(cp.paid, cp.exile_last)
    for key, ids in cp.chosen:
        out[key] = sorted(list(out.get(key, [])) + list(ids))
    return out


def outcome_result(o: PayOutcome) -> dict:
    """The contract §2.3 fields of an outcome, in the contract's order."""
    if o.status == "error":
        return {"status": "error", "error": o.error}
    out: dict[str, Any] = {"status": o.status, "payable": o.payable, "count": o.count,
                           "payments": [payment_object(p) for p in o.payments]}
    if o.x_values is not None:
        out["x_values"] = o.x_values
        out["x_max"] = o.x_max
    if o.reason is not None:
        out["reason"] = o.reason
    return out
