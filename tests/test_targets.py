"""The ``targets`` query (contract §2.4): rulings, restrictions, Flagbearer
requirements (CR 601.2c), bad queries, the helpers for ``actions``, and
differential tests against the brute-force reference
(``tests/reference/targets_ref.py``).

Differential tests (hypothesis): model level (random slot/requirement
problems), and whole queries on random boards from the card library with
library sources and with random target specifications. Defaults: 900 + 700 +
500 generated cases (2,100 in all, well under a minute on two cores); set
``MTGSOLVE_EXAMPLES=N`` to run N cases per test instead. With ``CI=true`` (or
without ``MTGSOLVE_EXAMPLES``) the runs are derandomized (reproducible).
"""
from __future__ import annotations

import json
import os
from dataclasses import replace
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mtgsolve.models.targets import (Requirement, Slot, TargetProblem, count_choices, cpsat_count, enumerate_choices,
                            is_feasible)
from reference.targets_ref import reference_problem_choices, reference_targets
from mtgsolve.solver.core import ir
from mtgsolve.solver.cards import Card, CardData
from mtgsolve.solver.rules.characteristics import View
from mtgsolve.solver.core.errors import QueryError
from mtgsolve.solver.queries import Options, answer
from mtgsolve.solver.io.load import situation_from_dict
from mtgsolve.solver.rules.targeting import (cast_source, has_legal_targets, stack_source, target_choice_count, targeting_problem)

BASE = {"format": "mtgsolve/1"}
INSTANCES = Path(__file__).resolve().parent.parent / "instances" / "targets"


def load(board: dict):
    return situation_from_dict({**BASE, **board}).state


def targets(board: dict, query: dict, **opts) -> dict:
    state = load(board)
    return answer(state, {"kind": "targets", **query}, Options(**opts))


def ids(res: dict) -> list:
    return res["choices"]


TWO = {"players": ["alice", "bob"]}


# ---------------------------------------------------------------------------
# Flagbearers (CR 601.2c) and the seed rulings
# ---------------------------------------------------------------------------


def test_honor_guard_forces_shock():
    r = targets({**TWO, "battlefield": {"bob": ["Coalition Honor Guard", "Grizzly Bears"]},
                 "hand": {"alice": ["Shock"]}}, {"cast": "shock"})
    assert r == {"kind": "targets", "status": "ok", "count": 1, "choices": [[["coalition-honor-guard"]]]}


def test_seed_enroll_either_creature_or_you_two_players():
    """"if each player controls a Coalition Honor Guard and you control Enroll in
    the Coalition, an opponent's Shock could target either creature or you, but
    not another player" (Enroll in the Coalition rulings)."""
    r = targets({"players": ["you", "opp"],
                 "battlefield": {"you": ["Coalition Honor Guard", "Enroll in the Coalition"],
                                 "opp": ["Coalition Honor Guard"]},
                 "hand": {"opp": ["Shock"]}}, {"cast": "shock"})
    assert ids(r) == [[["coalition-honor-guard"]], [["coalition-honor-guard-2"]], [["you"]]]


def test_seed_enroll_either_creature_or_you_three_players():
    r = targets({"players": ["you", "opp", "third"],
                 "battlefield": {"you": ["Coalition Honor Guard", "Enroll in the Coalition"],
                                 "opp": ["Coalition Honor Guard"], "third": ["Coalition Honor Guard"]},
                 "hand": {"opp": ["Shock"]}}, {"cast": "shock"})
    assert ids(r) == [[["coalition-honor-guard"]], [["coalition-honor-guard-2"]], [["coalition-honor-guard-3"]],
                      [["you"]]]


def test_enroll_player_is_not_a_creature():
    """"You can't be the target of spells or abilities that target creatures but
    not players, even if those spells or abilities affect Flagbearers
    specifically.\""""
    board = {**TWO, "battlefield": {"alice": ["Enroll in the Coalition", "Grizzly Bears"], "bob": ["Llanowar Elves"]},
             "hand": {"bob": ["Murder"]}}
    assert ids(targets(board, {"cast": "murder"})) == [[["grizzly-bears"]], [["llanowar-elves"]]]
    board["battlefield"]["alice"].append("Standard Bearer")
    assert ids(targets(board, {"cast": "murder"})) == [[["standard-bearer"]]]


