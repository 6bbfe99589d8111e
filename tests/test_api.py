"""The agents' Python API (solver.api): situations, the lazy legal-actions view,
Action strings and JSON, verdicts with reasons, apply, masks, and errors."""
from __future__ import annotations

import json
import os

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mtgsolve.solver.api import (Action, ActionError, AmbiguousActionError, IllegalActionError, InvalidActionError,
                        Payment, Situation, UnsupportedActionError, Verdict)
from mtgsolve.solver.io.load import dump_state, situation_from_dict

EXAMPLES = int(os.environ.get("MTGSOLVE_EXAMPLES", "200"))
SETTINGS = settings(max_examples=EXAMPLES, deadline=None, derandomize=os.environ.get("CI") == "true",
                    suppress_health_check=[HealthCheck.too_slow])


def sit(**kw) -> Situation:
    d = {"format": "mtgsolve/1", "players": ["alice", "bob"],
         "turn": {"number": 3, "active": "alice", "step": "main1"}}
    d.update(kw)
    return Situation.from_dict(d)


def roundtrip(s: Situation) -> None:
    """The written-back situation loads to the same state (apply keeps the loader's canonical form)."""
    assert situation_from_dict(json.loads(json.dumps(dump_state(s.state)))).state == s.state


# ---------------------------------------------------------------------------
# Action strings and JSON
# ---------------------------------------------------------------------------

EXAMPLES_STR = [
    "pass",
    "play forest-2",
    "cast shock -> coalition-honor-guard paying mountain",
    "cast arc-trail -> bob; grizzly-bears paying mountain, mountain-2",
    "cast dauntless-onslaught -> () paying forest",
    "cast hangarback-walker x=1 paying forest, forest-2",
    "cast hangarback-walker paying nothing",
    "activate prodigal-pyromancer:1 -> bob paying prodigal-pyromancer",
    "activate order-of-whiteclay:1 -> grizzly-bears paying plains, plains-2, plains-3 untapping order-of-whiteclay",
    "activate squandered-resources:1 paying sacrificing forest life 2 damage 1 removing vivid-crag 1 charge "
    "leaving alice {G}{G}",
    'cast "odd id" -> "a b", "paying" paying "nothing", x',
]


@pytest.mark.parametrize("text", EXAMPLES_STR)
def test_canonical_strings_round_trip(text):
    a = Action.parse(text)
    assert str(a) == text
    assert Action.parse(str(a)) == a
    assert Action.from_json(json.loads(json.dumps(a.to_json()))) == a
    assert hash(a) == hash(Action.parse(text))


def test_aliases_and_normalisation():
    assert Action.parse("play_land forest") == Action("play_land", "forest")
    assert Action.parse("cast x -> b, a") == Action.parse("cast x -> a, b")  # a slot is a set of ids
    assert str(Action.parse("cast x -> b, a")) == "cast x -> a, b"
    assert Action.parse("cast x paying b, a").payment.tap == ("a", "b")
    assert Action.parse("cast x paying a").x == 0  # a payment fixes X
    assert Action.parse("cast x").x is None
    assert Action("cast", "x", targets=()) == Action("cast", "x")  # no instances of "target"


def test_from_json_accepts_action_query_entries_and_payments():
    a = Action.from_json({"kind": "cast", "object": "shock", "targets": 1, "payments": 1})
    assert a == Action("cast", "shock")
    pay = {"tap": ["forest"], "untap": [], "sacrifice": [], "life": 0, "damage": 0, "x": 2,
           "pool_after": {"alice": ""}}
    b = Action.from_json({"kind": "cast", "object": "hangarback-walker", "payment": pay})
    assert b.x == 2 and b.payment == Payment(tap=("forest",))
    with pytest.raises(InvalidActionError):
        Action.from_json({"kind": "cast", "object": "h", "x": 1, "payment": pay})


