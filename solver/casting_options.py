"""Ways to cast a spell and the costs they add (CR 601.2b, 601.2f–h, 118.9).

The reader (:mod:`solver.reader.casting_options`) turns a card's alternative
costs, additional costs, kicker and graveyard-casting keywords into
:class:`~solver.ir.CastingOption` parts; this module says what they do for the
``pay`` query (:mod:`solver.costs`, :mod:`solver.queries.pay`) and the
``actions`` query (:mod:`solver.actions`).

Modes of casting (CR 601.2b)
    A player announces, as they cast a spell, which alternative cost or
    permission they use and which optional additional costs they pay. A *mode*
    here is ``(alternative, kicked)``:

    * ``alternative`` — ``""`` (the mana cost, from the hand) or the name of an
      alternative cost (CR 118.9; at most one, CR 118.9a) or permission:
      "rather than pay" lines (named by the cost as printed), ``evoke``
      (702.74a), ``flashback`` (702.34a, from the graveyard), ``escape``
      (702.138a, from the graveyard), ``jump-start`` (702.133a) and
      ``retrace`` (702.81a) (from the graveyard, paying the mana cost and
      discarding a card / a land card);
    * ``kicked`` — 1 when the kicker cost is paid (CR 702.33a, 702.33d: it
      may be paid along with an alternative cost), else 0.

    Mandatory additional costs ("As an additional cost to cast this spell, …",
    CR 601.2b) are part of every mode. Conditions: "If it's not your turn"
    (Force of Negation) and "If you control a <Subtype>" are checked on the
    situation. The total cost (CR 601.2f) is the mode's mana — the mana cost
    or the alternative's — plus the additional costs' mana; cost increases,
    reductions and minimums then apply to it as to any total cost
    (:func:`solver.casting_rules.modified_cost`).

Payments (contract §2.3, with the extension keys ``exile``, ``discard`` and
``return``)
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
    and two choices from one zone are all :class:`~solver.errors.UnsupportedCase`.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, replace
from typing import Any, Iterator

from . import ir
from .characteristics import View
from .errors import QueryError, UnsupportedCase
from .mana import ManaCost
from .state import GameObject, GameState, opponent_lost_life


# ---------------------------------------------------------------------------
# The options of a card
# ---------------------------------------------------------------------------

def options_of(o: GameObject) -> tuple[ir.CastingOption, ...]:
    """The card's casting options, in printed order (its printed abilities:
    they function from the hand and the graveyard, CR 113.6)."""
    if o.card is None:
        return ()
    return tuple(a for a in o.card.abilities if isinstance(a, ir.CastingOption))


def alternatives_of(o: GameObject) -> tuple[ir.CastingOption, ...]:
    return tuple(a for a in options_of(o) if a.kind in ("alternative", "permission"))


def find_alternative(o: GameObject, name: str) -> ir.CastingOption | None:
    """The alternative named ``name`` (case-insensitive) on the card, or None."""
    for a in alternatives_of(o):
        if a.name.lower() == str(name).lower():
            return a
    return None


def kicker_of(o: GameObject) -> ir.CastingOption | None:
    ks = [a for a in options_of(o) if a.kind == "kicker"]
    return ks[0] if len(ks) == 1 else None


def helps_of(o: GameObject) -> tuple[str, ...]:
    """The card's ways to pay its total cost in any mode: ``delve``, ``convoke``,
    ``improvise`` (CR 702.66a, 702.51a, 702.126a), in printed order."""
    return tuple(a.name for a in options_of(o) if a.kind == "payment")


def has_options(o: GameObject) -> bool:
    return bool(options_of(o))


def modes(o: GameObject) -> list[tuple[str, int]]:
    """Every ``(alternative, kicked)`` the card offers, the plain mode ``("", 0)`` first."""
    alts = [""] + [a.name for a in alternatives_of(o)]
    kicks = [0, 1] if kicker_of(o) is not None else [0]
    return [(a, k) for a in alts for k in kicks]


def mode_zone(o: GameObject, alternative: str) -> str:
    if not alternative:
        return "hand"
    a = find_alternative(o, alternative)
    return a.zone if a is not None else "hand"


def mode_reason(view: View, player: str, o: GameObject, alternative: str, kicked: int) -> str | None:
    """Why ``player`` can't cast ``o`` in this mode now (before timing, targets
    and costs), or None: the option must exist, the card must be in the
    option's zone and owned by the player (CR 601.2a), its condition must hold."""
    if kicked and kicker_of(o) is None:
        return f"{o.name} has no kicker (CR 702.33a)" if not any(a.kind == "kicker" for a in options_of(o)) \
            else f"{o.name} has several kicker costs, which are not modeled"
    if kicked not in (0, 1):
        return "kicker is paid at most once (CR 702.33a; multikicker is not modeled)"
    zone = "hand"
    if alternative:
        a = find_alternative(o, alternative)
        if a is None:
            names = ", ".join(repr(x.name) for x in alternatives_of(o)) or "none"
            return f"{o.name} has no alternative cost or permission {alternative!r} (it has: {names})"
        zone = a.zone
        why = condition_reason(view, player, a)
        if why:
            return why
    if o.zone != zone or o.owner != player:
        where = f"{player}'s {zone}"
        return f"{o.name} ({o.id}) is not in {where} (CR 601.2a" + (
            f", {alternative} casts it from the {zone})" if alternative else ")")
    return None


