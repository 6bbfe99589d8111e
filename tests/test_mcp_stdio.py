"""The MCP server through a real MCP client over stdio (issue 28 item 1): every tool, every
status it can answer — ``ok``, ``truncated``, ``unsupported``, ``error`` — plus a tool error
(bad input) for each, compared field for field with ``mtgsolve solve --json`` on the same
situation written as a file.

One server (``mtgsolve mcp --allow-paths DIR``, its standard error kept in a file) answers every
call in one session; the tests then read the answers. The situations are small and built here:
an unread effect in force (Veil of Summer, contract §2.0) makes a question ``unsupported``;
``max_results: 1`` cuts a listing (``truncated``); passing in the untap step (CR 502.4) and a
spell on the stack with more target lists than its text has are ``error`` answers.
``could_produce`` has no listing to cut, and no query but ``pass`` and ``resolve`` has an
``error`` status (their bad input is a tool error, tested for every tool)."""
from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

pytest.importorskip("mcp", reason="the optional extra 'mcp' is not installed (pip install 'mtgsolve[mcp]')")

import anyio  # noqa: E402  (after the skip: anyio comes with the SDK)
from mcp import Client, StdioServerParameters  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent

BASE = {"format": "mtgsolve/1", "players": ["alice", "bob"], "turn": {"number": 3, "active": "alice", "step": "main1"}}
LANDS = {**BASE, "battlefield": {"alice": ["Forest", "Forest", "Mountain"], "bob": ["Grizzly Bears"]},
         "hand": {"alice": ["Forest", "Grizzly Bears", "Shock"]}}
VEIL = [{"card": "Veil of Summer", "controller": "bob"}]   # an unread effect in force: affects everything
UNREAD = {**LANDS, "effects": VEIL}
COMBAT = {**BASE, "turn": {"number": 3, "active": "alice", "step": "declare_attackers"},
          "battlefield": {"alice": ["Grizzly Bears", "Grizzly Bears"], "bob": ["Grizzly Bears"]}}
BLOCK = {**BASE, "turn": {"number": 3, "active": "alice", "step": "declare_blockers", "priority": "bob"},
         "battlefield": {"alice": [{"card": "Grizzly Bears", "attacking": "bob"}], "bob": ["Grizzly Bears"]}}
SHOCK_ON_STACK = [{"card": "Shock", "controller": "alice", "targets": [["bob"]]}]
DIVINATION = {**BASE, "library": {"alice": ["Island", "Forest", "Mountain"]}, "shuffled": {"alice": True},
              "stack": [{"card": "Divination", "controller": "alice"}]}
BITTERBLOSSOM = {**BASE, "turn": {"number": 3, "active": "alice", "step": "end", "priority": "bob",
                                  "passed": ["alice"]}, "battlefield": {"bob": ["Dark Confidant"]}}
TOMB = {**BASE, "battlefield": {"alice": ["Ancient Tomb"], "bob": ["Damping Sphere"]}}
CONFLUENCE = {**BASE, "battlefield": {"alice": ["Mana Confluence"]}}
BAD_CARD = {**LANDS, "hand": {"alice": ["Forrest"]}}
TAP_TOMB = {"kind": "tap_for_mana", "object": "ancient-tomb"}

