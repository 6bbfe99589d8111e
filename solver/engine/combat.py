"""Combat: who may attack or block what, and combat damage (CR 506–511).

The rules layer of combat, from the View's characteristics after continuous
effects (CR 613). Declarations are built as a :class:`models.combat.ChoiceProblem`
(items = creatures that may be declared, options = what each may attack or
block) and solved by :mod:`models.combat`; combat damage (CR 510) is
enumerated here directly (every distinct division of each creature's damage).

Rules covered

* Attacking (CR 508.1a–d, 508.1g–h): creatures the attacking player controls,
  untapped, not "summoning sick" unless they have haste (CR 302.6), without
  defender (702.3b) or "can't attack"; each attacks one opponent who has not
  lost, or a planeswalker an opponent controls (CR 506.2, 508.1b); "can't
  attack alone", "can't attack unless defending player controls an Island"
  (508.1c); "attacks each combat if able" requirements obeyed
  the maximum possible number of times (508.1d); costs to attack a player
  (Ghostly Prison, Propaganda: {N} for each creature attacking that player,
  508.1g) never count toward that maximum; a declaration with a cost is
  listed, with its ``cost``, only if the attacking player can pay it now with
  the attacking creatures tapped (508.1f before 508.1h; vigilance keeps them
  untapped).
* Blocking (CR 509.1a–c): untapped creatures the defending player controls
  block attacking creatures that attack that player or a planeswalker they
  control; one attacker each unless "can block an additional creature each
  combat" / "can block any number of creatures" (509.1a); restrictions
  (509.1b): flying — only by creatures with flying or reach (702.9b,
  702.17b); landwalk (702.14c); fear (702.36b), intimidate (702.13b), shadow
  (702.28b), horsemanship (702.31b), skulk (702.118b); protection from a color — not by creatures of
  that color (702.16f); "can't block"; "can block only creatures with flying";
  "can't be blocked"; menace and "can't be blocked except by N or more
  creatures" (702.111b); "can't be blocked by more than one creature"; "can't
  be blocked by creatures with power N or less/greater", "… by Walls / by
  <color> creatures / by creatures with flying", "… except by <color>
  creatures / creatures with flying [or reach]"; "can't block creatures with
  power N or greater/less"; "can't block alone"; requirements (509.1c): "must
  be blocked if able" (one requirement, obeyed when any creature blocks it), Lure
  ("All creatures able to block this creature do so": one requirement per
  creature able to block it) and "blocks each combat if able", maximised.
* Combat damage (CR 510): first strike and double strike steps (702.7b,
  702.4b, 510.4); unblocked attackers damage the player or planeswalker they
  attack (510.1b); blocked creatures divide their damage among their blockers
  as their controller chooses, and blockers among the creatures they block
  (current rules: no damage assignment order, 510.1c–d); a blocked creature
  with no blockers left deals none (510.1c) unless it has trample (702.19e);
  trample (702.19b): damage to the player or planeswalker only once every
  blocker is assigned lethal damage, counting damage already marked and damage
  other attackers assign to it in the same step, any nonzero amount from a
  source with deathtouch being lethal (702.2c); damage dealt through
  :mod:`solver.engine.resolution` (protection prevention 702.16e, lifelink 702.15b,
  deathtouch 702.2b, loyalty loss 120.3c), then :func:`solver.engine.transition.settle`
  (state-based actions 704, dies triggers put on the stack 603.3b).

Not modeled (answered ``UnsupportedCase``): battles as attack targets
(CR 310.8), attacking in multiplayer variants with range of influence,
banding; unread keywords and lines stay ``Unsupported`` in the IR and the
soundness layer reports them (``affects`` contains ``combat``).
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Iterator, TypeVar

from ..core import ir
from ..rules.characteristics import Chars, View
from ..core.errors import UnsupportedCase
from ..core.json_value import JsonObject
from ..core.state import GameObject, GameState, Player

if TYPE_CHECKING:  # pragma: no cover
    from mtgsolve.models.combat import ChoiceProblem
from mtgsolve.models.combat import ChoiceProblem, Item
from ..payment.problem import is_payable
from ..rules.costs import bare_cost
from mtgsolve.models.combat import solve
from ..rules.casting_rules import protected_from
from .resolution import _damage_source_of, _deal_damage
from .transition import ResolutionUnsupported, _World, dispatch_events, settle

_CS = TypeVar("_CS", bound=ir.CombatStatic)

__all__ = [
    "attack_problem", "block_problem", "attack_declarations", "block_declarations", "damage_assignments",
    "apply_attack_declaration", "apply_block_declaration", "defending_players", "AttackDeclaration",
    "BlockDeclaration", "DamageOutcome", "CombatError",
]


class CombatError(ValueError):
    """A combat question that makes no sense for the situation (bad player, bad declaration)."""


@dataclass(frozen=True)
class AttackDeclaration:
    """One declaration of attackers (CR 508.1): each attacking creature with the player,
    planeswalker or battle it attacks (CR 508.1b), and the generic mana the declaration costs
    (``cost``, CR 508.1h; 0: none)."""

    attackers: tuple[tuple[str, str], ...] = ()
    cost: int = 0


@dataclass(frozen=True)
class BlockDeclaration:
    """One declaration of blockers (CR 509.1): each blocking creature with the attacking
    creatures it blocks (CR 509.1a), sorted."""

    blockers: tuple[tuple[str, tuple[str, ...]], ...] = ()


@dataclass(frozen=True)
class DamageOutcome:
    """One distinct result of a combat damage step (CR 510): ``damage``, the assignment — each
    creature that deals damage with its recipients and amounts (sorted; CR 510.1); ``settled``,
    what state-based actions and triggered abilities chose after it (the ``legend_rule``,
    ``triggers`` record of :class:`~solver.engine.transition.Branch`, CR 704.3, 603.3b);
    ``state``, the state after the damage is dealt and settled (CR 510.2)."""

    damage: tuple[tuple[str, tuple[tuple[str, int], ...]], ...]
    settled: JsonObject
    state: GameState


# ---------------------------------------------------------------------------
# Statics that apply to a creature
# ---------------------------------------------------------------------------

def _applying(view: View, kind: type[ir.CombatStatic], oid: str) -> int:
    """How many combat statics of class ``kind`` (ir.CombatStatic) apply to permanent ``oid``."""
    n = 0
    for s in view.statics(kind):
        sel = s.ability.affected
        if sel is None:
            continue
        src = view.state.find(s.source)
        if view.matches(sel, oid, src, s.controller):
            n += 1
    return n


def _amounts(view: View, kind: type[ir.BlockAdditional | ir.MinBlockers | ir.MaxBlockers], oid: str) -> list[int]:
    out = []
    for s in view.statics(kind):
        sel = s.ability.affected
        if sel is not None and view.matches(sel, oid, view.state.find(s.source), s.controller):
            out.append(s.ability.amount)
    return out


def _statics_on(view: View, kind: type[_CS], oid: str) -> list[_CS]:
    """The combat statics of class ``kind`` (ir.CombatStatic) that apply to permanent ``oid``."""
    out = []
    for s in view.statics(kind):
        sel = s.ability.affected
        if sel is not None and view.matches(sel, oid, view.state.find(s.source), s.controller):
            out.append(s.ability)
    return out


def _blocker_matches(view: View, blocker: str, st: ir.UnblockableBy | ir.BlockableOnlyBy) -> bool:
    """Does ``blocker`` fit a static's blocker description ("Walls", "blue creatures",
    "creatures with flying or reach"): any of its subtypes, colors or keywords."""
    c = view.chars(blocker)
    return bool(st.subtypes & c.subtypes) or bool(st.color & c.colors) or any(c.keyword(k) for k in st.keywords)


def _creature(view: View, o: GameObject) -> Chars | None:
    if o.zone != "battlefield":
        return None
    c = view.chars(o.id)
    return c if c.is_creature else None


def _check_battles(view: View) -> None:
    for o in view.permanents:
        if "Battle" in view.chars(o.id).types:
            raise UnsupportedCase(f"battles ('{o.id}') as attack targets and their protectors (CR 310) are not "
                                  "modeled")


# ---------------------------------------------------------------------------
# Attacks (CR 508.1)
# ---------------------------------------------------------------------------

def attack_targets(view: View, player: str) -> tuple[str, ...]:
    """What ``player``'s creatures may attack (CR 506.2, 508.1b): each opponent
    still in the game and each planeswalker such an opponent controls."""
    state = view.state
    opponents = [p.id for p in state.players if p.id != player and not p.lost]
    out = list(opponents)
    for o in view.permanents:
        c = view.chars(o.id)
        if "Planeswalker" in c.types and c.controller in opponents:
            out.append(o.id)
    return tuple(sorted(out))


def can_attack(view: View, oid: str, player: str) -> bool:
    """CR 508.1a: an untapped creature ``player`` controls that has been under
    their control continuously since their most recent turn began or has
    haste (302.6), without defender (702.3b) or "can't attack"."""
    o = view.obj(oid)
    c = _creature(view, o)
    if c is None or c.controller != player or o.tapped:
        return False
    if o.sick and not c.keyword("haste"):
        return False
    if c.keyword("defender") or _applying(view, ir.CantAttack, oid):
        return False
    return True


def attack_taxes(view: View) -> dict[str, int]:
    """Generic mana per creature attacking each player (Ghostly Prison,
    Propaganda: CR 508.1d, 508.1g); several such effects add up."""
    out: dict[str, int] = {}
    for s in view.statics(ir.AttackTax):
        out[s.controller] = out.get(s.controller, 0) + s.ability.amount
    return out


def attack_problem(view: View, player: str) -> ChoiceProblem:
    """The :class:`models.combat.ChoiceProblem` of ``player``'s declaration of attackers."""

    _check_battles(view)
    targets = attack_targets(view, player)
    items = []
    for o in sorted(view.permanents, key=lambda o: o.id):
        if not can_attack(view, o.id, player):
            continue
        items.append(Item(o.id, tuple(t for t in targets if _may_attack(view, o.id, t)), cap=1,
                          alone=_applying(view, ir.CantAttackAlone, o.id) > 0,
                          any_weight=_applying(view, ir.MustAttack, o.id)))
    taxes = attack_taxes(view)
    costs = tuple(sorted((t, taxes[t]) for t in targets if taxes.get(t)))
    return ChoiceProblem(tuple(i for i in items if i.options), costs=costs)