@pytest.mark.parametrize("bad", ["", "jump", "cast", "activate x", "activate x:0", "cast x ->", "cast x -> ;",
                                 "play", "pass now", "cast x paying", "cast x paying a,", "cast x x=", "cast x x=-1",
                                 "cast x -> a, a", "cast x paying a, a", "play a -> b", "cast x paying life two",
                                 "cast x paying leaving alice", 'cast "x'])
def test_malformed_strings_are_invalid(bad):
    with pytest.raises(InvalidActionError) as e:
        Action.parse(bad)
    assert isinstance(e.value, ValueError) and isinstance(e.value, ActionError)
    assert "\n" not in str(e.value)


def test_invalid_json():
    for bad in [{"kind": "fly"}, {"kind": "cast"}, {"kind": "pass", "object": "x"}, {"kind": "activate", "object": "x"},
                {"kind": "cast", "object": "x", "targets": "bob"}, {"kind": "cast", "object": "x", "color": "red"},
                {"kind": "cast", "object": "x", "payment": {"tap": "forest"}}, [1, 2]]:
        with pytest.raises(InvalidActionError):
            Action.from_json(bad)


ids = st.one_of(st.from_regex(r"[a-z][a-z0-9-]{0,8}", fullmatch=True),
                st.sampled_from(["paying", "x", "nothing", "life", "-x", "a b", "é", "x:1", '"q"', "1", "(", "->"]),
                st.text(min_size=1, max_size=6))
id_lists = st.lists(ids, unique=True, max_size=3)
payments = st.builds(Payment, id_lists, id_lists, id_lists, st.integers(0, 5), st.integers(0, 3),
                     st.dictionaries(ids, st.sampled_from(["", "{R}", "{W}{W}{C}"]), max_size=2).map(
                         lambda d: tuple(d.items())),
                     st.dictionaries(ids, st.dictionaries(st.sampled_from(["charge", "+1/+1"]), st.integers(0, 3),
                                                          max_size=2), max_size=2).map(lambda d: tuple(d.items())))
actions = st.one_of(
    st.just(Action("pass")),
    st.builds(Action, st.just("play_land"), ids),
    st.builds(Action, st.just("cast"), ids, st.none(), st.none() | st.lists(id_lists, max_size=3),
              st.none() | payments, st.none() | st.integers(0, 9)),
    st.builds(Action, st.just("activate"), ids, st.integers(1, 4), st.none() | st.lists(id_lists, max_size=3),
              st.none() | payments, st.none() | st.integers(0, 9)),
)


@SETTINGS
@given(actions)
def test_any_action_round_trips(a):
    assert Action.parse(str(a)) == a
    assert Action.from_json(json.loads(json.dumps(a.to_json()))) == a
    assert str(Action.parse(str(a))) == str(a)


# ---------------------------------------------------------------------------
# Loading, the lazy view, verdicts
# ---------------------------------------------------------------------------

def test_load_and_from_dict(tmp_path):
    p = tmp_path / "s.yaml"
    p.write_text("format: mtgsolve/1\nplayers: [alice, bob]\nhand: {alice: [Forest]}\n")
    s = Situation.load(p)
    assert s.player == "alice" and s.source == str(p)
    assert [str(a) for a in s.legal_actions] == ["pass", "play forest"]
    assert s == Situation.from_dict(s.to_dict())
    with pytest.raises(ValueError) as e:
        Situation.from_dict({"format": "mtgsolve/1", "players": ["alice"], "hand": {"alice": ["Forrest"]}})
    assert "hand.alice[0].card: unknown card 'Forrest'" in str(e.value)


def test_lands_pass_and_view_protocol():
    s = sit(battlefield={"alice": ["Mountain"]}, hand={"alice": ["Forest", "Forest", "Island"]})
    view = s.legal_actions
    assert [str(a) for a in view] == ["pass", "play forest", "play forest-2", "play island"]
    # no len(): list(view) would call it and count every action before listing (issue 16)
    assert view.count() == 4 and not hasattr(view, "__len__")
    assert bool(view)
    assert "play forest-2" in view and Action("pass") in view
    assert "play mountain" not in view and "nonsense !!" not in view
    assert [str(a) for a in view.heads()] == ["pass", "play forest", "play forest-2", "play island"]
    assert view.summary()["count"] == 4


