"""The PettingZoo environment (optional extra ``env``, issue 17 item 5): PettingZoo's own
``api_test`` and seeded random-agent games played to the end, between the two real decklists
(the default, :data:`solver.api.games.REAL_DECKS`) and between the two invented decks of fully
modeled cards (:data:`solver.api.games.INVENTED_DECKS`)."""
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

    from mtgsolve.solver.api.env import MtgEnv
    from mtgsolve.solver.api.games import INVENTED_DECKS, REAL_DECKS

    api_test(MtgEnv(decks=REAL_DECKS if which == "real" else INVENTED_DECKS, seed=3), num_cycles=300,
             verbose_progress=False)


def test_random_agents_play_seeded_games_to_a_winner():
    """Invented decks of fully modeled cards: every game ends with a winner."""
    from mtgsolve.solver.api.env import play_random_game
    from mtgsolve.solver.api.games import INVENTED_DECKS

    for seed in range(GAMES):
        winner, steps, turns = play_random_game(seed, INVENTED_DECKS)
        assert winner in ("alice", "bob"), (seed, winner, steps, turns)


def test_random_agents_play_real_decks_to_the_end():
    """The real decklists (every card fully modeled, tests/test_game_decks.py): every game ends
    with a winner (issue 17 "done when"; ``python -m benchmarks games`` plays 100)."""
    from mtgsolve.solver.api.env import random_game
    from mtgsolve.solver.api.games import REAL_DECKS

    for seed in range(GAMES):
        r = random_game(seed, REAL_DECKS)
        assert r.winner in ("alice", "bob") and r.refused is None, (seed, r)


def test_dealer_realises_shuffles_and_hides_them():
    """The environment is the dealer (solver.api.games.deal_shuffled): a library a search shuffles
    (Rampant Growth, CR 701.23, 701.24) is put into a seeded concrete order at once, so no
    library stays ``shuffled`` between decisions and Index (CR 401.4) always sees a known order;
    the same seed deals the same order; observations never show library order."""
    from mtgsolve.solver.api.env import MtgEnv

    searched = 0
    for seed in range(GAMES * 3):
        e = MtgEnv(seed=seed)
        e.reset(seed=seed)
        pick = np.random.default_rng(seed)
        for agent in e.agent_iter():
            obs, _, term, trunc, _ = e.last()
            if e.situation.decision is None:
                assert not e.situation.state.shuffled
            if term or trunc:
                e.step(None)
                continue
            stack = e.situation.state.zone("stack")
            searched += bool(stack and stack[0].name == "Rampant Growth")
            e.step(int(pick.choice(np.flatnonzero(obs["action_mask"]))))
    assert searched > 0


def test_deal_shuffled_is_a_seeded_order():
    import random

    from mtgsolve.solver.api import Situation
    from mtgsolve.solver.api.games import deal_shuffled

    sit = Situation.from_dict({"format": "mtgsolve/1", "players": ["alice", "bob"],
                               "library": {"alice": ["Forest", "Island", "Mountain", "Plains", "Swamp"]},
                               "shuffled": {"alice": True}})
    a, b = deal_shuffled(sit, random.Random(5)), deal_shuffled(sit, random.Random(5))
    names = [o.name for o in a.state.zone("library", "alice")]
    assert not a.state.shuffled and names == [o.name for o in b.state.zone("library", "alice")]
    assert sorted(names) == ["Forest", "Island", "Mountain", "Plains", "Swamp"]
    orders = {tuple(o.name for o in deal_shuffled(sit, random.Random(k)).state.zone("library", "alice"))
              for k in range(20)}
    assert len(orders) > 1


def test_refusal_ends_the_game_as_a_truncation():
    """Contract §2.0 in the environment: unread text reached → both agents truncated, no reward,
    the engine's message and the blocking parts in infos. The real decks being fully modeled, the
    1999 Starter decks of benchmarks/decks/games/ (Coercion, Eye Spy, Time Ebb unread) are used."""
    from pathlib import Path

    from mtgsolve.solver.api.env import MtgEnv
    from mtgsolve.solver.api.games import unmodeled

    root = Path(__file__).resolve().parent.parent / "benchmarks" / "decks" / "games"
    decks = (root / "starter_1999_deck_1.txt", root / "starter_1999_deck_2.txt")
    if not any(unmodeled(d) for d in decks):
        pytest.skip("every card of the starter decks is fully modeled: nothing is refused")
    for seed in range(40):
        e = MtgEnv(decks=decks, seed=seed)
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
    from mtgsolve.solver.api.env import play_random_game

    assert play_random_game(11) == play_random_game(11)


def test_observation_hides_libraries_and_opponent_hand():
    from mtgsolve.solver.api.env import MtgEnv

    e = MtgEnv(seed=2)
    e.reset(seed=2)
    obs = e.observe("alice")
    assert obs["action_mask"].shape == (e.encoding.size,) and obs["action_mask"].any()
    assert e.observation_space("alice")["observation"].contains(obs["observation"])
    assert not e.observe("bob")["action_mask"].any()  # not bob's decision
