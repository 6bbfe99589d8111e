"""A whole game between two real decklists, played through the MCP server by a real MCP client over
stdio (issue 27 item 4): ``start_game`` from two decklist files of the real-deck benchmark, then
``game_actions`` / ``play_action`` by a seeded random agent until the game is over, with
``observe_game`` showing each player only what they may see (CR 400.2) and ``game_log`` holding every
action taken.

The games are the seeded games of :class:`solver.api.session.GameSession` (a test below checks that
the server plays exactly the game the Python session plays with the same seed and choices). A game
may stop as ``refused`` when it reaches text the project does not read (contract §2.0); the test plays
seeds in order until a game has a winner and requires one within :data:`SEEDS` games, each refusal
naming its blocking text."""
from __future__ import annotations

import random
import shlex
import sys
from pathlib import Path

import pytest

pytest.importorskip("mcp", reason="the optional extra 'mcp' is not installed (pip install 'mtgsolve[mcp]')")

import anyio  # noqa: E402  (after the skip: anyio comes with the SDK)
from mcp import Client, StdioServerParameters  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
DECKS = ROOT / "benchmarks" / "decks" / "games" / "competitive"
PAIR = ("pauper_affinity.txt", "pauper_familiars.txt")   # two real decklists (sources in the files)
SEEDS = 8          # games tried, in seed order, for one that reaches a winner
LISTED = 200       # the agent picks among the first LISTED legal actions


def _agent_choice(rng: random.Random, actions: list[str]) -> str:
    return actions[rng.randrange(len(actions))]


async def _play(c: Client, seed: int) -> dict:
    """One game through the tools; returns the last answer, the log and the views checked."""
    start = (await c.call_tool("start_game", {"decks": list(PAIR), "seed": seed})).structured_content
    game, rng, steps, last = start["game"], random.Random(seed), 0, start
    views = []
    while True:
        listed = (await c.call_tool("game_actions", {"game": game, "max_results": LISTED})).structured_content
        if listed["status"] not in ("ok", "truncated"):
            last = listed
            break
        if steps % 25 == 0:
            who = listed["player"]
            views.append((who, (await c.call_tool("observe_game", {"game": game, "player": who})).structured_content))
        action = _agent_choice(rng, listed["actions"])
        last = (await c.call_tool("play_action", {"game": game, "action": action})).structured_content
        if last["status"] == "choose_order":   # the action's own triggers: their controller orders them (CR 603.3b)
            order = list(last["sources"])
            rng.shuffle(order)
            last = (await c.call_tool("play_action", {"game": game, "action": action, "trigger_order": order})
                    ).structured_content
        steps += 1
        assert last["status"] in ("ok", "refused"), last
        if last["result"]["status"] != "playing":
            break
    log = (await c.call_tool("game_log", {"game": game})).structured_content
    return {"start": start, "last": last, "log": log, "views": views, "steps": steps}


@pytest.fixture(scope="module")
def games():
    cmd = f"exec {shlex.quote(sys.executable)} {shlex.quote(str(ROOT / 'cli.py'))} mcp --allow-paths " \
          f"{shlex.quote(str(DECKS))} 2>/dev/null"
    params = StdioServerParameters(command="/bin/sh", args=["-c", cmd], cwd=str(ROOT), env={"PYTHONPATH": str(ROOT)})

    async def go():
        out = []
        async with Client(params, read_timeout_seconds=300) as c:
            for seed in range(SEEDS):
                out.append(await _play(c, seed))
                if out[-1]["log"]["result"]["status"] == "over":
                    break
            bad = await c.call_tool("play_action", {"game": out[0]["start"]["game"], "action": "cast nothing"})
            missing = await c.call_tool("game_actions", {"game": "g999"})
        return out, bad, missing

    return anyio.run(go)


def test_a_game_between_two_real_decks_reaches_a_winner(games):
    played, _, _ = games
    result = played[-1]["log"]["result"]
    assert result["status"] == "over" and result["winner"] in ("alice", "bob"), [g["log"]["result"] for g in played]
    for g in played[:-1]:   # the games before it stopped at unread text, which each names
        assert g["log"]["result"]["status"] == "refused"
        assert g["log"]["result"]["refusal"]["message"]


def test_the_log_holds_every_action(games):
    played, _, _ = games
    for g in played:
        log = g["log"]["log"]
        assert [e["n"] for e in log] == list(range(1, len(log) + 1))
        assert len(log) == g["log"]["result"]["decisions"] == g["steps"] - (g["last"]["status"] == "refused")
        assert {e["player"] for e in log} <= {"alice", "bob"}


def test_each_player_sees_only_what_they_may(games):
    played, _, _ = games
    seen = 0
    for g in played:
        for who, answer in g["views"]:
            view = answer["observation"]
            assert set(view["hand"]) == {who}          # CR 400.2: only their own hand
            assert "library" not in view and set(view["library_sizes"]) == {"alice", "bob"}
            assert view["hand_sizes"][who] == len(view["hand"][who])
            seen += 1
    assert seen


def test_an_illegal_action_is_answered_with_its_reason(games):
    _, bad, missing = games
    assert not bad.is_error and bad.structured_content["status"] == "illegal"
    assert missing.is_error and "no such game" in missing.content[0].text


def test_the_server_plays_the_sessions_game(games):
    """Same seed, same choices: the first game the tools played is the Python session's, action for
    action (the server is the session, seen through MCP)."""
    from mtgsolve.solver.api.session import GameSession

    first = games[0][0]
    s = GameSession([DECKS / PAIR[0], DECKS / PAIR[1]], seed=0)
    rng = random.Random(0)
    while s.status == "playing":
        listed = s.legal_actions(LISTED)
        if listed["status"] not in ("ok", "truncated"):
            break
        action = _agent_choice(rng, listed["actions"])
        out = s.apply(action)
        if out["status"] == "choose_order":
            order = list(out["sources"])
            rng.shuffle(order)
            s.apply(action, order)
    assert [e.to_json() for e in s.log] == first["log"]["log"]
    assert s.result() == first["log"]["result"]
