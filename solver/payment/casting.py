"""Paying a total cost that has a casting mode's costs (CR 601.2b, 601.2f–h, 118.9): the
choices of cards and permanents those costs add, and every payment of the whole cost
(the modes themselves, :class:`~solver.rules.casting_options.Extra` and
:func:`~solver.rules.casting_options.apply_mode`, are :mod:`solver.rules.casting_options`).

Payments (contract §2.3, with the extension keys ``exile``, ``discard`` and
``return``: :class:`~solver.payment.paid.CostPayment`)
    Mana, life and one sacrifice are paid through the payment model (a
    sacrificed permanent may have been tapped for mana first, CR 601.2g–h).
    The other parts are choices of cards and permanents made independently of
    the mana: which cards to exile from the hand (Force of Will: "a blue card";
    the spell itself is on the stack, CR 601.2a, so it is not among them) or
    from the graveyard (escape: "other cards"), which cards to discard, which
    permanents to return to their owner's hand or sacrifice when the cost
    needs two of them (Fireblast) or more than one kind of permanent
    ("an artifact or creature" in one sacrifice is read by the model).
    Interchangeable cards count once, as everywhere: exiling the first or the
    second of two Brainstorms from a hand is one payment. The number of
    payments is the product of the mana payments and each part's choices.

    Independence is checked, never assumed: a card choice from the hand when a
    mana ability of the player draws cards, a graveyard choice when a payment
    can sacrifice permanents (they would be in the graveyard by then), a
    permanent choice made outside the model when the mode also costs mana,
    and two choices from one zone are all :class:`~solver.core.errors.UnsupportedCase`.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, replace
from typing import Any, Iterator

from mtgsolve.models.multisets import multiset_count, multisets
from mtgsolve.models.payment import Paid

from ..core import ir
from ..rules.casting_options import Extra
from ..rules.characteristics import View
from ..core.errors import UnsupportedCase
from ..rules.mana_sources import card_classes
from .paid import CostPayment, PayOutcome
from .words import explain
from .problem import build_problem, delve_sacrifice_check
from ..rules.costs import sacrifice_phrase
from mtgsolve.models import payment as pm
from mtgsolve.models.payment_count import counter_for as payment_counter


# ---------------------------------------------------------------------------
# Choices of cards and permanents
# ---------------------------------------------------------------------------

@dataclass(frozen=True)
class _Part:
    key: str                       # the payment key: exile, discard, return, sacrifice
    classes: tuple[tuple[str, ...], ...]
    n: int

    def count(self) -> int:
        return multiset_count([len(c) for c in self.classes], self.n)

    def choices(self) -> Iterator[list[str]]:
        for pick in multisets([len(c) for c in self.classes], self.n):
            yield sorted(i for c, k in zip(self.classes, pick) for i in c[:k])


#: The most combinations of creatures a crew cost is listed over (beyond: ``UnsupportedCase``).
CREW_LIMIT = 100_000


@dataclass(frozen=True)
class _CrewPart:
    """"Crew N" (CR 702.122a): any number of other untapped creatures the player controls with total
    power N or greater, tapped — every such set once, interchangeable creatures (one class) once.
    ``classes``: per class of untapped creatures, its members (the source left out) and their power."""

    classes: tuple[tuple[tuple[str, ...], int], ...]
    n: int
    key: str = "tap"

    def _picks(self) -> Iterator[tuple[int, ...]]:
        for pick in itertools.product(*(range(len(m) + 1) for m, _ in self.classes)):
            if sum(k * p for k, (_, p) in zip(pick, self.classes)) >= self.n:
                yield pick

    def count(self) -> int:
        return sum(1 for _ in self._picks())

    def choices(self) -> Iterator[list[str]]:
        for pick in self._picks():
            yield sorted(i for (m, _), k in zip(self.classes, pick) for i in m[:k])


def _crew_part(problem: Any, view: View, ex: Extra) -> _CrewPart:
    """The crew part of ``ex`` over the problem's classes (CR 702.122a: "other": not the source)."""
    classes = []
    for pc in problem.classes:
        members = tuple(m for m in pc.members if m != ex.spell)
        if pc.tapped or not members or not view.chars(members[0]).is_creature:
            continue
        power = view.chars(members[0]).power
        if power is None or power < 0:
            raise UnsupportedCase(f"{view.chars(members[0]).name}: crewing with a creature of negative or no power "
                                  "is not modeled")
        classes.append((members, power))
    size = 1
    for m, _ in classes:
        size *= len(m) + 1
    if size > CREW_LIMIT:
        raise UnsupportedCase(f"crew: more than {CREW_LIMIT} combinations of creatures to list")
    return _CrewPart(tuple(classes), ex.crew)


