"""Replacement effects on events: which apply, what they do, and every result
of applying them in the orders the rules allow (CR 614, 616).

This is the one mechanism every query uses when replacement effects modify an
event (``order``, ``could_produce``, ``available_mana``, ``pay``, ``resolve``):

* a permanent tapped for mana (CR 106.12b): :class:`~solver.core.ir.ManaReplacement`
  — Mana Reflection and Nyxbloom Ancient (twice / three times as much of that
  mana), Contamination ({B} instead of any other type *and amount*), Pale Moon
  and Deep Water (a type instead of any other type, amount kept);
* counters being put on a permanent (CR 122.6): :class:`~solver.core.ir.CounterReplacement`
  — Doubling Season (twice that many), Hardened Scales (that many plus one);
* a spell becoming a permanent that "enters with N counters"
  (:class:`~solver.core.ir.EntersWith`, CR 614.1c), N = the spell's X (CR 107.3m).

The ordering rules (CR 616.1) are enforced by the CP-SAT sequence model of
:mod:`models.ordering`: self-replacement effects first (616.1a; the
"enters with" effects of the entering object itself are put in that class),
then any order (616.1e); applicability re-checked after each application
(616.1f), so an effect that needs mana (or counters) to modify applies only
while the event still has some, and one may become applicable only after
another (616.2, Hardened Scales after "enters with X counters"); each effect at
most once (614.5).

Orders are reported as tuples of the ids of the effects' sources (for effects
of resolved spells listed under a situation's ``effects``, the source named by
the characteristics view). Identical effects (same ability and controller, e.g.
two Mana Reflections) are distinct effects whose orders give the same result;
the model treats them as one class with a count, and the orders are expanded
here.
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import permutations, product
from math import factorial
from typing import Any, Iterable, cast

from mtgsolve.models.ordering import EffectClass, Op, OrderingProblem, replay, solve_orderings

from .conditions import condition_holds
from .characteristics import View
from .sagas import is_saga
from .faces import cast_as
from ..core.card import Card
from ..core.ir import Ability, Count, CounterReplacement, EntersWith, ManaReplacement
from ..core.mana import TYPES, Mana

RANK_SELF = 0       # CR 616.1a (self-replacement; here also the entering object's own "enters with")
RANK_CONTROL = 1    # CR 616.1b
RANK_COPY = 2       # CR 616.1c
RANK_BACK_FACE = 3  # CR 616.1d
RANK_OTHER = 4      # CR 616.1e

ALL_MANA_DIMS = tuple(range(len(TYPES)))

CounterResult = tuple[tuple[str, int], ...]
"""Counters on the object after the event: sorted ``(counter, n)`` pairs, zeros dropped."""


@dataclass(frozen=True)
class AppliedEffect:
    """One replacement effect that may modify one event.

    ``label``: id of its source (what orders list); ``identity``: effects with
    equal identity are interchangeable for this event; ``rank``: CR 616.1 class;
    ``op``/``cond``: its operation and applicability condition on the event's
    state (see :mod:`models.ordering`)."""

    label: str
    identity: tuple
    rank: int
    op: Op
    cond: tuple[int, ...] | None


@dataclass
class EventOutcomes:
    """Every distinct result of an event with the orders leading to it.

    ``results`` maps a result (a :class:`Mana` or a :data:`CounterResult`) to
    its sorted orders; ``order_counts`` the exact number of orders per result
    (``results`` may list fewer when ``max_orders`` cut it); ``status``: ``ok``
    or ``timeout``."""

    results: dict
    order_counts: dict
    status: str = "ok"

    @property
    def truncated(self) -> bool:
        return any(len(self.results[r]) < self.order_counts[r] for r in self.results)


# ---------------------------------------------------------------------------
# Which effects apply to which event (the static part of applicability)
# ---------------------------------------------------------------------------


def mana_effects(view: View, tapped_id: str, tapper: str) -> list[AppliedEffect]:
    """Replacement effects that modify the event "``tapper`` taps ``tapped_id``
    for mana" (CR 106.12b), whatever the mana: the tapped permanent must match
    the effect's description (seen from the effect's controller: "a land",
    "a nonbasic land", "a land you control", "a permanent") and the tapping
    player its ``tapper`` ("you tap" / "a player taps").

    Each needs the event to produce mana at all (condition on the total), which
    the sequence model re-checks at every step (CR 616.1f)."""
    out: list[AppliedEffect] = []
    for s in view.mana_replacements:
        ab: ManaReplacement = s.ability
        if ab.tapper == "you" and tapper != s.controller:
            continue
        src = view.state.find(s.source)
        if not view.matches(ab.tapped, tapped_id, src, s.controller):
            continue
        if ab.op == "multiply":
            op = Op("scale", dims=ALL_MANA_DIMS, factor=ab.factor)
        elif ab.op == "set_type":
            op = Op("collapse", target=TYPES.index(ab.mana_type))
        elif ab.op == "set_type_and_amount":
            vec = [0] * len(TYPES)
            vec[TYPES.index(ab.mana_type)] = 1
            op = Op("set", vector=tuple(vec))
        else:  # pragma: no cover - the IR lists exactly these
            raise ValueError(f"unknown mana replacement operation {ab.op!r}")
        out.append(AppliedEffect(s.source, ("mana", ab, s.controller), RANK_OTHER, op, ALL_MANA_DIMS))
    return out


def _resolve_amount(view: View, amount, source_id: str, controller: str, x: int) -> int:
    if isinstance(amount, int):
        return amount
    if amount == "X":
        return x  # CR 107.3m: the spell's X
    if isinstance(amount, Count):
        return len(view.select(amount.selector, view.state.find(source_id), controller))
    raise ValueError(f"unsupported amount {amount!r}")


def counter_effects(view: View, object_id: str, kinds: tuple[str, ...]) -> list[AppliedEffect]:
    """Replacement effects that modify counters of ``kinds`` being put on
    ``object_id`` (CR 122.6: counters it enters with count too), seen from each
    effect's controller; for an object entering, as it would exist on the
    battlefield (CR 614.12). Each needs one or more counters of a kind it
    modifies (condition on those entries, re-checked at every step)."""
    out: list[AppliedEffect] = []
    for s in view.counter_replacements:
        ab: CounterReplacement = s.ability
        src = view.state.find(s.source)
        if not view.matches(ab.affected, object_id, src, s.controller):
            continue
        dims = tuple(i for i, k in enumerate(kinds) if not ab.counter or ab.counter == k)
        if not dims:
            continue
        if ab.op == "double":
            op = Op("scale", dims=dims, factor=2)
            cond = dims
        elif ab.op == "plus_one":
            if "+1/+1" not in kinds or (ab.counter and ab.counter != "+1/+1"):
                continue
            d = kinds.index("+1/+1")
            op = Op("add", target=d, amount=1)
            cond = (d,)
        else:  # pragma: no cover
            raise ValueError(f"unknown counter replacement operation {ab.op!r}")
        out.append(AppliedEffect(s.source, ("counters", ab, s.controller), RANK_OTHER, op, cond))
    return out


# ---------------------------------------------------------------------------
# Orders and results
# ---------------------------------------------------------------------------


def _classes(effects: list[AppliedEffect]) -> tuple[list[EffectClass], list[list[str]]]:
    """Group identical effects into classes (sorted deterministically); labels per class."""
    groups: dict[tuple, list[AppliedEffect]] = {}
    for e in sorted(effects, key=lambda e: (e.rank, e.label, str(e.identity[-1]))):
        groups.setdefault(e.identity, []).append(e)
    classes, labels = [], []
    for members in groups.values():
        e = members[0]
        classes.append(EffectClass(e.op, e.cond, e.rank, len(members)))
        labels.append(sorted(m.label for m in members))
    return classes, labels


def _expand(seq: tuple[int, ...], labels: list[list[str]], limit: int | None) -> tuple[list[tuple[str, ...]], int]:
    """Every order of individual effects for a class sequence (identical effects
    permuted among their positions); returns (orders, exact count). Labels
    within a class are distinct here (see :func:`_outcomes`)."""
    positions: dict[int, list[int]] = {}
    for at, ci in enumerate(seq):
        positions.setdefault(ci, []).append(at)
    count = 1
    per_class = []
    for ci, where in sorted(positions.items()):
        labs = labels[ci]
        # ordered choices of len(where) of this class's labels: n! / (n - k)!
        count *= factorial(len(labs)) // factorial(len(labs) - len(where))
        per_class.append((where, labs))
    if limit == 0:
        return [], count
    out: list[tuple[str, ...]] = []
    for combo in product(*(permutations(labs, len(where)) for where, labs in per_class)):
        order = [""] * len(seq)
        for (where, _), chosen in zip(per_class, combo):
            for p, lab in zip(where, chosen):
                order[p] = lab
        out.append(tuple(order))
        if limit is not None and len(out) >= limit:
            break
    return out, count


def _total_invariant(classes: Iterable[EffectClass], dims: int) -> bool:
    """True when applicability can't depend on *which* positive state the event
    starts from: every condition is "produces anything" and every operation
    keeps a positive total positive. Then one solve serves every amount."""
    for c in classes:
        if c.cond_dims is None or tuple(c.cond_dims) != tuple(range(dims)):
            return False
        op = c.op
        if op.kind == "scale" and (op.factor < 1 or tuple(op.dims) != tuple(range(dims))):
            return False
        if op.kind == "set" and sum(op.vector) < 1:
            return False
        if op.kind == "add" and op.amount < 0:
            return False
    return True


def _outcomes(initial: tuple[int, ...], effects: list[AppliedEffect], decode, max_orders: int | None,
              timeout: float | None, share: bool) -> EventOutcomes:
    classes, labels = _classes(effects)
    problem = OrderingProblem(tuple(initial), tuple(classes))
    if share and sum(initial) >= 1 and _total_invariant(classes, len(initial)):
        # the legal sequences are the same for every positive amount: solve once
        unit = tuple(1 if i == 0 else 0 for i in range(len(initial)))
        solved = solve_orderings(OrderingProblem(unit, tuple(classes)), timeout)
        seqs = [(seq, replay(problem, seq)) for seq, _ in solved.sequences]
    else:
        solved = solve_orderings(problem, timeout)
        seqs = solved.sequences
    results: dict = {}
    counts: dict = {}
    all_labels = [lab for labs in labels for lab in labs]
    if len(set(all_labels)) == len(all_labels):
        # distinct labels: different sequences never give the same order
        for seq, final in seqs:
            key = decode(final)
            room = None if max_orders is None else max(0, max_orders - len(results.get(key, [])))
            orders, n = _expand(seq, labels, room)
            results.setdefault(key, []).extend(orders)
            counts[key] = counts.get(key, 0) + n
    else:
        # several effects share a source id (e.g. two Pale Moon effects): one order per label sequence
        sets: dict = {}
        for seq, final in seqs:
            orders, _ = _expand(seq, labels, None)
            sets.setdefault(decode(final), set()).update(orders)
        for key, orders in sets.items():
            counts[key] = len(orders)
            results[key] = sorted(orders)[:max_orders]
    for k in results:
        results[k].sort()
    return EventOutcomes(results, counts, solved.status)


def mana_event(view: View, tapped_id: str, tapper: str, produced: Mana, max_orders: int | None = None,
               timeout: float | None = None, share: bool = True,
               effects: list[AppliedEffect] | None = None) -> EventOutcomes:
    """:func:`mana_event_outcomes` with statuses and exact order counts.
    ``effects``: the result of :func:`mana_effects` for this permanent and
    player when the caller already has it."""
    if not produced:
        effects = []
    elif effects is None:
        effects = mana_effects(view, tapped_id, tapper)
    return _outcomes(produced.counts, effects, _decode_mana, max_orders, timeout, share)


def _decode_mana(state: tuple[int, ...]) -> Mana:
    return Mana(cast("tuple[int, int, int, int, int, int]", tuple(state)))


def mana_event_outcomes(view: View, tapped_id: str, tapper: str, produced: Mana,
                        max_orders: int | None = None) -> dict[Mana, list[tuple[str, ...]]]:
    """Every distinct amount of mana that ``tapped_id`` produces when ``tapper``
    taps it for mana and its ability would produce ``produced`` (CR 106.12b),
    with the orders of replacement effects (ids of their sources) giving it.

    Only call this for a mana ability with {T} in its cost (CR 106.12); an
    ability that would produce no mana is no production event and stays empty.
    A Forest with Mana Reflection and Contamination: Reflection then
    Contamination gives {B}; Contamination then Reflection gives {B}{B}.
    """
    return mana_event(view, tapped_id, tapper, produced, max_orders).results


@dataclass
class CounterOutcome:
    """One distinct result of a counter event: ``counters`` (counter → number
    put on the object, zeros dropped) and the sorted ``orders`` of replacement
    effects (ids of their sources) giving it; ``order_count`` is exact.
    Iterating it yields the ``(counter, n)`` pairs (``dict(outcome)``)."""

    counters: dict[str, int]
    orders: list[tuple[str, ...]]
    order_count: int

    @property
    def key(self) -> CounterResult:
        return tuple(sorted(self.counters.items()))

    def __iter__(self):
        """The ``(counter, n)`` pairs, so ``dict(outcome)`` is its counters."""
        return iter(self.key)


def enters_tapped(view: View, ab: EntersWith, entering: Any, controller: str, paid: bool = False) -> bool:
    """Does "enters tapped [unless <condition>]" / "If <condition>, … enters tapped" (CR 614.1c) make
    ``entering`` enter tapped under ``controller``? The condition is read on the game as it would enter
    (the permanent not yet there, CR 614.12). ``paid``: the controller chose to pay the life of "As this
    land enters, you may pay N life. If you don't, it enters tapped." (:func:`may_pay_life`)."""
    if not ab.tapped or (ab.pay_life and paid):
        return False
    if ab.when is not None and not condition_holds(view, ab.when, entering, controller):
        return False
    return ab.unless is None or not condition_holds(view, ab.unless, entering, controller)


