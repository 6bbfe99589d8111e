"""One distinct payment of a total cost, and the ``pay`` question's whole answer, as typed
values (contract §2.3; CR 601.2f–h, 602.2b, 118.9).

* :class:`CostPayment` — a payment: the payment model's part (:class:`models.payment.Paid`:
  mana abilities, life, damage, the model's sacrifice, delve's exiled cards) and the cards and
  permanents a casting mode's costs choose outside the model (:mod:`solver.payment.casting`);
  :meth:`CostPayment.move` is the API's typed move of it (:class:`solver.core.moves.Payment`);
* :class:`PayOutcome` — everything the ``pay`` query reports.

The contract's JSON objects of them are written by the query layer
(:mod:`solver.queries.payments`); nothing here is formatted.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from mtgsolve.models.payment import Paid, mana_text

from ..core.moves import Payment

__all__ = ["CHOSEN_KEYS", "CostPayment", "PayOutcome"]

# the parts a casting mode's costs choose; ``tap``: the creatures a crew cost taps (CR 702.122a)
CHOSEN_KEYS = ("exile", "discard", "sacrifice", "return", "tap")


@dataclass(frozen=True)
class CostPayment:
    """One distinct payment (contract §2.3).

    ``paid``: the payment model's part. ``chosen``: the casting mode's choices outside the
    model (CR 601.2b, 601.2h), one ``(key, ids)`` per part of the mode's cost in the mode's
    order, ``key`` one of :data:`CHOSEN_KEYS` (``return``: permanents returned to their
    owner's hand). ``exile_last`` is no part of the payment (not compared): the pay query
    writes ``exile`` after every other key for the payments delve's counting DP lists
    (:mod:`models.payment_delve`), the order that answer has always had."""

    paid: Paid
    chosen: tuple[tuple[str, tuple[str, ...]], ...] = ()
    exile_last: bool = field(default=False, compare=False)

    @property
    def x(self) -> int:
        return self.paid.x

    def ids(self, key: str) -> tuple[str, ...]:
        """Every id of one part (``exile``, ``discard``, ``sacrifice``, ``return``), sorted:
        the model's and the mode's choices together."""
        own: tuple[str, ...] = {"exile": self.paid.exile, "sacrifice": self.paid.sacrifice,
                                 "tap": self.paid.tap}.get(key, ())
        chosen = [i for k, ids in self.chosen if k == key for i in ids]
        return tuple(sorted([*own, *chosen])) if chosen else own

    def sort_key(self) -> tuple:
        """The pay query's order (contract §2: sorted lists): the model's order of the payment
        with the mode's sacrifices and exiled cards merged in, then the cards exiled,
        discarded and the permanents returned."""
        merged = replace(self.paid, sacrifice=self.ids("sacrifice"), exile=self.ids("exile"), tap=self.ids("tap"))
        return (merged.sort_key(), list(self.ids("exile")), list(self.ids("discard")), list(self.ids("return")))

    def move(self) -> Payment:
        """The API's typed move of this payment (its X is the :class:`~solver.core.moves.Action`'s)."""
        p = self.paid
        return Payment(self.ids("tap"), p.untap, self.ids("sacrifice"), p.life, p.damage,
                       ((p.player, mana_text(p.pool_after)),),
                       tuple((oid, ((name, n),)) for oid, name, n in p.remove_counters),
                       tuple((p.player, mana_text(amounts), text) for text, amounts in p.restricted_after),
                       p.skip_untap, p.add_counters, p.life_gained, p.life_lost, p.draw, p.activated,
                       self.ids("exile"), self.ids("discard"), self.ids("return"))


@dataclass
class PayOutcome:
    """Everything the ``pay`` query reports (contract §2.3), as typed values.

    ``status``: ``ok`` | ``truncated`` | ``timeout`` | ``error`` (with ``error``);
    ``payable`` and ``count`` are ``None`` when undecided (timeout, or a listing cut
    before the count is known); ``x_values``/``x_max`` are given (``x_values`` not
    ``None``) when X was left free; ``reason`` (a rules explanation citing the CR) when
    nothing pays the cost."""

    status: str = "ok"
    payable: bool | None = None
    count: int | None = None
    payments: list[CostPayment] = field(default_factory=list)
    x_values: list[int] | None = None
    x_max: int | None = None
    reason: str | None = None
    error: str | None = None

    @classmethod
    def unsupported(cls, e: Exception) -> "PayOutcome":
        return cls(status="error", error=f"unsupported: {e}")