def _perm_fits(view: View, player: str, oid: str, sels: tuple[ir.Selector, ...], color: str = "",
               source: str = "", power: int = 0) -> bool:
    """Does the permanent fit one of the selectors? ``source``: the permanent whose ability's cost it is
    ("another creature": not the source itself, CR 109.5); "" for a spell's cost. ``color``: it has that
    color; ``power``: its power now is that or greater (casualty N, CR 702.153a, 208.1)."""
    src = view.state.find(source) if source else None
    if src is not None and src.zone != "battlefield":
        src = None
    if power and (view.chars(oid).power or 0) < power:
        return False
    return any(view.matches(s, oid, src, player) for s in sels) and (not color or color in view.chars(oid).colors)


def _perm_classes(problem: Any, view: View, player: str, sels: tuple[ir.Selector, ...],
                  color: str = "", source: str = "", power: int = 0) -> list[tuple[str, ...]]:
    return [tuple(pc.members) for pc in problem.classes
            if _perm_fits(view, player, pc.members[0], sels, color, source, power)]


def _outside_parts(view: View, player: str, ex: Extra, problem: Any) -> list[_Part | _CrewPart]:
    parts: list[_Part | _CrewPart] = []
    if ex.exile_hand:
        parts.append(_Part("exile", tuple(map(tuple, card_classes(view, player, "hand", ex.spell,
                                                                  color=ex.exile_hand_color))), ex.exile_hand))
    if ex.discard:
        parts.append(_Part("discard", tuple(map(tuple, card_classes(view, player, "hand", ex.spell,
                                                                    card_type=ex.discard_type))), ex.discard))
    if ex.exile_graveyard:
        parts.append(_Part("exile", tuple(map(tuple, card_classes(view, player, "graveyard", ex.spell,
                                                                  card_type=ex.exile_graveyard_type))),
                           ex.exile_graveyard))
    if ex.sacrifice_count:
        parts.append(_Part("sacrifice", tuple(_perm_classes(problem, view, player, ex.sacrifice, ex.sacrifice_color,
                                                            ex.spell, ex.sacrifice_power)), ex.sacrifice_count))
    if ex.return_count:
        parts.append(_Part("return", tuple(_perm_classes(problem, view, player, ex.return_, source=ex.spell)),
                           ex.return_count))
    if ex.crew:
        parts.append(_crew_part(problem, view, ex))
    return parts


# ---------------------------------------------------------------------------
# Paying
# ---------------------------------------------------------------------------

def _problem(view: View, player: str, tc: Any):
    """The payment model's problem for the model's part of ``tc`` (mana, life, one sacrifice),
    with the independence checks of the module docstring."""

    ex: Extra = tc.extra
    base = replace(tc, extra=None)
    problem = build_problem(view, player, base)
    if ex.model_sacrifice:
        classes = tuple(c for c, pc in enumerate(problem.classes)
                        if _perm_fits(view, player, pc.members[0], ex.model_sacrifice, ex.sacrifice_color, ex.spell,
                                      ex.sacrifice_power))
        color = {"W": "white ", "U": "blue ", "B": "black ", "R": "red ", "G": "green "}.get(ex.sacrifice_color, "")
        text = color + " or ".join(_noun(s) for s in ex.model_sacrifice) + (
            f" with power {ex.sacrifice_power} or greater" if ex.sacrifice_power else "")
        problem = replace(problem, main=replace(problem.main, sacrifice_classes=classes,
                                                sacrifice_text=("an " if text[0] in "aeiou" else "a ") + text))
    if ex.model_sacrifice and problem.main.delve_classes:
        delve_sacrifice_check(view, player, problem.main.sacrifice_classes or (), list(problem.classes))
    if (ex.exile_hand or ex.discard) and "draw" in problem.effects:
        raise UnsupportedCase("a card cost from the hand while a mana ability would draw cards "
                              "(the drawn card could be chosen) is not modeled")
    if ex.exile_graveyard and problem.main.delve_classes:
        raise UnsupportedCase("exiling cards from the graveyard for both a cost and delve (the same card "
                              "could be chosen twice) is not modeled")
    if ex.crew and (base.mana or base.tap or base.untap or base.life or base.sacrifice_self or base.sacrifice
                    or base.tap_creatures or base.remove_counters or ex.outside_other_than_crew):
        raise UnsupportedCase("a crew cost with other costs (the creatures could be tapped for mana or "
                              "chosen twice) is not modeled")
    if ex.exile_graveyard and (base.sacrifice_self or base.discard_self or ex.discard or ex.sacrifice_count):
        raise UnsupportedCase("exiling cards from the graveyard while the same cost sacrifices or discards "
                              "(the card could reach the graveyard first and be exiled, CR 601.2h) is not modeled")
    if ex.exile_graveyard and (problem.main.sacrifice_classes is not None
                               or any(a.sac_self or a.sac_cls is not None for a in problem.abilities)):
        raise UnsupportedCase("exiling cards from the graveyard while the payment may sacrifice permanents "
                              "(they could be exiled too, CR 601.2h) is not modeled")
    if (ex.sacrifice_count or ex.return_count) and (
            any(s.kind != "generic" or s.generic for s in base.mana.symbols) or base.x is None or base.x
            or problem.main.sacrifice_classes is not None):
        raise UnsupportedCase("sacrificing or returning permanents together with a mana payment or another "
                              "sacrifice is not modeled")
    return problem


