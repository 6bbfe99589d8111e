"""Priority, steps and turns (rules layer): what happens when a player passes.

CR 117.3d: a player who passes gives priority to the next player in turn
order; the passes are recorded in ``turn.passed`` (contract §1).  CR 117.4:
when all players (still in the game) have passed in succession,

* with a non-empty stack the top object resolves (:func:`solver.engine.resolution.resolve_top`,
  then state-based actions and triggers — CR 608, 704, 603.3);
* with an empty stack the step or phase ends: unused mana empties
  (CR 500.4), and the next step begins (CR 500.1: untap, upkeep, draw,
  main 1, beginning of combat, declare attackers, declare blockers, first-strike
  and regular combat damage, end of combat, main 2, end, cleanup) with its
  turn-based actions:

  - untap (CR 502.3): the active player's permanents untap, except those
    marked ``skip_untap`` (which lose the mark); no player receives priority
    (CR 502.4), the game goes on to the upkeep;
  - upkeep (CR 503): "at the beginning of your upkeep" abilities trigger;
  - draw (CR 504.1): the active player draws the listed top card; from a
    ``shuffled`` library a random event, one outcome per distinct card with
    its probability; from an empty library the player loses at the next
    state-based action check (CR 704.5b) — when the situation lists no
    library at all, what would be drawn is unknown and the answer is
    unsupported; in a two-player game the player who plays first (the active player of turn 1)
    skips the draw of turn 1 (CR 103.8a), in a multiplayer game nobody does (103.8c);
  - beginning of combat (CR 507), end of combat (CR 511; at its end every
    creature is removed from combat, CR 511.3);
  - declare attackers (CR 508.1): the active player's declaration is a
    choice, each legal one as :func:`solver.engine.combat.attack_declarations` lists
    it; "whenever this attacks" abilities trigger (CR 508.3a); with no
    attackers the declare blockers and combat damage steps are skipped
    (CR 508.8);
  - declare blockers (CR 509.1): the defending player's declaration, each
    legal one as :func:`solver.engine.combat.block_declarations` lists it;
  - combat damage (CR 510): each distinct assignment of
    :func:`solver.engine.combat.damage_assignments`; a first-strike damage step
    first when an attacking or blocking creature has first strike or double
    strike (CR 510.4);
  - cleanup (CR 514): the active player discards down to the maximum hand
    size, seven (514.1, a choice: one outcome per distinct set of cards,
    interchangeable cards merged); damage wears off and "until end of turn"
    effects end (514.2: the ``effects`` list empties); no player receives
    priority unless a state-based action or trigger happens (514.3a: then
    they do, and another cleanup step follows);
  - then the next turn (CR 500.1, 302.6): the next player in turn order is
    active, ``lands_played`` is 0, permanents the new active player controls
    are no longer ``sick``, "this turn" marks reset; the game stops at that
    turn's upkeep with the active player holding priority.

After the turn-based actions, :func:`solver.engine.transition.settle` performs
state-based actions (a player at 0 life, with ten poison counters or who drew
from an empty library loses: ``lost: true``, CR 104.3, 704.5a–c) and puts
triggered abilities on the stack; the active player receives priority
(CR 117.3a).  The game is over when one player remains (CR 104.2a).

Branching.  :func:`pass_priority` returns every distinct outcome
(:class:`~solver.engine.transition.Branch`: state, choices, probability),
identified by :meth:`GameState.key` and merged, in the engine's order (the
canonical JSON of the choices; the ``pass`` query orders them by choices then
situation where it writes them).  Callers that play one game (the agents'
API) follow one path with :func:`play_pass`: it returns the next situation or
the first pending choice as a value, a :class:`Decision` (kind, player, typed
:class:`Option` values, the state the choice is made in) — a random event
too, which the caller samples — answered by :func:`resume`.  Each option has
a ``rank``: its place in the canonical order, options of equal rank (the
branches of one change) being ordered by their situations at the edge.

Not modeled (answered unsupported, never guessed): abilities that trigger at
steps other than "at the beginning of your upkeep" and "whenever this
attacks"; costs to attack or block (Ghostly Prison); more than 100,000
legal declarations; a draw when the situation lists no library at all;
attacks on several defending players; combat when :mod:`solver.engine.combat` is
absent and a creature could attack.  Unread text anywhere in the situation
makes the ``pass`` query answer unsupported (soundness layer, contract §2.0).
Mulligans and the start of the game (CR 103) are outside ``pass``: a game
starts from a situation (:mod:`solver.engine.opening` has the mulligans, as decisions).
"""
from __future__ import annotations

import importlib
import itertools
import json
import re
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Callable, Hashable, Iterable, TypedDict

from ..core import ir
from ..core.errors import UnsupportedCase
from ..core.json_value import JsonObject
from ..core.state import STEPS, GameObject, GameState, StateKey, TurnHistory
from ..rules.play_permissions import end_of_turn_permissions, next_turn_permissions
from ..rules.step_order import card_mentions, has_first_strike, next_step
from .transition import (Branch, alive, choices_key, discard, draw_top, empty_mana_pools, game_over, mark_losers,
                         next_player, record_attack, settle)

if TYPE_CHECKING:  # pragma: no cover
    from .combat import DamageOutcome
    from .transition import _PendingTrigger