def test_enroll_forces_player_target_for_gitaxian_probe():
    board = {**TWO, "battlefield": {"alice": ["Enroll in the Coalition"]}, "hand": {"bob": ["Gitaxian Probe"]}}
    assert ids(targets(board, {"cast": "gitaxian-probe"})) == [[["alice"]]]
    # a creature Flagbearer can't be chosen by "target player": no requirement can be obeyed
    board = {**TWO, "battlefield": {"alice": ["Coalition Honor Guard"]}, "hand": {"bob": ["Gitaxian Probe"]}}
    assert ids(targets(board, {"cast": "gitaxian-probe"})) == [[["alice"]], [["bob"]]]


def test_requirement_binds_opponents_only():
    board = {**TWO, "battlefield": {"alice": ["Coalition Honor Guard", "Grizzly Bears"]}, "hand": {"alice": ["Shock"]}}
    assert targets(board, {"cast": "shock"})["count"] == 4  # two creatures, two players


@pytest.mark.parametrize("extra", [{"how": "copy"}, {"how": "change"}, {"how": "random"}, {"player": "bob"}])
def test_exempt_ways_of_choosing(extra):
    """Copies, changed targets, random choices, another player choosing: no
    Flagbearer needed (Coalition Honor Guard ruling 2016-06-08; Enroll rulings)."""
    board = {**TWO, "battlefield": {"bob": ["Coalition Honor Guard", "Grizzly Bears"]}, "hand": {"alice": ["Shock"]}}
    assert targets(board, {"cast": "shock"}) ["count"] == 1
    assert targets(board, {"cast": "shock", **extra})["count"] == 4


def test_activated_abilities_obey_triggered_are_exempt():
    board = {**TWO, "battlefield": {"alice": ["Prodigal Pyromancer", "Grizzly Bears",
                                              {"card": "Cartouche of Strength", "attached_to": "grizzly-bears"}],
                                    "bob": ["Coalition Honor Guard", "Llanowar Elves"]}}
    act = targets(board, {"activate": {"object": "prodigal-pyromancer", "index": 1}})
    assert ids(act) == [[["coalition-honor-guard"]]]
    trig = targets(board, {"trigger": {"object": "cartouche-of-strength", "index": 1}})
    assert ids(trig) == [[["coalition-honor-guard"]], [["llanowar-elves"]]]


def test_stack_objects_default_how():
    board = {**TWO, "battlefield": {"alice": ["Prodigal Pyromancer"], "bob": ["Coalition Honor Guard"]},
             "stack": [{"card": "Shock", "controller": "alice", "copy": True},
                       {"card": "Lightning Bolt", "controller": "alice"},
                       {"ability": {"source": "prodigal-pyromancer", "index": 1}}]}
    assert targets(board, {"spell": "shock"})["count"] == 4  # copy: exempt
    assert targets(board, {"spell": "shock", "how": "cast"})["count"] == 1
    assert targets(board, {"spell": "lightning-bolt"})["count"] == 1  # as when cast
    assert targets(board, {"spell": "lightning-bolt", "how": "change"})["count"] == 4
    assert ids(targets(board, {"spell": "ability-of-prodigal-pyromancer"})) == [[["coalition-honor-guard"]]]


def test_coalition_flag_makes_a_flagbearer_unless_it_cannot_be_targeted():
    def board(host):
        return {**TWO, "battlefield": {"alice": [host, "Grizzly Bears",
                                                 {"card": "Coalition Flag", "attached_to": host_id(host)}]},
                "hand": {"bob": ["Shock", "Murder"]}}

    def host_id(name):
        return name.lower().replace(" ", "-")

    assert ids(targets(board("Llanowar Elves"), {"cast": "shock"})) == [[["llanowar-elves"]]]
    # hexproof Flagbearer: can't be chosen, so the requirement can't be obeyed (CR 601.2c "if able")
    r = targets(board("Gladecover Scout"), {"cast": "shock"})
    assert ids(r) == [[["alice"]], [["bob"]], [["grizzly-bears"]]]
    # protection from black: Murder can't target White Knight; red Shock must
    assert ids(targets(board("White Knight"), {"cast": "murder"})) == [[["grizzly-bears"]]]
    assert ids(targets(board("White Knight"), {"cast": "shock"})) == [[["white-knight"]]]


