"""Fuzzing the input (issue 9): structurally random and mutated situation
files either load (and answer) or give one located error — never a
traceback, never a hang, never partial output.

The example budget scales with ``MTGSOLVE_FUZZ`` (default small for CI)."""
from __future__ import annotations

import copy
import re
import json
import os
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, event, given, settings, strategies as st
from typer.testing import CliRunner

from mtgsolve.cli import app
from mtgsolve.solver.core.errors import MtgsolveError
from mtgsolve.solver.queries import Options
from mtgsolve.solver.api.runner import solve_loaded
from mtgsolve.solver.io.load import situation_from_dict

N = int(os.environ.get("MTGSOLVE_FUZZ", "150"))
FUZZ = settings(max_examples=N, deadline=None, derandomize=bool(os.environ.get("CI")),
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
ROOT = Path(__file__).resolve().parent.parent

BASE = {
    "format": "mtgsolve/1",
    "name": "fuzz base",
    "players": ["alice", {"id": "bob", "life": 7}],
    "turn": {"number": 2, "active": "alice", "step": "main1"},
    "battlefield": {
        "alice": ["Forest", {"card": "Llanowar Elves", "sick": True}, {"card": "Grizzly Bears", "counters": {"+1/+1": 1}},
                  {"card": "Cartouche of Strength", "attached_to": "grizzly-bears"}, "Reflecting Pool"],
        "bob": ["Coalition Honor Guard", {"card": "Mountain", "tapped": True}, "Exotic Orchard"],
    },
    "hand": {"alice": ["Shock", "Giant Growth"], "bob": ["Lightning Bolt"]},
    "graveyard": {"alice": ["Silvercoat Lion"]},
    "library": {"alice": ["Island", "Swamp"]},
    "mana_pool": {"alice": "{G}"},
    "query": [{"kind": "could_produce"}, {"kind": "targets", "cast": "shock"}],
}

# valid mutations: real cards (hand-written and Oracle-read, modeled or not) and every query kind,
# so that more mutated situations load and reach the queries
REAL_CARDS = ["Forest", "Llanowar Elves", "Birds of Paradise", "Mana Reflection", "Contamination", "Blood Moon",
              "Exotic Orchard", "Squandered Resources", "Coldsteel Heart", "Thriving Bluff", "Ancient Ziggurat",
              "Abzan Devotee", "Cinder Marsh", "Urza's Tower", "Chrome Mox", "Cavern of Souls", "Gemstone Caverns",
              "Standard Bearer", "Gladecover Scout", "Doubling Season", "Hangarback Walker", "Unclaimed Territory"]
QUERIES = [{"kind": "could_produce"}, {"kind": "available_mana"}, {"kind": "pay", "cost": "{1}{G}"},
           {"kind": "pay", "cast": "shock"}, {"kind": "targets", "cast": "shock"}, {"kind": "actions"},
           {"kind": "resolve"}, {"kind": "order", "event": {"kind": "tap_for_mana", "object": "forest"}},
           [{"kind": "could_produce"}, {"kind": "pay", "cost": "{X}{R}", "x": "any"}]]

JUNK = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-(10 ** 30), max_value=10 ** 30), st.floats(allow_nan=True),
    st.text(max_size=30), st.sampled_from(["Forest", "Forrest", "alice", "bob", "grizzly-bears", "{G}{G}", "{X}",
                                           "💥", "\u0000", "main1", "-1"]),
    st.lists(st.integers(), max_size=3), st.dictionaries(st.text(max_size=5), st.integers(), max_size=3))


def _paths(d, prefix=()):
    """Every (path, value) in a nested structure."""
    yield prefix, d
    if isinstance(d, dict):
        for k, v in d.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(d, list):
        for i, v in enumerate(d):
            yield from _paths(v, prefix + (i,))


def _set(d, path, value):
    for p in path[:-1]:
        d = d[p]
    d[path[-1]] = value


def _delete(d, path):
    for p in path[:-1]:
        d = d[p]
    del d[path[-1]]