from .resolution import ResolutionUnsupported, opponent_choice_decider, resolve_top, search_decider, unless_decider
from .ward import ward_decider
from .ward import WardChoice
from ..rules.soundness.step_reach import may_trigger_in_steps
from ..rules.characteristics import View
from ..rules.sagas import chapters_triggered, is_saga
from ..rules.triggers import condition_met
from .transition import _index_of, _PendingTrigger, _World, has_keyword, set_day_night
from .transition import control_ends, delayed_triggers, event_triggers, step_triggers
from ..core.events import Attacked, Blocked, CardDrawn
from ..core.ir import TRIGGER_STEPS

__all__ = ["pass_priority", "play_pass", "resume", "resume_all", "settle_action", "Chooser", "Decision", "Option",
           "GameOver", "MAX_HAND_SIZE",
           "COMBAT_STEPS"]

MAX_HAND_SIZE = 7  # CR 402.2
COMBAT_STEPS = ("beginning_of_combat", "declare_attackers", "declare_blockers", "first_strike_damage",
                "combat_damage", "end_of_combat")


class GameOver(ValueError):
    """The game is over (CR 104.1): nobody passes any more."""


# ---------------------------------------------------------------------------
# Work items, options and choosers
# ---------------------------------------------------------------------------

@dataclass(frozen=True)
class _Item:
    """A state on its way to the next priority: ``stage`` is what happens next
    (``tba``: the turn-based actions of ``state.turn.step``; ``settle``:
    state-based actions and triggers; ``done``)."""

    state: GameState
    stage: str
    choices: JsonObject = field(default_factory=dict)   # contract §2.7/2.10 shape
    prob: Fraction = Fraction(1)
    random: bool = False
    pending: tuple[_PendingTrigger, ...] = ()
    drew_empty: tuple[str, ...] = ()


class Option:
    """One option at a branching point: ``kind`` (the decision's), its typed ``value`` (a
    declaration's ``{creature: what}`` map, a damage assignment, the cards discarded, the card
    drawn, the choices of a resolution or a state-based action), ``label`` (the action string
    users see, e.g. ``declare attackers raging-goblin -> bob``), the ``choices`` it records,
    its probability for random events, ``rank`` (its place in the canonical order; options of
    equal rank are ordered by their situations at the edge, :mod:`solver.api.play`) and the work
    that follows (``item``; built on first use when given as ``make``, so that listing thousands
    of declarations builds no state until one is taken)."""

    __slots__ = ("kind", "value", "label", "choices", "probability", "rank", "_item", "_make")

    def __init__(self, kind: str, value: Any, label: str, choices: JsonObject, probability: Fraction | None,
                 rank: tuple[int, ...] | tuple[str, ...] = (), item: _Item | None = None, make: Callable[[], _Item] | None = None):
        self.kind = kind
        self.value = value
        self.label = label
        self.choices = choices
        self.probability = probability
        self.rank = rank
        self._item = item
        self._make = make

    @property
    def item(self) -> _Item:
        if self._item is None:
            assert self._make is not None
            self._item = self._make()
            self._make = None
        return self._item

    @property
    def state(self) -> GameState:
        """The state this option leads to (before what follows it)."""
        return self.item.state

    def __repr__(self) -> str:
        return f"Option({self.label!r})"


@dataclass(frozen=True)
class Decision:
    """A pending decision, returned by the turn engine when a single path is followed
    (:func:`play_pass`, :func:`resume`): ``player`` must choose one of ``options`` in ``state`` (the
    state in which the choice is made). ``kind``: ``attackers`` (CR 508.1), ``blockers`` (CR
    509.1), ``damage`` (CR 510.1), ``discard`` (CR 514.1), ``choose`` (a choice during
    resolution, a state-based action or putting triggers on the stack: CR 608.2, 704.5j, 603.3b),
    ``ward`` (the controller of a spell or ability a ward ability would counter pays or declines,
    CR 702.21a: options of value :class:`solver.engine.ward.WardChoice`) or ``random`` (a random
    event; ``probability`` on each option)."""

    kind: str
    player: str
    options: tuple[Option, ...]
    state: GameState


class Chooser:
    """How branching points are taken: every option (the ``pass`` query), or — with
    ``stop=True`` — one path: a single option is taken, a choice among several (a random event
    too) is returned as a :class:`Decision`."""

    def __init__(self, stop: bool = False):
        self.stop = stop

    def take(self, kind: str, player: str, options: list[Option], state: GameState) -> list[Option] | Decision:
        if not self.stop or len(options) <= 1:
            return options
        return Decision(kind, player, tuple(options), state)


ALL = Chooser()
ONE = Chooser(stop=True)

Step = list["_Item"] | Decision   # what a step of the work loop gives: the items that follow, or a decision


# ---------------------------------------------------------------------------
# Entry points
# ---------------------------------------------------------------------------

def pass_priority(state: GameState) -> list[Branch]:
    """Every distinct outcome of the player with priority passing (module docstring), in the
    engine's order (by the canonical JSON of the choices); identical situations
    (:meth:`GameState.key`) merged, probabilities summed. The ``pass`` query orders them by
    choices then situation (:mod:`solver.queries.pass`)."""
    out = _pass(state, ALL)
    assert not isinstance(out, Decision)
    return out


def play_pass(state: GameState) -> Branch | Decision:
    """One path of passing: the next situation, or the first :class:`Decision` on the way."""
    return _one(_pass(state, ONE))


def resume(option: Option) -> Branch | Decision:
    """Continue one path after a :class:`Decision` was answered with ``option``."""
    return _one(_finish(_run([option.item], ONE)))


def resume_all(option: Option) -> list[Branch]:
    """Every outcome after a :class:`Decision` was answered with ``option``."""
    out = _finish(_run([option.item], ALL))
    assert not isinstance(out, Decision)
    return out