def test_any_players_flagbearer_satisfies_the_requirement():
    """"Any player's Flagbearer may be targeted": Bob's Aura spell (enchant
    creature you control) must take his own Standard Bearer under Alice's
    Coalition Honor Guard."""
    board = {**TWO, "battlefield": {"alice": ["Coalition Honor Guard"], "bob": ["Standard Bearer", "Grizzly Bears"]},
             "hand": {"bob": ["Cartouche of Strength"]}}
    assert ids(targets(board, {"cast": "cartouche-of-strength"})) == [[["standard-bearer"]]]


def test_arc_trail_one_flagbearer_among_two_targets():
    board = {**TWO, "battlefield": {"bob": ["Coalition Honor Guard", "Grizzly Bears"]}, "hand": {"alice": ["Arc Trail"]}}
    r = targets(board, {"cast": "arc-trail"})
    # 4 targets (2 players, 2 creatures); "another target": 4*3 = 12 ordered pairs; those with the Guard: 6
    assert r["count"] == 6
    assert all("coalition-honor-guard" in (a + b) for a, b in r["choices"])
    assert all(a != b for a, b in r["choices"])


def test_variable_number_announced_first():
    """Dauntless Onslaught ("up to two target creatures") under Coalition Honor
    Guard: zero targets stays legal; one or two must include the Guard."""
    board = {**TWO, "battlefield": {"alice": ["Grizzly Bears"], "bob": ["Coalition Honor Guard", "Llanowar Elves"]},
             "hand": {"alice": ["Dauntless Onslaught"]}}
    r = targets(board, {"cast": "dauntless-onslaught"})
    assert ids(r) == [[[]], [["coalition-honor-guard"]], [["coalition-honor-guard", "grizzly-bears"]],
                      [["coalition-honor-guard", "llanowar-elves"]]]
    state = load(board)
    view = View(state)
    problem = targeting_problem(view, cast_source(view, "dauntless-onslaught"), counts_first=False)
    glob = enumerate_choices(problem)
    assert glob.choices == [(("coalition-honor-guard",),), (("coalition-honor-guard", "grizzly-bears"),),
                            (("coalition-honor-guard", "llanowar-elves"),)]
    assert count_choices(problem) == 3


def test_order_of_whiteclay_graveyard_and_enroll():
    """"target creature card with mana value 3 or less from your graveyard";
    Enroll in the Coalition (no "on the battlefield") makes a Flagbearer card
    there a requirement, Coalition Honor Guard (on the battlefield) doesn't."""
    gy = ["Standard Bearer", "Grizzly Bears", "Coalition Honor Guard", "Inkwell Leviathan", "Shock"]
    board = {**TWO, "battlefield": {"alice": [{"card": "Order of Whiteclay", "tapped": True}],
                                    "bob": ["Coalition Honor Guard"]},
             "graveyard": {"alice": gy, "bob": ["Llanowar Elves"]}}
    act = {"activate": {"object": "order-of-whiteclay", "index": 1}}
    assert ids(targets(board, act)) == [[["grizzly-bears"]], [["standard-bearer"]]]
    board["battlefield"]["bob"].append("Enroll in the Coalition")
    assert ids(targets(board, act)) == [[["standard-bearer"]]]


def test_plague_spores_same_object_for_two_instances():
    """CR 601.2c example: one artifact land (here a creature land) may be chosen for both "target"s."""
    board = {**TWO, "battlefield": {"bob": ["Dryad Arbor"]}, "hand": {"alice": ["Plague Spores"]}}
    assert ids(targets(board, {"cast": "plague-spores"})) == [[["dryad-arbor"], ["dryad-arbor"]]]


def test_restrictions_hexproof_shroud_any_target():
    board = {**TWO, "battlefield": {"alice": ["Gladecover Scout", "Inkwell Leviathan", "Sol Ring", "Forest"]},
             "hand": {"alice": ["Giant Growth"], "bob": ["Shock"]}}
    # own hexproof creature: fine; shroud: nobody
    assert ids(targets(board, {"cast": "giant-growth"})) == [[["gladecover-scout"]]]
    # any target: creatures and players only (CR 115.4); hexproof and shroud block the opponent
    assert ids(targets(board, {"cast": "shock"})) == [[["alice"]], [["bob"]]]