def life_choice(abilities: Iterable[Ability]) -> int:
    """The life of "As this land enters, you may pay N life. If you don't, it enters tapped." among
    ``abilities`` (CR 614.12: the choice is its controller's, made as it would enter), 0 if none."""
    return max((a.pay_life for a in abilities if isinstance(a, EntersWith)), default=0)


def may_pay_life(view: View, player: str, amount: int) -> bool:
    """CR 119.4: a player may pay an amount of life greater than 0 only if their life total is at
    least that amount (a cost or an effect alike)."""
    return amount <= 0 or view.state.player(player).life >= amount


def entering_with(card: Card | None, abilities: Iterable[Ability] | None = None, cast: Any = None) -> list[EntersWith]:
    """What a permanent of ``card`` enters with by the rules and its own text, in the order they
    apply (all self-replacement effects, CR 616.1a): a planeswalker its printed loyalty in loyalty
    counters (CR 306.5b), a Saga one lore counter (714.3a), a battle its printed defense in defense
    counters (310.4b), then its "enters with" abilities (614.1c) — ``abilities``: those it has
    (after continuous effects), else its card's. ``cast``: the spell entering (its record of how it was cast,
    for "if it was kicked" / "escapes with", CR 702.33e, 702.138c: an ability with ``if_cast`` applies only
    if it holds, :func:`solver.rules.faces.cast_as`)."""
    out: list[EntersWith] = []
    if card is not None:
        d = card.data
        if "Planeswalker" in d.types and d.loyalty is not None and str(d.loyalty).isdigit():
            out.append(EntersWith(counter="loyalty", amount=int(d.loyalty)))
        if "Battle" in d.types and d.defense is not None and str(d.defense).isdigit():
            out.append(EntersWith(counter="defense", amount=int(d.defense)))
        if is_saga(card):
            out.append(EntersWith(counter="lore", amount=1))
    own = card.abilities if abilities is None and card is not None else (abilities or ())
    out.extend(a for a in own if isinstance(a, EntersWith) and (not a.if_cast or cast_as(cast, a.if_cast)))
    return out