def _defending_player_of(view: View, target: str) -> str:
    return target if view.state.is_player(target) else view.chars(target).controller


def _may_attack(view: View, oid: str, target: str) -> bool:
    """Restrictions on one (attacker, target) pair (CR 508.1c): "can't attack unless
    defending player controls an Island" (sea serpents)."""
    for st in _statics_on(view, ir.AttackNeedsDefenderLand, oid):
        defender = _defending_player_of(view, target)
        if not any(view.chars(o.id).is_land and st.subtypes & view.chars(o.id).subtypes
                   for o in view.permanents if view.chars(o.id).controller == defender):
            return False
    return True


def _most_payable(view: View, player: str, most: int) -> int:
    """The largest N <= ``most`` such that ``player`` can pay {N} now (nothing tapped for attacking)."""

    lo, hi = 0, most  # {0} is always payable; payability is monotone in N: binary search
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if is_payable(view, player, bare_cost("{%d}" % mid)):
            lo = mid
        else:
            hi = mid - 1
    return lo


def _payability_depends_on_attackers(view: View, problem: ChoiceProblem) -> bool:
    """Can tapping attacking creatures (CR 508.1f) change what the player can pay?
    Yes when a possible attacker has a mana ability, or a mana ability of the
    player's taps other creatures (Springleaf Drum)."""
    for it in problem.items:
        if view.chars(it.id).mana_abilities:
            return True
    player = view.chars(problem.items[0].id).controller if problem.items else None
    for o in view.permanents:
        if view.chars(o.id).controller == player:
            for m in view.chars(o.id).mana_abilities:
                if m.cost.tap_other_creatures:
                    return True
    return False