def test_no_targets_and_no_legal_targets():
    board = {**TWO, "battlefield": {"alice": ["Llanowar Elves"]},
             "hand": {"alice": ["Grizzly Bears", "Murder", "Dauntless Onslaught"]}}
    assert targets(board, {"cast": "grizzly-bears"}) == {"kind": "targets", "status": "ok", "count": 1,
                                                         "choices": [[]]}
    assert targets(board, {"activate": {"object": "llanowar-elves", "index": 1}})["choices"] == [[]]
    empty = {**TWO, "hand": {"alice": ["Murder", "Dauntless Onslaught"]}}
    assert targets(empty, {"cast": "murder"}) == {"kind": "targets", "status": "ok", "count": 0, "choices": []}
    assert ids(targets(empty, {"cast": "dauntless-onslaught"})) == [[[]]]  # CR 115.6


def test_truncated_keeps_exact_count():
    board = {"players": ["alice", "bob"], "battlefield": {"bob": ["Grizzly Bears"] * 6},
             "hand": {"alice": ["Arc Trail"]}}
    full = targets(board, {"cast": "arc-trail"})
    assert full["count"] == 8 * 7
    cut = targets(board, {"cast": "arc-trail"}, max_results=5)
    assert cut["status"] == "truncated" and cut["count"] == 56 and len(cut["choices"]) == 5
    assert cut["choices"] == sorted(cut["choices"])
    assert all(c in full["choices"] for c in cut["choices"])


def test_timeout_keeps_exact_count():
    board = {"players": ["alice", "bob"], "battlefield": {"bob": ["Grizzly Bears"] * 40},
             "hand": {"alice": ["Arc Trail"]}}
    r = targets(board, {"cast": "arc-trail"}, timeout=1e-6)
    assert r["status"] in ("timeout", "ok") and r["count"] == 42 * 41
    assert len(r["choices"]) <= r["count"]


def test_deterministic_output():
    board = {"players": ["alice", "bob", "carol"],
             "battlefield": {"bob": ["Grizzly Bears"] * 3 + ["Coalition Honor Guard"], "carol": ["Standard Bearer"]},
             "hand": {"alice": ["Arc Trail"]}}
    a = json.dumps(targets(board, {"cast": "arc-trail"}), sort_keys=True)
    b = json.dumps(targets(board, {"cast": "arc-trail"}), sort_keys=True)
    assert a == b


# ---------------------------------------------------------------------------
# Bad queries
# ---------------------------------------------------------------------------

BOARD = {**TWO, "battlefield": {"alice": ["Prodigal Pyromancer", "Grizzly Bears"]}, "hand": {"alice": ["Shock"]},
         "graveyard": {"alice": ["Murder"]}}


@pytest.mark.parametrize("query, path, words", [
    ({"cast": "nothing"}, "query.cast", "no object"),
    ({"cast": "murder"}, "query.cast", "not in a hand"),
    ({"activate": {"object": "prodigal-pyromancer", "index": 2}}, "query.activate.index", "no ability 2"),
    ({"activate": {"object": "prodigal-pyromancer"}}, "query.activate.index", "missing"),
    ({"activate": {"object": "ghost", "index": 1}}, "query.activate.object", "no object"),
    ({"trigger": {"object": "grizzly-bears", "index": 1}}, "query.trigger.index", "0 triggered"),
    ({"spell": "shock"}, "query.spell", "not on the stack"),
    ({"cast": "shock", "how": "sideways"}, "query.how", "unknown how"),
    ({"cast": "shock", "how": "activate"}, "query.how", "does not fit a spell"),
    ({"cast": "shock", "player": "zed"}, "query.player", "not a player"),
    ({"cast": "shock", "target": "bob"}, "query.target", "unknown key"),
    ({"cast": "shock", "spell": "shock"}, "query", "exactly one"),
    ({}, "query", "exactly one"),
])
def test_bad_queries(query, path, words):
    state = load(BOARD)
    with pytest.raises(QueryError) as e:
        answer(state, {"kind": "targets", **query})
    assert e.value.path == path and words in e.value.message