def counter_event(view: View, object_id: str, counter: str | None = None, amount: int = 0,
                  entering: bool = False, x: int | None = None, max_orders: int | None = None,
                  timeout: float | None = None) -> EventOutcomes:
    """:func:`counter_event_outcomes` as an :class:`EventOutcomes` keyed by
    :data:`CounterResult`, with statuses and exact order counts."""
    o = view.state.obj(object_id)
    xv = o.x if x is None else x
    own: list[tuple[str, int, tuple]] = []  # the entering object's own "enters with" effects
    if entering:
        if counter:
            own.append((counter, amount, ("enters_with", object_id, counter)))
        else:
            for i, ab in enumerate(entering_with(o.card, view.chars(object_id).abilities, o)):
                if ab.counter:
                    n = _resolve_amount(view, ab.amount, object_id, o.controller, xv)
                    own.append((ab.counter, n, ("enters_with", object_id, i)))
    kinds = sorted({k for k, _, _ in own} | ({counter} if counter else set()))
    initial = [0] * len(kinds)
    if counter and not entering:
        initial[kinds.index(counter)] += amount
    effects = [AppliedEffect(object_id, ident, RANK_SELF, Op("add", target=kinds.index(k), amount=n), None)
               for k, n, ident in own]
    if kinds:
        effects += counter_effects(view, object_id, tuple(kinds))

    def decode(state: tuple[int, ...]) -> CounterResult:
        return tuple((k, n) for k, n in zip(kinds, state) if n)

    return _outcomes(tuple(initial), effects, decode, max_orders, timeout, share=False)


