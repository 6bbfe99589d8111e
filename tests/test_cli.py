"""The command line (contract §3): solve, check, schema; bad input is one
located line with exit code 2 and nothing half-written."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli import app

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "instances" / "examples" / "flagbearer_shock.yaml"


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "cli.py"), *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)


def test_solve_json_shape():
    res = CliRunner().invoke(app, ["solve", str(EXAMPLE), "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.output)
    assert out["file"] == str(EXAMPLE)
    assert out["name"] == "Flagbearer forces Shock's target"
    assert out["results"][0]["kind"] == "targets"


def test_check_directory_passes_and_counts():
    res = CliRunner().invoke(app, ["check", str(ROOT / "instances" / "examples")])
    assert res.exit_code == 0, res.output
    assert res.output.strip().splitlines()[-1].endswith("passed, 0 failed")


def test_check_fails_on_difference(tmp_path):
    bad = tmp_path / "wrong.yaml"
    bad.write_text(EXAMPLE.read_text().replace("count: 1", "count: 2"))
    res = CliRunner().invoke(app, ["check", str(bad)])
    assert res.exit_code == 1
    assert "FAIL" in res.output and "count" in res.output


def test_schema_is_json_schema():
    res = CliRunner().invoke(app, ["schema"])
    assert res.exit_code == 0
    schema = json.loads(res.output)
    assert "properties" in schema and "format" in schema["properties"]


BAD_INPUTS = [
    ("unknown-card.yaml", "format: mtgsolve/1\nplayers: [alice]\nbattlefield:\n  alice: [Forest, Forest, Forrest]\n",
     "battlefield.alice[2].card: unknown card 'Forrest' (did you mean 'Forest'?)"),
    ("bad-yaml.yaml", "format: mtgsolve/1\nplayers: [alice\n", None),
    ("unknown-key.yaml", "format: mtgsolve/1\nplayers: [alice]\nbattlefeld: {}\n", "battlefeld"),
    ("wrong-type.yaml", "format: mtgsolve/1\nplayers: [alice]\nbattlefield:\n  alice: [{card: Forest, tapped: maybe}]\n",
     "battlefield.alice[0].tapped"),
    ("dangling.yaml", "format: mtgsolve/1\nplayers: [alice]\nbattlefield:\n  alice: [{card: Wild Growth, attached_to: nothing}]\n",
     "battlefield.alice[0].attached_to"),
    ("bad-json.json", "{\"format\": \"mtgsolve/1\", ", None),
]


@pytest.mark.parametrize("name,text,fragment", BAD_INPUTS, ids=[b[0] for b in BAD_INPUTS])
def test_bad_input_one_line_exit_2_process(tmp_path, name, text, fragment):
    f = tmp_path / name
    f.write_text(text)
    res = run("solve", str(f), "--json")
    assert res.returncode == 2, res.stderr
    assert res.stdout == ""  # nothing half-written
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1, res.stderr
    assert lines[0].startswith(str(f) + ": ")
    assert "Traceback" not in res.stderr
    if fragment:
        assert fragment in lines[0]


def test_missing_file_exit_2(tmp_path):
    res = run("solve", str(tmp_path / "nope.yaml"))
    assert res.returncode == 2
    assert len(res.stderr.strip().splitlines()) == 1


def test_one_bad_file_among_good_prints_nothing(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("format: mtgsolve/2\nplayers: [a]\n")
    res = run("solve", str(EXAMPLE), str(bad), "--json")
    assert res.returncode == 2
    assert res.stdout == ""


def test_solve_is_byte_identical_across_processes():
    a = run("solve", str(EXAMPLE), "--json")
    b = run("solve", str(EXAMPLE), "--json")
    assert a.returncode == 0 and a.stdout == b.stdout


def _malformed_cases():
    from test_malformed import CASES
    return CASES


@pytest.mark.parametrize("case", _malformed_cases(), ids=lambda c: c.id)
def test_every_malformed_case_is_one_line_exit_2_at_the_cli(tmp_path, monkeypatch, case):
    """Issue 2: every malformed input of tests/test_malformed.py, through the
    command line: exit code 2, exactly the located line, nothing on stdout."""
    from test_malformed import write_case

    for k, v in case.env.items():
        monkeypatch.setenv(k, v)
    path = write_case(tmp_path, case)
    res = CliRunner().invoke(app, ["solve", str(path), "--json"])
    assert res.exit_code == 2
    assert res.stdout == ""
    assert res.stderr.strip() == case.expected.replace("{file}", str(path))


def _run_env(env: dict, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "cli.py"), *args], capture_output=True, text=True,
                          cwd=ROOT, env={**os.environ, **env})


@pytest.mark.parametrize("how", ["option", "env"])
def test_a_bad_card_database_is_one_located_line(tmp_path, how):
    bad = tmp_path / "cards.json"
    bad.write_text('{"x":', encoding="utf-8")
    f = str(ROOT / "instances" / "examples" / "flagbearer_shock.yaml")
    cp = _run_env({}, "--cards", str(bad), "solve", f) if how == "option" else \
        _run_env({"MTGSOLVE_CARDS": str(bad)}, "solve", f)
    assert cp.returncode == 2 and cp.stdout == ""
    assert cp.stderr.strip().splitlines() == [
        f"{bad}: cannot read this card database (MTGSOLVE_CARDS or --cards): Expecting value: line 1 column 6 (char 5)"]


def test_cards_option_loads_an_imported_database(tmp_path):
    # a tiny MTGJSON list: only the cards the situation names
    src = tmp_path / "mini.json"
    src.write_text(json.dumps([
        {"name": "Forest", "type": "Basic Land — Forest", "types": ["Land"], "subtypes": ["Forest"],
         "supertypes": ["Basic"], "text": "({T}: Add {G}.)"},
        {"name": "Test Elf", "type": "Creature — Elf", "types": ["Creature"], "subtypes": ["Elf"], "manaCost": "{G}",
         "power": "1", "toughness": "1", "text": "{T}: Add {G}{G}."}]), encoding="utf-8")
    out = tmp_path / "mini.json.gz"
    assert _run_env({}, "cards", "import", str(src), "--out", str(out)).returncode == 0
    sit = tmp_path / "s.yaml"
    sit.write_text("format: mtgsolve/1\nplayers: [alice]\nbattlefield:\n  alice: [Forest, Test Elf]\n"
                   "query: {kind: available_mana}\n", encoding="utf-8")
    cp = _run_env({}, "--cards", str(out), "solve", str(sit), "--json")
    assert cp.returncode == 0, cp.stderr
    (res,) = json.loads(cp.stdout)["results"]
    assert res["status"] == "ok" and res["bundles"] == ["{G}{G}{G}"]
    # without it, the shipped database has no "Test Elf": a located error naming the card
    cp = _run_env({}, "solve", str(sit))
    assert cp.returncode == 2 and "Test Elf" in cp.stderr