# ---------------------------------------------------------------------------
# Helpers for the actions query
# ---------------------------------------------------------------------------


def test_helpers_both_calling_conventions():
    state = load({**TWO, "battlefield": {"alice": ["Prodigal Pyromancer"], "bob": ["Coalition Honor Guard"]},
                  "hand": {"alice": ["Arc Trail", "Murder"]}})
    view = View(state)
    src = cast_source(view, "arc-trail")
    assert target_choice_count(view, src) == 6
    assert target_choice_count(view, src, how="random") == 12
    assert target_choice_count(view, "alice", cast="arc-trail") == 6
    assert target_choice_count(view, "bob", cast="arc-trail") == 12  # another player chooses
    assert target_choice_count(view, "alice", activate={"object": "prodigal-pyromancer", "index": 1}) == 1
    assert has_legal_targets(view, src) and has_legal_targets(view, "alice", cast="murder")
    empty = load({**TWO, "hand": {"alice": ["Murder", "Arc Trail"]}})
    ev = View(empty)
    assert not has_legal_targets(ev, "alice", cast="murder")
    assert has_legal_targets(ev, "alice", cast="arc-trail")  # the two players
    one = load({"players": ["alice"], "hand": {"alice": ["Arc Trail"]}})
    assert not has_legal_targets(View(one), "alice", cast="arc-trail")  # "another target" needs two


def test_stack_source_is_not_its_own_target():
    """CR 115.5: a spell's own id is never a candidate (checked with a filter
    that would otherwise accept the stack object's zone)."""
    state = load({**TWO, "stack": [{"card": "Shock", "controller": "alice"}]})
    view = View(state)
    src = stack_source(view, "shock")
    assert src.self_id == "shock"
    from mtgsolve.solver.rules.targeting import slot_candidates
    spec = ir.TargetSpec(ir.Filter(types=frozenset({"Instant"}), zone="stack"))
    assert slot_candidates(view, src, spec) == ()
    other = replace(src, self_id=None)
    assert slot_candidates(view, other, spec) == ("shock",)


# ---------------------------------------------------------------------------
# The instance files
# ---------------------------------------------------------------------------

INSTANCE_FILES = sorted(INSTANCES.glob("*.yaml"))


def test_instances_exist():
    assert len(INSTANCE_FILES) >= 20


@pytest.mark.parametrize("path", INSTANCE_FILES, ids=[p.stem for p in INSTANCE_FILES])
def test_instance_matches_expect_and_reference(path):
    raw = yaml.safe_load(path.read_text())
    loaded = situation_from_dict(raw, str(path))
    queries = raw["query"] if isinstance(raw["query"], list) else [raw["query"]]
    expects = raw["expect"] if isinstance(raw["query"], list) else [raw["expect"]]
    assert raw.get("rules") and raw.get("description")
    for q, exp in zip(queries, expects):
        res = answer(loaded.state, q)
        for k, v in exp.items():
            assert res[k] == v, (path.name, k)
        ref = reference_targets(loaded.state, q)
        assert res["count"] == ref["count"] and res["choices"] == ref["choices"], path.name


# ---------------------------------------------------------------------------
# Differential tests
# ---------------------------------------------------------------------------

EXAMPLES = int(os.environ.get("MTGSOLVE_EXAMPLES", "0")) or None
CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")


def _settings(default: int):
    return settings(max_examples=EXAMPLES or default, deadline=None, derandomize=CI or EXAMPLES is None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.filter_too_much], database=None)


POOL = ("a", "b", "c", "d", "e", "f")


@st.composite
def problems(draw):
    k = draw(st.integers(0, 3))
    slots = []
    for s in range(k):
        cands = tuple(sorted(draw(st.sets(st.sampled_from(POOL), max_size=5))))
        lo = draw(st.integers(0, 2))
        hi = draw(st.integers(max(lo, 1), 3))
        dist = tuple(sorted(draw(st.sets(st.integers(0, s - 1), max_size=s)))) if s else ()
        slots.append(Slot(cands, lo, hi, dist))
    reqs = tuple(Requirement(frozenset(draw(st.sets(st.sampled_from(POOL), min_size=1, max_size=3))),
                             draw(st.integers(1, 3)))
                 for _ in range(draw(st.integers(0, 3))))
    return TargetProblem(tuple(slots), reqs, draw(st.booleans()))


