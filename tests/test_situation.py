"""Loading situation files (contract §1): every key, every default, ids, and the round trip."""
from __future__ import annotations

import json
import pickle
import textwrap
from dataclasses import FrozenInstanceError
from pathlib import Path

import pytest
import yaml

from mtgsolve.solver.cards import get_card
from mtgsolve.solver.core.errors import MtgsolveError, QueryError, SituationError, error_line
from mtgsolve.solver.core.mana import Mana
from mtgsolve.solver.io.load import (SCHEMA_ID, Loaded, dump_state, load_situation, next_free_id, object_id_base,
                              situation_from_dict, situation_json_schema)
from mtgsolve.solver.core.state import AbilityRef, GameState, Player, Turn


def load_yaml(tmp_path: Path, text: str, name: str = "situation.yaml") -> Loaded:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return load_situation(path)


def ids(state: GameState, zone: str | None = None) -> list[str]:
    return [o.id for o in state.objects if zone is None or o.zone == zone]


CONTRACT_EXAMPLE = """\
format: mtgsolve/1
name: Flagbearer forces Shock's target          # optional metadata
rules: ["601.2c"]                               # optional: CR rules / rulings it exercises
players: [alice, bob]                           # turn order; or mappings {id, life, poison}
turn: {number: 3, active: alice, step: main1}   # priority defaults to the active player
battlefield:
  alice: [Mountain, {card: Llanowar Elves, sick: true}]
  bob:   [Coalition Honor Guard, Grizzly Bears]
hand:
  alice: [Shock]
query: {kind: targets, cast: shock}
"""


# --------------------------------------------------------------------------
# The contract's example and the top-level keys
# --------------------------------------------------------------------------

def test_contract_example(tmp_path):
    loaded = load_yaml(tmp_path, CONTRACT_EXAMPLE)
    s = loaded.state
    assert s.name == "Flagbearer forces Shock's target"
    assert s.rules == ("601.2c",)
    assert s.description is None
    assert s.players == (Player("alice"), Player("bob"))
    assert s.turn == Turn(number=3, active="alice", step="main1", priority="alice", lands_played=0)
    assert ids(s) == ["mountain", "llanowar-elves", "coalition-honor-guard", "grizzly-bears", "shock"]
    elves = s.obj("llanowar-elves")
    assert (elves.zone, elves.owner, elves.controller, elves.sick, elves.tapped) == ("battlefield", "alice", "alice", True, False)
    assert elves.card is get_card("Llanowar Elves")
    assert s.obj("shock").zone == "hand"
    assert loaded.queries == ({"kind": "targets", "cast": "shock"},)
    assert loaded.expect is None
    assert loaded.source == str(tmp_path / "situation.yaml")
    assert loaded.raw["format"] == "mtgsolve/1"


def test_loaded_is_frozen(tmp_path):
    loaded = load_yaml(tmp_path, CONTRACT_EXAMPLE)
    with pytest.raises(FrozenInstanceError):
        loaded.state = None  # type: ignore[misc]


def test_minimal_situation_defaults():
    s = situation_from_dict({"format": "mtgsolve/1", "players": ["alice", "bob"]}).state
    assert s.players == (Player("alice", 20, 0), Player("bob", 20, 0))
    assert s.turn == Turn(number=1, active="alice", step="main1", priority="alice", lands_played=0)
    assert s.objects == () and s.mana_pool == () and s.effects == () and s.shuffled == ()
    assert s.name is None and s.description is None and s.rules == ()


def test_metadata():
    s = situation_from_dict({"format": "mtgsolve/1", "name": "n", "description": "d", "rules": ["106.7", "616.1"],
                             "players": ["a"]}).state
    assert (s.name, s.description, s.rules) == ("n", "d", ("106.7", "616.1"))


def test_source_default():
    loaded = situation_from_dict({"format": "mtgsolve/1", "players": ["a"]})
    assert loaded.source == "<situation>"
    with pytest.raises(SituationError, match=r"^<situation>: "):
        situation_from_dict({"format": "mtgsolve/1", "players": []})


