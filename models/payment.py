"""Cost payment as a CP-SAT model (CR 601.2f–h, 602.2b, 605, 118.3, 119.4).

The input is a rules-level :class:`PaymentProblem`: the paying player's
interchangeable classes of permanents, the mana abilities they can activate
(with every outcome of replacement effects and triggered mana already worked
out), the mana pool, the life total and the total cost. The output is a
decision (:meth:`PaymentModel.payable`), the distinct payments
(:meth:`PaymentModel.enumerate`, as keys; :func:`decode` gives each one as a typed
:class:`Paid`) and, when there is none, the parts of the cost that can't be paid
together (:func:`unpaid_core`). Plain data in, typed values out: the contract's payment
objects and the English reason are made in the rules layer (:mod:`solver.payment.words`).

Encoding
--------
* **Counts, not copies.** Interchangeable permanents form one class; the model
  decides how many members of a class activate each ability with each
  outcome, never which member (architecture principle 2).
* **Mana as a flow.** Mana is split in *kinds* (its type, and whether it came
  from a snow source when ``{S}`` matters). Everything the pool holds at the
  end is what was there plus what was produced, minus what was spent on
  ability costs and on the total cost; the leftover (``pool_after``) is
  attributed to the activation that made it so that "every activated mana
  ability contributes mana that is spent" (contract §2.3) is a linear
  constraint: an activation of an outcome worth ``m`` mana leaves at most
  ``m - 1`` of it unspent.
* **Interchangeable permanents and sacrifice.** Each member of a class is
  tapped at most once and sacrificed at most once; a member may be tapped
  for mana and then sacrificed (Squandered Resources, a "Sacrifice a land"
  cost), counted by how many tapped members were sacrificed. A sacrifice
  whose mana pays a filter land happens before the filter lands; one that
  sacrifices a member a filter land's ability tapped happens after them and
  its mana pays only the total cost (the one order this model does not
  cover is a sacrifice between two filter-land activations that both
  depend on it).
* **Well-founded activation order.** Mana abilities with a mana cost (filter
  lands, Crystal Quarry, Cascading Cataracts) sit in ordered *slots*: the
  cost of the slot-``s`` activation is paid from the mana that exists before
  it (pool, cost-free activations, earlier slots), so no ability pays for
  itself or for an ability that paid for it (CR 605.3a, 601.2g). Cost-free
  activations come first; the total cost is paid last (CR 601.2h).
* **Announcements** of hybrid and Phyrexian symbols (CR 601.2b) are counts
  per option; ``{X}`` is a variable when ``x: any``.
* **Deciding** (:func:`decide`) is one solve. When filter lands are present a
  smaller model first lets them be paid only from mana made before any of
  them; only if that fails does the exact (ordered) model decide.
* **Distinct payments** are distinct values of the *key*: per class the number
  of members sacrificed and the number left tapped (per number of counters
  removed), life paid, damage dealt, X and the pool left behind. The key does
  not determine the auxiliary choices (which color an any-color source made
  for generic mana, the order of filter lands), so CP-SAT's own enumeration
  is run and solutions are de-duplicated on the key (packed into one or two
  integer "codes"); if the number of solutions per key grows large, the
  enumeration switches to one solve per new key, each forbidding the keys
  already found (a no-good over reified ``key == value`` literals), until
  the model is infeasible. No payment is listed twice.
* **Why not.** Each part of the total cost (each symbol type, each hybrid
  symbol, ``{T}``, ``{Q}``, life, sacrifice, …) is enforced by a named
  literal. When the cost can't be paid, the solver's
  ``sufficient_assumptions_for_infeasibility`` gives a set of parts that can't
  be paid together; it is shrunk to a minimal one (:func:`unpaid_core`), which
  :func:`solver.payment.words.explain` words in rules terms.
"""
from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Any, Iterable, NamedTuple, TypeGuard, TypeVar, Union

import numpy as np
from ortools.sat.python import cp_model

from mtgsolve.solver.core.errors import UnsupportedCase
from mtgsolve.solver.core.mana import COLORS, TYPES, ManaCost, Symbol

from .base import LeanModel, new_solver

Expr = Any
"""A CP-SAT linear expression, a variable or a plain int (the model adds ints and
expressions freely; ortools' stubs type neither the mixed arithmetic nor its comparisons)."""

_Key = TypeVar("_Key", str, int)  # a counter name or an ability index (:func:`_decode_riders`)


@dataclass(frozen=True)
class MainTap:
    """The fate of the source tapped by the total cost's ``{T}`` (CR 107.5, 601.2h), not by a
    mana ability: one value (:data:`MAIN_TAP`), equal to itself only."""

    def __repr__(self) -> str:
        return "MAIN_TAP"


MAIN_TAP = MainTap()
"""The fate "tapped by the total cost's {T}" (see :data:`Fate`)."""

Mark = tuple[str, str, int]
"""What a mana ability's rider leaves on the member it taps: ``("skip_untap", "", 1)`` or
``("add", counter, n)`` (see ``RiderEffects.marks`` in ``solver/rules/mana_riders.py``)."""

CounterFate = tuple[str, int] | tuple[str, int, tuple[Mark, ...]]
"""``(counter, k)`` (k counters removed as a mana ability's cost) or ``(counter, k, marks)`` (with
its riders' marks): how a member tapped for mana was used besides being tapped."""

Fate = Union[None, MainTap, CounterFate]
"""How a tapped member of a class was used: None (tapped for mana), :data:`MAIN_TAP` (tapped by the
total cost's {T}) or a :data:`CounterFate` tuple; :func:`is_counter_fate` tells the tuples apart."""


def is_counter_fate(f: Fate) -> TypeGuard[CounterFate]:
    """Is ``f`` a :data:`CounterFate` (not None, not :data:`MAIN_TAP`)?"""
    return isinstance(f, tuple)

PRESOLVE = False
MAX_REPEATS = 20          # solutions per distinct payment before switching to one solve per payment
MAX_REPEATS_SLACK = 2000
GENERIC = "gen"
SNOW = "S"


# ---------------------------------------------------------------------------
# The rules-level description
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Outcome:
    """One result of activating a mana ability: the mana added (per type, in
    W U B R G C order), how much of it came from a snow source, and damage
    dealt to the player (Adarkar Wastes). ``restricted`` (and its snow part
    ``restricted_snow``) is the part of ``mana`` that may be spent only as
    :class:`SpendRule` number ``tag`` of the problem allows (CR 106.6; tag 0:
    none)."""

    mana: tuple[int, ...]
    snow: tuple[int, ...] = (0, 0, 0, 0, 0, 0)
    damage: int = 0
    restricted: tuple[int, ...] = (0, 0, 0, 0, 0, 0)
    restricted_snow: tuple[int, ...] = (0, 0, 0, 0, 0, 0)
    tag: int = 0
    effects: tuple[int, ...] = ()     # amounts of PaymentProblem.effects (life gained/lost, cards drawn)

    #: ``sum(mana)``, set by ``__post_init__`` (not an argument, not compared, not shown)
    total: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "total", sum(self.mana))


@dataclass(frozen=True)
class PermClass:
    """Interchangeable permanents of the paying player (contract §2.3), in board order."""

    members: tuple[str, ...]
    name: str
    tapped: bool
    creature: bool = False
    counters: int = 0          # counters of the kind the total cost removes (source only)


@dataclass(frozen=True)
class ManaAbilityUse:
    """A mana ability the members of class ``cls`` can activate (CR 605.1a).

    ``tap``: ``{T}`` in its cost (each member at most once over all such
    abilities). ``sac_self``: the member is sacrificed (Tinder Farm).
    ``sac_cls``: the class of the permanent sacrificed as its cost
    (Squandered Resources; one activation per sacrificed permanent).
    ``mana_cost``: mana paid to activate it. ``life``: life paid.
    ``counters``: counters removed from the member (``counter_name``).
    ``tap_creatures``: untapped creatures tapped (Springleaf Drum), from the
    classes ``tap_classes`` when given ("Tap three untapped Elves you control";
    None: every untapped creature class).
    ``cap``: the most activations possible.
    """

    cls: int
    label: str
    outcomes: tuple[Outcome, ...]
    cap: int
    tap: bool = True
    sac_self: bool = False
    sac_cls: int | None = None
    mana_cost: ManaCost = ManaCost()
    life: int = 0
    counters: int = 0
    counter_name: str = ""
    tap_creatures: int = 0
    marks: tuple[Mark, ...] = ()  # what the ability's riders leave on the member (skip untap, counters added)
    tap_classes: tuple[int, ...] | None = None

    @property
    def costed(self) -> bool:
        return bool(self.mana_cost)

    @property
    def fate(self) -> CounterFate | None:
        if self.marks:
            return (self.counter_name, self.counters, self.marks)
        return (self.counter_name, self.counters) if self.counters else None