def _one(out: list[Branch] | Decision) -> Branch | Decision:
    if isinstance(out, Decision):
        return out
    if len(out) != 1:  # a stopping chooser yields one path
        raise AssertionError(f"expected one outcome, got {len(out)}")
    return out[0]


def _pass(state: GameState, chooser: Chooser) -> list[Branch] | Decision:
    if game_over(state):
        raise GameOver("the game is over (CR 104.2a): no player passes")
    p = state.priority
    t = state.turn
    passed = set(t.passed) | {p}
    order = {pid: i for i, pid in enumerate(state.player_ids)}
    waiting = [pid for pid in alive(state) if pid not in passed]
    if waiting:  # CR 117.3d: priority to the next player in turn order
        nxt = next_player(state, p)
        turn = replace(t, priority=nxt, passed=tuple(sorted(passed, key=order.__getitem__)))
        return [Branch(replace(state, turn=turn), {}, None)]
    cleared = replace(state, turn=replace(t, passed=(), priority=t.active))
    if state.zone("stack"):
        items = _resolve(cleared, chooser)
        if isinstance(items, Decision):
            return items
    else:
        items = [_Item(_end_step(cleared), "tba")]
    return _finish(_run(items, chooser))


def _finish(done: Step) -> list[Branch] | Decision:
    return done if isinstance(done, Decision) else _merge(done)


def settle_action(state: GameState, pending: Iterable[Any] = ()) -> GameState | Decision:
    """CR 117.5 after a player's action: state-based actions and waiting triggers
    (:func:`~solver.engine.transition.settle`); the next state, or the ``choose`` decision among
    the branches (the legend rule, the order and targets of triggers). Raises
    :class:`UnsupportedCase` for what is not modeled."""
    res = settle(state, pending=pending)
    if res.notes:
        raise UnsupportedCase("not modeled: " + "; ".join(res.notes))
    if len(res.branches) == 1:
        return res.branches[0].state
    options = tuple(Option("choose", b.choices, _choose_label(b.choices), b.choices, None, (),
                           _Item(b.state, "done", b.choices)) for b in res.branches)
    return Decision("choose", _trigger_orderer(res.branches) or state.turn.active, options, state)


def _trigger_orderer(branches: Iterable[Branch]) -> str | None:
    """CR 603.3b: when the branches differ only in the order of one player's triggered abilities
    (two ward abilities of one permanent's controller), that player chooses; None otherwise."""
    players: set[str] = set()
    for b in branches:
        if set(b.choices) != {"triggers"}:
            return None
        for entry in b.choices["triggers"]:
            o = b.state.find(entry.get("id", ""))
            if o is None:
                return None
            players.add(o.controller)
    return players.pop() if len(players) == 1 else None


def _choose_label(choices: JsonObject) -> str:
    return "choose " + json.dumps(choices, sort_keys=True, separators=(",", ":"))


# ---------------------------------------------------------------------------
# The work loop
# ---------------------------------------------------------------------------

def _run(items: list[_Item], chooser: Chooser) -> Step:
    """Carry every item on to the next priority; a :class:`Decision` met on the way (one path
    followed) is returned as it is."""
    done: list[_Item] = []
    todo = list(items)
    guard = 0
    while todo:
        guard += 1
        if guard > 100_000:
            raise UnsupportedCase("unsupported: the turn structure did not reach a player's priority")
        it = todo.pop()
        if it.stage == "done":
            done.append(it)
        elif it.stage in ("tba", "settle"):
            nxt = _turn_based_actions(it, chooser) if it.stage == "tba" else _settle(it, chooser)
            if isinstance(nxt, Decision):
                return nxt
            todo.extend(nxt)
        else:  # pragma: no cover
            raise AssertionError(it.stage)
    return done


class _MergeGroup(TypedDict):
    """The items of :func:`_merge` that reach one situation: its state, and per distinct
    choices (as canonical JSON) the choices and their summed probability."""

    state: GameState
    choices: dict[str, tuple[JsonObject, Fraction]]


def _merge(items: list[_Item]) -> list[Branch]:
    random = any(it.random for it in items)
    if len(items) == 1 and not random:  # one outcome: nothing to merge or sort
        st = items[0].state
        if st.name is not None or st.description is not None or st.rules:
            st = replace(st, name=None, description=None, rules=())
        return [Branch(st, items[0].choices, None)]
    groups: dict[StateKey, _MergeGroup] = {}
    for it in items:
        st = it.state
        if st.name is not None or st.description is not None or st.rules:
            st = replace(st, name=None, description=None, rules=())  # a new situation (as resolve writes)
        g = groups.setdefault(st.key(), {"state": st, "choices": {}})
        ck = json.dumps(it.choices, sort_keys=True)
        prev = g["choices"].get(ck)
        g["choices"][ck] = (it.choices, (prev[1] if prev else 0) + it.prob)
    out = []
    for g in groups.values():
        ordered = sorted(g["choices"].items())
        total = sum((p for _, (_, p) in ordered), Fraction(0))
        out.append((ordered[0][0], Branch(g["state"], ordered[0][1][0], total if random else None)))
    out.sort(key=lambda x: x[0])  # stable: merged groups of equal choices keep the order they were reached in
    return [b for _, b in out]


