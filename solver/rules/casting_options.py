"""Ways to cast a spell and the costs they add (CR 601.2b, 601.2f–h, 118.9).

The reader (:mod:`solver.reader.casting_options`) turns a card's alternative
costs, additional costs, kicker and graveyard-casting keywords into
:class:`~solver.core.ir.CastingOption` parts; this module says what they do for the
``pay`` query (:mod:`solver.rules.costs`, :mod:`solver.queries.pay`) and the
``actions`` query (:mod:`solver.engine.actions`).

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
      discarding a card / a land card); ``disturb`` (702.146a: from the graveyard,
      cast transformed — an option of the card showing its back face,
      :func:`options_of`, the ``face`` entries of :mod:`solver.rules.faces`);
    * ``kicked`` — 1 when the kicker cost is paid (CR 702.33a, 702.33d: it
      may be paid along with an alternative cost), else 0.

    Mandatory additional costs ("As an additional cost to cast this spell, …",
    CR 601.2b) are part of every mode. Conditions: "If it's not your turn"
    (Force of Negation) and "If you control a <Subtype>" are checked on the
    situation. The total cost (CR 601.2f) is the mode's mana — the mana cost
    or the alternative's — plus the additional costs' mana; cost increases,
    reductions and minimums then apply to it as to any total cost
    (:func:`solver.rules.casting_rules.modified_cost`).

Payments
    The choices of cards and permanents a mode's costs add, and the payments of
    a total cost with a mode, are :mod:`solver.payment.casting` (which builds
    on the payment model's problem, :mod:`solver.payment.problem`, above
    :mod:`solver.rules.costs`; this module stays below costs, which applies a mode
    with :func:`apply_mode`).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from ..core import ir
from .characteristics import View
from ..core.errors import QueryError, UnsupportedCase
from ..core.mana import ManaCost
from .faces import CAST_WITH, TRANSFORMED_CASTS, cast_transformed, faces_of, transformed_cast_of
from ..core.state import GameObject, GameState, opponent_lost_life
from .play_permissions import exile_permission
from .soundness.check import unread_parts



# ---------------------------------------------------------------------------
# The options of a card
# ---------------------------------------------------------------------------

def options_of(o: GameObject) -> tuple[ir.CastingOption, ...]:
    """The card's casting options, in printed order (its printed abilities:
    they function from the hand and the graveyard, CR 113.6). Disturb (CR 702.146a) and more than meets
    the eye (702.162a) cast the card transformed: each is an option of the card showing its back face
    where it is cast from (the situation of :func:`solver.rules.faces.with_face`), not of its front."""
    if o.card is None:
        return ()
    own = tuple(a for a in o.card.abilities if isinstance(a, ir.CastingOption)
                and not (a.name in TRANSFORMED_CASTS and isinstance(a, ir.AlternativeCost)))
    if cast_transformed(o):
        opt = transformed_cast_of(o.front)
        assert opt is not None   # cast_transformed checked it
        return own + (opt,)
    return own


def alternatives_of(o: GameObject) -> tuple[ir.AlternativeCost | ir.CastPermission, ...]:
    return tuple(a for a in options_of(o) if isinstance(a, (ir.AlternativeCost, ir.CastPermission)))


def find_alternative(o: GameObject, name: str) -> ir.AlternativeCost | ir.CastPermission | None:
    """The alternative named ``name`` (case-insensitive) on the card, or None."""
    for a in alternatives_of(o):
        if a.name.lower() == str(name).lower():
            return a
    return None


def overloaded(o: GameObject, alternative: str) -> bool:
    """Is ``o`` cast for its overload cost? Then "target" in its text reads "each": the spell
    has no targets (CR 702.96b)."""
    a = find_alternative(o, alternative) if alternative else None
    return isinstance(a, ir.AlternativeCost) and a.name.lower() == "overload"


def buyback_of(o: GameObject) -> ir.Buyback | None:
    """The card's buyback (CR 702.27a), when it has one."""
    bs = [a for a in options_of(o) if isinstance(a, ir.Buyback)]
    return bs[0] if len(bs) == 1 else None


def casualty_of(o: GameObject) -> ir.Casualty | None:
    """The card's casualty (CR 702.153a), when it has one."""
    cs = [a for a in options_of(o) if isinstance(a, ir.Casualty)]
    return cs[0] if len(cs) == 1 else None


def kicker_of(o: GameObject) -> ir.Kicker | None:
    ks = [a for a in options_of(o) if isinstance(a, ir.Kicker)]
    return ks[0] if len(ks) == 1 else None


def helps_of(o: GameObject) -> tuple[str, ...]:
    """The card's ways to pay its total cost in any mode: ``delve``, ``convoke``,
    ``improvise`` (CR 702.66a, 702.51a, 702.126a), in printed order."""
    return tuple(a.name for a in options_of(o) if isinstance(a, ir.PaymentOption))


