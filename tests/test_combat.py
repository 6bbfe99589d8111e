"""Combat (CR 506–511): situation keys, declarations of attackers and blockers
(CP-SAT vs the brute-force reference tests/reference/combat_ref.py), exact
counts without enumeration, combat damage assignments and their results.

Hypothesis example counts are small by default (CI); set MTGSOLVE_EXAMPLES to
scale them for long runs.
"""
from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from mtgsolve.models.combat import (ChoiceProblem, CouplingDP, Item, count_independent, enumerate_declarations,
                           first_independent, solve)
from mtgsolve.solver.rules.characteristics import View
from mtgsolve.solver.engine.combat import attack_problem, block_problem
from mtgsolve.solver.engine.combat import (AttackDeclaration, BlockDeclaration, apply_attack_declaration, apply_block_declaration, assignment_plans, attack_declarations,
                           block_declarations, damage_assignments)
from mtgsolve.solver.core.errors import SituationError, UnsupportedCase
from mtgsolve.solver.queries import Options, answer
from mtgsolve.solver.io.load import dump_state, situation_from_dict
from tests.reference.combat_ref import attack_reference, block_reference, damage_reference

SEEN: dict[str, int] = {}  # the largest answer each property test met (non-vacuity)
EXAMPLES = int(os.environ.get("MTGSOLVE_EXAMPLES", "0") or 0)