@dataclass(frozen=True)
class MainCost:
    """The total cost (CR 601.2f), with announcements still open.

    ``x``: announced X, ``None`` for every X up to ``x_upper``. ``source_cls``:
    the singleton class of the permanent whose ability is activated.
    ``sacrifice_classes``: classes one of whose members may be sacrificed
    ("Sacrifice a land"). ``tap_creature_classes``: untapped creature classes
    for "Tap an untapped creature you control".
    """

    mana: ManaCost = ManaCost()
    x: int | None = 0
    x_upper: int = 0
    life_allowed: bool = True
    source_cls: int | None = None
    source_name: str = ""
    tap: bool = False
    untap: bool = False
    tap_symbol_blocked: bool = False
    sac_self: bool = False
    sacrifice_classes: tuple[int, ...] | None = None
    sacrifice_text: str = ""
    life: int = 0
    remove_counters: int = 0
    counter_name: str = ""
    tap_creatures: int = 0
    tap_creature_classes: tuple[int, ...] = ()
    x_type: str | None = None      # X counts mana of this requirement instead of generic (for reasons)
    # the spell's other ways to pay (CR 702.66a, 702.51a, 702.126a): graveyard cards by
    # interchangeable class (ids) for delve; (class, its colors) of untapped creatures for
    # convoke; untapped artifact classes for improvise
    delve_classes: tuple[tuple[str, ...], ...] = ()
    convoke_classes: tuple[tuple[int, str], ...] = ()
    improvise_classes: tuple[int, ...] = ()


@dataclass(frozen=True)
class SpendRule:
    """Where mana under one spending restriction may go in this payment (CR 106.6):
    ``main``: on the total cost; ``abilities``: on the mana costs of these mana
    abilities (indices into :attr:`PaymentProblem.abilities`). ``text``: the
    restriction, for payments and reasons; ``sources``: names of the
    permanents whose mana it restricts (for reasons)."""

    text: str
    main: bool
    abilities: frozenset[int] = frozenset()
    sources: tuple[str, ...] = ()


class LifeEffect(NamedTuple):
    """The life ``player`` gains (``verb`` ``gain``) or loses (``lose``) through mana abilities'
    riders (CR 119.3), one name of :attr:`PaymentProblem.effects`. Its text (the model's
    variable name) is ``<verb>:<player>``."""

    verb: str
    player: str

    def __str__(self) -> str:
        return f"{self.verb}:{self.player}"


class UseEffect(NamedTuple):
    """The uses of a per-turn-limited mana ability without {T} (CR 602.5b), one name of
    :attr:`PaymentProblem.effects`: the ability ``index`` of the members of class ``cls``, each
    with ``left`` uses left this turn; ``put``: ``(counter, n)`` when each use puts n such
    counters on the member (a cost, CR 118.1: Wall of Roots' -0/-1 counter). Its text (the
    model's variable name) is ``use:<cls>:<index>:<left>[:<counter>:<n>]``."""

    cls: int
    ability: int
    left: int
    put: tuple[str, int] | None = None

    def __str__(self) -> str:
        return f"use:{self.cls}:{self.ability}:{self.left}" + (f":{self.put[0]}:{self.put[1]}" if self.put else "")


@dataclass(frozen=True)
class PaymentProblem:
    """Everything the payment model needs (built by :mod:`solver.queries.pay`)."""

    player: str
    life_total: int
    pool: tuple[int, ...]
    classes: tuple[PermClass, ...]
    abilities: tuple[ManaAbilityUse, ...]
    main: MainCost
    celestial: bool = False     # Celestial Dawn's spending rule for this player
    rules: tuple[SpendRule, ...] = ()   # spending restrictions; Outcome.tag t refers to rules[t - 1]
    effects: tuple[str | LifeEffect | UseEffect, ...] = ()  # riders' quantities: life, "draw" (cards), uses
    # mana in the pool under a spending restriction (CR 106.6): (tag, amounts per type W U B R G C);
    # a tag as an Outcome's, referring to rules[tag - 1]
    restricted_pool: tuple[tuple[int, tuple[int, ...]], ...] = ()

    @property
    def snow_matters(self) -> bool:
        syms = list(self.main.mana.symbols) + [s for a in self.abilities for s in a.mana_cost.symbols]
        return any(s.kind == "snow" for s in syms)


# ---------------------------------------------------------------------------
# Spending rules
# ---------------------------------------------------------------------------


def can_spend(type_: str, snow: bool, req: str, celestial: bool) -> bool:
    """May mana of ``type_`` (from a snow source if ``snow``) pay requirement ``req``?

    ``req`` is a type letter (CR 107.4a, 107.4c), ``S`` (CR 107.4h) or
    ``gen`` (CR 107.4b). Under Celestial Dawn white mana may be spent as
    though it were any color and other mana only as though it were colorless
    (so it pays ``{C}`` and generic mana, never a colored symbol).
    """
    if req == GENERIC:
        return True
    if req == SNOW:
        return snow
    if celestial:
        if type_ == "W":
            return req in COLORS
        return req == "C"
    return req == type_


def symbol_options(sym: Symbol, life_allowed: bool) -> tuple[tuple[str, int], ...]:
    """How one announced symbol can be paid (CR 601.2b, 107.4e–h): (req, n) with
    req a type letter, ``S``, ``gen`` or ``life``."""
    out = []
    for what, n in sym.payment_options():
        if what == "life" and not life_allowed:
            continue
        out.append((GENERIC if what == "*" else what, n))
    return tuple(out)


# ---------------------------------------------------------------------------
# Results
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class PaymentKey:
    """A distinct payment: the situation it leaves behind (contract §2.3)."""

    sacrificed: tuple[int, ...]                          # per class
    kept_tapped: tuple[tuple[tuple[Fate, int], ...], ...]  # per class: (fate, n), fates in _fate_order
    life: int
    damage: int
    x: int
    pool_after: tuple[int, ...]
    restricted_after: tuple[tuple[int, int, int], ...] = ()   # (tag, type, n > 0): restricted mana left
    effects: tuple[int, ...] = ()                        # per PaymentProblem.effects
    delved: tuple[int, ...] = ()                         # per MainCost.delve_classes: cards exiled (CR 702.66a)


@dataclass
class EnumerationResult:
    keys: list[PaymentKey]
    complete: bool
    timed_out: bool = False


Uses = tuple[tuple[str, tuple[tuple[str, int], ...]], ...]
"""Per object id (sorted), per counter name or ability index (sorted): a number."""


@dataclass(frozen=True)
class Paid:
    """One distinct payment, decoded (:func:`decode`): the situation it leaves behind
    (contract §2.3), as typed values; :mod:`solver.payment.words` makes the contract's
    payment object of it.

    ``tap``, ``untap``, ``sacrifice``, ``exile`` (delve, CR 702.66a): sorted ids.
    ``pool_after``: ``player``'s unrestricted mana left, per type (W U B R G C);
    ``restricted_after``: restricted mana left (CR 106.6), ``(restriction text, amounts per
    type)`` sorted by text. ``remove_counters``: ``(id, counter, n)`` sorted by id (one
    counter name per object). The riders of mana abilities (CR 605.1a): ``skip_untap`` (ids),
    ``counters_added`` (by the riders' effects) and ``counters_put`` (as the cost of a
    per-turn-limited ability, CR 118.1), ``draw``, ``activated`` (uses of per-turn-limited
    abilities without {T}, CR 602.5b; per id, per ability index), ``life_gained`` and
    ``life_lost`` (per player, sorted)."""

    player: str
    tap: tuple[str, ...]
    untap: tuple[str, ...]
    sacrifice: tuple[str, ...]
    life: int
    damage: int
    x: int
    pool_after: tuple[int, ...]
    remove_counters: tuple[tuple[str, str, int], ...] = ()
    exile: tuple[str, ...] = ()
    skip_untap: tuple[str, ...] = ()
    counters_added: Uses = ()
    counters_put: Uses = ()
    draw: int = 0
    activated: tuple[tuple[str, tuple[tuple[int, int], ...]], ...] = ()
    life_gained: tuple[tuple[str, int], ...] = ()
    life_lost: tuple[tuple[str, int], ...] = ()
    restricted_after: tuple[tuple[str, tuple[int, ...]], ...] = ()

    @property
    def add_counters(self) -> Uses:
        """Every counter put on an object (riders and costs together), per id and counter."""
        if not self.counters_put:
            return self.counters_added
        merged: dict[str, dict[str, int]] = {oid: dict(cs) for oid, cs in self.counters_added}
        for oid, cs in self.counters_put:
            on = merged.setdefault(oid, {})
            for name, n in cs:
                on[name] = on.get(name, 0) + n
        return tuple((oid, tuple(sorted(merged[oid].items()))) for oid in sorted(merged))

    def sort_key(self) -> tuple[object, ...]:  # heterogeneous, only compared
        """The order of payments (contract §2: sorted lists): X, life, damage, the number of
        permanents tapped and sacrificed, then the ids and amounts of every part."""
        return (self.x, self.life, self.damage, len(self.tap) + len(self.sacrifice), list(self.tap),
                list(self.untap), list(self.sacrifice), [mana_text(self.pool_after)],
                [(oid, [(name, n)]) for oid, name, n in self.remove_counters],
                [[("mana", mana_text(amounts)), ("restriction", text)] for text, amounts in self.restricted_after],
                list(self.skip_untap), [(oid, list(cs)) for oid, cs in self.add_counters],
                list(self.life_gained), list(self.life_lost), self.draw, list(self.exile))