def test_no_priority_means_no_actions():
    s = sit(turn={"number": 3, "active": "alice", "step": "untap"}, hand={"alice": ["Forest"]})
    assert not s.legal_actions and list(s.legal_actions) == [] and s.legal_actions.count() == 0
    v = s.is_legal("pass")
    assert not v and "untap step" in v.reason and "502.4" in v.reason


@pytest.mark.parametrize("turn,stack,action,words", [
    ({"active": "bob", "priority": "alice"}, None, "play forest", "your own turn"),
    ({"active": "alice", "step": "end"}, None, "play forest", "main phase"),
    ({"active": "alice", "lands_played": 1}, None, "play forest", "already played 1 land"),
    ({"active": "alice"}, [{"card": "Shock", "controller": "bob", "targets": [["alice"]]}], "play forest",
     "stack is empty"),
    ({"active": "alice", "priority": "bob"}, None, "play forest", "not in bob's hand"),
    ({"active": "alice"}, None, "play island", "no object 'island'"),
    ({"active": "alice"}, None, "play mountain", "not in alice's hand"),
    ({"active": "alice"}, None, "cast forest", "lands are played, not cast"),
    ({"active": "bob", "priority": "alice"}, None, "cast grizzly-bears", "your own turn"),
    ({"active": "alice"}, None, "activate mountain:1", "mana ability"),
    ({"active": "alice"}, None, "activate mountain:2", "no activated ability 2"),
])
def test_illegal_with_reasons(turn, stack, action, words):
    t = {"number": 3, "step": "main1", **turn}
    d = {"turn": t, "battlefield": {"alice": ["Mountain"]}, "hand": {"alice": ["Forest", "Grizzly Bears"]}}
    if stack:
        d["stack"] = stack
    s = sit(**d)
    v = s.is_legal(action)
    assert isinstance(v, Verdict) and not v and not bool(v)
    assert words in v.reason, v.reason
    assert "CR" in v.reason or "no object" in v.reason or "no activated" in v.reason
    with pytest.raises(IllegalActionError) as e:
        s.apply(action)
    assert words in str(e.value)


def test_invalid_input_to_is_legal_raises():
    s = sit()
    with pytest.raises(InvalidActionError):
        s.is_legal("dance")
    with pytest.raises(InvalidActionError):
        s.is_legal(42)  # type: ignore[arg-type]


# ---------------------------------------------------------------------------
# apply
# ---------------------------------------------------------------------------

def test_play_land_and_pass():
    s = sit(battlefield={"alice": ["Mountain"], "bob": ["Grizzly Bears"]}, hand={"alice": ["Forest", "Vivid Crag"]})
    after = s.apply("play forest")
    assert s.state.obj("forest").zone == "hand"  # immutable
    f = after.state.obj("forest")
    assert f.zone == "battlefield" and f.controller == "alice" and f.sick and not f.tapped
    assert after.state.turn.lands_played == 1 and after.player == "alice"  # CR 117.3c
    assert "play vivid-crag" not in after.legal_actions
    roundtrip(after)
    passed = after.apply("pass")
    assert passed.player == "bob" and passed.state.turn.active == "alice"  # CR 117.3d
    assert [str(a) for a in passed.legal_actions] == ["pass"]
    roundtrip(passed)


def test_land_entering_tapped_with_counters():
    s = sit(hand={"alice": ["Vivid Crag"]})
    crag = s.apply("play vivid-crag").state.obj("vivid-crag")
    assert crag.tapped and crag.counters == (("charge", 2),)  # CR 614.1c


