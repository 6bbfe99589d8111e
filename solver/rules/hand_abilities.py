"""Activated abilities that work from the hand, per-turn limits, additional land plays.

Rules layer for what :mod:`solver.reader.hand_abilities` reads:

* an :class:`~solver.core.ir.ActivatedAbility` with ``zone="hand"`` — cycling and
  typecycling (CR 702.29a, 702.29e), channel and other "[cost], Discard this
  card: …" abilities — can be activated only while the card is in its owner's
  hand (CR 113.6k, 602.2), by that player, any time they have priority unless
  it says "Activate only as a sorcery" (CR 602.5d). Discarding the card is part
  of the cost (CR 601.2h via 602.2b): every payment discards the same card, so
  payments differ only in their mana. "Activated abilities of sources with the
  chosen name can't be activated" (Pithing Needle) stops them (CR 602.5); bans
  on permanents ("artifacts", "creatures") don't reach a card in a hand
  (CR 109.2);
* "This ability costs {N} less to activate for each …" reduces the generic
  mana of that ability's cost, never below zero (CR 601.2f via 602.2b, 118.7);
* "Activate only once each turn" (CR 602.5b) on a non-mana ability: counted by
  the object key ``activated_this_turn``;
* "As long as <this> entered this turn, you may activate her loyalty abilities any time you
  could cast an instant" (The Wandering Emperor): with ``entered_this_turn``, not only as a
  sorcery (CR 606.3);
* "You may play an additional land on each of your turns" (CR 305.2, 305.2a):
  a player may play one land, plus one for each such effect of a permanent they
  control, during their own turn.
"""
from __future__ import annotations

from ..core import ir
from .characteristics import View
from ..core.errors import UnsupportedCase
from ..core.mana import ManaCost, Symbol
from ..core.state import GameObject
from .conditions import condition_holds as holds

__all__ = ["OFF_BATTLEFIELD", "hand_ability_indices", "hand_reason", "limit_reason", "restriction_reason", "name_ban", "reduced_mana", "land_limit",
           "loyalty_as_instant"]


def hand_ability_indices(view: View, o: GameObject) -> list[int]:
    """The 1-based activated-ability indices (contract §2, mana abilities counted) of the abilities of
    card ``o`` that work from the zone it is in, the hand or the graveyard (CR 113.6k)."""
    return [i for i, a in enumerate(view.chars(o.id).activated, start=1)
            if isinstance(a, ir.ActivatedAbility) and a.zone == o.zone and o.zone in OFF_BATTLEFIELD]


#: The zones other than the battlefield an activated ability may work from (CR 113.6k): cycling and
#: channel from the hand, "Exile this card from your graveyard: …" from the graveyard.
OFF_BATTLEFIELD = ("hand", "graveyard")


def name_ban(view: View, o: GameObject) -> str | None:
    """A "can't be activated" static naming ``o``'s name (Pithing Needle, Phyrexian Revoker: "sources
    with the chosen name", CR 602.5); bans describing permanents don't reach a card in a hand."""
    for s in view.statics(ir.CantActivate):
        if not getattr(s.ability, "chosen_name", False):
            continue
        src = view.state.find(s.source)
        name = dict(src.chosen).get("name") if src is not None else None
        if isinstance(name, str) and name and name.casefold() == view.chars(o.id).name.casefold():
            return f"{view.chars(s.source).name} ({s.source}): \"{s.ability.text or s.ability.describe()}\" (CR 602.5)"
    return None


def hand_reason(view: View, player: str, o: GameObject, index: int, sorcery_reason: str | None) -> str | None:
    """Why ability ``index`` of ``o`` — an ability that works from the hand, or any ability of a card
    not on the battlefield — can't be activated by ``player`` now (timing only; targets and costs are
    the Oracle's), or None. ``sorcery_reason``: why it is not sorcery time now (None: it is)."""
    acts = view.chars(o.id).activated
    ab = acts[index - 1] if 1 <= index <= len(acts) else None
    if not isinstance(ab, ir.ActivatedAbility) or ab.zone not in OFF_BATTLEFIELD:
        return (f"{o.name} ({o.id}) is not on the battlefield (CR 602.2; abilities of cards in other zones "
                "are not modeled)") if o.zone != "battlefield" else f"{o.name} has no such ability"
    if o.zone != ab.zone:
        return (f"ability {index} of {o.name} works only while the card is in its owner's {ab.zone} "
                f"(CR 113.6k, 702.29a); it is in the {o.zone.replace('_', ' ')}")
    if o.owner != player:
        return f"{o.name} ({o.id}) is in {o.owner}'s {o.zone}: only its owner can activate it there (CR 602.2)"
    banned = name_ban(view, o)
    if banned:
        return banned
    if ab.sorcery and sorcery_reason:
        return sorcery_reason
    return restriction_reason(view, player, o, ab, index)