def test_players_mixed_entries():
    s = situation_from_dict({"format": "mtgsolve/1", "players": [
        "alice", {"id": "bob", "life": 7}, {"id": "carol", "poison": 3}, {"id": "dave", "life": -2, "poison": 0}]}).state
    assert s.players == (Player("alice"), Player("bob", 7, 0), Player("carol", 20, 3), Player("dave", -2, 0))
    assert s.turn.active == "alice"


@pytest.mark.parametrize("turn, expected", [
    ({}, Turn(1, "alice", "main1", "alice", 0)),
    ({"active": "bob"}, Turn(1, "bob", "main1", "bob", 0)),
    ({"active": "bob", "priority": "alice"}, Turn(1, "bob", "main1", "alice", 0)),
    ({"number": 7, "step": "declare_blockers", "lands_played": 1}, Turn(7, "alice", "declare_blockers", "alice", 1)),
])
def test_turn_defaults(turn, expected):
    s = situation_from_dict({"format": "mtgsolve/1", "players": ["alice", "bob"], "turn": turn}).state
    assert s.turn == expected


@pytest.mark.parametrize("step", ["untap", "upkeep", "draw", "main1", "beginning_of_combat", "declare_attackers",
                                  "declare_blockers", "combat_damage", "end_of_combat", "main2", "end", "cleanup"])
def test_every_step(step):
    s = situation_from_dict({"format": "mtgsolve/1", "players": ["a"], "turn": {"step": step}}).state
    assert s.turn.step == step


def test_null_zones_are_empty():
    s = situation_from_dict({"format": "mtgsolve/1", "players": ["a"], "battlefield": None, "stack": None,
                             "effects": None, "query": None}).state
    assert s.objects == ()


# --------------------------------------------------------------------------
# Owner and controller
# --------------------------------------------------------------------------

def test_owner_controller_on_battlefield():
    s = situation_from_dict({"format": "mtgsolve/1", "players": ["alice", "bob"], "battlefield": {
        "alice": ["Forest", {"card": "Grizzly Bears", "owner": "bob"}, {"card": "Island", "controller": "alice"}]}}).state
    assert [(o.owner, o.controller) for o in s.objects] == [("alice", "alice"), ("bob", "alice"), ("alice", "alice")]


@pytest.mark.parametrize("zone", ["hand", "graveyard", "library", "exile", "command"])
def test_owner_controller_elsewhere(zone):
    s = situation_from_dict({"format": "mtgsolve/1", "players": ["alice", "bob"], zone: {
        "bob": ["Forest", {"card": "Shock", "controller": "alice"}, {"card": "Island", "owner": "bob"}]}}).state
    assert [(o.zone, o.owner, o.controller) for o in s.objects] == [
        (zone, "bob", "bob"), (zone, "bob", "alice"), (zone, "bob", "bob")]


def test_library_top_first_and_order():
    s = situation_from_dict({"format": "mtgsolve/1", "players": ["a"],
                             "library": {"a": ["Shock", "Forest", "Island"]}}).state
    assert [(o.id, o.order) for o in s.zone("library", "a")] == [("shock", 0), ("forest", 1), ("island", 2)]


# --------------------------------------------------------------------------
# Ids
# --------------------------------------------------------------------------

@pytest.mark.parametrize("name, base", [
    ("Coalition Honor Guard", "coalition-honor-guard"),
    ("Toralf's Disciple", "toralfs-disciple"),
    ("Toralf’s Disciple", "toralfs-disciple"),
    ("Urborg, Tomb of Yawgmoth", "urborg-tomb-of-yawgmoth"),
    ("Thousand-Year Elixir", "thousand-year-elixir"),
    ("  Odd__Name!! 2 ", "odd-name-2"),
    ("Gaea's Cradle", "gaeas-cradle"),
    ("!!!", "object"),
])
def test_automatic_id_base(name, base):
    assert object_id_base(name) == base


def test_contract_id_examples_in_a_situation():
    s = situation_from_dict({"format": "mtgsolve/1", "players": ["a"], "battlefield": {
        "a": ["Coalition Honor Guard", "Toralf's Disciple", "Urborg, Tomb of Yawgmoth"]}}).state
    assert ids(s) == ["coalition-honor-guard", "toralfs-disciple", "urborg-tomb-of-yawgmoth"]