def condition_reason(view: View, player: str, a: ir.CastingOption) -> str | None:
    state = view.state
    if a.condition == "not_your_turn" and state.turn.active == player:
        return f"{a.name!r} may be used only when it is not {player}'s turn (CR 118.9)"
    if a.condition == "opponent_lost_life":
        lost = opponent_lost_life(state, player)
        if lost is None:
            raise UnsupportedCase(f"{a.name}: whether an opponent of {player} lost life this turn is not recorded "
                                  "(players' life_lost_this_turn, CR 702.137a)")
        if not lost:
            return f"{a.name!r} may be used only if an opponent of {player} lost life this turn (CR 702.137a)"
    if a.condition == "control" and a.condition_selector is not None:
        if not view.select(a.condition_selector, None, player):
            return f"{a.name!r} needs {player} to control {a.condition_selector.describe()} (CR 118.9)"
    return None


# ---------------------------------------------------------------------------
# The total cost of a mode
# ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Extra:
    """The parts of a total cost paid outside the payment model (see the module
    docstring), and the mode. ``model_sacrifice``: the selectors of the one
    sacrifice the model pays ("an artifact or creature")."""

    spell: str
    alternative: str = ""
    kicked: int = 0
    model_sacrifice: tuple[ir.Selector, ...] = ()
    sacrifice_color: str = ""       # a color the sacrificed permanents have ("a green creature")
    sacrifice: tuple[ir.Selector, ...] = ()
    sacrifice_count: int = 0
    return_: tuple[ir.Selector, ...] = ()
    return_count: int = 0
    exile_hand: int = 0
    exile_hand_color: str = ""
    discard: int = 0
    discard_type: str = ""
    exile_graveyard: int = 0
    text: str = ""

    @property
    def outside(self) -> bool:
        return bool(self.sacrifice_count or self.return_count or self.exile_hand or self.discard
                    or self.exile_graveyard)


def _kicked_value(v: Any) -> int:
    if v is True:
        return 1
    if v is False or v is None:
        return 0
    if isinstance(v, int) and not isinstance(v, bool) and v >= 0:
        return v
    raise QueryError("", "kicked", f"expected true, false or a number, got {v!r}")


