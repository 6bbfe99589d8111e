"""The command line (contract §3): solve, check, schema; bad input is one
located line with exit code 2 and nothing half-written."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from mtgsolve.cli import app

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
    ("known-top-unshuffled.yaml", "format: mtgsolve/1\nplayers: [alice]\nlibrary:\n  alice: [Forest]\n"
     "known_top: {alice: 1}\n", "known_top.alice: alice's library is not marked shuffled"),
    ("known-top-too-many.yaml", "format: mtgsolve/1\nplayers: [alice]\nlibrary:\n  alice: [Forest]\n"
     "shuffled: {alice: true}\nknown_top: {alice: 2}\n", "known_top.alice: expected 1 to 1"),
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
    expected = case.expected
    if case.id == "directory":  # solve DIR reads every situation file below; this one has none
        expected = "{file}: no situation files (.yaml, .yml, .json) in this directory"
    assert res.stderr.strip() == expected.replace("{file}", str(path))


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


# -- issue 19: adoption (exit codes, inputs, --version, --help, lazy start-up, --cards adds) ------------

def test_version_matches_the_installed_distribution():
    from importlib.metadata import version

    cp = run("--version")
    assert cp.returncode == 0 and cp.stdout.strip() == f"mtgsolve {version('mtgsolve')}"


def test_cards_option_adds_to_the_builtin_database(tmp_path):
    """--cards adds cards: built-in cards stay known, and the user's card wins on a name clash."""
    db = tmp_path / "mine.json"
    db.write_text(json.dumps([
        {"name": "Test Elf", "type": "Creature — Elf", "types": ["Creature"], "subtypes": ["Elf"], "manaCost": "{G}",
         "power": "1", "toughness": "1", "text": "{T}: Add {G}{G}."},
        {"name": "Llanowar Elves", "type": "Creature — Elf Druid", "types": ["Creature"], "manaCost": "{G}",
         "subtypes": ["Elf", "Druid"], "power": "1", "toughness": "1",
         "text": "{T}: Add {R}{R}."}]), encoding="utf-8")  # a clash: these Llanowar Elves make {R}{R}
    sit = tmp_path / "s.yaml"
    sit.write_text("format: mtgsolve/1\nplayers: [alice]\nbattlefield:\n  alice: [Forest, Test Elf, Llanowar Elves, "
                   "Mountain]\nquery: {kind: available_mana}\n", encoding="utf-8")
    cp = _run_env({}, "--cards", str(db), "solve", str(sit), "--json")
    assert cp.returncode == 0, cp.stderr
    (res,) = json.loads(cp.stdout)["results"]
    assert res["bundles"] == ["{R}{R}{R}{G}{G}{G}"]  # Forest, Test Elf {G}{G}, the user's Elves {R}{R}, Mountain


def _error_result(*args, **kwargs):
    return [{"kind": "actions", "status": "error", "error": "something failed"}]


@pytest.mark.parametrize("as_json", [False, True])
def test_exit_1_when_a_query_answers_error(monkeypatch, as_json):
    import mtgsolve.solver.api.runner
    from mtgsolve import solver  # noqa: E402
    monkeypatch.setattr(solver.api.runner, "solve_loaded", _error_result)
    res = CliRunner().invoke(app, ["solve", str(EXAMPLE)] + (["--json"] if as_json else []))
    assert res.exit_code == 1
    assert "error" in res.stdout  # the answers are still printed


def test_exit_codes_of_check(tmp_path):
    assert CliRunner().invoke(app, ["check", str(EXAMPLE)]).exit_code == 0
    bad = tmp_path / "wrong.yaml"
    bad.write_text(EXAMPLE.read_text().replace("count: 1", "count: 2"))
    assert CliRunner().invoke(app, ["check", str(bad)]).exit_code == 1
    missing = run("check", str(tmp_path / "missing.yaml"))
    assert missing.returncode == 2 and "cannot read the file: no such file" in missing.stdout
    both = CliRunner().invoke(app, ["check", str(bad), str(tmp_path / "missing.yaml")])
    assert both.exit_code == 2  # bad input wins over a difference
    empty = tmp_path / "empty"
    empty.mkdir()
    res = run("check", str(empty))
    assert res.returncode == 2 and res.stderr.strip() == f"{empty}: no situation files (.yaml, .yml, .json) in this directory"


def test_solve_a_directory_reads_every_file_below_sorted(tmp_path):
    d = tmp_path / "dir"
    (d / "sub").mkdir(parents=True)
    text = EXAMPLE.read_text()
    for name in ["b.yaml", "a.yml", "sub/c.yaml"]:
        (d / name).write_text(text)
    (d / "c.json").write_text(json.dumps(yaml.safe_load(text)))
    (d / "notes.txt").write_text("not a situation")
    res = CliRunner().invoke(app, ["solve", str(d), "--json"])
    assert res.exit_code == 0, res.output
    files = [json.loads(line)["file"] for line in res.stdout.splitlines()]
    assert files == [str(d / n) for n in ["a.yml", "b.yaml", "c.json", "sub/c.yaml"]]


