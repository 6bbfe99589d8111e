"""Bad situation files give one located line (contract §3): file, path inside it, message.

``CASES`` and :func:`write_case` are meant for reuse (e.g. the command line's
exit-code-2 tests): each case is written to a temporary directory and the
expected line is ``case.expected.replace("{file}", <path as passed>)``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pytest

from mtgsolve.solver.core.errors import SituationError
from mtgsolve.solver.io.load import load_situation

HEAD = "format: mtgsolve/1\nplayers: [alice, bob]\n"


@dataclass(frozen=True)
class Case:
    """A malformed input: ``text`` (str or bytes) written to ``filename``;
    ``text=None`` writes nothing (a missing file); ``directory`` makes it a directory."""

    id: str
    text: str | bytes | None
    expected: str  # with "{file}" for the path of the file
    filename: str = "situation.yaml"
    env: dict[str, str] = field(default_factory=dict)
    directory: bool = False


def _bomb() -> str:
    lines = [HEAD, "battlefield:\n  alice: []\nname: &a [x, x, x, x, x, x, x, x, x, x]\n"]
    prev = "a"
    for name in "bcdefg":
        lines.append(f"{name}: &{name} [" + ", ".join([f"*{prev}"] * 10) + "]\n")
        prev = name
    return "".join(lines)


CASES: list[Case] = [
    # -- reading ------------------------------------------------------------
    Case("missing-file", None, "{file}: cannot read the file: no such file"),
    Case("directory", None, "{file}: cannot read the file: it is a directory", directory=True),
    Case("not-utf8", b"format: mtgsolve/1\nplayers: [\xff]\n", "{file}: not UTF-8 text (bad byte at offset 29)"),
    Case("too-large", HEAD + "name: " + "x" * 100 + "\n",
         "{file}: the file is larger than 64 bytes (set MTGSOLVE_MAX_FILE_BYTES to allow more)",
         env={"MTGSOLVE_MAX_FILE_BYTES": "64"}),
    Case("yaml-syntax", "format: mtgsolve/1\nplayers: [alice\n",
         "{file}: malformed YAML at line 3, column 1: did not find expected ',' or ']'"),
    Case("yaml-mapping-in-flow", "format: mtgsolve/1\nplayers: alice: bob\n",
         "{file}: malformed YAML at line 2, column 15: mapping values are not allowed in this context"),
    Case("yaml-tab", "format: mtgsolve/1\n\tplayers: [a]\n",
         "{file}: malformed YAML at line 2, column 1: found a tab character that violates indentation"),
    Case("yaml-python-tag", "format: mtgsolve/1\nplayers: !!python/object/apply:os.system [ls]\n",
         "{file}: malformed YAML at line 2, column 10: could not determine a constructor for the tag "
         "'tag:yaml.org,2002:python/object/apply:os.system'"),
    Case("yaml-duplicate-key", "format: mtgsolve/1\nplayers: [alice]\nbattlefield:\n  alice: [{card: Forest, tapped: true, tapped: false}]\n",
         "{file}: malformed YAML at line 4, column 40: duplicate key 'tapped'"),
    Case("yaml-two-documents", "format: mtgsolve/1\nplayers: [a]\n---\nplayers: [b]\n",
         "{file}: malformed YAML at line 3, column 1: expected a single document in the stream, but found another document"),
    Case("yaml-alias-bomb", _bomb(),
         "{file}: the document has more than 1000000 values once YAML aliases are expanded"),
    Case("yaml-recursive-alias", "format: mtgsolve/1\nplayers: &p [alice, *p]\n",
         "{file}: the document is nested more than 100 levels deep (or refers to itself through YAML aliases)"),
    Case("json-syntax", '{"format": "mtgsolve/1", "players": ["alice",]}',
         "{file}: malformed JSON at line 1, column 46: Expecting value", filename="situation.json"),
    Case("json-duplicate-key", '{"format": "mtgsolve/1", "players": ["a"], "players": ["b"]}',
         "{file}: malformed JSON: duplicate key 'players'", filename="situation.json"),
    Case("json-nan", '{"format": "mtgsolve/1", "players": [{"id": "a", "life": NaN}]}',
         "{file}: malformed JSON: NaN is not a number", filename="situation.json"),
    # -- top level --------------------------------------------------------------
    Case("empty-file", "", "{file}: the document is empty"),
    Case("top-level-list", "- format: mtgsolve/1\n", "{file}: the top level must be a mapping, got a list"),
    Case("top-level-scalar", "hello\n", "{file}: the top level must be a mapping, got 'hello'"),
    Case("missing-format", "players: [alice]\n", "{file}: missing key 'format' (expected 'format: mtgsolve/1')"),
    Case("misspelled-format", "fromat: mtgsolve/1\nplayers: [alice]\n",
         "{file}: unknown key 'fromat' (did you mean 'format'?)"),
    Case("wrong-format", "format: mtgsolve/2\nplayers: [alice]\n",
         "{file}: format: unsupported format 'mtgsolve/2' (expected 'mtgsolve/1')"),
    Case("unknown-top-key", "format: mtgsolve/1\nplayres: [alice]\n",
         "{file}: unknown key 'playres' (did you mean 'players'?)"),
    Case("non-string-top-key", HEAD + "1: x\n", "{file}: unknown key 1"),
    Case("missing-players", "format: mtgsolve/1\n", "{file}: missing key 'players'"),
    Case("too-many-objects", HEAD + "battlefield: {alice: [Forest, Forest, Forest]}\n",
         "{file}: too many objects (3; the limit is 2, set MTGSOLVE_MAX_OBJECTS to allow more)",
         env={"MTGSOLVE_MAX_OBJECTS": "2"}),
    Case("metadata-number", HEAD + "rules: [702.19]\n",
         "{file}: rules[0]: expected a string, got 702.19 (put it in quotes: YAML reads it as a number)"),
    # -- players and turn ---------------------------------------------------------
    Case("empty-players", "format: mtgsolve/1\nplayers: []\n", "{file}: players: must not be empty"),
    Case("players-not-a-list", "format: mtgsolve/1\nplayers: alice\n", "{file}: players: expected a list, got 'alice'"),
    Case("player-listed-twice", "format: mtgsolve/1\nplayers: [alice, bob, {id: alice, life: 3}]\n",
         "{file}: players[2].id: player 'alice' is listed twice (also players[0])"),
    Case("player-yaml-boolean", "format: mtgsolve/1\nplayers: [yes, no]\n",
         "{file}: players[0]: expected a player id or a mapping {id, life, poison}, got true "
         "(put it in quotes: YAML reads it as true/false)"),
    Case("life-not-a-number", "format: mtgsolve/1\nplayers: [{id: alice, life: x}]\n",
         "{file}: players[0].life: expected an integer, got 'x'"),
    Case("negative-poison", "format: mtgsolve/1\nplayers: [{id: alice, poison: -1}]\n",
         "{file}: players[0].poison: must be at least 0, got -1"),
    Case("unknown-player-key", "format: mtgsolve/1\nplayers: [{id: alice, lfie: 3}]\n",
         "{file}: players[0]: unknown key 'lfie' (did you mean 'life'?)"),
    Case("turn-active-unknown", HEAD + "turn: {active: carol}\n",
         "{file}: turn.active: unknown player 'carol' (players: alice, bob)"),
    Case("turn-priority-typo", HEAD + "turn: {priority: alcie}\n",
         "{file}: turn.priority: unknown player 'alcie' (did you mean 'alice'?)"),
    Case("bad-step", HEAD + "turn: {step: main}\n", "{file}: turn.step: unknown step 'main' (did you mean 'main1'?)"),
    Case("turn-number-zero", HEAD + "turn: {number: 0}\n", "{file}: turn.number: must be at least 1, got 0"),
    Case("lands-played-negative", HEAD + "turn: {lands_played: -1}\n",
         "{file}: turn.lands_played: must be at least 0, got -1"),
    Case("turn-not-a-mapping", HEAD + "turn: 3\n", "{file}: turn: expected a mapping, got 3"),
    # -- zones and objects -----------------------------------------------------------
    Case("zone-key-not-a-player", HEAD + "hand: {carol: [Forest]}\n",
         "{file}: hand.carol: unknown player 'carol' (players: alice, bob)"),
    Case("zone-not-a-mapping", HEAD + "battlefield: [Forest]\n", "{file}: battlefield: expected a mapping, got a list"),
    Case("zone-list-null", HEAD + "hand:\n  alice:\n", "{file}: hand.alice: expected a list, got null"),
    Case("unknown-card", HEAD + "battlefield:\n  alice: [Mountain, Island, Forrest]\n",
         "{file}: battlefield.alice[2].card: unknown card 'Forrest' (did you mean 'Forest'?)"),
    Case("unknown-card-in-mapping", HEAD + "graveyard:\n  bob: [{card: Grizly Bears}]\n",
         "{file}: graveyard.bob[0].card: unknown card 'Grizly Bears' (did you mean 'Grizzly Bears'?)"),
    Case("object-not-a-mapping", HEAD + "battlefield:\n  alice: [Forest, 3]\n",
         "{file}: battlefield.alice[1]: expected a card name or an object mapping, got 3 "
         "(put it in quotes: YAML reads it as a number)"),
    Case("unknown-object-key", HEAD + "battlefield:\n  alice: [{card: Forest, tapd: true}]\n",
         "{file}: battlefield.alice[0]: unknown key 'tapd' (did you mean 'tapped'?)"),
    Case("tapped-not-bool", HEAD + "battlefield:\n  alice: [{card: Forest, tapped: \"yes\"}]\n",
         "{file}: battlefield.alice[0].tapped: expected true or false, got 'yes'"),
    Case("missing-card", HEAD + "battlefield:\n  alice: [{tapped: true}]\n",
         "{file}: battlefield.alice[0]: missing key 'card'"),
    Case("negative-counters", HEAD + "battlefield:\n  alice: [{card: Grizzly Bears, counters: {+1/+1: -2}}]\n",
         "{file}: battlefield.alice[0].counters[\"+1/+1\"]: must be at least 0, got -2"),
    Case("counter-key-not-string", HEAD + "battlefield:\n  alice: [{card: Grizzly Bears, counters: {1: 2}}]\n",
         "{file}: battlefield.alice[0].counters: keys must be strings, got 1"),
    # (extension) activated_this_turn: ability index → times (CR 602.5b)
    Case("activated-index-zero", HEAD + "battlefield:\n  alice: [{card: Abzan Devotee, activated_this_turn: {0: 1}}]\n",
         "{file}: battlefield.alice[0].activated_this_turn: keys must be activated-ability indices (1, 2, …), got 0"),
    Case("activated-index-word", HEAD + "battlefield:\n  alice: [{card: Abzan Devotee, activated_this_turn: {first: 1}}]\n",
         "{file}: battlefield.alice[0].activated_this_turn: keys must be activated-ability indices (1, 2, …), "
         "got 'first'"),
    Case("activated-negative", HEAD + "battlefield:\n  alice: [{card: Abzan Devotee, activated_this_turn: {1: -1}}]\n",
         "{file}: battlefield.alice[0].activated_this_turn[1]: must be at least 0, got -1"),
    Case("activated-not-mapping", HEAD + "battlefield:\n  alice: [{card: Abzan Devotee, activated_this_turn: 1}]\n",
         "{file}: battlefield.alice[0].activated_this_turn: expected a mapping, got 1"),
    Case("entered-not-bool", HEAD + "battlefield:\n  alice: [{card: Forest, entered_this_turn: yes please}]\n",
         "{file}: battlefield.alice[0].entered_this_turn: expected true or false, got 'yes please'"),
    Case("negative-damage", HEAD + "battlefield:\n  alice: [{card: Grizzly Bears, damage: -1}]\n",
         "{file}: battlefield.alice[0].damage: must be at least 0, got -1"),
    Case("damage-float", HEAD + "battlefield:\n  alice: [{card: Grizzly Bears, damage: 1.5}]\n",
         "{file}: battlefield.alice[0].damage: expected an integer, got 1.5"),
    Case("huge-number", HEAD + "battlefield:\n  alice: [{card: Grizzly Bears, damage: 10000000000}]\n",
         "{file}: battlefield.alice[0].damage: must be at most 1000000000, got 10000000000"),
    Case("controller-contradicts-key", HEAD + "battlefield:\n  alice: [{card: Forest, controller: bob}]\n",
         "{file}: battlefield.alice[0].controller: controller 'bob' contradicts the zone key 'alice' "
         "(on the battlefield the key is the controller)"),
    Case("owner-contradicts-key", HEAD + "hand:\n  alice: [{card: Forest, owner: bob}]\n",
         "{file}: hand.alice[0].owner: owner 'bob' contradicts the zone key 'alice' (in the hand the key is the owner)"),
    Case("owner-not-a-player", HEAD + "battlefield:\n  alice: [{card: Forest, owner: carol}]\n",
         "{file}: battlefield.alice[0].owner: unknown player 'carol' (players: alice, bob)"),
    Case("inline-card-without-name", HEAD + "battlefield:\n  alice: [{card: {type: Land}}]\n",
         "{file}: battlefield.alice[0].card: missing key 'name'"),
    Case("inline-card-bad-mana-cost", HEAD + "hand:\n  alice: [{card: {name: Foo, manaCost: \"{Q}\"}}]\n",
         "{file}: hand.alice[0].card.manaCost: unknown mana symbol '{Q}'"),
    Case("chosen-bad-value", HEAD + "battlefield:\n  alice: [{card: Forest, chosen: {color: {a: 1}}}]\n",
         "{file}: battlefield.alice[0].chosen.color: expected a string, an integer, true/false or a list of them, "
         "got a mapping"),
    # -- ids ---------------------------------------------------------------------------
    Case("duplicate-id", HEAD + "battlefield:\n  alice: [{card: Forest, id: f}]\nhand:\n  bob: [{card: Island, id: f}]\n",
         "{file}: hand.bob[0].id: duplicate id 'f' (also at battlefield.alice[0])"),
    Case("id-is-a-player", HEAD + "battlefield:\n  alice: [{card: Forest, id: bob}]\n",
         "{file}: battlefield.alice[0].id: id 'bob' is already a player's id (players and objects share one namespace)"),
    Case("empty-id", HEAD + "battlefield:\n  alice: [{card: Forest, id: \"\"}]\n",
         "{file}: battlefield.alice[0].id: must not be empty"),
    # -- attachments -------------------------------------------------------------------
    Case("attached-to-missing", HEAD + "battlefield:\n  alice: [Grizzly Bears, {card: Cartouche of Strength, attached_to: bears}]\n",
         "{file}: battlefield.alice[1].attached_to: unknown id 'bears' (did you mean 'grizzly-bears'?)"),
    Case("attached-to-itself", HEAD + "battlefield:\n  alice: [{card: Cartouche of Strength, id: c, attached_to: c}]\n",
         "{file}: battlefield.alice[0].attached_to: an object cannot be attached to itself"),
    Case("attached-cycle", HEAD + "battlefield:\n  alice: [{card: Wild Growth, id: a, attached_to: b}, "
         "{card: Overgrowth, id: b, attached_to: a}]\n",
         "{file}: battlefield.alice[0].attached_to: attachments form a cycle: a → b → a"),
    Case("attached-from-hand", HEAD + "battlefield:\n  alice: [Grizzly Bears]\nhand:\n  alice: "
         "[{card: Cartouche of Strength, attached_to: grizzly-bears}]\n",
         "{file}: hand.alice[0].attached_to: only permanents can be attached, and this object is in the hand"),
    Case("attached-to-graveyard", HEAD + "battlefield:\n  alice: [{card: Cartouche of Strength, attached_to: grizzly-bears}]\n"
         "graveyard:\n  alice: [Grizzly Bears]\n",
         "{file}: battlefield.alice[0].attached_to: cannot be attached to 'grizzly-bears', which is in the graveyard, "
         "not on the battlefield"),
    # -- the stack -----------------------------------------------------------------------
    Case("stack-neither-card-nor-ability", HEAD + "stack: [{controller: alice}]\n",
         "{file}: stack[0]: a stack object needs 'card' (a spell) or 'ability' (an ability)"),
    Case("stack-both-card-and-ability", HEAD + "battlefield: {alice: [Prodigal Pyromancer]}\n"
         "stack: [{card: Shock, ability: {source: prodigal-pyromancer, index: 1}, controller: alice}]\n",
         "{file}: stack[0]: an object has either 'card' (a card or spell) or 'ability' (an ability on the stack), not both"),
    Case("stack-spell-without-controller", HEAD + "stack: [Shock]\n",
         "{file}: stack[0]: missing key 'controller' (a spell on the stack needs its controller)"),
    Case("stack-negative-x", HEAD + "stack: [{card: Shock, controller: alice, x: -1}]\n",
         "{file}: stack[0].x: must be at least 0, got -1"),
    Case("stack-target-dangling", HEAD + "battlefield: {bob: [Grizzly Bears]}\n"
         "stack: [{card: Shock, controller: alice, targets: [[grizzly-bear]]}]\n",
         "{file}: stack[0].targets[0][0]: unknown id 'grizzly-bear' (did you mean 'grizzly-bears'?)"),
    Case("stack-targets-not-nested", HEAD + "stack: [{card: Shock, controller: alice, targets: [bob]}]\n",
         "{file}: stack[0].targets[0]: expected a list, got 'bob'"),
    Case("ability-source-dangling", HEAD + "stack: [{ability: {source: pyromancer, index: 1}}]\n",
         "{file}: stack[0].ability.source: unknown object 'pyromancer'"),
    Case("ability-source-is-an-ability", HEAD + "battlefield: {alice: [Prodigal Pyromancer]}\nstack:\n"
         "  - {ability: {source: prodigal-pyromancer, index: 1}, id: first}\n"
         "  - {ability: {source: first, index: 1}}\n",
         "{file}: stack[1].ability.source: 'first' is an ability, not a card or permanent"),
    Case("ability-index-zero", HEAD + "battlefield: {alice: [Prodigal Pyromancer]}\n"
         "stack: [{ability: {source: prodigal-pyromancer, index: 0}}]\n",
         "{file}: stack[0].ability.index: ability index 0 is only for a delayed triggered ability of a spell "
         "(object key 'delayed', CR 603.7)"),
    Case("ability-missing-index", HEAD + "battlefield: {alice: [Prodigal Pyromancer]}\n"
         "stack: [{ability: {source: prodigal-pyromancer}}]\n",
         "{file}: stack[0].ability: missing key 'index'"),
    Case("ability-off-the-stack", HEAD + "battlefield: {alice: [Prodigal Pyromancer, "
         "{ability: {source: prodigal-pyromancer, index: 1}}]}\n",
         "{file}: battlefield.alice[1].ability: only objects on the stack can be abilities"),
    Case("last-known-unknown-key", HEAD + "graveyard: {alice: [Kitchen Finks]}\n"
         "stack: [{ability: {source: kitchen-finks, index: 1}, last_known: {contoller: alice}}]\n",
         "{file}: stack[0].last_known: unknown key 'contoller' (did you mean 'controller'?)"),
    Case("last-known-without-ability", HEAD + "stack: [{card: Shock, controller: alice, last_known: {tapped: true}}]\n",
         "{file}: stack[0].last_known: 'last_known' is only for abilities on the stack"),
    Case("last-known-bad-player", HEAD + "graveyard: {alice: [Kitchen Finks]}\n"
         "stack: [{ability: {source: kitchen-finks, index: 1}, last_known: {controller: carol}}]\n",
         "{file}: stack[0].last_known.controller: unknown player 'carol' (players: alice, bob)"),
    Case("stack-not-a-list", HEAD + "stack: {alice: [Shock]}\n", "{file}: stack: expected a list, got a mapping"),
    # -- mana pool, effects, shuffled -----------------------------------------------------
    Case("bad-mana-string", HEAD + "mana_pool: {alice: \"{R}{Q}\"}\n",
         "{file}: mana_pool.alice: unknown mana symbol '{Q}'"),
    Case("mana-not-a-type", HEAD + "mana_pool: {alice: \"{W/U}\"}\n",
         "{file}: mana_pool.alice: '{W/U}' is not a type of mana"),
    Case("mana-pool-not-a-player", HEAD + "mana_pool: {carol: \"{R}\"}\n",
         "{file}: mana_pool.carol: unknown player 'carol' (players: alice, bob)"),
    Case("effect-missing-controller", HEAD + "effects: [{card: Pale Moon}]\n",
         "{file}: effects[0]: missing key 'controller'"),
    Case("effect-card-and-ability", HEAD + "effects: [{card: Pale Moon, ability: {source: Deep Water, index: 1}, "
         "controller: alice}]\n",
         "{file}: effects[0]: an effect needs exactly one of 'card' or 'ability'"),
    Case("effect-unknown-source", HEAD + "effects: [{ability: {source: Deep Watter, index: 1}, controller: alice}]\n",
         "{file}: effects[0].ability.source: unknown object or card 'Deep Watter' (did you mean 'Deep Water'?)"),
    Case("effect-unknown-card", HEAD + "effects: [{card: Pale Mon, controller: alice}]\n",
         "{file}: effects[0].card: unknown card 'Pale Mon' (did you mean 'Pale Moon'?)"),
    Case("effect-target-dangling", HEAD + "effects: [{card: Giant Growth, controller: alice, targets: [[bears]]}]\n",
         "{file}: effects[0].targets[0][0]: unknown id 'bears'"),
    Case("shuffled-not-a-player", HEAD + "shuffled: {carol: true}\n",
         "{file}: shuffled.carol: unknown player 'carol' (players: alice, bob)"),
    Case("shuffled-not-bool", HEAD + "shuffled: {alice: 1}\n", "{file}: shuffled.alice: expected true or false, got 1"),
    # -- query and expect ------------------------------------------------------------------
    Case("query-without-kind", HEAD + "query: [{kind: actions}, {cast: shock}]\n",
         "{file}: query[1]: missing key 'kind'"),
    Case("query-kind-not-string", HEAD + "query: {kind: 3}\n", "{file}: query.kind: expected a string, got 3 "
         "(put it in quotes: YAML reads it as a number)"),
    Case("query-not-a-mapping", HEAD + "query: actions\n",
         "{file}: query: expected a query mapping or a list of queries, got 'actions'"),
    Case("expect-without-query", HEAD + "expect: {count: 1}\n", "{file}: expect: 'expect' needs a 'query' to check"),
    Case("expect-length-mismatch", HEAD + "query: [{kind: actions}, {kind: resolve}]\nexpect: [{count: 1}]\n",
         "{file}: expect: has 1 entries but 'query' has 2"),
    Case("expect-list-for-single-query", HEAD + "query: {kind: actions}\nexpect: [{count: 1}]\n",
         "{file}: expect: expected a mapping, since 'query' is a single query"),
    Case("expect-mapping-for-query-list", HEAD + "query: [{kind: actions}]\nexpect: {count: 1}\n",
         "{file}: expect: expected a list of 1 entries, one per query"),
]


def write_case(directory: Path, case: Case) -> Path:
    """Write ``case`` under ``directory``; return the path to pass to the loader or the CLI."""
    path = directory / case.filename
    if case.directory:
        path.mkdir()
    elif case.text is not None:
        path.write_bytes(case.text if isinstance(case.text, bytes) else case.text.encode("utf-8"))
    return path


def test_enough_distinct_cases():
    assert len(CASES) >= 35
    assert len({c.id for c in CASES}) == len(CASES)
    assert len({c.expected.replace("{file}", "f") for c in CASES}) == len(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_malformed(case: Case, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    for k, v in case.env.items():
        monkeypatch.setenv(k, v)
    path = write_case(tmp_path, case)
    with pytest.raises(SituationError) as info:
        load_situation(path)
    line = str(info.value)
    assert line == case.expected.replace("{file}", str(path))
    assert "\n" not in line and "Traceback" not in line and "pydantic" not in line.lower()
    assert info.value.file == str(path)


def test_relative_path_is_named_as_given(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "situation.yaml").write_text(HEAD + "battlefield:\n  alice: [Mountain, Island, Forrest]\n")
    with pytest.raises(SituationError) as info:
        load_situation("situation.yaml")
    assert str(info.value) == ("situation.yaml: battlefield.alice[2].card: unknown card 'Forrest' "
                               "(did you mean 'Forest'?)")