def _with(it: _Item, state: GameState | None = None, stage: str | None = None, choices: JsonObject | None = None,
          prob: Fraction = Fraction(1), random: bool = False, **kw: Any) -> _Item:
    """``it`` moved on: a new state and stage, ``choices`` recorded (a key met
    twice, e.g. two damage steps, becomes a list), probability multiplied."""
    c = dict(it.choices)
    for k, v in (choices or {}).items():
        if k not in c:
            c[k] = v
        elif isinstance(c[k], list) and isinstance(v, list):
            c[k] = c[k] + v
        else:
            c[k] = [c[k], v]
    return replace(it, state=state if state is not None else it.state, stage=stage or it.stage, choices=c,
                   prob=it.prob * prob, random=it.random or random, **kw)


def _branch(chooser: Chooser, kind: str, player: str, options: list[Option], state: GameState) -> Step:
    taken = chooser.take(kind, player, options, state)
    return taken if isinstance(taken, Decision) else [o.item for o in taken]


# ---------------------------------------------------------------------------
# Resolving the top of the stack (CR 117.4, 608)
# ---------------------------------------------------------------------------

def _resolve(state: GameState, chooser: Chooser) -> Step:
    try:
        res = resolve_top(state)
    except ResolutionUnsupported as e:   # what resolving needs and the project does not model: refused
        raise UnsupportedCase(f"unsupported: {e}") from None
    if res.unsupported:
        raise UnsupportedCase("unsupported: " + "; ".join(res.unsupported))
    random = any(o.probability is not None for o in res.outcomes)
    options = []
    for o in res.outcomes:
        s = mark_losers(o.state, o.losers)
        s = replace(s, turn=replace(s.turn, passed=(), priority=s.turn.active))
        item = _Item(s, "done", dict(o.choices), o.probability or Fraction(1), random)
        kind = "random" if random else "choose"
        options.append(Option(kind, dict(o.choices), _choose_label(o.choices), dict(o.choices), o.probability,
                              (choices_key(o.choices),), item))
    if random:
        return _branch(chooser, "random", state.turn.active, options, state)

    decider = ward_decider(state)
    if decider is not None:   # CR 702.21a: the targeting object's controller pays or declines
        return _branch(chooser, "ward", decider, [_ward_option(o) for o in options], state)
    unless = unless_decider(res.outcomes)   # CR 118.12: the player asked to pay chooses
    unless = unless or search_decider(res.outcomes)   # CR 701.23: another player searches their own library
    unless = unless or opponent_choice_decider(res.outcomes)   # CR 608.2d: "an opponent chooses one of them"
    return _branch(chooser, "choose", unless or state.zone("stack")[0].controller, options, state)


def _ward_option(o: Option) -> Option:
    """A ``ward`` decision's option (CR 702.21a): typed :class:`~solver.engine.ward.WardChoice` (pay
    with a payment, or decline), labelled ``ward pay {payment}`` / ``ward decline`` (followed by the
    other choices on the way, when there are: the order of triggers it caused)."""

    rec = dict(o.choices.get("ward") or {})
    value = WardChoice(rec.get("payment") if rec.get("paid") else None)
    label = "ward pay " + json.dumps(value.payment, sort_keys=True, separators=(",", ":")) if value.paid \
        else "ward decline"
    rest = {k: v for k, v in o.choices.items() if k != "ward"}
    if rest:
        label += " then " + json.dumps(rest, sort_keys=True, separators=(",", ":"))
    return Option("ward", value, label, o.choices, o.probability, o.rank, o.item)


# ---------------------------------------------------------------------------
# Steps
# ---------------------------------------------------------------------------

_has_first_strike = has_first_strike   # (solver/rules/step_order.py, shared with the soundness layer)
_next_step = next_step


def _end_step(state: GameState) -> GameState:
    """The current step ends (CR 500.4: mana empties) and the next begins: the
    new state is at the next step, before its turn-based actions."""
    state = empty_mana_pools(state)
    t = state.turn
    if t.step == "end_of_combat":  # CR 511.3: removed from combat
        state = _remove_from_combat(state)
    if t.step == "cleanup":  # players had priority in it (CR 514.3a): another cleanup step
        return replace(state, turn=replace(t, passed=(), priority=t.active))
    nxt = _next_step(state)
    if nxt is None:
        return _new_turn(state)
    if t.step == "main1" and nxt == "main2" and t.active in t.skip_combat:   # the combat phase skipped (CR 614.10)
        left = list(t.skip_combat)
        left.remove(t.active)
        t = replace(t, skip_combat=tuple(left))
    return replace(state, turn=replace(t, step=nxt, passed=(), priority=t.active))


def _remove_from_combat(state: GameState) -> GameState:
    objs = [o.with_(attacking=None, blocking=(), blocked=False)
            if (o.attacking is not None or o.blocking or o.blocked) else o for o in state.objects]
    return replace(state, objects=tuple(objs))


def _new_turn(state: GameState) -> GameState:
    """CR 500.1, 302.6: the next player's turn begins at its untap step — or, CR 500.7, the next extra
    turn recorded (``turn.extra_turns``, the most recently created first), its player's."""
    t = state.turn
    extra = [p for p in t.extra_turns if not state.player(p).lost]   # CR 500.7: the next extra turn first
    active = extra[0] if extra else next_player(state, t.active)
    objs = []
    for o in state.objects:
        kw: dict[str, Any] = {}
        if o.activated_this_turn:
            kw["activated_this_turn"] = ()
        if o.entered_this_turn:
            kw["entered_this_turn"] = False
        if o.zone == "battlefield" and o.controller == active and o.sick:
            kw["sick"] = False  # CR 302.6: controlled continuously since this turn began
        objs.append(o.with_(**kw) if kw else o)
    turn = replace(t, number=t.number + 1, active=active, step="untap", priority=active, lands_played=0, passed=(),
                   spells_cast=() if _day_night_matters(state) else None, extra_turns=tuple(extra[1:]),
                   history=TurnHistory() if t.history is not None or _reads_history(state) else None)
    # a recorded life-lost record starts again at 0: no one has lost life in the turn beginning (CR 119.3)
    players = tuple(replace(p, life_lost_this_turn=0) if p.life_lost_this_turn else p for p in state.players)
    state = next_turn_permissions(replace(state, players=players, objects=tuple(objs), turn=turn), active)
    return _day_night_check(state, t.active, t.cast_by(t.active))


