"""Counting distinct payments without enumerating them (contract §2.3; architecture principle 9).

:mod:`models.payment` lists payments one CP-SAT solution at a time; its count
grows with the number of payments (and with the auxiliary solutions behind
each one). This module counts — and lists lazily — the same distinct
payments of a :class:`~models.payment.PaymentProblem` with a dynamic
programme over the classes of interchangeable permanents, whose cost does not
depend on how many payments there are.

What a payment is
-----------------
Two payments are the same when they leave the same situation (contract §2.3),
which :class:`~models.payment.PaymentKey` captures: per class the number of
members tapped, the life paid, the damage dealt, X, and the mana left in the
pool. Which member of a class was tapped, which color an any-color land made
for generic mana, in which order the lands were tapped: none of that is part
of the key.

The method: a deterministic automaton over the key, built by subset construction
--------------------------------------------------------------------------------
Read a payment as a word: one letter per class, ``n_c`` = how many members
of class ``c`` are tapped (CR 106.12, 605.3a), followed by the *tail*
``(damage, pool_after, life, X)``. A payment exists for the word when some
choice, for each tapped member, of one of its (ability, outcome) options and
of how much of that outcome stays in the pool makes the spent mana pay the
total cost exactly (CR 601.2g–h: spent mana is exactly the cost; every
activation contributes spent mana — "no idle activations").

That choice is hidden (non-deterministic). The *partial state* of a choice
after some classes is

    (colored, total, damage, pool_after)

``colored[t]``: mana of type ``t`` spent so far, capped at the most any
announcement of the cost needs of type ``t`` (more of it can only pay
generic mana, which ``total`` accounts for); ``total``: all mana spent so
far; ``damage``: damage dealt so far (Adarkar Wastes, City of Brass; CR
120.3); ``pool_after``: mana left in the pool so far (exact, it is part of
the key). The initial pool contributes first: any part of it may be left.

The DP's state after classes ``1..j`` is the *set* of partial states
reachable with the letters ``n_1..n_j`` — a state of the subset construction
of the non-deterministic automaton. Tapping ``k`` members of class ``c`` maps
a set ``S`` to ``step_c^k(S)`` (members are interchangeable, so applying one
member's options ``k`` times gives every multiset of options). The DP keeps,
per layer, ``count[S]`` = how many prefixes ``n_1..n_j`` lead to ``S``. Since
the construction is deterministic, distinct prefixes are never merged into
one payment nor one payment counted twice, and

    #payments = Σ_S count[S] · |accept(S)|

where ``accept(S)`` is the set of distinct tails ``(damage, pool_after,
life, X)`` of the partial states in ``S`` that pay the cost: for some
announcement of the hybrid / Phyrexian symbols (CR 601.2b; paying life for
Phyrexian symbols sets ``life``), ``colored[t] ≥ need[t]`` for every type and
``total = Σ need + generic + X·(number of {X})``; a payment that pays life
needs the life after the damage (CR 119.4). For ``x: any``, X is read off
``total``.

Listing is a walk of the same layered DAG, keeping only sets from which an
accepting set is reachable (counted backwards), so every step of the walk
leads to a payment: the first payment comes after ``#classes`` steps and each
next one after at most that many.

Complexity
----------
Let ``K`` be the number of classes, ``m`` the largest class, ``o`` the
largest number of (ability, outcome) options of a member, ``T`` the mana
value of the cost (for fixed X) and ``q`` the number of distinct
colored-requirement types. A partial state has at most ``(T+1)^(q+1) · D ·
P`` values (``D`` damage values, ``P`` pool-after values: 1 without a pool
and with one-mana outcomes only), and the number of distinct *sets* per layer
is bounded by the number of distinct prefixes but in practice by a few
hundred on boards of basics, duals, Reflecting Pools and Orchards (states
are pruned when the remaining classes can no longer reach the cost). The
work is ``O(K · m · #sets · |S| · o)`` set operations — polynomial in the
board and the cost, independent of the number of payments. On the 40-land
benchmark board every count takes milliseconds while the counts reach tens
of thousands.

Where it applies (:func:`unsupported`)
-------------------------------------
* every mana ability has ``{T}`` in its cost, plus at most counters removed
  (Vivid lands: the counters removed are part of the key, so each class's
  letter is split by *fate* — tapped with nothing removed, tapped removing a
  charge counter — and the DP's node carries how many members of the class
  earlier fates took) and a *generic* mana cost; no sacrifice, life, tapping
  creatures, per-turn limits or riders. Outcomes are any vectors of mana with
  damage: replacement effects and triggered mana are fine (they are already
  outcomes);
* mana abilities with a mana cost (Cascading Cataracts, Crystal Quarry,
  Signets) on **one** class only: that class is the last layer and its
  members step one at a time, each paying its ability's generic cost out of
  the mana spent so far (first mana no colored requirement needs, then every
  way of taking it from the colored counts) — every well-founded order of
  those activations (CR 605.3a, 601.2g), since all other mana exists before;
  with several such classes their relative order matters and the problem
  falls back;
* spending restrictions (CR 106.6) only where they are all-or-nothing: an
  outcome made entirely of restricted mana that may pay neither the total
  cost nor any costed ability is never part of a payment (it would be an
  idle activation) and is dropped; a one-mana restricted outcome that may
  pay the total cost and every costed ability is plain mana; anything in
  between falls back;
* no Celestial Dawn, no ``{S}`` in the cost;
* the total cost is mana (any symbols but ``{S}``, X fixed or ``any``), plus
  optionally ``{T}`` of the source (an ``activate`` cost; not a source with a
  costed mana ability) and "Pay N life"; no ``{Q}``, sacrifice, counters or
  creature-tapping in the total cost.

Everything else falls back to :class:`models.payment.PaymentModel`'s
enumeration (exact, slower). Differential tests
(``tests/test_payment_count.py``) check counts and listings against the
enumeration and the brute-force reference.
"""
from __future__ import annotations

