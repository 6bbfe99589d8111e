"""A PettingZoo AEC environment: two players, two decks, whole games (optional extra ``env``).

>>> from mtgsolve.solver.api.env import MtgEnv            # doctest: +SKIP
>>> env = MtgEnv(seed=1)
>>> env.reset(seed=1)
>>> for agent in env.agent_iter():
...     obs, reward, terminated, truncated, info = env.last()
...     if terminated or truncated:
...         env.step(None)
...         continue
...     legal = obs["action_mask"].nonzero()[0]
...     env.step(int(env.np_random.choice(legal)))

The game (:mod:`solver.engine.turns`, :mod:`solver.api.play`): each player's deck is
shuffled from the seed (the library is then a known order inside the engine
— agents never observe it — so every draw is determined and a game is
reproducible from its seed). The environment is the dealer: when an effect
shuffles a library during the game (a search, CR 701.23, 701.24), it puts
that library into a concrete order drawn from the same seeded generator
(:func:`solver.api.games.deal_shuffled`), so later draws and "look at the top N
cards" (CR 401.4) act on a known order too. The set-up is the game's (CR 103,
:func:`solver.api.games.new_game`): the starting player drawn from the seed (103.1), seven
cards each, then the London mulligan as decisions of each agent (103.5: ``keep`` or
``mulligan`` in the option slots, then one ``bottom <card>`` decision per card to put on the
bottom; ``mulligans=False`` skips them), and the starting player in the upkeep of turn 1
(103.8a: no draw that turn).  The agent to act is the player with priority or the player making a
pending choice (mulligans, declarations of attackers and blockers, damage
assignments, discarding to hand size). Conceding (CR 104.3a, ``Situation.concede``) has no slot.

Actions: the fixed index space of :class:`solver.api.encoding.ActionEncoding`
(``pass``; play/cast per card; activate per card ability; option slots).
Choosing a cast or activate head with several completions (targets ×
payments) makes the same agent choose the completion next, in the option
slots.  ``observation["action_mask"]`` marks the legal indices.

Observation (``observation["observation"]``, float32, from the acting
agent's point of view): turn number, step (one-hot), whether the agent is
active / acting, the kind of pending choice; per player (self first): life,
poison, hand, library and graveyard sizes, lost; per card of the game (the
encoding's card order): zone one-hot (battlefield, hand, graveyard,
exile, stack, hidden — the opponent's hand and every library are hidden),
controlled by the agent, tapped, summoning sick, damage, +1/+1 counters,
attacking, blocking, blocked.

Decks: by default the two real decklists of :data:`solver.api.games.REAL_DECKS`
(the Ninth Edition Core Game's Gold and Silver decks); any two decklists can
be given (``decks=``), e.g. :data:`solver.api.games.INVENTED_DECKS`.

Rewards: +1 to the winner and -1 to the loser at the end of the game
(0 otherwise); ``max_steps`` truncates a game that runs too long.

Refusals (contract §2.0): when the game reaches text the project does not
read (a card of :func:`solver.api.games.unmodeled`, e.g. a spell resolving), the
engine refuses rather than guess (``UnsupportedActionError``). The
environment then ends the game for both agents as a *truncation* (PettingZoo:
the episode stops for a reason outside the game) with no reward, and
``infos[agent]["unsupported"]`` holds the engine's message and
``infos[agent]["unread"]`` the blocking parts (``{object, text, affects}``).
That holds wherever the refusal comes from — applying an action, or deciding
which actions are legal (the action mask, computed after each ``step()`` and,
for the opening, by the first ``last()``/``observe()``): ``reset``, ``step``,
``last`` and ``observe`` never raise it.
Every truncation says why in ``infos[agent]["truncated"]`` (one line:
``unsupported: …`` or ``max_steps: …``).
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

import numpy as np

try:
    from gymnasium import spaces
    from pettingzoo import AECEnv
except ImportError as e:  # pragma: no cover - the optional extra is missing
    raise ImportError("mtgsolve.solver.api.env needs the optional extra 'env': pip install 'mtgsolve[env]' "
                      "(pettingzoo)") from e

from .situation import Situation, UnsupportedActionError
from .session import TriggerOrder, no_action_reason, trigger_orders
from ..core.moves import AmbiguousActionError
from .encoding import ActionEncoding, OptionPicker, completions
from .games import (DEFAULT_DECKS, GREEN_DECK, RED_DECK, REAL_DECKS, _deck, deal_shuffled, initial_situation, new_game,
                    parse_decklist)
from ..core.state import STEPS

__all__ = ["MtgEnv", "env", "parse_decklist", "RED_DECK", "GREEN_DECK", "REAL_DECKS", "initial_situation",
           "GameResult", "random_game", "play_random_game"]

DECISION_KINDS = ("none", "attackers", "blockers", "damage", "discard", "choose", "completion", "mulligan", "bottom")
ZONES = ("battlefield", "hand", "graveyard", "exile", "stack", "hidden")
_ZONE_INDEX = {z: k for k, z in enumerate(ZONES)}
_HIDDEN_INDEX = _ZONE_INDEX["hidden"]   # a zone outside ZONES (the command zone) shows as hidden


class MtgEnv(AECEnv):
    """Two-player games between two decks (module docstring)."""

    metadata = {"name": "mtgsolve_v0", "render_modes": ["human", "ansi"], "is_parallelizable": False}

    def __init__(self, decks: tuple[Any, Any] = DEFAULT_DECKS, seed: int | None = None,
                 max_steps: int = 20_000, max_options: int = 256, render_mode: str | None = None,
                 mulligans: bool = True):
        super().__init__()
        self.mulligans = mulligans
        self.decks = (_deck(decks[0]), _deck(decks[1]))
        self.possible_agents = ["alice", "bob"]
        self.render_mode = render_mode
        self.max_steps = max_steps
        self._seed = seed
        self.np_random = np.random.default_rng(seed)
        probe = initial_situation(self.decks, random.Random(0))
        self.encoding = ActionEncoding(probe, max_options)
        n_cards = len(self.encoding.cards)
        self._obs_size = 2 + len(STEPS) + 2 + len(DECISION_KINDS) + 2 * 6 + n_cards * (len(ZONES) + 8)
        self._action_spaces = {a: spaces.Discrete(self.encoding.size) for a in self.possible_agents}
        self._observation_spaces = {a: spaces.Dict({
            "observation": spaces.Box(-np.inf, np.inf, (self._obs_size,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.encoding.size,), np.int8)}) for a in self.possible_agents}
        self.situation: Situation = None  # type: ignore[assignment]  # set by reset()

    # -- spaces -------------------------------------------------------------
    def observation_space(self, agent: str) -> Any:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        return self._action_spaces[agent]

    # -- the AEC protocol ---------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            self._seed = seed
        self.np_random = np.random.default_rng(self._seed)
        rng = random.Random(self._seed)
        self.situation = new_game(self.decks, rng, self.possible_agents, self.mulligans)  # CR 103
        self._dealer = rng  # the dealer's seeded shuffles go on from the opening's (deal_shuffled)
        self._picker: OptionPicker | None = None
        self.steps = 0
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0 for a in self.agents}
        self._cumulative_rewards = {a: 0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict] = {a: {} for a in self.agents}
        self.agent_selection = self.situation.player
        self._mask_cache: tuple[int, Any] | None = None
        # the first decision's legal actions are decided by the first last()/observe() (PettingZoo:
        # no agent is done right after reset), where a refusal at the opening truncates the game

    def _current_picker(self) -> OptionPicker | None:
        """The choice in progress: a pending decision's options or a head's completions."""
        sit = self.situation
        if self._picker is None and sit.decision is not None and not sit.is_terminal:
            self._picker = OptionPicker(list(sit.legal_actions), self.encoding.max_options)
        return self._picker

    def _mask(self) -> Any:
        """The acting agent's action mask. Deciding which actions are legal can reach text the
        project does not read (contract §2.0): the game is then refused (:meth:`_refuse`) and
        the mask is empty — never an exception out of ``last()``, ``observe()`` or ``step()``."""
        if any(self.truncations.values()):
            return np.zeros(self.encoding.size, dtype=np.int8)
        if self._mask_cache is None:
            try:
                picker = self._current_picker()
                mask = self.encoding.mask(self.situation, picker.slots() if picker else None)
                if not mask.any():
                    raise UnsupportedActionError(no_action_reason(self.situation))
                self._mask_cache = (0, mask)
            except UnsupportedActionError as e:   # UnsupportedCaseError too: an unread part blocks the answer
                self._refuse(e)
                return np.zeros(self.encoding.size, dtype=np.int8)
        return self._mask_cache[1]

    def observe(self, agent: str) -> dict:
        live = not (self.situation.is_terminal or self.terminations.get(agent) or self.truncations.get(agent))
        mask = self._mask() if agent == self.agent_selection and live else np.zeros(self.encoding.size, dtype=np.int8)
        return {"observation": self._observation(agent), "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        sit = self.situation
        mask = self._mask()
        if self.truncations[agent]:   # refused while deciding the legal actions: the game is over
            return
        if action is None or not (0 <= int(action) < self.encoding.size) or not mask[int(action)]:
            raise ValueError(f"{agent}: action {action} is not legal now (see observation['action_mask'])")
        self._cumulative_rewards[agent] = 0
        self._mask_cache = None
        try:
            self._advance(sit, int(action))
        except UnsupportedActionError as e:  # unread text reached: the engine refuses (contract §2.0)
            self._refuse(e)
        if not self.situation.is_terminal and not any(self.truncations.values()):
            self._mask()   # the next decision's legal actions, so that a refusal ends the game here

    def _advance(self, sit: Situation, action: int) -> None:
        """One decision of the acting agent: a pending choice's option, a
        completion, or an action head (CR 117.1)."""
        picker = self._current_picker()
        if picker is not None:
            chosen = picker.pick(action - self.encoding.first_option)
            if chosen is None:  # narrowed; the same agent chooses on
                self.steps += 1
                self._accumulate_rewards()
                return
            self._picker = None
        else:
            chosen = self.encoding.decode(sit, action)
            if chosen.kind in ("cast", "activate", "suspend"):
                full = completions(sit, chosen)
                if len(full) > 1:
                    self._picker = OptionPicker(full, self.encoding.max_options)  # targets and payment next
                    self.steps += 1
                    self._accumulate_rewards()
                    return
                chosen = full[0]
        if isinstance(chosen, TriggerOrder):
            after = sit.apply(chosen.action, trigger_order=chosen.order, rng=self._dealer)
        else:
            try:
                after = sit.apply(chosen, rng=self._dealer)
            except AmbiguousActionError as e:   # the order of the action's own triggers (CR 603.3b): next
                if not e.trigger_sources:
                    raise
                self._picker = OptionPicker(trigger_orders(chosen, e.trigger_sources), self.encoding.max_options)
                self.steps += 1
                self._accumulate_rewards()
                return
        # the dealer realises a shuffle at once (games.deal_shuffled), and samples any other random event
        self.situation = deal_shuffled(after, self._dealer)
        self.steps += 1
        self._after()

    def _refuse(self, e: UnsupportedActionError) -> None:
        """The engine refused to go on (unread text could change the game, contract
        §2.0): the game ends for both agents as a truncation, without reward;
        ``infos`` carry the message and the blocking parts."""
        self.rewards = {a: 0 for a in self.agents}
        parts = [dict(p) for p in getattr(e, "parts", [])]
        message = " ".join(str(e).split()) or type(e).__name__
        for a in self.agents:
            self.truncations[a] = True
            self.infos[a] = {"turn": self.situation.state.turn.number, "step": self.situation.state.turn.step,
                             "winner": None, "truncated": f"unsupported: {message}", "unsupported": message,
                             "unread": parts}
        self._mask_cache = None
        self._picker = None
        self._accumulate_rewards()

    def _after(self) -> None:
        sit = self.situation
        self.rewards = {a: 0 for a in self.agents}
        if sit.is_terminal:
            w = sit.winner
            for a in self.agents:
                self.rewards[a] = 0 if w is None else (1 if a == w else -1)
                self.terminations[a] = True
        elif self.steps >= self.max_steps:
            for a in self.agents:
                self.truncations[a] = True
        self._accumulate_rewards()
        if not sit.is_terminal:
            self.agent_selection = sit.player
        else:
            self.agent_selection = self.agents[0]
        for a in self.agents:
            self.infos[a] = {"turn": sit.state.turn.number, "step": sit.state.turn.step, "winner": sit.winner}
            if self.truncations[a]:
                self.infos[a]["truncated"] = f"max_steps: {self.max_steps} agent steps reached"

    def _was_dead_step(self, action: Any) -> None:  # PettingZoo's protocol for finished agents
        super()._was_dead_step(action)
        if self.agents and self.agent_selection not in self.agents:
            self.agent_selection = self.agents[0]

    # -- observation ---------------------------------------------------------
    def _observation(self, agent: str) -> Any:
        sit = self.situation
        state = sit.state
        t = state.turn
        v = np.zeros(self._obs_size, dtype=np.float32)
        i = 0
        v[i] = t.number / 50.0
        v[i + 1] = len(state.zone("stack")) / 5.0
        i += 2
        v[i + STEPS.index(t.step)] = 1
        i += len(STEPS)
        v[i] = 1.0 if t.active == agent else 0.0
        v[i + 1] = 1.0 if sit.player == agent else 0.0
        i += 2
        kind = sit.decision.kind if sit.decision else ("completion" if self._picker is not None else "none")
        v[i + DECISION_KINDS.index(kind if kind in DECISION_KINDS else "choose")] = 1
        i += len(DECISION_KINDS)
        others = [p for p in state.player_ids if p != agent]
        for pid in [agent] + others:
            p = state.player(pid)
            v[i:i + 6] = (p.life / 20.0, p.poison / 10.0, len(state.zone("hand", pid)) / 7.0,
                          len(state.zone("library", pid)) / 40.0, len(state.zone("graveyard", pid)) / 40.0,
                          1.0 if p.lost else 0.0)
            i += 6
        v[i:] = self._card_rows(state, agent)
        return v

    def _card_rows(self, state: Any, agent: str) -> list[float]:
        """Per card of the encoding: its zone one-hot (``hidden`` for libraries and other players'
        hands) and, when visible, controller, tapped, sick, damage, +1/+1 counters, attacking,
        blocking, blocked — built as one list (one numpy assignment)."""
        width, n = len(ZONES) + 8, len(ZONES)
        rows = [0.0] * (width * len(self.encoding.cards))
        find = state.find
        for k, oid in enumerate(self.encoding.cards):
            o = find(oid)
            if o is None:
                continue
            base = k * width
            hidden = o.zone == "library" or (o.zone == "hand" and o.owner != agent)
            rows[base + _ZONE_INDEX.get("hidden" if hidden else o.zone, _HIDDEN_INDEX)] = 1.0
            if not hidden:
                rows[base + n:base + width] = (1.0 if o.controller == agent else 0.0, float(o.tapped), float(o.sick),
                                               o.damage / 10.0, o.counter("+1/+1") / 5.0,
                                               float(o.attacking is not None), float(bool(o.blocking)),
                                               float(o.blocked))
        return rows

    def render(self) -> str | None:
        sit = self.situation
        if sit is None:
            return None
        s = sit.state
        lines = [f"turn {s.turn.number} {s.turn.step} active={s.turn.active} acting={sit.player}"]
        for pid in s.player_ids:
            p = s.player(pid)
            bf = ", ".join(o.id + ("(T)" if o.tapped else "") for o in s.zone("battlefield", pid))
            lines.append(f"  {pid}: life {p.life}{' LOST' if p.lost else ''} hand {len(s.zone('hand', pid))} "
                         f"library {len(s.zone('library', pid))} | {bf}")
        text = "\n".join(lines)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


def env(**kw: Any) -> MtgEnv:
    """PettingZoo's conventional constructor."""
    return MtgEnv(**kw)