def apply_mode(view: View, player: str, tc: Any, query: dict) -> Any:
    """The :class:`~solver.costs.TotalCost` of casting ``tc.spell`` in the mode the
    query names (``alternative``, ``kicked``), with the card's mandatory
    additional costs (CR 601.2b, 601.2f). ``tc`` is the plain cast cost."""
    alternative = query.get("alternative", "") or ""
    if not isinstance(alternative, str):
        raise QueryError("", "alternative", f"expected the name of an alternative cost, got {alternative!r}")
    kicked = _kicked_value(query.get("kicked"))
    o = view.obj(tc.spell)
    opts = options_of(o)
    if not opts and not alternative and not kicked:
        return tc
    blockers = zone_blockers(view.state, view, o.id) if alternative else []
    if blockers:
        raise UnsupportedCase(f"text the project does not read could change casting {o.name} from the {o.zone}: "
                              f"{blockers[0]}")
    alt = None
    if alternative:
        alt = find_alternative(o, alternative)
        if alt is None:
            names = ", ".join(repr(a.name) for a in alternatives_of(o)) or "none"
            raise QueryError("", "alternative", f"{o.name} has no alternative cost {alternative!r} (it has: {names})")
    if kicked:
        k = kicker_of(o)
        if k is None or kicked > 1:
            raise QueryError("", "kicked", f"{o.name} has no (single) kicker cost to pay (CR 702.33a)")
    parts: list[ir.CastingOption] = [a for a in opts if a.kind == "additional"]
    if kicked:
        parts.append(kicker_of(o))  # type: ignore[arg-type]
    if alt is not None and alt.kind == "alternative":
        mana = alt.mana if alt.mana is not None else ManaCost.parse("{0}")
    else:
        mana = tc.mana                       # the mana cost (permissions pay it too)
        if alt is not None:
            parts.append(alt)
    if alt is not None and alt.kind == "alternative":
        parts.append(replace(alt, mana=None))
    life = 0
    sacs: list[tuple[tuple[ir.Selector, ...], int]] = []
    sac_color = ""
    returns: list[tuple[tuple[ir.Selector, ...], int]] = []
    exile_hand = []
    discard = []
    exile_gy = 0
    for p in parts:
        if p.mana is not None and p.mana:
            mana = mana + p.mana if mana else mana  # CR 118.6: no mana cost stays unpayable
        c = p.cost
        life += c.life
        if c.sacrifice_count:
            sacs.append((c.sacrifice, c.sacrifice_count))
            sac_color = c.sacrifice_color
        if c.return_count:
            returns.append((c.return_, c.return_count))
        if c.exile_hand:
            exile_hand.append((c.exile_hand, c.exile_hand_color))
        if c.discard:
            discard.append((c.discard, c.discard_type))
        exile_gy += c.exile_graveyard
    if len(sacs) > 1 or len(returns) > 1 or len(exile_hand) > 1 or len(discard) > 1 or (exile_hand and discard):
        raise UnsupportedCase(f"{o.name}: several costs of one kind (sacrifice, return, exile or discard) in one "
                              "casting are not modeled")
    fields: dict[str, Any] = {}
    model_sac: tuple[ir.Selector, ...] = ()
    if sacs:
        sel, n = sacs[0]
        if n == 1 and not returns:
            model_sac = sel
        else:
            fields.update(sacrifice=sel, sacrifice_count=n)
    if returns:
        fields.update(return_=returns[0][0], return_count=returns[0][1])
    if exile_hand:
        fields.update(exile_hand=exile_hand[0][0], exile_hand_color=exile_hand[0][1])
    if discard:
        fields.update(discard=discard[0][0], discard_type=discard[0][1])
    if exile_gy:
        fields.update(exile_graveyard=exile_gy)
    extra = Extra(tc.spell, alt.name if alt is not None else "", kicked, model_sac, sac_color, **fields,
                  text="; ".join(p.text for p in parts if p.text))
    sub = dict(tc.__dict__)
    sub.update(mana=mana, life=tc.life + life, helps=helps_of(o))
    if model_sac and len(model_sac) == 1 and not extra.outside and not sac_color:
        sub.update(sacrifice=model_sac[0])          # the model's own sacrifice (CR 701.21)
        extra = replace(extra, model_sacrifice=())
    if extra.outside or extra.model_sacrifice or extra.alternative or extra.kicked:
        sub["extra"] = extra
    return type(tc)(**sub)


# ---------------------------------------------------------------------------
# Choices of cards and permanents
# ---------------------------------------------------------------------------

def _card_key(o: GameObject) -> tuple:
    """Interchangeable cards (same card, owner, status; contract §2.3)."""
    return (o.card.name if o.card is not None else o.name, o.owner, o.token, o.conjured,
            tuple(sorted(o.counters)), tuple(sorted((k, repr(v)) for k, v in o.chosen)))


def card_classes(view: View, player: str, zone: str, exclude: str, color: str = "",
                 card_type: str = "") -> list[list[str]]:
    """The player's cards in ``zone`` (other than ``exclude``) that fit, in interchangeable
    classes (ids in zone order), the classes in order of their first member."""
    groups: dict[tuple, list[str]] = {}
    for o in view.state.objects:
        if o.zone != zone or o.owner != player or o.id == exclude or o.card is None:
            continue
        if color and color not in view.chars(o.id).colors:
            continue
        if card_type and card_type not in o.card.data.types:
            continue
        groups.setdefault(_card_key(o), []).append(o.id)
    return list(groups.values())


def multisets(sizes: list[int], n: int) -> Iterator[tuple[int, ...]]:
    """Every way to take ``n`` items from classes of these sizes (how many of each), in
    lexicographic order (first classes first)."""
    if not sizes:
        if n == 0:
            yield ()
        return
    for k in range(min(sizes[0], n), -1, -1):
        for rest in multisets(sizes[1:], n - k):
            yield (k,) + rest


def multiset_count(sizes: list[int], n: int) -> int:
    """The number of :func:`multisets` (a product of polynomials, no listing)."""
    ways = [1] + [0] * n
    for s in sizes:
        nxt = [0] * (n + 1)
        for have, w in enumerate(ways):
            if w:
                for k in range(0, min(s, n - have) + 1):
                    nxt[have + k] += w
        ways = nxt
    return ways[n]


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