def _tapped_for_attack(state: GameState, view: View, attackers: dict[str, str]) -> GameState:
    """CR 508.1f: attacking creatures without vigilance become tapped."""
    objs = []
    for o in state.objects:
        if o.id in attackers and not view.chars(o.id).keyword("vigilance"):
            o = o.with_(tapped=True)
        objs.append(o)
    return state.replace_objects(objs)


def _payable(state: GameState, view: View, player: str, attackers: dict[str, str], amount: int,
             cache: dict[tuple[int, frozenset[str]], bool]) -> bool:
    """Can ``player`` pay {amount} with these creatures attacking (CR 508.1h)?"""

    tapped = frozenset(a for a in attackers if not view.chars(a).keyword("vigilance"))
    key = (amount, tapped)
    if key not in cache:
        after = _tapped_for_attack(state, view, attackers)
        cache[key] = is_payable(View.of(after), player, bare_cost("{%d}" % amount))
    return cache[key]


def attack_declarations(state: GameState, player: str | None = None, limit: int | None = None,
                        timeout: float | None = None) -> tuple[int | None, list[AttackDeclaration], str]:
    """Every legal declaration of attackers for ``player`` (default: the active
    player), sorted as contract §2.8 lists them; returns (exact count, the first
    ``limit`` entries, status: ``ok`` | ``truncated`` | ``timeout``)."""

    player = player or state.turn.active
    if not state.is_player(player):
        raise CombatError(f"'{player}' is not a player")
    view = View.of(state)
    problem = attack_problem(view, player)
    if not problem.costs:
        ans = solve(problem, limit, timeout)
        decls = [_attack_entry(d, 0) for d, _ in ans.declarations]
        status = "timeout" if ans.timed_out else "truncated" if ans.truncated else "ok"
        return ans.count, decls, status
    # CR 508.1h: only declarations whose cost can be paid now. {N} payable with nothing tapped bounds
    # every cost; when tapping the attackers can't change what is payable, that bound is exact.
    most = sum(max((a for o, a in problem.costs if o in it.options), default=0) for it in problem.items)
    bounded = replace(problem, max_cost=_most_payable(view, player, most))
    if not _payability_depends_on_attackers(view, problem):
        ans = solve(bounded, limit, timeout)
        decls = [_attack_entry(d, cost) for d, cost in ans.declarations]
        status = "timeout" if ans.timed_out else "truncated" if ans.truncated else "ok"
        return ans.count, decls, status
    ans = solve(bounded, None, timeout, engine="cpsat")
    if ans.timed_out:
        return None, [], "timeout"
    cache: dict[tuple[int, frozenset[str]], bool] = {}
    kept = []
    for d, cost in ans.declarations:
        if cost and not _payable(state, view, player, {a: sel[0] for a, sel in d}, cost, cache):
            continue
        kept.append(_attack_entry(d, cost))
    count = len(kept)
    if limit is not None and count > limit:
        return count, kept[:limit], "truncated"
    return count, kept, "ok"


