"""The ``resolve`` query (contract §2.7; CR 608, 701.14, 704; issue 7).

* Unit tests on outcome counts and contents (fight, 608.2b, SBA, triggers,
  conjure, random draws, replacement orders, deduplication, errors).
* The CP-SAT model of trigger placement (:mod:`models.resolution`) against the
  brute-force reference ``tests/reference/resolution.py`` (hypothesis).
* A property test: every outcome situation of randomly generated situations
  loads again with ``situation_from_dict`` and re-dumps identically.

Hypothesis budget: ``MTGSOLVE_EXAMPLES`` (default 60) examples per property
test; derandomized when ``CI=true``.
"""
from __future__ import annotations

import json
import os
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mtgsolve.models.resolution import TriggerSpec, enumerate_placements
from reference.resolution import distinct_stacks
from mtgsolve.solver.core.errors import QueryError
from mtgsolve.solver.queries import Options, answer
from mtgsolve.solver.engine.resolution import ResolutionUnsupported, _fight, _World, resolve_top
from mtgsolve.solver.io.load import dump_state, situation_from_dict

EXAMPLES = int(os.environ.get("MTGSOLVE_EXAMPLES", "60"))
CI = os.environ.get("CI", "").lower() == "true"
PROPERTY = settings(max_examples=EXAMPLES, derandomize=CI, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
INSTANCES = Path(__file__).resolve().parent.parent / "instances" / "resolve"


def situation(**kw) -> dict:
    d = {"format": "mtgsolve/1", "players": ["alice", "bob"]}
    d.update(kw)
    return d


def resolve(d: dict, **opts) -> dict:
    return answer(situation_from_dict(d).state, {"kind": "resolve"}, Options(**opts))


def zone_ids(sit: dict, zone: str, player: str) -> list[str]:
    return [o["id"] for o in sit.get(zone, {}).get(player, [])]


# ---------------------------------------------------------------------------
# Errors and result shape
# ---------------------------------------------------------------------------

def test_empty_stack_is_a_located_query_error():
    with pytest.raises(QueryError) as e:
        resolve(situation(battlefield={"alice": ["Forest"]}))
    assert str(e.value) == ": query: nothing to resolve: the stack is empty"


def test_unknown_query_key_is_a_located_error():
    state = situation_from_dict(situation(stack=[{"card": "Shock", "controller": "alice",
                                                 "targets": [["bob"]]}])).state
    with pytest.raises(QueryError) as e:
        answer(state, {"kind": "resolve", "object": "shock"})
    assert e.value.path == "query.object"


def test_unreadable_spell_is_an_error_status_not_a_guess():
    card = {"name": "Mystery Instant", "type": "Instant", "types": ["Instant"], "text": "Do a strange thing."}
    r = resolve(situation(stack=[{"card": card, "controller": "alice"}]))
    assert r["status"] == "unsupported"   # contract §2.0: the unread text itself is named
    assert r["unsupported"] == [{"object": "mystery-instant", "text": "Do a strange thing.", "affects": ["effect"]}]


def test_missing_targets_on_a_targeted_spell_is_an_error_status():
    r = resolve(situation(stack=[{"card": "Shock", "controller": "alice"}]))
    assert r["status"] == "error" and "targets" in r["error"]


def test_mana_ability_on_the_stack_is_an_error_status():
    r = resolve(situation(battlefield={"alice": ["Llanowar Elves"]},
                          stack=[{"ability": {"source": "llanowar-elves", "index": 1}}]))
    assert r["status"] == "error" and "CR 605.3b" in r["error"]


def test_truncated_listing_keeps_the_exact_count():
    d = situation(battlefield={"alice": ["Grizzly Bears"], "bob": ["Silvercoat Lion", "Raging Goblin", "Icehide Troll"]},
                  stack=[{"card": "Cartouche of Strength", "controller": "alice", "targets": [["grizzly-bears"]]}])
    full = resolve(d)
    assert full["status"] == "ok" and full["count"] == 3
    cut = resolve(d, max_results=1)
    assert cut["status"] == "truncated" and cut["count"] == 3 and len(cut["outcomes"]) == 1
    assert cut["outcomes"][0] == full["outcomes"][0]


def test_timeout_status():
    d = situation(stack=[{"card": "Shock", "controller": "alice", "targets": [["bob"]]}])
    r = resolve(d, timeout=1e-9)
    assert r["status"] in ("timeout", "ok")
    if r["status"] == "timeout":
        assert r["count"] is None


def test_outcomes_are_sorted_and_distinct():
    d = situation(battlefield={"alice": ["Hardened Scales", "Doubling Season"], "bob": ["Grizzly Bears"]},
                  stack=[{"card": "Hangarback Walker", "controller": "alice", "x": 3}])
    r = resolve(d)
    keys = [(json.dumps(o["choices"], sort_keys=True), json.dumps(o["situation"], sort_keys=True))
            for o in r["outcomes"]]
    assert keys == sorted(keys)
    assert len({k[1] for k in keys}) == r["count"] == 2
    counters = sorted(o["situation"]["battlefield"]["alice"][2]["counters"]["+1/+1"] for o in r["outcomes"])
    assert counters == [7, 8]  # Season then Scales: 2X+1; Scales then Season: 2(X+1)


# ---------------------------------------------------------------------------
# Fight (CR 701.14) and Cartouche of Strength
# ---------------------------------------------------------------------------

def test_fight_with_itself_deals_twice_its_power_cr_701_14c():
    state = situation_from_dict(situation(battlefield={"alice": ["Icehide Troll"]})).state
    w = _World(state)
    _fight(w, "icehide-troll", "icehide-troll")
    assert w.objects["icehide-troll"].damage == 4


def test_fight_needs_both_creatures_on_the_battlefield_cr_701_14b():
    state = situation_from_dict(situation(battlefield={"alice": ["Icehide Troll"]},
                                          graveyard={"bob": ["Grizzly Bears"]})).state
    w = _World(state)
    _fight(w, "icehide-troll", "grizzly-bears")
    assert w.objects["icehide-troll"].damage == 0


def test_fight_damage_prevented_by_protection():
    """White Knight (protection from black) fighting a black creature takes no damage (CR 702.16e)."""
    black = {"name": "Black Brute", "type": "Creature — Horror", "types": ["Creature"], "manaCost": "{1}{B}",
             "power": "3", "toughness": "3"}
    state = situation_from_dict(situation(battlefield={"alice": ["White Knight"], "bob": [{"card": black}]})).state
    w = _World(state)
    _fight(w, "white-knight", "black-brute")
    assert w.objects["white-knight"].damage == 0 and w.objects["black-brute"].damage == 2


def test_cartouche_bonus_decides_who_survives():
    base = dict(battlefield={"alice": ["Grizzly Bears"], "bob": ["Icehide Troll"]})
    with_aura = situation(battlefield={"alice": ["Grizzly Bears", {"card": "Cartouche of Strength",
                                                                   "attached_to": "grizzly-bears"}],
                                       "bob": ["Icehide Troll"]},
                          stack=[{"ability": {"source": "cartouche-of-strength", "index": 1},
                                  "targets": [["icehide-troll"]]}])
    gone = situation(**base, graveyard={"alice": ["Cartouche of Strength"]},
                     stack=[{"ability": {"source": "cartouche-of-strength", "index": 1},
                             "last_known": {"attached_to": "grizzly-bears"}, "targets": [["icehide-troll"]]}])
    fought = [o for o in resolve(with_aura)["outcomes"] if o["choices"] == {"may": True}][0]["situation"]
    assert zone_ids(fought, "graveyard", "bob") == ["icehide-troll"]
    assert zone_ids(fought, "battlefield", "alice") == ["grizzly-bears", "cartouche-of-strength"]
    fought = [o for o in resolve(gone)["outcomes"] if o["choices"] == {"may": True}][0]["situation"]
    assert zone_ids(fought, "battlefield", "bob") == ["icehide-troll"]
    assert "grizzly-bears" in zone_ids(fought, "graveyard", "alice")


def test_may_merges_when_both_answers_give_the_same_situation():
    d = situation(battlefield={"bob": ["Icehide Troll"]}, graveyard={"alice": ["Grizzly Bears", "Cartouche of Strength"]},
                  stack=[{"ability": {"source": "cartouche-of-strength", "index": 1},
                          "last_known": {"attached_to": "grizzly-bears"}, "targets": [["icehide-troll"]]}])
    r = resolve(d)
    assert r["count"] == 1
    assert r["outcomes"][0]["choices"] == {"may": False}
    assert r["outcomes"][0]["alternatives"] == [{"may": True}]


def test_source_leaving_fills_last_known_information_of_its_ability_on_the_stack():
    """Murder on the Cartouche with its trigger below: the trigger on the stack
    gets the Cartouche's last known information (attached to the Bears)."""
    d = situation(battlefield={"alice": ["Grizzly Bears", {"card": "Cartouche of Strength", "attached_to": "grizzly-bears"}],
                               "bob": ["Icehide Troll"]},
                  stack=[{"card": "Lightning Bolt", "controller": "bob", "targets": [["grizzly-bears"]]},
                         {"ability": {"source": "cartouche-of-strength", "index": 1}, "targets": [["icehide-troll"]]}])
    r = resolve(d)
    assert r["count"] == 1
    sit = r["outcomes"][0]["situation"]
    assert zone_ids(sit, "graveyard", "alice") == ["grizzly-bears", "cartouche-of-strength"]
    assert sit["stack"][0]["last_known"] == {"attached_to": "grizzly-bears"}
    # and resolving that ability next: no fight (the enchanted creature has left)
    again = resolve(sit)
    assert again["count"] == 1 and again["outcomes"][0]["situation"]["battlefield"]["bob"][0].get("damage") is None


# ---------------------------------------------------------------------------
# Triggers (CR 603.3b/d), SBA (704), conjure, random events
# ---------------------------------------------------------------------------

def _two_hangarbacks(controller_of_h2: str) -> dict:
    bf: dict[str, list] = {"alice": [{"card": "Hangarback Walker", "id": "h1", "counters": {"+1/+1": 1}}]}
    bf.setdefault(controller_of_h2, []).append({"card": "Hangarback Walker", "id": "h2", "counters": {"+1/+1": 1}})
    return situation(battlefield=bf, stack=[{"card": "Arc Trail", "controller": "bob", "targets": [["h1"], ["h2"]]}])


def test_a_player_orders_their_simultaneous_triggers():
    r = resolve(_two_hangarbacks("alice"))
    assert r["count"] == 2
    stacks = sorted(tuple(o["id"] for o in out["situation"]["stack"]) for out in r["outcomes"])
    assert [tuple(s) for s in stacks] == [("ability-of-h1", "ability-of-h2"), ("ability-of-h2", "ability-of-h1")]


def test_apnap_order_active_players_triggers_go_on_the_stack_first():
    r = resolve(_two_hangarbacks("bob"))
    assert r["count"] == 1
    stack = r["outcomes"][0]["situation"]["stack"]
    assert [(o["id"], o["controller"]) for o in stack] == [("ability-of-h2", "bob"), ("ability-of-h1", "alice")]


def test_probabilities_sum_to_one():
    d = situation(library={"alice": ["Forest", "Forest", "Mountain", {"card": "Lightning Bolt", "conjured": True},
                                     "Lightning Bolt"]},
                  shuffled={"alice": True},
                  stack=[{"card": "Gitaxian Probe", "controller": "alice", "targets": [["bob"]]}])
    res = resolve_top(situation_from_dict(d).state)
    assert len(res.outcomes) == 4  # Forest, Mountain, Bolt, conjured Bolt (a different object state)
    assert sum(o.probability for o in res.outcomes) == 1
    assert sorted(o.probability for o in res.outcomes) == [Fraction(1, 5)] * 3 + [Fraction(2, 5)]


def test_draw_from_a_known_order_library_is_not_random():
    d = situation(library={"alice": ["Mountain", "Forest"]},
                  stack=[{"card": "Gitaxian Probe", "controller": "alice", "targets": [["bob"]]}])
    r = resolve(d)
    assert r["count"] == 1 and "probability" not in r["outcomes"][0]
    assert zone_ids(r["outcomes"][0]["situation"], "hand", "alice") == ["mountain"]


def test_drawing_from_an_empty_library_loses():
    d = situation(stack=[{"card": "Gitaxian Probe", "controller": "alice", "targets": [["bob"]]}])
    r = resolve(d)
    assert r["outcomes"][0]["losers"] == ["alice"]


def test_conjure_into_a_60_card_library_is_one_outcome():
    lib = ["Forest"] * 20 + ["Mountain"] * 20 + ["Grizzly Bears"] * 20
    d = situation(battlefield={"alice": ["Toralf's Disciple"]}, library={"alice": lib},
                  stack=[{"ability": {"source": "toralfs-disciple", "index": 1}}])
    r = resolve(d)
    assert r["count"] == 1
    sit = r["outcomes"][0]["situation"]
    assert len(sit["library"]["alice"]) == 64 and sit["shuffled"] == {"alice": True}
    assert sum(1 for o in sit["library"]["alice"] if o.get("conjured")) == 4


def test_token_spell_copy_and_tokens_cease_to_exist_outside_the_battlefield():
    d = situation(battlefield={"bob": [{"card": "Grizzly Bears", "token": True}]},
                  stack=[{"card": "Murder", "controller": "alice", "targets": [["grizzly-bears"]]}])
    sit = resolve(d)["outcomes"][0]["situation"]
    assert "bob" not in sit.get("graveyard", {}) and "battlefield" not in sit


def test_dying_token_with_a_dies_ability_is_reported_unsupported():
    d = situation(battlefield={"alice": [{"card": "Hangarback Walker", "token": True}]},
                  stack=[{"card": "Shock", "controller": "bob", "targets": [["hangarback-walker"]]}])
    r = resolve(d)
    assert r["status"] == "unsupported" and "ceased to exist" in r["reason"]


def test_effects_on_a_departed_object_are_removed_cr_400_7():
    d = situation(battlefield={"alice": ["Icehide Troll"]},
                  effects=[{"ability": {"source": "icehide-troll", "index": 1}, "controller": "alice"}],
                  stack=[{"card": "Dismember", "controller": "bob", "targets": [["icehide-troll"]]}])
    sit = resolve(d)["outcomes"][0]["situation"]
    assert zone_ids(sit, "graveyard", "alice") == ["icehide-troll"]
    assert "effects" not in sit  # neither the Troll's own +2/+0 nor Dismember's -5/-5 follows the card


def test_until_end_of_turn_pump_is_recorded_with_its_targets():
    d = situation(battlefield={"alice": ["Grizzly Bears"]},
                  stack=[{"card": "Giant Growth", "controller": "alice", "targets": [["grizzly-bears"]]},
                         {"card": "Lightning Bolt", "controller": "bob", "targets": [["grizzly-bears"]]}])
    sit = resolve(d)["outcomes"][0]["situation"]
    assert sit["effects"] == [{"card": "Giant Growth", "controller": "alice", "targets": [["grizzly-bears"]]}]
    after = resolve(sit)["outcomes"][0]["situation"]  # the Bolt: 3 damage to a 5/5 — it survives
    assert after["battlefield"]["alice"][0]["damage"] == 3


def test_spell_targeting_a_token_that_ceased_to_exist_is_reported_unsupported():
    d = situation(battlefield={"bob": [{"card": "Grizzly Bears", "token": True}]},
                  stack=[{"card": "Murder", "controller": "alice", "targets": [["grizzly-bears"]]},
                         {"card": "Shock", "controller": "alice", "targets": [["grizzly-bears"]]}])
    r = resolve(d)
    assert r["status"] == "unsupported" and "targets it" in r["reason"]


def test_aura_on_a_token_that_ceased_keeps_no_dangling_last_known():
    d = situation(battlefield={"alice": [{"card": "Grizzly Bears", "token": True},
                                         {"card": "Cartouche of Strength", "attached_to": "grizzly-bears"}],
                               "bob": ["Silvercoat Lion"]},
                  stack=[{"card": "Lightning Bolt", "controller": "bob", "targets": [["grizzly-bears"]]},
                         {"ability": {"source": "cartouche-of-strength", "index": 1}, "targets": [["silvercoat-lion"]]}])
    r = resolve(d)
    assert r["status"] == "ok" and r["count"] == 1
    sit = r["outcomes"][0]["situation"]
    situation_from_dict(sit)
    assert "last_known" not in sit["stack"][0]  # the enchanted token is gone: no creature will fight
    assert zone_ids(sit, "graveyard", "alice") == ["cartouche-of-strength"]


def test_plus_and_minus_counters_annihilate_cr_704_5q():
    d = situation(battlefield={"alice": [{"card": "Grizzly Bears", "counters": {"+1/+1": 2, "-1/-1": 1}}]},
                  stack=[{"card": "Shock", "controller": "alice", "targets": [["bob"]]}])
    sit = resolve(d)["outcomes"][0]["situation"]
    assert sit["battlefield"]["alice"][0]["counters"] == {"+1/+1": 1}


def test_unattached_aura_goes_to_graveyard_cr_704_5m():
    d = situation(battlefield={"alice": ["Cartouche of Strength"]},
                  stack=[{"card": "Shock", "controller": "alice", "targets": [["bob"]]}])
    sit = resolve(d)["outcomes"][0]["situation"]
    assert zone_ids(sit, "graveyard", "alice") == ["shock", "cartouche-of-strength"]


def test_priority_goes_to_the_active_player_after_resolution():
    d = situation(turn={"active": "alice", "priority": "bob"},
                  stack=[{"card": "Shock", "controller": "bob", "targets": [["alice"]]}])
    sit = resolve(d)["outcomes"][0]["situation"]
    assert "priority" not in sit["turn"] and sit["turn"]["active"] == "alice"


def test_every_ruling_instance_exists():
    names = {p.name for p in INSTANCES.glob("*.yaml")}
    for needed in ("cartouche_left_before_trigger_resolves.yaml", "cartouche_fights_with_bonus.yaml",
                   "cartouche_trample_irrelevant_in_fight.yaml", "cartouche_trigger_target_left.yaml",
                   "cartouche_enchanted_creature_gone.yaml", "cartouche_spell_target_illegal.yaml",
                   "cartouche_control_change_of_aura.yaml", "cartouche_spell_resolves_trigger_targets.yaml",
                   "conjure_owner_is_the_conjuring_player.yaml", "conjure_not_a_token_stays_in_game.yaml",
                   "conjure_toralfs_disciple_into_library_then_shuffle.yaml",
                   "conjure_hidden_zone_indistinguishable.yaml", "conjure_ignores_deckbuilding_limits.yaml",
                   "conjure_card_has_official_text.yaml"):
        assert needed in names


# ---------------------------------------------------------------------------
# The trigger-placement model against the brute-force reference
# ---------------------------------------------------------------------------

@st.composite
def trigger_sets(draw):
    n_of = draw(st.dictionaries(st.sampled_from("abcd"), st.integers(1, 3), min_size=1, max_size=4))
    keys = draw(st.lists(st.sampled_from(sorted(n_of)), min_size=1, max_size=5))
    return keys, [n_of[k] for k in keys]


@PROPERTY
@given(trigger_sets())
def test_placement_model_matches_brute_force(ts):
    keys, ns = ts
    got = enumerate_placements([TriggerSpec(k, n) for k, n in zip(keys, ns)])
    as_stacks = [tuple((keys[t], c) for t, c in placement) for placement in got]
    assert len(as_stacks) == len(set(as_stacks))  # every distinct stack once
    assert sorted(as_stacks, key=repr) == distinct_stacks(keys, ns)


# ---------------------------------------------------------------------------
# Property: outcomes load again and re-dump identically
# ---------------------------------------------------------------------------

CREATURES = ["Grizzly Bears", "Silvercoat Lion", "Icehide Troll", "Raging Goblin", "Gladecover Scout",
             "White Knight", "Coalition Honor Guard", "Kitchen Finks", "Hangarback Walker"]
EXTRAS = ["Doubling Season", "Hardened Scales", "Forest", "Urborg, Tomb of Yawgmoth"]


@st.composite
def random_situations(draw) -> dict:
    bf: dict[str, list] = {"alice": [], "bob": []}
    ids: dict[str, list[str]] = {"alice": [], "bob": []}
    for p in ("alice", "bob"):
        for i, name in enumerate(draw(st.lists(st.sampled_from(CREATURES), max_size=3))):
            oid = f"{p[0]}{i}"
            obj: dict = {"card": name, "id": oid}
            if draw(st.booleans()):
                obj["damage"] = draw(st.integers(0, 2))
            if name == "Hangarback Walker" or draw(st.integers(0, 4)) == 0:
                obj["counters"] = {"+1/+1": draw(st.integers(0, 2))}
            if draw(st.integers(0, 5)) == 0:
                obj["owner"] = "bob" if p == "alice" else "alice"
            if draw(st.integers(0, 5)) == 0:
                obj["token"] = True
            bf[p].append(obj)
            ids[p].append(oid)
        for j, name in enumerate(draw(st.lists(st.sampled_from(EXTRAS), max_size=2, unique=True))):
            bf[p].append({"card": name, "id": f"{p[0]}x{j}"})
    graveyard = {"alice": [{"card": "Grizzly Bears", "id": "gy-bears"}, {"card": "Kitchen Finks", "id": "gy-finks"}]}
    library = {"alice": [{"card": n, "id": f"lib{i}"} for i, n in
                         enumerate(draw(st.lists(st.sampled_from(["Forest", "Mountain", "Lightning Bolt"]), max_size=5)))]}
    creatures = ids["alice"] + ids["bob"]
    any_targets = creatures + ["alice", "bob", "gy-bears"]
    stack: list = []
    kind = draw(st.sampled_from(["damage", "murder", "pump", "arc", "spores", "cartouche_spell", "cartouche_trigger",
                                 "toralf", "probe", "procession", "hangarback", "hangarback_dies", "whiteclay",
                                 "onslaught"]))
    if kind == "damage":
        stack.append({"card": draw(st.sampled_from(["Shock", "Lightning Bolt"])), "controller": "alice",
                      "targets": [[draw(st.sampled_from(any_targets))]]})
    elif kind == "murder" and creatures:
        stack.append({"card": draw(st.sampled_from(["Murder", "Dismember", "Giant Growth"])), "controller": "bob",
                      "targets": [[draw(st.sampled_from(creatures + ["gy-bears"]))]]})
    elif kind == "arc" and len(any_targets) >= 2:
        a, b = draw(st.lists(st.sampled_from(any_targets), min_size=2, max_size=2, unique=True))
        stack.append({"card": "Arc Trail", "controller": "alice", "targets": [[a], [b]]})
    elif kind == "spores" and creatures:
        bf["bob"].append({"card": "Forest", "id": "spore-land"})
        stack.append({"card": "Plague Spores", "controller": "alice",
                      "targets": [[draw(st.sampled_from(creatures))], [draw(st.sampled_from(["spore-land", "gy-bears"]))]]})
    elif kind == "cartouche_spell" and creatures:
        stack.append({"card": "Cartouche of Strength", "controller": "alice",
                      "targets": [[draw(st.sampled_from(creatures))]]})
    elif kind == "cartouche_trigger" and ids["alice"] and ids["bob"]:
        host = draw(st.sampled_from(ids["alice"]))
        if draw(st.booleans()):
            bf["alice"].append({"card": "Cartouche of Strength", "id": "aura", "attached_to": host})
            stack.append({"ability": {"source": "aura", "index": 1}, "targets": [[draw(st.sampled_from(creatures))]]})
        else:
            graveyard["alice"].append({"card": "Cartouche of Strength", "id": "aura"})
            stack.append({"ability": {"source": "aura", "index": 1}, "last_known": {"attached_to": host},
                          "targets": [[draw(st.sampled_from(creatures))]]})
    elif kind == "toralf":
        bf["alice"].append({"card": "Toralf's Disciple", "id": "toralf"})
        stack.append({"ability": {"source": "toralf", "index": 1}})
    elif kind == "probe":
        stack.append({"card": "Gitaxian Probe", "controller": "alice", "targets": [["bob"]]})
    elif kind == "procession":
        stack.append({"card": "Spectral Procession", "controller": "alice"})
    elif kind == "hangarback":
        stack.append({"card": "Hangarback Walker", "controller": "alice", "x": draw(st.integers(0, 3))})
    elif kind == "hangarback_dies":
        graveyard["alice"].append({"card": "Hangarback Walker", "id": "dead-walker"})
        stack.append({"ability": {"source": "dead-walker", "index": 1},
                      "last_known": {"counters": {"+1/+1": draw(st.integers(1, 3))}}})
    elif kind == "whiteclay":
        bf["alice"].append({"card": "Order of Whiteclay", "id": "whiteclay", "tapped": True})
        stack.append({"ability": {"source": "whiteclay", "index": 1},
                      "targets": [[draw(st.sampled_from(["gy-bears", "gy-finks"]))]]})
    else:
        chosen = draw(st.lists(st.sampled_from(creatures + ["gy-bears"]), max_size=2, unique=True)) if creatures else []
        stack.append({"card": "Dauntless Onslaught", "controller": "alice", "targets": [sorted(chosen)]})
    if draw(st.booleans()):  # stays below; its target may die or cease to exist meanwhile
        stack.append({"card": "Shock", "controller": "bob", "targets": [[draw(st.sampled_from(any_targets))]]})
    d = situation(battlefield={k: v for k, v in bf.items() if v}, graveyard=graveyard, stack=stack)
    if library["alice"]:
        d["library"] = library
        if draw(st.booleans()):
            d["shuffled"] = {"alice": True}
    if not stack:
        d["stack"] = [{"card": "Shock", "controller": "alice", "targets": [["bob"]]}]
    return d


@PROPERTY
@given(random_situations())
def test_every_outcome_loads_again_and_redumps_identically(d):
    state = situation_from_dict(d).state
    try:
        res = resolve_top(state)
    except ResolutionUnsupported as e:  # a documented gap of the format (dying token with an ability)
        assert "ceased to exist" in str(e)
        return
    assert res.outcomes
    seen = set()
    for o in res.outcomes:
        loaded = situation_from_dict(json.loads(json.dumps(dump_state(o.state)))).state
        assert loaded == o.state
        assert dump_state(loaded) == dump_state(o.state)
        key = json.dumps(dump_state(o.state), sort_keys=True)
        assert key not in seen
        seen.add(key)
        # an outcome never has an object twice or a dangling attachment (the loader checks), and the
        # stack shrank by the resolved object, plus any triggered abilities
        assert len(o.state.zone("stack")) >= len(state.zone("stack")) - 1
    if any(o.probability is not None for o in res.outcomes):
        # probabilities are given the player's choices: per set of choices (random results aside) they sum to 1
        per: dict[str, Fraction] = {}
        for o in res.outcomes:
            for c, p in zip((o.choices,) + o.alternatives, (o.probability,) + o.alternative_probabilities):
                key = json.dumps({k: v for k, v in c.items() if k != "drawn"}, sort_keys=True)
                per[key] = per.get(key, Fraction(0)) + p
        assert set(per.values()) == {Fraction(1)}
    # deterministic: the same answer twice
    again = resolve_top(state)
    assert [dump_state(x.state) for x in again.outcomes] == [dump_state(x.state) for x in res.outcomes]