def test_land_entering_with_doubled_counters():
    s = sit(battlefield={"alice": ["Doubling Season"]}, hand={"alice": ["Vivid Crag"]})
    crag = s.apply("play vivid-crag").state.obj("vivid-crag")
    assert crag.counters == (("charge", 4),)  # CR 122.6, 614.1c


def test_cast_moves_to_stack_and_pays():
    s = sit(battlefield={"alice": ["Forest", "Forest", "Mountain"]}, hand={"alice": ["Grizzly Bears"]},
            stack=[{"card": "Lightning Bolt", "controller": "bob", "targets": [["alice"]]}],
            turn={"number": 3, "active": "alice", "step": "main1", "priority": "alice"})
    assert not s.is_legal("cast grizzly-bears")  # the stack is not empty
    s = sit(battlefield={"alice": ["Forest", "Forest", "Mountain"]}, hand={"alice": ["Grizzly Bears"]})
    with pytest.raises(AmbiguousActionError) as e:
        s.apply("cast grizzly-bears")
    assert "2 distinct payments" in str(e.value)
    after = s.apply("cast grizzly-bears paying forest, mountain")
    bears = after.state.obj("grizzly-bears")
    assert bears.zone == "stack" and bears.controller == "alice" and bears.order == 0
    assert after.state.obj("forest").tapped and after.state.obj("mountain").tapped
    assert not after.state.obj("forest-2").tapped
    assert after.player == "alice"
    roundtrip(after)
    # an interchangeable Forest may be named instead of the one the pay query lists
    assert s.is_legal("cast grizzly-bears paying forest-2, mountain")
    v = s.is_legal("cast grizzly-bears paying forest, forest-2, mountain")
    assert not v and "distinct ways to pay" in v.reason


def test_x_spell_needs_x_or_unique_payment():
    s = sit(battlefield={"alice": ["Forest", "Forest"]}, hand={"alice": ["Hangarback Walker"]})
    assert s.legal_actions.summary()["actions"][0]["payments"] == 2  # X=0 and X=1
    with pytest.raises(AmbiguousActionError):
        s.apply("cast hangarback-walker")
    after = s.apply("cast hangarback-walker x=1")
    w = after.state.obj("hangarback-walker")
    assert w.zone == "stack" and w.x == 1
    assert after.state.obj("forest").tapped and after.state.obj("forest-2").tapped
    assert not s.is_legal("cast hangarback-walker x=2")
    assert "x=" not in str(s.complete("cast hangarback-walker x=0"))
    v = s.is_legal("cast hangarback-walker x=2")
    assert "X=2" in v.reason


def test_pool_mana_and_life_payments():
    s = sit(players=[{"id": "alice", "life": 10}, "bob"], battlefield={"alice": ["Ancient Tomb"]},
            hand={"alice": ["Hangarback Walker"]})
    after = s.apply("cast hangarback-walker x=1")
    assert after.state.player("alice").life == 8  # Ancient Tomb deals 2 damage to you
    s2 = sit(mana_pool={"alice": "{G}{G}{R}"}, hand={"alice": ["Grizzly Bears"]})
    acts = [str(a) for a in s2.legal_actions]
    assert any(a.startswith("cast grizzly-bears") for a in acts)
    with pytest.raises(AmbiguousActionError):
        s2.complete("cast grizzly-bears")  # {G} or {R} may be left in the pool
    after2 = s2.apply("cast grizzly-bears paying leaving alice {R}")
    assert after2.state.pool("alice").text == "{R}"
    roundtrip(after2)


def test_activate_puts_ability_on_stack():
    # a 1/1 (with no counters it would be a 0/0 and die to state-based actions once the
    # ability is activated, CR 704.5f, 117.5)
    s = sit(battlefield={"alice": ["Forest", {"card": "Hangarback Walker", "counters": {"+1/+1": 1}}]})
    after = s.apply("activate hangarback-walker:1")
    (ab,) = [o for o in after.state.objects if o.zone == "stack"]
    # on the stack the dies-trigger counts too: the activated ability is the 2nd triggered-or-activated ability
    assert ab.ability.source == "hangarback-walker" and ab.ability.index == 2
    assert ab.controller == "alice" and ab.id == "ability-of-hangarback-walker"
    assert after.state.obj("hangarback-walker").tapped and after.state.obj("forest").tapped
    roundtrip(after)