# (case id, tool, situation, tool arguments besides the situation, the status answered)
# Each query case is also a file answered by `mtgsolve solve --json` (with --max-results 1 when
# the arguments say max_results: 1) to compare with.
QUERY_CASES = [
    ("could_produce-ok", "could_produce", LANDS, {}, "ok"),
    ("could_produce-unsupported", "could_produce", UNREAD, {}, "unsupported"),
    ("available_mana-ok", "available_mana", LANDS, {}, "ok"),
    ("available_mana-truncated", "available_mana", CONFLUENCE, {"max_results": 1}, "truncated"),
    ("available_mana-unsupported", "available_mana", UNREAD, {}, "unsupported"),
    ("pay-ok", "pay", LANDS, {"cast": "grizzly-bears-2"}, "ok"),
    ("pay-truncated", "pay", LANDS, {"cast": "grizzly-bears-2", "max_results": 1}, "truncated"),
    ("pay-unsupported", "pay", UNREAD, {"cast": "grizzly-bears-2"}, "unsupported"),
    ("targets-ok", "targets", LANDS, {"cast": "shock"}, "ok"),
    ("targets-truncated", "targets", LANDS, {"cast": "shock", "max_results": 1}, "truncated"),
    ("targets-unsupported", "targets", UNREAD, {"cast": "shock"}, "unsupported"),
    ("order-ok", "order", {**BASE, "battlefield": {"alice": ["Ancient Tomb"]}}, {"event": TAP_TOMB}, "ok"),
    ("order-unsupported", "order", TOMB, {"event": TAP_TOMB}, "unsupported"),
    ("actions-ok", "actions", LANDS, {}, "ok"),
    ("actions-truncated", "actions", LANDS, {"max_results": 1}, "truncated"),
    ("actions-unsupported", "actions", UNREAD, {}, "unsupported"),
    ("resolve-ok", "resolve", {**LANDS, "stack": SHOCK_ON_STACK}, {}, "ok"),
    ("resolve-truncated", "resolve", DIVINATION, {"max_results": 1}, "truncated"),
    ("resolve-unsupported", "resolve", {**UNREAD, "stack": SHOCK_ON_STACK}, {}, "unsupported"),
    ("resolve-error", "resolve", {**LANDS, "stack": [{"card": "Shock", "controller": "alice",
                                                     "targets": [["bob"], ["alice"]]}]}, {}, "error"),
    ("pass-ok", "pass", LANDS, {}, "ok"),
    ("pass-unsupported", "pass", BITTERBLOSSOM, {}, "unsupported"),
    ("pass-error", "pass", {**LANDS, "turn": {"number": 3, "active": "alice", "step": "untap"}}, {}, "error"),
    ("attacks-ok", "attacks", COMBAT, {}, "ok"),
    ("attacks-truncated", "attacks", COMBAT, {"max_results": 1}, "truncated"),
    ("attacks-unsupported", "attacks", {**COMBAT, "effects": VEIL}, {}, "unsupported"),
    ("blocks-ok", "blocks", BLOCK, {}, "ok"),
    ("blocks-truncated", "blocks", BLOCK, {"max_results": 1}, "truncated"),
    ("blocks-unsupported", "blocks", {**BLOCK, "effects": VEIL}, {}, "unsupported"),
]

# (case id, tool, arguments, a fragment of the one-line tool error)
ERROR_CASES = [
    ("could_produce", {"situation": LANDS, "objects": ["nope"]}, "query.objects[0]: 'nope': no such object"),
    ("available_mana", {"situation": LANDS, "player": "carol"}, "query.player: unknown player 'carol'"),
    ("pay", {"situation": LANDS, "cast": "nothing-here"}, "query.cast"),
    ("targets", {"situation": LANDS, "cast": "nothing-here"}, "query.cast"),
    ("order", {"situation": LANDS, "event": {"kind": "nope"}}, "query.event"),
    ("actions", {"situation": LANDS, "max_results": "many"},
     "max_results: Input should be a valid integer"),
    ("resolve", {"situation": LANDS}, "nothing to resolve: the stack is empty"),
    ("pass", {"situation": BAD_CARD}, "hand.alice[0].card: unknown card 'Forrest' (did you mean 'Forest'?)"),
    ("attacks", {"situation": COMBAT, "player": "carol"}, "'carol' is not a player"),
    ("blocks", {"situation": BLOCK, "timeout": -1}, "timeout: Input should be greater than 0"),
    ("solve", {"path": "missing.yaml"}, "cannot read the file"),
    ("check", {"situation": LANDS}, "no 'expect'"),
    ("legal_actions", {"situation": LANDS, "path": "x.yaml"}, "exactly one of 'situation'"),
    ("apply_action", {"situation": LANDS, "action": "play grizzly-bears-2"}, "not a land card"),
]   # situation_schema takes no argument: nothing to get wrong

SOLVE_DOC = {**LANDS, "name": "several statuses",
             "query": [{"kind": "actions"}, {"kind": "pass"}, {"kind": "targets", "cast": "shock"}]}
