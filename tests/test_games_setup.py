"""A real game set-up (CR 103, issue 27 item 3): the starting player drawn from the seed (103.1),
the London mulligan as decisions of each player (103.5: ``keep`` / ``mulligan``, then one
``bottom <card>`` decision per card, one option per distinct card), the two-player draw skip
(103.8a; multiplayer 103.8c: instances/pass/), conceding (104.3a) and draws (104.4a)."""
from __future__ import annotations

import json
import random

import pytest

from mtgsolve.solver.api import IllegalActionError, Situation, UnsupportedActionError
from mtgsolve.solver.api.games import NINTH_EDITION_GOLD, NINTH_EDITION_SILVER, new_game, parse_decklist
from mtgsolve.solver.engine.opening import HAND_SIZE

DECKS = [parse_decklist(NINTH_EDITION_GOLD), parse_decklist(NINTH_EDITION_SILVER)]


def _labels(sit: Situation) -> list[str]:
    return [str(c) for c in sit.legal_actions]


def _play_opening(seed: int, policy: random.Random) -> tuple[Situation, list[str]]:
    """A seeded set-up with random mulligan and bottom choices: the game's first situation and the
    log of (player, choice)."""
    rng = random.Random(seed)
    sit = new_game(DECKS, rng)
    log = []
    while sit.decision is not None:
        choice = "mulligan" if not log else policy.choice(_labels(sit))   # at least one mulligan
        log.append(f"{sit.player} {sit.decision.kind}: {choice}")
        sit = sit.apply(choice, rng=rng)
    return sit, log


def test_starting_player_is_drawn_from_the_seed():
    """CR 103.1: either player may start; the starter is first in turn order, active in turn 1 and
    makes the first mulligan decision (103.5)."""
    starters = set()
    for seed in range(12):
        sit = new_game(DECKS, random.Random(seed))
        first = sit.state.player_ids[0]
        assert sit.state.turn.active == first and sit.player == first and sit.state.turn.number == 1
        assert sit.decision.kind == "mulligan" and _labels(sit) == ["keep", "mulligan"]
        assert {o.owner for o in sit.state.objects if o.id.startswith("a")} == {"alice"}   # decks stay with players
        starters.add(first)
    assert starters == {"alice", "bob"}


def test_a_seeded_game_with_mulligans_is_deterministic():
    """Same seed, same choices: the same opening hands and game, byte for byte."""
    a, log_a = _play_opening(7, random.Random(1))
    b, log_b = _play_opening(7, random.Random(1))
    assert log_a == log_b and any("mulligan: mulligan" in line for line in log_a)
    assert json.dumps(a.to_dict(), sort_keys=True) == json.dumps(b.to_dict(), sort_keys=True)
    c, _ = _play_opening(8, random.Random(1))
    assert json.dumps(a.to_dict(), sort_keys=True) != json.dumps(c.to_dict(), sort_keys=True)


def test_london_mulligan_hand_sizes_and_bottom():
    """After N mulligans a player keeps seven cards and puts N on the bottom (CR 103.5): the hand
    is 7 - N cards, the library the rest; the cards chosen are at the bottom, the last one lowest."""
    rng = random.Random(3)
    sit = new_game(DECKS, rng)
    first, second = sit.state.player_ids
    sit = sit.apply("mulligan", rng=rng)          # first: mulligan
    sit = sit.apply("keep", rng=rng)              # second: keeps seven
    assert sit.player == first and sit.decision.kind == "mulligan"   # the mulligan was taken: first again
    assert len(sit.state.zone("hand", first)) == HAND_SIZE
    sit = sit.apply("mulligan", rng=rng)
    sit = sit.apply("keep", rng=rng)              # two mulligans taken: two cards to the bottom
    chosen = []
    for left in (2, 1):
        assert sit.decision.kind == "bottom" and sit.player == first
        labels = _labels(sit)
        hand = sit.state.zone("hand", first)
        assert len(labels) == len({o.name for o in hand}) and len(hand) == HAND_SIZE - (2 - left)
        chosen.append(labels[-1].split(" ", 1)[1])
        sit = sit.apply(labels[-1], rng=rng)
    assert sit.decision is None and sit.player == first and sit.state.turn.step == "upkeep"
    assert len(sit.state.zone("hand", first)) == 5 and len(sit.state.zone("hand", second)) == 7
    library = [o.id for o in sit.state.zone("library", first)]
    assert library[-2:] == chosen and len(library) == len(DECKS[0 if first == "alice" else 1]) - 5