def _reads_history(state: GameState) -> bool:
    """Whether what happens in the turn beginning must be recorded (``turn.history``): a card in the
    game has a read condition that looks back at this turn (:data:`solver.core.ir.HISTORY_CONDITIONS`:
    "if a creature died this turn", "if you attacked this turn", …). Once recorded, every later turn is."""
    return any(o.card is not None and ir.reads_history(o.card.abilities) for o in state.objects)


def _day_night_matters(state: GameState) -> bool:
    """Whether the spells cast in the turn beginning must be recorded (``turn.spells_cast``): it is
    day or night, or a card with daybound or nightbound is in the game and could make it so
    (CR 702.145d). Otherwise the record stays absent, as it was."""
    return state.day_night is not None or any(
        has_keyword(o, "daybound") or has_keyword(o, "nightbound") or _counts_spells(o) for o in state.objects)


def _counts_spells(o: GameObject) -> bool:
    """A card with a read "whenever you cast your second spell each turn" (CR 601.2i): the spells cast
    in the turn beginning must be recorded for it."""
    return o.card is not None and any(isinstance(a, ir.TriggeredAbility) and isinstance(a.trigger, ir.CastTrigger)
                                      and a.trigger.nth for a in o.card.abilities)


def _day_night_check(state: GameState, previous: str, cast: int | None) -> GameState:
    """CR 502.2, 730.2: as the untap step begins, if it's day and the previous turn's active player
    cast no spells during that turn, it becomes night; if it's night and they cast two or more, it
    becomes day (permanents with daybound or nightbound transform, 702.145c, 702.145f). When their
    spells were not recorded (``turn.spells_cast``) the change can't be told: refused."""
    if state.day_night is None:
        return state
    if cast is None:
        raise UnsupportedCase(f"unsupported: it is {state.day_night}; whether it becomes "
                              f"{'night' if state.day_night == 'day' else 'day'} as the next turn begins depends on "
                              f"the spells {previous} cast this turn, which the situation does not record "
                              "(turn.spells_cast, CR 730.2)")
    becomes = "night" if state.day_night == "day" and cast == 0 else \
        "day" if state.day_night == "night" and cast >= 2 else None
    if becomes is None:
        return state
    w = _World(state)
    set_day_night(w, becomes)
    if w.notes:
        raise UnsupportedCase("unsupported: " + "; ".join(sorted(w.notes)))
    return replace(state, objects=tuple(w.objects.values()), day_night=w.day_night)


def _steps_triggers_unsupported(state: GameState, step: str) -> None:
    """Abilities that would trigger at this step but are not modeled make the
    answer unsupported (never silently skipped)."""

    for o in state.battlefield:
        if o.card is None:
            continue
        for u in o.card.unsupported:
            text = " ".join(re.sub(r"\([^)]*\)", "", u.text or u.what).lower().split())  # CR 207.2a
            candidate = "at the beginning of" in text or "at end of" in text or ("whenever" in text and (
                "attack" in text or "block" in text or "combat damage" in text or "draw" in text))
            # its event, read from its words, can happen as this step begins (solver/rules/soundness/step_reach.py)
            if candidate and may_trigger_in_steps((step,), text):
                raise UnsupportedCase(f"unsupported: {o.id} ({o.name}): \"{u.text or u.what}\" "
                                      f"could trigger during the {step.replace('_', ' ')} step")


def _turn_based_actions(it: _Item, chooser: Chooser) -> Step:
    state = it.state
    step = state.turn.step
    active = state.turn.active
    _steps_triggers_unsupported(state, step)
    if step == "untap":  # CR 502.3; no priority (502.4): on to the upkeep
        objs = []
        kept = _kept_tapped(state, active)
        for o in state.objects:
            if o.zone == "battlefield" and o.controller == active:
                if o.skip_untap:
                    o = o.with_(skip_untap=False)
                elif o.tapped and o.id not in kept:
                    o = o.with_(tapped=False)
            objs.append(o)
        s = replace(state, objects=tuple(objs), turn=replace(state.turn, step="upkeep"))
        return [_with(it, s, "tba")]
    if step in TRIGGER_STEPS:  # CR 603.2b: "at the beginning of <step>" abilities trigger as it begins
        state, fired = delayed_triggers(state, step)   # and delayed triggers for it, once (CR 603.7b-c)
        it = replace(it, state=state, pending=it.pending + tuple(step_triggers(state, step)) + tuple(fired))
    if step == "upkeep":  # CR 503.1: upkeep triggers
        return [_with(it, stage="settle")]
    if step == "draw":
        if state.turn.number == 1 and len(state.player_ids) == 2:
            return [_with(it, stage="settle")]  # CR 103.8a: the starting player's first draw; 103.8c: not in multiplayer
        return _draw(it, chooser)
    if step == "declare_attackers":
        return _declare_attackers(it, chooser)
    if step == "declare_blockers":
        return _declare_blockers(it, chooser)
    if step in ("first_strike_damage", "combat_damage"):
        return _combat_damage(it, chooser)
    if step == "cleanup":
        return _cleanup(it, chooser)
    if step == "main1":
        return [_with(it, _lore_counters(state), "settle")]
    return [_with(it, stage="settle")]


