"""A game in progress as an agent plays it through text: two decklists, a seed, and each player's
view (issue 27 item 4; the MCP server's game tools, :mod:`solver.apps.mcp_server`).

:class:`GameSession` holds the whole game — libraries in a known order, both hands — and is its own
dealer, as :class:`solver.api.env.MtgEnv` is: the set-up is :func:`solver.api.games.new_game` (the
starting player drawn from the seed, CR 103.1; London mulligans as decisions, 103.5) and every
random event of the game (a shuffle, a mulligan's new hand) is drawn from the same seeded
generator, so the same seed and the same actions play the same game, byte for byte.

An agent sees what its player may see (CR 400.2: libraries and hands are hidden zones; a player may
look at their own hand): :meth:`GameSession.observe` gives the public zones in full, the player's
own hand, and for hidden zones only their sizes; face-down exiled cards of the other players are
shown as face down (CR 406.3). The acting player's legal actions are the canonical action strings
of :class:`solver.api.Situation` (``cast lightning-bolt -> bob paying mountain``, ``declare attackers
…``, ``keep``); applying a string that is not legal is answered with the reason
(:meth:`solver.api.Situation.is_legal`), never an exception. When the game reaches text the
project does not read (contract §2.0), the game stops there as *refused*, with the blocking parts:
the engine never guesses. Every action taken is in :attr:`GameSession.log`.
"""
from __future__ import annotations

import itertools
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Sequence

from .games import _deck, deal_shuffled, new_game
from .situation import ActionError, Situation, UnsupportedActionError
from ..core import ir
from ..core.moves import AmbiguousActionError

__all__ = ["GameSession", "LogEntry", "action_strings", "no_action_reason"]


@dataclass(frozen=True)
class TriggerOrder:
    """An action with the order its own triggered abilities go on the stack (CR 603.3b: their
    controller's choice; ``order``: the sources, top of the stack first) — an option of the decision
    that follows an action whose triggers need ordering."""

    action: Any
    order: tuple[str, ...]

    def __str__(self) -> str:
        return f"{self.action} ordering {', '.join(self.order)}"


def trigger_orders(action: Any, sources: Sequence[str]) -> list[TriggerOrder]:
    """Every distinct order of the triggered abilities of ``sources`` (CR 603.3b), as options."""
    return [TriggerOrder(action, order) for order in sorted(set(itertools.permutations(sources)))]


def no_action_reason(sit: Situation) -> str:
    """Why a game can't go on when the player to act has no legal action at all (never so by the rules:
    passing is always one, CR 117.3d): the known case is priority in the cleanup step after state-based
    actions (CR 514.3a), which the action listing does not give (it follows 514.3: no priority there)."""
    t = sit.state.turn
    if t.step == "cleanup":
        return ("unsupported: players receive priority in the cleanup step after state-based actions "
                "(CR 514.3a), which the legal actions do not list (CR 514.3)")
    return f"unsupported: {sit.player} has no legal action in {t.step} (turn {t.number})"


def action_strings(sit: Situation, max_results: int) -> tuple[list[str], int]:
    """The first ``max_results`` legal actions of the acting player as canonical strings, and how many there
    are (exact); raises :class:`UnsupportedActionError` when unread text could change them (contract §2.0)."""
    if sit.decision is None:
        sit._check_sound("actions")
    listed: list[str] = []
    for a in sit.legal_actions:
        if len(listed) >= max_results:
            break
        listed.append(str(a))
    return listed, sit.legal_actions.count()


@dataclass(frozen=True)
class LogEntry:
    """One action of the game: the ``n``-th decision (from 1), the turn and step it was taken in,
    who took it and its canonical string."""

    n: int
    turn: int
    step: str
    player: str
    action: str

    def to_json(self) -> dict[str, Any]:
        return {"n": self.n, "turn": self.turn, "step": self.step, "player": self.player, "action": self.action}