import gc
from collections import Counter, defaultdict
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import product
from typing import Callable, Iterator

from mtgsolve.solver.core.mana import TYPES

from .payment import (GENERIC, MAIN_TAP, Fate, Outcome, Paid, PaymentKey, PaymentProblem, _fate_order, is_counter_fate,
                      mana_text, symbol_options)
from .payment_delve import delve_counter

NT = len(TYPES)          # W U B R G C
ZERO = (0,) * NT


def _costed_class(p: PaymentProblem) -> int | None:
    classes = {a.cls for a in p.abilities if a.costed}
    return next(iter(classes)) if len(classes) == 1 else None


def _rule_use(p: PaymentProblem, o: Outcome, costed: frozenset[int]) -> str:
    """How an outcome under a spending restriction (CR 106.6) enters the DP: ``plain`` (its one
    mana may pay everything the DP lets mana pay), ``dead`` (it can pay nothing here, so the
    activation would be idle and is never part of a payment) or ``no``."""
    rule = p.rules[o.tag - 1]
    if tuple(o.restricted) != tuple(o.mana):
        return "no"           # partly restricted
    if rule.main and o.total == 1 and costed <= rule.abilities:
        return "plain"
    if not rule.main and not (costed & rule.abilities):
        return "dead"
    return "no"


def unsupported(p: PaymentProblem) -> str | None:
    """Why the DP does not apply to ``p`` (``None`` when it does)."""
    main = p.main
    if p.celestial:
        return "Celestial Dawn's spending rule"
    if main.delve_classes or main.convoke_classes or main.improvise_classes:
        return "delve, convoke or improvise (CR 702.66a, 702.51a, 702.126a)"
    if p.effects:
        return "riders of mana abilities"
    if p.restricted_pool:
        return "restricted mana in the pool (CR 106.6)"
    if p.snow_matters:
        return "{S} in the cost"
    if (main.untap or main.sac_self or main.sacrifice_classes is not None or main.remove_counters
            or main.tap_creatures or main.tap_symbol_blocked or main.x_type is not None):
        return "non-mana parts of the total cost other than {T} and life"
    if main.tap and (main.source_cls is None or p.classes[main.source_cls].tapped):
        return "{T} of a tapped or unknown source"
    costed_cls = _costed_class(p)
    if any(a.costed for a in p.abilities) and costed_cls is None:
        return "mana abilities with a mana cost on several classes (their order matters)"
    costed = frozenset(i for i, a in enumerate(p.abilities) if a.costed)
    for a in p.abilities:
        if (not a.tap or a.sac_self or a.sac_cls is not None or a.life or a.tap_creatures or a.marks):
            return f"{a.label}: a mana ability with more than {{T}} (and counters, mana) in its cost"
        if a.costed and any(s.kind != "generic" for s in a.mana_cost.symbols):
            return f"{a.label}: a mana ability whose mana cost is not generic"
        if a.cap != len(p.classes[a.cls].members):
            return f"{a.label}: a limited mana ability"
        if p.classes[a.cls].tapped:
            return f"{a.label}: a tapped class with a {{T}} ability"
        for o in a.outcomes:
            if o.effects:
                return f"{a.label}: riders"
            if o.tag and _rule_use(p, o, costed) == "no":
                return f"{a.label}: restricted mana (CR 106.6) that some costs may use and others not"
    if main.tap and main.source_cls == costed_cls:
        return "{T} of a source with a costed mana ability"
    return None