def test_bottom_options_are_the_distinct_cards():
    """Interchangeable cards (same card, same owner) are one option: every option leads to a
    distinct situation."""
    rng = random.Random(0)
    for _ in range(40):
        sit = new_game(DECKS, rng)
        sit = sit.apply("mulligan", rng=rng).apply("keep", rng=rng).apply("keep", rng=rng)
        if sit.decision is None or sit.decision.kind != "bottom":
            continue
        outs = {json.dumps(sit.apply(c, rng=rng).to_dict(), sort_keys=True) for c in _labels(sit)}
        assert len(outs) == len(_labels(sit))
        return
    pytest.fail("no opening reached a bottom decision")


def test_seven_mulligans_keep_zero_cards():
    """A player can take mulligans until their opening hand would be zero cards (CR 103.5): the
    seventh mulligan's hand is kept and all seven cards go to the bottom."""
    rng = random.Random(5)
    sit = new_game(DECKS, rng)
    first = sit.player
    sit = sit.apply("mulligan", rng=rng).apply("keep", rng=rng)
    for _ in range(6):
        assert sit.player == first and _labels(sit) == ["keep", "mulligan"]
        sit = sit.apply("mulligan", rng=rng)
    assert sit.decision.kind == "bottom"      # no decision left after the seventh: it is kept
    for _ in range(HAND_SIZE):
        sit = sit.apply(_labels(sit)[0], rng=rng)
    assert sit.decision is None and not sit.state.zone("hand", first)


def test_mulligan_decisions_round_trip_as_action_strings():
    """Each option's string names it (``legal_actions.find``); applying the string or the Choice
    gives the same situation; a mulligan without a seeded generator is a random event."""
    rng = random.Random(11)
    sit = new_game(DECKS, rng)
    for c in sit.legal_actions:
        assert sit.legal_actions.find(str(c)) == c and sit.is_legal(str(c))
        assert sit.legal_actions.find({"choice": str(c)}) == c
    assert not sit.is_legal("declare attackers none")
    keep = sit.apply("keep")
    assert keep == sit.apply(next(iter(sit.legal_actions)))
    declared = sit.apply("mulligan")   # the mulligans are taken once every player has declared
    assert declared.decision.kind == "mulligan" and declared.player != sit.player
    with pytest.raises(ValueError):
        declared.apply("keep")         # RandomOutcomeError: the new hand is a shuffle's draw
    with pytest.raises(UnsupportedActionError):
        declared.outcomes("keep")
    assert [s for _, _, s in sit.outcomes("keep")] == [keep]


def test_concede():
    """CR 104.3a: a player concedes at any time (even during another player's decision) and loses;
    the other player wins (104.2a). Not in a game of more than two players (800.4a, not modeled)."""
    sit = new_game(DECKS, random.Random(2))
    other = sit.state.player_ids[1]
    done = sit.concede(other)
    assert done.is_terminal and done.winner == sit.player
    by_action = sit.apply("concede")
    assert by_action.is_terminal and by_action.winner == other
    with pytest.raises(IllegalActionError):
        by_action.apply("concede")
    three = Situation.from_dict({"format": "mtgsolve/1", "players": ["alice", "bob", "carol"]})
    with pytest.raises(UnsupportedActionError):
        three.concede("bob")