def mana_text(amounts: tuple[int, ...] | list[int]) -> str:
    """Mana per type (W U B R G C) in the contract's notation: ``{G}{G}{C}`` (CR 107.4)."""
    return "".join("{%s}" % TYPES[t] * n for t, n in enumerate(amounts))


# ---------------------------------------------------------------------------
# The model
# ---------------------------------------------------------------------------


@dataclass
class CostPart:
    """A named part of the total cost (a symbol type, a hybrid symbol, ``{T}``, ``{Q}``, life,
    a sacrifice, …), enforced by ``lit`` in explain mode (see :func:`unpaid_core`). ``name``
    says which part (``"tap"``, ``"mana:G"``, ``"sym:…"``, ``"generic"``, …), ``text`` its
    cost text."""

    name: str
    text: str
    lit: Expr


@dataclass
class _Build:
    """The values the passes of :meth:`PaymentModel._build` hand on to each other, per kind of
    mana ``k`` (:attr:`PaymentModel.kinds`) or per class ``c`` of interchangeable permanents:
    linear expressions (:data:`Expr`) and the lists that sum to them."""

    K: range                                    # the kinds of mana
    left_by_kind: list[list[Expr]]              # per kind: amounts left in the pool
    amounts_cache: dict[Outcome, list[int]]     # per outcome: its mana per kind
    taps: list[dict[Fate, list[Expr]]]          # per class and fate: counts of members tapped
    free_taps: list[dict[Fate, list[Expr]]]     # the same, by cost-free abilities only
    self_sacs: list[list[Expr]]                 # per class: counts of members sacrificing themselves
    early_sacs: list[list[Expr]]                # … sacrificed by mana abilities
    late_sacs: list[list[Expr]]                 # … sacrificed by the total cost
    slot_sacs: list[dict[Fate, list[Expr]]]     # … sacrificed right after a filter land tapped them
    costed_tap_classes: set[int]                # classes a mana ability with a mana cost may tap
    sq_abilities: list[int]                     # cost-free abilities sacrificing such a member
    base: list[Expr]                            # per kind: mana before any ability with a mana cost
    late_out: list[Expr]                        # per kind: mana of costed abilities paid first
    damage_terms: list[Expr]
    ab_life_terms: list[Expr]                   # life paid by mana abilities
    fx_terms: list[list[Expr]]                  # per PaymentProblem.effects
    costed: list[int] = field(default_factory=list)   # the abilities with a mana cost left for the slots
    cum: list[Expr] = field(default_factory=list)     # per kind: net mana made by the slots
    main_life: Expr = 0                         # life paid by the total cost