@dataclass(frozen=True)
class _Config:
    """One announcement of the cost's multi-option symbols (CR 601.2b)."""

    need: tuple[int, ...]     # exact colored (and {C}) requirement per type
    generic: int              # generic mana, X excluded
    life: int                 # life paid for Phyrexian symbols and "Pay N life"


def _configs(p: PaymentProblem) -> list[_Config]:
    main = p.main
    need = [0] * NT
    generic = 0
    multi: list[tuple[int, tuple[tuple[str, int], ...]]] = []
    for sym, cnt in Counter(s for s in main.mana.symbols if s.kind != "X").items():
        if sym.kind == "generic":
            generic += sym.generic * cnt
            continue
        opts = symbol_options(sym, main.life_allowed)
        if len(opts) == 1:
            r, n = opts[0]
            if r == GENERIC:
                generic += cnt * n
            else:
                need[TYPES.index(r)] += cnt * n
        elif opts:
            multi.append((cnt, opts))
    out = {(_Config(tuple(need), generic, main.life))}
    for cnt, opts in multi:
        nxt = set()
        for split in _compositions(cnt, len(opts)):
            for c in out:
                nd, g, life = list(c.need), c.generic, c.life
                for (r, n), h in zip(opts, split):
                    if not h:
                        continue
                    if r == "life":
                        life += n * h
                    elif r == GENERIC:
                        g += n * h
                    else:
                        nd[TYPES.index(r)] += n * h
                nxt.add(_Config(tuple(nd), g, life))
        out = nxt
    return sorted(out, key=lambda c: (c.life, c.need, c.generic))


def _compositions(n: int, k: int) -> Iterator[tuple[int, ...]]:
    if k == 1:
        yield (n,)
        return
    for i in range(n + 1):
        for rest in _compositions(n - i, k - 1):
            yield (i,) + rest


def _splits(mana: tuple[int, ...]) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """(spent, left) ways to use one activation's mana: any part may stay in the pool
    as long as some of it is spent (contract §2.3: no idle activations)."""
    total = sum(mana)
    if total <= 1:
        return [(mana, ZERO)]
    out: list[tuple[tuple[int, ...], tuple[int, ...]]] = []
    for left in product(*(range(m + 1) for m in mana)):
        if sum(left) <= total - 1:
            out.append((tuple(m - l for m, l in zip(mana, left)), tuple(left)))
    return out


State = tuple[int, ...]  # (colored capped..., total, damage, pool_after...)
States = frozenset[State]
Node = tuple[States, int]  # (S, used): partial states and the members of the layer's class tapped so far
Option = tuple[int, tuple[int, ...], int, tuple[int, ...]]  # one member's (cost, spent, damage, left)
Layer = tuple[int, Fate, int, tuple[Option, ...], bool]  # (class, fate, size, options, last)
Tail = tuple[int, tuple[int, ...], int, int]  # an accepting state's (damage, pool_after, life, x)
# an option as the step applies it: (spent on the colored types, total spent, damage, left, any left)
CostOption = tuple[tuple[int, ...], int, int, tuple[int, ...], bool]
Bounds = tuple[int | None, int, tuple[int, ...]]  # (most total, least total, least colored counts)
Chosen = dict[tuple[int, Fate], int]  # per (class, fate) layer: the members tapped