@dataclass
class GameSession:
    """One game between two decklists (see the module docstring). ``decks[k]`` is ``players[k]``'s:
    decklist text, a path to a decklist file, or card names; ``max_steps`` ends a game that runs too
    long (``status: limit``)."""

    decks: Sequence[str | Path | Iterable[str]]
    seed: int
    players: tuple[str, ...] = ("alice", "bob")
    mulligans: bool = True
    max_steps: int = 20_000
    log: list[LogEntry] = field(default_factory=list)
    refusal: dict[str, Any] | None = None

    def __post_init__(self) -> None:
        lists = [_deck(d) for d in self.decks]
        if len(lists) != len(self.players):
            raise ValueError(f"{len(lists)} decklists for {len(self.players)} players")
        self._dealer = random.Random(self.seed)
        self.situation: Situation = new_game(lists, self._dealer, self.players, self.mulligans)

    # -- where the game is ----------------------------------------------------------------
    @property
    def status(self) -> str:
        """``over`` (a winner or a draw, CR 104), ``refused`` (unread text reached), ``limit``
        (``max_steps`` decisions taken) or ``playing``."""
        if self.situation.is_terminal:
            return "over"
        if self.refusal is not None:
            return "refused"
        if len(self.log) >= self.max_steps:
            return "limit"
        return "playing"

    @property
    def to_act(self) -> str | None:
        """The player whose decision it is (priority or a pending choice), None once the game stopped."""
        return self.situation.player if self.status == "playing" else None

    def result(self) -> dict[str, Any]:
        """The game's status, winner (None: none yet, or a draw) and, when refused, the refusal."""
        out: dict[str, Any] = {"status": self.status, "winner": self.situation.winner if self.status == "over" else None,
                               "turn": self.situation.state.turn.number, "decisions": len(self.log)}
        if self.refusal is not None:
            out["refusal"] = self.refusal
        return out

    # -- what a player sees ---------------------------------------------------------------
    def observe(self, player: str) -> dict[str, Any]:
        """The game as ``player`` sees it (CR 400.2): the situation's public zones, their own hand, the
        sizes of the hidden zones, who acts and what decision is pending; the top card of their library
        (``library_top``) while they control "You may look at the top card of your library any time."."""
        if player not in self.players:
            raise ValueError(f"unknown player {player!r} (players: {', '.join(self.players)})")
        d = self.situation.to_dict()
        view: dict[str, Any] = {k: v for k, v in d.items() if k not in ("hand", "library", "shuffled", "exile")}
        view["hand"] = {player: (d.get("hand") or {}).get(player, [])}
        view["hand_sizes"] = {p: len(self.situation.zone("hand", p)) for p in self.players}
        view["library_sizes"] = {p: len(self.situation.zone("library", p)) for p in self.players}
        exile = {p: [o if p == player or not (isinstance(o, dict) and o.get("face_down")) else {"face_down": True}
                     for o in objs] for p, objs in (d.get("exile") or {}).items()}
        if exile:
            view["exile"] = exile
        library = (d.get("library") or {}).get(player) or []
        if library and any(s.controller == player for s in self.situation.view.statics(ir.LookAtTopAnyTime)):
            view["library_top"] = {player: library[0]}   # "You may look at the top card of your library any time."
        decision = self.situation.decision
        view["to_act"] = self.to_act
        view["decision"] = getattr(decision, "kind", None) if decision is not None else (
            "priority" if self.to_act is not None else None)
        view["result"] = self.result()
        return view

    # -- acting -----------------------------------------------------------------------------
    def legal_actions(self, max_results: int = 1_000) -> dict[str, Any]:
        """The acting player's legal actions as canonical strings (the first ``max_results``; ``count``
        is exact), or the refusal when deciding them reaches unread text (the game stops there)."""
        if self.status != "playing":
            return {"player": None, "status": self.status, "count": 0, "actions": [], "result": self.result()}
        sit = self.situation
        try:
            listed, count = action_strings(sit, max_results)
            if count == 0:
                raise UnsupportedActionError(no_action_reason(sit))
        except UnsupportedActionError as e:
            self._refuse(e)
            return {"player": sit.player, "status": "refused", "count": 0, "actions": [], "result": self.result()}
        return {"player": sit.player, "status": "truncated" if count > len(listed) else "ok", "count": count,
                "actions": listed}

    def apply(self, action: str, trigger_order: Sequence[str] | None = None) -> dict[str, Any]:
        """The acting player takes ``action`` (an action string; ``concede`` concedes, CR 104.3a).
        Answers ``ok`` with the action's canonical string, ``illegal`` with the reason (the game is
        unchanged), ``choose_order`` with the ``sources`` of the action's own triggered abilities when
        their order is the player's choice (CR 603.3b: give it again with ``trigger_order``, top of the
        stack first; the game is unchanged), or ``refused`` with the blocking text (the game stops)."""
        if self.status != "playing":
            return {"status": "illegal", "reason": f"the game is {self.status}", "result": self.result()}
        sit, player = self.situation, self.situation.player
        try:
            full: Any = action if sit.decision is not None or action.strip() == "concede" else sit.complete(action)
            after = sit.apply(full, trigger_order=trigger_order, rng=self._dealer)
        except AmbiguousActionError as e:
            if not e.trigger_sources:
                return {"status": "illegal", "action": action, "reason": " ".join(str(e).split())}
            return {"status": "choose_order", "action": action, "sources": list(e.trigger_sources),
                    "reason": " ".join(str(e).split())}
        except UnsupportedActionError as e:
            self._refuse(e)
            return {"status": "refused", "action": action, "result": self.result()}
        except ActionError as e:
            verdict = sit.is_legal(action) if sit.decision is None else None
            reason = getattr(verdict, "reason", None) or str(e)
            return {"status": "illegal", "action": action, "reason": " ".join(str(reason).split())}
        self.situation = deal_shuffled(after, self._dealer)
        entry = LogEntry(len(self.log) + 1, sit.state.turn.number, sit.state.turn.step, player, str(full))
        self.log.append(entry)
        return {"status": "ok", "action": entry.action, "result": self.result()}

    def _refuse(self, e: UnsupportedActionError) -> None:
        self.refusal = {"message": " ".join(str(e).split()) or type(e).__name__,
                        "unread": [dict(p) for p in getattr(e, "parts", [])]}