def _kept_tapped(state: GameState, active: str) -> frozenset[str]:
    """CR 502.3: the active player's tapped permanents that a static ability of their own keeps from
    untapping in this untap step ("This artifact doesn't untap during your untap step.",
    :class:`~solver.core.ir.DoesntUntap`) — while they have it (layer 6, CR 613.1f) — or one of the Aura
    or Equipment attached to them ("Enchanted creature doesn't untap during its controller's untap step.")."""
    if not any(card_mentions(o.card, ir.DoesntUntap) for o in state.battlefield):
        return frozenset()   # no view to build
    mine = [o for o in state.battlefield if o.controller == active and o.tapped]
    view = View(state)
    held = {o.attached_to for o in state.battlefield if o.attached_to is not None and any(
        isinstance(a, ir.DoesntUntap) and a.attached for a in view.chars(o.id).abilities)}   # CR 303.4, 301.5
    return frozenset(o.id for o in mine if o.id in held or any(
        isinstance(a, ir.DoesntUntap) and not a.attached for a in view.chars(o.id).abilities))


def _lore_counters(state: GameState) -> GameState:
    """CR 714.3b: as the precombat main phase begins, the active player puts a lore counter on each
    Saga they control (a turn-based action; it doesn't use the stack). A chapter ability that this
    makes trigger (CR 714.2b) is not read by the project: the answer is refused, never guessed;
    so is a counter replacement effect that would change the counters put (CR 614.1, 122.6)."""

    sagas = [o for o in state.battlefield if o.controller == state.turn.active and is_saga(o.card)]
    if not sagas:
        return state
    if View.of(state).counter_replacements:
        raise UnsupportedCase("unsupported: lore counters put on Sagas (CR 714.3b) with counter replacement "
                              "effects in force are not modeled")
    put = {}
    for o in sagas:
        lore = o.counter("lore")
        fired = chapters_triggered(o.card, lore, lore + 1)
        if fired:
            raise UnsupportedCase(f"unsupported: {o.id} ({o.name}): \"{fired[0]}\" triggers as a lore counter "
                                  "is put on it (CR 714.2b, 714.3b) and is not modeled")
        put[o.id] = tuple(sorted({**dict(o.counters), "lore": lore + 1}.items()))
    return replace(state, objects=tuple(o.with_(counters=put[o.id]) if o.id in put else o for o in state.objects))


def _triggers(state: GameState, event: type[ir.Trigger], controller: str | None,
              only: set[str] | None = None) -> list[_PendingTrigger]:
    """Triggered abilities of permanents on ``event`` (CR 603.2), as waiting triggers."""

    view = View.of(state)
    out = []
    seq = 0
    for o in state.battlefield:
        if o.card is None or (controller is not None and o.controller != controller):
            continue
        if only is not None and o.id not in only:
            continue
        live = view.chars(o.id).abilities
        for a in o.card.abilities:
            if isinstance(a, ir.TriggeredAbility) and isinstance(a.trigger, event) and a in live and \
                    condition_met(view, a, o, o.controller):  # an intervening "if" (CR 603.4)
                seq += 1
                out.append(_PendingTrigger(o.id, _index_of(o.card, a), o.controller, a, (), seq))
    return out


def _draw(it: _Item, chooser: Chooser) -> Step:
    """CR 504.1, 121.1; a shuffled library: one outcome per distinct card (its probability)."""
    state = it.state
    player = state.turn.active
    library = state.zone("library", player)
    if not library:
        if not any(o.zone == "library" for o in state.objects) and not state.shuffled:
            # no library is listed at all: the situation does not say what would be drawn
            raise UnsupportedCase(f"unsupported: {player} draws (CR 504.1) but the situation lists no library; "
                                  "list the libraries (a player with no cards listed has an empty library)")
        return [_with(it, stage="settle", drew_empty=it.drew_empty + (player,))]
    drawn = (CardDrawn(player),)  # "whenever you draw a card" (CR 121.2)
    if player not in state.shuffled or len(library) == 1 or dict(state.known_top).get(player):
        s, _ = draw_top(state, player)   # a known top card (``known_top``, CR 401.4) is no random event
        return [_with(it, s, "settle", pending=it.pending + tuple(event_triggers(s, drawn)))]
    groups: dict[Any, list[GameObject]] = {}
    for o in library:
        groups.setdefault(_class(o), []).append(o)
    options = []
    for i, objs in enumerate(groups.values()):
        p = Fraction(len(objs), len(library))
        s, _ = draw_top(state, player, objs[0])
        options.append(Option("random", objs[0].id, f"draw {objs[0].id}", {"drawn": [objs[0].id]}, p, (i,),
                              _with(it, s, "settle", {"drawn": [objs[0].id]}, p, True,
                                    pending=it.pending + tuple(event_triggers(s, drawn)))))
    return _branch(chooser, "random", player, options, state)


def _class(o: GameObject) -> tuple[Hashable, ...]:
    """Interchangeable cards in a hidden zone: same card, owner and status."""
    return (o.card, o.owner, o.controller, o.tapped, o.counters, o.token, o.conjured, o.chosen)


# ---------------------------------------------------------------------------
# Combat (CR 506-511) through solver.engine.combat
# ---------------------------------------------------------------------------

def _combat() -> Any:
    try:
        return importlib.import_module("mtgsolve.solver.engine.combat")
    except ModuleNotFoundError as e:
        if e.name != "mtgsolve.solver.engine.combat":
            raise
        return None