def test_numbering_across_zones_and_players():
    # Zone order battlefield, hand, graveyard, library, exile, command, stack; players in `players`
    # order (not the mapping's order); each list in listed order.
    s = situation_from_dict({"format": "mtgsolve/1", "players": ["alice", "bob"],
                             "stack": [{"card": "Grizzly Bears", "controller": "bob"}],
                             "command": {"alice": ["Grizzly Bears"]},
                             "exile": {"bob": ["Grizzly Bears"]},
                             "library": {"bob": ["Grizzly Bears"], "alice": ["Grizzly Bears"]},
                             "graveyard": {"alice": ["Grizzly Bears"]},
                             "hand": {"bob": ["Grizzly Bears", "Grizzly Bears"]},
                             "battlefield": {"bob": ["Grizzly Bears"], "alice": ["Grizzly Bears"]}}).state
    got = [(o.zone, o.owner, o.id) for o in s.objects]
    assert got == [
        ("battlefield", "alice", "grizzly-bears"), ("battlefield", "bob", "grizzly-bears-2"),
        ("hand", "bob", "grizzly-bears-3"), ("hand", "bob", "grizzly-bears-4"),
        ("graveyard", "alice", "grizzly-bears-5"),
        ("library", "alice", "grizzly-bears-6"), ("library", "bob", "grizzly-bears-7"),
        ("exile", "bob", "grizzly-bears-8"), ("command", "alice", "grizzly-bears-9"),
        ("stack", "bob", "grizzly-bears-10")]


def test_numbering_is_per_name_and_case_insensitive():
    s = situation_from_dict({"format": "mtgsolve/1", "players": ["a"],
                             "battlefield": {"a": ["Forest", "Island", "forest", "FOREST", "Island"]}}).state
    assert ids(s) == ["forest", "island", "forest-2", "forest-3", "island-2"]
    assert all(o.card.name in ("Forest", "Island") for o in s.objects)


def test_explicit_ids_are_reserved_first():
    # Explicit ids take their names first; automatic numbering skips every taken id.
    s = situation_from_dict({"format": "mtgsolve/1", "players": ["a"],
                             "battlefield": {"a": ["Forest", "Forest", {"card": "Island", "id": "my-island"}]},
                             "hand": {"a": [{"card": "Forest", "id": "forest"}, {"card": "Forest", "id": "forest-3"},
                                            "Forest"]}}).state
    assert ids(s) == ["forest-2", "forest-4", "my-island", "forest", "forest-3", "forest-5"]


def test_automatic_ids_skip_player_ids():
    s = situation_from_dict({"format": "mtgsolve/1", "players": ["forest"], "battlefield": {"forest": ["Forest"]}}).state
    assert ids(s) == ["forest-2"]


def test_automatic_ids_never_collide_with_numbered_names():
    # The card name itself can end in a number: ids stay distinct.
    s = situation_from_dict({"format": "mtgsolve/1", "players": ["a"], "battlefield": {"a": [
        "Forest", "Forest", {"card": {"name": "Forest 2", "type": "Land"}}]}}).state
    assert ids(s) == ["forest", "forest-2", "forest-2-2"]


def test_ability_ids():
    s = situation_from_dict({"format": "mtgsolve/1", "players": ["a"],
                             "battlefield": {"a": ["Prodigal Pyromancer"]},
                             "stack": [{"ability": {"source": "prodigal-pyromancer", "index": 1}, "targets": [["a"]]},
                                       {"ability": {"source": "prodigal-pyromancer", "index": 1}, "targets": [["a"]]},
                                       {"ability": {"source": "prodigal-pyromancer", "index": 1}, "id": "ping"}]}).state
    assert ids(s, "stack") == ["ability-of-prodigal-pyromancer", "ability-of-prodigal-pyromancer-2", "ping"]


def test_next_free_id():
    assert next_free_id("forest", set()) == "forest"
    assert next_free_id("forest", {"forest"}) == "forest-2"
    assert next_free_id("forest", {"forest", "forest-2", "forest-4"}) == "forest-3"