def _attack_entry(decl: Any, cost: int) -> AttackDeclaration:
    return AttackDeclaration(tuple((a, sel[0]) for a, sel in decl), cost)


# ---------------------------------------------------------------------------
# Blocks (CR 509.1)
# ---------------------------------------------------------------------------

def defending_players(state: GameState) -> tuple[str, ...]:
    """Players attacked, directly or through a planeswalker they control (CR 506.2)."""
    view = View.of(state)
    out = set()
    for o in state.battlefield:
        if o.attacking is None or _creature(view, o) is None:
            continue
        t = o.attacking
        if state.is_player(t):
            out.add(t)
        else:
            target = state.find(t)
            if target is not None and target.zone == "battlefield":
                if "Battle" in view.chars(t).types:
                    raise UnsupportedCase(f"attacking a battle ('{t}', CR 310) is not modeled")
                out.add(view.chars(t).controller)
    return tuple(p for p in state.player_ids if p in out)


def _attackers_of(view: View, defender: str) -> list[str]:
    state = view.state
    out = []
    for o in state.battlefield:
        if o.attacking is None or _creature(view, o) is None:
            continue
        t = o.attacking
        attacked = None if state.is_player(t) else state.find(t)
        if t == defender or (attacked is not None and attacked.zone == "battlefield"
                             and view.chars(t).controller == defender):
            out.append(o.id)
    return sorted(out)


def _unblockable_by_landwalk(view: View, attacker: Chars, defender: str) -> bool:
    """CR 702.14c: a creature with landwalk can't be blocked while the defending
    player controls a land of that type."""
    for a in attacker.abilities:
        if isinstance(a, ir.Keyword) and a.name == "landwalk":
            for o in view.permanents_of(defender):
                c = view.chars(o.id)
                if c.is_land and a.arg in c.subtypes:
                    return True
    return False