class PaymentModel:
    """The CP-SAT model of paying one total cost.

    With ``explain=True`` every part of the cost is guarded by an assumption
    literal (used only to find why a cost can't be paid); otherwise parts are
    constants and the model is as small as possible.
    """

    def __init__(self, problem: PaymentProblem, explain: bool = False, maximize_x: bool = False,
                 chain: bool = True, keys: bool = True):
        self.p = problem
        self.explain_mode = explain
        self.chain = chain
        self.with_keys = keys
        self.m: cp_model.CpModel = LeanModel()
        self.parts: list[CostPart] = []
        self._eq_cache: dict[tuple[int, int], Expr] = {}
        self._blocked: set[tuple[int, ...]] = set()
        self._fates: list[list[Fate]] | None = None
        self._build()
        if maximize_x and self.x_var is not None:
            self.m.maximize(self.x_var)

    # -- helpers ------------------------------------------------------------
    def _part(self, name: str, text: str) -> Expr:
        """A guard literal (explain mode) or the constant 1."""
        if not self.explain_mode:
            return 1
        lit = self.m.new_bool_var(f"part[{name}]")
        self.parts.append(CostPart(name, text, lit))
        return lit

    def _int(self, lo: int, hi: int, name: str) -> Expr:  # a cp_model.IntVar, summed with ints
        return self.m.new_int_var(lo, max(lo, hi), name)

    def _forbid(self, lit: Expr) -> None:
        """This part can't be paid at all (an unsatisfiable guard)."""
        if self.explain_mode:
            self.m.add(lit == 0)
        else:
            self.m.add_bool_or([])

    def _enforce(self, ct: cp_model.Constraint | None, lit: Expr) -> None:
        """Make constraint ``ct`` conditional on the part literal (explain mode)."""
        if self.explain_mode and ct is not None:
            ct.only_enforce_if(lit)

    def _add(self, ct: Expr) -> cp_model.Constraint | None:
        """``model.add`` that also takes the plain booleans Python gives when both
        sides of a comparison are constants."""
        if isinstance(ct, (bool, np.bool_)):
            return None if ct else self.m.add_bool_or([])
        return self.m.add(ct)

    # -- construction -------------------------------------------------------
    def _build(self) -> None:
        """The model, in passes that hand their values on in a :class:`_Build`: the kinds of mana
        and the pool, cost-free mana abilities, mana abilities with a mana cost (first, when not
        chaining, paid from the mana that exists before them; then in ordered slots), the total
        cost's mana, its other parts, each class's limits, life and damage, and the key of a
        payment (contract §2.3)."""
        b = self._setup()
        self._free_abilities(b)
        if not self.chain and b.costed:
            self._costed_first(b)
        self._costed_slots(b)
        self._total_mana(b)
        self._other_parts(b)
        self._class_limits(b)
        self._life_and_damage(b)
        self._key_parts(b)

    def _setup(self) -> _Build:
        """The kinds of mana (type, snow, spending restriction), an upper bound on any amount,
        the empty bookkeeping of classes, and the mana in the pool (less what is left in it)."""
        p = self.p
        self.snow = p.snow_matters
        snows = (False, True) if self.snow else (False,)
        # kinds: (type, snow, tag); tag 0 is unrestricted mana, tag g > 0 mana under p.rules[g - 1]
        # (CR 106.6), only for the types some outcome makes under that restriction
        restricted_types = sorted({(o.tag, t) for a in p.abilities for o in a.outcomes if o.tag
                                   for t in range(6) if o.restricted[t]}
                                  | {(g, t) for g, amounts in p.restricted_pool for t in range(6) if amounts[t]})
        self.kinds: list[tuple[int, bool, int]] = [(t, s, 0) for t in range(6) for s in snows] + [
            (t, s, g) for g, t in restricted_types for s in snows]
        K = range(len(self.kinds))
        left_by_kind: list[list[Expr]] = [[] for _ in K]

        amounts_cache: dict[Outcome, list[int]] = {}

        ncls = len(p.classes)
        # an upper bound on any amount of mana in play
        self.ub = max(1, sum(p.pool) + sum(sum(a) for _, a in p.restricted_pool)
                      + sum(a.cap * max((o.total for o in a.outcomes), default=0) for a in p.abilities))
        # per class: taps[c][fate] and free_taps[c][fate] list the counts of members tapped
        # (fate: None, MAIN_TAP or (counter, n, …) removed); *_sacs[c] the counts of members sacrificed
        taps: list[dict[Fate, list[Expr]]] = [dict() for _ in range(ncls)]
        free_taps: list[dict[Fate, list[Expr]]] = [dict() for _ in range(ncls)]
        self_sacs: list[list[Expr]] = [[] for _ in range(ncls)]
        early_sacs: list[list[Expr]] = [[] for _ in range(ncls)]
        late_sacs: list[list[Expr]] = [[] for _ in range(ncls)]      # by the total cost
        slot_sacs: list[dict[Fate, list[Expr]]] = [dict() for _ in range(ncls)]  # sacrificed right after a filter land tapped them

        # classes whose members a mana ability with a mana cost may tap: a sacrifice of such a
        # member (Squandered Resources) may come right after that ability, in its slot
        costed_tap_classes = {a.cls for a in p.abilities if a.costed and a.tap and not a.sac_self}
        sq_abilities = [ai for ai, a in enumerate(p.abilities)
                        if not a.costed and a.sac_cls is not None and a.sac_cls in costed_tap_classes]

        # mana of each kind available before any ability with a mana cost (linear expressions)
        base: list[Expr] = [p.pool[t] if not s and not g else 0 for (t, s, g) in self.kinds]
        late_out: list[Expr] = [0] * len(self.kinds)
        damage_terms: list[Expr] = []
        ab_life_terms: list[Expr] = []
        fx_terms: list[list[Expr]] = [[] for _ in p.effects]

        # pool leftovers; restricted mana in the pool is mana of its tag's kinds (CR 106.6)
        in_pool = {(g, t): amounts[t] for g, amounts in p.restricted_pool for t in range(6) if amounts[t]}
        for k, (t, s, g) in enumerate(self.kinds):
            n = (in_pool.get((g, t), 0) if g else p.pool[t]) if not s else 0
            if n:
                lp = self._int(0, n, f"left_pool[{TYPES[t]}{f',{g}' if g else ''}]")
                base[k] = base[k] + n - lp if g else base[k] - lp
                left_by_kind[k].append(lp)

        return _Build(K, left_by_kind, amounts_cache, taps, free_taps, self_sacs, early_sacs, late_sacs, slot_sacs,
                      costed_tap_classes, sq_abilities, base, late_out, damage_terms, ab_life_terms, fx_terms)

    def _kind_amounts(self, b: _Build, o: Outcome) -> list[int]:
        """The mana of outcome ``o`` per kind of mana (cached per outcome)."""
        out = b.amounts_cache.get(o)
        if out is None:
            out = []
            for t, s, g in self.kinds:
                if g == 0:
                    free, free_snow = o.mana[t] - o.restricted[t], o.snow[t] - o.restricted_snow[t]
                elif g == o.tag:
                    free, free_snow = o.restricted[t], o.restricted_snow[t]
                else:
                    free, free_snow = 0, 0
                out.append(free if not self.snow else (free_snow if s else free - free_snow))
            b.amounts_cache[o] = out
        return out

    def _fx_add(self, b: _Build, vec: tuple[int, ...], n: Expr) -> None:
        """Records ``n`` times the riders' effects ``vec`` (per PaymentProblem.effects)."""
        for i, v in enumerate(vec):
            if v:
                b.fx_terms[i].append(v * n)

    def _produced(self, b: _Build, o: Outcome, n: Expr, cap: int, label: str) -> list[Expr]:
        """The mana ``n`` activations with outcome ``o`` add, per kind, net of what they
        leave in the pool: at most ``total - 1`` of each activation's mana is left, so that
        every activation contributes mana that is spent (contract §2.3). Also records the
        outcome's damage and riders' effects. ``cap``: the most activations; ``label``
        names the leftover variables."""
        K, left_by_kind, damage_terms = b.K, b.left_by_kind, b.damage_terms
        amt = self._kind_amounts(b, o)
        prod = [n * amt[k] if amt[k] else 0 for k in K]
        if o.total >= 2:
            lefts = []
            for k in K:
                if amt[k]:
                    lv = self._int(0, cap * amt[k], f"{label},{k}]")
                    self._add(lv <= n * amt[k])
                    lefts.append(lv)
                    prod[k] = prod[k] - lv
                    left_by_kind[k].append(lv)
            self._add(sum(lefts) <= n * (o.total - 1))
        if o.damage:
            damage_terms.append(o.damage * n)
        if o.effects:
            self._fx_add(b, o.effects, n)
        return prod

    def _free_abilities(self, b: _Build) -> None:
        """Cost-free mana abilities: counts per (ability, outcome, phase); the abilities with a mana
        cost are listed in ``b.costed``."""
        p, K, costed = self.p, b.K, b.costed
        base, taps, free_taps, self_sacs, early_sacs = b.base, b.taps, b.free_taps, b.self_sacs, b.early_sacs
        ab_life_terms = b.ab_life_terms
        for ai, a in enumerate(p.abilities):
            if a.costed:
                if a.life:
                    raise Unsupported(f"{a.label}: a mana ability whose cost includes both mana and life")
                costed.append(ai)
                continue
            phases = ["early"]
            total_n = []
            for j, o in enumerate(a.outcomes):
                if o.total == 0:
                    continue
                for ph in phases:
                    n = self._int(0, a.cap, f"n[{ai},{j},{ph}]")
                    total_n.append(n)
                    prod = self._produced(b, o, n, a.cap, f"left[{ai},{j},{ph}")
                    for k in K:
                        if not isinstance(prod[k], int) or prod[k]:
                            base[k] = base[k] + prod[k]
                    if a.life:
                        ab_life_terms.append(a.life * n)
                    # bookkeeping on classes
                    if a.sac_self:
                        self_sacs[a.cls].append(n)
                    elif a.tap:
                        taps[a.cls].setdefault(a.fate, []).append(n)
                        free_taps[a.cls].setdefault(a.fate, []).append(n)
                    if a.sac_cls is not None:
                        early_sacs[a.sac_cls].append(n)
            if not total_n:
                continue
            if len(total_n) > 1:
                self._add(sum(total_n) <= a.cap)
            if a.tap_creatures:
                cre = list(a.tap_classes) if a.tap_classes is not None else \
                    [c for c, pc in enumerate(p.classes) if pc.creature and not pc.tapped]
                dts = []
                for c in cre:
                    dt = self._int(0, min(a.cap * a.tap_creatures, len(p.classes[c].members)), f"drum[{ai},{c}]")
                    dts.append(dt)
                    taps[c].setdefault(None, []).append(dt)
                    free_taps[c].setdefault(None, []).append(dt)
                self._add(sum(dts) == a.tap_creatures * sum(total_n))

    def _costed_first(self, b: _Build) -> None:
        """Mana abilities with a mana cost, restricted (sound, not complete): every such ability
        is paid from the mana that exists before any of them (pool and cost-free abilities); its
        mana pays only the total cost. None is left for the slots."""
        p, K, costed = self.p, b.K, b.costed
        base, late_out, taps, self_sacs, early_sacs = b.base, b.late_out, b.taps, b.self_sacs, b.early_sacs
        # restricted (sound, not complete): every such ability is paid from the mana that
        # exists before any of them (pool and cost-free abilities); its mana pays only the total cost
        demand1: dict[str, Expr] = {}
        reqs1 = set()
        for ai in costed:
            a = p.abilities[ai]
            total_n = []
            for j, o in enumerate(a.outcomes):
                if o.total == 0:
                    continue
                n = self._int(0, a.cap, f"n1[{ai},{j}]")
                total_n.append(n)
                prod = self._produced(b, o, n, a.cap, f"left1[{ai},{j}")
                for k in K:
                    if not isinstance(prod[k], int) or prod[k]:
                        late_out[k] = late_out[k] + prod[k]
                if a.sac_self:
                    self_sacs[a.cls].append(n)
                elif a.tap:
                    taps[a.cls].setdefault(a.fate, []).append(n)
                if a.sac_cls is not None:
                    early_sacs[a.sac_cls].append(n)
            if not total_n:
                continue
            used_a = sum(total_n)
            self._add(used_a <= a.cap)
            for sym, cnt in Counter(a.mana_cost.symbols).items():
                opts = symbol_options(sym, False)
                if len(opts) == 1:
                    r, n_ = opts[0]
                    demand1[r] = demand1.get(r, 0) + cnt * n_ * used_a
                    reqs1.add(r)
                else:
                    hs = []
                    for r, n_ in opts:
                        h = self._int(0, cnt * a.cap, f"h1[{ai},{sym.text},{r}]")
                        hs.append(h)
                        demand1[r] = demand1.get(r, 0) + n_ * h
                        reqs1.add(r)
                    self._add(sum(hs) == cnt * used_a)
        pay1 = self._transport(demand1, "level1", sorted(r for r in reqs1 if r != GENERIC))
        for k in K:
            # restricted mana pays here only if every costed ability allows it (sound, CR 106.6)
            g = self.kinds[k][2]
            if g and not all(ai in p.rules[g - 1].abilities for ai in costed):
                self._add(pay1[k] == 0)
            self._add(base[k] >= pay1[k])
            base[k] = base[k] - pay1[k]
        b.costed = []

    def _costed_slots(self, b: _Build) -> None:
        """Mana abilities with a mana cost, exact: in ordered slots, each paid from the mana made
        before it (``b.cum``: the net mana of earlier slots)."""
        p, costed = self.p, b.costed
        slots_cap = 0
        seen_cls = set()
        for ai in costed:
            a = p.abilities[ai]
            if a.tap:
                if a.cls not in seen_cls:
                    seen_cls.add(a.cls)
                    slots_cap += len(p.classes[a.cls].members)
            else:
                slots_cap += a.cap
        self.slot_sel: list[list[tuple[int, int, Expr]]] = []
        b.cum = [0] * len(self.kinds)    # net mana made available by earlier slots
        prev_act = None
        slot_reqs = sorted({r for ai in costed for s in p.abilities[ai].mana_cost.symbols
                            for r, _ in symbol_options(s, False) if r != GENERIC})
        for s_i in range(slots_cap):
            act = self._slot(b, s_i, slot_reqs, prev_act)
            if act is None:
                break
            prev_act = act

    def _slot(self, b: _Build, s_i: int, slot_reqs: list[str], prev_act: Expr) -> Expr:
        """Slot ``s_i``: at most one activation of a mana ability with a mana cost, no earlier
        than the slot before (``prev_act``); what it makes and leaves, a sacrifice right after it
        (Squandered Resources), and its own mana cost. Returns its activation count (None: no
        ability can take a slot)."""
        p, K, costed, cum, base, left_by_kind = self.p, b.K, b.costed, b.cum, b.base, b.left_by_kind
        taps, self_sacs, early_sacs, slot_sacs = b.taps, b.self_sacs, b.early_sacs, b.slot_sacs
        costed_tap_classes, sq_abilities, ab_life_terms = b.costed_tap_classes, b.sq_abilities, b.ab_life_terms
        damage_terms = b.damage_terms
        options = []
        for ai in costed:
            a = p.abilities[ai]
            for j, o in enumerate(a.outcomes):
                if o.total == 0:
                    continue
                options.append((ai, j, self.m.new_bool_var(f"slot[{s_i}]={ai},{j}")))
        if not options:
            return None
        act = sum(v for _, _, v in options)
        self._add(act <= 1)
        if prev_act is not None:
            self._add(act <= prev_act)
        self.slot_sel.append(options)
        out: list[Expr] = [0] * len(self.kinds)
        tot: Expr = 0
        for ai, j, v in options:
            a = p.abilities[ai]
            o = a.outcomes[j]
            amt = self._kind_amounts(b, o)
            for k in K:
                if amt[k]:
                    out[k] = out[k] + amt[k] * v
            tot = tot + o.total * v
            if o.damage:
                damage_terms.append(o.damage * v)
            if o.effects:
                self._fx_add(b, o.effects, v)
            if a.sac_self:
                self_sacs[a.cls].append(v)
            elif a.tap:
                taps[a.cls].setdefault(a.fate, []).append(v)
            if a.sac_cls is not None:
                early_sacs[a.sac_cls].append(v)
        # leftovers of this slot
        lefts = []
        for k in K:
            mx = max((self._kind_amounts(b, p.abilities[ai].outcomes[j])[k] for ai, j, _ in options), default=0)
            if mx and max(p.abilities[ai].outcomes[j].total for ai, j, _ in options) >= 2:
                lv = self._int(0, mx, f"left_slot[{s_i},{k}]")
                self._add(lv <= out[k])
                lefts.append(lv)
                out[k] = out[k] - lv
                left_by_kind[k].append(lv)
        if lefts:
            self._add(sum(lefts) <= tot - act)
        # a sacrifice (Squandered Resources) of the member this slot just tapped
        for c in sorted({p.abilities[ai].cls for ai, _, _ in options} & costed_tap_classes):
            for f in sorted({p.abilities[ai].fate for ai, _, _ in options if p.abilities[ai].cls == c},
                            key=_fate_order):
                here = _total(v for ai, _, v in options if p.abilities[ai].cls == c
                              and p.abilities[ai].fate == f and p.abilities[ai].tap
                              and not p.abilities[ai].sac_self)
                sqs = []
                for gi in sq_abilities:
                    sq = p.abilities[gi]
                    if sq.sac_cls != c:
                        continue
                    for j, o in enumerate(sq.outcomes):
                        if o.total == 0:
                            continue
                        v = self.m.new_bool_var(f"slot_sac[{s_i},{gi},{j},{f}]")
                        sqs.append(v)
                        slot_sacs[c].setdefault(f, []).append(v)
                        prod = self._produced(b, o, v, 1, f"left_sq[{s_i},{gi},{j}")
                        for k in K:
                            if not isinstance(prod[k], int) or prod[k]:
                                out[k] = out[k] + prod[k]
                        if sq.life:
                            ab_life_terms.append(sq.life * v)
                if sqs:
                    self._add(sum(sqs) <= here)
        # the slot's own mana cost
        demand: dict[str, Expr] = {}
        for ai in costed:
            a = p.abilities[ai]
            sel_a = sum(v for (bi, _, v) in options if bi == ai)
            for sym, cnt in Counter(a.mana_cost.symbols).items():
                opts = symbol_options(sym, False)
                if len(opts) == 1:
                    r, n_ = opts[0]
                    demand[r] = demand.get(r, 0) + cnt * n_ * sel_a
                else:
                    hs = []
                    for r, n_ in opts:
                        h = self._int(0, cnt, f"slot_h[{s_i},{ai},{sym.text},{r}]")
                        hs.append(h)
                        demand[r] = demand.get(r, 0) + n_ * h
                    self._add(sum(hs) == cnt * sel_a)
        pay = self._transport(demand, f"slot{s_i}", slot_reqs)
        for k in K:
            g = self.kinds[k][2]
            if g:  # restricted mana pays only the abilities its restriction allows (CR 106.6)
                ok = [v for ai, _, v in options if ai in p.rules[g - 1].abilities]
                if len(ok) < len(options):
                    self._add(pay[k] <= self.ub * _total(ok))
            self._add(base[k] + cum[k] >= pay[k])
            cum[k] = cum[k] + out[k] - pay[k]
        return act

    def _total_mana(self, b: _Build) -> None:
        """The total cost's mana (CR 601.2h): its symbols, X, the spell's other ways to pay it
        (delve, convoke …) and the mana that pays it."""
        p, main, K = self.p, self.p.main, b.K
        base, cum, late_out, taps = b.base, b.cum, b.late_out, b.taps
        x_upper = main.x_upper
        spend = [base[k] + cum[k] + late_out[k] for k in K]
        demand: dict[str, Expr] = {}
        self.x_var = None
        if main.mana.x_count:
            if main.x is None:
                self.x_var = self._int(0, x_upper, "X")
                xs = self.x_var
            else:
                xs = main.x
        else:
            xs = 0
        main_life = 0
        plain = Counter(s for s in main.mana.symbols if s.kind not in ("X",))
        generic_n = sum(s.generic * c for s, c in plain.items() if s.kind == "generic")
        exact: Counter[str] = Counter()
        exact_text: dict[str, str] = {}
        multi = []
        for sym, cnt in sorted(plain.items(), key=lambda kv: kv[0].sort_key()):
            if sym.kind == "generic":
                continue
            opts = symbol_options(sym, main.life_allowed)
            if len(opts) == 1:
                exact[opts[0][0]] += cnt * opts[0][1]
                exact_text[opts[0][0]] = exact_text.get(opts[0][0], "") + sym.text * cnt
            else:
                multi.append((sym, cnt, opts))
        for r in sorted(exact, key=_req_order):
            lit = self._part(f"mana:{r}", exact_text[r])
            demand[r] = demand.get(r, 0) + exact[r] * lit
        x_generic = main.mana.x_count if main.x_type is None else 0
        if main.x_type is not None and main.mana.x_count:
            demand[main.x_type] = demand.get(main.x_type, 0) + main.mana.x_count * xs
        if generic_n or x_generic:
            fixed_x = (main.x or 0) * x_generic
            txt = ("{X}" * x_generic if main.x is None else "") + (
                "{%d}" % (generic_n + fixed_x) if generic_n + fixed_x else "")
            lit = self._part("generic", txt or "{0}")
            g = generic_n + x_generic * xs
            if self.explain_mode:
                gv = self._int(0, generic_n + x_generic * (x_upper if main.x is None else main.x), "gen_demand")
                self.m.add(gv == g).only_enforce_if(lit)   # never a constant: gv is a variable
                self.m.add(gv == 0).only_enforce_if(~lit)
                g = gv
            demand[GENERIC] = demand.get(GENERIC, 0) + g
        for sym, cnt, opts in multi:
            lit = self._part(f"sym:{sym.text}", sym.text * cnt)
            hs = []
            for r, n_ in opts:
                h = self._int(0, cnt, f"h[{sym.text},{r}]")
                hs.append(h)
                if r == "life":
                    main_life = main_life + n_ * h
                else:
                    demand[r] = demand.get(r, 0) + n_ * h
            self._add(sum(hs) == cnt * lit)
        self._add_helps(demand, taps)
        for k, (t, s, g) in enumerate(self.kinds):
            if g and not p.rules[g - 1].main:
                self._add(spend[k] == 0)   # CR 106.6: this restricted mana can't pay the total cost
        pay = self._transport(demand, "main", sorted(r for r in demand if r != GENERIC), spend_exact=spend)
        self.spend = spend
        b.main_life = main_life

    def _other_parts(self, b: _Build) -> None:
        """The non-mana parts of the total cost: {T}, {Q}, life, tapping creatures, sacrifices,
        counters removed."""
        p, main, main_life = self.p, self.p.main, b.main_life
        taps, self_sacs, early_sacs, late_sacs, slot_sacs = b.taps, b.self_sacs, b.early_sacs, b.late_sacs, b.slot_sacs
        src = main.source_cls
        if main.tap_symbol_blocked:
            self._forbid(self._part("tap_symbol", ""))
        if main.life:
            lit = self._part("life", f"Pay {main.life} life")
            main_life = main_life + main.life * lit
        if main.tap_creatures:
            lit = self._part("tap_creatures", "")
            mts = []
            for c in main.tap_creature_classes:
                v = self._int(0, min(main.tap_creatures, len(p.classes[c].members)), f"maintap[{c}]")
                mts.append(v)
                taps[c].setdefault(None, []).append(v)
            if mts:
                self._add(sum(mts) == main.tap_creatures * lit)
            else:
                self._forbid(lit)
        if main.sacrifice_classes is not None:
            lit = self._part("sacrifice", main.sacrifice_text)
            ms = []
            for c in main.sacrifice_classes:
                v = self._int(0, 1, f"mainsac[{c}]")
                ms.append(v)
                late_sacs[c].append(v)
            if ms:
                self._add(sum(ms) == lit)
            else:
                self._forbid(lit)
        if src is not None:
            sc = p.classes[src]
            mana_taps = _total(v for vs in taps[src].values() for v in vs)
            if main.tap or main.untap or main.sac_self or main.remove_counters:
                # the source must still be on the battlefield when the total cost is paid (CR 601.2h)
                for v in early_sacs[src] + self_sacs[src] + [v for vs in slot_sacs[src].values() for v in vs]:
                    self._add(v == 0)
            if main.tap:
                lit = self._part("tap", "{T}")
                if sc.tapped:
                    self._forbid(lit)
                else:
                    # untapped when the cost is paid: not tapped by its own mana abilities or a Drum
                    self._enforce(self._add(mana_taps == 0), lit)
                    taps[src].setdefault(MAIN_TAP, []).append(lit)
            if main.untap:
                lit = self._part("untap", "{Q}")
                if not sc.tapped:
                    # tapped when the cost is paid: only if a mana ability (or a Drum) tapped it
                    self._enforce(self._add(mana_taps >= 1), lit)
            if main.sac_self:
                lit = self._part("sacrifice_self", f"Sacrifice {main.source_name}")
                late_sacs[src].append(lit)
            if main.remove_counters:
                lit = self._part("counters", "")
                used = _total(f[1] * v for f, vs in taps[src].items() if is_counter_fate(f) for v in vs)
                self._add(used + main.remove_counters * lit <= sc.counters)
        b.main_life = main_life

    def _class_limits(self, b: _Build) -> None:
        """Classes: each member tapped once, sacrificed once (tap before sacrifice)."""
        p, taps, free_taps = self.p, b.taps, b.free_taps
        self_sacs, early_sacs, late_sacs, slot_sacs = b.self_sacs, b.early_sacs, b.late_sacs, b.slot_sacs
        self.kept: list[dict[Any, Expr]] = []
        self.sacrificed: list[Expr] = []
        for c, pc in enumerate(p.classes):
            size = len(pc.members)
            late_all = late_sacs[c]
            S_self, S_e, S_l = _total(self_sacs[c]), _total(early_sacs[c]), _total(late_all)
            zsq = {f: _total(vs) for f, vs in slot_sacs[c].items()}
            S_sq = _total(zsq.values())
            kept: dict[Any, Expr] = {}
            self.kept.append(kept)
            self.sacrificed.append(S_self + S_e + S_l + S_sq)
            if pc.tapped:
                if self_sacs[c] or early_sacs[c] or late_all:
                    self._add(S_self + S_e + S_l <= size)
                continue
            used = S_self + S_sq
            ze_all, zl_all = [], []
            for f, vs in taps[c].items():
                tf = _total(vs)
                z = 0
                if early_sacs[c] and f in free_taps[c]:
                    # sacrificed at the start (its mana may pay a costed ability): only after a cost-free tap
                    ze = self._int(0, size, f"ze[{c},{f}]")
                    self._add(ze <= _total(free_taps[c][f]))
                    ze_all.append(ze)
                    z = z + ze
                if late_all:
                    zl = self._int(0, size, f"zl[{c},{f}]")
                    zl_all.append(zl)
                    z = z + zl
                z = z + zsq.get(f, 0)
                if not isinstance(z, int):
                    self._add(z <= tf)
                kept[f] = tf - z
                used = used + tf - z
            if ze_all:
                self._add(sum(ze_all) <= S_e)
            if zl_all:
                self._add(sum(zl_all) <= S_l)
            used = used + S_e + S_l
            if not isinstance(used, int):
                self._add(used <= size)

    def _life_and_damage(self, b: _Build) -> None:
        """Life (CR 119.4) and damage; what is left in the pool; X."""
        p, main, main_life = self.p, self.p.main, b.main_life
        ab_life_terms, damage_terms, fx_terms, left_by_kind = b.ab_life_terms, b.damage_terms, b.fx_terms, b.left_by_kind
        L = p.life_total
        ab_life = sum(ab_life_terms) if ab_life_terms else 0
        dmg = sum(damage_terms) if damage_terms else 0
        # riders: life gained first (the player orders the activations), lost after (CR 119.4)
        gained, lost = LifeEffect("gain", p.player), LifeEffect("lose", p.player)
        gain = _total(fx_terms[p.effects.index(gained)]) if gained in p.effects else 0
        lose = _total(fx_terms[p.effects.index(lost)]) if lost in p.effects else 0
        if ab_life_terms:
            self._add(ab_life <= max(L, 0) + gain)
        if not isinstance(main_life, int):
            pos = self.m.new_bool_var("main_life_pos")
            # never constants: main_life is an expression
            self.m.add(main_life >= 1).only_enforce_if(pos)
            self.m.add(main_life == 0).only_enforce_if(~pos)
            self.m.add(main_life + ab_life + dmg + lose - gain <= L).only_enforce_if(pos)
        elif main_life > 0:
            self._add(main_life + ab_life + dmg + lose - gain <= L)
        self.life_expr = ab_life + main_life
        self.damage_expr = dmg
        self.pool_after = [_total(v for k, (t2, _, g) in enumerate(self.kinds) if t2 == t and not g
                                  for v in left_by_kind[k]) for t in range(6)]
        self.restricted_slots = sorted({(g, t) for t, _, g in self.kinds if g})
        self.restricted_after = [_total(v for k, (t2, _, g2) in enumerate(self.kinds) if (g2, t2) == (g, t)
                                        for v in left_by_kind[k]) for g, t in self.restricted_slots]
        self.x_expr = self.x_var if self.x_var is not None else (main.x or 0)

    def _key_parts(self, b: _Build) -> None:
        """The key (what makes two payments different, contract §2.3), each part with a safe bound."""
        p, main, fx_terms = self.p, self.p.main, b.fx_terms
        L, ncls, x_upper = p.life_total, len(p.classes), main.x_upper
        dmg_ub = sum(a.cap * max((o.damage for o in a.outcomes), default=0) for a in p.abilities)
        parts: list[tuple[str, object, int]] = []
        for c in range(ncls):
            size = len(p.classes[c].members)
            parts.append((f"sac{c}", self.sacrificed[c], size))
            for f in sorted(self.kept[c], key=_fate_order):
                parts.append((f"kept{c}:{f}", self.kept[c][f], size))
        parts.append(("life", self.life_expr, max(L, 0)))
        parts.append(("damage", self.damage_expr, dmg_ub))
        parts.append(("x", self.x_expr, x_upper if main.x is None else main.x))
        for t in range(6):
            parts.append((f"pool{t}", self.pool_after[t], self.ub))
        for (g, t), e in zip(self.restricted_slots, self.restricted_after):
            parts.append((f"rpool{g},{t}", e, self.ub))
        for i, name in enumerate(p.effects):
            fx_ub = sum(a.cap * max((o.effects[i] for o in a.outcomes if o.effects), default=0)
                        for a in p.abilities)
            parts.append((f"fx:{name}", _total(fx_terms[i]), fx_ub))
        for i, v in enumerate(self.delved):
            parts.append((f"delve{i}", v, len(main.delve_classes[i])))
        # integer variables for the parts that vary, and a few "codes" packing them (mixed radix)
        # so that a solution's key is read with one or two lookups
        self.key_exprs: list[tuple[str, Expr]] = []
        self.codes: list[Expr] = []
        chunk, weight = 0, 1
        for name, e, bound in parts:
            if isinstance(e, int) or not self.with_keys:
                self.key_exprs.append((name, e))
                continue
            v = self._int(0, bound, f"key[{name}]")
            self._add(v == e)
            self.key_exprs.append((name, v))
            if weight * (bound + 1) >= 1 << 62:
                self.codes.append(chunk)
                chunk, weight = 0, 1
            chunk = chunk + weight * v
            weight *= bound + 1
        if not isinstance(chunk, int):
            self.codes.append(chunk)

    def _add_helps(self, demand: dict[str, Expr], taps: list[dict[Fate, list[Expr]]]) -> None:
        """The spell's other ways to pay its total cost, taken off ``demand`` before mana pays
        the rest (CR 601.2h):

        * delve (CR 702.66a): per class of interchangeable graveyard cards, how many are
          exiled, each paying {1} (``self.delved``, part of the key: which cards matters);
        * convoke (CR 702.51a): per untapped creature class, how many are tapped (counted
          with the class's other taps, so a creature is tapped once), each paying {1} or one
          colored symbol of one of its colors (never {C} or {S});
        * improvise (CR 702.126a): per untapped artifact class, how many are tapped, each
          paying {1}.

        Which creature paid which symbol is not part of the key: the situation left behind
        is the same (contract §2.3)."""
        p, main = self.p, self.p.main
        self.delved: list[Expr] = []
        gen_help: list[Expr] = []
        color_help: dict[str, list[Expr]] = {}
        for i, ids in enumerate(main.delve_classes):
            v = self._int(0, len(ids), f"delve[{i}]")
            self.delved.append(v)
            gen_help.append(v)
        for c, colors in main.convoke_classes:
            size = len(p.classes[c].members)
            n = self._int(0, size, f"convoke[{c}]")
            taps[c].setdefault(None, []).append(n)
            paid = []
            for r in colors:
                if r in demand:
                    y = self._int(0, size, f"convoke[{c},{r}]")
                    color_help.setdefault(r, []).append(y)
                    paid.append(y)
            g = self._int(0, size, f"convoke[{c},gen]")
            gen_help.append(g)
            self._add(sum(paid) + g == n)
        for c in main.improvise_classes:
            n = self._int(0, len(p.classes[c].members), f"improvise[{c}]")
            taps[c].setdefault(None, []).append(n)
            gen_help.append(n)
        for r, ys in color_help.items():
            demand[r] = demand[r] - sum(ys)
            self._add(demand[r] >= 0)
        if gen_help:
            demand[GENERIC] = demand.get(GENERIC, 0) - sum(gen_help)
            self._add(demand[GENERIC] >= 0)

    def _transport(self, demand: dict[str, Expr], tag: str, reqs: Iterable[str],
                   spend_exact: list[Expr] | None = None) -> list[Expr]:
        """Pay ``demand`` (req -> linear expr) with mana of each kind.

        Returns the amount of each kind spent (linear expressions). With
        ``spend_exact`` the amounts spent are given (the total cost spends all
        mana that is not left in the pool) and must match the demand exactly.
        """
        m = self.m
        K = range(len(self.kinds))
        celestial = self.p.celestial
        reqs = [r for r in reqs if r in demand]
        u: dict[tuple[int, str], Expr] = {}
        for r in reqs:
            col = []
            for k in K:
                t, s, _ = self.kinds[k]
                if can_spend(TYPES[t], s, r, celestial):
                    v = self._int(0, self.ub, f"u[{tag},{k},{r}]")
                    u[k, r] = v
                    col.append(v)
            if col:
                self._add(sum(col) == demand[r])
            else:
                self._add(demand[r] == 0)
        gen = demand.get(GENERIC, 0)
        if spend_exact is not None:
            for k in K:
                used = [u[k, r] for r in reqs if (k, r) in u]
                if used:
                    self._add(sum(used) <= spend_exact[k])
            self._add(sum(spend_exact) == sum(demand[r] for r in reqs) + gen)
            return spend_exact
        pay: list[Expr] = []
        gs: list[Expr] = []
        for k in K:
            g = self._int(0, self.ub, f"g[{tag},{k}]") if not isinstance(gen, int) or gen else 0
            if not isinstance(g, int):
                gs.append(g)
            used = [u[k, r] for r in reqs if (k, r) in u]
            pay.append((sum(used) if used else 0) + g)
        if gs:
            self._add(sum(gs) == gen)
        return pay

    # -- solving ------------------------------------------------------------
    def _solver(self, time_limit: float | None) -> cp_model.CpSolver:
        # small models solved many times: symmetry detection and presolve cost more than they save
        return new_solver(time_limit, symmetry_level=0, cp_model_presolve=PRESOLVE)

    def payable(self, time_limit: float | None = None) -> bool | None:
        """One solve: can the total cost be paid? ``None`` on timeout."""
        s = self._solver(time_limit)
        st = s.solve(self.m)
        if st in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return True
        if st == cp_model.INFEASIBLE:
            return False
        return None

    @property
    def has_chains(self) -> bool:
        """Does the model order mana abilities that have a mana cost (slots)?"""
        return bool(self.slot_sel)

    def max_x(self, time_limit: float | None = None) -> int | None:
        """The largest payable X (``x: any``), or None if nothing is payable / timeout."""
        if self.x_var is None:
            return None
        self.m.maximize(self.x_var)
        s = self._solver(time_limit)
        st = s.solve(self.m)
        self.m.clear_objective()
        if st == cp_model.OPTIMAL:
            return int(s.value(self.x_var))
        return None

    def _eq_lit(self, idx: int, expr: Expr, value: int) -> cp_model.IntVar:
        key = (idx, value)
        lit = self._eq_cache.get(key)
        if lit is None:
            lit = self.m.new_bool_var(f"key[{idx}]=={value}")
            self.m.add(expr == value).only_enforce_if(lit)
            self.m.add(expr != value).only_enforce_if(~lit)
            self._eq_cache[key] = lit
        return lit

    def enumerate(self, limit: int | None = None, deadline: float | None = None) -> EnumerationResult:
        """Every distinct payment (at most ``limit``; ``complete`` says whether that is all).

        Phase 1 lets CP-SAT enumerate all solutions natively and keeps the
        distinct keys; the auxiliary choices (which color an any-color source
        made when it paid generic mana, the order of filter lands, …) make
        several solutions per key. If that multiplicity gets large (more than
        :data:`MAX_REPEATS` solutions per key found), phase 2 takes over: each
        solve must find a key not seen yet (a no-good per key), one solve per
        payment, until the model is infeasible. Either way no key is listed
        twice and the result is exact.
        """
        want = None if limit is None else limit + 1   # one more tells whether the listing is complete
        keys: dict[tuple[int, ...], PaymentKey] = {}
        seen: set[tuple[int, ...]] = set()
        variable = [(i, e) for i, (_, e) in enumerate(self.key_exprs) if not isinstance(e, int)]
        model = self

        class _Collect(cp_model.CpSolverSolutionCallback):
            def __init__(self) -> None:
                super().__init__()
                self.raw = 0
                self.switch = False

            def on_solution_callback(self) -> None:
                self.raw += 1
                code = tuple(self.value(c) for c in model.codes)
                if code not in seen:
                    values = tuple(int(self.value(e)) if not isinstance(e, int) else e for _, e in model.key_exprs)
                    seen.add(code)
                    keys[values] = model._key(list(values))
                if want is not None and len(keys) >= want:
                    self.stop_search()
                elif self.raw > MAX_REPEATS * len(keys) + MAX_REPEATS_SLACK:
                    self.switch = True
                    self.stop_search()

        s = self._solver(self._left(deadline))
        s.parameters.enumerate_all_solutions = True
        s.parameters.linearization_level = 0   # many cheap solutions: the LP relaxation only slows them
        cb = _Collect()
        st = s.solve(self.m, cb)

        def done(complete: bool, timed_out: bool = False) -> EnumerationResult:
            found = list(keys.values())
            if want is not None and len(found) >= want:
                return EnumerationResult(found[:limit], complete=False)
            return EnumerationResult(found, complete=complete, timed_out=timed_out)

        if want is not None and len(keys) >= want:
            return done(False)
        if not cb.switch:
            if st in (cp_model.OPTIMAL, cp_model.INFEASIBLE):
                return done(True)
            return done(False, timed_out=True)
        # phase 2: one solve per new key
        s = self._solver(None)
        while True:
            if not variable:
                return done(True)
            for values in list(keys):
                if values not in self._blocked:
                    self._blocked.add(values)
                    self.m.add_bool_or([~self._eq_lit(i, e, values[i]) for i, e in variable])
            if want is not None and len(keys) >= want:
                return done(False)
            left = self._left(deadline)
            if left is not None:
                if left <= 0:
                    return done(False, timed_out=True)
                s.parameters.max_time_in_seconds = left
            st = s.solve(self.m)
            if st == cp_model.INFEASIBLE:
                return done(True)
            if st not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
                return done(False, timed_out=True)
            values = tuple(int(s.value(e)) if not isinstance(e, int) else e for _, e in self.key_exprs)
            keys[values] = self._key(list(values))

    @staticmethod
    def _left(deadline: float | None) -> float | None:
        return None if deadline is None else deadline - time.monotonic()

    def _key(self, values: list[int]) -> PaymentKey:
        it = iter(values)
        sac, kept = [], []
        if self._fates is None:
            self._fates = [sorted(k, key=_fate_order) for k in self.kept]
        for c in range(len(self.p.classes)):
            sac.append(next(it))
            kept.append(tuple((f, next(it)) for f in self._fates[c]))
        life, damage, x = next(it), next(it), next(it)
        pool = tuple(next(it) for _ in range(6))
        restricted = tuple((g, t, n) for (g, t) in self.restricted_slots if (n := next(it)))
        effects = tuple(next(it) for _ in self.p.effects)
        delved = tuple(next(it) for _ in self.p.main.delve_classes)
        return PaymentKey(tuple(sac), tuple(kept), life, damage, x, pool, restricted, effects, delved)


