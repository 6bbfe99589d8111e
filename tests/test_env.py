"""The PettingZoo environment (optional extra ``env``, issue 17 item 5): PettingZoo's own
``api_test`` and seeded random-agent games played to the end, between the two real decklists
(the default, :data:`solver.games.REAL_DECKS`) and between the two invented decks of fully
modeled cards (:data:`solver.games.INVENTED_DECKS`)."""
from __future__ import annotations

import os

import pytest

pytest.importorskip("pettingzoo")
np = pytest.importorskip("numpy")

pytestmark = pytest.mark.env

GAMES = int(os.environ.get("MTGSOLVE_GAMES", "5"))


@pytest.mark.parametrize("which", ["real", "invented"])
def test_pettingzoo_api_test(which):
    from pettingzoo.test import api_test

    from mtgsolve.solver.env import MtgEnv
    from mtgsolve.solver.games import INVENTED_DECKS, REAL_DECKS

    api_test(MtgEnv(decks=REAL_DECKS if which == "real" else INVENTED_DECKS, seed=3), num_cycles=300,
             verbose_progress=False)


def test_random_agents_play_seeded_games_to_a_winner():
    """Invented decks of fully modeled cards: every game ends with a winner."""
    from mtgsolve.solver.env import play_random_game
    from mtgsolve.solver.games import INVENTED_DECKS

    for seed in range(GAMES):
        winner, steps, turns = play_random_game(seed, INVENTED_DECKS)
        assert winner in ("alice", "bob"), (seed, winner, steps, turns)


def test_random_agents_play_real_decks_to_the_end():
    """The real decklists: every game ends with a winner, or is refused at a line of a card that
    is not fully modeled (solver.games.unmodeled) and at nothing else; once every card is fully
    modeled, every game must end with a winner."""
    from mtgsolve.solver.env import random_game
    from mtgsolve.solver.games import REAL_DECKS, unmodeled

    known = {t for d in REAL_DECKS for texts in unmodeled(d).values() for t in texts}
    won = 0
    for seed in range(GAMES):
        r = random_game(seed, REAL_DECKS)
        if r.winner is not None:
            won += 1
            continue
        assert r.refused and r.unread and set(r.unread) <= known, (seed, r)
    assert won > 0 or known


def test_refusal_ends_the_game_as_a_truncation():
    """Contract §2.0 in the environment: unread text reached → both agents truncated, no reward,
    the engine's message and the blocking parts in infos."""
    from mtgsolve.solver.env import MtgEnv
    from mtgsolve.solver.games import REAL_DECKS, unmodeled

    if not any(unmodeled(d) for d in REAL_DECKS):
        pytest.skip("every card of the real decks is fully modeled: nothing is refused")
    for seed in range(40):
        e = MtgEnv(decks=REAL_DECKS, seed=seed)
        e.reset(seed=seed)
        pick = np.random.default_rng(seed)
        for agent in e.agent_iter():
            obs, reward, term, trunc, info = e.last()
            if trunc and "unsupported" in info:
                assert reward == 0 and not obs["action_mask"].any() and info["winner"] is None
                assert info["unread"] and all({"object", "text", "affects"} <= set(p) for p in info["unread"])
                assert all(e.truncations[a] for a in e.possible_agents)
                return
            if term or trunc:
                e.step(None)
                continue
            e.step(int(pick.choice(np.flatnonzero(obs["action_mask"]))))
    pytest.fail("no game of 40 reached an unread card")


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