def _settings(n: int):
    return settings(max_examples=max(n, EXAMPLES), deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def load(d: dict):
    base = {"format": "mtgsolve/1", "players": ["alice", "bob"]}
    base.update(d)
    return situation_from_dict(base).state


# --------------------------------------------------------------------------
# Situation keys
# --------------------------------------------------------------------------

def test_combat_keys_round_trip():
    s = load({"players": ["alice", {"id": "bob", "lost": True}, "carol"],
              "turn": {"active": "alice", "step": "first_strike_damage", "passed": ["carol", "alice"]},
              "battlefield": {"alice": [{"card": "Grizzly Bears", "attacking": "carol", "blocked": True}],
                              "carol": [{"card": "Hill Giant", "blocking": ["grizzly-bears"]}]}})
    assert s.turn.passed == ("alice", "carol") and s.player("bob").lost
    bears = s.obj("grizzly-bears")
    assert (bears.attacking, bears.blocked) == ("carol", True)
    assert s.obj("hill-giant").blocking == ("grizzly-bears",)
    d = dump_state(s)
    assert d["turn"]["passed"] == ["alice", "carol"]
    assert situation_from_dict(d).state == s


@pytest.mark.parametrize("bf, path", [
    ({"alice": [{"card": "Grizzly Bears", "attacking": "alice"}]}, "battlefield.alice[0].attacking"),
    ({"alice": [{"card": "Grizzly Bears", "attacking": "nobody"}]}, "battlefield.alice[0].attacking"),
    ({"alice": [{"card": "Grizzly Bears", "blocked": True}]}, "battlefield.alice[0].blocked"),
    ({"alice": [Ellipsis], "bob": [{"card": "Hill Giant", "blocking": ["grizzly-bears"]}]},
     "battlefield.bob[0].blocking[0]"),
    ({"alice": [{"card": "Grizzly Bears", "attacking": "bob"}, {"card": "Hill Giant", "blocking": ["grizzly-bears"]}]},
     "battlefield.alice[1].blocking[0]"),
])
def test_combat_keys_errors(bf, path):
    bf = {k: ["Grizzly Bears" if x is Ellipsis else x for x in v] for k, v in bf.items()}
    with pytest.raises(SituationError) as e:
        load({"battlefield": bf})
    assert e.value.path == path


def test_passed_errors():
    with pytest.raises(SituationError) as e:
        load({"turn": {"passed": ["alice", "zed"]}})
    assert e.value.path == "turn.passed[1]"


# --------------------------------------------------------------------------
# Random boards
# --------------------------------------------------------------------------

KEYWORDS = ["Haste", "Defender", "Vigilance", "Flying", "Reach", "Menace", "Trample", "Deathtouch", "First strike",
            "Double strike", "Lifelink", "Protection from red", "Protection from green", "Fear", "Intimidate",
            "Shadow", "Horsemanship", "Skulk"]
ATTACK_STATICS = ["This creature can't attack.", "This creature can't attack alone.",
                  "This creature attacks each combat if able.",
                  "This creature can't attack unless defending player controls an Island.",
                  "As long as you control an artifact, this creature attacks each combat if able.",  # CR 611.3a
                  "This creature can't attack as long as you control two or more artifacts."]
BLOCK_STATICS = ["This creature can't block.", "This creature can't block alone.",
                 "This creature blocks each combat if able.",
                 "This creature can block an additional creature each combat.",
                 "This creature can block any number of creatures.",
                 "This creature can block only creatures with flying.",
                 "This creature can't block creatures with power 2 or greater.",
                 "This creature can't block creatures with power 1 or less.",
                 "As long as you control an artifact, this creature can't block."]
ATTACKER_STATICS = ["This creature can't be blocked.", "All creatures able to block this creature do so.",
                    "This creature can't be blocked except by three or more creatures.",
                    "This creature can't be blocked by more than one creature.",
                    "This creature can't be blocked by creatures with power 2 or less.",
                    "This creature can't be blocked by creatures with power 2 or greater.",
                    "This creature can't be blocked by red creatures.",
                    "This creature can't be blocked by creatures with flying.",
                    "This creature can't be blocked except by creatures with flying or reach.",
                    "This creature can't be blocked except by green creatures.",
                    "This creature must be blocked if able."]
COSTS = ["{R}", "{G}", "{W}", "{B}", "{1}", "{R}{G}"]


@st.composite
def creature(draw, name: str, statics: list[str], kw=KEYWORDS, max_power: int = 3):
    kws = draw(st.lists(st.sampled_from(kw), max_size=3, unique=True))
    sts = draw(st.lists(st.sampled_from(statics), max_size=2, unique=True)) if statics and draw(
        st.integers(0, 2)) == 0 else []
    artifact = draw(st.integers(0, 4)) == 0
    card = {"name": name, "type": ("Artifact " if artifact else "") + "Creature — Bear",
            "types": ["Artifact", "Creature"] if artifact else ["Creature"], "subtypes": ["Bear"], "manaCost": draw(st.sampled_from(COSTS)),
            "power": str(draw(st.integers(0, max_power))), "toughness": str(draw(st.integers(1, 3))),
            "text": "\n".join(kws + sts)}
    return {"card": card, "tapped": draw(st.booleans()) and draw(st.booleans()), "sick": draw(st.booleans())}


@st.composite
def attack_board(draw):
    n = draw(st.integers(1, 4))
    mine = [draw(creature(f"Attacker {chr(65 + i)}", ATTACK_STATICS)) for i in range(n)]
    lands = ["Mountain"] * draw(st.integers(0, 4))
    if draw(st.booleans()):
        lands.append({"card": "Llanowar Elves", "sick": draw(st.booleans())})
    theirs: list = []
    if draw(st.booleans()):
        theirs.append({"card": "Jace, the Mind Sculptor", "counters": {"loyalty": 3}})
    theirs += ["Ghostly Prison"] * draw(st.integers(0, 2))
    if draw(st.booleans()):
        theirs.append("Island")
    return {"turn": {"active": "alice", "step": "declare_attackers"},
            "battlefield": {"alice": mine + lands, "bob": theirs}}


def _payable_by_mountains(state):
    """Mana: each untapped Mountain, and Llanowar Elves unless it is sick, tapped or attacking."""
    def payable(amount, attackers):
        untapped = sum(1 for o in state.battlefield if o.card.name == "Mountain" and not o.tapped)
        untapped += sum(1 for o in state.battlefield if o.card.name == "Llanowar Elves" and not o.tapped
                        and not o.sick and o.id not in attackers)
        return amount <= untapped
    return payable


@_settings(40)
@given(attack_board())
def test_attacks_match_reference(board):
    state = load(board)
    count, decls, status = attack_declarations(state, "alice")
    assert status == "ok" and count == len(decls)
    got = [(tuple(sorted(d.attackers)), d.cost) for d in decls]
    assert got == sorted(got)
    assert got == attack_reference(state, "alice", _payable_by_mountains(state))
    cp = solve(attack_problem(View(state), "alice"), engine="cpsat")
    walk = solve(attack_problem(View(state), "alice"))
    assert (cp.count, cp.declarations) == (walk.count, walk.declarations)
    SEEN["attacks"] = max(SEEN.get("attacks", 0), count)


@st.composite
def block_board(draw):
    n = draw(st.integers(1, 3))
    attackers = []
    has_pw = draw(st.booleans())
    for i in range(n):
        c = draw(creature(f"Attacker {chr(65 + i)}", ATTACKER_STATICS))
        c["sick"] = False
        c["tapped"] = True
        c["attacking"] = draw(st.sampled_from(["bob", "jace-the-mind-sculptor"] if has_pw else ["bob"]))
        attackers.append(c)
    m = draw(st.integers(1, 4))
    blockers = [draw(creature(f"Blocker {chr(65 + i)}", BLOCK_STATICS)) for i in range(m)]
    theirs = blockers + ([{"card": "Jace, the Mind Sculptor", "counters": {"loyalty": 3}}] if has_pw else [])
    if draw(st.booleans()):
        theirs.append("Mountain")
    return {"turn": {"active": "alice", "step": "declare_blockers"},
            "battlefield": {"alice": attackers, "bob": theirs}}


@_settings(40)
@given(block_board())
def test_blocks_match_reference(board):
    state = load(board)
    count, decls, status = block_declarations(state, "bob")
    assert status == "ok" and count == len(decls)
    got = [tuple(sorted(d.blockers)) for d in decls]
    assert got == sorted(got)
    assert got == block_reference(state, "bob")
    cp = solve(block_problem(View(state), "bob"), engine="cpsat")
    walk = solve(block_problem(View(state), "bob"))
    assert (cp.count, cp.declarations) == (walk.count, walk.declarations)
    SEEN["blocks"] = max(SEEN.get("blocks", 0), count)


@_settings(25)
@given(block_board(), st.integers(1, 5))
def test_block_listing_cut_keeps_exact_count_and_order(board, limit):
    state = load(board)
    full_count, full, _ = block_declarations(state, "bob")
    count, decls, status = block_declarations(state, "bob", limit=limit)
    assert count == full_count
    assert decls == full[:limit]
    assert status == ("truncated" if full_count > limit else "ok")


# --------------------------------------------------------------------------
# The model alone: independent counts and canonical listing
# --------------------------------------------------------------------------

@st.composite
def independent_problem(draw):
    opts = ["o1", "o2", "o3", "o4"]
    items = []
    for i in range(draw(st.integers(0, 4))):
        options = tuple(sorted(draw(st.lists(st.sampled_from(opts), unique=True, max_size=4))))
        ws = tuple((o, draw(st.integers(0, 2))) for o in options if draw(st.booleans()))
        items.append(Item(f"i{i}", options, cap=draw(st.integers(1, 3)), any_weight=draw(st.integers(0, 1)),
                          weights=tuple((o, w) for o, w in ws if w)))
    return ChoiceProblem(tuple(items))


@_settings(60)
@given(independent_problem(), st.integers(1, 50))
def test_independent_count_and_listing(problem, n):
    ans = enumerate_declarations(problem)
    assert count_independent(problem) == ans.count
    assert first_independent(problem, n) == [d for d, _ in ans.declarations][:n]


@st.composite
def coupled_problem(draw):
    base = draw(independent_problem())
    items = tuple(Item(i.id, i.options, i.cap, alone=draw(st.booleans()), any_weight=i.any_weight, weights=i.weights)
                  for i in base.items)
    mins = tuple((o, draw(st.integers(2, 3))) for o in ["o1", "o2", "o3", "o4"] if draw(st.booleans()))
    costs = tuple((o, draw(st.integers(1, 2))) for o in ["o1", "o2", "o3", "o4"] if draw(st.integers(0, 3)) == 0)
    maxs = tuple((o, draw(st.integers(0, 2))) for o in ["o1", "o2", "o3", "o4"] if draw(st.integers(0, 3)) == 0)
    ow = tuple((o, draw(st.integers(1, 2))) for o in ["o1", "o2", "o3", "o4"] if draw(st.integers(0, 3)) == 0)
    return ChoiceProblem(items, min_choosers=mins, costs=costs,
                         max_cost=draw(st.integers(0, 4)) if costs else None, max_choosers=maxs, option_weights=ow)


@_settings(60)
@given(coupled_problem(), st.integers(1, 50))
def test_coupled_count_and_listing(problem, n):
    ans = enumerate_declarations(problem)
    dp = CouplingDP(problem)
    assert dp.count == ans.count and dp.M == ans.max_obeyed
    assert [(d, dp.cost_of(d)) for d in dp.first(n)] == ans.declarations[:n]


# --------------------------------------------------------------------------
# Combat damage
# --------------------------------------------------------------------------

@st.composite
def damage_board(draw):
    n = draw(st.integers(1, 3))
    m = draw(st.integers(0, 3))
    has_pw = draw(st.booleans())
    attackers = []
    for i in range(n):
        c = draw(creature(f"Attacker {chr(65 + i)}", [], max_power=3))
        c.update(sick=False, tapped=True,
                 attacking=draw(st.sampled_from(["bob", "jace-the-mind-sculptor"] if has_pw else ["bob"])))
        attackers.append(c)
    ids = [f"attacker-{chr(97 + i)}" for i in range(n)]
    blockers = []
    blocked = set()
    for i in range(m):
        c = draw(creature(f"Blocker {chr(65 + i)}", [], max_power=2))
        c["tapped"] = False
        bl = draw(st.lists(st.sampled_from(ids), min_size=1, max_size=2, unique=True))
        c["blocking"] = sorted(bl)
        blocked |= set(bl)
        blockers.append(c)
    for i, c in enumerate(attackers):
        c["blocked"] = ids[i] in blocked or draw(st.booleans()) and draw(st.booleans())
    theirs = blockers + ([{"card": "Jace, the Mind Sculptor", "counters": {"loyalty": 3}}] if has_pw else [])
    return {"turn": {"active": "alice", "step": "combat_damage"}, "battlefield": {"alice": attackers, "bob": theirs}}


def _plan_key(plan):
    return tuple(sorted((d, tuple(sorted(v.items()))) for d, v in plan.items()))


@_settings(40)
@given(damage_board(), st.booleans())
def test_damage_assignments_match_reference(board, first):
    state = load(board)
    got = sorted(_plan_key(p) for p in assignment_plans(state, first))
    assert got == damage_reference(state, first)
    SEEN["damage"] = max(SEEN.get("damage", 0), len(got))


def test_random_boards_were_not_trivial():
    """The property tests above saw real choices (run after them, in file order)."""
    assert SEEN.get("attacks", 0) > 5 and SEEN.get("blocks", 0) > 5 and SEEN.get("damage", 0) > 3, SEEN


def test_lifelink_deathtouch_and_trample_results():
    state = load({"turn": {"active": "alice", "step": "combat_damage"},
                  "battlefield": {
                      "alice": [{"card": "Vampire Nighthawk", "attacking": "bob", "tapped": True, "blocked": True},
                                {"card": "Colossal Dreadmaw", "attacking": "bob", "tapped": True, "blocked": True}],
                      "bob": [{"card": "Hill Giant", "blocking": ["vampire-nighthawk"]},
                              {"card": "Grizzly Bears", "blocking": ["colossal-dreadmaw"]}]}})
    outs = damage_assignments(state, False)
    # Nighthawk: 2 to the Giant; Dreadmaw: 2..6 to the Bears (>= lethal 2 before any to bob) — 5 ways;
    # Hill Giant: 3 to Nighthawk; Bears: 2 to Dreadmaw.
    assert len(outs) == 5
    for o in outs:
        dm, after = dict(dict(o.damage)["colossal-dreadmaw"]), o.state
        assert dm.get("grizzly-bears", 0) >= 2
        assert after.player("alice").life == 22  # lifelink
        assert after.player("bob").life == 20 - dm.get("bob", 0)
        gy = {o.id for o in after.objects if o.zone == "graveyard"}
        assert {"hill-giant", "grizzly-bears", "vampire-nighthawk"} <= gy  # deathtouch; 3 damage to a 2/3
        assert after.obj("colossal-dreadmaw").attacking == "bob"
        assert situation_from_dict(dump_state(after)).state is not None


def test_first_strike_steps_and_planeswalker_damage():
    state = load({"turn": {"active": "alice", "step": "first_strike_damage"},
                  "battlefield": {
                      "alice": [{"card": "White Knight", "attacking": "jace-the-mind-sculptor", "tapped": True},
                                {"card": "Boros Swiftblade", "attacking": "bob", "tapped": True},
                                {"card": "Grizzly Bears", "attacking": "bob", "tapped": True}],
                      "bob": [{"card": "Jace, the Mind Sculptor", "counters": {"loyalty": 3}}]}})
    [o] = damage_assignments(state)
    after = o.state
    assert o.damage == (("boros-swiftblade", (("bob", 1),)), ("white-knight", (("jace-the-mind-sculptor", 2),)))
    assert o.settled == {}
    assert after.obj("jace-the-mind-sculptor").counter("loyalty") == 1 and after.player("bob").life == 19
    [o2] = damage_assignments(after.with_(turn=after.turn.__class__(3, "alice", "combat_damage")), False)
    after2 = o2.state
    assert o2.damage == (("boros-swiftblade", (("bob", 1),)), ("grizzly-bears", (("bob", 2),)))
    assert after2.player("bob").life == 16


def test_dies_triggers_after_combat_damage_go_on_the_stack():
    card = {"name": "Doomed Bear", "type": "Creature — Bear", "types": ["Creature"], "manaCost": "{1}{G}",
            "power": "2", "toughness": "2", "text": "When this creature dies, draw a card."}
    state = load({"turn": {"active": "alice", "step": "combat_damage"},
                  "battlefield": {"alice": [{"card": "Hill Giant", "attacking": "bob", "blocked": True,
                                             "tapped": True}],
                                  "bob": [{"card": card, "blocking": ["hill-giant"]}]},
                  "library": {"bob": ["Forest"]}})
    [o] = damage_assignments(state)
    after = o.state
    assert o.damage == (("doomed-bear", (("hill-giant", 2),)), ("hill-giant", (("doomed-bear", 3),)))
    assert o.settled["triggers"][0]["ability"] == {"source": "doomed-bear", "index": 1}
    assert after.obj("doomed-bear").zone == "graveyard" and after.obj("doomed-bear").blocking == ()
    assert [o.id for o in after.zone("stack")] == ["ability-of-doomed-bear"]
    assert situation_from_dict(dump_state(after)).state is not None


def test_apply_declarations_and_vigilance():
    state = load({"turn": {"active": "alice", "step": "declare_attackers"},
                  "battlefield": {"alice": ["Serra Angel", "Grizzly Bears"], "bob": ["Giant Spider"]}})
    count, decls, _ = attack_declarations(state)
    assert count == 4
    after = apply_attack_declaration(state, AttackDeclaration((("serra-angel", "bob"), ("grizzly-bears", "bob"))))
    assert not after.obj("serra-angel").tapped and after.obj("grizzly-bears").tapped  # CR 702.20b
    count, decls, _ = block_declarations(after)
    assert count == 3
    blocked = apply_block_declaration(after, BlockDeclaration((("giant-spider", ("serra-angel",)),)))
    assert blocked.obj("serra-angel").blocked and blocked.obj("giant-spider").blocking == ("serra-angel",)
    assert situation_from_dict(dump_state(blocked)).state == blocked


def test_queries_shape_and_truncation():
    bf = {"alice": [{"card": "Grizzly Bears", "attacking": "bob"} for _ in range(8)],
          "bob": ["Hill Giant"] * 8}
    state = load({"turn": {"active": "alice", "step": "declare_blockers"}, "battlefield": bf})
    res = answer(state, {"kind": "blocks"}, Options(max_results=5))
    assert res["status"] == "truncated" and res["count"] == 9 ** 8
    assert res["declarations"][0] == {"blockers": {}}
    assert res["declarations"][1] == {"blockers": {"hill-giant": ["grizzly-bears"]}}
    res = answer(state, {"kind": "attacks", "player": "bob"})
    assert res["status"] == "ok" and res["count"] == 2 ** 8


def test_battles_are_unsupported():
    card = {"name": "Test Battle", "type": "Battle — Siege", "types": ["Battle"], "subtypes": ["Siege"], "manaCost": "{2}"}
    state = load({"battlefield": {"alice": ["Grizzly Bears"], "bob": [{"card": card}]}})
    with pytest.raises(UnsupportedCase):
        attack_declarations(state)


def test_a_creature_leaving_the_battlefield_leaves_combat():
    """CR 506.4: resolving a Lightning Bolt on a blocked attacker writes a situation that loads again."""
    state = load({"turn": {"active": "alice", "step": "declare_blockers", "priority": "bob"},
                  "battlefield": {"alice": [{"card": "Grizzly Bears", "attacking": "bob", "tapped": True,
                                             "blocked": True}],
                                  "bob": [{"card": "Hill Giant", "blocking": ["grizzly-bears"]}]},
                  "stack": [{"card": "Lightning Bolt", "controller": "bob", "targets": [["grizzly-bears"]]}]})
    res = answer(state, {"kind": "resolve"})
    assert res["status"] == "ok"
    for o in res["outcomes"]:
        after = situation_from_dict(o["situation"]).state
        assert after.obj("grizzly-bears").attacking is None and after.obj("hill-giant").blocking == ()