def _could_attack(state: GameState, player: str) -> list[str]:
    view = View.of(state)
    out = []
    for o in state.battlefield:
        if o.controller != player or o.tapped:
            continue
        c = view.chars(o.id)
        if not c.is_creature:
            continue
        if o.sick and not c.keyword("haste"):
            continue
        out.append(o.id)
    return out


LIMIT = 100_000


def _label_attack(decl: Any) -> str:
    a = dict(decl.attackers)
    return "declare attackers " + (", ".join(f"{k} -> {v}" for k, v in sorted(a.items())) or "none")


def _label_block(decl: Any) -> str:
    b = dict(decl.blockers)
    return "declare blockers " + (", ".join(f"{k} -> {' + '.join(v)}" for k, v in sorted(b.items())) or "none")


def _declare_attackers(it: _Item, chooser: Chooser) -> Step:
    state = it.state
    active = state.turn.active
    combat = _combat()
    if combat is None:
        if _could_attack(state, active):
            raise UnsupportedCase("unsupported: declaring attackers (CR 508.1) needs solver.engine.combat, "
                                  "which this version lacks")
        return [_with(it, stage="settle", choices={"attackers": {}})]
    count, decls, status = combat.attack_declarations(state, active, LIMIT)
    if status != "ok" or (count is not None and count > len(decls)):
        raise UnsupportedCase(f"unsupported: {count} legal declarations of attackers; more than {LIMIT}")
    options = []
    for i, d in enumerate(decls):
        if d.cost:
            raise UnsupportedCase(f"unsupported: a declaration of attackers with a cost ({{{d.cost}}}) "
                                  "is not applied by pass")
        chosen = {"attackers": dict(d.attackers)}

        def make(d: Any = d, chosen: dict[str, dict[str, str]] = chosen) -> _Item:
            attackers = set(chosen["attackers"])
            s = record_attack(combat.apply_attack_declaration(state, d), active, len(attackers))  # CR 508.1
            pend = tuple(_triggers(s, ir.AttacksTrigger, None, attackers)) if attackers else ()  # CR 508.3a
            if attackers:  # "whenever you attack", "whenever a creature you control attacks" (CR 508.3a)
                pend += tuple(event_triggers(s, (Attacked(active, tuple(sorted(attackers))),)))
            return _with(it, s, "settle", chosen, pending=it.pending + pend)

        options.append(Option("attackers", chosen["attackers"], _label_attack(d), chosen, None, (i,), make=make))
    if not options:
        raise UnsupportedCase("unsupported: no legal declaration of attackers was listed")
    return _branch(chooser, "attackers", active, options, state)


def _defender(state: GameState) -> str | None:
    defenders = set()
    for o in state.battlefield:
        if o.attacking is not None:
            if state.is_player(o.attacking):
                defenders.add(o.attacking)
            else:
                d = state.find(o.attacking)
                if d is not None:
                    defenders.add(d.controller)
    if len(defenders) > 1:
        raise UnsupportedCase("unsupported: attacks on several defending players (multiplayer combat)")
    return next(iter(defenders), None)


def _declare_blockers(it: _Item, chooser: Chooser) -> Step:
    state = it.state
    combat = _combat()
    defender = _defender(state)
    if defender is None:
        return [_with(it, stage="settle")]
    if combat is None:
        raise UnsupportedCase("unsupported: declaring blockers (CR 509.1) needs solver.engine.combat")
    count, decls, status = combat.block_declarations(state, defender, LIMIT)
    if status != "ok" or (count is not None and count > len(decls)):
        raise UnsupportedCase(f"unsupported: {count} legal declarations of blockers; more than {LIMIT}")
    options = []
    for i, d in enumerate(decls):
        b = {k: list(v) for k, v in d.blockers}

        def make(d: Any = d, b: dict[str, list[str]] = b) -> _Item:
            s = combat.apply_block_declaration(state, d)
            blocks = tuple(sorted((k, tuple(v)) for k, v in b.items() if v))  # CR 509.3c-d
            blocked = {a for _, atk in blocks for a in atk}
            unblocked = tuple(sorted(o.id for o in s.battlefield if o.attacking is not None and o.id not in blocked))
            pend = tuple(event_triggers(s, (Blocked(blocks, unblocked),))) if blocks or unblocked else ()
            return _with(it, s, "settle", {"blockers": b}, pending=it.pending + pend)

        options.append(Option("blockers", b, _label_block(d), {"blockers": b}, None, (i,), make=make))
    if not options:
        raise UnsupportedCase("unsupported: no legal declaration of blockers was listed")
    return _branch(chooser, "blockers", defender, options, state)


def _combat_damage(it: _Item, chooser: Chooser) -> Step:
    state = it.state
    combat = _combat()
    if combat is None:
        raise UnsupportedCase("unsupported: combat damage (CR 510) needs solver.engine.combat")
    fs = None  # the combat damage step of turn.step (first-strike or regular, CR 510.4)
    results = combat.damage_assignments(state, fs)
    options = []
    plans: dict[Hashable, int] = {}  # the assignments in their order; the branches of one are ordered at the edge
    for res in results:  # damage dealt, state-based actions and triggers done (transition.settle)
        choices = _damage_choices(res)
        label = "assign damage " + json.dumps(choices, sort_keys=True, separators=(",", ":"))
        extra = {k: v for k, v in choices.items() if v}
        plan = plans.setdefault(res.damage, len(plans))
        options.append(Option("damage", choices, label, extra, None, (plan,), _with(it, res.state, "settle", extra)))
    if not options:
        return [_with(it, stage="settle")]
    return _branch(chooser, "damage", state.turn.active, options, state)