def limit_reason(o: GameObject, ab: ir.ActivatedAbility, index: int) -> str | None:
    """CR 602.5b: "Activate only once each turn" — the object key ``activated_this_turn``."""
    if ab.limit is not None and o.activated(index) >= ab.limit:
        times = "once" if ab.limit == 1 else f"{ab.limit} times"
        return (f"ability {index} of {o.name} ({o.id}) can be activated only {times} each turn and was "
                f"activated {o.activated(index)} time(s) this turn (CR 602.5b)")
    return None


def condition_holds(view: View, cond: ir.ActivationCondition, o: GameObject, player: str) -> bool:
    """"Activate only if …" (CR 602.5b) on the board as it is: an opponent controls N or more
    permanents of a kind; the player has exactly N cards in hand; else :mod:`solver.rules.conditions`."""
    if isinstance(cond, ir.OpponentControls):
        sel = cond.selector
        return any(sum(1 for p in view.permanents_of(q) if sel is not None
                       and sel.types <= view.chars(p.id).types) >= cond.n
                   for q in view.state.player_ids if q != player)
    if isinstance(cond, ir.HandExactly):
        return sum(1 for h in view.state.objects if h.zone == "hand" and h.owner == player) == cond.n
    if isinstance(cond, ir.CompoundCondition):
        parts = [condition_holds(view, c, o, player) for c in cond.parts]
        return any(parts) if isinstance(cond, ir.AnyCondition) else all(parts)

    return holds(view, cond, o, player)


def restriction_reason(view: View, player: str, o: GameObject, ab: ir.ActivatedAbility, index: int) -> str | None:
    """The per-turn limit and the "Activate only if …" condition of a non-mana ability (CR 602.5b)."""
    why = limit_reason(o, ab, index)
    if why or ab.condition is None:
        return why
    if not condition_holds(view, ab.condition, o, player):
        return f"ability {index} of {o.name} ({o.id}) can be activated only if {_cond_text(ab)} (CR 602.5b)"
    return None


def _cond_text(ab: ir.ActivatedAbility) -> str:
    return ab.describe().rsplit("; activate only if ", 1)[-1]


def reduction_amount(view: View, player: str, ab: ir.ActivatedAbility) -> int:
    """The generic mana "This ability costs {N} less to activate for each …" takes off now:
    N times the permanents ``player`` controls of that description (CR 601.2f via 602.2b)."""
    if ab.reduction is None:
        return 0
    n, f = ab.reduction
    count = 0
    for p in view.permanents:
        c = view.chars(p.id)
        if f.who == "you" and p.controller != player:
            continue
        if (f.types and not f.types <= c.types) or not f.types_all <= c.types:
            continue
        if f.supertypes and not f.supertypes <= c.supertypes:
            continue
        if f.subtypes and not f.subtypes & c.subtypes:
            continue
        count += 1
    return n * count


def reduced_mana(view: View, player: str, ab: ir.ActivatedAbility) -> ManaCost:
    """The ability's mana cost after its own reduction: generic mana only, never below zero
    (CR 118.7); a reduction left over on a cost with {X} is not modeled (unsupported)."""
    mana = ab.cost.mana
    red = reduction_amount(view, player, ab)
    if not red:
        return mana
    taken = min(red, mana.generic)
    if red > taken and mana.x_count:
        raise UnsupportedCase("a cost reduction larger than the generic part of a cost with {X} (CR 118.7) "
                              "is not modeled")
    others = [s for s in mana.symbols if s.kind != "generic"]
    generic = mana.generic - taken
    if generic > 0 or not others:
        others.append(Symbol("generic", (), generic))
    return ManaCost(tuple(sorted(others, key=Symbol.sort_key)))


def loyalty_as_instant(view: View, o: GameObject) -> bool:
    """"As long as <this> entered this turn, you may activate her loyalty abilities any time you could
    cast an instant." (The Wandering Emperor): a permanent with that static that entered this turn
    (object key ``entered_this_turn``) has its loyalty abilities activated as instants rather than
    sorceries (CR 606.3 is the default such an effect changes)."""
    return o.entered_this_turn and any(isinstance(a, ir.LoyaltyAsInstantIfEntered)
                                       for a in view.chars(o.id).abilities)


def land_limit(view: View, player: str) -> int:
    """CR 305.2: the number of lands ``player`` may play this turn — one, plus the additional land
    plays of the "You may play an additional land on each of your turns" statics of permanents they
    control (cumulative, CR 305.2a) and of resolved "You may play an additional land this turn" effects of
    theirs (CR 611.2a; cleanup ends them, 514.2)."""
    effects = [s for s in view.until_eot_effects() if isinstance(s.ability, ir.AdditionalLands)]  # "this turn" (611.2a)
    return 1 + sum(s.ability.amount for s in [*view.statics(ir.AdditionalLands), *effects] if s.controller == player)