@pytest.mark.parametrize("fmt", ["yaml", "json"])
def test_solve_reads_standard_input(fmt):
    text = EXAMPLE.read_text()
    if fmt == "json":
        text = json.dumps(yaml.safe_load(text))
    cp = subprocess.run([sys.executable, str(ROOT / "cli.py"), "solve", "-", "--json"], input=text,
                        capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert cp.returncode == 0, cp.stderr
    out = json.loads(cp.stdout)
    assert out["file"] == "<stdin>" and out["results"][0]["choices"] == [[["coalition-honor-guard"]]]


def test_bad_standard_input_is_one_located_line():
    cp = subprocess.run([sys.executable, str(ROOT / "cli.py"), "solve", "-"], capture_output=True, text=True,
                        input="format: mtgsolve/1\nplayers: [alice]\nhand: {alice: [Forrest]}\n", cwd=ROOT, timeout=120)
    assert cp.returncode == 2 and cp.stdout == ""
    assert cp.stderr.strip() == "<stdin>: hand.alice[0].card: unknown card 'Forrest' (did you mean 'Forest'?)"


def test_batch_refuses_to_overwrite(tmp_path):
    out = tmp_path / "out.jsonl"
    out.write_text('{"file": "x", "results": []}\n')
    res = run("batch", str(EXAMPLE), "--out", str(out))
    assert res.returncode == 2
    assert res.stderr.strip().splitlines() == [
        f"{out}: the output file exists; add --resume to continue it or --force to overwrite it"]
    assert out.read_text() == '{"file": "x", "results": []}\n'  # untouched
    assert CliRunner().invoke(app, ["batch", str(EXAMPLE), "--out", str(out), "--force"]).exit_code == 0
    assert [json.loads(x)["file"] for x in out.read_text().splitlines()] == [str(EXAMPLE)]
    assert CliRunner().invoke(app, ["batch", str(EXAMPLE), "--out", str(out), "--resume"]).exit_code == 0
    assert run("batch", str(EXAMPLE), "--out", str(out), "--resume", "--force").returncode == 2
    assert run("batch", str(EXAMPLE), "--out", str(out), "--force", "--backend", "spark").returncode == 2


HELP = [[], ["solve"], ["check"], ["batch"], ["mcp"], ["schema"], ["cards"], ["cards", "show"], ["cards", "import"],
        ["cards", "coverage"]]


@pytest.mark.parametrize("args", HELP, ids=lambda a: " ".join(a) or "main")
def test_help_everywhere_without_side_effects(tmp_path, args):
    cp = subprocess.run([sys.executable, str(ROOT / "cli.py"), *args, "--help"], capture_output=True, text=True,
                        cwd=tmp_path, timeout=60, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert cp.returncode == 0, cp.stderr
    assert "Usage" in cp.stdout
    assert list(tmp_path.iterdir()) == []  # nothing written (cards import's default --out included)


PROBE = """
import sys
sys.argv = ["mtgsolve", *{args!r}]
import mtgsolve.cli as cli
try:
    cli.app()
except SystemExit as e:
    code = e.code
heavy = sorted({{m.split(".")[0] for m in sys.modules}} & {{"ortools", "numpy", "pandas", "mcp", "models"}})
print("HEAVY", heavy, file=sys.stderr)
"""


@pytest.mark.parametrize("args", [["--help"], ["--version"], ["schema"], ["cards", "show", "Forest"],
                                  ["solve", "--help"]], ids=lambda a: " ".join(a))
def test_start_up_imports_nothing_heavy(args):
    """Issue 16/19: the CLI imports lazily; these commands never load CP-SAT, numpy, pandas or MCP."""
    cp = subprocess.run([sys.executable, "-c", PROBE.format(args=args)], capture_output=True, text=True, cwd=ROOT,
                        timeout=60)
    assert "HEAVY []" in cp.stderr, cp.stderr[-2000:]


def test_benchmarks_help_starts_nothing():
    cp = subprocess.run([sys.executable, "-m", "benchmarks", "--help"], capture_output=True, text=True, cwd=ROOT,
                        timeout=60)
    assert cp.returncode == 0 and "usage: python -m benchmarks" in cp.stdout
    assert "##" not in cp.stdout
    cp = subprocess.run([sys.executable, "-m", "benchmarks", "no-such-bench"], capture_output=True, text=True,
                        cwd=ROOT, timeout=60)
    assert cp.returncode == 2 and "unknown benchmark" in cp.stderr


def test_mcp_bad_flag_is_one_line_exit_2(tmp_path):
    cp = run("mcp", "--allow-paths", str(tmp_path / "nonexistent"))
    assert cp.returncode == 2 and cp.stdout == ""
    assert cp.stderr.strip().splitlines() == [f"--allow-paths: {tmp_path / 'nonexistent'} is not a directory"]


@pytest.mark.parametrize("args", [
    ["solve", str(EXAMPLE), "--json"],
    ["solve", str(EXAMPLE)],
    ["solve", "--max-results", "0", str(EXAMPLE), "--timeout=30", "--json"],
    ["solve", str(ROOT / "instances" / "examples")],
    ["solve", "nope.yaml"],
])
def test_fast_solve_path_answers_like_typer(args):
    """`solve FILE…` is parsed without typer in a process (start-up time); it must answer exactly as typer does."""
    import mtgsolve.cli as cli

    assert cli._fast_solve_args(args) is not None
    fast = run(*args)
    slow = CliRunner().invoke(app, args)
    assert (fast.returncode, fast.stdout, fast.stderr) == (slow.exit_code, slow.stdout, slow.stderr)


@pytest.mark.parametrize("args", [["solve"], ["solve", "--help"], ["solve", "x.yaml", "--max-results", "many"],
                                  ["solve", "x.yaml", "--timeout"], ["solve", "x.yaml", "--bogus"],
                                  ["--cards", "c.json", "solve", "x.yaml"], ["check", "x.yaml"],
                                  ["solve", "x.yaml", "--max-results", "-1"]])
def test_fast_solve_path_leaves_everything_else_to_typer(args):
    import mtgsolve.cli as cli

    assert cli._fast_solve_args(args) is None