def can_block_pair(view: View, blocker: str, attacker: str) -> bool:
    """CR 509.1b restrictions on one (blocker, attacker) pair."""
    b, a = view.chars(blocker), view.chars(attacker)
    if _applying(view, ir.Unblockable, attacker):
        return False
    if a.keyword("flying") and not (b.keyword("flying") or b.keyword("reach")):  # 702.9b, 702.17b
        return False

    if protected_from(a, b.colors, b.types, b.subtypes):  # 702.16f: blockers with the quality (color, type …)
        return False
    if _applying(view, ir.BlockOnlyFlying, blocker) and not a.keyword("flying"):
        return False
    if _unblockable_by_landwalk(view, a, b.controller):
        return False
    if a.keyword("fear") and not ("Artifact" in b.types or "B" in b.colors):  # 702.36b
        return False
    if a.keyword("intimidate") and not ("Artifact" in b.types or a.colors & b.colors):  # 702.13b
        return False
    if a.keyword("shadow") != b.keyword("shadow"):  # 702.28b: block or be blocked only by shadow
        return False
    if a.keyword("horsemanship") and not b.keyword("horsemanship"):  # 702.31b
        return False
    if a.keyword("skulk") and (b.power or 0) > (a.power or 0):  # 702.118b
        return False
    bp, ap = b.power or 0, a.power or 0
    if any(bp <= st.amount for st in _statics_on(view, ir.UnblockablePowerLe, attacker)):
        return False
    if any(bp >= st.amount for st in _statics_on(view, ir.UnblockablePowerGe, attacker)):
        return False
    if any(_blocker_matches(view, blocker, st) for st in _statics_on(view, ir.UnblockableBy, attacker)):
        return False
    if any(not _blocker_matches(view, blocker, st) for st in _statics_on(view, ir.BlockableOnlyBy, attacker)):
        return False
    if any(ap <= st.amount for st in _statics_on(view, ir.CantBlockPowerLe, blocker)):
        return False
    if any(ap >= st.amount for st in _statics_on(view, ir.CantBlockPowerGe, blocker)):
        return False
    return True


def can_block(view: View, oid: str, defender: str) -> bool:
    """CR 509.1a: an untapped creature the defending player controls, without "can't block"."""
    o = view.obj(oid)
    c = _creature(view, o)
    if c is None or c.controller != defender or o.tapped or o.attacking is not None:
        return False
    return not _applying(view, ir.CantBlock, oid)


def block_problem(view: View, defender: str) -> ChoiceProblem:
    """The :class:`models.combat.ChoiceProblem` of ``defender``'s declaration of blockers."""

    attackers = _attackers_of(view, defender)
    lure = {a: _applying(view, ir.Lure, a) for a in attackers}
    items = []
    for o in sorted(view.permanents, key=lambda o: o.id):
        if not can_block(view, o.id, defender):
            continue
        options = tuple(a for a in attackers if can_block_pair(view, o.id, a))
        if not options:
            continue
        if _applying(view, ir.BlockAnyNumber, o.id):
            cap = len(options)
        else:
            cap = 1 + sum(_amounts(view, ir.BlockAdditional, o.id))
        items.append(Item(o.id, options, cap=max(1, min(cap, len(options))),
                          alone=_applying(view, ir.CantBlockAlone, o.id) > 0,
                          any_weight=_applying(view, ir.MustBlock, o.id),
                          weights=tuple((a, lure[a]) for a in options if lure[a])))
    mins, maxs = [], []
    for a in attackers:
        n = max([2 if view.chars(a).keyword("menace") else 1] + _amounts(view, ir.MinBlockers, a))
        if n > 1:
            mins.append((a, n))
        most = _amounts(view, ir.MaxBlockers, a)
        if most:
            maxs.append((a, min(most)))
    must = tuple((a, n) for a in attackers if (n := _applying(view, ir.MustBeBlocked, a)))
    return ChoiceProblem(tuple(items), min_choosers=tuple(mins), max_choosers=tuple(maxs), option_weights=must)


