"""The documentation in docs/ cannot drift from the code (issue 19):

* every property of the situation's JSON Schema (``mtgsolve schema``) is described in
  docs/situation-format.md, and every query kind in docs/results.md;
* the JSON Schema is precise per query kind (discriminated by ``kind``: ``kind: target`` fails) and
  every instance file validates against it;
* the YAML comma pitfall (``[Thalia, Guardian of Thraben]``) is explained in the error;
* the README's two commands and its links stay in place, and every relative link in docs/ resolves.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml

from mtgsolve.solver.io.load import SCHEMA_ID, QUERY_SCHEMAS, situation_from_dict, situation_json_schema

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"


def _schema_properties(schema: dict) -> dict[str, set[str]]:
    """Where each property name appears: definition name → property names (top level: "Situation")."""
    out = {"Situation": set(schema["properties"])}
    for name, d in schema["$defs"].items():
        out[name] = set(d.get("properties", {}))
        for branch in d.get("properties", {}).values():  # nested objects (order's events)
            for alt in branch.get("oneOf", []) if isinstance(branch, dict) else []:
                out[name] |= set(alt.get("properties", {}))
    return out


def _documented_keys(text: str) -> set[str]:
    return set(re.findall(r"`([A-Za-z_][A-Za-z0-9_]*)`", text))


def test_every_schema_property_is_in_situation_format():
    text = (DOCS / "situation-format.md").read_text(encoding="utf-8")
    documented = _documented_keys(text)
    missing = {f"{where}.{p}" for where, props in _schema_properties(situation_json_schema()).items()
               for p in props if p not in documented}
    assert not missing, f"describe these keys in docs/situation-format.md: {sorted(missing)}"


def test_every_query_kind_is_documented():
    from mtgsolve.solver.queries import KINDS

    results = (DOCS / "results.md").read_text(encoding="utf-8")
    fmt = (DOCS / "situation-format.md").read_text(encoding="utf-8")
    headings = set(re.findall(r"^## `([a-z_]+)`", results, re.M))
    assert set(KINDS) <= headings, f"add a section to docs/results.md for {sorted(set(KINDS) - headings)}"
    for kind in KINDS:
        assert f"| `{kind}` |" in fmt, f"docs/situation-format.md's query table lacks {kind}"


def test_every_status_and_soundness_field_is_documented():
    results = (DOCS / "results.md").read_text(encoding="utf-8")
    for word in ["ok", "truncated", "timeout", "unsupported", "error", "unread", "object", "text", "affects",
                 "reason"]:
        assert f"`{word}`" in results, word


def test_extension_keys_are_documented():
    """Keys beyond the contract that the schema has (marked "(extension)" in their description)."""
    schema = situation_json_schema()
    ext = {p for d in schema["$defs"].values() for p, v in d.get("properties", {}).items()
           if isinstance(v, dict) and "(extension)" in v.get("description", "")}
    assert {"timestamp", "activated_this_turn", "entered_this_turn", "skip_untap"} <= ext
    text = (DOCS / "extensions.md").read_text(encoding="utf-8")
    assert not {k for k in ext if f"`{k}`" not in text}


# -- the JSON Schema: one precise schema per query kind -------------------------------------------------

@pytest.fixture(scope="module")
def validator():
    jsonschema = pytest.importorskip("jsonschema")
    return jsonschema.Draft202012Validator(situation_json_schema())


def test_schema_covers_every_query_kind():
    from mtgsolve.solver.queries import KINDS

    schema = situation_json_schema()
    assert set(KINDS) <= set(QUERY_SCHEMAS), "describe the new kind in solver.io.load.QUERY_SCHEMAS"
    assert schema["$defs"]["QuerySpec"]["properties"]["kind"]["enum"] == list(KINDS)
    assert schema["$id"] == SCHEMA_ID
    json.dumps(schema, sort_keys=True)  # serialisable, deterministic


BASE = {"format": "mtgsolve/1", "players": ["alice", "bob"],
        "battlefield": {"alice": ["Forest"]}, "hand": {"alice": ["Grizzly Bears"]}}


@pytest.mark.parametrize("query,valid", [
    ({"kind": "targets", "cast": "shock"}, True),
    ({"kind": "target", "cast": "shock"}, False),           # a typo of the kind
    ({"kind": "targets"}, False),                             # needs what is being targeted
    ({"kind": "targets", "cast": "a", "spell": "b"}, False),  # exactly one form
    ({"kind": "targets", "cast": "shock", "how": "cast"}, True),
    ({"kind": "targets", "cast": "shock", "how": "sideways"}, False),
    ({"kind": "pay", "cost": "{1}{G}", "x": "any"}, True),
    ({"kind": "pay", "cost": "{1}{G}", "x": -1}, False),
    ({"kind": "pay", "activate": {"object": "a", "index": 1}, "life": False}, True),
    ({"kind": "pay", "activate": {"object": "a", "idx": 1}}, False),
    ({"kind": "actions", "player": "alice"}, True),
    ({"kind": "actions", "players": "alice"}, False),
    ({"kind": "resolve"}, True),
    ({"kind": "resolve", "player": "alice"}, False),
    ({"kind": "order", "event": {"kind": "tap_for_mana", "object": "forest"}}, True),
    ({"kind": "order", "event": {"kind": "counters", "object": "x", "counter": "+1/+1", "amount": 2}}, True),
    ({"kind": "order", "event": {"kind": "explode", "object": "x"}}, False),
    ({"kind": "order"}, False),
    ({"kind": "could_produce", "objects": ["forest"]}, True),
    ({"kind": "available_mana"}, True),
    ({"kind": "pass"}, True),
    ({"kind": "attacks", "player": "alice"}, True),
    ({"kind": "blocks"}, True),
])
def test_schema_is_precise_per_query_kind(validator, query, valid):
    errors = list(validator.iter_errors({**BASE, "query": query}))
    assert (not errors) == valid, [e.message for e in errors]
    errors = list(validator.iter_errors({**BASE, "query": [{"kind": "actions"}, query]}))
    assert (not errors) == valid


def test_every_instance_validates_against_the_schema(validator):
    bad = []
    files = sorted((ROOT / "instances").rglob("*.yaml"))
    assert files
    for f in files:
        doc = yaml.safe_load(f.read_text(encoding="utf-8"))
        errors = list(validator.iter_errors(doc))
        if errors:
            bad.append(f"{f.relative_to(ROOT)}: {errors[0].json_path}: {errors[0].message[:200]}")
    assert not bad, "\n".join(bad)


def test_the_examples_in_situation_format_validate_and_load(validator):
    text = (DOCS / "situation-format.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```yaml\n(.*?)```", text, re.S)
    full = [yaml.safe_load(b) for b in blocks if b.startswith("format: mtgsolve/1")]
    assert full
    for doc in full:
        assert not list(validator.iter_errors(doc))
        situation_from_dict(doc)
    queries = next(yaml.safe_load(b) for b in blocks if b.startswith("query:\n  - "))
    assert not list(validator.iter_errors({**BASE, **queries}))


def test_the_getting_started_situation_answers_as_written(tmp_path):
    from mtgsolve.solver.api.runner import solve_loaded

    text = (DOCS / "getting-started.md").read_text(encoding="utf-8")
    doc = yaml.safe_load(re.search(r"Write `bolt.yaml`:\n\n```yaml\n(.*?)```", text, re.S).group(1))
    results = solve_loaded(situation_from_dict(doc, "bolt.yaml"))
    assert [r["status"] for r in results] == ["ok", "ok", "ok"]
    expect = yaml.safe_load(re.search(r"```yaml\n(query: \{kind: targets.*?)```", text, re.S).group(1))["expect"]
    assert results[1]["count"] == expect["count"]


# -- the YAML comma pitfall -----------------------------------------------------------------------------

def test_a_comma_split_card_name_says_to_quote_it():
    from mtgsolve.solver.core.errors import SituationError

    doc = yaml.safe_load("format: mtgsolve/1\nplayers: [alice]\nbattlefield:\n"
                         "  alice: [Forest, Thalia, Guardian of Thraben]\n")
    with pytest.raises(SituationError) as e:
        situation_from_dict(doc, "s.yaml")
    assert str(e.value) == ("s.yaml: battlefield.alice[1].card: unknown card 'Thalia': YAML split the card name "
                            "'Thalia, Guardian of Thraben' at its comma; quote names that contain commas: "
                            "[\"Thalia, Guardian of Thraben\"]")
    quoted = yaml.safe_load('format: mtgsolve/1\nplayers: [alice]\nbattlefield:\n'
                            '  alice: [Forest, "Thalia, Guardian of Thraben"]\n')
    assert situation_from_dict(quoted).state.find("thalia-guardian-of-thraben") is not None
    # an unknown name that is not a split one keeps its "did you mean"
    with pytest.raises(SituationError, match=r"unknown card 'Forrest' \(did you mean 'Forest'\?\)"):
        situation_from_dict({**doc, "battlefield": {"alice": ["Forrest", "Guardian of Thraben"]}}, "s.yaml")


# -- the README and links ---------------------------------------------------------------------------------

def test_readme_front_page():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert 'pip install -e ".[test]" && mtgsolve solve instances/examples/flagbearer_shock.yaml' in text
    assert "\npytest\n" in text
    assert "## Figures" in text
    for page in ["getting-started", "situation-format", "results", "rules", "guarantees", "benchmarks", "reader",
                 "extensions", "batch", "agents"]:
        assert f"(docs/{page}.md" in text, page
    assert len(text) < 8_000, "keep the README a short front page; engineering notes go to docs/"


def test_relative_links_resolve():
    bad = []
    for page in [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]:
        for target in re.findall(r"\]\(([^)]+)\)", page.read_text(encoding="utf-8")):
            if "://" in target or target.startswith("#"):
                continue
            path = target.split("#", 1)[0]
            if not (page.parent / path).exists():
                bad.append(f"{page.name}: {target}")
    assert not bad, bad