# --------------------------------------------------------------------------
# Objects: every key
# --------------------------------------------------------------------------

def test_every_object_key_on_the_battlefield():
    s = situation_from_dict({"format": "mtgsolve/1", "players": ["alice", "bob"], "battlefield": {
        "alice": [{"card": "Grizzly Bears", "id": "bears", "owner": "bob", "controller": "alice", "tapped": True,
                   "sick": True, "counters": {"-1/-1": 1, "+1/+1": 2, "charge": 0}, "damage": 1, "token": True,
                   "conjured": True, "chosen": {"color": "green", "modes": [1, 2]}, "timestamp": 40},
                  {"card": "Cartouche of Strength", "attached_to": "bears"},
                  {"card": "Pale Moon", "attached_to": "bob"}]}}).state
    bears = s.obj("bears")
    assert (bears.owner, bears.controller, bears.tapped, bears.sick, bears.damage, bears.token, bears.conjured) == (
        "bob", "alice", True, True, 1, True, True)
    assert bears.counters == (("+1/+1", 2), ("-1/-1", 1))  # sorted, zero counts dropped
    assert bears.counter("+1/+1") == 2 and bears.counter("charge") == 0
    assert bears.chosen == (("color", "green"), ("modes", (1, 2)))
    assert bears.timestamp == 40
    assert s.obj("cartouche-of-strength").attached_to == "bears"
    assert s.obj("pale-moon").attached_to == "bob"  # attached to a player is allowed (Curses)


def test_object_defaults():
    o = situation_from_dict({"format": "mtgsolve/1", "players": ["a"], "battlefield": {"a": ["Forest"]}}).state.objects[0]
    assert (o.tapped, o.sick, o.counters, o.damage, o.attached_to, o.token, o.conjured, o.chosen, o.x, o.targets,
            o.copy, o.ability, o.last_known) == (False, False, (), 0, None, False, False, (), 0, None, False, None, ())


def test_order_and_timestamps():
    s = situation_from_dict({"format": "mtgsolve/1", "players": ["alice", "bob"],
                             "battlefield": {"bob": ["Forest", "Island"], "alice": ["Mountain"]},
                             "hand": {"alice": ["Shock", {"card": "Forest", "timestamp": 0}]},
                             "stack": [{"card": "Lightning Bolt", "controller": "bob"}]}).state
    assert [(o.id, o.order, o.timestamp) for o in s.objects] == [
        ("mountain", 0, 1), ("forest", 0, 2), ("island", 1, 3), ("shock", 0, 4), ("forest-2", 1, 0),
        ("lightning-bolt", 0, 6)]


def test_stack_objects():
    s = situation_from_dict({"format": "mtgsolve/1", "players": ["alice", "bob"],
                             "battlefield": {"alice": ["Prodigal Pyromancer", "Grizzly Bears"]},
                             "graveyard": {"bob": ["Kitchen Finks"]},
                             "stack": [
                                 {"card": "Shock", "controller": "bob", "targets": [["grizzly-bears"]]},
                                 {"card": "Lightning Bolt", "owner": "alice", "copy": True, "targets": [["bob"]]},
                                 {"ability": {"source": "prodigal-pyromancer", "index": 1}, "targets": [["bob"]],
                                  "x": 2},
                                 {"ability": {"source": "kitchen-finks", "index": 1},
                                  "last_known": {"controller": "alice", "counters": {"-1/-1": 1}, "tapped": True,
                                                 "attached_to": "grizzly-bears", "card": "Kitchen Finks"}},
                                 {"ability": {"source": "kitchen-finks", "index": 1}},
                             ]}).state
    stack = s.zone("stack")
    assert [o.id for o in stack] == ["shock", "lightning-bolt", "ability-of-prodigal-pyromancer",
                                     "ability-of-kitchen-finks", "ability-of-kitchen-finks-2"]
    shock, bolt, ping, lki, plain = stack
    assert (shock.owner, shock.controller, shock.targets) == ("bob", "bob", (("grizzly-bears",),))
    assert (bolt.owner, bolt.controller, bolt.copy) == ("alice", "alice", True)
    assert ping.card is None and ping.ability == AbilityRef("prodigal-pyromancer", 1)
    assert (ping.controller, ping.x, ping.targets) == ("alice", 2, (("bob",),))
    assert ping.name == "ability of prodigal-pyromancer"
    # an ability's controller defaults to its source's last known controller, else the source's controller
    assert lki.controller == "alice" and plain.controller == "bob"
    assert lki.last_known == (("card", get_card("Kitchen Finks")), ("controller", "alice"), ("tapped", True),
                              ("counters", (("-1/-1", 1),)), ("attached_to", "grizzly-bears"))


