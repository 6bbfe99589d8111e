"""The one place where the game state changes between decisions (rules layer).

Every change of state goes through here before a player receives priority:
playing a land, casting, activating and paying (:mod:`solver.engine.apply`,
which ``Situation.apply`` calls), resolving (:mod:`solver.engine.resolution`) and
passing priority / turn-based actions (:mod:`solver.engine.turns`) — all in the rules
layer.  This module holds what they share:

* :func:`settle` — CR 117.5 and 704.3: whenever a player would receive
  priority, state-based actions (CR 704.5 as modeled by
  ``_sba_once`` below: 704.5a–d, f–j, m, n, p, q) are performed
  simultaneously and repeated, then waiting triggered abilities are put on the
  stack (CR 603.3b), until neither happens.  A player who loses is marked
  ``lost`` (CR 104.3, 704.5a–c); the game is over when at most one player
  remains (CR 104.2a).
* the kernel (``docs/kernel.md``): the primitives every change of state goes
  through — :func:`move`, the one zone change (CR 400.7: a new object; leaving
  the battlefield it records last known information, CR 608.2h, and queues
  "when this dies" abilities, CR 603.10a, 700.4; entering the battlefield it sets the
  permanent's status, CR 110.2, 614.1c); :func:`create`, the one creation of tokens and
  conjured cards (CR 111.1, 400.7); :func:`draw` (CR 121.1) and,
  on whole states, :func:`draw_top` (CR 504.1) and :func:`discard` (CR 701.9);
  :func:`queue_triggers` (CR 603.2); :func:`put_triggers`, the one function
  that puts waiting triggered abilities on the stack in APNAP order (CR 101.4,
  603.3b/d); :func:`queue_target_triggers` (CR 603.2, 702.21a: ward, as a
  spell or ability becomes the target); :func:`pay`, the one payment of a cost
  (as a spell is cast or an ability activated, CR 601.2g-h; while resolving, CR 608.2g); :func:`change_life` (CR 119.3); :func:`adjust_counters` (CR
  122.1); :func:`empty_mana_pools` (CR 500.4); :func:`renumber` (canonical
  zone positions).  Resolution, combat damage, turn-based actions and the
  action applier (:mod:`solver.engine.apply`) all use them, so triggers are
  queued when the move happens — no state is compared with another.
* :class:`Branch` — one distinct result of a transition: the new state, the
  choices that lead to it and, for random events, its probability.  Results
  are identified by :meth:`GameState.key` and ordered by the canonical text of
  their choices (:func:`choices_key`); the order users see is made where the
  situations are written (:mod:`solver.queries.canonical`).
* the machinery behind all of them: ``_World`` (one branch of a change),
  ``_cease`` (CR 704.5d), ``_sba_once`` (CR 704.5), ``_finalize`` (a branch
  as a canonical state).

Before this module, the action applier (then in :mod:`solver.api`) checked
only 704.5d/m/n after an action, so a player at 1 life who paid 1 life (a painland's damage) kept
priority at 0 life; now the same :func:`settle` runs after actions, after
resolution and after turn-based actions.
"""
from __future__ import annotations

import itertools
import json
import re
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any, Callable, Iterable

from ..core import ir
from ..cards import Card, faces
from ..rules.sagas import ability_is_chapter, final_chapter, is_saga
from ..rules.characteristics import View
from ..rules.soundness.unread import how_it_enters
from ..core.ir import Enchant, TargetSpec, TriggeredAbility
from ..core.events import CardDiscarded, CardDrawn, Entered, GameEvent, LeftBattlefield, LifeGained, SpellCast
from ..rules.triggers import batch_key, condition_met, event_refs_used, event_subjects, is_event_trigger, step_fires
from ..core.mana import Mana
from ..reader.spend_restrictions import read_spend_restriction
from ..core.moves import Payment
from ..core.object_ids import next_free_id, object_id_base
from ..core.json_value import JsonObject
from ..core.errors import UnsupportedCase
from ..core.state import (AbilityRef, ContinuousEffectEntry, DelayedTrigger, GameObject, GameState, Player,
                          PreventionShield, RestrictedPool, StateKey, Turn, TurnHistory, restricted_pool_of)
from ..rules.targeting import can_be_targeted, object_matches, player_matches
from mtgsolve.models.targets import enumerate_choices
from ..rules.targeting import ability_source, targeting_problem
from ..rules.modes import TargetingSource, selections, with_modes
from ..rules.targeting import object_matches
from ..rules.casting_rules import protected_from
from ..rules.faces import cast_as
from ..rules.faces import leaving_zone
from ..rules.replacement import enters_tapped
from mtgsolve.models.resolution import TriggerSpec, enumerate_placements

__all__ = ["Branch", "Settled", "settle", "game_over", "winner", "alive", "empty_mana_pools", "draw_top",
           "discard", "renumber", "next_player", "mark_losers", "move", "draw", "queue_triggers", "put_triggers",
           "queue_target_triggers", "change_life", "give_poison", "adjust_counters", "pay", "choices_key", "create", "CREATED",
           "discard_unread", "destroy", "prevent", "delayed_triggers", "delayed_fires"]


@dataclass(frozen=True)
class Branch:
    """One distinct result of a transition: ``state``; the ``choices`` made on
    the way (contract §2.7/2.10 shape); ``probability`` when a random event
    took part (else None); ``losers``: players who lost on the way."""

    state: GameState
    choices: JsonObject = field(default_factory=dict)
    probability: Fraction | None = None
    losers: tuple[str, ...] = ()


@dataclass(frozen=True)
class Settled:
    """The results of :func:`settle`: every distinct branch (more than one only
    when a choice was made: the legend rule, the order and targets of
    triggered abilities) and the notes on what was not modeled."""

    branches: tuple[Branch, ...]
    notes: tuple[str, ...] = ()
    changed: bool = False


# ---------------------------------------------------------------------------
# Players and the end of the game
# ---------------------------------------------------------------------------

def alive(state: GameState) -> tuple[str, ...]:
    """Players still in the game, in turn order."""
    return tuple(p.id for p in state.players if not p.lost)


def game_over(state: GameState) -> bool:
    """CR 104.2a: the game is over when one player (or none) remains."""
    return len(alive(state)) <= 1 and any(p.lost for p in state.players)


def winner(state: GameState) -> str | None:
    """The player who won (CR 104.2a), or None (game not over, or a draw)."""
    left = alive(state)
    return left[0] if game_over(state) and len(left) == 1 else None


def next_player(state: GameState, pid: str) -> str:
    """The next player in turn order after ``pid`` who is still in the game (CR 101.4)."""
    ids = state.player_ids
    i = ids.index(pid)
    for k in range(1, len(ids) + 1):
        cand = ids[(i + k) % len(ids)]
        if not state.player(cand).lost:
            return cand
    return pid


def mark_losers(state: GameState, losers: Iterable[str]) -> GameState:
    """``lost: true`` on each of ``losers`` (CR 104.3)."""
    lose = set(losers)
    if not lose:
        return state
    players = tuple(replace(p, lost=True) if p.id in lose else p for p in state.players)
    return replace(state, players=players)


# ---------------------------------------------------------------------------
# State-based actions and triggered abilities (CR 117.5, 704.3, 603.3)
# ---------------------------------------------------------------------------

def settle(state: GameState, *, pending: Iterable[Any] = (), drew_empty: Iterable[str] = (),
           deathtouched: Iterable[str] = ()) -> Settled:
    """CR 117.5: before a player receives priority, perform state-based actions
    (CR 704.3: all applicable ones simultaneously, repeated until none apply)
    and put waiting triggered abilities on the stack (CR 603.3b), until
    neither does anything.

    ``pending``: triggered abilities waiting (``_PendingTrigger``);
    ``drew_empty``: players who attempted to draw from an empty library since
    the last check (CR 704.5b); ``deathtouched``: creatures dealt damage by a
    source with deathtouch since the last check (CR 704.5h).

    When nothing applies the state is returned unchanged (the very same
    object).  Otherwise every branch is written canonically (as the
    ``resolve`` query writes situations), keeping the input's turn (priority,
    passes) and metadata, with ``lost`` on players who lost.
    """
    start = _World(state)
    prelost = {p.id for p in state.players if p.lost}
    start.losers = set(prelost)
    start.pending = list(pending)
    start.drew_empty = set(drew_empty)
    start.deathtouched = set(deathtouched)
    todo = [start]
    done: list[Any] = []
    changed = bool(start.pending)
    while todo:
        v = todo.pop()
        dispatch_events(v)  # what the last round changed (CR 603.2), before the next round's checks
        if _game_over(v):
            done.append(v)
            continue
        nxt = _sba_once(v)
        if nxt is not None:
            changed = True
            todo.extend(nxt)
            continue
        if v.pending:
            changed = True
            todo.extend(put_triggers(v))
            continue
        done.append(v)
    if not changed:
        return Settled((Branch(state),), tuple(sorted(start.notes)), False)
    out: dict[StateKey, Branch] = {}
    for v in done:
        fs = _finalize(v)
        fs = replace(fs, turn=state.turn, name=state.name, description=state.description, rules=state.rules)
        fs = mark_losers(fs, v.losers)
        key = fs.key()
        if key not in out:
            out[key] = Branch(fs, dict(v.choices), None, tuple(p for p in state.player_ids
                                                                if p in v.losers and p not in prelost))
    branches = tuple(sorted(out.values(), key=lambda b: choices_key(b.choices)))
    return Settled(branches, tuple(sorted(start.notes)), True)


