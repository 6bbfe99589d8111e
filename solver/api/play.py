"""Playing a game through :class:`solver.api.Situation`: passing, declarations,
observations and the end of the game (the agents' API as a game).

* ``sit.apply("pass")`` moves the game on (:mod:`solver.engine.turns`): priority to
  the next player, the top of the stack resolving, or the next step with its
  turn-based actions.  A deterministic result is the next situation; when a
  random event decides it (drawing from a ``shuffled`` library) ``apply``
  raises :class:`RandomOutcomeError` unless given a seeded ``rng``
  (``random.Random``) — :meth:`Situation.outcomes` lists every outcome with
  its probability.
* When the game stops at a player's choice — the declaration of attackers
  (CR 508.1) or blockers (CR 509.1), a combat damage assignment (CR 510.1),
  discarding to hand size (CR 514.1), a choice during resolution or a
  state-based action (the legend rule, trigger order) — the situation carries
  that decision: ``sit.decision`` is set, ``sit.player`` is the player who
  chooses, and ``sit.legal_actions`` lists :class:`Choice` actions (lazily,
  with an exact ``count()``), e.g.::

      declare attackers raging-goblin -> bob, grizzly-bears -> bob
      declare attackers none
      declare blockers wall-of-omens -> goblin-guide
      discard forest, mountain
      assign damage {...}
      choose {...}

  ``sit.apply(choice)`` (a :class:`Choice` or its string) continues the game.
  A decision is a point inside a turn-based action, not a situation file:
  ``to_dict()`` of such a situation writes the state the choice is made in.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, Iterator, Protocol, TypeVar

from ..core.errors import UnsupportedCase
from ..core.state import GameState
from ..engine.apply import Applied
from ..engine.opening import NeedsRandom, OpeningDecision, answer as opening_answer
from ..engine.transition import Branch, ResolutionUnsupported, alive, game_over, mark_losers, winner
from ..engine.turns import Decision, GameOver, Option, pass_priority, play_pass, resume, resume_all, settle_action
from ..queries.canonical import canonical_branches, situation_json

class SituationLike(Protocol):
    """What the game driver uses of :class:`solver.api.situation.Situation` (which calls it): the
    state, the pending decision, who decides, the successor of a change, soundness and applying.
    A protocol, so that this module needs nothing of the API class that uses it."""

    state: GameState
    decision: Any

    @property
    def player(self) -> str: ...

    @property
    def legal_actions(self) -> Any: ...

    def successor(self, state: GameState, decision: Any = None) -> Any: ...

    def apply(self, action: Any, *, trigger_order: Any = None, rng: Any = None) -> Any: ...

    def _check_sound(self, kind: str = "actions", **query: Any) -> None: ...


S = TypeVar("S", bound=SituationLike)  # the API's Situation (solver.api.situation), which calls this module

__all__ = ["Choice", "RandomOutcomeError", "IllegalChoiceError", "NotModeledError", "DecisionActions", "NoActions",
           "game_apply", "after_action", "outcomes_of", "is_terminal", "winner_of", "concede", "is_concession"]


class RandomOutcomeError(ValueError):
    """The result of the action depends on a random event (a draw from a shuffled library)."""


class IllegalChoiceError(ValueError):
    """Not a legal move of the game now (the API raises it as ``IllegalActionError``)."""


class NotModeledError(ValueError):
    """A consequence is not modeled (the API raises it as ``UnsupportedActionError``)."""


@dataclass(frozen=True)
class Choice:
    """One option of a pending decision: ``kind`` (``attackers``, ``blockers``,
    ``damage``, ``discard``, ``choose``), its canonical ``label`` (the action
    string), its ``index`` among the options (canonical order), the ``choices``
    it records and its typed ``value`` (:class:`solver.engine.turns.Option`)."""

    kind: str
    label: str
    index: int
    choices: Any = None
    value: Any = None

    def __str__(self) -> str:
        return self.label

    def to_json(self) -> dict:
        return {"kind": self.kind, "choice": self.label}


def _norm(text: str) -> str:
    return " ".join(str(text).split())


def _declaration(label: str) -> tuple[str, frozenset] | None:
    """``declare attackers a -> bob, b -> bob`` / ``declare blockers w -> a + b`` as (kind, pairs)."""
    for kind in ("declare attackers ", "declare blockers "):
        if label.startswith(kind):
            body = label[len(kind):].strip()
            if body == "none":
                return (kind, frozenset())
            pairs = []
            for entry in body.split(","):
                who, sep, what = entry.partition("->")
                if not sep:
                    return None
                pairs.append((who.strip(), frozenset(x.strip() for x in what.split("+"))))
            return (kind, frozenset(pairs))
    return None


class DecisionActions:
    """The legal actions of a pending decision (the shape of :class:`solver.api.LegalActions`)."""

    def __init__(self, situation: S):
        self.situation = situation
        self.decision = situation.decision

    def __iter__(self) -> Iterator[Choice]:
        for i, o in enumerate(self.decision.options):
            yield Choice(self.decision.kind, o.label, i, o.choices, o.value)

    def __contains__(self, action: object) -> bool:
        return self.find(action) is not None

    def find(self, action: object) -> Choice | None:
        """The option ``action`` names: a :class:`Choice` (by its typed value), or the action string
        users see (also as ``{"choice": string}``; a declaration in any order of its entries)."""
        if isinstance(action, Choice):
            for c in self:
                if c.index == action.index and c.kind == action.kind and c.value == action.value:
                    return c
            label = action.label
        elif isinstance(action, str):
            label = action
        elif isinstance(action, dict) and "choice" in action:
            label = action["choice"]
        else:
            return None
        want = _norm(label)
        for c in self:
            if _norm(c.label) == want:
                return c
        parsed = _declaration(want)  # the same declaration written in another order
        if parsed is not None:
            for c in self:
                if _declaration(_norm(c.label)) == parsed:
                    return c
        return None

    def __bool__(self) -> bool:
        return True

    def __len__(self) -> int:
        return self.count()

    def count(self) -> int:
        return len(self.decision.options)

    def heads(self) -> list[Choice]:
        return list(self)

    def summary(self) -> dict:
        return {"kind": "actions", "status": "ok", "count": self.count(),
                "actions": [c.to_json() for c in self]}

    def __repr__(self) -> str:
        return f"<DecisionActions of {self.decision.player}: {self.count()} {self.decision.kind} options>"


class NoActions:
    """The legal actions of a finished game: none (CR 104.2a)."""

    def __init__(self, situation: S):
        self.situation = situation

    def __iter__(self) -> Iterator[Any]:
        return iter(())

    def __contains__(self, action: object) -> bool:
        return False

    def __bool__(self) -> bool:
        return False

    def __len__(self) -> int:
        return 0

    def count(self) -> int:
        return 0

    def heads(self) -> list[Any]:
        return []

    def summary(self) -> dict:
        return {"kind": "actions", "status": "ok", "count": 0, "actions": []}


def _situation(state: GameState, like: S, decision: Any = None) -> S:
    return like.successor(state, decision)


def canonical_decision(d: Decision) -> Decision:
    """``d`` with its options in canonical order: by the engine's ``rank``, options of equal rank
    (the branches of one change: a resolution's, a state-based action's, a trigger order's) by the
    canonical JSON of the situation each leads to. Options of distinct ranks are never built."""
    ranks: dict[tuple, int] = {}
    for o in d.options:
        ranks[o.rank] = ranks.get(o.rank, 0) + 1
    if all(n == 1 for n in ranks.values()):
        ordered = sorted(d.options, key=lambda o: o.rank)
    else:
        ordered = sorted(d.options, key=lambda o: (o.rank, situation_json(o.state) if ranks[o.rank] > 1 else ""))
    return replace(d, options=tuple(ordered))


def _sample(d: Decision, rng: Any) -> Option:
    """A random event's outcome, drawn with ``rng`` (``random.Random``) by the options' probabilities."""
    r = Fraction(rng.random())
    acc = Fraction(0)
    for o in d.options:
        acc += o.probability or 0
        if r < acc:
            return o
    return d.options[-1]


def _follow(step: Branch | Decision, like: S, rng: Any) -> S:
    """The situation one path of the game reaches: random events sampled with ``rng`` (without
    one, :class:`RandomOutcomeError`), up to the next situation or the next player's decision."""
    while isinstance(step, Decision):
        d = canonical_decision(step)
        if d.kind != "random":
            return _situation(d.state, like, d)
        if rng is None:
            raise RandomOutcomeError(
                f"passing leads to a random event with {len(d.options)} outcomes (e.g. a draw from a shuffled "
                f"library): list them with Situation.outcomes('pass'), or give apply(..., rng=random.Random(seed)) "
                f"to sample one")
        step = resume(_sample(d, rng))
    return _situation(step.state, like)


def game_apply(sit: S, action: Any, rng: Any = None) -> S:
    """``pass`` or the answer to a pending decision (module docstring)."""
    try:
        if isinstance(sit.decision, OpeningDecision):
            return _opening(sit, action, rng)
        if sit.decision is not None:
            return _follow(resume(_option(sit, action)), sit, rng)
        _check_sound(sit)
        return _follow(play_pass(sit.state), sit, rng)
    except GameOver as e:
        raise IllegalChoiceError(str(e)) from None
    except (UnsupportedCase, ResolutionUnsupported) as e:   # a resolution the engine refuses: never a guess
        raise NotModeledError(str(e)) from None


def _opening(sit: S, action: Any, rng: Any) -> S:
    """A mulligan or bottom decision of the start of the game answered (:mod:`solver.engine.opening`,
    CR 103.5): the next decision of the process, or the game's first situation."""
    decision = sit.decision
    if decision.refusal is not None:
        raise NotModeledError(decision.refusal)
    try:
        nxt = opening_answer(decision, _option(sit, action), rng)
    except NeedsRandom as e:
        raise RandomOutcomeError(str(e)) from None
    if isinstance(nxt, OpeningDecision):
        return _situation(nxt.state, sit, nxt)
    return _situation(nxt, sit)


def is_concession(action: Any) -> bool:
    """Whether ``action`` is the string (or ``{"kind": "concede"}``) of conceding (CR 104.3a)."""
    if isinstance(action, str):
        return _norm(action) == "concede"
    return isinstance(action, dict) and action.get("kind") == "concede" and len(action) == 1


def concede(sit: S, player: str) -> S:
    """CR 104.3a: ``player`` concedes — at any time, whoever has priority or a pending decision —
    and loses the game; in a two-player game the other player wins (104.2a). A player leaving a
    game of more than two players (CR 800.4a: their objects leave it too) is not modeled."""
    if player not in alive(sit.state):
        raise IllegalChoiceError(f"concede: {player} is not a player still in the game")
    if len(alive(sit.state)) > 2:
        raise NotModeledError("concede: a player leaving a game of more than two players (CR 800.4a) is not modeled")
    return _situation(mark_losers(sit.state, [player]), sit)


def _option(sit: S, action: Any) -> Any:
    """The option of the pending decision that ``action`` names (:meth:`DecisionActions.find`)."""
    decision = sit.decision
    assert decision is not None
    choice = DecisionActions(sit).find(action)
    if choice is None:
        raise IllegalChoiceError(f"{action}: not one of the {len(decision.options)} options of "
                                 f"{decision.player}'s {decision.kind} decision (see legal_actions)")
    return decision.options[choice.index]


def _check_sound(sit: S) -> None:
    """Contract §2.0: every unread part of the situation can change what passing does."""
    sit._check_sound("pass")


def after_action(sit: S, applied: Applied) -> S:
    """CR 117.5: state-based actions (and triggers they cause) after an action,
    through :func:`solver.engine.turns.settle_action`, with the abilities that triggered as the
    action was taken (the dies abilities of creatures sacrificed to pay a cost, CR 700.4, 603.10a:
    queued when they moved); the passes in succession are reset (CR 117.3d: an action was taken)."""
    state = applied.state
    if state.turn.passed:
        state = replace(state, turn=replace(state.turn, passed=()))
    pending = applied.pending
    if set(applied.stacked) & {p.controller for p in pending}:
        raise NotModeledError("abilities triggered by the action and by a creature dying to pay its cost "
                              "are put on the stack together (CR 603.3b); their order is not modeled by apply")
    apnap = _apnap_rank(state)
    if any(apnap[p.controller] < apnap[s] for p in pending if p.refers_to is not None for s in applied.stacked):
        raise NotModeledError("a ward ability (CR 702.21a) and the action's own triggered abilities of a player "
                              "later in APNAP order go on the stack together (CR 603.3b): not modeled by apply")
    try:
        settled = settle_action(state, pending)
    except (UnsupportedCase, ResolutionUnsupported) as e:
        raise NotModeledError(str(e)) from None
    if isinstance(settled, Decision):
        return _situation(settled.state, sit, canonical_decision(settled))
    return _situation(settled, sit)


def _apnap_rank(state: GameState) -> dict[str, int]:
    """Each player's place in APNAP order (CR 101.4): the active player first, then turn order."""
    ids = list(state.player_ids)
    i = ids.index(state.turn.active) if state.turn.active in ids else 0
    return {pid: n for n, pid in enumerate(ids[i:] + ids[:i])}


def outcomes_of(sit: S, action: Any = "pass") -> list[tuple[dict, Any, S]]:
    """Every outcome of passing (or of answering the pending decision): ``(choices,
    probability or None, situation)``, as the ``pass`` query lists them."""
    try:
        if isinstance(sit.decision, OpeningDecision):
            return _opening_outcomes(sit, action)
        if sit.decision is not None:
            choice = DecisionActions(sit).find(action)
            if choice is None:
                raise ValueError(f"{action}: not an option of the pending decision")
            branches = resume_all(sit.decision.options[choice.index])
        else:
            if str(action) != "pass":
                raise ValueError("outcomes: only 'pass' (or a pending decision's option) has several outcomes")
            _check_sound(sit)
            branches = pass_priority(sit.state)
    except UnsupportedCase as e:
        raise NotModeledError(str(e)) from None
    return [(b.choices, b.probability, _situation(b.state, sit)) for b in canonical_branches(branches)]


def _opening_outcomes(sit: S, action: Any) -> list[tuple[dict, Any, S]]:
    """The outcome of a keep or bottom decision (one); a mulligan's shuffle is not enumerated."""
    choice = DecisionActions(sit).find(action)
    if choice is None:
        raise ValueError(f"{action}: not an option of the pending decision")
    try:
        nxt = opening_answer(sit.decision, sit.decision.options[choice.index], None)
    except NeedsRandom:
        raise NotModeledError("outcomes: the hands a mulligan's shuffle can deal (CR 103.5) are not listed; "
                              "apply it with a seeded rng") from None
    if isinstance(nxt, OpeningDecision):
        return [(dict(choice.choices), None, _situation(nxt.state, sit, nxt))]
    return [(dict(choice.choices), None, _situation(nxt, sit))]


def is_terminal(sit: S) -> bool:
    return game_over(sit.state)


def winner_of(sit: S) -> str | None:
    return winner(sit.state)