def test_stack_targets_may_be_empty_lists_and_any_zone():
    s = situation_from_dict({"format": "mtgsolve/1", "players": ["a"], "graveyard": {"a": ["Grizzly Bears"]},
                             "stack": [{"card": "Arc Trail", "controller": "a", "targets": [["grizzly-bears"], []]}]}).state
    assert s.obj("arc-trail").targets == (("grizzly-bears",), ())


def test_inline_card():
    inline = {"name": "Homebrew Bear", "manaCost": "{G}{1}", "type": "Creature — Bear", "types": ["Creature"],
              "subtypes": ["Bear"], "power": 2, "toughness": "2", "text": "", "rarity": "common"}
    s = situation_from_dict({"format": "mtgsolve/1", "players": ["a"], "battlefield": {"a": [{"card": inline}]}}).state
    o = s.objects[0]
    assert o.id == "homebrew-bear"
    assert (o.card.name, o.card.data.mana_cost.text, o.card.data.power, o.card.data.toughness) == (
        "Homebrew Bear", "{1}{G}", "2", "2")
    assert o.card.data.subtypes == ("Bear",)


# --------------------------------------------------------------------------
# Mana pool, effects, shuffled
# --------------------------------------------------------------------------

def test_mana_pool_canonical():
    s = situation_from_dict({"format": "mtgsolve/1", "players": ["alice", "bob", "carol"],
                             "mana_pool": {"carol": "{C}{R}{W}{2}", "alice": "{G}", "bob": ""}}).state
    assert s.mana_pool == (("alice", Mana.parse("{G}")), ("carol", Mana.parse("{W}{R}{C}{C}{C}")))
    assert s.pool("carol").text == "{W}{R}{C}{C}{C}"
    assert s.pool("bob") == Mana()
    assert dump_state(s)["mana_pool"] == {"alice": "{G}", "carol": "{W}{R}{C}{C}{C}"}


def test_effects():
    s = situation_from_dict({"format": "mtgsolve/1", "players": ["alice", "bob"],
                             "battlefield": {"bob": ["Deep Water", "Grizzly Bears"]},
                             "effects": [{"card": "Pale Moon", "controller": "alice"},
                                         {"ability": {"source": "deep-water", "index": 1}, "controller": "bob"},
                                         {"ability": {"source": "deep water", "index": 1}, "controller": "bob"},
                                         {"card": "Giant Growth", "controller": "bob", "targets": [["grizzly-bears"]]}],
                             }).state
    e = s.effects
    assert [x.order for x in e] == [0, 1, 2, 3]
    assert (e[0].card, e[0].controller, e[0].ability) == (get_card("Pale Moon"), "alice", None)
    assert e[1].ability == AbilityRef("deep-water", 1)  # an object id
    assert e[2].ability == AbilityRef("Deep Water", 1)  # a card name, canonical spelling
    assert e[3].targets == (("grizzly-bears",),)


def test_shuffled():
    s = situation_from_dict({"format": "mtgsolve/1", "players": ["alice", "bob", "carol"],
                             "shuffled": {"carol": True, "alice": True, "bob": False}}).state
    assert s.shuffled == ("alice", "carol")


# --------------------------------------------------------------------------
# Queries and expect
# --------------------------------------------------------------------------

BASE = {"format": "mtgsolve/1", "players": ["a"]}


def test_no_query():
    loaded = situation_from_dict(dict(BASE))
    assert loaded.queries == () and loaded.expect is None