def _damage_choices(res: "DamageOutcome") -> dict[str, Any]:
    """The choices a combat damage option records (a :class:`~solver.engine.combat.DamageOutcome`):
    ``{"combat_damage": {creature: {recipient: amount}}}`` and what settling chose."""
    choices: dict[str, Any] = {"combat_damage": {d: dict(to) for d, to in res.damage}}
    choices.update(res.settled)
    return choices


# ---------------------------------------------------------------------------
# Cleanup (CR 514)
# ---------------------------------------------------------------------------

def _no_maximum_hand_size(state: GameState, player: str) -> bool:
    """Whether ``player`` controls a permanent with "You have no maximum hand size." (CR 402.2)."""
    if len(state.zone("hand", player)) <= MAX_HAND_SIZE or \
            not any(card_mentions(o.card, ir.NoMaximumHandSize) for o in state.battlefield):
        return False
    return any(s.controller == player for s in View.of(state).statics(ir.NoMaximumHandSize))


def _cleanup(it: _Item, chooser: Chooser) -> Step:
    state = it.state
    active = state.turn.active
    hand = state.zone("hand", active)
    excess = len(hand) - MAX_HAND_SIZE if not _no_maximum_hand_size(state, active) else 0
    options: list[Option] = []
    if excess > 0:  # CR 514.1: discard down to hand size, the player's choice
        _refuse_discard_triggers(state)
        groups: dict[Any, list[GameObject]] = {}
        for o in sorted(hand, key=lambda o: o.order):
            groups.setdefault(_class(o), []).append(o)
        classes = list(groups.values())
        for counts in _compositions(excess, [len(g) for g in classes]):
            ids = sorted(i for g, n in zip(classes, counts) for i in (o.id for o in g[:n]))
            s = discard(state, ids)
            options.append(Option("discard", tuple(ids), "discard " + ", ".join(ids), {"discard": ids}, None, (),
                                  _with(it, s, "tba", {"discard": ids})))
        options.sort(key=lambda o: o.choices["discard"])
        options = [_ranked(o, i) for i, o in enumerate(options)]
        taken = _branch(chooser, "discard", active, options, state)
        if isinstance(taken, Decision):
            return taken
        items = taken
    else:
        items = [it]
    out = []
    for x in items:
        s = x.state
        objs = tuple(o.with_(damage=0, regeneration_shields=0, exile_if_dies=False)
                     if o.damage or o.regeneration_shields or o.exile_if_dies else o
                     for o in s.objects)  # CR 514.2: damage removed; "this turn" effects and shields end
        delayed = tuple(t for t in s.delayed if t.step not in ir.CAST_DELAYED_STEPS)   # "this turn" triggers end
        s = end_of_turn_permissions(replace(s, objects=objs, effects=(), prevention=(), delayed=delayed))   # 514.2
        s = control_ends(s)   # control until end of turn
        out.append(replace(x, state=s, stage="settle", choices=x.choices))
    return out


def _refuse_discard_triggers(state: GameState) -> None:
    """A "whenever … discards a card" ability on the battlefield (CR 701.9a, 603.2) would trigger on the cleanup
    discard (and the cleanup step then repeats, 514.3a): not modeled here — refused, never skipped."""
    view = View.of(state)
    for o in state.battlefield:
        if any(isinstance(a, ir.TriggeredAbility) and isinstance(a.trigger, ir.DiscardTrigger)
               for a in view.chars(o.id).abilities):
            raise UnsupportedCase(f"unsupported: {o.id} ({o.name}) triggers on the discard to hand size "
                                  "(CR 514.1, 514.3a), which is not modeled")


def _ranked(o: Option, rank: int) -> Option:
    o.rank = (rank,)
    return o


def _compositions(total: int, caps: list[int]) -> list[tuple[int, ...]]:
    """Every way to take ``total`` items from groups of sizes ``caps`` (counts per group)."""
    out = []
    for combo in itertools.product(*(range(min(c, total) + 1) for c in caps)):
        if sum(combo) == total:
            out.append(combo)
    return out


# ---------------------------------------------------------------------------
# After the turn-based actions: state-based actions, triggers, priority
# ---------------------------------------------------------------------------

def _settle(it: _Item, chooser: Chooser) -> Step:
    state = it.state
    res = settle(state, pending=it.pending, drew_empty=it.drew_empty)
    if res.notes:
        raise UnsupportedCase("unsupported: " + "; ".join(res.notes))
    options = []
    for b in res.branches:  # ranked alike: ordered by their situations at the edge (solver.api.play)
        s = b.state
        extra = {k: v for k, v in b.choices.items()}
        options.append(Option("choose", extra, _choose_label(extra), extra, None, (),
                              _with(replace(it, pending=(), drew_empty=()), s, "done", extra)))
    taken = _branch(chooser, "choose", state.turn.active, options, state)
    if isinstance(taken, Decision):
        return taken
    items = taken
    out = []
    for x in items:
        s = x.state
        if game_over(s):
            out.append(replace(x, stage="done"))
            continue
        if s.turn.step == "cleanup":
            if not res.changed:  # CR 514.3: no priority; the turn ends
                out.append(replace(x, state=_new_turn(empty_mana_pools(s)), stage="tba"))
                continue
            # CR 514.3a: players receive priority; another cleanup step follows
        s = replace(s, turn=replace(s.turn, priority=s.turn.active, passed=()))
        out.append(replace(x, state=s, stage="done"))
    return out