def _perm_fits(view: View, player: str, oid: str, sels: tuple[ir.Selector, ...], color: str = "") -> bool:
    return any(view.matches(s, oid, None, player) for s in sels) and (not color or color in view.chars(oid).colors)


def _perm_classes(problem: Any, view: View, player: str, sels: tuple[ir.Selector, ...],
                  color: str = "") -> list[tuple[str, ...]]:
    return [tuple(pc.members) for pc in problem.classes if _perm_fits(view, player, pc.members[0], sels, color)]


def _outside_parts(view: View, player: str, ex: Extra, problem: Any) -> list[_Part]:
    parts = []
    if ex.exile_hand:
        parts.append(_Part("exile", tuple(map(tuple, card_classes(view, player, "hand", ex.spell,
                                                                  color=ex.exile_hand_color))), ex.exile_hand))
    if ex.discard:
        parts.append(_Part("discard", tuple(map(tuple, card_classes(view, player, "hand", ex.spell,
                                                                    card_type=ex.discard_type))), ex.discard))
    if ex.exile_graveyard:
        parts.append(_Part("exile", tuple(map(tuple, card_classes(view, player, "graveyard", ex.spell))),
                           ex.exile_graveyard))
    if ex.sacrifice_count:
        parts.append(_Part("sacrifice", tuple(_perm_classes(problem, view, player, ex.sacrifice, ex.sacrifice_color)),
                           ex.sacrifice_count))
    if ex.return_count:
        parts.append(_Part("return", tuple(_perm_classes(problem, view, player, ex.return_)), ex.return_count))
    return parts


# ---------------------------------------------------------------------------
# Paying
# ---------------------------------------------------------------------------

def _problem(view: View, player: str, tc: Any):
    """The payment model's problem for the model's part of ``tc`` (mana, life, one sacrifice),
    with the independence checks of the module docstring."""
    from .payment_problem import build_problem

    ex: Extra = tc.extra
    base = replace(tc, extra=None)
    problem = build_problem(view, player, base)
    if ex.model_sacrifice:
        classes = tuple(c for c, pc in enumerate(problem.classes)
                        if _perm_fits(view, player, pc.members[0], ex.model_sacrifice, ex.sacrifice_color))
        color = {"W": "white ", "U": "blue ", "B": "black ", "R": "red ", "G": "green "}.get(ex.sacrifice_color, "")
        text = color + " or ".join(_noun(s) for s in ex.model_sacrifice)
        problem = replace(problem, main=replace(problem.main, sacrifice_classes=classes,
                                                sacrifice_text=("an " if text[0] in "aeiou" else "a ") + text))
    if (ex.exile_hand or ex.discard) and "draw" in problem.effects:
        raise UnsupportedCase("a card cost from the hand while a mana ability would draw cards "
                              "(the drawn card could be chosen) is not modeled")
    if ex.exile_graveyard and problem.main.delve_classes:
        raise UnsupportedCase("exiling cards from the graveyard for both a cost and delve (the same card "
                              "could be chosen twice) is not modeled")
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
    from .costs import sacrifice_phrase

    return sacrifice_phrase(s).split(" ", 1)[1]


def _model_keys(problem: Any, limit: int | None = None, deadline: float | None = None) -> tuple[list, bool]:
    """The distinct payments of the model's part (decoded), and whether the listing is complete."""
    from mtgsolve.models import payment as pm

    from mtgsolve.models.payment_count import counter_for as payment_counter  # the counting DP, when it applies

    counter = payment_counter(problem)
    if counter is not None:
        keys = list(counter.keys(limit))
        return [pm.decode(problem, k) for k in keys], limit is None or counter.count() <= limit
    res = pm.PaymentModel(problem).enumerate(limit, deadline)
    if res.timed_out:
        raise TimeoutError("time limit reached listing payments")
    return [pm.decode(problem, k) for k in res.keys], res.complete


def _model_count(problem: Any, deadline: float | None = None) -> int:
    from mtgsolve.models.payment_count import counter_for as payment_counter  # the counting DP, when it applies

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
    from mtgsolve.models import payment as pm

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


def _with(p: dict, key: str, ids: list[str]) -> dict:
    q = dict(p)
    if key == "sacrifice":
        q["sacrifice"] = sorted(list(p.get("sacrifice", [])) + ids)
    else:
        q[key] = sorted(list(q.get(key, [])) + ids)
    return q