def test_single_query_and_expect():
    loaded = situation_from_dict({**BASE, "query": {"kind": "pay", "cost": "{1}"}, "expect": {"payable": False}})
    assert loaded.queries == ({"kind": "pay", "cost": "{1}"},)
    assert loaded.expect == ({"payable": False},)


def test_query_list_and_aligned_expect():
    loaded = situation_from_dict({**BASE, "query": [{"kind": "actions"}, {"kind": "resolve"}, {"kind": "x"}],
                                  "expect": [{"count": 1}, None, {}]})
    assert [q["kind"] for q in loaded.queries] == ["actions", "resolve", "x"]
    assert loaded.expect == ({"count": 1}, None, {})


def test_query_list_without_expect():
    loaded = situation_from_dict({**BASE, "query": [{"kind": "actions"}]})
    assert loaded.queries == ({"kind": "actions"},) and loaded.expect is None


# --------------------------------------------------------------------------
# Files: YAML and JSON, limits
# --------------------------------------------------------------------------

def test_yaml_json_and_yml_agree(tmp_path):
    data = yaml.safe_load(CONTRACT_EXAMPLE)
    (tmp_path / "s.json").write_text(json.dumps(data), encoding="utf-8")
    (tmp_path / "s.yml").write_text(CONTRACT_EXAMPLE, encoding="utf-8")
    a = load_situation(tmp_path / "s.json")
    b = load_situation(str(tmp_path / "s.yml"))
    assert a.state == b.state and a.queries == b.queries


def test_utf8_bom_and_yaml_merge_keys(tmp_path):
    path = tmp_path / "s.yaml"
    # YAML anchors and merge keys (<<) work; a merged key may be overridden (not a duplicate)
    path.write_text("\ufeffformat: mtgsolve/1\nplayers: [a]\nbattlefield:\n  a:\n"
                    "    - &t {card: Forest, tapped: true}\n    - {<<: *t, card: Island}\n", encoding="utf-8")
    s = load_situation(path).state
    assert [(o.card.name, o.tapped) for o in s.objects] == [("Forest", True), ("Island", True)]