def test_city_of_brass_trigger_goes_above_the_spell():
    s = sit(battlefield={"alice": ["City of Brass"]}, hand={"alice": ["Hangarback Walker"]})
    after = s.apply("cast hangarback-walker x=0")
    assert [o.id for o in after.state.zone("stack")] == ["hangarback-walker"]  # nothing tapped, no trigger
    s = sit(battlefield={"alice": ["City of Brass", "Forest"]}, hand={"alice": ["Grizzly Bears"]})
    after = s.apply("cast grizzly-bears")
    top, spell = after.state.zone("stack")
    assert spell.id == "grizzly-bears" and top.ability.source == "city-of-brass" and top.controller == "alice"
    roundtrip(after)
    s = sit(battlefield={"alice": ["City of Brass", "City of Brass"]}, hand={"alice": ["Grizzly Bears"]})
    # the same ability of two interchangeable sources (both tapped for the spell): every order is one outcome
    # up to which City is which (contract §2.3) — no order to give (tests/test_trigger_order_decision.py has
    # sources that differ, where the order is the player's)
    plain = s.apply("cast grizzly-bears")
    assert [o.ability.source for o in plain.state.zone("stack")[:2]] == ["city-of-brass-2", "city-of-brass"]
    after = s.apply("cast grizzly-bears", trigger_order=["city-of-brass-2", "city-of-brass"])
    assert [o.ability.source for o in after.state.zone("stack")[:2]] == ["city-of-brass-2", "city-of-brass"]


def test_mask_index_space():
    s = sit(battlefield={"alice": ["Forest", {"card": "Hangarback Walker", "sick": True}]},
            hand={"alice": ["Forest", "Grizzly Bears", "Lightning Bolt"]})
    mask, acts = s.legal_actions_mask()
    assert mask.dtype == np.int8 and mask.shape == (len(acts),)
    assert [str(a) for a in acts] == ["activate hangarback-walker:1", "cast grizzly-bears", "cast lightning-bolt",
                                      "pass", "play forest-2"]
    assert mask.tolist() == [0, 0, 0, 1, 1]
    assert acts == s.candidate_actions()
    legal_heads = [a for a, m in zip(acts, mask) if m]
    assert legal_heads == s.legal_actions.heads()
    mask2, acts2 = Situation.from_dict(s.to_dict()).legal_actions_mask()  # stable
    assert acts2 == acts and (mask2 == mask).all()


def test_count_matches_iteration_and_summary():
    s = sit(battlefield={"alice": ["Forest", "Forest", "Mountain", "Llanowar Elves"]},
            hand={"alice": ["Forest", "Grizzly Bears", "Hangarback Walker"]})
    listed = list(s.legal_actions)
    assert len(listed) == len(set(listed)) == s.legal_actions.count()
    summary = s.legal_actions.summary()
    assert summary["count"] == len(summary["actions"])
    total = sum(e.get("targets", 1) * e.get("payments", 1) for e in summary["actions"])
    assert total == len(listed)
    for a in listed:
        assert s.is_legal(a), a
        assert Action.parse(str(a)) == a
        after = s.apply(a)
        roundtrip(after)


def test_errors_are_value_errors():
    for cls in (InvalidActionError, IllegalActionError, AmbiguousActionError, UnsupportedActionError):
        assert issubclass(cls, ActionError) and issubclass(cls, ValueError)