@_settings(900)
@given(problems(), st.integers(1, 12))
def test_model_matches_brute_force(problem, limit):
    expected = reference_problem_choices(problem)
    got = enumerate_choices(problem)
    assert got.choices == expected and got.count == len(expected) and not got.truncated
    assert count_choices(problem) == len(expected)
    assert is_feasible(problem) == bool(expected)
    cut = enumerate_choices(problem, max_results=limit)
    assert cut.count == len(expected)
    assert cut.truncated == (len(expected) > limit)
    assert len(cut.choices) == min(limit, len(expected)) and set(cut.choices) <= set(expected)
    if len(expected) <= 50:
        assert cpsat_count(problem) == len(expected)


CREATURES = ("Grizzly Bears", "Coalition Honor Guard", "Standard Bearer", "Gladecover Scout", "White Knight",
             "Inkwell Leviathan", "Sylvan Caryatid", "Llanowar Elves", "Raging Goblin", "Birds of Paradise",
             "Hangarback Walker", "Kitchen Finks", "Dryad Arbor",
             # "You have hexproof" / "You have shroud" (players, CR 702.11d, 702.18b), read from Oracle text
             "Aegis of the Gods", "True Believer")
OTHERS = ("Forest", "Mountain", "Sol Ring", "Enroll in the Coalition", "Celestial Dawn", "City of Brass")
GRAVE = ("Grizzly Bears", "Standard Bearer", "Coalition Honor Guard", "White Knight", "Gladecover Scout",
         "Kitchen Finks", "Hangarback Walker", "Inkwell Leviathan", "Shock", "Forest")
SPELLS = ("Shock", "Lightning Bolt", "Arc Trail", "Murder", "Dismember", "Giant Growth", "Dauntless Onslaught",
          "Gitaxian Probe", "Plague Spores", "Cartouche of Strength", "Coalition Flag", "Overgrowth",
          "Wild Growth", "Grizzly Bears")
ACTIVATORS = ("Prodigal Pyromancer", "Order of Whiteclay", "Thousand-Year Elixir", "Hangarback Walker",
              "Llanowar Elves")
HOWS = {"spell": ("cast", "copy", "change", "random"), "activated": ("activate", "copy", "change", "random"),
        "triggered": ("trigger", "copy", "change", "random")}


@st.composite
def boards(draw, synthetic: bool = False):
    """A random board from the card library plus a targets query."""
    players = draw(st.sampled_from([["alice", "bob"], ["alice", "bob", "carol"]]))
    d: dict = {"players": players, "battlefield": {}, "graveyard": {}, "hand": {}, "stack": []}
    counter = [0]

    def new_id() -> str:
        counter[0] += 1
        return f"o{counter[0]}"

    creatures: dict[str, list[str]] = {}
    lands: dict[str, list[str]] = {}
    for p in players:
        bf = []
        creatures[p], lands[p] = [], []
        for name in draw(st.lists(st.sampled_from(CREATURES + OTHERS), max_size=4)):
            oid = new_id()
            bf.append({"card": name, "id": oid})
            if name in CREATURES:
                creatures[p].append(oid)
            if name in ("Forest", "Mountain", "City of Brass", "Dryad Arbor"):
                lands[p].append(oid)
        for aura in draw(st.lists(st.sampled_from(("Coalition Flag", "Cartouche of Strength", "Overgrowth")),
                                  max_size=1)):
            hosts = lands[p] if aura == "Overgrowth" else creatures[p]
            if hosts:
                bf.append({"card": aura, "id": new_id(), "attached_to": draw(st.sampled_from(hosts))})
        d["battlefield"][p] = bf
        d["graveyard"][p] = [{"card": n, "id": new_id()} for n in draw(st.lists(st.sampled_from(GRAVE), max_size=2))]
    owner = draw(st.sampled_from(players))
    form = "cast" if synthetic else draw(st.sampled_from(("cast", "activate", "trigger", "spell")))
    query: dict = {"kind": "targets"}
    if form == "cast":
        oid = new_id()
        d["hand"][owner] = [{"card": "Shock" if synthetic else draw(st.sampled_from(SPELLS)), "id": oid}]
        query["cast"], kind = oid, "spell"
    elif form == "activate":
        oid = new_id()
        d["battlefield"][owner].append({"card": draw(st.sampled_from(ACTIVATORS)), "id": oid})
        query["activate"], kind = {"object": oid, "index": 1}, "activated"
    elif form == "trigger":
        host = new_id()
        oid = new_id()
        d["battlefield"][owner] += [{"card": "Grizzly Bears", "id": host},
                                    {"card": "Cartouche of Strength", "id": oid, "attached_to": host}]
        query["trigger"], kind = {"object": oid, "index": 1}, "triggered"
    else:
        sid = new_id()
        if draw(st.booleans()):
            d["stack"].append({"card": draw(st.sampled_from(SPELLS[:9])), "id": sid, "controller": owner,
                               "copy": draw(st.booleans())})
            kind = "spell"
        else:
            src = new_id()
            name = draw(st.sampled_from(("Prodigal Pyromancer", "Thousand-Year Elixir", "Order of Whiteclay")))
            d["battlefield"][owner].append({"card": name, "id": src})
            d["stack"].append({"ability": {"source": src, "index": 1}, "id": sid})
            kind = "activated"
        query["spell"] = sid
    if draw(st.booleans()):
        query["how"] = draw(st.sampled_from(HOWS[kind]))
    if draw(st.booleans()):
        query["player"] = draw(st.sampled_from(players))
    return d, query


