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

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Iterator

from ..core.errors import UnsupportedCase
from ..engine.transition import Branch, ResolutionUnsupported, dies_triggers, game_over, settle, winner

if TYPE_CHECKING:  # pragma: no cover
    from .situation import Situation

__all__ = ["Choice", "RandomOutcomeError", "IllegalChoiceError", "NotModeledError", "DecisionActions", "NoActions",
           "game_apply", "after_action", "outcomes_of", "is_terminal", "winner_of"]


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
    string) and its ``index`` among the options (canonical order)."""

    kind: str
    label: str
    index: int
    choices: Any = None

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

    def __init__(self, situation: "Situation"):
        self.situation = situation
        self.decision = situation.decision

    def __iter__(self) -> Iterator[Choice]:
        for i, o in enumerate(self.decision.options):
            yield Choice(self.decision.kind, o.label, i, o.choices)

    def __contains__(self, action: object) -> bool:
        return self.find(action) is not None

    def find(self, action: object) -> Choice | None:
        if isinstance(action, Choice):
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

    def __init__(self, situation: "Situation"):
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


def _situation(state: Any, like: "Situation", decision: Any = None) -> "Situation":
    s = type(like)(state, source=like.source)
    s.decision = decision
    return s


def _one(branches: list[Branch], like: "Situation") -> "Situation":
    if len(branches) != 1:  # a stopping chooser yields one path
        raise AssertionError(f"expected one outcome, got {len(branches)}")
    return _situation(branches[0].state, like)


def game_apply(sit: "Situation", action: Any, rng: Any = None) -> "Situation":
    """``pass`` or the answer to a pending decision (module docstring)."""
    from ..engine.turns import Chooser, GameOver, NeedDecision, pass_priority, resume

    chooser = Chooser(stop=True, rng=rng)
    try:
        if sit.decision is not None:
            choice = DecisionActions(sit).find(action)
            if choice is None:
                raise IllegalChoiceError(f"{action}: not one of the {len(sit.decision.options)} options of "
                                         f"{sit.decision.player}'s {sit.decision.kind} decision "
                                         f"(see legal_actions)")
            return _one(resume(sit.decision.options[choice.index], chooser), sit)
        _check_sound(sit)
        return _one(pass_priority(sit.state, chooser), sit)
    except NeedDecision as d:
        if d.kind == "random":
            raise RandomOutcomeError(
                f"passing leads to a random event with {len(d.options)} outcomes (e.g. a draw from a shuffled "
                f"library): list them with Situation.outcomes('pass'), or give apply(..., rng=random.Random(seed)) "
                f"to sample one") from None
        return _decision_situation(sit, d)
    except GameOver as e:
        raise IllegalChoiceError(str(e)) from None
    except UnsupportedCase as e:
        raise NotModeledError(str(e)) from None


def _decision_situation(sit: "Situation", d: Any) -> "Situation":
    """The situation in which ``d`` is decided: the state before the choice
    (the options' common predecessor is the step being entered)."""
    state = _decision_state(d)
    return _situation(state, sit, d)


def _decision_state(d: Any) -> Any:
    opts = d.options
    base = getattr(d, "state", None)
    if base is not None:
        return base
    return opts[0].item.state


def _check_sound(sit: "Situation") -> None:
    """Contract §2.0: every unread part of the situation can change what passing does."""
    check = getattr(sit, "_check_sound", None)
    if check is not None:
        check("pass")


def after_action(sit: "Situation", state: Any) -> "Situation":
    """CR 117.5: state-based actions (and triggers they cause) after an action,
    through :func:`solver.engine.transition.settle`; the passes in succession are
    reset (CR 117.3d: an action was taken)."""
    from dataclasses import replace

    from ..engine.turns import NeedDecision, Option, _Item

    if state.turn.passed:
        state = replace(state, turn=replace(state.turn, passed=()))
    try:
        # creatures sacrificed to pay a cost die (CR 700.4): their dies abilities trigger (CR 603.10a)
        pending = dies_triggers(sit.state, state)
    except ResolutionUnsupported as e:
        raise NotModeledError(str(e)) from None
    if pending:
        placed = {o.controller for o in state.zone("stack") if o.ability is not None and sit.state.find(o.id) is None
                  and o.id != _new_activation(sit, state)}
        if placed & {p.controller for p in pending}:
            raise NotModeledError("abilities triggered by the action and by a creature dying to pay its cost "
                                  "are put on the stack together (CR 603.3b); their order is not modeled by apply")
    res = settle(state, pending=pending)
    if res.notes:
        raise NotModeledError("not modeled: " + "; ".join(res.notes))
    if len(res.branches) == 1:
        return _situation(res.branches[0].state, sit)
    import json

    options = [Option("choose " + json.dumps(b.choices, sort_keys=True, separators=(",", ":")), b.choices, None,
                      _Item(b.state, "done", b.choices)) for b in res.branches]
    d = NeedDecision("choose", state.turn.active, options)
    d.state = state
    return _situation(state, sit, d)


def _new_activation(sit: "Situation", state: Any) -> str | None:
    """The id of the activated ability the action put on the stack (not a trigger), if any."""
    new = [o for o in state.zone("stack") if o.ability is not None and sit.state.find(o.id) is None]
    for o in new:
        src = state.find(o.ability.source)
        if src is not None and src.card is not None:
            from ..engine.transition import ability_of

            from ..core import ir
            if ir.is_activated(ability_of(src.card, o.ability.index)):
                return o.id
    return None


def outcomes_of(sit: "Situation", action: Any = "pass") -> list[tuple[dict, Any, "Situation"]]:
    """Every outcome of passing (or of answering the pending decision): ``(choices,
    probability or None, situation)``, as the ``pass`` query lists them."""
    from ..engine.turns import ALL, pass_priority, resume

    try:
        if sit.decision is not None:
            choice = DecisionActions(sit).find(action)
            if choice is None:
                raise ValueError(f"{action}: not an option of the pending decision")
            branches = resume(sit.decision.options[choice.index], ALL)
        else:
            if str(action) != "pass":
                raise ValueError("outcomes: only 'pass' (or a pending decision's option) has several outcomes")
            _check_sound(sit)
            branches = pass_priority(sit.state, ALL)
    except UnsupportedCase as e:
        raise NotModeledError(str(e)) from None
    return [(b.choices, b.probability, _situation(b.state, sit)) for b in branches]


def is_terminal(sit: "Situation") -> bool:
    return game_over(sit.state)


def winner_of(sit: "Situation") -> str | None:
    return winner(sit.state)