def block_declarations(state: GameState, player: str | None = None, limit: int | None = None,
                       timeout: float | None = None) -> tuple[int | None, list[BlockDeclaration], str]:
    """Every legal declaration of blockers for the defending ``player`` (default:
    the only defending player), sorted as contract §2.9 lists them; returns
    (exact count, the first ``limit`` entries, status)."""

    if player is None:
        defenders = defending_players(state)
        if len(defenders) > 1:
            raise CombatError(f"several players are attacked ({', '.join(defenders)}): name the one who blocks")
        if defenders:
            player = defenders[0]
        else:
            others = state.opponents(state.turn.active)
            if len(others) != 1:
                raise CombatError("no creature is attacking: name the player who blocks")
            player = others[0]
    if not state.is_player(player):
        raise CombatError(f"'{player}' is not a player")
    view = View.of(state)
    defending_players(state)  # battles: unsupported
    problem = block_problem(view, player)
    ans = solve(problem, limit, timeout)
    decls = [BlockDeclaration(tuple((b, tuple(sel)) for b, sel in d)) for d, _ in ans.declarations]
    status = "timeout" if ans.timed_out else "truncated" if ans.truncated else "ok"
    return ans.count, decls, status


# ---------------------------------------------------------------------------
# Applying declarations (CR 508.1f, 509.1, 509.1h)
# ---------------------------------------------------------------------------

def apply_attack_declaration(state: GameState, decl: AttackDeclaration) -> GameState:
    """The state after declaring ``decl``: each attacker gets ``attacking`` and, without
    vigilance, becomes tapped (CR 508.1f). A cost (``cost``) is not paid here: the caller
    pays it (CR 508.1h)."""
    attackers = dict(decl.attackers)
    view = View.of(state)
    for a in attackers:
        o = state.find(a)
        if o is None or o.zone != "battlefield":
            raise CombatError(f"'{a}' is not on the battlefield")
    objs = []
    for o in state.objects:
        if o.id in attackers:
            o = o.with_(attacking=attackers[o.id], blocking=(), blocked=False,
                        tapped=o.tapped or not view.chars(o.id).keyword("vigilance"))
        objs.append(o)
    return state.replace_objects(objs)


def apply_block_declaration(state: GameState, decl: BlockDeclaration) -> GameState:
    """The state after declaring ``decl``: each blocker gets ``blocking``; each attacking
    creature it blocks becomes ``blocked`` (CR 509.1h). Blocking doesn't tap."""
    blockers = {b: tuple(sorted(a)) for b, a in decl.blockers}
    blocked = {a for aa in blockers.values() for a in aa}
    for b, aa in blockers.items():
        o = state.find(b)
        if o is None or o.zone != "battlefield":
            raise CombatError(f"'{b}' is not on the battlefield")
        for a in aa:
            t = state.find(a)
            if t is None or t.attacking is None:
                raise CombatError(f"'{a}' is not attacking")
    objs = []
    for o in state.objects:
        if o.id in blockers:
            o = o.with_(blocking=blockers[o.id])
        if o.id in blocked:
            o = o.with_(blocked=True)
        objs.append(o)
    return state.replace_objects(objs)


# ---------------------------------------------------------------------------
# Combat damage (CR 510)
# ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Dealer:
    """A creature assigning combat damage this step: its power, the recipients
    it may divide it among, and (trample) the recipient reached only once every
    blocker has lethal damage."""

    id: str
    power: int
    recipients: tuple[str, ...]
    trample_to: str | None = None  # the player or planeswalker, for an attacker with trample
    blockers: tuple[str, ...] = ()  # the creatures blocking it (trample's lethal check)
    deathtouch: bool = False


def _deals_this_step(c: Chars, first_strike: bool) -> bool:
    """CR 510.4, 702.4b, 702.7b: in the first-strike step only creatures with
    first strike or double strike deal damage; in the other step, those without
    first strike and those with double strike."""
    if first_strike:
        return c.keyword("first strike") or c.keyword("double strike")
    return c.keyword("double strike") or not c.keyword("first strike")


def _alive_target(state: GameState, view: View, t: str | None) -> bool:
    if t is None:
        return False
    if state.is_player(t):
        return not state.player(t).lost
    o = state.find(t)
    return o is not None and o.zone == "battlefield" and "Planeswalker" in view.chars(t).types