def choices_key(choices: Any) -> str:
    """The canonical text of a record of choices (plain lists, dicts, strings and numbers): the
    engine's deterministic order of the results of one change.  The order users see (choices, then
    the situation's canonical JSON) is made where the situations are written (``queries``/``api``)."""
    return json.dumps(choices, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


# ---------------------------------------------------------------------------
# Zone moves and other shared changes
# ---------------------------------------------------------------------------

def renumber(state: GameState, objects: Iterable[GameObject]) -> GameState:
    """``state`` with ``objects``, each zone list's positions renumbered 0, 1, …
    in their current order (the loader's ``order``)."""
    groups: dict[tuple[str, str], list[GameObject]] = {}
    for o in objects:
        key = "" if o.zone == "stack" else (o.controller if o.zone == "battlefield" else o.owner)
        groups.setdefault((o.zone, key), []).append(o)
    out: list[GameObject] = []
    for objs in groups.values():
        objs.sort(key=lambda o: o.order)
        out.extend(o if o.order == i else o.with_(order=i) for i, o in enumerate(objs))
    pos = {o.id: i for i, o in enumerate(state.objects)}
    out.sort(key=lambda o: pos.get(o.id, len(pos)))
    return replace(state, objects=tuple(out))


def empty_mana_pools(state: GameState) -> GameState:
    """CR 500.4: when a step or phase ends, unused mana empties from each pool."""
    if not any(m for _, m in state.mana_pool) and not state.restricted_pool:
        return state
    return replace(state, mana_pool=(), restricted_pool=())


def draw_top(state: GameState, player: str, card: GameObject | None = None) -> tuple[GameState, bool]:
    """CR 121.1: ``player`` puts the top card of their library (or ``card``, the
    one a random draw picked) into their hand (:func:`draw`). Returns the new state and
    whether the draw came from an empty library (CR 704.5b: a loss at the
    next check)."""
    w = _World(state)
    if not draw(w, player, card.id if card is not None else None):
        return state, True
    out = renumber(state, w.objects.values())
    return (out if out.known_top == w.known_top_marks() else replace(out, known_top=w.known_top_marks())), False


def draw(w: _World, player: str, card: str | None = None) -> GameObject | None:
    """CR 121.1-121.2: ``player`` draws one card — the top of their library, or ``card`` (the one a
    random draw picked) — through :func:`move`; it keeps its timestamp. None when the library is
    empty (the caller records the attempt, CR 704.5b)."""
    library = w.zone_list("library", player)
    if not library:
        return None
    oid = card or library[0].id
    drawn = move(w, oid, "hand", timestamp=w.objects[oid].timestamp)
    w.events.append(CardDrawn(player))  # "whenever you draw a card" (CR 121.2)
    return drawn


def discard(state: GameState, ids: Iterable[str]) -> GameState:
    """CR 701.9a: the cards go from their owner's hand to their owner's graveyard (on top), each
    through :func:`move` (keeping its timestamp)."""
    ids = list(ids)
    if not ids:
        return state
    w = _World(state)
    chosen = set(ids)
    for o in state.objects:  # simultaneously (CR 701.9a): in the order the state lists them
        if o.id in chosen:
            move(w, o.id, "graveyard", timestamp=o.timestamp)
    return renumber(state, w.objects.values())


def pools_empty(state: GameState) -> bool:
    return not any(isinstance(m, Mana) and m for _, m in state.mana_pool) and not state.restricted_pool


def with_players(state: GameState, players: Iterable[Player]) -> GameState:
    return replace(state, players=tuple(players))


# ===========================================================================
# The shared machinery of state changes (moved here from solver.engine.resolution so
# that resolution, actions and turn-based actions use one engine): the
# branch-world, zone moves with last known information and leaves-the-
# battlefield triggers (CR 400.7, 603.10a), tokens ceasing to exist
# (CR 704.5d), state-based actions (CR 704.5), putting triggered abilities on
# the stack (CR 603.3), and the canonical finalisation of a branch.
# ===========================================================================

KEYED_ZONES: tuple[str, ...] = ("battlefield", "hand", "graveyard", "library", "exile", "command")
PERMANENT_TYPES = frozenset({"Artifact", "Creature", "Enchantment", "Land", "Planeswalker", "Battle"})
LKI_KEYS: tuple[str, ...] = ("card", "owner", "controller", "tapped", "sick", "counters", "damage", "attached_to",
                             "token", "conjured", "chosen")  # solver.io.load.LastKnownSpec's field order


class ResolutionUnsupported(ValueError):
    """The change needs behaviour the project does not model (raised during
    resolution, state-based actions or zone moves)."""


def ability_of(card: Card | None, index: int) -> ir.Ability | None:
    """The ``index``-th (1-based, printed order) triggered or activated ability of
    ``card`` (contract §1 ``ability``; mana abilities count as activated), or None."""
    if card is None:
        return None
    acts = ir.numbered_abilities(card.abilities)
    return acts[index - 1] if 1 <= index <= len(acts) else None


def _index_of(card: Card, ability: Any) -> int:
    acts = ir.numbered_abilities(card.abilities)
    for i, a in enumerate(acts):
        if a is ability:
            return i + 1
    return acts.index(ability) + 1


def _enchant(abilities: Iterable[Any]) -> Enchant | None:
    for a in abilities:
        if isinstance(a, Enchant):
            return a
    return None


def _is_aura(card: Card | None) -> bool:
    return card is not None and "Enchantment" in card.data.types and "Aura" in card.data.subtypes


def _is_permanent_card(card: Card | None) -> bool:
    return card is not None and bool(PERMANENT_TYPES & set(card.data.types))


def target_legal(view: View, source: "Any", spec: TargetSpec, target: str, out_of_game: Iterable[str] = ()) -> bool:
    """CR 608.2b: is ``target`` still a legal target for slot ``spec`` of the
    spell or ability described by ``source`` (a
    :class:`solver.rules.targeting.TargetingSource`, e.g. from
    :func:`solver.rules.targeting.stack_source`, which uses the source's last known
    information)?  The targeting rules' own checks, per target: the filter
    (zone — a target no longer in the zone it was in is illegal — types,
    controller, colors, mana value), hexproof, shroud and protection (CR
    702.11b, 702.18a, 702.16b), and CR 115.5; a player who has left the game
    is illegal. Flagbearer requirements play no part at resolution."""

    state = view.state
    if state.is_player(target):
        return target not in set(out_of_game) and player_matches(view, source, spec.filter, target) and \
            can_be_targeted(view, source, target)
    if target == source.self_id or state.find(target) is None:
        return False
    return object_matches(view, source, spec.filter, target) and can_be_targeted(view, source, target)


def trigger_target_choices(view: View, ability: TriggeredAbility | ir.Ward, source_id: str,
                           controller: str) -> list[tuple[tuple[str, ...], ...]]:
    """Every legal choice of targets for a triggered ability being put on the
    stack (CR 603.3d), from the targeting rules and their CP-SAT model
    (:func:`solver.rules.targeting.targeting_problem` with ``how: trigger``, so
    Flagbearer requirements don't apply); ``[()]`` for an ability without
    targets, ``[]`` when a required target has no legal candidate."""
    if not getattr(ability, "targets", ()):
        return [()]

    src = ability_source(view, source_id, ability, "triggered", controller=controller)
    answer = enumerate_choices(targeting_problem(view, src, chooser=controller, how="trigger"))
    return [tuple(tuple(g) for g in c) for c in answer.choices]


TriggerChoice = tuple["tuple[int, ...] | None", "tuple[tuple[str, ...], ...]"]


def trigger_choices(view: View, ability: TriggeredAbility | ir.Ward, source_id: str,
                    controller: str) -> list[TriggerChoice]:
    """Every legal ``(modes, targets)`` choice for a triggered ability being put on the stack: a modal one
    (CR 603.3c, 700.2) has each selection of modes the text allows whose chosen modes all have legal
    targets (700.2a), with each choice of those modes' targets (603.3d); ``modes`` None for an ability
    without modes, ``()`` when "choose up to N" chose none (the ability is then removed, 603.3c).
    ``[]``: no legal choice (removed)."""
    if not getattr(ability, "modes", ()):
        return [(None, c) for c in trigger_target_choices(view, ability, source_id, controller)]
    src = ability_source(view, source_id, ability, "triggered", controller=controller)
    assert src.modal is not None
    out: list[TriggerChoice] = []
    for sel in selections(src.modal):
        chosen = with_modes(src, sel)
        if not chosen.specs:
            out.append((sel, ()))
            continue
        answer = enumerate_choices(targeting_problem(view, chosen, chooser=controller, how="trigger"))
        out.extend((sel, tuple(tuple(g) for g in c)) for c in answer.choices)
    return out


# ===========================================================================
# The world: a mutable copy of the game while resolving
# ===========================================================================

@dataclass(frozen=True)
class _PendingTrigger:
    """A triggered ability waiting to be put on the stack (CR 603.3)."""

    source: str
    index: int
    controller: str
    ability: TriggeredAbility | ir.Ward
    last_known: tuple[tuple[str, Any], ...] = ()
    seq: int = 0
    refers_to: str | None = None  # the spell or ability on the stack it refers to (ward, CR 702.21a)
    event_object: str | None = None  # the object its trigger event named (CR 603.2; None once it moved, 400.7)
    event_player: str | None = None  # the player its trigger event named (CR 603.2)
    delayed: int = 0  # a delayed triggered ability (CR 603.7): which delayed instruction of ``index`` (0: the spell)
    it: str | None = None  # what the delayed instruction names (CR 603.7c)
    x: int = 0  # the X it has from its trigger (a cycle trigger: the X paid for the cycling cost, CR 702.29c)


class _World:
    """One branch of the resolution: the game as it is on this branch."""

    __slots__ = ("objects", "life", "effects", "shuffled", "known_top", "choices", "prob", "pending", "drew_empty",
                 "losers", "tick", "_view", "base", "notes", "fizzled", "deathtouched", "stamper", "pools", "day_night",
                 "life_lost", "rpool", "poison", "events", "prevention", "delayed", "extra_turns", "skip_combat",
                 "history", "spells_cast",
                 "created")

    def __init__(self, base: GameState):
        self.base = base
        self.objects: dict[str, GameObject] = {o.id: o for o in base.objects}
        self.life: dict[str, int] = {p.id: p.life for p in base.players}
        self.poison: dict[str, int] = {p.id: p.poison for p in base.players}   # poison counters (CR 122.1f)
        # life lost this turn, where the situation records it (CR 119.3, 702.137a; None: not recorded)
        self.life_lost: dict[str, int | None] = {p.id: p.life_lost_this_turn for p in base.players}
        self.effects: list[ContinuousEffectEntry] = list(base.effects)
        self.shuffled: set[str] = set(base.shuffled)
        # of a library in random order, how many cards on top are known (CR 701.24a; ``known_top``)
        self.known_top: dict[str, int] = dict(base.known_top)
        self.choices: dict[str, Any] = {}
        self.prob = Fraction(1)
        self.pending: list[_PendingTrigger] = []
        self.drew_empty: set[str] = set()
        self.losers: set[str] = set()
        self.tick = max([o.timestamp for o in base.objects] + [o.order for o in base.objects] + [0]) + 1
        self._view: View | None = None
        self.notes: set[str] = set()  # shared by every branch: what was not modeled
        self.fizzled = False  # CR 608.2b: every target illegal, the object did not resolve
        # CR 702.2b, 704.5h: creatures dealt damage by a source with deathtouch since the last SBA check
        self.deathtouched: set[str] = set()
        # where new timestamps come from (CR 613.7): the world's ticks, or the action applier's own count
        self.stamper: Callable[[], int] | None = None
        self.pools: dict[str, Mana] = dict(base.mana_pool)  # mana pools (a cost paid while resolving, CR 608.2g)
        self.rpool: RestrictedPool = base.restricted_pool   # restricted mana in the pools (CR 106.6)
        self.day_night: str | None = base.day_night  # the game's designation (CR 730.1)
        # what happened since triggers were last looked for (CR 603.2; :func:`dispatch_events`)
        self.events: list[GameEvent] = []
        self.prevention: list[PreventionShield] = list(base.prevention)  # prevention shields (CR 615.7)
        self.delayed: list[DelayedTrigger] = list(base.delayed)  # delayed triggered abilities (CR 603.7)
        self.extra_turns: list[str] = list(base.turn.extra_turns)  # extra turns after this one (CR 500.7)
        self.skip_combat: list[str] = list(base.turn.skip_combat)  # skipping their next combat phase (CR 614.10)
        # what happened this turn, where the situation records it (``turn.history``; None: not recorded)
        self.history: TurnHistory | None = base.turn.history
        # the spells each player cast this turn (``turn.spells_cast``, CR 730.2; None: not recorded): a spell cast
        # while something resolves (suspend, CR 702.62a) counts
        self.spells_cast: tuple[tuple[str, int], ...] | None = base.turn.spells_cast
        self.created: list[str] = []   # the tokens created in this change, in order (a delayed "exile it", CR 603.7c)

    def fork(self) -> "_World":
        w = _World.__new__(_World)
        w.base = self.base
        w.objects = dict(self.objects)
        w.life = dict(self.life)
        w.poison = dict(self.poison)
        w.life_lost = dict(self.life_lost)
        w.effects = list(self.effects)
        w.shuffled = set(self.shuffled)
        w.known_top = dict(self.known_top)
        w.choices = json.loads(json.dumps(self.choices))
        w.prob = self.prob
        w.pending = list(self.pending)
        w.drew_empty = set(self.drew_empty)
        w.losers = set(self.losers)
        w.tick = self.tick
        w._view = self._view
        w.notes = self.notes
        w.fizzled = self.fizzled
        w.deathtouched = set(self.deathtouched)
        w.stamper = self.stamper
        w.pools = dict(self.pools)
        w.rpool = self.rpool
        w.day_night = self.day_night
        w.events = list(self.events)
        w.prevention = list(self.prevention)
        w.delayed = list(self.delayed)
        w.extra_turns = list(self.extra_turns)
        w.skip_combat = list(self.skip_combat)
        w.history = self.history
        w.spells_cast = self.spells_cast
        w.created = list(self.created)
        return w

    # -- reading ------------------------------------------------------------
    def state(self) -> GameState:
        players = tuple(Player(p.id, self.life[p.id], self.poison[p.id], p.lost, self.life_lost[p.id])
                        for p in self.base.players)
        effects = tuple(replace(e, order=i) for i, e in enumerate(self.effects))
        turn = self.base.turn if (self.base.turn.history, self.base.turn.spells_cast) == (self.history, self.spells_cast) \
            else replace(self.base.turn, history=self.history, spells_cast=self.spells_cast)
        return replace(self.base, players=players, turn=turn, objects=tuple(self.objects.values()), effects=effects,
                       shuffled=tuple(p for p in self.base.player_ids if p in self.shuffled),
                       known_top=self.known_top_marks(),
                       mana_pool=self.mana_pool(), restricted_pool=self.rpool, day_night=self.day_night,
                       prevention=tuple(sorted(self.prevention, key=PreventionShield.sort_key)),
                       delayed=tuple(sorted(self.delayed, key=DelayedTrigger.sort_key)))

    def known_top_marks(self) -> tuple[tuple[str, int], ...]:
        """``known_top`` as a state holds it: players whose library is still in random order, sorted."""
        return tuple(sorted((p, n) for p, n in self.known_top.items() if n > 0 and p in self.shuffled))

    def known_order(self, player: str) -> None:
        """``player``'s library is known in order again (they saw all of it): no longer ``shuffled``."""
        self.shuffled.discard(player)
        self.known_top.pop(player, None)

    def random_library(self, player: str, what: str) -> bool:
        """Whether ``player``'s library is in random order (``shuffled``, CR 701.24). A library whose top
        cards are known above a random rest (``known_top``) is refused here: ``what`` the player does
        with it is modeled only for draws (:func:`draw_known_top`)."""
        if player not in self.shuffled:
            return False
        if self.known_top.get(player):
            raise ResolutionUnsupported(f"{player} {what}: the top {self.known_top[player]} card(s) of the library "
                                        "are known and the rest is in random order, which is modeled only for draws")
        return True

    def mana_pool(self) -> tuple[tuple[str, Mana], ...]:
        """The pools as a state holds them (the base's own value when no cost was paid from them)."""
        if self.pools == dict(self.base.mana_pool):
            return self.base.mana_pool
        return tuple((pid, self.pools[pid]) for pid in self.base.player_ids if self.pools.get(pid))

    def view(self) -> View:
        if self._view is None:
            self._view = View.of(self.state())
        return self._view

    def changed(self) -> None:
        self._view = None

    def next_tick(self) -> int:
        self.tick += 1
        return self.tick

    def new_timestamp(self) -> int:
        """A timestamp later than every other (CR 613.7d-e: an object entering a zone, an ability put on the stack)."""
        return self.stamper() if self.stamper is not None else self.next_tick()

    def taken_ids(self) -> set[str]:
        return set(self.objects) | set(self.base.player_ids)

    def zone_list(self, zone: str, key: str | None = None) -> list[GameObject]:
        out = [o for o in self.objects.values() if o.zone == zone and (
            key is None or (o.controller if zone == "battlefield" else o.owner) == key)]
        out.sort(key=lambda o: o.order)
        return out

    # -- writing ------------------------------------------------------------
    def put(self, o: GameObject) -> None:
        self.objects[o.id] = o
        self.changed()

    def add_choice(self, key: str, value: Any) -> None:
        """Append to a list-valued choice (``replacements``, ``triggers``)."""
        self.choices.setdefault(key, []).append(value)


def _lki_entries(o: GameObject) -> tuple[tuple[str, Any], ...]:
    """The last known information of a permanent leaving the battlefield, as
    contract ``last_known`` keys (only those that differ from the card as it
    will be in its new zone)."""
    items: dict[str, Any] = {}
    if o.controller != o.owner:
        items["controller"] = o.controller
    if o.tapped:
        items["tapped"] = True
    if o.counters:
        items["counters"] = tuple(sorted(o.counters))
    if o.damage:
        items["damage"] = o.damage
    if o.attached_to is not None:
        items["attached_to"] = o.attached_to
    if o.chosen:
        items["chosen"] = o.chosen  # "the chosen color" (CR 614.12): the new object has none
    return tuple((k, items[k]) for k in LKI_KEYS if k in items)


def _lki_object(o: GameObject, lki: tuple[tuple[str, Any], ...]) -> GameObject:
    """The source as it last existed on the battlefield (contract ``last_known``)."""
    d = dict(lki)
    kw: dict[str, Any] = {"zone": "battlefield"}
    for k, v in d.items():
        if k == "counters":
            kw[k] = tuple(sorted(v))
        else:
            kw[k] = v
    return o.with_(**kw)


# ===========================================================================
# Zone changes
# ===========================================================================

def move(w: _World, oid: str, zone: str, *, controller: str | None = None, timestamp: int | None = None,
         dies_ok: bool = True, **status: Any) -> GameObject:
    """The one zone change (CR 400.7): object ``oid`` goes to ``zone`` (its owner's, or under
    ``controller`` on the battlefield and the stack) and becomes a new object — untapped,
    uncountered, undamaged, unattached, out of combat (CR 506.4), with no choices, X, targets or
    last known information — on top of the stack / at the end (top) of the other lists, with a
    new timestamp (``timestamp`` keeps a given one: a card drawn or discarded, whose timestamp
    no rule reads, CR 613.7). ``status``: what the new object is as it arrives (``sick`` on the
    battlefield, a spell's ``x`` and ``targets`` on the stack, counters it is exiled with).

    What it records as it leaves the battlefield (CR 603.10a: leaves-the-battlefield abilities
    look back in time):

    * its last known information (CR 608.2h, 113.7a) on abilities from it on the stack or
      waiting to be put there (contract ``last_known``);
    * the "when this dies" abilities of a creature put into a graveyard (CR 700.4, 603.6c), queued
      in ``w.pending`` with that information (unless ``dies_ok`` is False) — to be put on the
      stack by :func:`put_triggers` the next time a player would receive priority (CR 603.3);
    * effects that named it, or that only applied to it, no longer apply to the new object;
      damage from a deathtouch source is forgotten (CR 400.7, 704.5h);
    * the parts of its card the project does not model (``w.notes``) — as it enters the
      battlefield too.

    Entering the battlefield (CR 110.2, 608.3), ``status`` is the permanent's status as it
    enters — ``controller``, ``tapped``, ``sick``, the ``counters`` it enters with (CR 614.1c,
    122.6), ``attached_to`` (an Aura, CR 303.4f), ``chosen`` (CR 614.12), ``token`` (a copy of a
    permanent spell, CR 608.3f) — the replacement effects that decide it having been applied by
    the caller (resolution's ``_enter_battlefield``, the action applier's ``play_land``)."""
    o = w.objects[oid]
    _forget_event_object(w, oid)
    if w.known_top and (o.zone == "library" or zone == "library"):
        _known_top_moves(w, o, zone)
    if o.zone == "hand" and zone == "graveyard":
        w.events.append(CardDiscarded(o.owner, oid))   # a discard (CR 701.9a): "whenever you discard a card"
    zone = leaving_zone(o, zone)   # an aftermath half leaving the stack, a disturb back face: exiled (CR 702.127a, 614.1a)
    if zone == "graveyard" and o.exile_if_dies and _would_die(w, o):
        zone = "exile"   # "if that creature would die this turn, exile it instead" (CR 614.1a, 700.4)
    if o.zone == "battlefield":
        _leave_battlefield(w, o, zone, dies_ok)
    elif zone == "battlefield":
        _detach_stale(w, oid)
        if w.prevention:
            _drop_shields_of(w, oid, entering=True)
    if o.zone == "stack":
        _forget_references(w, oid)
    _forget_bound(w, oid)
    if zone == "stack":
        order = min((x.order for x in w.objects.values() if x.zone == "stack"), default=0) - 1
    else:
        order = w.next_tick()
    # the new object is the card itself, front face up (CR 400.7, 712.8a, 712.14: a double-faced card
    # that changes zones is put there with its front face up, a flipped card unflipped, 710.5; a spell
    # cast as a face takes that face through ``status``: 715.3b, 709.3, 712.11b)
    new = o.with_(zone=zone, controller=controller or o.owner, tapped=False, sick=False, counters=(), damage=0,
                  attached_to=None, chosen=(), x=0, targets=None, copy=False, last_known=(), skip_untap=False,
                  exile_if_dies=False, order=order, timestamp=w.new_timestamp() if timestamp is None else timestamp, attacking=None,
                  blocking=(), blocked=False, refers_to=None, card=o.whole, front=None, melded_with=None,
                  on_adventure=False, prototyped=False, cast_with=None, regeneration_shields=0, kicked=0,
                  buyback=False, casualty=False, cast_before=None, sacrificed=(), monstrous=False,
                  control_reverts_to=None, exiled_until=None, exiled_by=None,
                  modes=None, may_play=None)   # 718.4: a card not prototyped unless cast so (status)
    if status:
        new = new.with_(**status)
    w.put(new)
    if o.melded_with is not None and o.zone == "battlefield":
        _unmeld(w, o, new, zone)
    if zone == "battlefield":
        new = _enter_day_night(w, new, "card" in status)
        _note_unsupported(w, new, "enters the battlefield")
        w.events.append(Entered(oid, new.tapped))  # CR 603.6a: enters-the-battlefield abilities of others (dispatch_events)
    if o.zone == "battlefield" and zone != "battlefield":
        _return_exiled_until(w, oid)
    return new


def _known_top_moves(w: _World, o: GameObject, zone: str) -> None:
    """``known_top`` (CR 401.4) as a card leaves a library whose top cards are known above a random rest:
    a known card leaving makes one fewer known; a card of the random rest leaving (a search, which
    shuffles after, CR 701.23a) leaves them as they are. A card put into such a library is refused: where
    it goes among known and random cards is its caller's, and no caller says."""
    if zone == "library" and o.zone != "library" and w.known_top.get(o.owner):
        raise ResolutionUnsupported(f"a card put into {o.owner}'s library, whose top cards are known above a "
                                    "random rest, is not modeled")
    k = w.known_top.get(o.owner, 0)
    if o.zone == "library" and k:
        top = [x.id for x in w.zone_list("library", o.owner)[:k]]
        if o.id in top:
            w.known_top[o.owner] = k - 1


def _would_die(w: _World, o: GameObject) -> bool:
    """CR 700.4: a creature or planeswalker put into a graveyard from the battlefield dies."""
    return o.zone == "battlefield" and bool(w.view().chars(o.id).types & {"Creature", "Planeswalker"})


def _return_exiled_until(w: _World, source: str) -> None:
    """CR 610.3c: the cards exiled "until this leaves the battlefield" return to the battlefield under their
    owners' control as ``source`` leaves (a one-shot effect, not a triggered ability): each through
    :func:`move`, as a new object (summoning sick, 302.6), its "enters tapped" applied and its "when this
    enters" abilities queued. What else could apply as it enters (counters, choices, an Aura's attachment) is
    refused, never guessed."""
    for x in sorted((o for o in w.objects.values() if o.exiled_until == source and o.zone == "exile"),
                    key=lambda o: o.id):
        abilities = x.card.abilities if x.card else ()
        if _is_aura(x.card) or any(isinstance(a, ir.EntersWith) and (a.counter or a.choose or a.pay_life)
                                      for a in abilities):
            raise ResolutionUnsupported(f"{x.id} returns to the battlefield (CR 610.3c) with an enters-with or an "
                                        "attachment choice, which is not modeled")
        tapped = any(isinstance(a, ir.EntersWith) and enters_tapped(w.view(), a, x, x.owner) for a in abilities)
        new = move(w, x.id, "battlefield", controller=x.owner, sick=True, tapped=tapped)
        queue_triggers(w, new, ir.EntersTrigger, w.view().chars(new.id).abilities)


def _unmeld(w: _World, o: GameObject, new: GameObject, zone: str) -> None:
    """CR 712.4c (701.42c): a melded permanent that leaves the battlefield is two cards — each put
    into the new zone front face up, as two new objects (the second one named after its card)."""
    assert o.melded_with is not None
    other = o.melded_with
    oid = _new_id(w, object_id_base(other.name))
    w.put(GameObject(id=oid, zone=zone, owner=o.owner, controller=o.owner, card=other,
                     order=w.next_tick() if zone != "stack" else new.order - 1, timestamp=w.new_timestamp()))


# ===========================================================================
# Faces: transforming, flipping, melding; day and night
# ===========================================================================

def has_keyword(o: GameObject, name: str) -> bool:
    """Whether the face ``o`` shows has keyword ``name`` (printed: daybound, nightbound)."""
    return o.card is not None and any(isinstance(a, ir.Keyword) and a.name == name for a in o.card.abilities)


def other_face(o: GameObject) -> tuple[Card, Card | None] | None:
    """``(card, front)`` of ``o`` turned over (CR 701.27a): a transforming double-faced card's back
    face with the card as its front, or, back face up, the card itself; None when it can't
    transform — not a transforming double-faced card or token (701.27c: a modal double-faced,
    flip or melded permanent neither), its other face unknown to the card data, or an instant or
    sorcery (701.27d)."""
    whole = o.whole
    if whole is None or whole.data.layout != "transform" or o.melded_with is not None:
        return None
    fs = faces(whole)
    if len(fs) < 2:
        return None
    card, front = (fs[1], whole) if o.front is None else (whole, None)
    if {"Instant", "Sorcery"} & set(card.data.types):
        return None
    return card, front


def transform(w: _World, oid: str, *, by_day_night: bool = False) -> bool:
    """The one transformation (CR 701.27a): permanent ``oid`` turns over to its other face and stays
    the same object (712.18: id, counters, damage, attachments, tapped, summoning sickness, combat
    status and the effects applying to it stay; 712.8d: the face's characteristics, 712.8e: its
    front face's mana value) with a new timestamp (613.7g). Nothing happens to a permanent that
    can't (:func:`other_face`), nor — unless ``by_day_night`` (702.145c, 702.145f) — to one with
    daybound or nightbound (702.145b, 702.145e). Returns whether it transformed."""
    o = w.objects.get(oid)
    if o is None or o.zone != "battlefield":
        return False
    if not by_day_night and (has_keyword(o, "daybound") or has_keyword(o, "nightbound")):
        return False
    turned = other_face(o)
    if turned is None:
        return False
    card, front = turned
    new = o.with_(card=card, front=front, timestamp=w.new_timestamp())
    w.put(new)
    _note_unsupported(w, new, "transforms")
    return True


def face_unread(o: GameObject) -> list[str]:
    """The unread parts of the face ``o`` shows that could act as it turns to that face — all but
    its activated abilities (which act only once activated, CR 602): a "When this creature
    transforms into …" trigger (CR 701.27b, 603.2), a static or replacement ability."""
    if o.card is None:
        return []
    return [u.text or u.what for u in o.card.unsupported if u.kind not in ("activated", "rider")]


def flip(w: _World, oid: str) -> bool:
    """CR 710: a flip card's permanent that flips shows its flipped face (its name, text, types,
    power and toughness), the same object; a flipped one stays flipped and a permanent that isn't a
    flip card doesn't flip. Returns whether it flipped."""
    o = w.objects.get(oid)
    if o is None or o.zone != "battlefield" or o.front is not None or o.card is None:
        return False
    fs = faces(o.card) if o.card.data.layout == "flip" else ()
    if len(fs) < 2:
        return False
    new = o.with_(card=fs[1], front=o.card)
    w.put(new)
    _note_unsupported(w, new, "flips")
    return True


def set_day_night(w: _World, value: str) -> None:
    """It becomes ``value`` (``day`` | ``night``, CR 730.1): as it becomes night, each permanent with
    daybound transforms; as it becomes day, each with nightbound (702.145c, 702.145f — not a
    state-based action, no stack)."""
    if w.day_night == value:
        return
    previous, w.day_night = w.day_night, value
    if previous is None:
        return
    turning = "daybound" if value == "night" else "nightbound"
    for oid in sorted(o.id for o in w.objects.values() if o.zone == "battlefield" and has_keyword(o, turning)):
        transform(w, oid, by_day_night=True)


def _enter_day_night(w: _World, new: GameObject, face_given: bool) -> GameObject:
    """CR 702.145: a permanent with daybound entering at night enters transformed (its nightbound face
    up; one that a face was given to, 712.14a, keeps it); one with daybound makes it day if it is
    neither (702.145d), one with nightbound night (702.145)."""
    if not face_given and w.day_night == "night" and has_keyword(new, "daybound"):
        turned = other_face(new)
        if turned is not None:
            new = new.with_(card=turned[0], front=turned[1])
            w.put(new)
    if w.day_night is None and has_keyword(new, "daybound"):
        w.day_night = "day"
    elif w.day_night is None and has_keyword(new, "nightbound"):
        w.day_night = "night"
    return new


def meld(w: _World, a: str, b: str, into: str, controller: str) -> str | None:
    """CR 701.42a-c, 712.4a: exile ``a`` and ``b``, then meld them into ``into`` — if both were exiled
    this way (two cards, not tokens) and they are the meld pair whose melded face is ``into``, they
    return to the battlefield as one permanent under ``controller``'s control (a new object, the
    melded face up: ``card`` the face, ``front`` ``a``'s card, ``melded_with`` ``b``'s); otherwise
    they stay in exile. Returns the melded permanent's id, or None."""
    oa, ob = w.objects.get(a), w.objects.get(b)
    if oa is None or ob is None or oa.zone != "battlefield" or ob.zone != "battlefield":
        return None
    ca, cb = oa.whole, ob.whole
    move(w, a, "exile")
    move(w, b, "exile")
    if ca is None or cb is None or oa.token or ob.token:
        return None
    face = next((f for f in faces(ca)[1:] if f.data.name.lower() == into.lower()), None)
    if ca.data.layout != "meld" or cb.data.layout != "meld" or face is None or \
            not any(f.data.name == face.data.name for f in faces(cb)[1:]):
        return None
    del w.objects[b]
    w.changed()
    move(w, a, "battlefield", controller=controller, sick=True, card=face, front=ca, melded_with=cb)
    return a


def count_spell(turn: Turn, player: str, players: Iterable[str]) -> Turn:
    """The turn record after ``player`` cast a spell (CR 601.2i), when its spells are recorded
    (``turn.spells_cast``, for CR 730.2); unrecorded stays unrecorded."""
    if turn.spells_cast is None:
        return turn
    return replace(turn, spells_cast=counted_cast(turn.spells_cast, player, players))


def counted_cast(spells_cast: tuple[tuple[str, int], ...], player: str, players: Iterable[str]
                 ) -> tuple[tuple[str, int], ...]:
    """``turn.spells_cast`` with one more spell of ``player`` (CR 601.2i, 730.2)."""
    counts = dict(spells_cast)
    counts[player] = counts.get(player, 0) + 1
    return tuple((p, counts[p]) for p in players if counts.get(p))


def record_attack(state: GameState, player: str, attackers: int) -> GameState:
    """The state after ``player`` declared ``attackers`` attacking creatures (CR 508.1), counted in the
    turn's history when it is recorded (``turn.history``: "if you attacked [with N or more creatures]
    this turn"); unrecorded stays unrecorded."""
    h = state.turn.history
    if h is None or attackers <= 0:
        return state
    return replace(state, turn=replace(state.turn, history=h.add(state.player_ids, attacked=(player, attackers))))


#: Where a created object is between its creation and its arrival in its zone (:func:`create`).
CREATED = "created"


def create(w: _World, card: Card, owner: str, *, token: bool = False, conjured: bool = False) -> str:
    """Creation, not a zone change (CR 111.1, 400.7; conjure: rules reference §1.12): a new
    object — a token (``token``) or a new card (``conjured``) — comes into existence, owned and
    controlled by ``owner``; it left no zone, so nothing looks back at it (no last known
    information, no leaves-the-battlefield abilities). Returns its id (the card's name as an id,
    made unique). It is nowhere yet (zone :data:`CREATED`): the caller puts it where the effect
    says through :func:`move` — onto the battlefield through resolution's ``_enter_battlefield``
    (its enters-with replacements, CR 614.1c; "when this enters" abilities, CR 603.6a)."""
    oid = _new_id(w, _id_base(card.name))
    w.put(GameObject(id=oid, zone=CREATED, owner=owner, controller=owner, card=card, token=token,
                     conjured=conjured, order=w.next_tick(), timestamp=w.next_tick()))
    return oid


def _detach_stale(w: _World, oid: str) -> None:
    """CR 400.7: an object entering the battlefield is a new object — what was attached to the card
    while it was last a permanent (it keeps its id here) is not attached to it: an Aura so left goes to
    the graveyard (704.5m), an Equipment stays unattached (301.5c). Its last known information keeps
    what it was attached to."""
    for a in [x for x in w.objects.values() if x.attached_to == oid and x.zone == "battlefield"]:
        attach(w, a.id, None)


def _leave_battlefield(w: _World, o: GameObject, zone: str, dies_ok: bool) -> None:
    """What a permanent leaving the battlefield records (:func:`move`)."""
    oid = o.id
    c = w.view().chars(oid)
    lki = _lki_entries(o)
    if o.attached_to is not None and o.attached_to not in w.objects and o.attached_to not in w.life:
        lki = tuple(kv for kv in lki if kv[0] != "attached_to")  # it was attached to a token that ceased to exist
    _note_unsupported(w, o, "leaves the battlefield")
    # abilities from this source on the stack or waiting: remember its last known information
    for sid, so in list(w.objects.items()):
        if so.zone == "stack" and so.ability is not None and so.ability.source == oid and not so.last_known:
            w.objects[sid] = so.with_(last_known=lki)
    w.pending = [replace(p, last_known=lki) if p.source == oid and not p.last_known else p for p in w.pending]
    if zone == "graveyard" and dies_ok and o.card is not None:
        # leaves-the-battlefield abilities look back (CR 603.10a); "dies" is a creature's (700.4), "is put
        # into a graveyard from the battlefield" any permanent's
        live = c.abilities if c.is_creature else [a for a in c.abilities if _any_permanent_dies(a)]
        queued = {id(p) for p in queue_triggers(w, o, ir.DiesTrigger, live, lki)}
        # the card it became in the graveyard, which "return it to its owner's hand" names (CR 400.7d)
        w.pending = [replace(p, event_object=oid) if id(p) in queued and "event_object" in event_refs_used(p.ability)
                     else p for p in w.pending]
    if zone == "graveyard" and dies_ok and c.is_creature and w.history is not None:
        w.history = w.history.add(w.base.player_ids, died=1)   # "if a creature died this turn" (CR 700.4)
    w.events.append(LeftBattlefield(o, zone, c.is_creature, dies_ok, c, c.abilities))  # CR 603.10a
    _drop_from_effects(w, oid)
    if w.prevention:
        _drop_shields_of(w, oid)
    w.deathtouched.discard(oid)  # CR 400.7: the new object was not dealt that damage



_move = move


def _forget_references(w: _World, oid: str) -> None:
    """CR 400.7: ``oid`` leaves the stack; an ability that referred to it ("that spell or ability",
    ward, CR 702.21a) no longer finds it (object key ``refers_to`` dropped), nor does one waiting."""
    for sid, so in list(w.objects.items()):
        if so.refers_to == oid:
            w.objects[sid] = so.with_(refers_to=None)
    w.pending = [replace(p, refers_to=None) if p.refers_to == oid else p for p in w.pending]
    w.changed()


def _forget_event_object(w: _World, oid: str) -> None:
    """CR 400.7: ``oid`` changes zones and becomes a new object; a triggered ability whose trigger
    event named it ("put a +1/+1 counter on it") no longer finds it (object key ``event_object``
    dropped), on the stack or waiting."""
    if any(so.event_object == oid for so in w.objects.values()):
        for sid, so in list(w.objects.items()):
            if so.event_object == oid:
                w.objects[sid] = so.with_(event_object=None)
        w.changed()
    w.pending = [replace(p, event_object=None) if p.event_object == oid else p for p in w.pending]


def _any_permanent_dies(a: Any) -> bool:
    """A "when this is put into a graveyard from the battlefield" ability (:class:`ir.DiesTrigger`
    ``any_permanent``), alone or as one event of an "or"."""
    t = getattr(a, "trigger", None)
    parts = t.events if isinstance(t, ir.EitherTrigger) else (t,)
    return any(isinstance(p, ir.DiesTrigger) and p.any_permanent for p in parts)


def queue_triggers(w: _World, source: GameObject, event: type[ir.Trigger], live: Iterable[Any],
                   last_known: tuple[tuple[str, Any], ...] = (), refers_to: str | None = None, x: int = 0
                   ) -> list[_PendingTrigger]:
    """CR 603.2: the triggered abilities of ``source`` on ``event`` that it has (``live``: its
    abilities after continuous effects; one it lost, CR 613, does not trigger) wait in
    ``w.pending`` to be put on the stack (:func:`put_triggers`), numbered as the stack names
    them (contract §1). ``refers_to``: the spell or ability on the stack the abilities refer to
    (``becomes_target``: the one that targets ``source``, ward, CR 702.21a). An ability with an intervening
    "if" on how its source was cast (``if_cast``: evoke's sacrifice, CR 603.4, 702.74a) triggers only if it holds."""
    if source.card is None:
        return []
    have = list(live)
    out = []
    for a in source.card.abilities:
        cls = _trigger_event(a)
        if cls is not None and issubclass(cls, event) and a in have and \
                condition_met(w.view(), a, source, source.controller):  # an intervening "if" (CR 603.4)
            assert isinstance(a, (TriggeredAbility, ir.Ward))
            if isinstance(a, TriggeredAbility) and a.if_cast and not cast_as(source, a.if_cast):
                continue   # CR 603.4: an intervening "if" on how it was cast (evoke, 702.74a) that is false
            out.append(_PendingTrigger(source.id, _index_of(source.card, a), source.controller, a, last_known,
                                       w.next_tick(), refers_to, x=x))
    w.pending.extend(out)
    return out


def dispatch_events(w: _World) -> list[_PendingTrigger]:
    """CR 603.2, 603.10a: the triggered abilities the events recorded on ``w`` since the last call
    trigger (:func:`solver.rules.triggers.times_triggered`: once each time) wait in ``w.pending``.
    The events of one call happened together — one instruction of a resolving spell or ability, one
    action, one round of state-based actions — so the abilities that look at them are those of the
    permanents on the battlefield after them (CR 603.6a) and, for permanents leaving, of those that
    left with them, as they last existed (CR 603.10a, with their last known information).
    Returns the abilities queued, in the order of the events, then of the observers."""
    if not w.events:
        return []
    events, w.events = w.events, []
    delayed = _delayed_cast_triggers(w, events)   # "whenever you cast … this turn" (CR 603.7b)
    watching = [o for o in w.objects.values() if o.zone == "battlefield" and _has_event_triggers(o.card)]
    watching += [e.before for e in events if isinstance(e, LeftBattlefield) and _has_event_triggers(e.before.card)]
    watching += [s for e in events if isinstance(e, SpellCast) and (s := w.objects.get(e.stack_id)) is not None
                 and _has_event_triggers(s.card)]
    if not watching:
        return delayed      # nothing else looks at these events: no view to build
    view = w.view()
    observers: list[tuple[GameObject, tuple[Any, ...], tuple[tuple[str, Any], ...]]] = []
    for o in sorted(w.objects.values(), key=lambda x: (x.order, x.id)):
        if o.zone == "battlefield" and _has_event_triggers(o.card):
            observers.append((o, view.chars(o.id).abilities, ()))
    for e in events:
        if isinstance(e, LeftBattlefield) and _has_event_triggers(e.before.card):
            observers.append((e.before, e.abilities, _lki_entries(e.before)))
        elif isinstance(e, SpellCast) and (spell := w.objects.get(e.stack_id)) is not None \
                and _has_event_triggers(spell.card):
            observers.append((spell, view.chars(spell.id).abilities, ()))   # "when you cast this spell" (113.6c)
    out: list[_PendingTrigger] = []
    once: set[tuple[str, int, Any]] = set()   # "is dealt damage": once per batch (CR 603.2c)
    for e in events:
        for o, live, lki in observers:
            assert o.card is not None
            for a in o.card.abilities:
                if not isinstance(a, TriggeredAbility) or not is_event_trigger(a) or a not in live \
                        or not condition_met(view, a, o, o.controller) \
                        or (a.if_cast and not cast_as(o, a.if_cast)):   # CR 603.4: how it was cast (casualty)
                    continue
                assert isinstance(a, TriggeredAbility)  # is_event_trigger
                used = event_refs_used(a)
                subjects = event_subjects(a.trigger, e, o, view, w.base.opponents(o.controller))
                key = batch_key(a.trigger, e)
                if subjects and key is not None:   # once per batch (CR 603.2c)
                    if (o.id, id(a), key) in once:
                        continue
                    once.add((o.id, id(a), key))
                    subjects = subjects[:1]
                for obj, player in subjects:
                    obj = obj if "event_object" in used else None
                    player = player if "event_player" in used else None
                    out.append(_PendingTrigger(o.id, _index_of(o.card, a), o.controller, a, lki, w.next_tick(),
                                               event_object=obj, event_player=player))
    w.pending.extend(out)
    return delayed + out


def _delayed_cast_triggers(w: _World, events: list[GameEvent]) -> list[_PendingTrigger]:
    """CR 603.7b-c: the "whenever you cast … this turn" / "when you next cast … this turn" delayed triggered
    abilities in force (records of step ``cast`` / ``next_cast``) that the spells cast among ``events``
    trigger, queued in ``w.pending`` with their controller (603.7d); a ``next_cast`` record triggers once and
    is removed. The ability is its instruction (:class:`ir.DelayedCast`); a source that no longer has it is
    refused."""
    records = [t for t in w.delayed if t.step in ir.CAST_DELAYED_STEPS]
    casts = [e for e in events if isinstance(e, SpellCast)]
    if not records or not casts:
        return []
    view = w.view()
    out: list[_PendingTrigger] = []
    used: list[DelayedTrigger] = []
    for e in casts:
        for t in records:
            if t in used:
                continue
            d = _cast_instruction(w, t)
            observer = w.objects[t.source].with_(controller=t.controller)   # "you": its controller (603.7d)
            assert d.trigger is not None
            if not event_subjects(d.trigger, e, observer, view, w.base.opponents(t.controller)):
                continue
            ability = TriggeredAbility(d.trigger, effects=d.effects, text=d.describe())
            out.append(_PendingTrigger(t.source, t.ability, t.controller, ability, (), w.next_tick(), delayed=t.index))
            if d.once:
                used.append(t)
    w.delayed = [t for t in w.delayed if t not in used]
    w.pending.extend(out)
    return out


def _cast_instruction(w: _World, t: DelayedTrigger) -> ir.DelayedCast:
    """The :class:`ir.DelayedCast` instruction record ``t`` names (CR 603.7a), or refused."""
    src = w.objects.get(t.source)
    found = ir.delayed_of(src.card, t.ability) if src is not None and src.card is not None else []
    d = found[t.index - 1] if len(found) >= t.index else None
    if not isinstance(d, ir.DelayedCast):
        raise UnsupportedCase(f"unsupported: the delayed triggered ability of '{t.source}' (CR 603.7): its source "
                              "no longer has the instruction that created it")
    return d


def _has_event_triggers(card: Card | None) -> bool:
    """Whether the card has a printed triggered ability the kernel dispatches from events (once per card)."""
    return card is not None and card.memo.get(("event_triggers",), lambda: any(is_event_trigger(a)
                                                                              for a in card.abilities))


def _has_step_triggers(card: Card | None) -> bool:
    """Whether the card has a printed "at the beginning of <step>" ability (once per card)."""
    return card is not None and card.memo.get(("step_triggers",), lambda: any(
        isinstance(a, TriggeredAbility) and isinstance(a.trigger, ir.StepTrigger) for a in card.abilities))


def event_triggers(state: GameState, events: Iterable[GameEvent]) -> list[_PendingTrigger]:
    """The triggered abilities ``events`` trigger in ``state`` (the game just after them;
    :func:`dispatch_events`): the turn engine's events — attackers and blockers declared, the draw
    step's card (CR 508.3a, 509.3c–d, 504.1)."""
    if not any(_has_event_triggers(o.card) for o in state.battlefield):
        return []      # nothing on the battlefield looks at them (their events name no other object)
    w = _World(state)
    w.events = list(events)
    return dispatch_events(w)


def step_triggers(state: GameState, step: str) -> list[_PendingTrigger]:
    """CR 603.2b: the "at the beginning of <step>" abilities of permanents (:class:`ir.StepTrigger`,
    :func:`solver.rules.triggers.step_fires`) that trigger as ``step`` of the active player's turn
    begins, in the order of the battlefield; then those of cards in exile that function there (suspend's
    upkeep ability, CR 113.6, 702.62a: its controller is the card's owner), in the order of exile."""
    exiled = [o for o in state.zone("exile") if _has_step_triggers(o.card)]
    if not exiled and not any(_has_step_triggers(o.card) for o in state.battlefield):
        return []      # no view to build
    view = View.of(state)
    out: list[_PendingTrigger] = []
    for o in list(state.battlefield) + exiled:
        out += _object_step_triggers(view, o, step, len(out))
    return out


def _object_step_triggers(view: View, o: GameObject, step: str, seq: int) -> list[_PendingTrigger]:
    """The step triggers of one object: a permanent's that function on the battlefield, an exiled card's
    that function in exile (CR 113.6), each with its intervening "if" (CR 603.4)."""
    if o.card is None:
        return []
    on_bf = o.zone == "battlefield"
    live = view.chars(o.id).abilities if on_bf else o.card.abilities
    controller = o.controller if on_bf else o.owner
    out: list[_PendingTrigger] = []
    state = view.state
    for a in o.card.abilities:
        if isinstance(a, TriggeredAbility) and a in live and isinstance(a.trigger, ir.StepTrigger) and \
                a.trigger.zone == o.zone and \
                step_fires(a.trigger, step, state.turn.active, controller, state.opponents(controller)) and \
                condition_met(view, a, o, controller):  # an intervening "if" (CR 603.4)
            seq += 1
            out.append(_PendingTrigger(o.id, _index_of(o.card, a), controller, a, (), seq))
    return out


def change_control(w: _World, oid: str, player: str, *, until_eot: bool = False) -> None:
    """CR 613.1b: ``player`` controls permanent ``oid`` now, by a control-changing effect — the latest one
    wins (613.7); ``until_eot``: the control it had goes back as the effect ends at cleanup (514.2, kept in
    ``control_reverts_to``); an indefinite one outlasts the earlier "until end of turn" ones. A permanent
    whose controller changes is removed from combat (506.4) and is new to its controller (302.6: ``sick``)."""
    o = w.objects[oid]
    reverts = (o.control_reverts_to or o.controller) if until_eot else None
    if reverts == player:
        reverts = None
    if o.controller == player:   # no change of control (302.6); an indefinite effect still decides it (613.7)
        w.put(o.with_(control_reverts_to=reverts))
        return
    w.put(o.with_(controller=player, control_reverts_to=reverts, sick=True, attacking=None, blocking=()))


def control_ends(state: GameState) -> GameState:
    """CR 514.2: as "until end of turn" effects end at cleanup, each permanent under a control-changing one
    goes back to the control it had (``control_reverts_to``), new to that player (302.6: ``sick``)."""
    if not any(o.control_reverts_to is not None for o in state.objects):
        return state
    objs = tuple(o.with_(controller=o.control_reverts_to, control_reverts_to=None, sick=True)
                 if o.control_reverts_to is not None else o for o in state.objects)
    return replace(state, objects=objs)


def _forget_bound(w: _World, oid: str) -> None:
    """CR 400.7, 603.7c: an object that changes zones is a new object — a delayed triggered ability that
    remembered it (a record in force, or the ability on the stack) no longer finds it."""
    if any(t.it == oid for t in w.delayed):
        w.delayed = [replace(t, it=None) if t.it == oid else t for t in w.delayed]
    for so in list(w.objects.values()):
        if so.it == oid and so.zone == "stack":
            w.objects[so.id] = so.with_(it=None)


def delayed_fires(t: DelayedTrigger, step: str, turn: Turn) -> bool:
    """CR 603.7b: whether delayed trigger ``t`` triggers as ``step`` of ``turn`` begins — "the next end
    step": any end step that begins while it is in force (this turn's too if it hadn't begun as it was
    created); "the next turn's upkeep": the upkeep of a later turn; "your next upkeep": of a later turn of
    its controller."""
    if t.step != step:
        return False
    if step == "upkeep":
        return turn.number > t.turn and (t.whose == "any" or turn.active == t.controller)
    return True


def delayed_triggers(state: GameState, step: str) -> tuple[GameState, list[_PendingTrigger]]:
    """CR 603.7a-c: the delayed triggered abilities in force (``state.delayed``) that trigger as ``step``
    begins, waiting to be put on the stack by their controllers (603.7d), and the state without them: each
    triggers only once (603.7c). The ability is the delayed instruction its record names
    (:func:`solver.core.ir.delayed_of`); a source no longer in the game, or whose card no longer has it
    (a spell's face or copy gone, CR 707.10a), is refused."""
    fired = [t for t in state.delayed if delayed_fires(t, step, state.turn)]
    if not fired:
        return state, []
    out: list[_PendingTrigger] = []
    for n, t in enumerate(fired, start=1):
        src = state.find(t.source)
        found = ir.delayed_of(src.card, t.ability) if src is not None and src.card is not None else []
        if len(found) < t.index:
            raise UnsupportedCase(f"unsupported: the delayed triggered ability of '{t.source}' (CR 603.7): its "
                                  "source no longer has the instruction that created it")
        ability = TriggeredAbility(ir.StepTrigger(step, "each"), effects=found[t.index - 1].effects,
                                   text=found[t.index - 1].describe())
        out.append(_PendingTrigger(t.source, t.ability, t.controller, ability, (), 1000 + n, delayed=t.index,
                                   it=t.it))
    left = tuple(t for t in state.delayed if t not in fired)   # fired records are removed (603.7c)
    return replace(state, delayed=left), out


def _trigger_event(a: Any) -> type[ir.Trigger] | None:
    """The trigger event class of a triggered ability that uses the stack (CR 603.1): a read
    trigger's, or a keyword's (ward: :class:`ir.BecomesTargetTrigger`, CR 702.21a)."""
    if isinstance(a, TriggeredAbility):
        return type(a.trigger)
    if isinstance(a, ir.Ward):
        return a.trigger
    return None


def queue_target_triggers(w: _World, stack_id: str) -> list[_PendingTrigger]:
    """CR 115.1, 603.2, 702.21a: spell or ability ``stack_id`` was just cast, activated or put on the
    stack with its targets; each permanent among them (once, however many times it is targeted)
    whose controller is an opponent of the object's controller has its ``becomes_target`` abilities
    (ward) queued, referring to ``stack_id``."""
    so = w.objects[stack_id]
    out: list[_PendingTrigger] = []
    seen: set[str] = set()
    for group in so.targets or ():
        for t in group:
            o = w.objects.get(t)
            if t in seen or o is None or o.zone != "battlefield" or o.card is None:
                continue
            seen.add(t)
            if o.controller == so.controller or o.controller not in w.base.opponents(so.controller):
                continue
            if not any(_trigger_event(a) is ir.BecomesTargetTrigger for a in o.card.abilities):
                continue
            out += queue_triggers(w, o, ir.BecomesTargetTrigger, w.view().chars(t).abilities, refers_to=stack_id)
    return out


def change_life(w: _World, player: str, amount: int) -> None:
    """CR 119.3-119.4: ``player`` gains (``amount`` > 0) or loses life — damage, a payment of life and
    a loss alike (120.3a, 119.4); a loss counts toward the life they lost this turn where the situation
    records it (``life_lost_this_turn``; spectacle, 702.137a)."""
    w.life[player] += amount
    if amount > 0:
        w.events.append(LifeGained(player, amount))  # CR 119.9: "whenever you gain life"
        if w.history is not None:   # "if you gained life this turn" (CR 119.3)
            w.history = w.history.add(w.base.player_ids, gained=(player, amount))
    lost = w.life_lost.get(player)
    if amount < 0 and lost is not None:
        w.life_lost[player] = lost - amount
    w.changed()


def give_poison(w: _World, player: str, n: int) -> None:
    """CR 122.1f: ``player`` gets ``n`` poison counters (infect's damage, CR 702.90b; toxic, 702.164b);
    ten or more lose the game at the next state-based action check (704.5c)."""
    if n > 0:
        w.poison[player] += n
        w.changed()


def adjust_counters(w: _World, oid: str, counters: Iterable[tuple[str, int]]) -> None:
    """CR 122.1: put (positive) or remove (negative) counters on ``oid``; none is left below zero."""
    o = w.objects[oid]
    now = dict(o.counters)
    for kind, n in counters:
        now[kind] = now.get(kind, 0) + n
    w.put(o.with_(counters=tuple(sorted((k, v) for k, v in now.items() if v > 0))))


def pay(w: _World, player: str, payment: Payment) -> list[_PendingTrigger]:
    """The one payment of a cost (CR 601.2g-h, 602.2b, 605.3a, 118.3): ``player`` pays as
    ``payment`` (a distinct payment of the payment model, contract §2.3) describes — as a spell is
    cast or an ability activated (the action applier, :mod:`solver.engine.apply`) or while a spell
    or ability resolves (ward's "unless that player pays", CR 608.2g, 702.21a). Permanents tapped
    (their "becomes tapped" abilities queued in ``w.pending``, and returned) and untapped, counters
    removed and put (CR 122.1), kept tapped through the next untap step (``skip_untap``, CR 502.3),
    per-turn uses counted (CR 602.5b), permanents sacrificed through :func:`move` (dies abilities
    queued, CR 700.4), life paid and damage taken (CR 119.4, 120.3a), life gained or lost by mana
    abilities' riders (CR 605.1a), cards drawn through :func:`draw` (CR 121.1), the pools
    (``w.pools``, and ``w.rpool`` for restricted mana, CR 106.6) left as it says.

    Raises :class:`ResolutionUnsupported` for what a situation can't hold or the payment doesn't
    determine: restricted mana whose restriction can't be written (CR 106.6), a card discarded whose unread text acts as
    it is discarded (:func:`discard_unread`, CR 702.35a), counters put with counter replacement effects
    in force (CR 614.1a, 616), cards drawn from a shuffled library or one listing too few cards.
    Cards exiled, discarded or returned by a casting cost move through :func:`move` (:func:`_pay_cards`)."""
    if payment.restricted_pool_after or w.rpool:
        _restricted_pool_after(w, player, payment)
    for oid in payment.discard:
        unread = discard_unread(w.objects[oid])
        if unread:
            raise ResolutionUnsupported(f"{player} discards {oid} to pay a cost; not modeled: {'; '.join(unread)}")
    if payment.add_counters and w.view().counter_replacements:
        raise ResolutionUnsupported("counters put on a permanent by a mana ability with counter replacement "
                                    "effects in force (CR 614.1a, 616) are not modeled")
    live = {oid: w.view().chars(oid).abilities for oid in payment.tap}  # the abilities they have now (CR 613)
    tapped: list[_PendingTrigger] = []
    for oid in payment.tap:
        w.put(w.objects[oid].with_(tapped=True))
        tapped += queue_triggers(w, w.objects[oid], ir.BecomesTappedTrigger, live[oid])
    for oid in payment.untap:
        w.put(w.objects[oid].with_(tapped=False))
    for oid, counters in payment.remove_counters:
        adjust_counters(w, oid, [(kind, -n) for kind, n in counters])
    for oid in payment.skip_untap:
        w.put(w.objects[oid].with_(skip_untap=True))
    for oid, counters in payment.add_counters:
        adjust_counters(w, oid, counters)
    for oid, uses in payment.activated:
        done = dict(w.objects[oid].activated_this_turn)
        for index, n in uses:
            done[index] = done.get(index, 0) + n
        w.put(w.objects[oid].with_(activated_this_turn=tuple(sorted(done.items()))))
    for oid in payment.sacrifice:  # CR 701.21a; a creature dies: its dies abilities wait (CR 700.4, 603.10a)
        move(w, oid, "graveyard")
    _pay_cards(w, payment)
    change_life(w, player, -(payment.life + payment.damage))
    for pid, n in payment.life_gained:
        change_life(w, pid, n)
    for pid, n in payment.life_lost:
        change_life(w, pid, -n)
    _pay_draws(w, player, payment.draw)
    after = dict(payment.pool_after)
    for pid in set(w.pools) | set(after) | {player}:
        if pid == player or pid in after:
            w.pools[pid] = Mana.parse(after.get(pid, ""))
    w.changed()
    return tapped


def _restricted_pool_after(w: _World, player: str, payment: Payment) -> None:
    """The restricted mana in ``player``'s pool after the payment (CR 106.6: it keeps its restriction),
    as ``restricted_pool_after`` lists it — the whole of it, the payment model's account of what was
    there and what was made (:mod:`models.payment`). Refused when a restriction does not read back the
    same from its text (one that belongs to a source, "of the chosen type"): a situation can't hold it."""
    entries = [e for e in w.rpool if e[0] != player]
    for pid, mana, why in payment.restricted_pool_after:
        r = read_spend_restriction(why)
        if r is None:
            raise ResolutionUnsupported(f"this payment leaves restricted mana in the pool ({mana}: {why}), which a "
                                        "situation can't hold")
        entries.append((pid, Mana.parse(mana), r))
    w.rpool = restricted_pool_of(entries)


#: Unread text of a card that could act as it is discarded (CR 702.35 madness; "causes you to discard").
DISCARD_WORDS = re.compile(r"\bdiscard|\bmadness\b")


def discard_unread(o: GameObject) -> list[str]:
    """The unread parts of ``o``'s card that could act as it is discarded (madness, CR 702.35a; "if a
    spell or ability an opponent controls causes you to discard this card"): a discard of it is refused."""
    return [u.text or u.what for u in (o.card.unsupported if o.card else ())
            if DISCARD_WORDS.search((u.text or u.what).lower())]


def _pay_cards(w: _World, payment: Payment) -> None:
    """The cards a casting cost moves (CR 601.2h, 118.3), each through :func:`move`: exiled from the
    hand or the graveyard (an alternative cost's "exile a blue card from your hand", escape, delve —
    CR 118.9, 702.138a, 702.66a), discarded to its owner's graveyard keeping its timestamp (CR 701.9a,
    as :func:`discard`), permanents returned to their owner's hand (CR 118.9: Daze's Island)."""
    for oid in payment.exile:
        move(w, oid, "exile")
    for oid in payment.discard:
        move(w, oid, "graveyard", timestamp=w.objects[oid].timestamp)
    for oid in payment.returned:
        move(w, oid, "hand")


def _pay_draws(w: _World, player: str, n: int) -> None:
    """CR 121.1: the cards a payment draws (a mana ability's rider), the top ``n`` of ``player``'s
    library. Refused when the cards are not known from the situation: a shuffled library (a random
    card) or one listing fewer cards (an unlisted library is indistinguishable from an empty one,
    and drawing from an empty library is a loss, CR 704.5b)."""
    if not n:
        return
    if player in w.shuffled and w.known_top.get(player, 0) < n:
        raise ResolutionUnsupported(f"the payment draws {n} card(s) from {player}'s shuffled library "
                                    "(a random card), which is not chosen for them")
    listed = len(w.zone_list("library", player))
    if listed < n:
        raise ResolutionUnsupported(f"the payment draws {n} card(s) but {player}'s library lists "
                                    f"{listed}: the cards drawn are not known")
    for _ in range(n):
        draw(w, player)


def _only_affects_its_source(e: ContinuousEffectEntry, source: GameObject) -> bool:
    """An ability's effect entry whose effects all apply to "this object" (Icehide
    Troll's +2/+0 and indestructible)."""
    ab = ability_of(source.card, e.ability.index) if e.ability is not None else None
    effs = [x for x in getattr(ab, "effects", ()) if isinstance(x, (ir.Pump, ir.UntilEndOfTurn, ir.GroupPump, ir.ThisTurn,
                                                                           ir.GroupThisTurn, ir.Animate, ir.GroupAnimate))]
    return bool(effs) and all(isinstance(x, (ir.Pump, ir.ThisTurn, ir.Animate)) and x.to.kind == "self" for x in effs)


def _drop_from_effects(w: _World, oid: str) -> None:
    """CR 400.7: an object that changes zones is a new object; effects that
    named it as a target, or an ability's effects on "this object", no longer
    apply to it (entries left affecting nothing are removed)."""
    out = []
    src = w.objects.get(oid)
    for e in w.effects:
        if e.ability is not None and e.ability.source == oid and src is not None and _only_affects_its_source(e, src):
            continue
        if e.targets is not None and any(oid in g for g in e.targets):
            e = replace(e, targets=tuple(tuple(t for t in g if t != oid) for g in e.targets))
            if not any(e.targets or ()) and not any(e.affected or ()):
                continue
        if e.event_object == oid:   # CR 400.7: the object its trigger event named is gone
            e = replace(e, event_object=None)
            if not any(e.targets or ()) and not any(e.affected or ()):
                continue
        if e.affected is not None and any(oid in g for g in e.affected):   # CR 611.2c: a fixed set
            e = replace(e, affected=tuple(tuple(t for t in g if t != oid) for g in e.affected))
            if not any(e.targets or ()) and not any(e.affected or ()):
                continue
        out.append(e)
    w.effects = out


def _note_unsupported(w: _World, o: GameObject, when: str) -> None:
    """Record the parts of a card the project does not model, for an object
    that enters or leaves the battlefield (they might have mattered)."""
    if o.card is None:
        return
    for u in o.card.unsupported:
        if u.kind in ("activated", "rider"):
            continue   # an activated ability (or its rider) acts only once activated, not as it moves (CR 602)
        if when == "enters the battlefield" and how_it_enters(u.text or u.what):
            # "As this land enters, you may reveal …", "You may have ~ enter as a copy …": an unread replacement
            # of how it enters (CR 614.1c, 614.12) changes this very outcome — refused, never noted
            raise ResolutionUnsupported(f"{o.id} {when}; not modeled: {u.what}")
        w.notes.add(f"{o.id} {when}; not modeled: {u.what}")


def _cease(w: _World, oid: str, resolving: str | None = None) -> None:
    """A token or copy ceases to exist (CR 704.5d, 704.5e, 111.7).

    ``resolving``: the stack object now resolving; its own targets don't
    matter any more (it leaves the stack as it finishes, CR 608.2n).

    An ability from it still waiting or on the stack exists independently of
    it (CR 113.7a), but a situation file can only name an ability's source by
    an object in the game (contract §1), so that case is reported unsupported
    rather than written as a situation that would not load."""
    for so in list(w.objects.values()):
        if so.id == oid:
            continue
        if so.id == resolving and so.zone == "stack":
            continue
        if so.ability is not None and so.ability.source == oid:
            raise ResolutionUnsupported(f"'{oid}' ceased to exist (CR 704.5d) while its ability '{so.id}' is on "
                                        "the stack: the situation format cannot name that ability's source")
        if so.targets and any(oid in g for g in so.targets):
            raise ResolutionUnsupported(f"'{oid}' ceased to exist (CR 704.5d) while '{so.id}' targets it: the "
                                        "situation format cannot name a target that no longer exists")
        if so.last_known and dict(so.last_known).get("attached_to") == oid:
            # the object it enchanted no longer exists: the same as having left the battlefield (CR 701.14b)
            w.objects[so.id] = so.with_(last_known=tuple(kv for kv in so.last_known if kv[0] != "attached_to"))
    w.pending = [replace(p, last_known=tuple(kv for kv in p.last_known if kv[0] != "attached_to"))
                 if dict(p.last_known).get("attached_to") == oid else p for p in w.pending]
    w.effects = [replace(e, targets=tuple(tuple(t for t in g if t != oid) for g in e.targets))
                 if e.targets is not None and any(oid in g for g in e.targets) else e for e in w.effects]
    if any(p.source == oid for p in w.pending):
        raise ResolutionUnsupported(f"'{oid}' ceased to exist (CR 704.5d) while its ability waits to be put on "
                                    "the stack: the situation format cannot name that ability's source")
    if any(e.ability is not None and e.ability.source == oid for e in w.effects):
        raise ResolutionUnsupported(f"'{oid}' ceased to exist (CR 704.5d) while an effect of its ability is in "
                                    "force: the situation format cannot name that effect's source")
    if any(t.source == oid for t in w.delayed):
        raise ResolutionUnsupported(f"'{oid}' ceased to exist (CR 704.5d) while a delayed ability from it is in "
                                    "force: the situation format cannot name that ability's source")
    if w.objects[oid].zone == "stack":
        _forget_references(w, oid)
    _forget_bound(w, oid)   # a delayed ability remembering it finds nothing (CR 603.7c, 111.7)
    del w.objects[oid]
    w.changed()


def _new_id(w: _World, base: str) -> str:
    return next_free_id(base, w.taken_ids())


def _id_base(name: str) -> str:
    return object_id_base(name)



# ===========================================================================
# State-based actions (CR 704) and triggered abilities (CR 603.3)
# ===========================================================================

def _aura_legal(view: View, aura: GameObject, host: str | None) -> bool:
    """CR 303.4c–d, 702.5a, 704.5m: is ``aura`` legally attached to ``host``?"""
    if host is None:
        return False
    c = view.chars(aura.id)
    en = _enchant(c.abilities) or _enchant(aura.card.abilities if aura.card else ())
    if en is None:
        return True  # no enchant restriction known
    if c.is_creature or host == aura.id:
        return False
    state = view.state
    if state.is_player(host):
        f = en.filter
        if not f.players:
            return False
        return f.who == "any" or (f.who == "you") == (host == aura.controller)
    h = state.find(host)
    if h is None or h.zone != "battlefield":
        return False

    if not object_matches(view, TargetingSource("spell", aura.id, aura.controller, ()), en.filter, host):
        return False

    if protected_from(view.chars(host), c.colors, c.types, c.subtypes):  # CR 702.16c: Auras with that quality
        return False
    return True


# --- attaching (helper equip; CR 701.3, 301.5, 301.6, 303.4, 613.7e) ---------------------------


def attachment_legal(view: View, oid: str, host: str) -> bool:
    """Could the permanent ``oid`` be attached to ``host`` now (CR 701.3a)? An Aura as its enchant
    ability allows (303.4c–d); an Equipment to a creature permanent, a Fortification to a land
    permanent (301.5c, 301.6): never to itself, not while it is a creature itself unless it has
    reconfigure (301.5c, 702.151b: attached, it then isn't one), nor to a permanent with protection from
    it (702.16d); anything else to nothing (701.3b)."""
    state = view.state
    o = state.find(oid)
    if o is None or o.zone != "battlefield" or host == oid:
        return False
    c = view.chars(oid)
    if "Aura" in c.subtypes:
        return _aura_legal(view, o, host)
    kind = "Creature" if "Equipment" in c.subtypes else "Land" if "Fortification" in c.subtypes else None
    reconfigure = kind == "Creature" and o.card is not None and ir.Keyword("reconfigure") in o.card.abilities
    if kind is None or (c.is_creature and not reconfigure) or state.is_player(host):
        return False
    h = state.find(host)
    if h is None or h.zone != "battlefield":
        return False
    hc = view.chars(host)
    return kind in hc.types and not protected_from(hc, c.colors, c.types, c.subtypes)


def attach(w: _World, oid: str, host: str | None) -> bool:
    """The one change of what a permanent on the battlefield is attached to: ``host`` None unattaches
    it (CR 701.3d); otherwise it moves from what it was attached to onto ``host`` with a new timestamp
    (701.3a, 701.3c, 613.7e) — unless it can't be attached to ``host`` (:func:`attachment_legal`) or
    already is (701.3b: nothing happens). Returns whether anything changed. (A permanent entering
    attached, an Aura spell resolving, arrives so through :func:`move`'s ``attached_to``, CR 303.4f.)"""
    o = w.objects[oid]
    if o.attached_to == host:
        return False
    if host is None:
        w.put(o.with_(attached_to=None))
        return True
    if not attachment_legal(w.view(), oid, host):
        return False
    w.put(o.with_(attached_to=host, timestamp=w.next_tick()))
    return True


def _falls_off(view: View, o: GameObject) -> bool:
    """CR 704.5n, 704.5p: a permanent that isn't an Aura, attached to what it can't be attached to
    (an Equipment to a noncreature or while a creature itself, to a player, …) becomes unattached and
    stays on the battlefield."""
    return o.attached_to is not None and not attachment_legal(view, o.id, o.attached_to)


def _sba_once(w: _World) -> list[_World] | None:
    """Perform every applicable state-based action simultaneously (CR 704.3,
    704.5). Returns None when none applies, else the branches (the legend
    rule is the only choice)."""
    view = w.view()
    changed = False
    for p in w.base.players:
        if p.id in w.losers:
            continue
        if w.life[p.id] <= 0 or p.id in w.drew_empty or w.poison[p.id] >= 10:  # 704.5a–c
            w.losers.add(p.id)
            changed = True
    w.drew_empty.clear()
    deathtouched, w.deathtouched = w.deathtouched, set()  # "since the last time SBAs were checked"
    to_cease: list[str] = []
    to_graveyard: list[tuple[str, bool]] = []  # (id, destroyed-or-put: both "die" if creatures)
    destroyed: set[str] = set()  # destroyed (704.5g-h): a regeneration shield may replace it (701.15a)
    counter_fix: dict[str, tuple[tuple[str, int], ...]] = {}
    to_unattach: list[str] = []
    legend_groups: dict[tuple[str, str], list[str]] = {}
    for o in sorted(w.objects.values(), key=lambda o: (o.order, o.id)):
        if o.token and o.zone != "battlefield" and o.zone != CREATED:
            to_cease.append(o.id)  # 704.5d
            continue
        if o.zone != "battlefield":
            continue
        c = view.chars(o.id)
        if c.is_creature and c.toughness is not None:
            if c.toughness <= 0:  # 704.5f
                to_graveyard.append((o.id, True))
                continue
            if o.damage >= c.toughness and not c.keyword("indestructible"):  # 704.5g
                to_graveyard.append((o.id, True))
                destroyed.add(o.id)
                continue
            if o.id in deathtouched and not c.keyword("indestructible"):  # 704.5h, 702.2b
                to_graveyard.append((o.id, True))
                destroyed.add(o.id)
                continue
        if "Planeswalker" in c.types and o.counter("loyalty") <= 0:  # 704.5i
            to_graveyard.append((o.id, True))
            continue
        if _saga_done(w, o):  # 704.5s, 714.4: the Saga is sacrificed
            to_graveyard.append((o.id, False))
            continue
        if _is_aura(o.card) or _enchant(c.abilities) is not None and "Aura" in c.subtypes:
            if not _aura_legal(view, o, o.attached_to):  # 704.5m
                to_graveyard.append((o.id, True))
                continue
        elif _falls_off(view, o):  # 704.5n, 704.5p
            to_unattach.append(o.id)
        if "Legendary" in c.supertypes:  # 704.5j
            legend_groups.setdefault((o.controller, c.name), []).append(o.id)
        plus, minus = o.counter("+1/+1"), o.counter("-1/-1")
        if plus and minus:  # 704.5q
            m = min(plus, minus)
            cs = dict(o.counters)
            cs["+1/+1"] -= m
            cs["-1/-1"] -= m
            counter_fix[o.id] = tuple(sorted((k, v) for k, v in cs.items() if v))
    gone = {i for i, _ in to_graveyard}
    legend_choices = [(k, [i for i in ids if i not in gone]) for k, ids in sorted(legend_groups.items())]
    legend_choices = [(k, ids) for k, ids in legend_choices if len(ids) > 1]
    if not (to_cease or to_graveyard or counter_fix or to_unattach or legend_choices or changed):
        return None
    # 704.5j: the controller chooses which legendary permanent of each name to keep
    branches: list[tuple[_World, list[str]]] = [(w, [])]
    for (_controller, _name), ids in legend_choices:
        nxt: list[tuple[_World, list[str]]] = []
        for v, extra in branches:
            for keep in ids:
                v2 = v.fork()
                v2.choices.setdefault("legend_rule", []).append(keep)
                nxt.append((v2, extra + [i for i in ids if i != keep]))
        branches = nxt
    out = []
    for v, extra in branches:
        for oid, fixed in counter_fix.items():
            v.put(v.objects[oid].with_(counters=fixed))
        for oid in to_unattach:
            attach(v, oid, None)
        for oid in to_cease:
            _cease(v, oid)
        for oid in [i for i, _ in to_graveyard] + extra:
            if oid in v.objects and v.objects[oid].zone == "battlefield":
                if oid in destroyed:
                    destroy(v, oid)
                else:
                    _move(v, oid, "graveyard")
        out.append(v)
    return out


def _saga_done(w: _World, o: GameObject) -> bool:
    """CR 714.4 (704.5s): a Saga with chapter abilities whose lore counters are at least its final
    chapter number, and that isn't the source of a chapter ability that has triggered but not yet
    left the stack (on the stack, or waiting to be put there)."""
    if not is_saga(o.card):
        return False
    final = final_chapter(o.card)
    if final is None or o.counter("lore") < final:
        return False
    waiting = [(t.source, t.ability) for t in w.pending]
    on_stack = [(s.ability.source, ability_of(o.card, s.ability.index)) for s in w.objects.values()
                if s.zone == "stack" and s.ability is not None]
    return not any(src == o.id and ability_is_chapter(ab) for src, ab in waiting + on_stack)


def _apnap(state: GameState) -> list[str]:
    """Players in APNAP order (CR 101.4): the active player, then the others in turn order."""
    ids = list(state.player_ids)
    i = ids.index(state.turn.active) if state.turn.active in ids else 0
    return ids[i:] + ids[:i]


TriggerOrder = Callable[[str, list["_PendingTrigger"]], list["_PendingTrigger"]]


def put_triggers(w: _World, order: TriggerOrder | None = None) -> list[_World]:
    """CR 603.3b/d: put every waiting triggered ability on the stack — active
    player first (APNAP, CR 101.4), each player in the order they choose, with targets chosen
    for each (one branch per distinct stack); an ability with no legal target
    choice is removed from the stack.  The combinatorial part (orders ×
    target choices) is :mod:`models.resolution`'s model.

    ``order``: the order a player already chose (the action applier's ``trigger_order``):
    given a player and their waiting abilities, the order they go on the stack (the first at
    the bottom); then there is one branch."""

    dispatch_events(w)
    pending = sorted(w.pending, key=lambda p: p.seq)
    w.pending = []
    view = w.view()
    per_player: list[tuple[list[_PendingTrigger], list[list[TriggerChoice]], list[Any]]] = []
    for pid in _apnap(w.base):
        mine = [p for p in pending if p.controller == pid]
        if not mine:
            continue
        trig, opts = [], []
        for p in mine:
            choices = trigger_choices(view, p.ability, p.source, p.controller)
            if not choices:
                continue  # CR 603.3d: no legal targets — removed from the stack
            trig.append(p)
            opts.append(choices)
        if not trig:
            continue
        placements: list[Any]
        if order is not None:
            chosen = order(pid, trig)
            placements = [tuple((trig.index(p), 0) for p in chosen)]
            per_player.append((trig, opts, placements))
            continue
        specs = [TriggerSpec((p.source, p.index, p.last_known, tuple(o), p.refers_to or "", p.event_object or "",
                              p.event_player or "", p.delayed, p.it or ""), len(o))
                 for p, o in zip(trig, opts)]
        if len(trig) == 1:
            placements = [((0, c),) for c in range(len(opts[0]))]
        else:
            placements = enumerate_placements(specs)
        per_player.append((trig, opts, placements))
    out = []
    for combo in itertools.product(*(pl for _, _, pl in per_player)):
        v = w.fork()
        placed = []
        for (trig, opts, _), placement in zip(per_player, combo):
            for t, c in placement:
                p = trig[t]
                modes, picked = opts[t][c]
                if modes == ():
                    continue   # CR 603.3c: no mode chosen ("choose up to N"): removed from the stack
                targets = picked if getattr(p.ability, "targets", ()) or (modes and picked) else None
                stack = v.zone_list("stack")
                top = (stack[0].order - 1) if stack else 0
                sid = _new_id(v, f"ability-of-{p.source}")
                v.put(GameObject(id=sid, zone="stack", owner=p.controller, controller=p.controller, card=None,
                                 targets=targets, ability=AbilityRef(p.source, p.index), last_known=p.last_known,
                                 order=top, timestamp=v.new_timestamp(), refers_to=p.refers_to,
                                 event_object=p.event_object, event_player=p.event_player, delayed=p.delayed,
                                 it=p.it, modes=modes, x=p.x))
                if targets:
                    queue_target_triggers(v, sid)  # it became the target of this ability (CR 603.3d, 702.21a)
                entry: dict[str, Any] = {"id": sid, "ability": {"source": p.source, "index": p.index}}
                if p.delayed:
                    entry["delayed"] = p.delayed
                if modes is not None:
                    entry["modes"] = list(modes)
                if targets is not None:
                    entry["targets"] = [list(g) for g in targets]
                placed.append(entry)
        v.choices["triggers"] = list(reversed(placed)) + v.choices.get("triggers", [])  # top of the stack first
        out.append(v)
    return out


_put_triggers = put_triggers


def _game_over(w: _World) -> bool:
    return bool(w.losers) and len(w.base.players) - len(w.losers) <= 1


def _finalize(w: _World) -> GameState:
    """The branch as a canonical :class:`GameState`: zone lists renumbered,
    timestamps relabelled by rank (battlefield) or position (elsewhere), so
    that ``situation_from_dict(dump_state(s)).state == s``; priority to the
    active player (CR 117.3b); metadata dropped (a new situation)."""
    for o in w.objects.values():
        if o.zone not in KEYED_ZONES and o.zone != "stack":
            raise AssertionError(f"object {o.id} left in zone {o.zone}")
    pids = w.base.player_ids
    rank = {pid: i for i, pid in enumerate(pids)}
    zone_rank = {z: i for i, z in enumerate(KEYED_ZONES + ("stack",))}

    def place(o: GameObject) -> tuple[int, int, int, str]:
        key = "" if o.zone == "stack" else (o.controller if o.zone == "battlefield" else o.owner)
        return (zone_rank[o.zone], rank.get(key, 0), o.order, o.id)

    ordered = sorted(w.objects.values(), key=place)
    orders: list[int] = []
    prev, n = None, 0
    for o in ordered:  # index within its zone list (the loader's ``order``)
        group = place(o)[:2]
        n = n + 1 if group == prev else 0
        prev = group
        orders.append(n)
    n_bf = sum(1 for o in ordered if o.zone == "battlefield")
    ranks = sorted(range(n_bf), key=lambda i: (ordered[i].timestamp, i))
    stamps = list(range(1, len(ordered) + 1))  # position in the file, as the loader numbers them
    for r, i in enumerate(ranks):
        stamps[i] = r + 1  # battlefield: relative order of timestamps kept (CR 613.7)
    objects = tuple(o if (o.order == k and o.timestamp == t) else o.with_(order=k, timestamp=t)
                    for o, k, t in zip(ordered, orders, stamps))
    # CR 506.4: an attacking creature that left the battlefield left combat; blockers keep blocking the others
    attacking_now = {o.id for o in objects if o.attacking is not None and o.zone == "battlefield"}
    objects = tuple(o.with_(blocking=tuple(a for a in o.blocking if a in attacking_now))
                    if any(a not in attacking_now for a in o.blocking) else o for o in objects)
    # CR 104.3, 704.5a-c: a player who lost is marked ``lost`` (contract §1)
    players = tuple(Player(p.id, w.life[p.id], w.poison[p.id], p.lost or p.id in w.losers, w.life_lost[p.id])
                    for p in w.base.players)
    effects = tuple(replace(e, order=i) for i, e in enumerate(w.effects))
    turn = replace(w.base.turn, priority=w.base.turn.active, extra_turns=tuple(w.extra_turns),
                   skip_combat=tuple(sorted(w.skip_combat)), history=w.history, spells_cast=w.spells_cast)
    return GameState(players=players, turn=turn, objects=objects, mana_pool=w.mana_pool(), restricted_pool=w.rpool,
                     effects=effects,
                     shuffled=tuple(p for p in pids if p in w.shuffled), known_top=w.known_top_marks(),
                     name=None, description=None, rules=(),
                     day_night=w.day_night, prevention=tuple(sorted(w.prevention, key=PreventionShield.sort_key)),
                     delayed=tuple(sorted(w.delayed, key=DelayedTrigger.sort_key)))


# ===========================================================================
# Shields: regeneration and prevention (CR 701.15, 614.8, 615)
# ===========================================================================

def destroy(w: _World, oid: str, *, can_regenerate: bool = True) -> bool:
    """The one destruction (CR 701.8a): permanent ``oid`` is put into its owner's graveyard through
    :func:`move` — unless a regeneration shield on it replaces the event (CR 701.15a, 614.8: it is
    tapped, its "becomes tapped" abilities queued, removed from combat, CR 506.4, and all damage is
    removed from it; the shield is used up). ``can_regenerate`` False: "it can't be regenerated"
    (CR 701.15b). Shields are interchangeable: no choice among them (CR 616.1). Indestructibility
    (CR 702.12b) is the caller's check. Returns whether it was put into the graveyard."""
    o = w.objects[oid]
    if not (can_regenerate and o.regeneration_shields > 0):
        _move(w, oid, "graveyard")
        return True
    if o.exile_if_dies:   # two replacements of one event, its controller's order (CR 616.1): not modeled
        raise ResolutionUnsupported(f"{oid} would be destroyed with a regeneration shield and 'if it would die "
                                    "this turn, exile it instead': its controller orders them (CR 616.1)")
    _regenerate(w, o)
    return False


def _regenerate(w: _World, o: GameObject) -> None:
    """CR 701.15a: instead of being destroyed, ``o`` is tapped, removed from combat and all damage is
    removed from it; one of its shields is used up."""
    was_tapped = o.tapped
    w.put(o.with_(tapped=True, damage=0, attacking=None, blocking=(), blocked=False,
                  regeneration_shields=o.regeneration_shields - 1))
    w.deathtouched.discard(o.id)   # the damage is removed (CR 701.15a, 704.5h)
    for x in list(w.objects.values()):  # a removed attacker is no longer blocked by its blockers (CR 506.4)
        if o.id in x.blocking:
            w.put(x.with_(blocking=tuple(b for b in x.blocking if b != o.id)))
    if not was_tapped:
        queue_triggers(w, w.objects[o.id], ir.BecomesTappedTrigger, w.view().chars(o.id).abilities)


def _drop_shields_of(w: _World, oid: str, entering: bool = False) -> None:
    """CR 400.7: a permanent that leaves the battlefield is a new object — prevention shields that
    protect it no longer apply, nor those on its damage, unless an ability from it waits or is on the
    stack (its damage is dealt by the source as it last existed, CR 113.7a: kept, and refused by
    :func:`prevent` should they apply to it). ``entering``: the object enters the battlefield — a new
    object: every shield naming it goes."""
    def from_it_waits() -> bool:
        return any(x.zone == "stack" and x.ability is not None and x.ability.source == oid
                   for x in w.objects.values()) or any(p.source == oid for p in w.pending)
    keep_sources = not entering and from_it_waits()
    kept = [p for p in w.prevention if p.to != oid and (p.source != oid or keep_sources)]
    if len(kept) != len(w.prevention):
        w.prevention = kept
        w.changed()


def _shield_applies(p: PreventionShield, source: str | None, target: str, combat: bool) -> bool:
    return ((p.to is None or p.to == target) and (p.source is None or p.source == source)
            and (combat or not p.combat_only))


def _apply_shields(shields: list[PreventionShield], order: Iterable[int], amount: int
                   ) -> tuple[int, tuple[PreventionShield, ...]]:
    """The damage left and the shields after applying ``shields[i]`` in ``order`` (CR 615.7, 616.1f)."""
    left = list(shields)
    for i in order:
        if amount <= 0:
            break
        p = left[i]
        if p.amount is None:
            amount = 0
            continue
        used = min(p.amount, amount)
        amount -= used
        left[i] = replace(p, amount=p.amount - used)
    return amount, tuple(sorted((p for p in left if p.amount != 0), key=PreventionShield.sort_key))


def prevent(w: _World, source: str | None, target: str, amount: int, *, combat: bool = False,
            protected: bool = False) -> int:
    """The prevention shields (CR 615.1, 615.7) of branch ``w`` applied to ``amount`` damage that
    ``source`` would deal to ``target`` (``combat``: combat damage): returns the damage left, the
    shields used up (a shield of N reduced by what it prevents, CR 615.7). When several apply, the
    affected player or controller chooses the order (CR 616.1): refused
    (:class:`ResolutionUnsupported`) when two orders give different results — as when protection
    (``protected``, CR 702.16e, prevents all of it) competes with a shield of N."""
    live = [i for i, p in enumerate(w.prevention) if _shield_applies(p, source, target, combat)]
    if not live or amount <= 0:
        return 0 if protected else amount
    # a source that left the battlefield (or the stack: a resolving spell deals its damage from there)
    gone = source is not None and source in w.objects and w.objects[source].zone not in ("battlefield", "stack")
    if gone and any(w.prevention[i].source == source for i in live):
        raise ResolutionUnsupported(f"damage from {source} as it last existed (CR 113.7a): whether a prevention "
                                    "shield on its damage still applies after it left the battlefield is not "
                                    "modeled")
    if protected and any(w.prevention[i].amount is not None for i in live):
        raise ResolutionUnsupported(f"damage to {target}: protection and a prevention shield both apply; "
                                    "which applies first (CR 616.1) is not modeled")
    if protected:
        return 0
    if len(live) > 5:
        raise ResolutionUnsupported(f"damage to {target}: more than five prevention shields apply (CR 616.1)")
    results = {_apply_shields(w.prevention, order, amount) for order in itertools.permutations(live)}
    if len(results) > 1:
        raise ResolutionUnsupported(f"damage to {target}: several prevention shields apply; the order its "
                                    "controller chooses (CR 616.1) is not modeled")
    left, shields = results.pop()
    w.prevention = list(shields)
    w.changed()
    return left
