"""The total cost to pay (CR 601.2f, 602.2b) for the ``pay`` query (contract §2.3).

A ``pay`` query names what is paid for in one of three ways:

* ``cast: <id>`` — the card's mana cost changed by the cost increases,
  reductions and minimums in force (CR 601.2f, 118.7; :mod:`solver.rules.casting_rules`;
  additional costs are not modeled), with ``{X}``
  announced per CR 107.3a / 601.2b: ``x: n`` fixes it, ``x: any`` asks for
  every payable value (the payment model then also reports the maximum);
  without ``x`` it is 0;
* ``activate: {object, index}`` — the activation cost of the n-th activated
  ability of a permanent (CR 602.2b): mana, ``{T}`` (CR 107.5), ``{Q}``
  (CR 107.6), both only for creatures that are not summoning sick or have
  haste (CR 302.6, 602.5a; Thousand-Year Elixir through
  :meth:`~solver.rules.characteristics.View.can_pay_tap_symbol`), pay life
  (CR 119.4), sacrifice, remove counters, "tap an untapped creature you
  control" (not restricted by summoning sickness);
* ``cost: "{1}{G}"`` — a bare mana cost;
* ``suspend: <id>`` — the suspend cost of a card in the player's hand (CR 702.62a;
  the special action of CR 116.2f: :mod:`solver.rules.suspend`).

Hybrid, monocolored hybrid, colorless hybrid, Phyrexian and hybrid Phyrexian
symbols are announced before payment (CR 601.2b); the payment model treats
each announcement as a choice, so :class:`TotalCost` keeps the symbols as
printed. ``life: false`` forbids paying life for Phyrexian symbols.

This module only reads the situation and the query; it knows nothing of the
solver.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..core import ir
from .characteristics import View
from ..core.errors import QueryError, UnsupportedCase
from ..core.mana import ManaCost, ManaSyntaxError
from .casting_options import apply_mode
from .casting_rules import modified_cost
from .suspend import suspend_of
from .activation_rules import activation_ban
from .hand_abilities import OFF_BATTLEFIELD, name_ban
from .hand_abilities import reduced_mana
from .casting_options import Extra


@dataclass(frozen=True)
class TotalCost:
    """What must be paid, at the rules level (CR 601.2f, 602.2b).

    ``mana`` keeps ``{X}`` and hybrid/Phyrexian symbols as printed; ``x`` is
    the announced X (``None``: every value, contract ``x: any``).
    ``source`` is the permanent whose ability is activated (``None`` for
    ``cast`` and ``cost``); the other fields are the non-mana parts of an
    activation cost (CR 118, 602.1a). ``tap_symbol_blocked`` is set when the
    source is a creature whose ``{T}``/``{Q}`` ability can't be activated
    now (CR 302.6, 602.5a).
    """

    what: str                       # "cast" | "activate" | "cost" | "suspend" (CR 702.62a)
    mana: ManaCost
    x: int | None = 0
    life_allowed: bool = True
    source: str | None = None
    source_name: str = ""
    tap: bool = False
    untap: bool = False
    sacrifice_self: bool = False
    sacrifice: ir.Selector | None = None
    life: int = 0
    remove_counters: tuple[str, int] | None = None
    tap_creatures: int = 0
    tap_selector: ir.Selector | None = None  # which untapped permanents ``tap_creatures`` taps (None: creatures)
    tap_symbol_blocked: bool = False
    discard_self: bool = False      # "Discard this card": the card in the hand (CR 113.6k; cycling, channel)
    exile_self: bool = False        # "Exile this artifact": the source is exiled (Relic of Progenitus)
    return_self: bool = False       # "Return this creature to its owner's hand" (checked as exile_self is)
    subject: str = ""               # "Grizzly Bears", "Order of Whiteclay's ability 1", "{1}{G}"
    spell: str | None = None        # the card cast (``cast``): what restricted mana is spent on (CR 106.6)
    extra: Any = None               # the casting mode and costs paid outside the payment model
                                    # (:class:`solver.rules.casting_options.Extra`; None: none)
    helps: tuple[str, ...] = ()     # other ways to pay it: "delve", "convoke", "improvise"
                                    # (CR 702.66a, 702.51a, 702.126a; the spell's own keywords)

    @property
    def x_count(self) -> int:
        return self.mana.x_count

    def describe(self) -> str:
        """The cost as printed: ``{1}{W}{W}, {Q}``."""
        parts = [self.mana.text] if self.mana else []
        if self.tap:
            parts.append("{T}")
        if self.untap:
            parts.append("{Q}")
        if self.life:
            parts.append(f"Pay {self.life} life")
        if self.sacrifice_self:
            parts.append(f"Sacrifice {self.source_name}")
        if self.sacrifice is not None:
            parts.append(f"Sacrifice {sacrifice_phrase(self.sacrifice)}")
        if self.remove_counters:
            c, n = self.remove_counters
            parts.append(f"Remove {n} {c} counter{'s' if n != 1 else ''} from {self.source_name}")
        if self.tap_creatures:
            n = self.tap_creatures
            what = "creature(s) you control" if self.tap_selector is None else self.tap_selector.describe()
            parts.append("Tap an untapped creature you control" if n == 1 and self.tap_selector is None
                         else f"Tap {n} untapped {what}")
        if self.discard_self:
            parts.append(f"Discard {self.source_name}")
        if self.exile_self:
            parts.append(f"Exile {self.source_name}")
        if self.return_self:
            parts.append(f"Return {self.source_name} to its owner's hand")
        return ", ".join(parts) or "{0}"


def sacrifice_phrase(sel: ir.Selector) -> str:
    """"a land", "another creature" — the object a sacrifice cost asks for."""
    kind = " or ".join(sorted(t.lower() for t in sel.types)) or "permanent"
    words = []
    if sel.basic:
        words.append("basic")
    if sel.nonbasic:
        words.append("nonbasic")
    words.extend(sorted(sel.subtypes))
    words.append(kind)
    noun = " ".join(words)
    if sel.exclude_self:
        return "another " + noun
    return ("an " if noun[0] in "aeiou" else "a ") + noun


# ---------------------------------------------------------------------------
# The cost named
# ---------------------------------------------------------------------------

@dataclass(frozen=True)
class CostRequest:
    """What a ``pay`` query names, as typed values (contract §2.3): the query façade
    (:func:`solver.queries.pay.cost_request`) reads it from the query, the actions engine makes
    it from a candidate; :func:`total_cost` makes the :class:`TotalCost` of it.

    ``what``: ``cast`` | ``cost`` | ``activate`` | ``suspend``; ``subject``: the card or
    permanent's id, or the mana cost's text for ``cost``; ``index``: the activated ability's
    1-based index; ``x``: the announced X (CR 107.3a, 601.2b; ``None``: every value, contract
    ``x: any``); ``life_allowed``: False forbids paying life for Phyrexian symbols;
    ``alternative``, ``kicked``, ``buyback`` and ``casualty``: the casting mode (``cast`` only; CR 118.9, 702.33a,
    702.27a, 702.153a)."""

    what: str
    subject: str
    index: int = 1
    x: int | None = 0
    life_allowed: bool = True
    alternative: str = ""
    kicked: int = 0
    buyback: int = 0
    casualty: int = 0


def bare_cost(text: str) -> TotalCost:
    """The total cost of a bare mana cost such as ``{1}{G}`` (a ``cost`` request; raises
    :class:`~solver.core.mana.ManaSyntaxError` for bad text)."""
    mana = ManaCost.parse(text)
    return TotalCost("cost", mana, subject=mana.text or "{0}")


def total_cost(view: View, player: str, request: CostRequest, modifiers: bool = True) -> TotalCost:
    """The total cost named by a ``pay`` request (contract §2.3).

    For ``cast``, the cost changes of the situation apply (CR 601.2f:
    increases, reductions, then minimums; :func:`solver.rules.casting_rules.modified_cost`)
    unless ``modifiers`` is False (the printed mana cost, for references).

    Raises :class:`~solver.core.errors.QueryError` (path inside the query) for
    unknown objects, ability indices out of range, a land named by ``cast``, a bad
    mana cost text, an unknown alternative cost and ``x`` on a cost without ``{X}``.
    """
    what = request.what
    if what == "cast":
        tc = _cast_cost(view, request.subject)

        tc = apply_mode(view, player, tc, request.alternative, request.kicked, request.buyback, request.casualty)
    elif what == "cost":
        try:
            tc = bare_cost(request.subject)
        except ManaSyntaxError as e:
            raise QueryError("", "cost", str(e)) from None
    elif what == "suspend":
        tc = _suspend_cost(view, player, request.subject)
    else:
        tc = _activation_cost(view, player, request.subject, request.index)
    x = _x_value(request.x, tc.mana)
    if what == "cast" and modifiers:
        assert tc.spell is not None   # a spell's cost names the spell (_cast_cost)
        tc = TotalCost(**{**tc.__dict__, "mana": modified_cost(view, player, tc.spell, tc.mana, x).mana})
    return TotalCost(**{**tc.__dict__, "x": x, "life_allowed": request.life_allowed})


def _x_value(x: int | None, mana: ManaCost) -> int | None:
    """X as announced (CR 107.3a): every value (``None``) only for a cost with ``{X}``."""
    if x is None:
        return None if mana.x_count else 0
    if x and not mana.x_count:
        raise QueryError("", "x", f"the cost {mana.text or '{0}'} has no {{X}}")
    return x


def _cast_cost(view: View, oid: str) -> TotalCost:
    """CR 601.2f: the mana cost of the card (CR 202.1)."""
    if view.state.find(oid) is None:
        raise QueryError("", "cast", f"unknown object {oid!r}")
    o = view.state.obj(oid)
    if o.card is None:
        raise QueryError("", "cast", f"'{oid}' is an ability, not a card")
    if "Land" in o.card.data.types:
        raise QueryError("", "cast", f"{o.card.name} is a land: lands are played, not cast (CR 305.1)")
    return TotalCost("cast", o.card.data.mana_cost, subject=o.card.name, spell=oid)


def _suspend_cost(view: View, player: str, oid: str) -> TotalCost:
    """CR 702.62a, 116.2f: the suspend cost of a card with suspend in ``player``'s hand (the cost of a
    special action: no cost changes of spells apply, CR 601.2f)."""
    if view.state.find(oid) is None:
        raise QueryError("", "suspend", f"unknown object {oid!r}")
    o = view.state.obj(oid)

    s = suspend_of(o)
    if s is None:
        raise QueryError("", "suspend", f"'{oid}' has no suspend (CR 702.62a)")
    if o.zone != "hand" or o.owner != player:
        raise QueryError("", "suspend", f"'{oid}' is not in {player}'s hand: only its owner suspends a card, from "
                                        f"their hand (CR 702.62a; it is in {o.owner}'s {o.zone})")
    return TotalCost("suspend", s.mana, subject=f"suspending {o.card.name if o.card else oid}")


def _activation_cost(view: View, player: str, oid: str, index: int) -> TotalCost:
    """CR 602.2b: the activation cost of the ``index``-th activated ability of ``oid``."""
    if view.state.find(oid) is None:
        raise QueryError("", "activate.object", f"unknown object {oid!r}")
    o = view.state.obj(oid)
    acts = view.chars(oid).activated
    # cycling, channel from the hand; "Exile this card from your graveyard: …" from the graveyard (CR 113.6k)
    from_hand = o.zone in OFF_BATTLEFIELD and any(isinstance(a, ir.ActivatedAbility) and a.zone == o.zone
                                                  for a in acts)
    if o.zone != "battlefield" and not from_hand:
        raise QueryError("", "activate.object", f"'{oid}' is not on the battlefield (it is in the {o.zone})")
    if from_hand and o.owner != player:
        raise QueryError("", "activate.object", f"'{oid}' is in {o.owner}'s {o.zone}, not {player}'s: only its "
                                                "owner can activate its abilities there (CR 602.2, 113.6k)")
    if not from_hand and o.controller != player:
        raise QueryError("", "activate.object", f"'{oid}' is controlled by {o.controller}, not {player}: "
                                                "only its controller can activate its abilities (CR 602.2)")
    if not 1 <= index <= len(acts):
        have = f"it has {len(acts)} activated abilit{'y' if len(acts) == 1 else 'ies'}"
        raise QueryError("", "activate.index", f"{view.chars(oid).name} has no activated ability {index!r} ({have})")
    ability = acts[index - 1]
    if from_hand and not (isinstance(ability, ir.ActivatedAbility) and ability.zone == o.zone):
        raise QueryError("", "activate.index", f"ability {index} of '{oid}' works only on the battlefield, and "
                                               f"the card is in a {o.zone} (CR 113.6)")
    if isinstance(ability, ir.ActivatedAbility) and ability.zone != o.zone:
        raise QueryError("", "activate.object", f"ability {index} of '{oid}' works only from its owner's "
                                                f"{ability.zone} (CR 113.6k); the card is in the {o.zone}")
    if isinstance(ability, ir.Unsupported):
        raise UnsupportedCase(f"{view.chars(oid).name}'s activated ability {index} is not modeled "
                              f"({ability.what})")
    assert isinstance(ability, (ir.ActivatedAbility, ir.ManaAbility))   # is_activated, Unsupported excluded above
    cost = ability.cost
    if cost.loyalty is not None and cost.loyalty < 0:
        # CR 606.4, 606.6: a loyalty cost -N removes N loyalty counters (payable only with N of them)
        from dataclasses import replace as _replace

        cost = _replace(cost, remove_counters=("loyalty", -cost.loyalty))
    name = view.chars(oid).name

    # bans describing permanents don't reach a card in a hand (CR 109.2); a chosen name does (CR 602.5)
    banned = name_ban(view, o) if from_hand else activation_ban(view, oid, mana=isinstance(ability, ir.ManaAbility))
    if banned:
        raise UnsupportedCase(f"{name}'s activated ability {index} can't be activated: {banned}")
    if cost.put_counters is not None or cost.discard_hand:
        # paid by the mana models when the ability is activated for mana, not as a total cost
        raise UnsupportedCase(f"{name}'s activated ability {index}: paying its cost ({cost.describe()}) "
                              "as a total cost is not modeled")
    blocked = (cost.tap or cost.untap) and not view.can_pay_tap_symbol(oid)
    mana = cost.mana
    if isinstance(ability, ir.ActivatedAbility) and ability.reduction is not None:
        mana = reduced_mana(view, player, ability)
    return TotalCost(
        "activate", mana, source=oid, source_name=name, tap=cost.tap, untap=cost.untap,
        discard_self=cost.discard_self, exile_self=_exile_self(view, player, oid, cost) and cost.exile_self,
        return_self=cost.return_self,
        sacrifice_self=cost.sacrifice_self, sacrifice=cost.sacrifice, life=cost.life,
        remove_counters=cost.remove_counters, tap_creatures=cost.tap_other_creatures, tap_selector=cost.tap_selector,
        tap_symbol_blocked=blocked, subject=f"{name}'s ability {index}", extra=_activation_extra(oid, cost))


def _exile_self(view: View, player: str, oid: str, cost: ir.Cost) -> bool:
    """"Exile this artifact" as a cost (CR 601.2h via 602.2b): the same for every payment, unless a mana
    ability could use the permanent first (its own, or one sacrificing it), which is not modeled."""
    if not cost.exile_self and not cost.return_self:
        return False
    if cost.return_self and (cost.exile_self or cost.sacrifice_self or cost.return_ is not None):
        raise UnsupportedCase(f"{view.chars(oid).name}: a cost that returns the permanent and moves another "
                              "permanent or the same one otherwise is not modeled")
    if view.obj(oid).zone != "battlefield":
        return True   # a card exiled from the graveyard (CR 113.6k): no mana ability of it works there
    if view.chars(oid).mana_abilities or any(
            a.cost.sacrifice is not None and view.matches(a.cost.sacrifice, oid, p, player)
            for p in view.permanents_of(player) for a in view.chars(p.id).mana_abilities):
        raise UnsupportedCase(f"{view.chars(oid).name}: exiling it as a cost while a mana ability could tap or "
                              "sacrifice it during the payment is not modeled")
    return True


def _activation_extra(oid: str, cost: ir.Cost) -> Any:
    """The parts of an activation cost chosen outside the payment model, as a casting cost's
    (:class:`solver.rules.casting_options.Extra`, paid by :mod:`solver.payment.casting`): "Return an
    Elf you control to its owner's hand" (CR 602.1a), "Discard a card" (CR 701.9a), "Exile a creature
    card from your graveyard" (CR 406.2), and the one sacrifice of "another creature or artifact",
    which the model pays with its alternatives (CR 701.21a), and the creatures "Crew N" taps
    (CR 702.122a). None when the cost has none."""
    if cost.return_ is None and not cost.discard and not cost.exile_graveyard and not cost.sacrifice_any \
            and not cost.crew:
        return None
    many = cost.sacrifice_count > 1   # "Sacrifice two Foods": chosen outside the model (no mana in the cost)
    return Extra(oid, model_sacrifice=() if many else cost.sacrifice_any,
                 sacrifice=cost.sacrifice_any if many else (), sacrifice_count=cost.sacrifice_count if many else 0,
                 return_=(cost.return_,) if cost.return_ is not None else (),
                 return_count=1 if cost.return_ is not None else 0,
                 discard=cost.discard, discard_type=cost.discard_type,
                 exile_graveyard=cost.exile_graveyard, exile_graveyard_type=cost.exile_graveyard_type,
                 crew=cost.crew, text=cost.describe())


def spend_white_as_any(view: View, player: str) -> bool:
    """Celestial Dawn (CR 609.4b): ``player`` may spend white mana as though it
    were mana of any color, and other mana only as though it were colorless."""
    return any(s.controller == player for s in view.statics(ir.SpendWhiteAsAny))