def _noun(s: ir.Selector) -> str:
    return sacrifice_phrase(s).split(" ", 1)[1]


def _model_keys(problem: Any, limit: int | None = None, deadline: float | None = None) -> tuple[list[Paid], bool]:
    """The distinct payments of the model's part (decoded), and whether the listing is complete."""

    counter = payment_counter(problem)
    if counter is not None:
        keys = list(counter.keys(limit))
        return [pm.decode(problem, k) for k in keys], limit is None or counter.count() <= limit
    res = pm.PaymentModel(problem).enumerate(limit, deadline)
    if res.timed_out:
        raise TimeoutError("time limit reached listing payments")
    return [pm.decode(problem, k) for k in res.keys], res.complete


def _model_count(problem: Any, deadline: float | None = None) -> int:
    counter = payment_counter(problem)
    if counter is not None:
        return counter.count()
    pays, _ = _model_keys(problem, None, deadline)
    return len(pays)


def count(view: View, player: str, tc: Any, deadline: float | None = None) -> int:
    """The exact number of distinct payments of ``tc`` (a TotalCost with ``extra``)."""
    if tc.what == "cast" and not tc.mana:
        return 0
    problem = _problem(view, player, tc)
    n = 1
    for part in _outside_parts(view, player, tc.extra, problem):
        n *= part.count()
        if not n:
            return 0
    return n * _model_count(problem, deadline)


def payable(view: View, player: str, tc: Any, deadline: float | None = None) -> bool:
    """Can ``tc`` be paid at all? (the outside parts first: no solve when one has no choice)."""

    if tc.what == "cast" and not tc.mana:
        return False
    problem = _problem(view, player, tc)
    if any(p.count() == 0 for p in _outside_parts(view, player, tc.extra, problem)):
        return False
    left = None if deadline is None else max(deadline - __import__("time").monotonic(), 0.001)
    verdict = pm.decide(problem, left)
    if verdict is None:
        raise TimeoutError("time limit reached deciding a payment")
    return bool(verdict)


def payments(view: View, player: str, tc: Any, limit: int | None = None,
             deadline: float | None = None) -> tuple[int, list[CostPayment]]:
    """``(count, payments)``: the exact number of distinct payments and the first
    ``limit`` of them in the pay query's order (contract §2.3; each with the cards and
    permanents the casting mode's costs choose, :attr:`CostPayment.chosen`)."""
    if tc.what == "cast" and not tc.mana:
        return 0, []
    problem = _problem(view, player, tc)
    parts = _outside_parts(view, player, tc.extra, problem)
    outside = 1
    for part in parts:
        outside *= part.count()
    if not outside:
        return 0, []
    base, _ = _model_keys(problem, None, deadline)
    total = len(base) * outside
    rows = [CostPayment(p, tuple((part.key, tuple(ids)) for part, ids in zip(parts, combo)))
            for p in base for combo in itertools.product(*(list(part.choices()) for part in parts))]
    rows.sort(key=CostPayment.sort_key)
    return total, rows if limit is None else rows[:limit]


def pay_result(view: View, player: str, tc: Any, max_results: int | None, deadline: float | None) -> PayOutcome:
    """The ``pay`` query's answer for a total cost with ``extra`` (contract §2.3)."""
    try:
        n, pays = payments(view, player, tc, max_results, deadline)
    except TimeoutError:
        return PayOutcome("timeout", None, None, [])
    out = PayOutcome("ok" if max_results is None or n <= max_results else "truncated", n > 0, n, pays)
    if tc.x is None:
        out.x_values = sorted({p.x for p in pays})
        out.x_max = max(out.x_values) if out.x_values else None
    if not n:
        out.reason = reason(view, player, tc)
    return out


def reason(view: View, player: str, tc: Any) -> str:
    """Why the total cost can't be paid, in one sentence."""
    if tc.what == "cast" and not tc.mana:
        return f"{tc.subject} has no mana cost, so it can't be cast by paying one (CR 118.6)"
    problem = _problem(view, player, tc)
    ex: Extra = tc.extra
    for part in _outside_parts(view, player, ex, problem):
        if isinstance(part, _CrewPart) and part.count() == 0:
            total = sum(len(m) * p for m, p in part.classes)
            return (f"crew {part.n} needs other untapped creatures with total power {part.n} or greater "
                    f"(CR 702.122a); {player}'s have {total}")
        if part.count() == 0:
            assert isinstance(part, _Part)
            have = sum(len(c) for c in part.classes)
            what = {"exile": "cards to exile", "discard": "cards to discard", "return": "permanents to return",
                    "sacrifice": "permanents to sacrifice"}[part.key]
            return f"the cost needs {part.n} {what} ({ex.text or 'its cost'}); {player} has {have} that qualify"
    return explain(problem, None)