def counter_event_outcomes(view: View, object_id: str, counter: str | None = None, amount: int = 0,
                           entering: bool = False, x: int | None = None,
                           max_orders: int | None = None) -> list[CounterOutcome]:
    """Every distinct set of counters an event puts on ``object_id``, with the
    orders of replacement effects giving it (CR 122.6, 614, 616), sorted.

    * ``entering=False``: ``amount`` ``counter`` counters are put on the permanent;
    * ``entering=True``: the object (a resolving spell, CR 614.12: as it would
      exist on the battlefield) enters with counters from its own "enters with"
      effect (CR 614.1c), applied first (CR 616.1a) and listed in the orders
      under the object's id: ``amount`` ``counter`` counters when ``counter``
      is given (the caller has worked out N, e.g. the spell's X per CR
      107.3m), else every "enters with" ability of the object with N = ``x``
      (default: the object's ``x``).

    Doubling Season and Hardened Scales apply only while one or more counters
    are being put (X = 0: neither applies). Hangarback Walker with X = 2:
    Hardened Scales then Doubling Season gives 2(X+1) = 6 counters; Doubling
    Season then Hardened Scales gives 2X+1 = 5.
    """
    ev = counter_event(view, object_id, counter, amount, entering, x, max_orders)
    out = [CounterOutcome(dict(k), ev.results[k], ev.order_counts[k]) for k in ev.results]
    out.sort(key=lambda c: c.key)
    return out