def test_ambiguous_targets_and_explicit_choice():
    s = sit(battlefield={"alice": ["Mountain", "Prodigal Pyromancer"], "bob": ["Grizzly Bears"]},
            hand={"alice": ["Shock"]})
    with pytest.raises(AmbiguousActionError) as e:
        s.apply("cast shock")
    assert "4 legal choices of targets" in str(e.value)
    after = s.apply("cast shock -> grizzly-bears")
    shock = after.state.obj("shock")
    assert shock.zone == "stack" and shock.targets == (("grizzly-bears",),)
    assert after.state.obj("mountain").tapped
    v = s.is_legal("cast shock -> mountain")
    assert not v and "not a legal choice of targets" in v.reason
    v = s.is_legal("cast shock -> bob; alice")
    assert not v and "1 instance(s) of the word 'target'" in v.reason
    # with a Flagbearer on the battlefield the only choice is forced, so "cast shock" is complete enough
    s2 = sit(battlefield={"alice": ["Mountain"], "bob": ["Grizzly Bears", "Coalition Honor Guard"]},
             hand={"alice": ["Shock"]})
    assert str(s2.complete("cast shock")) == "cast shock -> coalition-honor-guard paying mountain"
    v = s2.is_legal("cast shock -> grizzly-bears")
    assert not v and "coalition-honor-guard" in v.reason


def test_activate_with_targets_and_unpayable_reason():
    s = sit(battlefield={"alice": ["Prodigal Pyromancer"], "bob": ["Grizzly Bears"]})
    after = s.apply("activate prodigal-pyromancer:1 -> bob")
    (ab,) = after.state.zone("stack")
    assert ab.targets == (("bob",),) and ab.ability.index == 1
    assert after.state.obj("prodigal-pyromancer").tapped
    roundtrip(after)
    s = sit(battlefield={"alice": ["Forest"]}, hand={"alice": ["Lightning Bolt"]})
    v = s.is_legal("cast lightning-bolt -> bob")
    assert not v and "cannot be paid" in v.reason and "{R}" in v.reason, v.reason


def test_sacrificed_source_keeps_last_known_information():
    s = sit(battlefield={"alice": ["Tinder Farm", "Forest", "Forest"], "bob": ["Grizzly Bears"]},
            hand={"alice": ["Kitchen Finks"]})
    # Tinder Farm's {T}, sacrifice: add {R}{W} pays Kitchen Finks with a Forest
    acts = [str(a) for a in s.legal_actions if a.kind == "cast"]
    assert any("sacrificing tinder-farm" in a for a in acts), acts
    a = next(x for x in acts if "sacrificing tinder-farm" in x)
    after = s.apply(a)
    assert after.state.obj("tinder-farm").zone == "graveyard"
    roundtrip(after)


def test_state_based_actions_after_a_cost_are_settled():
    """Sacrificing an enchanted land to pay for a spell leaves its Aura attached to nothing: it goes
    to its owner's graveyard (CR 704.5m); a sacrificed token ceases to exist (CR 704.5d). Both happen
    in the one settle step after the action (CR 117.5), and the result round-trips."""
    s = sit(battlefield={"alice": ["Squandered Resources", "Forest", "Forest",
                                   {"card": "Wild Growth", "attached_to": "forest"}]},
            hand={"alice": ["Grizzly Bears"]})
    acts = [str(a) for a in s.legal_actions if a.kind == "cast" and "sacrificing forest " in str(a) + " "]
    assert acts, [str(a) for a in s.legal_actions]
    after = s.apply(acts[0])
    assert after.state.obj("forest").zone == "graveyard" and after.state.obj("wild-growth").zone == "graveyard"
    roundtrip(after)
    s = sit(battlefield={"alice": ["Ashnod's Altar", {"card": "Grizzly Bears", "token": True}, "Forest"]},
            hand={"alice": ["Grizzly Bears"]})
    after = s.apply("cast grizzly-bears-2 paying forest sacrificing grizzly-bears leaving alice {C}")
    assert after.state.find("grizzly-bears") is None
    roundtrip(after)