def has_options(o: GameObject) -> bool:
    return bool(options_of(o))


def modes(o: GameObject) -> list[tuple[str, int, int, int]]:
    """Every ``(alternative, kicked, buyback, casualty)`` the card offers, the plain mode ``("", 0, 0, 0)``
    first: its alternative costs (CR 118.9), with and without its kicker (702.33a), its buyback (702.27a)
    and its casualty (702.153a), optional additional costs each."""
    alts = [""] + [a.name for a in alternatives_of(o)]
    kicks = [0, 1] if kicker_of(o) is not None else [0]
    buys = [0, 1] if buyback_of(o) is not None else [0]
    cas = [0, 1] if casualty_of(o) is not None else [0]
    return [(a, k, b, c) for a in alts for k in kicks for b in buys for c in cas]


def mode_zone(o: GameObject, alternative: str) -> str:
    if not alternative:
        return "hand"
    a = find_alternative(o, alternative)
    return a.zone if a is not None else "hand"


def mode_reason(view: View, player: str, o: GameObject, alternative: str, kicked: int,
                buyback: int = 0, casualty: int = 0) -> str | None:
    """Why ``player`` can't cast ``o`` in this mode now (before timing, targets
    and costs), or None: the option must exist, the card must be in the
    option's zone and owned by the player (CR 601.2a), its condition must hold."""
    if kicked and kicker_of(o) is None:
        return f"{o.name} has no kicker (CR 702.33a)" if not any(isinstance(a, ir.Kicker) for a in options_of(o)) \
            else f"{o.name} has several kicker costs, which are not modeled"
    if kicked not in (0, 1):
        return "kicker is paid at most once (CR 702.33a; multikicker is not modeled)"
    if buyback and buyback_of(o) is None:
        return f"{o.name} has no buyback (CR 702.27a)"
    if casualty and casualty_of(o) is None:
        return f"{o.name} has no casualty (CR 702.153a)"
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
    if (o.zone != zone or o.owner != player) and not (zone == "hand" and exile_permission(o, player, land=False)):
        where = f"{player}'s {zone}"
        return f"{o.name} ({o.id}) is not in {where} (CR 601.2a" + (
            f", {alternative} casts it from the {zone})" if alternative else ")")
    return None


def condition_reason(view: View, player: str, a: ir.AlternativeCost | ir.CastPermission) -> str | None:
    if not isinstance(a, ir.AlternativeCost):
        return None   # a permission has no condition of its own
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
    sacrifice_power: int = 0        # the sacrificed creature's least power (casualty N, CR 702.153a)
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
    exile_graveyard_type: str = ""  # an activation cost's "Exile a creature card from your graveyard"
    crew: int = 0                   # "Crew N": other untapped creatures of total power N or greater tapped

    @property
    def outside_other_than_crew(self) -> bool:
        return bool(self.sacrifice_count or self.return_count or self.exile_hand or self.discard
                    or self.exile_graveyard or self.model_sacrifice)

    @property
    def outside(self) -> bool:
        return bool(self.sacrifice_count or self.return_count or self.exile_hand or self.discard
                    or self.exile_graveyard or self.crew)


def apply_mode(view: View, player: str, tc: Any, alternative: str = "", kicked: int = 0, buyback: int = 0,
               casualty: int = 0) -> Any:
    """The :class:`~solver.rules.costs.TotalCost` of casting ``tc.spell`` in the mode named
    (``alternative``: an alternative cost or permission's name; ``kicked``: how many times
    the kicker cost is paid), with the card's mandatory additional costs (CR 601.2b,
    601.2f). ``tc`` is the plain cast cost."""
    o = view.obj(tc.spell)
    opts = options_of(o)
    if not opts and not alternative and not kicked and not buyback and not casualty:
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
    if buyback and buyback_of(o) is None:
        raise QueryError("", "buyback", f"{o.name} has no buyback cost to pay (CR 702.27a)")
    if casualty and casualty_of(o) is None:
        raise QueryError("", "casualty", f"{o.name} has no casualty cost to pay (CR 702.153a)")
    parts: list[ir.CostOption] = [a for a in opts if isinstance(a, ir.AdditionalCost)]
    if kicked:
        parts.append(kicker_of(o))  # type: ignore[arg-type]
    if buyback:
        parts.append(buyback_of(o))  # type: ignore[arg-type]
    if casualty:
        parts.append(casualty_of(o))  # type: ignore[arg-type]
    if isinstance(alt, ir.AlternativeCost):
        mana = alt.mana if alt.mana is not None else ManaCost.parse("{0}")
    else:
        mana = tc.mana                       # the mana cost (permissions pay it too)
        if alt is not None:
            parts.append(alt)
    if isinstance(alt, ir.AlternativeCost):
        parts.append(replace(alt, mana=None))
    life = 0
    sacs: list[tuple[tuple[ir.Selector, ...], int]] = []
    sac_color = ""
    sac_power = 0
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
            sac_power = c.sacrifice_power
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
    extra = Extra(tc.spell, alt.name if alt is not None else "", kicked, model_sac, sac_color, sac_power, **fields,
                  text="; ".join(p.text for p in parts if p.text))
    sub = dict(tc.__dict__)
    sub.update(mana=mana, life=tc.life + life, helps=helps_of(o))
    if model_sac and len(model_sac) == 1 and not extra.outside and not sac_color and not sac_power:
        sub.update(sacrifice=model_sac[0])          # the model's own sacrifice (CR 701.21)
        extra = replace(extra, model_sacrifice=())
    if extra.outside or extra.model_sacrifice or extra.alternative or extra.kicked:
        sub["extra"] = extra
    return type(tc)(**sub)


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

    return [p.text for p in unread_parts(state, view) if p.object == oid and CAST_BLOCKING & set(p.affects)]