class PaymentCounter:
    """The layered DAG of the DP for one problem (see the module docstring).

    Layers are (class, fate) pairs: a fate is what tapping leaves on the member
    (nothing, or counters removed — Vivid lands), part of the key. A node is
    ``(S, used)``: the set of partial states and how many members of the
    layer's class earlier fates of it tapped. The one class with mana abilities
    that have a (generic) mana cost comes last: its members step one at a time,
    each paying such a cost from the mana spent so far, which gives every
    well-founded order of those activations (CR 605.3a)."""

    def __init__(self, problem: PaymentProblem):
        why = unsupported(problem)
        if why is not None:
            raise ValueError(f"the counting DP does not apply: {why}")
        self.p = p = problem
        main = p.main
        self.configs = _configs(p)
        self.xc = main.mana.x_count
        self.x_free = main.x is None and self.xc > 0
        fixed_x = 0 if self.x_free else (main.x or 0) * self.xc
        self.fixed_x = fixed_x
        caps = [max(c.need[t] for c in self.configs) for t in range(NT)]
        self.ctypes = tuple(t for t in range(NT) if caps[t])
        self.caps = tuple(caps[t] for t in self.ctypes)
        self.need_min = tuple(min(c.need[t] for c in self.configs) for t in self.ctypes)
        self.t_min = min(sum(c.need) + c.generic for c in self.configs) + fixed_x
        self.t_max = None if self.x_free else max(sum(c.need) + c.generic for c in self.configs) + fixed_x
        costed_idx = frozenset(i for i, a in enumerate(p.abilities) if a.costed)
        self.costed_cls = _costed_class(p)
        src_tap = main.source_cls if main.tap else None
        # per (class, fate): the options of one member: (cost, spent vector, damage, left vector)
        opts_of: dict[tuple[int, Fate], set[Option]] = defaultdict(set)
        fates_of: dict[int, set[Fate]] = defaultdict(set)
        for a in p.abilities:
            if not any(o.total for o in a.outcomes):
                continue
            fates_of[a.cls].add(a.fate)
            if a.cls == src_tap:
                continue
            cost = sum(s.generic for s in a.mana_cost.symbols) if a.costed else 0
            for o in a.outcomes:
                if o.total == 0 or (o.tag and _rule_use(p, o, costed_idx) == "dead"):
                    continue
                for spent, left in _splits(tuple(o.mana)):
                    opts_of[a.cls, a.fate].add((cost, spent, o.damage, left))
        self.fates: list[tuple[Fate, ...]] = []
        for c, pc in enumerate(p.classes):
            f = sorted(fates_of.get(c, ()), key=_fate_order) if not pc.tapped else []
            if c == src_tap:
                f.append(MAIN_TAP)
            self.fates.append(tuple(f))
        order = sorted({c for c, _ in opts_of}, key=lambda c: (c == self.costed_cls, c))
        self.layers: list[Layer] = []
        for c in order:
            fs = sorted((f for cc, f in opts_of if cc == c), key=_fate_order)
            for i, fate in enumerate(fs):
                self.layers.append((c, fate, len(p.classes[c].members), tuple(sorted(opts_of[c, fate])),
                                    i == len(fs) - 1))
        # what the remaining layers can still add / take (for pruning), per class counted once
        L = len(self.layers)
        self.rem_total = [0] * (L + 1)
        self.rem_cost = [0] * (L + 1)
        self.rem_col = [[0] * len(self.ctypes) for _ in range(L + 1)]
        for j in range(L - 1, -1, -1):
            _, _, size, opts, _ = self.layers[j]
            self.rem_total[j] = self.rem_total[j + 1] + size * max(sum(s) for _, s, _, _ in opts)
            self.rem_cost[j] = self.rem_cost[j + 1] + size * max(cost for cost, _, _, _ in opts)
            for i, t in enumerate(self.ctypes):
                self.rem_col[j][i] = self.rem_col[j + 1][i] + size * max(s[t] for _, s, _, _ in opts)
        self._step_cache: dict[tuple[int, States], States] = {}   # (j, S) -> next states; (~j, S) -> settled
        self._by_cost_cache: dict[int, list[tuple[int, list[CostOption]]]] = {}
        self._bounds_cache: dict[int, Bounds] = {}
        self._acc_cache: dict[States, tuple[Tail, ...]] = {}
        with _no_gc():
            self._build()

    # -- the automaton -------------------------------------------------------
    def _alive(self, st: State, j: int) -> bool:
        """Can state ``st`` (with layers ``j…`` still to come, all of them whole) reach an
        accepting state? A necessary condition, so pruning never loses a payment."""
        nc = len(self.ctypes)
        total = st[nc]
        if self.t_max is not None and total - self.rem_cost[j] > self.t_max:
            return False
        if total + self.rem_total[j] < self.t_min:
            return False
        rc = self.rem_col[j]
        for i in range(nc):
            if st[i] + rc[i] < self.need_min[i]:
                return False
        return True

    def _initial(self) -> States:
        pool = self.p.pool
        out: set[State] = set()
        for left in product(*(range(n + 1) for n in pool)):
            spent = tuple(n - l for n, l in zip(pool, left))
            col = tuple(min(spent[t], cap) for t, cap in zip(self.ctypes, self.caps))
            st = col + (sum(spent), 0) + tuple(left)
            if self._alive(st, 0):
                out.add(st)
        return frozenset(out)

    def _pay_generic(self, st: State, cost: int) -> list[State]:
        """The states left after paying ``cost`` generic mana (a mana ability's cost) out of the
        mana spent so far: first from mana no colored requirement counts, then every way
        of taking the rest from the colored counts."""
        nc = len(self.ctypes)
        total = st[nc]
        if total < cost:
            return []
        free = total - sum(st[:nc])
        rest = cost - min(free, cost)
        head = (total - cost,) + st[nc + 1:]
        if not rest:
            return [st[:nc] + head]
        out: list[State] = []
        for take in product(*(range(min(st[i], rest) + 1) for i in range(nc))):
            if sum(take) == rest:
                out.append(tuple(st[i] - take[i] for i in range(nc)) + head)
        return out

    def _by_cost(self, j: int) -> list[tuple[int, list[CostOption]]]:
        """Layer ``j``'s options grouped by their mana cost (paid once per state and cost);
        each option's spent mana restricted to the colored-requirement types."""
        got = self._by_cost_cache.get(j)
        if got is None:
            groups: dict[int, list[CostOption]] = defaultdict(list)
            for cost, spent, dmg, left in self.layers[j][3]:
                groups[cost].append((tuple(spent[t] for t in self.ctypes), sum(spent), dmg, left, any(left)))
            got = self._by_cost_cache[j] = sorted(groups.items())
        return got

    def _bounds(self, j: int) -> Bounds:
        """:meth:`_alive`'s test before layer ``j`` as bounds: (most total, least total,
        least colored counts)."""
        got = self._bounds_cache.get(j)
        if got is None:
            hi = None if self.t_max is None else self.t_max + self.rem_cost[j]
            got = self._bounds_cache[j] = (
                hi, self.t_min - self.rem_total[j], tuple(n - r for n, r in zip(self.need_min, self.rem_col[j])))
        return got

    def _step(self, j: int, S: States) -> States:
        key = (j, S)
        got = self._step_cache.get(key)
        if got is not None:
            return got
        nc = len(self.ctypes)
        by_cost = self._by_cost(j)
        caps = self.caps
        hi, lo, col_lo = self._bounds(j)
        check_col = any(n > 0 for n in col_lo)
        out: set[State] = set()
        add = out.add
        for st0 in S:
            for cost, opts in by_cost:
                for st in (self._pay_generic(st0, cost) if cost else (st0,)):
                    pool0, total0, dmg0 = st[nc + 2:], st[nc], st[nc + 1]
                    base = st[:nc]
                    for spent, n_spent, dmg, left, any_left in opts:
                        total = total0 + n_spent
                        if (hi is not None and total > hi) or total < lo:
                            continue
                        col = tuple([min(a + b, c) for a, b, c in zip(base, spent, caps)]) if nc else ()
                        if check_col and any(a < b for a, b in zip(col, col_lo)):
                            continue
                        pool = tuple([a + b for a, b in zip(pool0, left)]) if any_left else pool0
                        add(col + (total, dmg0 + dmg) + pool)
        res = frozenset(out)
        self._step_cache[key] = res
        return res

    def _settle(self, j: int, S: States) -> States:
        """``S`` (inside layer ``j``) without the states the layers after ``j`` can't complete."""
        key = (~j, S)
        got = self._step_cache.get(key)
        if got is None:
            got = self._step_cache[key] = frozenset(st for st in S if self._alive(st, j + 1))
        return got

    def _accept(self, S: States) -> tuple[Tail, ...]:
        """The distinct tails (damage, pool_after, life, x) of the accepting states of ``S``."""
        got = self._acc_cache.get(S)
        if got is not None:
            return got
        nc = len(self.ctypes)
        L = self.p.life_total
        tails: set[Tail] = set()
        for st in S:
            total, dmg, pool = st[nc], st[nc + 1], st[nc + 2:]
            for c in self.configs:
                if any(st[i] < c.need[t] for i, t in enumerate(self.ctypes)):
                    continue
                rest = total - sum(c.need) - c.generic
                if self.x_free:
                    if rest < 0 or rest % self.xc:
                        continue
                    x = rest // self.xc
                else:
                    if rest != self.fixed_x:
                        continue
                    x = self.p.main.x or 0
                if c.life and c.life + dmg > L:   # CR 119.4, after the mana abilities' damage
                    continue
                tails.add((dmg, pool, c.life, x))
        res = tuple(sorted(tails))
        self._acc_cache[S] = res
        return res

    def _build(self) -> None:
        """Forward: the nodes per layer with their prefix counts and edges; backward: how
        many payments each node leads to (``live``)."""
        start = self._initial()
        self.start: Node = (start, 0)
        layers: list[dict[Node, int]] = [{self.start: 1}] if start else [{}]
        edges: list[dict[Node, list[tuple[int, Node]]]] = []
        for j, (c, f, size, _, last) in enumerate(self.layers):
            nxt: dict[Node, int] = defaultdict(int)
            ej: dict[Node, list[tuple[int, Node]]] = {}
            for node, cnt in layers[-1].items():
                S, used = node
                cur = S
                out: list[tuple[int, Node]] = []
                for k in range(size - used + 1):
                    if k:
                        cur = self._step(j, cur)
                    if not cur:
                        break
                    done = self._settle(j, cur)
                    if done:
                        child: Node = (done, 0 if last else used + k)
                        nxt[child] += cnt
                        out.append((k, child))
                ej[node] = out
            edges.append(ej)
            layers.append(dict(nxt))
        self.sets = layers
        self.edges = edges
        live: dict[Node, int] = {node: len(self._accept(node[0])) for node in layers[-1]}
        lives = [live]
        for j in range(len(self.layers) - 1, -1, -1):
            prev: dict[Node, int] = {}
            for node, out in edges[j].items():
                prev[node] = sum(lives[0].get(T, 0) for _, T in out)
            lives.insert(0, prev)
        self.live = lives

    # -- answers ---------------------------------------------------------------
    def count(self) -> int:
        """The number of distinct payments."""
        return self.live[0].get(self.start, 0) if self.start[0] else 0

    def states(self) -> int:
        """The number of DP nodes built (for benchmarks)."""
        return sum(len(layer) for layer in self.sets)

    def x_values(self) -> list[int]:
        """Every X some payment announces."""
        xs: set[int] = set()
        for node, n in self.live[-1].items():
            if n:
                xs.update(t[3] for t in self._accept(node[0]))
        return sorted(xs)

    def _walk(self, limit: int | None, emit: Callable[[Chosen, Tail], None]) -> None:
        """Call ``emit(chosen, tail)`` for each payment — ``chosen[(class, fate)]`` the members
        tapped — at most ``limit`` times: a depth-first walk of the live part of the DAG
        (every branch taken leads to a payment; plain recursion, O(1) per payment amortised)."""
        if not self.count() or (limit is not None and limit <= 0):
            return
        n_layers = len(self.layers)
        chosen: Chosen = {}
        left = [float("inf") if limit is None else limit]

        def walk(j: int, node: Node) -> bool:
            if j == n_layers:
                for tail in self._accept(node[0]):
                    emit(chosen, tail)
                    left[0] -= 1
                    if left[0] <= 0:
                        return True
                return False
            c, f = self.layers[j][0], self.layers[j][1]
            live = self.live[j + 1]
            for k, T in self.edges[j][node]:
                if live.get(T, 0):
                    chosen[c, f] = k
                    if walk(j + 1, T):
                        return True
            del chosen[c, f]
            return False

        walk(0, self.start)

    def keys(self, limit: int | None = None) -> list[PaymentKey]:
        """The distinct payments' keys (at most ``limit``), from a walk of the live part of the DAG."""
        out: list[PaymentKey] = []
        self._walk(limit, lambda chosen, tail: out.append(self._key(chosen, tail)))
        return out

    @property
    def plain(self) -> bool:
        """Do payments only tap members (no counters removed)?"""
        return all(f is None or f == MAIN_TAP for fs in self.fates for f in fs)

    def payments(self, limit: int | None = None) -> list[Paid]:
        """The distinct payments (contract §2.3), sorted as :meth:`models.payment.Paid.sort_key`
        sorts them: the values :func:`models.payment.decode` makes of :meth:`keys` (checked by
        the tests), built directly — within a class the first members, those with counters
        removed first."""
        p = self.p
        player = p.player
        src_tap = p.main.source_cls if p.main.tap else None
        extra = [p.classes[src_tap].members[0]] if src_tap is not None else []
        order = {(c, f): i for i, (c, f, *_r) in enumerate(self.layers)}   # fates in _fate_order per class
        out: list[tuple[tuple[int, int, int, int, list[str], str, list[tuple[str, list[tuple[str, int]]]]], Paid]] = []

        def emit(chosen: Chosen, tail: Tail) -> None:
            dmg, pool, life, x = tail
            tap = list(extra)
            removed: list[tuple[str, str, int]] = []
            at: dict[int, int] = {}
            for (c, f), k in sorted(chosen.items(), key=lambda kv: order[kv[0]]):
                if not k:
                    continue
                i = at.get(c, 0)
                ms = p.classes[c].members[i:i + k]
                at[c] = i + k
                tap.extend(ms)
                if is_counter_fate(f) and f[1]:
                    removed.extend((oid, f[0], f[1]) for oid in ms)
            tap.sort()
            text = mana_text(pool)
            rk: list[tuple[str, list[tuple[str, int]]]] = []
            if removed:
                removed.sort()
                rk = [(oid, [(name, n)]) for oid, name, n in removed]
            out.append(((x, life, dmg, len(tap), tap, text, rk),
                        Paid(player, tuple(tap), (), (), life, dmg, x, tuple(pool), tuple(removed))))

        with _no_gc():          # many small objects, none cyclic: the collector's passes only cost
            self._walk(limit, emit)
            out.sort(key=lambda kv: kv[0])
            return [d for _, d in out]

    def contains(self, tapped: dict[int, int], tail: Tail) -> bool:
        """Is the payment tapping ``tapped[c]`` members of each class ``c`` (no other class)
        with tail ``(damage, pool_after, life, x)`` one of the distinct payments? A walk of
        one path of the DAG: no solve, no listing (issue 16, "decide with one solve"). Only
        for :attr:`plain` problems (one fate per class)."""
        if not self.plain:
            raise ValueError("contains() needs one fate per class")
        layer_classes = {c for c, *_ in self.layers}
        if any(n and c not in layer_classes for c, n in tapped.items()):
            return False
        node: Node = self.start
        if not node[0]:
            return False
        for j, (c, *_rest) in enumerate(self.layers):
            k = tapped.get(c, 0)
            nxt = next((T for kk, T in self.edges[j].get(node, ()) if kk == k), None)
            if nxt is None:
                return False
            node = nxt
        return tuple(tail) in set(self._accept(node[0]))

    def _key(self, chosen: Chosen, tail: Tail) -> PaymentKey:
        dmg, pool, life, x = tail
        kept: list[tuple[tuple[Fate, int], ...]] = []
        for c in range(len(self.p.classes)):
            kept.append(tuple((f, 1 if f == MAIN_TAP else chosen.get((c, f), 0)) for f in self.fates[c]))
        return PaymentKey(tuple(0 for _ in self.p.classes), tuple(kept), life, dmg, x, tuple(pool))


@contextmanager
def _no_gc() -> Iterator[None]:
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def counter_for(problem: PaymentProblem) -> PaymentCounter | None:
    """A :class:`PaymentCounter` when the DP applies to ``problem``, else ``None``; with delve,
    a :class:`models.payment_delve.DelveCounter` when that applies (it counts per number of
    cards exiled, with this DP on each reduced cost)."""
    if problem.main.delve_classes:
        return delve_counter(problem, counter_for)  # type: ignore[return-value]
    if unsupported(problem) is not None:
        return None
    return PaymentCounter(problem)