CHECK_DOC = {**LANDS, "name": "checked", "query": {"kind": "targets", "cast": "shock"}, "expect": {"count": 3}}

OTHER_CALLS = {   # case id → (tool, arguments)
    "solve-path": ("solve", {"path": "solve/several.yaml"}),
    "solve-unsupported": ("solve", {"situation": {**UNREAD, "query": {"kind": "actions"}}}),
    "check-ok": ("check", {"situation": CHECK_DOC}),
    "check-differs": ("check", {"situation": {**CHECK_DOC, "expect": {"count": 99}}}),
    "legal_actions-ok": ("legal_actions", {"situation": LANDS}),
    "legal_actions-truncated": ("legal_actions", {"situation": LANDS, "max_results": 1}),
    "legal_actions-unsupported": ("legal_actions", {"situation": UNREAD}),
    "apply_action-ok": ("apply_action", {"situation": LANDS, "action": "play forest-3"}),
    "apply_action-unsupported": ("apply_action", {"situation": UNREAD, "action": "play forest-3"}),
    "apply_action-refused-on-apply": ("apply_action", {"situation": BITTERBLOSSOM, "action": "pass"}),
    "situation_schema-ok": ("situation_schema", {}),
}


def _write(path: Path, doc: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(yaml.safe_dump(doc, sort_keys=False))


def _query(tool: str, args: dict) -> dict:
    return {"kind": tool, **{k: v for k, v in args.items() if k != "max_results"}}


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """Every call answered by one `mtgsolve mcp` over stdio; and the CLI's JSON for each query case."""
    root = tmp_path_factory.mktemp("mcp")
    for case, tool, sit, args, _ in QUERY_CASES:
        sub = "cut" if args.get("max_results") == 1 else "full"
        _write(root / sub / f"{case}.yaml", {**sit, "query": _query(tool, args)})
    _write(root / "solve" / "several.yaml", SOLVE_DOC)
    cli = [sys.executable, str(ROOT / "cli.py"), "solve", "--json"]
    cli_json: dict[str, dict] = {}
    for sub, extra in (("full", []), ("cut", ["--max-results", "1"])):
        cp = subprocess.run(cli + extra + [str(root / sub)], capture_output=True, text=True, cwd=ROOT,
                            timeout=600, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
        assert cp.returncode in (0, 1), cp.stderr
        for line in cp.stdout.splitlines():
            d = json.loads(line)
            cli_json[Path(d["file"]).stem] = d
    cp = subprocess.run(cli + [str(root / "solve")], capture_output=True, text=True, cwd=ROOT, timeout=600,
                        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    cli_json["several"] = json.loads(cp.stdout)

    calls: dict[str, tuple[str, dict]] = {}
    for i, (case, tool, sit, args, _) in enumerate(QUERY_CASES):
        sub = "cut" if args.get("max_results") == 1 else "full"
        where = {"path": f"{sub}/{case}.yaml"} if i % 2 else {"situation": sit}   # both ways of giving it
        calls[case] = (tool, {**where, **args})
    for tool, args, _ in ERROR_CASES:
        calls[f"{tool}-tool-error"] = (tool, args)
    calls.update(OTHER_CALLS)

    log = root / "server-stderr.txt"
    cmd = f"exec {shlex.quote(sys.executable)} {shlex.quote(str(ROOT / 'cli.py'))} mcp --allow-paths " \
          f"{shlex.quote(str(root))} 2>{shlex.quote(str(log))}"
    params = StdioServerParameters(command="/bin/sh", args=["-c", cmd], cwd=str(ROOT), env={"PYTHONPATH": str(ROOT)})

    async def go():
        out = {}
        async with Client(params, read_timeout_seconds=300) as c:
            out["__tools__"] = {t.name for t in (await c.list_tools()).tools}
            for case, (tool, args) in calls.items():
                out[case] = await c.call_tool(tool, args)
        return out

    answers = anyio.run(go)
    return {"answers": answers, "cli": cli_json, "stderr": log.read_text()}


def test_every_tool_is_served(served):
    tools = {t for _, t, *_ in QUERY_CASES} | {t for t, *_ in ERROR_CASES} | {t for t, _ in OTHER_CALLS.values()}
    games = {"start_game", "observe_game", "game_actions", "play_action", "game_log"}   # tests/test_mcp_game.py
    assert tools | games == served["answers"]["__tools__"]


@pytest.mark.parametrize("case,tool,sit,args,status", QUERY_CASES, ids=[c[0] for c in QUERY_CASES])
def test_query_tool_answers_like_the_cli(served, case, tool, sit, args, status):
    r = served["answers"][case]
    assert not r.is_error, r.content[0].text
    assert r.structured_content["status"] == status, r.structured_content
    assert r.structured_content == served["cli"][case]["results"][0]
    assert json.loads(r.content[0].text) == r.structured_content
    if status == "unsupported":
        assert r.structured_content["reason"] and isinstance(r.structured_content["unsupported"], list)
    if status == "error":
        assert r.structured_content["error"]


@pytest.mark.parametrize("tool,args,fragment", ERROR_CASES, ids=[c[0] for c in ERROR_CASES])
def test_tool_errors_are_one_line(served, tool, args, fragment):
    r = served["answers"][f"{tool}-tool-error"]
    assert r.is_error and r.structured_content is None
    (content,) = r.content
    assert "\n" not in content.text and "Traceback" not in content.text, content.text
    assert fragment in content.text, content.text


def test_solve_and_check_answer_every_status(served):
    a = served["answers"]
    solved = a["solve-path"].structured_content
    cli = served["cli"]["several"]
    assert solved["name"] == cli["name"] and solved["results"] == cli["results"]
    assert [r["status"] for r in a["solve-unsupported"].structured_content["results"]] == ["unsupported"]
    assert a["check-ok"].structured_content["ok"] is True
    differs = a["check-differs"].structured_content
    assert differs["ok"] is False and "query.count: expected 99, got 3" in differs["message"]


def test_agent_tools_answer_every_status(served):
    a = served["answers"]
    ok = a["legal_actions-ok"].structured_content
    assert ok["status"] == "ok" and ok["count"] == len(ok["actions"]) and not ok["truncated"]
    cut = a["legal_actions-truncated"].structured_content
    assert cut["status"] == "truncated" and cut["truncated"] and cut["count"] == ok["count"]
    assert cut["actions"] == ok["actions"][:1]
    refused = a["legal_actions-unsupported"].structured_content
    assert refused["status"] == "unsupported" and refused["unsupported"][0]["object"] == "Veil of Summer"
    assert "\n" not in refused["reason"]
    applied = a["apply_action-ok"].structured_content
    assert applied["status"] == "ok" and applied["situation"]["turn"]["lands_played"] == 1
    for case, blocker in (("apply_action-unsupported", "Veil of Summer"),   # refused choosing the action
                          ("apply_action-refused-on-apply", "dark-confidant")):   # refused applying it
        assert not a[case].is_error, a[case].content[0].text
        refused = a[case].structured_content
        assert refused["status"] == "unsupported" and "situation" not in refused and refused["reason"]
        assert [p["object"] for p in refused["unsupported"]] == [blocker]
    assert a["situation_schema-ok"].structured_content["$id"]


def test_the_server_logs_no_traceback(served):
    assert "Traceback" not in served["stderr"], served["stderr"][-3000:]


def test_every_instance_result_fits_its_tool_output_schema():
    """Every result `mtgsolve solve` gives over instances/ (every status and field a query
    answers today) is accepted by the output model of the tool of its kind, so no honest answer
    becomes "Error executing tool" (the bug of issue 28: ``unsupported`` was not a status)."""
    from mtgsolve.solver.api.runner import situation_files, solve_file
    from mtgsolve.solver.apps.mcp_server import build_server

    models = {t.name: t.fn_metadata.output_model for t in build_server()._tool_manager.list_tools()}
    seen = set()
    for f in situation_files([str(ROOT / "instances")]):
        for res in solve_file(f)["results"]:
            models[res["kind"]].model_validate(res)
            seen.add((res["kind"], res["status"]))
    assert {s for _, s in seen} >= {"ok", "truncated", "unsupported"}, seen