# ---------------------------------------------------------------------------
# The Python API
# ---------------------------------------------------------------------------

#: The alternative costs and permissions whose only consequence is their payment (CR 118.9, 702.137a
#: spectacle, 702.81a retrace): nothing about the spell or the permanent it becomes depends on them.
API_PAID_ONLY = frozenset({"spectacle", "retrace"})

#: Why the API refuses the others: what the spell or permanent would have to record (by option name).
API_UNRECORDED = {
    "dash": "the dashed permanent gains haste and returns at the next end step (CR 702.109a)",
}


def api_applies(a: ir.CastingOption) -> bool:
    """Does the Python API apply casting option ``a``? Yes for the options whose only consequence is
    their payment — "rather than pay this spell's mana cost" lines (Force of Will, Daze; CR 118.9),
    spectacle and retrace (:data:`API_PAID_ONLY`), mandatory additional costs (CR 601.2b), delve,
    convoke and improvise (CR 702.66a, 702.51a, 702.126a) — paid through the API's ``Payment`` —;
    the options the spell records (object key ``cast_with``): flashback and jump-start, exiled as it
    leaves the stack (702.34a, 702.133a), escape and evoke, which the permanent remembers too (702.138b-c,
    702.74a: evoke's sacrifice trigger reads it) and overload (702.96b: no targets, each object the text
    describes); kicker paid once (object key ``kicked``, 702.33d-e); casualty (object key ``casualty``: its
    triggered ability copies the spell, 702.153a, 707.10);
    and disturb / more than meets the eye (cast as the back face, CR 702.146a, 702.162a)."""
    if isinstance(a, (ir.PaymentOption, ir.AdditionalCost)):
        return True
    if isinstance(a, ir.Kicker):
        return a.name == "kicker"
    if isinstance(a, ir.Buyback):
        return True   # recorded on the spell (object key buyback, CR 702.27a)
    if isinstance(a, ir.Casualty):
        return True   # recorded on the spell (object key casualty); its trigger copies it (CR 702.153a, 707.10)
    if isinstance(a, ir.AlternativeCost) and a.name in TRANSFORMED_CASTS:
        return True
    if isinstance(a, (ir.AlternativeCost, ir.CastPermission)) and a.name in API_PAID_ONLY | CAST_WITH:
        return True   # recorded on the spell (object key cast_with, CR 702.34a, 702.133a, 702.138b, 702.74a)
    return isinstance(a, ir.AlternativeCost) and "rather than pay" in (a.text or "").lower()


def api_option_refusal(o: GameObject, a: ir.CastingOption) -> str:
    """The API's reason for refusing ``o``'s casting option ``a``, naming it."""
    why = API_UNRECORDED.get(a.name, "what it does after the cast is not recorded")
    return (f"{o.name} ({o.id}) can be cast with {a.name} ({a.text or a.name}): {why}, which the Python API "
            "does not record yet: use the actions and pay queries")


def api_refusal(state: GameState, player: str, subject: str | None = None) -> str | None:
    """Why the Python API's legal-action listing can't stand for ``player``: a card of theirs
    offers a casting option with consequences after the cast that a stack object does not record
    (kicker, flashback, dash, evoke …: :func:`api_applies`; the ``actions`` and ``pay`` queries list
    them). With ``subject``: only that card counts."""
    for o in state.objects:
        if subject is not None and o.id != subject:
            continue
        if (o.owner != player or o.zone not in ("hand", "graveyard")) and not exile_permission(o, player, land=False) \
                or o.card is None:
            continue

        faces = tuple(o.with_(card=f) for f in faces_of(o)) if o.zone == "hand" else ()   # CR 715.3, 709.3
        for a in (a for x in (o, *faces) for a in options_of(x)):
            if api_applies(a):
                continue
            if o.zone == "hand" or (a.zone == "graveyard") == (o.zone == "graveyard"):   # exile: as from a hand
                return api_option_refusal(o, a)
    return None