def damage_dealers(state: GameState, first_strike: bool) -> list[Dealer]:
    """Every creature that assigns combat damage in this step, with its options (CR 510.1a–d)."""
    view = View.of(state)
    creatures = {o.id: c for o in state.battlefield if (c := _creature(view, o)) is not None}
    attacking = {o.id: o for o in state.battlefield if o.id in creatures and o.attacking is not None}
    blockers_of: dict[str, list[str]] = {a: [] for a in attacking}
    blocking: dict[str, tuple[str, ...]] = {}
    for o in state.battlefield:
        if o.id in creatures and o.blocking and o.attacking is None:
            live = tuple(a for a in o.blocking if a in attacking)
            blocking[o.id] = live
            for a in live:
                blockers_of[a].append(o.id)
    out = []
    for oid in sorted(creatures):
        c = creatures[oid]
        if not _deals_this_step(c, first_strike) or c.power is None or c.power <= 0:  # 510.1a
            continue
        if oid in attacking:
            o = attacking[oid]
            target = o.attacking if _alive_target(state, view, o.attacking) else None
            bl = tuple(sorted(blockers_of[oid]))
            trample = c.keyword("trample")
            if not o.blocked and not bl:  # 510.1b
                if target is not None:
                    out.append(Dealer(oid, c.power, (target,)))
            elif not bl:  # 510.1c, 702.19e
                if trample and target is not None:
                    out.append(Dealer(oid, c.power, (target,)))
            elif trample and target is not None:
                out.append(Dealer(oid, c.power, bl + (target,), trample_to=target, blockers=bl,
                                  deathtouch=c.keyword("deathtouch")))
            else:
                out.append(Dealer(oid, c.power, bl, deathtouch=c.keyword("deathtouch")))
        elif blocking.get(oid):  # 510.1d
            out.append(Dealer(oid, c.power, blocking[oid], deathtouch=c.keyword("deathtouch")))
    return out


def _divisions(total: int, n: int) -> Iterator[tuple[int, ...]]:
    """Every way to write ``total`` as ``n`` ordered non-negative parts."""
    if n == 1:
        yield (total,)
        return
    for first in range(total, -1, -1):
        for rest in _divisions(total - first, n - 1):
            yield (first,) + rest


def _lethal(state: GameState, view: View, oid: str) -> int:
    """Lethal damage for trample (CR 702.19b, 120.4a): toughness minus damage already marked."""
    c = view.chars(oid)
    return max(0, (c.toughness or 0) - state.obj(oid).damage)


def _trample_ok(state: GameState, view: View, dealers: list[Dealer], plan: dict[str, dict[str, int]]) -> bool:
    """CR 702.19b: a trampler assigns to the player or planeswalker only if each
    of its blockers is assigned lethal damage, counting damage assigned by the
    other attackers this step; any nonzero amount from a deathtouch source is
    lethal (702.2c)."""
    received: dict[str, int] = {}
    by_deathtouch: set[str] = set()
    for d in dealers:
        for r, n in plan[d.id].items():
            received[r] = received.get(r, 0) + n
            if d.deathtouch and n > 0:
                by_deathtouch.add(r)
    for d in dealers:
        if d.trample_to is None or plan[d.id].get(d.trample_to, 0) == 0:
            continue
        for b in d.blockers:
            if b not in by_deathtouch and received.get(b, 0) < _lethal(state, view, b):
                return False
    return True


def assignment_plans(state: GameState, first_strike: bool) -> list[dict[str, dict[str, int]]]:
    """Every legal assignment of combat damage this step: dealer → recipient →
    amount (recipients with 0 left out), sorted canonically."""
    view = View.of(state)
    dealers = damage_dealers(state, first_strike)
    options = []
    for d in dealers:
        opts = []
        for parts in _divisions(d.power, len(d.recipients)):
            opts.append({r: n for r, n in zip(d.recipients, parts) if n})
        options.append(opts)
    plans = []
    for combo in itertools.product(*options):
        plan = {d.id: p for d, p in zip(dealers, combo)}
        if _trample_ok(state, view, dealers, plan):
            plans.append(plan)
    plans.sort(key=lambda p: sorted((k, sorted(v.items())) for k, v in p.items()))
    return plans