def _check(state, query) -> None:
    got = answer(state, query)
    ref = reference_targets(state, query)
    assert got["count"] == ref["count"]
    assert got["choices"] == ref["choices"]
    view = View(state)
    subject = {k: query[k] for k in ("cast", "activate", "trigger", "spell") if k in query}
    assert target_choice_count(view, query.get("player"), how=query.get("how"), **subject) == ref["count"]
    assert has_legal_targets(view, None, **subject) == (
        reference_targets(state, {**query, "how": "random"})["count"] > 0)


@_settings(700)
@given(boards())
def test_queries_match_reference_on_library_boards(case):
    board, query = case
    _check(load(board), query)


FILTER_TYPES = ("Creature", "Land", "Artifact", "Enchantment", "Permanent", "Instant")


@st.composite
def synthetic_specs(draw):
    specs = []
    for s in range(draw(st.integers(1, 3))):
        zone = draw(st.sampled_from(("battlefield", "battlefield", "graveyard")))
        types = frozenset(draw(st.sets(st.sampled_from(FILTER_TYPES), max_size=2)))
        f = ir.Filter(types=types, players=draw(st.booleans()) if zone == "battlefield" else False,
                      who=draw(st.sampled_from(("any", "you", "opponent"))),
                      not_colors=frozenset(draw(st.sets(st.sampled_from("WUBRG"), max_size=2))),
                      mv_max=draw(st.one_of(st.none(), st.integers(0, 4))), zone=zone,
                      subtypes=frozenset(draw(st.sets(st.sampled_from(("Flagbearer", "Bear", "Forest")), max_size=1))),
                      nontypes=frozenset(draw(st.sets(st.sampled_from(("Creature", "Artifact", "Land")), max_size=1))))
        lo = draw(st.integers(0, 1))
        hi = draw(st.integers(max(lo, 1), 2))
        dist = tuple(sorted(draw(st.sets(st.integers(0, s - 1), max_size=s)))) if s else ()
        specs.append(ir.TargetSpec(f, lo, hi, dist))
    return tuple(specs)


@_settings(500)
@given(boards(synthetic=True), synthetic_specs(), st.sampled_from(("{R}", "{B}", "{W}", "{G}{U}", "")))
def test_random_target_specifications_match_reference(case, specs, cost):
    board, query = case
    state = load(board)
    o = state.obj(query["cast"])
    data = CardData.from_mtgjson({"name": "Synthetic Spell", "manaCost": cost, "type": "Sorcery",
                                  "types": ["Sorcery"]})
    card = Card(data, (), ir.SpellBehaviour(specs, ()), "library")
    state = state.replace_objects([x.with_(card=card) if x.id == o.id else x for x in state.objects])
    _check(state, query)