def test_limits_by_argument(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text("format: mtgsolve/1\nplayers: [a]\nbattlefield: {a: [Forest, Forest, Forest]}\n")
    assert len(load_situation(path).state.objects) == 3
    with pytest.raises(SituationError, match="too many objects"):
        load_situation(path, max_objects=2)
    with pytest.raises(SituationError, match="larger than 10 bytes"):
        load_situation(path, max_bytes=10)


# --------------------------------------------------------------------------
# Writing back
# --------------------------------------------------------------------------

FULL = {
    "format": "mtgsolve/1", "name": "everything", "description": "every key", "rules": ["106.7"],
    "players": ["alice", {"id": "bob", "life": 3, "poison": 2}, {"id": "carol", "life": 20}],
    "turn": {"number": 4, "active": "bob", "step": "declare_attackers", "priority": "carol", "lands_played": 1},
    "battlefield": {
        "bob": [{"card": "Grizzly Bears", "id": "bears", "owner": "alice", "tapped": True, "sick": True,
                 "counters": {"+1/+1": 2}, "damage": 1, "chosen": {"color": "green", "list": ["a", 1, True]}},
                {"card": "Cartouche of Strength", "attached_to": "bears", "token": True, "conjured": True},
                {"card": "Pale Moon", "attached_to": "carol", "timestamp": 99},
                "Prodigal Pyromancer", "Kitchen Finks"],
        "alice": ["Forest", "Forest", {"card": {"name": "Homebrew Land", "type": "Land", "types": ["Land"],
                                                "text": "{T}: Add {C}.", "layout": "normal"}}]},
    "hand": {"alice": ["Shock", {"card": "Forest", "controller": "bob"}]},
    "graveyard": {"carol": ["Lightning Bolt"]},
    "library": {"bob": ["Island", "Swamp"]},
    "exile": {"alice": ["Murder"]},
    "command": {"carol": ["Mountain"]},
    "stack": [
        {"card": "Shock", "controller": "alice", "targets": [["bears"]], "x": 0},
        {"card": "Lightning Bolt", "controller": "bob", "owner": "alice", "copy": True, "targets": [["carol"]]},
        {"ability": {"source": "prodigal-pyromancer", "index": 1}, "targets": [["alice"]], "x": 3},
        {"ability": {"source": "lightning-bolt", "index": 1}, "controller": "carol",
         "last_known": {"controller": "alice", "tapped": True, "counters": {"-1/-1": 1}, "chosen": {"n": 1},
                        "card": {"name": "Inline LKI", "type": "Artifact"}, "attached_to": "bears", "owner": "carol",
                        "sick": False, "damage": 2, "token": True, "conjured": False}},
    ],
    "mana_pool": {"alice": "{G}{W}", "carol": "{C}"},
    "effects": [{"card": "Pale Moon", "controller": "alice"},
                {"ability": {"source": "Deep Water", "index": 1}, "controller": "bob"},
                {"card": {"name": "Inline Growth", "type": "Instant", "text": "Target creature gets +3/+3."},
                 "controller": "carol", "targets": [["bears"]]}],
    "shuffled": {"bob": True},
}

ROUND_TRIP_CASES = [
    FULL,
    yaml.safe_load(CONTRACT_EXAMPLE),
    {"format": "mtgsolve/1", "players": ["a"]},
    {"format": "mtgsolve/1", "players": ["a", "b"], "battlefield": {"b": ["Forest"], "a": ["Forest"]},
     "hand": {"a": [{"card": "Forest", "id": "forest"}]}},
]


@pytest.mark.parametrize("data", ROUND_TRIP_CASES, ids=["full", "contract", "minimal", "ids"])
def test_round_trip(data):
    state = situation_from_dict(data).state
    assert isinstance(hash(state), int)  # plain frozen data, usable as a key
    dumped = dump_state(state)
    assert situation_from_dict(dumped).state == state
    assert dump_state(situation_from_dict(dumped).state) == dumped  # a fixed point
    # through real files too
    assert situation_from_dict(yaml.safe_load(yaml.safe_dump(dumped, sort_keys=False))).state == state
    assert situation_from_dict(json.loads(json.dumps(dumped))).state == state


def test_dump_format():
    d = dump_state(situation_from_dict(FULL).state)
    assert list(d)[:4] == ["format", "name", "description", "rules"]
    assert d["players"] == ["alice", {"id": "bob", "life": 3, "poison": 2}, "carol"]
    assert d["turn"] == {"number": 4, "active": "bob", "step": "declare_attackers", "priority": "carol",
                         "lands_played": 1}
    assert d["battlefield"]["alice"][0] == {"id": "forest", "card": "Forest"}  # only non-default keys
    assert list(d["battlefield"]) == ["alice", "bob"]  # players order
    assert d["battlefield"]["alice"][2]["card"] == {"name": "Homebrew Land", "type": "Land", "types": ["Land"],
                                                    "text": "{T}: Add {C}."}
    assert d["battlefield"]["bob"][0] == {
        "id": "bears", "card": "Grizzly Bears", "owner": "alice", "tapped": True, "sick": True,
        "counters": {"+1/+1": 2}, "damage": 1, "chosen": {"color": "green", "list": ["a", 1, True]}}
    assert d["battlefield"]["bob"][2] == {"id": "pale-moon", "card": "Pale Moon", "attached_to": "carol",
                                          "timestamp": 99}
    assert d["hand"]["alice"][1] == {"id": "forest-3", "card": "Forest", "controller": "bob"}
    assert d["stack"][2] == {"id": "ability-of-prodigal-pyromancer",
                             "ability": {"source": "prodigal-pyromancer", "index": 1},
                             "controller": "bob", "x": 3, "targets": [["alice"]]}
    assert d["stack"][1]["owner"] == "alice" and d["stack"][1]["copy"] is True
    assert d["mana_pool"] == {"alice": "{W}{G}", "carol": "{C}"}
    assert d["effects"][1] == {"ability": {"source": "Deep Water", "index": 1}, "controller": "bob"}
    assert d["shuffled"] == {"bob": True}
    assert "query" not in d and "expect" not in d
    assert all("id" in o for zone in ("battlefield", "hand", "graveyard", "library", "exile", "command")
               for objs in d[zone].values() for o in objs)


def test_dump_is_deterministic():
    a = json.dumps(dump_state(situation_from_dict(FULL).state))
    b = json.dumps(dump_state(situation_from_dict(json.loads(json.dumps(FULL))).state))
    assert a == b


# --------------------------------------------------------------------------
# JSON Schema
# --------------------------------------------------------------------------

def test_json_schema():
    schema = situation_json_schema()
    assert schema["$id"] == SCHEMA_ID == "https://mtgsolve.dev/schema/situation-v1.json"
    assert schema["title"]
    assert set(schema["properties"]) == {
        "format", "name", "description", "rules", "players", "turn", "battlefield", "hand", "graveyard", "library",
        "exile", "command", "stack", "mana_pool", "restricted_mana_pool", "effects", "shuffled", "known_top", "day_night",
        "prevention", "delayed", "query", "expect"}
    assert schema["required"] == ["format", "players"]
    assert schema["additionalProperties"] is False
    obj = schema["$defs"]["ObjectSpec"]["properties"]
    assert set(obj) == {"card", "id", "owner", "controller", "tapped", "sick", "counters", "damage", "attached_to",
                        "token", "conjured", "chosen", "x", "targets", "copy", "ability", "last_known", "timestamp",
                        "activated_this_turn", "entered_this_turn", "skip_untap", "exile_if_dies", "attacking", "blocking", "blocked",
                        "commander", "refers_to", "face", "on_adventure", "fused", "prototyped", "cast_with",
                        "regeneration_shields", "kicked", "buyback", "casualty", "cast_before", "sacrificed", "monstrous", "control_reverts_to", "exiled_until", "exiled_by", "event_object", "event_player", "delayed", "it",
                        "modes", "may_play"}
    assert set(schema["$defs"]["TurnSpec"]["properties"]) == {"number", "active", "step", "priority", "lands_played",
                                                              "passed", "spells_cast", "extra_turns", "skip_combat", "history"}
    assert "main1" in schema["$defs"]["TurnSpec"]["properties"]["step"]["enum"]
    assert json.dumps(situation_json_schema(), sort_keys=True) == json.dumps(schema, sort_keys=True)
    assert "§" not in json.dumps(schema)


# --------------------------------------------------------------------------
# Errors
# --------------------------------------------------------------------------

def test_error_classes():
    e = SituationError("s.yaml", "battlefield.alice[2].card", "unknown card 'Forrest'")
    assert str(e) == "s.yaml: battlefield.alice[2].card: unknown card 'Forrest'"
    assert (e.file, e.path, e.message) == ("s.yaml", "battlefield.alice[2].card", "unknown card 'Forrest'")
    assert str(SituationError("s.yaml", "", "the document is empty")) == "s.yaml: the document is empty"
    assert isinstance(e, MtgsolveError) and isinstance(e, ValueError)
    assert issubclass(QueryError, MtgsolveError) and not issubclass(QueryError, SituationError)
    assert str(QueryError("s.yaml", "query[0].kind", "unknown\nkind")) == "s.yaml: query[0].kind: unknown kind"
    again = pickle.loads(pickle.dumps(e))
    assert type(again) is SituationError and str(again) == str(e)
    assert error_line(e) == str(e)
    assert error_line(RuntimeError("a\nb")) == "RuntimeError: a b"


def test_json_schema_accepts_valid_and_rejects_invalid_situations():
    jsonschema = pytest.importorskip("jsonschema")
    validator = jsonschema.Draft202012Validator(situation_json_schema())
    for data in ROUND_TRIP_CASES + [dump_state(situation_from_dict(FULL).state)]:
        assert not list(validator.iter_errors(data))
    bad = {"format": "mtgsolve/1", "players": ["a"], "battlefield": {"a": [{"card": "Forest", "tapd": True}]}}
    assert list(validator.iter_errors(bad))
    assert list(validator.iter_errors({"format": "mtgsolve/1", "players": ["a"], "turn": {"step": "main"}}))