def _leave_combat(state: GameState) -> GameState:
    """CR 506.4: a permanent that leaves the battlefield is removed from combat;
    blockers keep blocking only the attacking creatures still in combat."""
    attacking = {o.id for o in state.battlefield if o.attacking is not None}
    objs = []
    for o in state.objects:
        if o.zone != "battlefield":
            if o.attacking is not None or o.blocking or o.blocked:
                o = o.with_(attacking=None, blocking=(), blocked=False)
        elif o.blocking and any(a not in attacking for a in o.blocking):
            o = o.with_(blocking=tuple(a for a in o.blocking if a in attacking))
        objs.append(o)
    return state.replace_objects(objs)


def _refuse_shared_shields(state: GameState, plan: dict[str, dict[str, int]]) -> None:
    """CR 615.7: when two or more sources would deal combat damage to one recipient at once and a
    shield of N applies that prevents less than all of it (or several such shields), the recipient's
    player or controller chooses which damage it prevents — not modeled (refused,
    :class:`UnsupportedCase`)."""
    if not any(p.amount is not None for p in state.prevention):
        return
    into: dict[str, list[tuple[str, int]]] = {}
    for d, to in plan.items():
        for r, n in to.items():
            if n > 0:
                into.setdefault(r, []).append((d, n))
    for r, dealt in into.items():
        if len(dealt) < 2:
            continue
        total = sum(n for _, n in dealt)
        shields = [p for p in state.prevention if p.amount is not None and (p.to is None or p.to == r)
                   and (p.source is None or any(p.source == d for d, _ in dealt))]
        if len(shields) > 1 or (shields and (shields[0].amount or 0) < total):
            raise UnsupportedCase(f"unsupported: {r} is dealt combat damage by several sources at once and a "
                                  "prevention shield prevents part of it; which damage it prevents is its "
                                  "controller's choice (CR 615.7), not modeled")


def damage_assignments(state: GameState, first_strike: bool | None = None) -> list[DamageOutcome]:
    """CR 510: every distinct legal combat damage assignment of the current step
    (``first_strike``: the first-strike step; False: the regular step; None:
    from ``turn.step``), each as a :class:`DamageOutcome` (the assignment, what settling chose,
    the state after the damage is dealt, CR 510.2). The damage is dealt through :mod:`solver.engine.resolution`
    (protection, lifelink, deathtouch, loyalty), then :func:`solver.engine.transition.settle`
    performs state-based actions and puts waiting triggered abilities (dies
    triggers) on the stack (CR 704.3, 603.3b), which may branch further.
    The play code records it as the choices ``{"combat_damage": {creature: {recipient: amount}}}``
    plus what settling chose (:mod:`solver.engine.turns`). Players who lost are
    marked ``lost``; permanents that left the battlefield leave combat (506.4).
    Abilities that trigger on the combat damage (:class:`~solver.core.ir.CombatDamageTrigger`,
    lifelink's life gain) are queued from the damage events (CR 510.3a, 603.2)."""

    if first_strike is None:
        first_strike = state.turn.step == "first_strike_damage"
    out: list[DamageOutcome] = []
    for plan in assignment_plans(state, first_strike):
        w = _World(state)
        _refuse_shared_shields(state, plan)
        sources = {d: _damage_source_of(w, d, state.obj(d).controller) for d in plan}
        try:
            for d in sorted(plan):  # CR 510.2: dealt simultaneously (only SBAs look at the result)
                for r, n in sorted(plan[d].items()):
                    _deal_damage(w, sources[d], r, n, combat=True)  # records the damage event (CR 510.3a)
        except ResolutionUnsupported as e:
            raise UnsupportedCase(f"unsupported: {e}") from e
        assigned = tuple((d, tuple(sorted(v.items()))) for d, v in sorted(plan.items()) if v)
        dispatch_events(w)  # the abilities the damage triggered (CR 603.2), put on the stack by settle
        settled = settle(w.state(), pending=w.pending, deathtouched=w.deathtouched)
        for b in settled.branches:
            out.append(DamageOutcome(assigned, b.choices, _leave_combat(b.state)))
    return out
