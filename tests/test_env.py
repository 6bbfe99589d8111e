"""The PettingZoo environment (optional extra ``env``, issue 17 item 5): PettingZoo's own
``api_test`` and seeded random-agent games played to a winner."""
from __future__ import annotations

import os

import pytest

pytest.importorskip("pettingzoo")

pytestmark = pytest.mark.env

GAMES = int(os.environ.get("MTGSOLVE_GAMES", "5"))


def test_pettingzoo_api_test():
    from pettingzoo.test import api_test

    from mtgsolve.solver.env import MtgEnv

    api_test(MtgEnv(seed=3), num_cycles=300, verbose_progress=False)


def test_random_agents_play_seeded_games_to_a_winner():
    from mtgsolve.solver.env import play_random_game

    for seed in range(GAMES):
        winner, steps, turns = play_random_game(seed)
        assert winner in ("alice", "bob"), (seed, winner, steps, turns)


def test_same_seed_same_game():
    from mtgsolve.solver.env import play_random_game

    assert play_random_game(11) == play_random_game(11)


def test_observation_hides_libraries_and_opponent_hand():
    from mtgsolve.solver.env import MtgEnv

    e = MtgEnv(seed=2)
    e.reset(seed=2)
    obs = e.observe("alice")
    assert obs["action_mask"].shape == (e.encoding.size,) and obs["action_mask"].any()
    assert e.observation_space("alice")["observation"].contains(obs["observation"])
    assert not e.observe("bob")["action_mask"].any()  # not bob's decision