@st.composite
def mutated(draw):
    d = copy.deepcopy(BASE)
    for _ in range(draw(st.integers(1, 4))):
        paths = [p for p, _ in _paths(d) if p]
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        op = draw(st.sampled_from(["junk", "delete", "unknown_key", "dup_id", "cycle", "huge", "unicode",
                                   "card", "card", "flip", "small", "query"]))
        try:
            if op == "card":  # a valid but unexpected card (hand-written or read from Oracle text)
                where = draw(st.sampled_from(["alice", "bob"]))
                d["battlefield"][where].append({"card": draw(st.sampled_from(REAL_CARDS))})
            elif op == "flip":
                objs = [o for side in d.get("battlefield", {}).values() if isinstance(side, list)
                        for o in side if isinstance(o, dict)]
                if objs:
                    draw(st.sampled_from(objs))[draw(st.sampled_from(["tapped", "sick"]))] = draw(st.booleans())
            elif op == "small":
                _set(d, path, draw(st.integers(-2, 5)))
            elif op == "query":
                d["query"] = copy.deepcopy(draw(st.sampled_from(QUERIES)))  # later mutations must not touch QUERIES
            elif op == "junk":
                _set(d, path, draw(JUNK))
            elif op == "delete":
                _delete(d, path)
            elif op == "unknown_key":
                d[draw(st.text(min_size=1, max_size=8))] = draw(JUNK)
            elif op == "dup_id":
                d["battlefield"]["alice"].append({"card": "Forest", "id": draw(st.sampled_from(["alice", "forest", "shock"]))})
            elif op == "cycle":
                d["battlefield"]["bob"].append({"card": "Wild Growth", "id": "wg1", "attached_to": "wg2"})
                d["battlefield"]["bob"].append({"card": "Wild Growth", "id": "wg2", "attached_to": "wg1"})
            elif op == "huge":
                _set(d, path, 10 ** draw(st.integers(10, 400)))
            elif op == "unicode":
                _set(d, path, draw(st.text(alphabet=st.characters(min_codepoint=0x80, max_codepoint=0x2FFFF), max_size=10)))
        except (KeyError, IndexError, TypeError, AttributeError):
            pass
    return d


def _answer_or_located(d: object) -> None:
    """Loads and answers, or fails with one located line. Outcomes are counted as
    hypothesis events (``--hypothesis-show-statistics`` prints the shares)."""
    try:
        loaded = situation_from_dict(d, source="fuzz.yaml")
    except MtgsolveError as e:
        line = str(e)
        assert "\n" not in line and line.startswith("fuzz.yaml")
        event("located error while loading")
        return
    try:
        results = solve_loaded(loaded, Options(max_results=50, timeout=5))
    except MtgsolveError as e:
        assert "\n" not in str(e) and str(e).startswith("fuzz.yaml")
        event("located error in a query")
        return
    json.dumps(results)  # JSON-serialisable
    event("answered" if results else "loaded (no query)")


@FUZZ
@given(mutated())
def test_mutated_situations_answer_or_fail_located(d):
    _answer_or_located(d)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=10),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=25)


@FUZZ
@given(json_values)
def test_structurally_random_documents(v):
    _answer_or_located(v)


@FUZZ
@given(st.dictionaries(st.sampled_from(list(BASE) + ["stack", "effects", "exile", "command", "shuffled", "expect"]),
                       json_values, max_size=6))
def test_random_top_level_keys(d):
    d.setdefault("format", "mtgsolve/1")
    _answer_or_located(d)