@dataclass(frozen=True)
class GameResult:
    """One finished game: the ``winner`` (None if the game did not end with
    one), agent ``steps``, the last ``turn``, and ``refused``: the engine's
    message when unread text ended the game (see the module docstring), with
    the blocking printed texts in ``unread``."""

    winner: str | None
    steps: int
    turns: int
    refused: str | None = None
    unread: tuple[str, ...] = ()


def random_game(seed: int, decks: tuple[Any, Any] = DEFAULT_DECKS, max_steps: int = 20_000) -> GameResult:
    """One game between two uniformly random agents (seeded: the same seed
    plays the same game)."""
    e = MtgEnv(decks=decks, seed=seed, max_steps=max_steps)
    e.reset(seed=seed)
    pick = random.Random(seed + 1_000_003)
    refused: str | None = None
    unread: tuple[str, ...] = ()
    for agent in e.agent_iter():
        obs, _, term, trunc, info = e.last()
        if term or trunc:
            if "unsupported" in info:
                refused = info["unsupported"]
                unread = tuple(str(p.get("text", "")) for p in info.get("unread", []))
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        e.step(int(legal[pick.randrange(len(legal))]))
    sit = e.situation
    return GameResult(sit.winner, e.steps, sit.state.turn.number, refused, unread)


def play_random_game(seed: int, decks: tuple[Any, Any] = DEFAULT_DECKS,
                     max_steps: int = 20_000) -> tuple[str | None, int, int]:
    """One game between two uniformly random agents: (winner, steps, turns)
    (:func:`random_game` also says why a game without a winner stopped)."""
    r = random_game(seed, decks, max_steps)
    return r.winner, r.steps, r.turns