def test_all_players_losing_is_a_draw():
    """CR 104.4a: both players lose at the same check of state-based actions: a draw — the game is
    over with no winner (instances/pass/both_players_lose_the_game_is_a_draw.yaml)."""
    sit = Situation.from_dict({"format": "mtgsolve/1",
                               "players": [{"id": "alice", "life": 4}, {"id": "bob", "life": 4}],
                               "turn": {"number": 4, "active": "alice", "step": "main1", "priority": "bob",
                                        "passed": ["alice"]},
                               "stack": [{"card": "Flame Rift", "controller": "alice"}],
                               "library": {"alice": ["Forest"], "bob": ["Island"]}})
    after = sit.apply("pass")
    assert after.is_terminal and after.winner is None and after.lost("alice") and after.lost("bob")


def test_env_mask_offers_the_mulligan_decisions():
    """The PettingZoo environment: the mulligan decisions are the option slots of the declared index
    space, and decoding the slots gives the decision's action strings."""
    pytest.importorskip("pettingzoo")
    from mtgsolve.solver.api.env import MtgEnv

    e = MtgEnv(seed=4)
    e.reset(seed=4)
    obs = e.observe(e.agent_selection)
    legal = [int(i) for i in obs["action_mask"].nonzero()[0]]
    first = e.encoding.first_option
    assert legal == [first, first + 1] and e.situation.decision.kind == "mulligan"
    assert [str(e.encoding.decode(e.situation, i)) for i in legal] == ["keep", "mulligan"]
    e.step(first + 1)   # mulligan
    assert not any(e.truncations.values())


def test_mulligan_time_text_is_refused_not_skipped():
    """CR 103.5a: "any time you could mulligan" text (Serum Powder; unread) would be one more option
    of the mulligan decision: the decision is refused, naming the card, rather than offered without
    it; a hand without such a card is not."""
    deck = ["Serum Powder"] * 4 + ["Forest"] * 16
    seen = {True: 0, False: 0}
    for seed in range(30):
        rng = random.Random(seed)
        sit = new_game([deck, list(DECKS[1])], rng)
        if sit.player != "alice":
            sit = sit.apply("keep", rng=rng)
        has = any(o.name == "Serum Powder" for o in sit.state.zone("hand", "alice"))
        seen[has] += 1
        if has:
            with pytest.raises(UnsupportedActionError, match="serum-powder.*103.5a"):
                list(sit.legal_actions)
            with pytest.raises(UnsupportedActionError):
                sit.apply("keep", rng=rng)
        else:
            assert _labels(sit) == ["keep", "mulligan"]
    assert seen[True] and seen[False]


def test_bottom_paths_are_the_distinct_orders_brute_force():
    """Every path of bottom decisions reaches a distinct situation, and the situations are exactly the
    distinct ordered choices of N cards of the hand by name (a brute force over the hand's names,
    independent of the engine: itertools.permutations)."""
    import itertools

    rng = random.Random(21)
    sit = new_game(DECKS, rng)
    first = sit.player
    sit = sit.apply("mulligan", rng=rng).apply("keep", rng=rng)      # the other player keeps seven
    sit = sit.apply("mulligan", rng=rng).apply("mulligan", rng=rng).apply("keep", rng=rng)   # three taken
    assert sit.decision.kind == "bottom" and sit.player == first
    names = [o.name for o in sit.state.zone("hand", first)]
    expected = set(itertools.permutations(names, 3))

    ends: list[Situation] = []
    todo = [sit]
    while todo:
        s = todo.pop()
        if s.decision is None or s.decision.kind != "bottom":
            ends.append(s)
            continue
        todo += [s.apply(c) for c in s.legal_actions]
    bottoms = {tuple(o.name for o in e.state.zone("library", first)[-3:]) for e in ends}
    assert len(ends) == len({json.dumps(e.to_dict(), sort_keys=True) for e in ends}) == len(expected)
    assert bottoms == expected