@settings(max_examples=max(10, N // 10), deadline=None, derandomize=bool(os.environ.get("CI")),
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(mutated(), st.sampled_from(["yaml", "json"]))
def test_cli_on_mutated_files(tmp_path, d, fmt):
    f = tmp_path / f"case.{fmt}"
    try:
        text = yaml.safe_dump(d) if fmt == "yaml" else json.dumps(d)
    except (ValueError, OverflowError):
        return
    f.write_text(text, encoding="utf-8")
    res = CliRunner().invoke(app, ["solve", str(f), "--json", "--timeout", "5", "--max-results", "50"])
    assert res.exit_code in (0, 2), res.output
    event(f"exit code {res.exit_code}")
    if res.exit_code == 2:
        assert len(res.output.strip().splitlines()) == 1
        assert res.output.startswith(str(f))
    else:
        json.loads(res.output)


def test_deep_nesting_is_located_error(tmp_path):
    f = tmp_path / "deep.yaml"
    f.write_text("format: mtgsolve/1\nplayers: [a]\nname: " + "[" * 5000 + "]" * 5000 + "\n")
    res = CliRunner().invoke(app, ["solve", str(f)])
    assert res.exit_code == 2
    assert len(res.output.strip().splitlines()) == 1


def test_yaml_alias_bomb_is_rejected(tmp_path):
    lines = ["format: mtgsolve/1", "players: [a]", 'a0: &a0 ["x","x","x","x","x","x","x","x","x","x"]']
    for i in range(1, 9):
        lines.append(f"a{i}: &a{i} [" + ",".join([f"*a{i-1}"] * 10) + "]")
    f = tmp_path / "bomb.yaml"
    f.write_text("\n".join(lines) + "\n")
    res = CliRunner().invoke(app, ["solve", str(f)])
    assert res.exit_code == 2
    assert len(res.output.strip().splitlines()) == 1


def test_thousands_of_objects_load():
    d = {"format": "mtgsolve/1", "players": ["a", "b"],
         "battlefield": {"a": ["Forest"] * 3000, "b": ["Island"] * 3000}}
    loaded = situation_from_dict(d)
    assert len(loaded.state.objects) == 6000
    assert loaded.state.objects[-1].id == "island-3000"


def test_object_limit_is_a_located_error(monkeypatch):
    monkeypatch.setenv("MTGSOLVE_MAX_OBJECTS", "10")
    d = {"format": "mtgsolve/1", "players": ["a"], "battlefield": {"a": ["Forest"] * 11}}
    with pytest.raises(MtgsolveError):
        situation_from_dict(d)


def test_python_tags_are_not_evaluated(tmp_path):
    f = tmp_path / "evil.yaml"
    f.write_text("format: mtgsolve/1\nplayers: [a]\nname: !!python/object/apply:os.system ['echo hacked']\n")
    res = CliRunner().invoke(app, ["solve", str(f)])
    assert res.exit_code == 2
    assert "hacked" not in res.output


# --- Faces (issue 24): every combination of card, zone, face and on_adventure ---------------

import reference.faces_ref as faces_ref  # noqa: E402  (a module: the fuzz tests are not differential tests)
from strategies.faces import ALL_FACE_CARDS  # noqa: E402

FACE_ZONES = ("battlefield", "hand", "graveyard", "library", "exile", "stack")
OTHER_NAMES = ("Stomp", "Fire", "Insectile Aberration", "Searstep Pathway", "Chittering Host", "No Such Face")


@st.composite
def face_objects(draw):
    """(document, zone key path of the object, card, face index or None, zone, on_adventure):
    one object of a multi-face (or single-faced) card in a zone, with a face (its own by index,
    -1 another card's face name) and ``on_adventure`` drawn independently."""
    full = draw(st.sampled_from(ALL_FACE_CARDS + ("Grizzly Bears", "Lightning Bolt")))
    zone = draw(st.sampled_from(FACE_ZONES))
    names = full.split(" // ") if faces_ref.record(full) else []
    idx = draw(st.sampled_from([None, -1] + list(range(len(names)))))
    obj: dict = {"card": full}
    if idx is not None:
        other = [n for n in OTHER_NAMES if n.lower() not in (x.lower() for x in names)]
        obj["face"] = names[idx] if idx >= 0 else draw(st.sampled_from(other))
    adventure = draw(st.integers(0, 3)) == 0
    if adventure:
        obj["on_adventure"] = True
    d = {"format": "mtgsolve/1", "players": ["alice", "bob"], "turn": {"number": 3, "active": "alice", "step": "main1"}}
    if zone == "stack":
        d["stack"] = [{**obj, "controller": "alice"}]
        where = "stack[0]"
    else:
        d[zone] = {"alice": [obj]}
        where = f"{zone}.alice[0]"
    return d, where, full, idx, zone, adventure


#: The rules beyond the format's that the loader checks (``faces_ref.rules_gap``'s names).
LOADER_CHECKED = frozenset({"a land on the stack", "a transforming card cast transformed without disturb"})


@FUZZ
@given(face_objects())
def test_every_illegal_face_is_one_located_error(case):
    """The faces an object may show by zone (docs/situation-format.md "Faces", reference
    ``faces_ref.face_problem``): a legal one loads, showing that face; an illegal one is one
    located line naming the object's key (``battlefield.alice[0].face: …``). What the format
    allows but the rules forbid beyond it (``faces_ref.rules_gap``: a land on the stack …) loads
    today: counted, and listed in test_face_rule_gaps_the_loader_accepts."""
    d, where, full, idx, zone, adventure = case
    problem = faces_ref.face_problem(full, idx, zone, adventure)
    gap = faces_ref.rules_gap(full, idx, zone)
    if problem is None and gap in LOADER_CHECKED and idx:   # (a land front face on the stack: not face-specific)
        problem = "face"                      # the rules the loader checks beyond the format's
    unbounded = problem is None and zone == "battlefield" and faces_ref.day_or_night_bound(full, idx)
    try:
        loaded = situation_from_dict(d, source="fuzz.yaml")
    except MtgsolveError as e:
        line = str(e)
        assert problem is not None or unbounded, line
        at = f"fuzz.yaml: {where}: " if unbounded else f"fuzz.yaml: {where}.{problem}: "
        assert "\n" not in line and line.startswith(at), (line, problem)
        event(f"located error: {problem or 'no day_night'}")
        return
    assert problem is None and not unbounded, (d, problem)
    (o,) = loaded.state.objects
    names = full.split(" // ")
    shown = None if idx is None or (idx == 0 and o.whole.data.layout not in ("split", "aftermath")) else names[idx]
    assert o.face == shown and o.on_adventure == adventure
    event(f"loads{' (rules gap: ' + gap + ')' if gap else ''}")


FACE_RULE_GAPS = [
    ("a land face cast", {"stack": [{"card": "Blightstep Pathway", "face": "Searstep Pathway", "controller": "alice"}]},
     "stack[0]"),
    ("a transforming card cast transformed without disturb",
     {"stack": [{"card": "Delver of Secrets", "face": "Insectile Aberration", "controller": "alice"}]}, "stack[0]"),
    ("a daybound permanent front face up at night (CR 702.145, 730.2)",
     {"battlefield": {"alice": ["Reckless Stormseeker"]}, "day_night": "night"}, "battlefield.alice[0]"),
    ("a daybound permanent when it is neither day nor night (CR 702.145d)",
     {"battlefield": {"alice": ["Reckless Stormseeker"]}}, "battlefield.alice[0]"),
]


@pytest.mark.parametrize("what,doc,where", FACE_RULE_GAPS, ids=[g[0] for g in FACE_RULE_GAPS])
def test_face_rules_the_loader_checks(what, doc, where):
    d = {"format": "mtgsolve/1", "players": ["alice", "bob"],
         "turn": {"number": 3, "active": "alice", "step": "main1"}, **doc}
    with pytest.raises(MtgsolveError, match=rf"^fuzz\.yaml: {re.escape(where)}"):
        situation_from_dict(d, source="fuzz.yaml")


@pytest.mark.xfail(reason="the loader does not check this rule yet: an instant or sorcery on the battlefield "
                          "(CR 304.4, 307.4), not face-specific", strict=False)
def test_an_instant_front_face_on_the_battlefield():
    d = {"format": "mtgsolve/1", "players": ["alice", "bob"], "battlefield": {"alice": ["Spikefield Hazard"]}}
    with pytest.raises(MtgsolveError, match=r"^fuzz\.yaml: battlefield\.alice\[0\]"):
        situation_from_dict(d, source="fuzz.yaml")


@FUZZ
@given(st.one_of(st.sampled_from(["day", "night"]), JUNK))
def test_day_night_is_day_night_or_one_located_error(value):
    d = {"format": "mtgsolve/1", "players": ["alice"], "day_night": value}
    try:
        state = situation_from_dict(d, source="fuzz.yaml").state
    except MtgsolveError as e:
        assert value not in ("day", "night", None)
        assert "\n" not in str(e) and str(e).startswith("fuzz.yaml: day_night: ")
        return
    assert state.day_night == value


FACE_BAD_INPUTS = [
    ("battlefield:\n  alice: [{card: Bonecrusher Giant, face: Stomp}]\n", "battlefield.alice[0].face"),
    ("hand:\n  alice: [{card: Delver of Secrets, face: Insectile Aberration}]\n", "hand.alice[0].face"),
    ("stack:\n  - {card: Fire // Ice, controller: alice}\n", "stack[0].face"),
    ("graveyard:\n  alice: [{card: Bonecrusher Giant, on_adventure: true}]\n", "graveyard.alice[0].on_adventure"),
    ("exile:\n  alice: [{card: Delver of Secrets, on_adventure: true}]\n", "exile.alice[0].on_adventure"),
    ("exile:\n  alice: [{card: Bonecrusher Giant, on_adventure: maybe}]\n", "exile.alice[0].on_adventure"),
    ("battlefield:\n  alice: [{card: Graf Rats, face: 'Brisela, Voice of Nightmares'}]\n", "battlefield.alice[0].face"),
    ("battlefield:\n  alice: [{card: Forest, face: 3}]\n", "battlefield.alice[0].face"),
    ("day_night: dusk\n", "day_night"),
    ("day_night: [day]\n", "day_night"),
]


@pytest.mark.parametrize("body,where", FACE_BAD_INPUTS, ids=[w for _, w in FACE_BAD_INPUTS])
def test_cli_bad_face_keys_are_one_located_line_exit_2(tmp_path, body, where):
    """``file: path.inside: message``, exit code 2, nothing on standard output."""
    f = tmp_path / "faces.yaml"
    f.write_text("format: mtgsolve/1\nplayers: [alice, bob]\nturn: {number: 3, active: alice, step: main1}\n"
                 + body + "query: {kind: actions}\n", encoding="utf-8")
    res = CliRunner().invoke(app, ["solve", str(f), "--json"])
    assert res.exit_code == 2, res.output
    assert res.stdout == "" or res.stdout == res.output
    lines = res.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"{f}: {where}: "), res.output