def _total(items: Iterable[Expr]) -> Expr:
    """Sum of linear expressions, 0 when empty."""
    out = 0
    for v in items:
        out = out + v
    return out


class Unsupported(UnsupportedCase):
    """A payment the model can't represent exactly (reported, never approximated)."""


def _req_order(r: str) -> int:
    return (list(TYPES) + [SNOW, GENERIC]).index(r)


def _fate_order(f: Fate) -> tuple[int | str | tuple[Mark, ...], ...]:
    """Fates in the order a class's members are named: counters removed (fewest first), then
    tapped for mana, then tapped by the total cost's {T}."""
    if f is None:
        return (2, "", 0)
    if isinstance(f, MainTap):   # f == MAIN_TAP (every MainTap is equal)
        return (3, "", 0)
    return (1, f[0], f[1]) + ((f[2],) if len(f) > 2 else ())


# ---------------------------------------------------------------------------
# Decoding
# ---------------------------------------------------------------------------


def decode(problem: PaymentProblem, key: PaymentKey) -> Paid:
    """The payment a key stands for (contract §2.3), as a :class:`Paid`.

    Within a class, the payment names the first members in board order:
    those sacrificed first, then those left tapped with counters removed
    (fewest first), then those left tapped.
    """
    tap: list[str] = []
    untap: list[str] = []
    sac: list[str] = []
    removed: dict[str, tuple[str, int]] = {}
    marked: dict[str, tuple[Mark, ...]] = {}     # member -> what riders left on it (skip untap, counters added)
    main = problem.main
    for c, pc in enumerate(problem.classes):
        members = list(pc.members)
        ns = key.sacrificed[c]
        sac.extend(members[:ns])
        rest = members[ns:]
        kept = dict(key.kept_tapped[c])
        if c == main.source_cls and ns == 0:
            # the source's final state: {T} taps it, {Q} untaps it (CR 107.5, 107.6)
            oid = rest[0]
            mana_tapped = sum(n for f, n in kept.items() if f != MAIN_TAP)
            final_tapped = pc.tapped or mana_tapped > 0 or main.tap
            if main.untap:
                final_tapped = False
            if final_tapped and not pc.tapped:
                tap.append(oid)
            if not final_tapped and pc.tapped:
                untap.append(oid)
            cnt = main.remove_counters + sum(f[1] * n for f, n in kept.items() if is_counter_fate(f))
            if cnt:
                name = main.counter_name or next((f[0] for f, n in kept.items()
                                                  if is_counter_fate(f) and n and f[1]), "")
                removed[oid] = (name, cnt)
            marks = tuple(m for f, n in kept.items() if n and is_counter_fate(f) and len(f) > 2 for m in f[2])
            if marks:
                marked[oid] = marks
            continue
        if pc.tapped:
            continue
        i = 0
        for f in sorted(kept, key=_fate_order):
            for _ in range(kept[f]):
                oid = rest[i]
                i += 1
                tap.append(oid)
                if is_counter_fate(f) and f[1]:
                    removed[oid] = (f[0], f[1])
                if is_counter_fate(f) and len(f) > 2:
                    marked[oid] = f[2]
    exiled = sorted(oid for ids, n in zip(main.delve_classes, key.delved) for oid in ids[:n])
    restricted: dict[str, list[int]] = {}
    for g, t, n in key.restricted_after:
        # restricted mana left in the pool keeps its restriction (CR 106.6)
        restricted.setdefault(problem.rules[g - 1].text, [0] * 6)[t] += n
    paid = Paid(problem.player, tuple(sorted(tap)), tuple(sorted(untap)), tuple(sorted(sac)), key.life, key.damage,
                key.x, tuple(key.pool_after), tuple((oid, *removed[oid]) for oid in sorted(removed)), tuple(exiled),
                restricted_after=tuple((text, tuple(restricted[text])) for text in sorted(restricted)))
    return _decode_riders(problem, key, marked, paid)


