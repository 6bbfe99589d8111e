"""The MCP server (solver.apps.mcp_server), exercised in-process with the official SDK's
client (``mcp.Client`` connected to the server object), plus one stdio round trip."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
import yaml

pytest.importorskip("mcp", reason="the optional extra 'mcp' is not installed (pip install 'mtgsolve[mcp]')")

import anyio  # noqa: E402  (after the skip: anyio comes with the SDK)
from mcp import Client, StdioServerParameters  # noqa: E402

from mtgsolve.solver.apps.mcp_server import build_server  # noqa: E402
from mtgsolve.solver.queries import answer  # noqa: E402
from mtgsolve.solver.io.load import situation_from_dict  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
QUERY_TOOLS = ["could_produce", "available_mana", "pay", "targets", "order", "actions", "resolve"]

LANDS = {"format": "mtgsolve/1", "players": ["alice", "bob"],
         "turn": {"number": 3, "active": "alice", "step": "main1"},
         "battlefield": {"alice": ["Forest", "Forest"], "bob": ["Grizzly Bears"]},
         "hand": {"alice": ["Forest", "Grizzly Bears"]}}


_SERVER = None


def server():
    """One server for the tests that need no --allow-paths (building one takes a while)."""
    global _SERVER
    if _SERVER is None:
        _SERVER = build_server()
    return _SERVER


def call(server, tool: str, args: dict):
    async def go():
        async with Client(server) as c:
            return await c.call_tool(tool, args)
    return anyio.run(go)


def tools(server):
    async def go():
        async with Client(server) as c:
            return (await c.list_tools()).tools
    return anyio.run(go)


def _refs(node, out):
    if isinstance(node, dict):
        if "$ref" in node:
            out.add(node["$ref"])
        for v in node.values():
            _refs(v, out)
    elif isinstance(node, list):
        for v in node:
            _refs(v, out)
    return out


def test_tools_listed_with_typed_input_and_output():
    from mtgsolve.solver.io.load import SCHEMA_ID

    listed = {t.name: t for t in tools(server())}
    assert set(QUERY_TOOLS + ["solve", "check", "situation_schema"]) <= set(listed)
    for name, t in listed.items():
        schema = t.input_schema
        assert t.description, name
        assert t.output_schema is not None, name
        if "situation" in schema["properties"]:
            # the one shared situation schema, referred to by its $id (not repeated in every tool)
            assert schema["properties"]["situation"]["anyOf"][0] == {"$ref": SCHEMA_ID}, name
        for r in _refs(schema, set()):  # every other reference resolves inside the tool's schema
            assert r == SCHEMA_ID or (r.startswith("#/$defs/") and r.split("/")[-1] in schema["$defs"]), (name, r)


def test_tool_list_is_small():
    """Issue 19: the whole tool list (what a client loads into a model's context) stays under 40 KB."""
    listed = [t.model_dump(mode="json", by_alias=True, exclude_none=True) for t in tools(server())]
    size = len(json.dumps(listed).encode("utf-8"))
    assert size < 40_000, size


def test_the_shared_schema_is_a_resource_and_a_tool():
    from mtgsolve.solver.io.load import SCHEMA_ID, situation_json_schema

    async def go():
        async with Client(server()) as c:
            res = await c.list_resources()
            text = (await c.read_resource("mtgsolve://schema/situation")).contents[0].text
            return res, text
    res, text = anyio.run(go)
    assert "mtgsolve://schema/situation" in {str(r.uri) for r in res.resources}
    assert json.loads(text) == situation_json_schema() and json.loads(text)["$id"] == SCHEMA_ID
    r = call(server(), "situation_schema", {})
    assert not r.is_error and r.structured_content["$id"] == SCHEMA_ID


def _validator(tool):
    jsonschema = pytest.importorskip("jsonschema")
    referencing = pytest.importorskip("referencing")
    from mtgsolve.solver.io.load import SCHEMA_ID, situation_json_schema

    registry = referencing.Registry().with_resource(
        SCHEMA_ID, referencing.Resource.from_contents(situation_json_schema()))
    return jsonschema.Draft202012Validator(tool.input_schema, registry=registry)


def test_input_schema_accepts_instances():
    (t,) = [t for t in tools(server()) if t.name == "solve"]
    v = _validator(t)
    doc = yaml.safe_load((ROOT / "instances" / "examples" / "flagbearer_shock.yaml").read_text())
    assert not list(v.iter_errors({"situation": doc}))
    assert list(v.iter_errors({"situation": {**doc, "bogus": 1}}))


def test_actions_tool_gives_the_contract_result():
    r = call(server(), "actions", {"situation": LANDS})
    assert not r.is_error
    expected = answer(situation_from_dict(LANDS).state, {"kind": "actions"})
    assert r.structured_content == json.loads(json.dumps(expected))
    assert json.loads(r.content[0].text) == r.structured_content


def test_query_parameters_pass_through():
    r = call(server(), "actions", {"situation": LANDS, "player": "bob"})
    assert r.structured_content == {"kind": "actions", "status": "ok", "count": 0, "actions": []}
    r = call(server(), "actions", {"situation": LANDS, "max_results": 1})
    assert r.structured_content["status"] == "truncated" and r.structured_content["count"] == 3
    assert len(r.structured_content["actions"]) == 1
    r = call(server(), "pay", {"situation": LANDS, "cast": "grizzly-bears"})
    assert not r.is_error and r.structured_content["kind"] == "pay"


def test_bad_situation_is_a_located_tool_error():
    bad = {**LANDS, "hand": {"alice": ["Forrest"]}}
    r = call(server(), "actions", {"situation": bad})
    assert r.is_error
    assert "situation: hand.alice[0].card: unknown card 'Forrest' (did you mean 'Forest'?)" in r.content[0].text
    assert r.structured_content is None


def test_bad_query_is_a_located_tool_error():
    r = call(server(), "actions", {"situation": LANDS, "player": "carol"})
    assert r.is_error and "situation: query.player: unknown player 'carol'" in r.content[0].text
    r = call(server(), "pay", {"situation": LANDS, "cast": "nothing-here"})
    assert r.is_error and "query.cast" in r.content[0].text


def test_arguments_are_validated():
    r = call(server(), "actions", {"situation": LANDS, "max_results": "many"})
    assert r.is_error
    r = call(server(), "actions", {})
    assert r.is_error and "exactly one of 'situation'" in r.content[0].text


def test_paths_only_when_allowed(tmp_path):
    inside = tmp_path / "allowed"
    inside.mkdir()
    (inside / "s.yaml").write_text(yaml.safe_dump(LANDS))
    (tmp_path / "secret.yaml").write_text(yaml.safe_dump(LANDS))
    (inside / "link.yaml").symlink_to(tmp_path / "secret.yaml")
    r = call(server(), "actions", {"path": str(inside / "s.yaml")})
    assert r.is_error and "--allow-paths" in r.content[0].text
    srv = build_server(inside)
    ok = call(srv, "actions", {"path": "s.yaml"})
    assert not ok.is_error and ok.structured_content["count"] == 3
    ok2 = call(srv, "actions", {"path": str(inside / "s.yaml")})
    assert ok2.structured_content == ok.structured_content
    for p in ["../secret.yaml", str(tmp_path / "secret.yaml"), "link.yaml", "/etc/passwd"]:
        r = call(srv, "actions", {"path": p})
        assert r.is_error and "outside the allowed directory" in r.content[0].text, p
    r = call(srv, "actions", {"path": "missing.yaml"})
    assert r.is_error and "cannot read the file" in r.content[0].text
    with pytest.raises(ValueError):
        build_server(tmp_path / "not-a-dir")


def test_solve_and_check_tools():
    doc = yaml.safe_load((ROOT / "instances" / "actions" / "timing_one_land_per_turn.yaml").read_text())
    r = call(server(), "solve", {"situation": doc})
    assert not r.is_error
    assert r.structured_content["name"] == doc["name"]
    assert r.structured_content["results"][0]["kind"] == "actions"
    c = call(server(), "check", {"situation": doc})
    assert c.structured_content["ok"] is True
    wrong = {**doc, "expect": {"count": 99}}
    c = call(server(), "check", {"situation": wrong})
    assert c.structured_content["ok"] is False and "count" in c.structured_content["message"]
    c = call(server(), "check", {"situation": LANDS})
    assert c.is_error and "no 'expect'" in c.content[0].text


def test_agent_tools_legal_and_apply():
    r = call(server(), "legal_actions", {"situation": LANDS})
    assert r.structured_content["actions"][:2] == ["cast grizzly-bears-2 paying forest, forest-2", "pass"]
    r = call(server(), "apply_action", {"situation": LANDS, "action": "play forest-3"})
    assert r.structured_content["action"] == "play forest-3"
    after = r.structured_content["situation"]
    assert after["turn"]["lands_played"] == 1
    r2 = call(server(), "actions", {"situation": after})
    assert {"kind": "play_land", "object": "forest-3"} not in r2.structured_content["actions"]
    bad = call(server(), "apply_action", {"situation": LANDS, "action": "play grizzly-bears-2"})
    assert bad.is_error and "not a land card" in bad.content[0].text


def test_stdio_server_round_trip():
    """`mtgsolve mcp` over stdio, as an MCP client configuration would start it."""
    params = StdioServerParameters(command=sys.executable, args=[str(ROOT / "cli.py"), "mcp"], cwd=str(ROOT),
                                   env={"PYTHONPATH": str(ROOT)})

    async def go():
        async with Client(params, read_timeout_seconds=120) as c:
            names = {t.name for t in (await c.list_tools()).tools}
            res = await c.call_tool("actions", {"situation": LANDS})
            return names, res
    names, res = anyio.run(go)
    assert "actions" in names
    assert res.structured_content["count"] == 3


# -- bad input: every one a one-line tool error (issue 19) ---------------------------------------------

def _one_line_error(r, fragment):
    assert r.is_error
    text = r.content[0].text
    assert "\n" not in text and "Traceback" not in text, text
    assert fragment in text, text


def test_bad_inputs_are_one_line_tool_errors(tmp_path, caplog):
    import logging

    caplog.set_level(logging.DEBUG)
    allowed = tmp_path / "allowed"
    allowed.mkdir()
    (allowed / "dir.yaml").mkdir()
    (allowed / "latin1.yaml").write_bytes(b"format: mtgsolve/1\nplayers: [\xff]\n")
    (allowed / "bad.yaml").write_text("format: mtgsolve/1\nplayers: [alice]\nhand: {alice: [Forrest]}\n")
    srv = build_server(allowed)
    _one_line_error(call(srv, "solve", {"path": "s\x00.yaml"}), "NUL byte")
    _one_line_error(call(srv, "actions", {"path": "x\x00"}), "NUL byte")
    _one_line_error(call(srv, "solve", {"path": "dir.yaml"}), "cannot read the file: it is a directory")
    _one_line_error(call(srv, "solve", {"path": "latin1.yaml"}), "not UTF-8 text")
    _one_line_error(call(srv, "solve", {"path": "bad.yaml"}), "hand.alice[0].card: unknown card 'Forrest'")
    _one_line_error(call(srv, "pay", {"situation": {"format": "mtgsolve/1"}}), "players")
    _one_line_error(call(srv, "order", {"situation": LANDS, "event": {"kind": "nope"}}), "query.event")
    assert not [rec for rec in caplog.records if rec.exc_info], [rec.getMessage() for rec in caplog.records]


def test_unexpected_failure_is_one_line(monkeypatch):
    import mtgsolve.solver.queries as q
    def boom(*a, **k):
        raise RuntimeError("kaboom\nsecond line")
    monkeypatch.setattr(q, "answer", boom)
    _one_line_error(call(build_server(), "actions", {"situation": LANDS}), "internal error: RuntimeError: kaboom second line")


def test_bad_server_flag_is_one_line_exit_2(tmp_path):
    import subprocess

    cp = subprocess.run([sys.executable, str(ROOT / "cli.py"), "mcp", "--allow-paths", str(tmp_path / "nonexistent")],
                        capture_output=True, text=True, cwd=ROOT, timeout=60, stdin=subprocess.DEVNULL)
    assert cp.returncode == 2
    assert cp.stderr.strip().splitlines() == [f"--allow-paths: {tmp_path / 'nonexistent'} is not a directory"]
    assert cp.stdout == ""
