"""The environment keeps its promise with real decklists (issue 28 item 2): a game that reaches
text the project does not read is *truncated*, with the reason in ``infos`` — whether the
refusal comes from applying an action or from deciding which actions are legal (the action
mask, at ``reset()``, in ``last()``/``observe()`` or after ``step()``) — never an exception.

The decks are the real competitive lists of ``benchmarks/decks/`` (most hold cards with text
the project does not read, so most games end in a refusal); the agents are seeded random."""
from __future__ import annotations

import itertools
import os
import random
from pathlib import Path

import pytest

pytest.importorskip("pettingzoo", reason="the optional extra 'env' is not installed (pip install 'mtgsolve[env]')")
np = pytest.importorskip("numpy")

pytestmark = pytest.mark.env

ROOT = Path(__file__).resolve().parent.parent
DECKS = sorted((ROOT / "benchmarks" / "decks").glob("*.txt"))
GAMES = int(os.environ.get("MTGSOLVE_GAMES", "5"))


def _pairs(n: int, seed: int = 28) -> list[tuple[Path, Path]]:
    rng = random.Random(seed)
    return [tuple(rng.sample(DECKS, 2)) for _ in range(n)]  # type: ignore[misc]


def _play(env, seed: int, limit: int = 50_000) -> dict:
    """Seeded random agents until every agent is done; what ``last()`` said at the end."""
    pick = random.Random(seed)
    final: dict = {}
    for n, agent in enumerate(env.agent_iter()):
        assert n < limit, "the game does not end"
        obs, reward, term, trunc, info = env.last()
        assert obs["action_mask"].dtype == np.int8
        if term or trunc:
            final[agent] = (term, trunc, dict(info), obs["action_mask"].sum())
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        assert len(legal) > 0, "a live agent with no legal action"
        env.step(int(legal[pick.randrange(len(legal))]))
    return final


def _assert_ended_properly(env, final: dict) -> str:
    assert set(final) == set(env.possible_agents)
    truncated = [a for a, (_, trunc, _, _) in final.items() if trunc]
    if env.situation.winner is not None:
        assert not truncated and all(term for term, *_ in final.values())
        return "winner"
    assert sorted(truncated) == sorted(env.possible_agents), final   # no winner: the game was cut for both agents
    for agent, (_, _, info, live) in final.items():
        assert live == 0, "a truncated agent still has legal actions"
        reason = info.get("truncated")
        assert isinstance(reason, str) and reason and "\n" not in reason, (agent, info)
        assert reason.startswith(("unsupported: ", "max_steps: ")), reason
        if reason.startswith("unsupported: "):
            assert info["unsupported"] and isinstance(info["unread"], list)
            assert all(isinstance(p, dict) and "text" in p for p in info["unread"]), info["unread"]
    return final[env.possible_agents[0]][2]["truncated"].split(":")[0]


def test_real_decklists_truncate_with_a_reason_never_raise():
    """Seeded random games between real decklists (issue 28: 22 of 40 raised out of ``last()``)."""
    from mtgsolve.solver.api.env import MtgEnv

    ends = []
    for seed, (a, b) in enumerate(_pairs(4 * GAMES)):
        env = MtgEnv(decks=(a, b), seed=seed, max_steps=3_000)
        env.reset(seed=seed)
        ends.append(_assert_ended_properly(env, _play(env, seed)))
    assert len(ends) == 4 * GAMES


COMPETITIVE = ROOT / "benchmarks" / "decks" / "games" / "competitive"
WINNER_PAIR = ("pauper_affinity.txt", "pauper_familiars.txt")   # the pair tests/test_mcp_game.py plays


def test_a_game_between_real_competitive_decks_reaches_a_winner():
    """Issue 27 item 4: the environment plays a whole game between real decklists of the games
    benchmark to a winner — seeds in order until one does (a game may stop at unread text, each
    such stop a truncation with its reason), within eight."""
    from mtgsolve.solver.api.env import MtgEnv

    ends = []
    for seed in range(8):
        env = MtgEnv(decks=(COMPETITIVE / WINNER_PAIR[0], COMPETITIVE / WINNER_PAIR[1]), seed=seed, max_steps=5_000)
        env.reset(seed=seed)
        ends.append(_assert_ended_properly(env, _play(env, seed)))
        if ends[-1] == "winner":
            break
    assert ends[-1] == "winner", ends


def test_pettingzoo_api_test_on_real_decklists():
    """PettingZoo's ``api_test`` on real deck pairs. Its ``test_action_flexibility`` steps
    ``np.int32(action)`` after a ``reset(seed=0)`` and so cannot take a game refused at the
    opening with seed 0 (its own ``None`` for a done agent becomes ``np.int32(None)``): the pairs
    are the first ones whose seed-0 opening is playable (the opening refusal is tested above
    and below)."""
    from pettingzoo.test import api_test

    from mtgsolve.solver.api.env import MtgEnv

    tested = 0
    for a, b in _pairs(40, seed=5):
        probe = MtgEnv(decks=(a, b), seed=0)
        probe.reset(seed=0)
        if probe.last()[3]:
            continue
        api_test(MtgEnv(decks=(a, b), seed=3), num_cycles=300, verbose_progress=False)
        tested += 1
        if tested == 2:
            break
    assert tested == 2


def test_max_steps_truncation_carries_its_reason():
    from mtgsolve.solver.api.env import MtgEnv
    from mtgsolve.solver.api.games import INVENTED_DECKS

    env = MtgEnv(decks=INVENTED_DECKS, seed=1, max_steps=5)
    env.reset(seed=1)
    assert _assert_ended_properly(env, _play(env, 1)) == "max_steps"


@pytest.mark.parametrize("where", ["reset", "step"])
def test_a_refusal_while_deciding_the_legal_actions_truncates(monkeypatch, where):
    """The mechanism on its own, whatever the reader reads: deciding the legal actions raises
    the engine's refusal (``UnsupportedCaseError``) at the opening or after the first step."""
    from mtgsolve.solver.api import UnsupportedCaseError
    from mtgsolve.solver.api.encoding import ActionEncoding
    from mtgsolve.solver.api.env import MtgEnv
    from mtgsolve.solver.api.games import INVENTED_DECKS

    env = MtgEnv(decks=INVENTED_DECKS, seed=2)
    real_mask = ActionEncoding.mask
    calls = itertools.count()
    part = {"object": "x", "text": "Some unread text.", "affects": ["unknown"]}

    def mask(self, sit, options=None):
        if where == "reset" or next(calls) > 0:
            raise UnsupportedCaseError("actions: unread text could change the answer: x", [part])
        return real_mask(self, sit, options)

    monkeypatch.setattr(ActionEncoding, "mask", mask)
    env.reset(seed=2)
    if where == "step":
        obs, *_ = env.last()
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    obs, reward, term, trunc, info = env.last()
    assert trunc and not term and reward == 0 and obs["action_mask"].sum() == 0
    assert info["truncated"] == "unsupported: actions: unread text could change the answer: x"
    assert info["unread"] == [part]
    assert env.observe("bob")["action_mask"].sum() == 0
    final = _play(env, 2)
    assert _assert_ended_properly(env, final) == "unsupported"