def sort_key(p: dict) -> tuple:
    from mtgsolve.models.payment import payment_sort_key

    return (payment_sort_key(p), p.get("exile", []), p.get("discard", []), p.get("return", []))


def payments(view: View, player: str, tc: Any, limit: int | None = None,
             deadline: float | None = None) -> tuple[int, list[dict]]:
    """``(count, payments)``: the exact number of distinct payments and the first
    ``limit`` of them in the pay query's order (contract §2.3; the extension keys
    ``exile``, ``discard``, ``return`` hold the cards and permanents chosen)."""
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
    out: list[dict] = []
    for p in base:
        for combo in itertools.product(*(list(part.choices()) for part in parts)):
            q = p
            for part, ids in zip(parts, combo):
                q = _with(q, part.key, ids)
            out.append(q)
    out.sort(key=sort_key)
    return total, out if limit is None else out[:limit]


def pay_result(view: View, player: str, tc: Any, max_results: int | None, deadline: float | None) -> dict:
    """The ``pay`` query's answer for a total cost with ``extra`` (contract §2.3)."""
    from mtgsolve.models import payment as pm

    try:
        n, pays = payments(view, player, tc, max_results, deadline)
    except TimeoutError:
        return {"status": "timeout", "payable": None, "count": None, "payments": []}
    out: dict[str, Any] = {"status": "ok" if max_results is None or n <= max_results else "truncated",
                           "payable": n > 0, "count": n, "payments": pays}
    if tc.x is None:
        out["x_values"] = sorted({p["x"] for p in pays})
        out["x_max"] = max(out["x_values"]) if out["x_values"] else None
    if not n:
        out["reason"] = reason(view, player, tc)
    return out


def reason(view: View, player: str, tc: Any) -> str:
    """Why the total cost can't be paid, in one sentence."""
    from mtgsolve.models import payment as pm

    if tc.what == "cast" and not tc.mana:
        return f"{tc.subject} has no mana cost, so it can't be cast by paying one (CR 118.6)"
    problem = _problem(view, player, tc)
    ex: Extra = tc.extra
    for part in _outside_parts(view, player, ex, problem):
        if part.count() == 0:
            have = sum(len(c) for c in part.classes)
            what = {"exile": "cards to exile", "discard": "cards to discard", "return": "permanents to return",
                    "sacrifice": "permanents to sacrifice"}[part.key]
            return f"the cost needs {part.n} {what} ({ex.text or 'its cost'}); {player} has {have} that qualify"
    return pm.explain(problem, None)


# ---------------------------------------------------------------------------
# Soundness off the hand
# ---------------------------------------------------------------------------

CAST_BLOCKING = frozenset({"costs", "targets", "timing", "mana", "characteristics", "unknown"})


def zone_blockers(state: GameState, view: View, oid: str) -> list[str]:
    """The printed texts of the card's unread parts that could change casting it (its
    costs, targets, timing …) when it is cast from a zone other than the hand (flashback,
    escape …): the soundness layer checks a card's own spell text only where it is
    usually cast (contract §2.0), so casting it from the graveyard checks it here."""
    o = state.obj(oid)
    if o.zone == "hand":
        return []
    from .soundness import unread_parts

    return [p.text for p in unread_parts(state, view) if p.object == oid and CAST_BLOCKING & set(p.affects)]


# ---------------------------------------------------------------------------
# The Python API
# ---------------------------------------------------------------------------

def api_refusal(state: GameState, player: str, subject: str | None = None) -> str | None:
    """Why the Python API's legal-action listing can't stand for ``player``: a card of theirs
    offers casting options (alternative or additional costs, kicker, flashback …) whose
    payments the API's :class:`~solver.api.Payment` and ``apply`` do not model (the
    ``actions`` and ``pay`` queries list them). With ``subject``: only that card counts."""
    for o in state.objects:
        if subject is not None and o.id != subject:
            continue
        if o.owner != player or o.zone not in ("hand", "graveyard") or o.card is None:
            continue
        from .cards import other_faces

        if o.zone == "hand" and o.card.data.layout in ("adventure", "split", "modal_dfc") and other_faces(o.card):
            return (f"{o.name} ({o.id}) can be cast or played as another face (CR 715.3, 709.3, 712.12), which "
                    "the Python API does not list yet: use the actions and pay queries (face)")
        for a in options_of(o):
            if o.zone == "hand" or a.zone == "graveyard":
                return (f"{o.name} ({o.id}) can be cast with an alternative or additional cost "
                        f"({a.text or a.name}), which the Python API does not apply yet: use the actions and pay "
                        "queries")
    return None