def _decode_riders(problem: PaymentProblem, key: PaymentKey, marked: dict[str, tuple[Mark, ...]], paid: Paid) -> Paid:
    """``paid`` with the riders of the mana abilities it activates (CR 605.1a): members whose
    untap is skipped, counters added (by the riders) or put (as a cost), life gained or lost
    (per player), cards the paying player draws, and the uses of per-turn-limited abilities
    without {T} (CR 602.5b)."""
    skip = sorted(oid for oid, ms in marked.items() if any(m[0] == "skip_untap" for m in ms))
    added: dict[str, dict[str, int]] = {}
    for oid, ms in marked.items():
        for m in ms:
            if m[0] == "add":
                added.setdefault(oid, {})[m[1]] = added.get(oid, {}).get(m[1], 0) + m[2]
    gained: dict[str, int] = {}
    lost: dict[str, int] = {}
    used: dict[str, dict[int, int]] = {}
    put: dict[str, dict[str, int]] = {}
    draw = 0
    for name, n in zip(problem.effects, key.effects):
        if not n:
            continue
        if isinstance(name, UseEffect):
            # a per-turn-limited ability without {T} (CR 602.5b): its uses, spread over the members
            # of the class in board order, each up to the uses it has left (members are alike)
            for oid in problem.classes[name.cls].members:
                k = min(name.left, n)
                if k:
                    used.setdefault(oid, {})[name.ability] = k
                    if name.put:  # each use put counters on it as a cost (CR 118.1)
                        put_on = put.setdefault(oid, {})
                        put_on[name.put[0]] = put_on.get(name.put[0], 0) + k * name.put[1]
                n -= k
            continue
        if name == "draw":
            draw = n
        elif isinstance(name, LifeEffect):
            (gained if name.verb == "gain" else lost)[name.player] = n

    def by_id(d: dict[str, dict[_Key, int]]) -> tuple[tuple[str, tuple[tuple[_Key, int], ...]], ...]:
        return tuple((oid, tuple(sorted(d[oid].items()))) for oid in sorted(d))

    return replace(paid, skip_untap=tuple(skip), counters_added=by_id(added), counters_put=by_id(put), draw=draw,
                   activated=by_id(used), life_gained=tuple(sorted(gained.items())),
                   life_lost=tuple(sorted(lost.items())))


