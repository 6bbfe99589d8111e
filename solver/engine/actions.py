"""What a player may do now: the rules behind the ``actions`` query (contract §2.6).

A player with priority may (CR 117.1):

* **pass** priority (CR 117.3d);
* **play a land** from their hand: during a main phase of their own turn, with
  an empty stack, while they have priority, if they have played fewer lands
  than allowed this turn (one; CR 305.2, 505.5b, 116.2a);
* **cast a spell** from their hand (CR 601.2a): an instant, or a card with
  flash, any time they have priority (CR 304.1, 702.8a); anything else only
  during a main phase of their own turn with an empty stack (CR 307.1, 301.1,
  302.1, 303.1, 306.1, 310.1). The spell must have a legal choice of targets
  (CR 601.2c) and its total cost must be payable (CR 601.2f-h);
* **activate an activated ability** of a permanent they control (CR 602.2):
  any time they have priority unless the ability says "activate only as a
  sorcery" (CR 602.5d); a {T} or {Q} ability of a creature needs the creature
  to have been under their control since their most recent turn began, or
  haste (CR 302.6, 602.5a); the cost must be payable and the targets legal.
  Mana abilities are not listed here (CR 605.3a: they are activated while
  paying; ``available_mana`` reports them).

Deciding is cheaper than counting (design principle 3), so each candidate goes
through three stages, stopping at the first that rules it out:

1. rules checks that need no solver (priority, step, zone, timing, {T}/{Q},
   summoning sickness) — :func:`timing_reason`;
2. *decisions*: is there at least one legal target choice, is the cost
   payable at all (one solve each at most);
3. *counts*, only for candidates that survived: the exact number of legal
   target choices and of distinct payments.

Identical cards in hand share their decisions and counts (two Shocks have the
same targets and the same payments), and spells with the same total cost share
their payments (Shock and Lightning Bolt both cost {R}), so a hand of seven
spells costs at most seven decisions and seven counts of each kind.

Deciding payability first tries a *witness* (:func:`payment_witness`): a
matching of the cost's mana symbols to untapped sources that each add one mana
for {T} alone (and to pool mana). A witness found is a payment, so the cost is
payable without any solve; when none is found — or when replacement effects,
triggered mana, Celestial Dawn or non-mana cost parts are involved — the
CP-SAT payment model decides. The ``actions`` query needs the payment counts
of legal candidates anyway, so there the enumeration itself decides (a count
of 0 means not payable) and no separate decision solve is made.

The decisions and counts are asked of the rules layer's targeting
(:mod:`solver.rules.targeting`, :mod:`models.targets`) and payments
(:mod:`solver.rules.costs`, :mod:`solver.payment.problem`, :mod:`solver.payment.answers`,
:mod:`solver.rules.casting_options`) through :class:`Oracle` — the same functions the
``targets`` and ``pay`` queries (contract §2.3, §2.4) format; this module never
re-implements them.

Candidates and their order
--------------------------
:func:`candidates` lists every action *head* the player could conceivably take
(legal or not), in the canonical order of the ``actions`` result: by kind
(``activate`` < ``cast`` < ``pass`` < ``play_land`` < ``suspend``), then object
id, then ability index. ``suspend`` is the special action of exiling a card with
suspend from the hand (CR 116.2f, 702.62a; :mod:`solver.rules.suspend`). This order is also the index space of the Python API's action
masks (:meth:`solver.api.Situation.legal_actions_mask`).
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Hashable, Literal, TypeAlias, overload

from ..core import ir
from ..rules.characteristics import View
from ..core.options import Options
from ..core.moves import KINDS, Candidate
from ..core.state import GameObject, GameState

if TYPE_CHECKING:
    from mtgsolve.models.payment import Paid, PaymentModel
    from mtgsolve.models.payment_count import PaymentCounter
    from mtgsolve.models.targets import TargetProblem

    from ..core.moves import Payment
    from ..payment.paid import CostPayment
    from ..rules.costs import CostRequest, TotalCost
    from ..rules.modes import TargetingSource
from ..rules.casting_options import has_options, mode_zone
from ..rules.casting_options import modes as modes_of
from ..rules.hand_abilities import hand_ability_indices
from ..rules.suspend import suspend_of
from ..rules.hand_abilities import land_limit
from ..rules.replacement import life_choice, may_pay_life
from ..rules.casting_options import mode_reason
from ..rules.faces import whole_card_reason
from ..rules.suspend import suspend_reason
from ..rules.hand_abilities import hand_reason
from ..rules.activation_rules import activation_ban
from ..rules.hand_abilities import loyalty_as_instant
from ..rules.hand_abilities import restriction_reason
from ..rules.casting_rules import cast_restriction, may_cast_as_though_flash
from ..rules.casting_options import overloaded
from ..rules.soundness.check import unread_parts
from ..rules.costs import CostRequest
from ..rules.targeting import activated_source, cast_source
from ..rules.modes import ModeChoice, modal_of, selection_error, selection_specs, with_modes
from mtgsolve.models.payment import GENERIC, symbol_options
from ..rules.targeting import has_legal_targets
from mtgsolve.models.targets import TargetProblem, is_feasible
from ..rules.targeting import target_choice_count
from ..rules.targeting import mode_selection_counts
from mtgsolve.models.targets import enumerate_choices
from ..rules.soundness.check import Scope, blocking, refusal_reason
from ..rules.targeting import targeting_problem
from mtgsolve.models.targets import is_legal_choice
from mtgsolve.models import payment as pm
from ..payment.answers import PaymentLookupError, find_payment
from ..rules.costs import total_cost
from ..payment.problem import build_problem
from ..payment.answers import payment_counter
from ..payment import casting as casting_payments
from ..core.errors import UnsupportedCase
from ..payment.answers import unpayable_reason
from ..payment.answers import counted_payments, decoded_payments
from ..rules.casting_options import zone_blockers
from ..rules.play_permissions import playable_elsewhere
from ..rules.faces import (PROTOTYPE, cast_aftermath, castable_faces, face_candidates, on_adventure_of, prototype_castable,
                           with_face, with_prototype)

MAIN_PHASES = ("main1", "main2")
NOT_PAYABLE = "the total cost cannot be paid (CR 601.2g-h)"
NO_TARGETS = "there is no legal choice of targets (CR 601.2c, 115)"
LAND_LIMIT = 1  # CR 305.2: one land per turn; more with additional land plays (solver/rules/hand_abilities.py)

SORCERY_TIMING_TYPES = ("Artifact", "Creature", "Enchantment", "Planeswalker", "Battle", "Sorcery", "Kindred", "Tribal")


# ---------------------------------------------------------------------------
# Candidates
# ---------------------------------------------------------------------------

PASS = Candidate.make("pass")


def hand_of(state: GameState, player: str) -> list[GameObject]:
    return [o for o in state.objects if o.zone == "hand" and o.owner == player]


def is_land_card(o: GameObject) -> bool:
    return o.card is not None and "Land" in o.card.data.types


def candidates(state: GameState, player: str, view: View | None = None, modes: bool = False,
               faces: bool = False) -> list[Candidate]:
    """Every action head ``player`` could take, legal or not, in canonical order.

    * ``pass``;
    * ``play_land`` for each land card in the player's hand (CR 305.9: a card
      that is a land and another type can only be played as a land);
    * ``cast`` for each other card in the player's hand;
    * ``activate`` for each non-mana activated ability of each permanent the
      player controls (characteristics after continuous effects, so granted
      abilities count and abilities removed by Blood Moon do not).

    With ``modes`` (the ``actions`` query), each other way to cast a card is a
    candidate of its own (:mod:`solver.rules.casting_options`): its alternative costs
    and permissions (from the hand, or from the graveyard: flashback, escape …)
    and its kicker, paid or not. With ``faces`` (the Python API), each face a hand card may be
    cast or played as is a candidate of its own (``face``: :func:`solver.rules.faces.face_candidates`;
    the ``actions`` query lists those through :func:`face_entries`). An adventurer card of the
    player's "on an adventure" in exile may be cast as the creature (CR 715.3d).
    """
    view = view or View.of(state)
    out = [PASS]
    for o in hand_of(state, player):
        if o.card is None:
            continue
        out.append(Candidate.make("play_land" if is_land_card(o) else "cast", o.id))
        if is_land_card(o) and life_choice(o.card.abilities):   # "As this land enters, you may pay N life" (CR 614.12)
            out.append(Candidate.make("play_land", o.id, pay_life=1))
    out.extend(Candidate.make("cast", o.id) for o in state.objects
               if on_adventure_of(o, player) or cast_aftermath(o, player))
    for o in state.objects:   # permissions to play it from exile or a graveyard (CR 611.2, 305.1, 601.2a)
        if o.zone in ("exile", "graveyard") and playable_elsewhere(view, o, player):
            out.append(Candidate.make("play_land" if is_land_card(o) else "cast", o.id))
            if is_land_card(o) and life_choice(o.card.abilities if o.card else ()):
                out.append(Candidate.make("play_land", o.id, pay_life=1))
    if faces:
        out.extend(face_candidates(state, player))
    if modes:
        for o in state.objects:
            permitted = o.zone == "exile" and playable_elsewhere(view, o, player)   # as from a hand (CR 601.2a)
            if (o.owner != player or o.zone not in ("hand", "graveyard")) and not permitted or o.card is None \
                    or is_land_card(o) or not has_options(o):
                continue
            for alt, kicked, buyback, casualty in modes_of(o):
                if (alt or kicked or buyback or casualty) and mode_zone(o, alt) == ("hand" if permitted else o.zone):
                    out.append(Candidate.make("cast", o.id, 0, alt, kicked, buyback=buyback, casualty=casualty))
    for o in state.objects:
        if o.zone != "battlefield" or o.controller != player:
            continue
        for i, a in enumerate(view.chars(o.id).activated, start=1):
            if isinstance(a, ir.ActivatedAbility) and a.zone == "battlefield":
                out.append(Candidate.make("activate", o.id, i))

    for o in hand_of(state, player):   # cycling, channel …: abilities of the card in the hand (CR 113.6k)
        out.extend(Candidate.make("activate", o.id, i) for i in hand_ability_indices(view, o))
    for o in state.objects:            # "Exile this card from your graveyard: …" (CR 113.6k)
        if o.zone == "graveyard" and o.owner == player and o.card is not None:
            out.extend(Candidate.make("activate", o.id, i) for i in hand_ability_indices(view, o))

    out.extend(Candidate.make("suspend", o.id) for o in hand_of(state, player) if suspend_of(o) is not None)
    out.sort()
    return out


# ---------------------------------------------------------------------------
# Rules checks that need no solver
# ---------------------------------------------------------------------------

def priority_reason(state: GameState, player: str) -> str | None:
    """Why ``player`` cannot act now, or None if they hold priority (CR 117)."""
    t = state.turn
    if t.step == "untap":
        return "no player receives priority during the untap step (CR 502.4)"
    if t.step == "cleanup" and not any(o.zone == "stack" for o in state.objects):
        return "players normally receive no priority during the cleanup step (CR 514.3)"
    if state.priority != player:
        return f"{player} does not have priority ({state.priority} does; CR 117.1)"
    return None


def _stack_empty(state: GameState) -> bool:
    return not any(o.zone == "stack" for o in state.objects)


def _sorcery_timing_reason(state: GameState, player: str, what: str, rule: str) -> str | None:
    """CR 307.1-style timing: own turn, main phase, empty stack."""
    t = state.turn
    if t.active != player:
        return f"{what} only during your own turn, and it is {t.active}'s turn ({rule})"
    if t.step not in MAIN_PHASES:
        return f"{what} only during a main phase, and this is the {t.step.replace('_', ' ')} step ({rule})"
    if not _stack_empty(state):
        return f"{what} only while the stack is empty ({rule})"
    return None


def pay_life_reason(view: View, player: str, o: GameObject) -> str | None:
    """Why ``player`` can't play the land ``o`` paying the life of "As this land enters, you may pay N
    life. If you don't, it enters tapped." (CR 614.12), or None: it has no such ability, or their life
    total is less than N (CR 119.4)."""
    n = life_choice(o.card.abilities if o.card is not None else ())
    if not n:
        return f"{o.name} has no life to pay as it enters (CR 614.12)"
    if not may_pay_life(view, player, n):
        return f"{player} has {view.state.player(player).life} life and can't pay {n} life (CR 119.4)"
    return None


def has_flash(o: GameObject, view: View) -> bool:
    """CR 702.8a: flash lets a spell be cast any time its controller could cast an instant."""
    if o.card is None:
        return False
    if any(isinstance(a, ir.Keyword) and a.name == "flash" for a in view.chars(o.id).abilities):
        return True
    return any(k.lower() == "flash" for k in o.card.data.keywords)


def ability_of(view: View, cand: Candidate) -> ir.ActivatedAbility | None:
    acts = view.chars(cand.object).activated
    a = acts[cand.index - 1] if 1 <= cand.index <= len(acts) else None
    return a if isinstance(a, ir.ActivatedAbility) else None


def timing_reason(state: GameState, view: View, player: str, cand: Candidate) -> str | None:
    """Why ``cand`` is illegal before any target or cost is considered, or None.

    Every reason is one sentence citing the rule (contract: "a reason when
    something is illegal")."""
    why = priority_reason(state, player)
    if why:
        return why
    if cand.kind == "pass":
        return None
    o = state.find(cand.object)
    if o is None:
        return f"there is no object '{cand.object}'"
    if cand.kind == "play_land":
        if (o.zone != "hand" or o.owner != player) and not playable_elsewhere(view, o, player):
            return f"{o.name} ({o.id}) is not in {player}'s hand, and no effect lets them play it from there (CR 305.1)"
        if not is_land_card(o):
            return f"{o.name} is not a land card (CR 305.1)"
        why = _sorcery_timing_reason(state, player, "a land can be played", "CR 305.2, 505.5b")
        if why:
            return why

        limit = land_limit(view, player)   # one, plus additional land plays (CR 305.2, 305.2a)
        if state.turn.lands_played >= limit:
            return (f"{player} has already played {state.turn.lands_played} land(s) this turn and may play "
                    f"{limit} (CR 305.2)")
        return pay_life_reason(view, player, o) if cand.pay_life else None
    if cand.kind == "cast":
        if cand.alternative or cand.kicked or cand.buyback or cand.casualty:
            why = mode_reason(view, player, o, cand.alternative, cand.kicked, cand.buyback, cand.casualty)
            if why:
                return why
        elif (o.zone != "hand" or o.owner != player) and not on_adventure_of(o, player) \
                and not cast_aftermath(o, player) and not playable_elsewhere(view, o, player):
            return f"{o.name} ({o.id}) is not in {player}'s hand (CR 601.2a; casting from other zones is not modeled)"
        if o.card is None:
            return f"{o.id} is not a card"
        if is_land_card(o):
            return f"{o.name} is a land: lands are played, not cast (CR 305.9)"

        why = whole_card_reason(o)   # a split card is cast as one half (CR 709.3): the entries with face
        if why:
            return why
        return cast_timing_reason(state, view, player, o)
    if cand.kind == "suspend":
        cast_why = cast_timing_reason(state, view, player, o) if o.card is not None else None
        return suspend_reason(player, o, cast_why)
    if cand.kind == "activate":
        ab = ability_of(view, cand)
        if o.zone != "battlefield" or (ab is not None and ab.zone != "battlefield"):
            sorcery_why = _sorcery_timing_reason(state, player, "this ability can be activated", "CR 602.5d")
            return hand_reason(view, player, o, cand.index, sorcery_why)
        if o.controller != player:
            return f"{player} does not control {o.name} ({o.id}) (CR 602.2)"
        ab = ability_of(view, cand)
        if ab is None:
            acts = view.chars(o.id).activated
            if 1 <= cand.index <= len(acts):
                a = acts[cand.index - 1]
                if isinstance(a, ir.Unsupported):
                    return (f"ability {cand.index} of {o.name} is not modeled by this project "
                            f"(unsupported: {a.text or a.what})")
                return f"ability {cand.index} of {o.name} is a mana ability, activated while paying costs (CR 605.3a)"
            return f"{o.name} has no activated ability {cand.index} (it has {len(acts)})"
        banned = activation_ban(view, o.id, mana=False)  # "Activated abilities of … can't be activated"
        if banned:
            return banned

        if ab.sorcery and not (ab.cost.loyalty is not None and loyalty_as_instant(view, o)):
            rule = "CR 606.3" if ab.cost.loyalty is not None else "CR 602.5d"
            why = _sorcery_timing_reason(state, player, "this ability can be activated", rule)
            if why:
                return why
        if ab.cost.loyalty is not None:
            why = loyalty_reason(view, o, cand.index)
            if why:
                return why

        why = restriction_reason(view, player, o, ab, cand.index)   # "Activate only once each turn / if …" (CR 602.5b)
        if why:
            return why
        cost = ab.cost
        if cost.tap and o.tapped:
            return f"{o.name} is tapped: {{T}} requires it to be untapped (CR 107.5)"
        if cost.untap and not o.tapped:
            return f"{o.name} is untapped: {{Q}} requires it to be tapped (CR 107.6)"
        if (cost.tap or cost.untap) and not view.can_pay_tap_symbol(o.id):
            return (f"{o.name} has not been under {player}'s control since their most recent turn began and has no "
                    f"haste, so its {{T}}/{{Q}} abilities can't be activated (CR 302.6, 602.5a)")
        if cost.remove_counters:
            kind, n = cost.remove_counters
            if o.counter(kind) < n:
                return f"{o.name} has {o.counter(kind)} {kind} counter(s); the cost removes {n} (CR 118.3)"
        return None
    return f"unknown action kind '{cand.kind}'"


def cast_timing_reason(state: GameState, view: View, player: str, o: GameObject) -> str | None:
    """When the card ``o`` may be cast (CR 601.2a, 601.3): an instant, a card with flash or a
    permission to cast it as though it had flash any time its caster has priority (CR 304.1, 702.8a),
    anything else only as a sorcery (CR 307.1); rules of the situation that forbid casting win
    (CR 601.3, 101.2). None when it may be cast now (timing only)."""
    assert o.card is not None
    types = set(o.card.data.types)

    sorcery_why = _sorcery_timing_reason(state, player, f"{o.name} can be cast", "CR 307.1, 302.1")
    why = cast_restriction(view, player, sorcery_why is None)  # CR 601.3, 101.2: "can't" beats "may"
    if why:
        return why
    if "Instant" in types or has_flash(o, view) or may_cast_as_though_flash(view, player, o.id):
        return None  # CR 304.1, 702.8a
    return sorcery_why


def loyalty_reason(view: View, o: GameObject, index: int) -> str | None:
    """CR 606.3: a loyalty ability of a permanent only if no loyalty ability of
    that permanent was activated this turn (object key ``activated_this_turn``);
    CR 606.6: a negative loyalty cost needs that many loyalty counters."""
    acts = view.chars(o.id).activated
    loyalty = {i for i, a in enumerate(acts, start=1)
               if isinstance(a, ir.ActivatedAbility) and a.cost.loyalty is not None}
    if any(o.activated(i) for i in loyalty):
        return f"a loyalty ability of {o.name} ({o.id}) has already been activated this turn (CR 606.3)"
    ab = acts[index - 1]
    n = ab.cost.loyalty if isinstance(ab, ir.ActivatedAbility) else None
    if n is not None and n < 0 and o.counter("loyalty") < -n:
        return (f"{o.name} has {o.counter('loyalty')} loyalty counter(s); the cost removes {-n} "
                "(CR 606.6)")
    return None


def mode_choice(state: GameState, view: View, cand: Candidate) -> ModeChoice | None:
    """The modes of the spell cast or the ability activated (CR 700.2; solver/rules/modes.py), or None."""
    if cand.kind == "cast":
        card = state.obj(cand.object).card
        return modal_of(card.spell) if card is not None and card.spell is not None else None
    if cand.kind == "activate":
        ab = ability_of(view, cand)
        return modal_of(ab) if ab is not None else None
    return None


def modal_subject(state: GameState, view: View, cand: Candidate) -> bool:
    """Is the spell or ability modal with its modes not chosen yet (CR 700.2; solver/rules/modes.py)? Its
    targets are those of the modes chosen (CR 601.2b-c): counted by :meth:`Oracle.target_count`, listed
    per selection (a candidate with ``modes``: :meth:`Oracle.mode_selections`)."""
    if cand.modes:
        return False
    return mode_choice(state, view, cand) is not None


def modes_reason(state: GameState, view: View, cand: Candidate) -> str | None:
    """Why the modes the candidate names can't be chosen (CR 700.2, 700.2d), or None (none named, or
    a selection the text allows; whether its modes have legal targets is the targets' question, 700.2a)."""
    if not cand.modes:
        return None
    mc = mode_choice(state, view, cand)
    if mc is None:
        return f"{state.obj(cand.object).name} has no modes (CR 700.2); drop 'modes'"
    return selection_error(mc, list(cand.modes))


def target_specs(state: GameState, view: View, cand: Candidate) -> tuple[ir.TargetSpec, ...]:
    """The target slots of the spell or ability (CR 115.1): an instant or
    sorcery's spell targets, an Aura spell's Enchant target (CR 303.4a), an
    activated ability's targets. A modal spell or ability (CR 700.2): every
    mode's instances, in printed order (non-empty as soon as a mode targets,
    so callers go through the Oracle, which refuses to list modal choices); with the modes chosen
    (``cand.modes``, CR 601.2b), the chosen modes' instances (:func:`solver.rules.modes.selection_specs`)."""
    if cand.modes:
        mc = mode_choice(state, view, cand)
        return selection_specs(mc, cand.modes) if mc is not None and modes_reason(state, view, cand) is None else ()
    if modal_subject(state, view, cand):
        o = state.obj(cand.object)
        src = o.card.spell if cand.kind == "cast" else ability_of(view, cand)  # type: ignore[union-attr]
        return tuple(t for m in src.modes for t in m.targets)  # type: ignore[union-attr]
    if cand.kind == "cast":
        o = state.obj(cand.object)
        card = o.card
        if card is None:
            return ()
        if cand.alternative:
            if overloaded(o, cand.alternative):
                return ()   # cast for its overload cost: "target" reads "each" (CR 702.96b)
        if card.spell is not None and card.spell.targets:
            return card.spell.targets
        if "Aura" in card.data.subtypes:
            for a in card.abilities:
                if isinstance(a, ir.Enchant):
                    return (ir.TargetSpec(a.filter),)
        return ()
    if cand.kind == "activate":
        ab = ability_of(view, cand)
        return ab.targets if ab is not None else ()
    return ()


def unsupported_parts(state: GameState, cand: Candidate) -> list[str]:
    """The printed text the project does not read on the card being cast (its
    effect, triggers …: parts that cannot change whether and how it is cast,
    else the soundness check would have refused the answer). Empty for other
    actions."""
    if cand.kind != "cast":
        return []
    return [p.text for p in unread_parts(state) if p.object == cand.object]


def has_x(state: GameState, view: View, cand: Candidate) -> bool:
    if cand.kind == "cast":
        card = state.obj(cand.object).card
        return card is not None and card.data.mana_cost.x_count > 0
    if cand.kind == "activate":
        ab = ability_of(view, cand)
        return ab is not None and ab.cost.mana.x_count > 0
    return False


def cost_request(cand: Candidate, x: int | None = None, has_x_cost: bool = False) -> CostRequest:
    """The pay request of what ``cand`` casts, activates or suspends, with the casting mode
    (``alternative``, ``kicked``: :mod:`solver.rules.casting_options`) and X: ``x`` when given,
    every value when the cost has {X} (``has_x_cost``), else 0 (CR 107.3a, 601.2b)."""
    if cand.kind not in ("cast", "activate", "suspend"):
        raise ValueError(f"{cand.kind} has no cost")

    announced = x if x is not None else None if has_x_cost else 0
    assert cand.object is not None   # cast, activate and suspend name an object
    return CostRequest(cand.kind, cand.object, cand.index if cand.kind == "activate" else 1, announced,
                       alternative=cand.alternative, kicked=cand.kicked, buyback=cand.buyback, casualty=cand.casualty)


def targeting_source(view: View, cand: Candidate) -> TargetingSource:
    """The targeting source (:mod:`solver.rules.targeting`) of the spell cast or the ability
    activated (contract §2.4)."""

    assert cand.object is not None   # cast and activate name an object
    if cand.kind == "cast":
        src = cast_source(view, cand.object, cand.alternative)
    elif cand.kind == "activate":
        src = activated_source(view, cand.object, cand.index)
    else:
        raise ValueError(f"{cand.kind} has no targets")
    # the modes chosen (CR 601.2b): the slots of those modes only (601.2c)
    return with_modes(src, cand.modes) if cand.modes and src.modal is not None else src


# ---------------------------------------------------------------------------
# A payment witness (a sufficient check that needs no solver)
# ---------------------------------------------------------------------------

_SINGLE_KINDS = ("fixed", "choice", "any_color", "any_type")
MAX_ANNOUNCEMENTS = 64


def _simple_source_types(view: View, oid: str) -> frozenset[str] | None:
    """The mana types one {T}-only mana ability of ``oid`` can add as exactly one
    mana (CR 106.1, 605.1a), or None when it has no such ability ready now."""
    o = view.obj(oid)
    if o.tapped:
        return None
    if activation_ban(view, oid, mana=True):
        return None   # "Activated abilities of artifacts can't be activated" (CR 602.5)
    types: set[str] = set()
    for a in view.chars(oid).mana_abilities:
        c = a.cost
        if not c.tap or c.mana or c.untap or c.life or c.sacrifice_self or c.sacrifice is not None \
                or c.remove_counters or c.tap_other_creatures:
            continue
        if a.condition is not None or a.limit is not None:
            continue  # activation conditions, timing (never during a payment) and limits: the pay model
        if a.spend is not None:
            continue  # restricted mana (CR 106.6) may not pay every cost: left to the pay model
        p = a.produce
        if isinstance(p, (ir.FixedMana, ir.ManaChoice)):
            if all(m.total == 1 for m in p.options):
                types.update(t for m in p.options for t in m.types())
        elif isinstance(p, ir.AnyColor) and p.amount == 1:
            types.update("WUBRG")
        elif isinstance(p, ir.AnyType) and p.amount == 1:
            types.update("WUBRGC")
    if not types or not view.can_pay_tap_symbol(oid):
        return None
    return frozenset(types)


def _simple_sources(view: View, player: str) -> list[tuple[str, frozenset[str], bool]]:
    """``(id, types, snow)`` of the player's one-mana {T} sources, once per view."""
    def sources() -> list[tuple[str, frozenset[str], bool]]:
        out = []
        for o in view.permanents_of(player):
            types = _simple_source_types(view, o.id)
            if types is not None:
                out.append((o.id, types, "Snow" in view.chars(o.id).supertypes))
        return out

    return view.memo.get(("simple_sources", player), sources)


def payment_witness(view: View, player: str, tc: Any) -> bool:
    """True when a payment of the total cost ``tc`` (a
    :class:`solver.rules.costs.TotalCost`) is found by matching its mana symbols to
    untapped sources that each add one mana for {T} alone, and to the mana in
    the pool (CR 601.2g-h). A True answer is a proof that the cost is payable;
    False proves nothing (the pay model then decides).

    Used only where such a matching is a real payment: no replacement effects
    on mana, no triggered mana abilities, no mana-spending rules (Celestial
    Dawn), and a cost with no non-mana part other than the source's own {T}.
    Phyrexian symbols are matched only with mana; X is 0 unless fixed."""

    if tc.untap or tc.life or tc.sacrifice_self or tc.sacrifice is not None or tc.remove_counters \
            or tc.tap_creatures or tc.tap_symbol_blocked:
        return False
    if tc.what == "cast" and not tc.mana:
        return False  # CR 118.6
    if view.mana_replacements or view.triggered_mana or view.statics(ir.SpendWhiteAsAny) \
            or view.state.restricted_mana(player):
        return False
    sources = [(types, snow) for oid, types, snow in _simple_sources(view, player) if not (tc.tap and oid == tc.source)]
    for t, n in zip("WUBRGC", view.state.pool(player).counts):
        sources.extend([(frozenset(t), False)] * n)
    x = tc.x or 0
    generic = 0
    choices: list[list[tuple[str, int]]] = []
    for sym in tc.mana.symbols:
        if sym.kind == "X":
            generic += x
            continue
        opts = [o for o in symbol_options(sym, False) if o[0] != "life"]
        if not opts:
            return False
        if len(opts) == 1 and opts[0][0] == GENERIC:
            generic += opts[0][1]
        else:
            choices.append(opts)
    n_ann = 1
    for c in choices:
        n_ann *= len(c)
    if n_ann > MAX_ANNOUNCEMENTS:
        return False
    import itertools

    for pick in itertools.product(*choices):
        units: list[str] = []
        g = generic
        for req, n in pick:
            if req == GENERIC:
                g += n
            else:
                units.extend([req] * n)
        if len(units) + g > len(sources):
            continue
        if _match(units, sources) and len(sources) - len(units) >= g:
            return True
    return False


def _match(units: list[str], sources: list[tuple[frozenset[str], bool]]) -> bool:
    """Can every unit (a mana type, or ``S`` for mana from a snow source) get its
    own source? Kuhn's augmenting paths (CR 107.4h for ``S``)."""
    owner: dict[int, int] = {}

    def ok(u: int, s: int) -> bool:
        req = units[u]
        types, snow = sources[s]
        return snow if req == "S" else req in types

    def augment(u: int, seen: set[int]) -> bool:
        for s in range(len(sources)):
            if s in seen or not ok(u, s):
                continue
            seen.add(s)
            if s not in owner or augment(owner[s], seen):
                owner[s] = u
                return True
        return False

    return all(augment(u, set()) for u in range(len(units)))


# ---------------------------------------------------------------------------
# Decisions and counts, asked of the rules layer's targeting and payments
# ---------------------------------------------------------------------------

class Undecided(Exception):
    """A sub-query could not answer (timeout, not implemented, error)."""

    def __init__(self, status: str, message: str):
        super().__init__(message)
        self.status = status
        self.message = message


#: What identical cards share (:meth:`Oracle._share_key`, :meth:`Oracle._cost_key`): the question's
#: name, then the candidate's kind, object (or its first identical card) and index — or a total cost
ShareKey: TypeAlias = tuple[Hashable, ...]
#: One choice of targets: per target slot, the chosen ids (contract §2.4)
TargetChoice: TypeAlias = tuple[tuple[str, ...], ...]


@dataclass
class _Shared:
    """The :class:`Oracle`'s answers that identical cards share, one map per question (keyed by
    :data:`ShareKey`; the total cost by candidate and X)."""

    targets_legal: dict[ShareKey, tuple[bool, str | None]] = field(default_factory=dict)
    target_count: dict[ShareKey, int] = field(default_factory=dict)
    mode_selections: dict[ShareKey, list[tuple[tuple[int, ...], int]]] = field(default_factory=dict)
    target_choices: dict[ShareKey, list[TargetChoice]] = field(default_factory=dict)
    target_problem: dict[ShareKey, TargetProblem] = field(default_factory=dict)
    payments: dict[ShareKey, list[CostPayment]] = field(default_factory=dict)
    payment_count: dict[ShareKey, int] = field(default_factory=dict)
    payable: dict[ShareKey, bool] = field(default_factory=dict)
    spend_matters: dict[ShareKey, bool] = field(default_factory=dict)
    total_cost: dict[tuple[Candidate, int | None], TotalCost] = field(default_factory=dict)


@dataclass
class _Entry:
    """What is known about one candidate."""

    reason: str | None = None          # illegal, with why
    decided: bool = False              # legality fully decided
    targets: int | None = None
    payments: int | None = None


class Oracle:
    """Decides and counts the candidates of one player in one state, with caches.

    ``deadline`` (a :func:`time.monotonic` value) bounds the whole work; each
    sub-query is given what remains. Results that identical cards share are
    computed once (``_share_key``).
    """

    def __init__(self, state: GameState, player: str, options: Options | None = None, view: View | None = None,
                 deadline: float | None = None):
        self.state = state
        self.player = player
        self.options = options or Options()
        self.view = view or View.of(state)
        self.deadline = deadline
        if deadline is None and self.options.timeout is not None:
            self.deadline = time.monotonic() + self.options.timeout
        self._entries: dict[Candidate, _Entry] = {}
        self._shared = _Shared()
        self.solves = 0  # sub-queries actually asked (for benchmarks)
        self.witnessed = 0  # payability decided by a witness, without a solve

    # -- plumbing ----------------------------------------------------------
    def _remaining(self) -> float | None:
        if self.deadline is None:
            return None
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise Undecided("timeout", "time limit reached")
        return left

    def _share_key(self, cand: Candidate, what: str) -> ShareKey:
        """Identical cards in hand (same card, owner) share targets and payments."""
        if cand.kind == "cast":
            o = self.state.obj(cand.object)
            same = [p for p in self.state.objects if p.zone == o.zone and p.owner == o.owner and p.card == o.card]
            return (what, "cast", same[0].id if same else o.id, cand.alternative, cand.kicked, cand.buyback,
                    cand.casualty, cand.modes)
        if cand.kind == "suspend":   # identical cards in a hand: the same suspend cost (CR 702.62a)
            o = self.state.obj(cand.object)
            same = [p for p in self.state.objects if p.zone == "hand" and p.owner == o.owner and p.card == o.card]
            return (what, "suspend", same[0].id)
        if cand.kind == "activate":
            o = self.state.obj(cand.object)
            if o.zone == "hand":   # identical cards in a hand: the same ability (cycling, channel)
                same = [p for p in self.state.objects if p.zone == "hand" and p.owner == o.owner and p.card == o.card]
                return (what, "activate", same[0].id, cand.index, cand.modes)
        return (what, cand.kind, cand.object, cand.index, cand.modes)

    def entry(self, cand: Candidate) -> _Entry:
        e = self._entries.get(cand)
        if e is None:
            why = timing_reason(self.state, self.view, self.player, cand)
            e = _Entry(reason=why if why is not None else modes_reason(self.state, self.view, cand))
            if e.reason is not None or cand.kind in ("pass", "play_land"):
                e.decided = True
            self._entries[cand] = e
        return e

    # -- targets -----------------------------------------------------------
    def _no_modal_listing(self, cand: Candidate) -> None:
        """Concrete (modes, targets) choices are not listed through the Oracle (CR 700.2)."""
        if modal_subject(self.state, self.view, cand):
            raise Undecided("error", "unsupported: choosing the modes of a modal spell or ability (CR 700.2) "
                                     "is counted by the actions query and listed by the targets query (modes), "
                                     "not enumerated as actions")

    def targets_legal(self, cand: Candidate) -> tuple[bool, str | None]:
        """CR 601.2c: is there at least one legal choice of targets?"""
        if not target_specs(self.state, self.view, cand) and not modal_subject(self.state, self.view, cand):
            return True, None
        key = self._share_key(cand, "targets_legal")
        if key not in self._shared.targets_legal:
            self._shared.targets_legal[key] = self._decide_targets(cand)
        return self._shared.targets_legal[key]

    def _decide_targets(self, cand: Candidate) -> tuple[bool, str | None]:
        self._remaining()
        self.solves += 1
        if modal_subject(self.state, self.view, cand):  # CR 700.2a: some legal selection of modes

            ok = has_legal_targets(self.view, targeting_source(self.view, cand))
        else:
            # the slots of the (cached) target problem: built once for deciding and checking choices

            ok = is_feasible(TargetProblem(self._target_problem(cand).slots), self._remaining())
        return ok, None if ok else NO_TARGETS

    def target_count(self, cand: Candidate) -> int:
        """The exact number of legal target choices (contract §2.4), counted without listing them
        (a modal spell or ability: of (modes, targets) choices, CR 700.2, solver/rules/modes.py)."""
        if not target_specs(self.state, self.view, cand) and not modal_subject(self.state, self.view, cand):
            return 1
        key = self._share_key(cand, "target_count")
        if key not in self._shared.target_count:
            self._remaining()
            self.solves += 1
            self._shared.target_count[key] = int(target_choice_count(self.view, targeting_source(self.view, cand),
                                                                     chooser=self.player))
        return self._shared.target_count[key]

    def mode_selections(self, cand: Candidate) -> list[tuple[tuple[int, ...], int]]:
        """Every selection of modes of a modal head (modes not chosen) that has a legal choice of targets,
        with its number of target choices, sorted (CR 700.2a-b, 601.2b-c; counted without listing)."""
        key = self._share_key(cand, "mode_selections")
        if key not in self._shared.mode_selections:
            self._remaining()
            self.solves += 1
            counts = mode_selection_counts(self.view, targeting_source(self.view, cand), chooser=self.player)
            self._shared.mode_selections[key] = [(sel, int(n)) for sel, n in counts if n > 0]
        return self._shared.mode_selections[key]

    def target_choices(self, cand: Candidate) -> list[tuple[tuple[str, ...], ...]]:
        """Every legal choice of targets, sorted (contract §2.4)."""
        self._no_modal_listing(cand)
        if not target_specs(self.state, self.view, cand):
            return [()]
        key = self._share_key(cand, "target_choices")
        if key not in self._shared.target_choices:
            timeout = self._remaining()
            self.solves += 1
            # the targets question's own soundness (contract §2.0): unread text that could change
            # the choices of targets refuses the listing rather than answering a wrong one
            blocked = blocking(self.state, Scope("targets", self.player, cand.object), self.view)
            if blocked:
                raise Undecided("error", "unsupported: " + refusal_reason("targets", blocked))
            ans = enumerate_choices(self._target_problem(cand), time_limit=timeout)
            if ans.timed_out:
                raise Undecided("timeout", "targets query: timeout")
            self._shared.target_choices[key] = [tuple(tuple(slot) for slot in ch) for ch in ans.choices]
        return self._shared.target_choices[key]

    def _target_problem(self, cand: Candidate) -> TargetProblem:
        self._no_modal_listing(cand)
        key = self._share_key(cand, "target_problem")
        if key not in self._shared.target_problem:
            src = targeting_source(self.view, cand)
            self._shared.target_problem[key] = targeting_problem(self.view, src, chooser=self.player)
        return self._shared.target_problem[key]

    def target_choice_legal(self, cand: Candidate, targets: tuple[tuple[str, ...], ...]) -> bool:
        """Is ``targets`` one of the legal choices (contract §2.4)? One solve at most
        (:func:`models.targets.is_legal_choice`), never a listing (issue 16)."""
        self._no_modal_listing(cand)
        if not target_specs(self.state, self.view, cand):
            return targets == ()
        listed = self._shared.target_choices.get(self._share_key(cand, "target_choices"))
        if listed is not None:
            return targets in set(listed)

        self.solves += 1
        try:
            return is_legal_choice(self._target_problem(cand), tuple(tuple(sorted(t)) for t in targets),
                                   self._remaining())
        except TimeoutError:
            raise Undecided("timeout", "time limit reached deciding a choice of targets") from None

    def target_examples(self, cand: Candidate, n: int = 3) -> tuple[list[TargetChoice], int]:
        """The first ``n`` legal choices of targets (sorted) and how many there are, without
        listing them all (for reasons)."""
        self._no_modal_listing(cand)
        listed = self._shared.target_choices.get(self._share_key(cand, "target_choices"))
        if listed is not None:
            return listed[:n], len(listed)

        ans = enumerate_choices(self._target_problem(cand), max_results=n, time_limit=self._remaining())
        return list(ans.choices), ans.count

    def find_payment(self, cand: Candidate, x: int | None, payment: Payment, x_paid: int) -> "Paid | None | bool":
        """A distinct payment agreeing with ``payment`` (X = ``x_paid``) on its key parts
        (:func:`solver.payment.answers.find_payment`: one solve or a walk of the counting DP),
        ``None`` when no payment does, ``False`` when the check can't tell (list instead)."""

        listed = self._shared.payments.get(("payments",) + self._cost_key(cand, x))
        if listed is not None or self._extra(cand, x) is not None:
            return False
        self._remaining()
        self.solves += 1
        try:
            return find_payment(self.view, self.player, self._total_cost(cand, x), payment, x_paid)
        except PaymentLookupError:
            return False
        except pm.Unsupported as e:
            raise Undecided("error", f"unsupported: {e}") from None

    def payment_count_known(self, cand: Candidate, x: int | None = None) -> int | None:
        """The number of distinct payments when it is known or cheap (counted by the DP), else None."""
        key = ("payments",) + self._cost_key(cand, x)
        if key in self._shared.payments:
            return len(self._shared.payments[key])
        ckey = ("payment_count",) + self._cost_key(cand, x)
        if ckey not in self._shared.payment_count:
            n = self._counted(cand, x)
            if n is None:
                return None
            self._shared.payment_count[ckey] = n
        return self._shared.payment_count[ckey]

    # -- payments ----------------------------------------------------------
    def cost_request(self, cand: Candidate, x: int | None = None) -> CostRequest:
        """The pay request of the candidate's total cost (X: every value unless ``x``)."""
        return cost_request(cand, x, x is None and has_x(self.state, self.view, cand))

    def _cost_key(self, cand: Candidate, x: int | None) -> ShareKey:
        """Spells with the same total cost have the same payments: share them."""
        tc = self._total_cost(cand, x)
        if tc is None:
            return self._share_key(cand, f"cost:{x}")
        from dataclasses import replace

        # the spell matters only to spending restrictions (CR 106.6) on the player's mana
        spell = tc.spell if self._spend_matters() else None
        return ("cost", replace(tc, subject="", source_name="", spell=spell))

    def _spend_matters(self) -> bool:
        """Does any mana ability of the player's permanents carry a spending restriction (CR 106.6)?"""
        key = ("spend_matters",)
        if key not in self._shared.spend_matters:
            self._shared.spend_matters[key] = any(a.spend is not None for o in self.view.permanents_of(self.player)
                                                  for a in self.view.chars(o.id).mana_abilities)
        return self._shared.spend_matters[key]

    def _total_cost(self, cand: Candidate, x: int | None) -> TotalCost:
        key = (cand, x)
        if key not in self._shared.total_cost:
            self._shared.total_cost[key] = total_cost(self.view, self.player, self.cost_request(cand, x))
        return self._shared.total_cost[key]

    def _payment_model(self, cand: Candidate, x: int | None) -> PaymentModel | None:
        """A fresh CP-SAT payment model (models/payment.py) for the candidate's total cost, or None
        when the cost can't be paid by definition (CR 118.6: no mana cost)."""

        tc = self._total_cost(cand, x)
        if tc.what == "cast" and not tc.mana:
            return None
        try:
            return pm.PaymentModel(build_problem(self.view, self.player, tc))
        except pm.Unsupported as e:
            raise Undecided("error", f"unsupported: {e}") from None

    def _counter_of(self, cand: Candidate, x: int | None) -> PaymentCounter | None:
        """The counting DP of the candidate's total cost when it applies (it also lists), else None."""

        tc = self._total_cost(cand, x)
        if tc.extra is not None or (tc.what == "cast" and not tc.mana):
            return None
        try:
            return payment_counter(build_problem(self.view, self.player, tc))
        except pm.Unsupported as e:
            raise Undecided("error", f"unsupported: {e}") from None

    def _extra(self, cand: Candidate, x: int | None) -> TotalCost | None:
        """The total cost when it has a casting mode's costs (:mod:`solver.rules.casting_options`), or an
        activation cost returning a permanent (paid the same way), else None."""
        if cand.kind not in ("cast", "activate"):
            return None
        tc = self._total_cost(cand, x)
        return tc if tc is not None and tc.extra is not None else None

    @overload
    def _by_options(self, fn: Literal["count"], tc: TotalCost, *args: Any) -> int: ...
    @overload
    def _by_options(self, fn: Literal["payable"], tc: TotalCost, *args: Any) -> bool: ...
    @overload
    def _by_options(self, fn: Literal["payments"], tc: TotalCost, *args: Any) -> tuple[int, list[CostPayment]]: ...

    def _by_options(self, fn: str, tc: TotalCost, *args: Any) -> Any:
        """A call into :mod:`solver.payment.casting` (timeouts and engine limits as :class:`Undecided`)."""

        self._remaining()
        self.solves += 1
        try:
            return getattr(casting_payments, fn)(self.view, self.player, tc, *args)
        except TimeoutError:
            raise Undecided("timeout", "time limit reached counting payments") from None
        except UnsupportedCase as e:
            raise Undecided("error", f"unsupported: {e}") from None

    def payable(self, cand: Candidate, x: int | None = None) -> tuple[bool, str | None]:
        """CR 601.2f-h / 602.2b: can the total cost be paid at all (X free unless ``x``)? One solve."""
        key = ("payable",) + self._cost_key(cand, x)
        if key not in self._shared.payable:
            count_key = ("payments",) + self._cost_key(cand, x)
            tc = self._extra(cand, x)
            ok: bool | None
            if count_key in self._shared.payments:
                ok = bool(self._shared.payments[count_key])
            elif tc is not None:
                ok = bool(self._by_options("payable", tc, self.deadline))
            elif payment_witness(self.view, self.player, self._total_cost(cand, x)):
                ok = True
                self.witnessed += 1
            else:
                self.solves += 1
                self._remaining()
                model = self._payment_model(cand, x)
                ok = False if model is None else model.payable(self._remaining())
                if ok is None:
                    raise Undecided("timeout", "time limit reached deciding a payment")
            self._shared.payable[key] = ok
        ok = self._shared.payable[key]
        return ok, None if ok else NOT_PAYABLE

    def payment_reason(self, cand: Candidate, x: int | None = None) -> str:
        """Why the cost can't be paid, in one sentence (the pay query's ``reason``:
        :func:`solver.payment.answers.unpayable_reason`)."""

        self._remaining()
        self.solves += 1
        try:
            tc = self._total_cost(cand, x)
        except UnsupportedCase:   # an activated ability the project does not model: no reason to give
            why = None
        else:
            why = unpayable_reason(self.view, self.player, tc, self.deadline)
        return f"{NOT_PAYABLE[:-len(' (CR 601.2g-h)')]}: {why} (CR 601.2g-h)" if why else NOT_PAYABLE

    def payment_count(self, cand: Candidate, x: int | None = None) -> int:
        """The exact number of distinct payments (contract §2.3): counted by the DP of
        :mod:`models.payment_count` where it applies (no listing), else by listing them."""
        key = ("payments",) + self._cost_key(cand, x)
        if key in self._shared.payments:
            return len(self._shared.payments[key])
        ckey = ("payment_count",) + self._cost_key(cand, x)
        if ckey not in self._shared.payment_count:
            tc = self._extra(cand, x)
            n = self._by_options("count", tc, self.deadline) if tc is not None else self._counted(cand, x)
            if n is None:
                n = len(self.payments(cand, x))
            self._shared.payment_count[ckey] = n
            self._shared.payable[("payable",) + self._cost_key(cand, x)] = n > 0
        return self._shared.payment_count[ckey]

    def _counted(self, cand: Candidate, x: int | None) -> int | None:
        """The DP's count of distinct payments, or None where it does not apply."""
        extra = self._extra(cand, x)
        if extra is not None:
            return self._by_options("count", extra, self.deadline)

        self._remaining()
        tc = self._total_cost(cand, x)
        if tc.what == "cast" and not tc.mana:
            return 0
        try:
            counter = payment_counter(build_problem(self.view, self.player, tc))
        except pm.Unsupported as e:
            raise Undecided("error", f"unsupported: {e}") from None
        if counter is None:
            return None
        self.solves += 1
        return counter.count()

    def payments(self, cand: Candidate, x: int | None = None) -> list[CostPayment]:
        """Every distinct payment (contract §2.3), sorted as the pay query lists them."""
        key = ("payments",) + self._cost_key(cand, x)
        extra = self._extra(cand, x) if key not in self._shared.payments else None
        if extra is not None:
            self._shared.payments[key] = self._by_options("payments", extra, None, self.deadline)[1]
            self._shared.payable[("payable",) + self._cost_key(cand, x)] = bool(self._shared.payments[key])
        if key not in self._shared.payments:
            self._remaining()
            counter = self._counter_of(cand, x)
            model = None if counter is not None else self._payment_model(cand, x)
            if counter is not None:   # listed by the counting DP (models/payment_count.py)
                self.solves += 1
                pays = counted_payments(counter)
            elif model is None:
                pays = []
            else:
                res = model.enumerate(None, self.deadline)
                self.solves += len(res.keys) + 1
                if res.timed_out or not res.complete:
                    raise Undecided("timeout", "time limit reached counting payments")
                pays = decoded_payments(model.p, res.keys)
            self._shared.payments[key] = pays
            self._shared.payable[("payable",) + self._cost_key(cand, x)] = bool(pays)
        return self._shared.payments[key]

    # -- the whole decision ------------------------------------------------
    def legal(self, cand: Candidate, counting: bool = False) -> tuple[bool, str | None]:
        """Is ``cand`` legal now (some target choice and some payment)? With a reason when not.

        With ``counting`` (the caller will count payments of legal candidates
        anyway) the payment decision is the enumeration itself: a count of 0
        means not payable, and no separate decision solve is made."""
        e = self.entry(cand)
        if e.decided:
            return e.reason is None, e.reason
        if cand.kind == "cast" and (cand.alternative or cand.kicked or cand.buyback or cand.casualty):
            texts = zone_blockers(self.state, self.view, cand.object)
            if texts:
                raise Undecided("error", f"unsupported: {cand.object}: text the project does not read could "
                                         f"change {cand.describe(self.state)}: {texts[0]}")
        ok, why = self.targets_legal(cand)
        if ok:
            if counting:
                ok = self.payment_count(cand) > 0
                why = None if ok else NOT_PAYABLE
            else:
                ok, why = self.payable(cand)
        e.decided = True
        e.reason = None if ok else why
        return ok, e.reason

    def counts(self, cand: Candidate) -> tuple[int, int]:
        """Exact numbers of legal target choices and distinct payments of a legal candidate."""
        e = self.entry(cand)
        if e.targets is None:
            e.targets = self.target_count(cand)
        if e.payments is None:
            e.payments = self.payment_count(cand)
        return e.targets, e.payments


# ---------------------------------------------------------------------------
# The actions result
# ---------------------------------------------------------------------------

@dataclass(frozen=True)
class ActionEntry:
    """One legal action of the ``actions`` answer (contract §2.6), as typed values: the
    candidate; for ``cast`` and ``activate`` the exact numbers of legal target choices and of
    distinct payments (``suspend``: payments only, a special action has no targets, CR 116.2f);
    the card's printed text the project does not read and that can't change this entry
    (``unread``, contract §2.0); the face cast or played (``face``: an Adventure, a split
    card's half, a modal double-faced card's back, CR 715.3, 709.3, 712.12)."""

    cand: Candidate
    targets: int | None = None
    payments: int | None = None
    unread: tuple[str, ...] = ()
    face: str | None = None

    def order(self) -> tuple[int, str]:
        """The canonical order of the answer's entries: kind, then object."""
        return KINDS.index(self.cand.kind), self.cand.object or ""


def action_entry(oracle: Oracle, cand: Candidate) -> ActionEntry:
    """The entry of a legal candidate (contract §2.6)."""
    if cand.kind == "suspend":   # a special action: no targets (CR 116.2f, 702.62a)
        return ActionEntry(cand, payments=oracle.payment_count(cand))
    if cand.kind in ("cast", "activate"):
        t, p = oracle.counts(cand)
        return ActionEntry(cand, t, p, tuple(unsupported_parts(oracle.state, cand)))
    return ActionEntry(cand)


def face_entries(state: GameState, player: str, options: Options | None = None) -> list[ActionEntry]:
    """The ``cast`` (and ``play_land``) entries, each with ``face``, for casting the Adventures,
    split cards' halves and modal double-faced cards' back faces of ``player``'s hand cards
    (CR 715.3, 709.3, 712.12): the candidates of that card on the situation in which it has
    only that face's characteristics (:func:`solver.rules.faces.with_face`, CR 715.3b)."""
    from dataclasses import replace

    out: list[ActionEntry] = []
    for oid, face in castable_faces(state, player):
        sub = with_face(state, oid, face)
        oracle = Oracle(sub, player, options)
        for cand in candidates(sub, player, oracle.view, modes=True):
            if cand.kind in ("cast", "play_land") and cand.object == oid and oracle.legal(cand, counting=True)[0]:
                out.append(replace(action_entry(oracle, cand), face=face.data.name))
    return out + prototype_entries(state, player, options)


def prototype_entries(state: GameState, player: str, options: Options | None = None) -> list[ActionEntry]:
    """The ``cast`` entries with ``alternative: prototype`` for casting ``player``'s prototype cards from
    the hand prototyped (CR 702.160a, 718.3): the plain casts of the card on the situation in which it
    has only the prototyped characteristics (:func:`solver.rules.faces.with_prototype`: the prototype
    mana cost is the spell's, its colors that cost's, 718.3b)."""
    from dataclasses import replace

    out: list[ActionEntry] = []
    for o in state.objects:
        if not prototype_castable(o, player):
            continue
        sub = with_prototype(state, o.id)
        oracle = Oracle(sub, player, options)
        for cand in candidates(sub, player, oracle.view, modes=True):
            if cand.kind == "cast" and cand.object == o.id and not cand.alternative \
                    and oracle.legal(cand, counting=True)[0]:
                e = action_entry(oracle, cand)
                out.append(replace(e, cand=replace(cand, alternative=PROTOTYPE)))
    return out


def legal_action_entries(state: GameState, player: str, options: Options | None = None,
                         oracle: Oracle | None = None) -> tuple[list[ActionEntry], str, str | None]:
    """Every legal action of ``player`` as entries, in canonical order, with the status
    (``ok`` / ``timeout`` / ``error``) and a message."""
    oracle = oracle or Oracle(state, player, options)
    out: list[ActionEntry] = []
    try:
        for cand in candidates(state, player, oracle.view, modes=True):
            ok, _ = oracle.legal(cand, counting=True)
            if ok:
                out.append(action_entry(oracle, cand))
        faces = face_entries(state, player, oracle.options)   # an Adventure cast from the hand (CR 715.3)
        if faces:   # each after the card's other cast entries (a stable sort on kind and object)
            out = sorted(out + faces, key=ActionEntry.order)
    except Undecided as u:
        return out, u.status, u.message
    return out, "ok", None