# ---------------------------------------------------------------------------
# Why a cost can't be paid
# ---------------------------------------------------------------------------


def max_amount(problem: PaymentProblem, req: str | None, time_limit: float | None = None) -> int | None:
    """The most mana of requirement ``req`` (a type letter; ``None``: any mana)
    the player can make and spend at once (every activation contributing)."""
    ub = sum(problem.pool) + sum(a.cap * max((o.total for o in a.outcomes), default=0) for a in problem.abilities)
    main = MainCost(mana=ManaCost.parse("{X}"), x=None, x_upper=ub, x_type=req)
    sub = replace(problem, main=main)
    return PaymentModel(sub, keys=False).max_x(time_limit)


def unpaid_core(problem: PaymentProblem, time_limit: float | None = None) -> list[CostPart] | None:
    """The parts of the total cost that can't be paid together: a minimal set (each part is
    needed for the contradiction), in the order the model names them; ``None`` when the
    parts don't tell (no part is guarded, or they can all be paid: the cause is elsewhere).

    Every part of the cost is guarded by an assumption literal; the solver's
    ``sufficient_assumptions_for_infeasibility`` gives parts that can't be paid together,
    shrunk here one part at a time. :mod:`solver.payment.words` words the answer.
    """
    model = PaymentModel(problem, explain=True, keys=False)
    parts = model.parts
    if not parts:
        return None
    solver = model._solver(time_limit)

    def infeasible(subset: list[CostPart]) -> bool:
        model.m.clear_assumptions()
        model.m.add_assumptions([p.lit for p in subset])
        return solver.solve(model.m) == cp_model.INFEASIBLE

    if not infeasible(parts):
        return None
    by_index = {p.lit.index: p for p in parts}
    core = [by_index[i] for i in solver.sufficient_assumptions_for_infeasibility() if i in by_index] or list(parts)
    core.sort(key=parts.index)
    for p in list(core):
        trial = [q for q in core if q is not p]
        if trial and infeasible(trial):
            core = trial
    return core


def decide(problem: PaymentProblem, time_limit: float | None = None) -> bool | None:
    """Can the total cost be paid? One solve in the usual case.

    When some mana abilities have a mana cost (filter lands), a smaller model
    first lets them be paid only from mana that exists before any of them
    (sound: such an order always exists); only if that is infeasible does the
    exact model, which lets their mana pay each other in a well-founded order,
    decide.
    """
    if any(a.costed for a in problem.abilities):
        fast = PaymentModel(problem, chain=False, keys=False).payable(time_limit)
        if fast:
            return True
    return PaymentModel(problem, keys=False).payable(time_limit)
