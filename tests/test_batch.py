"""Batch solving (contract §3, ``mtgsolve batch``): one JSON line per file,
errors as lines, resumable after an interruption at any byte, worker processes,
per-file timeouts, progress only on a terminal, exit code 1 on failures."""
from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from mtgsolve.cli import app
from mtgsolve.solver.apps.batch import batch, read_done, solve_one

ROOT = Path(__file__).resolve().parent.parent


def situation(i: int) -> dict:
    """A small situation whose answer depends on ``i`` (lands in hand, lands played)."""
    hand = ["Forest"] * (i % 3) + ["Mountain"] * (i % 2)
    return {"format": "mtgsolve/1", "name": f"case {i}", "players": ["alice", "bob"],
            "turn": {"number": 2, "active": "alice", "step": "main1", "lands_played": i % 2},
            "battlefield": {"alice": ["Forest"], "bob": ["Grizzly Bears"]},
            "hand": {"alice": hand},
            "query": [{"kind": "actions"}, {"kind": "actions", "player": "bob"}]}


def make_files(d: Path, n: int, bad: tuple[int, ...] = ()) -> list[Path]:
    d.mkdir(parents=True, exist_ok=True)
    out = []
    for i in range(n):
        p = d / f"s{i:03d}.yaml"
        if i in bad:
            p.write_text("format: mtgsolve/1\nplayers: [alice]\nhand: {alice: [Forrest]}\n")
        else:
            p.write_text(yaml.safe_dump(situation(i), sort_keys=False))
        out.append(p)
    return out


def lines(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text().splitlines()]


def by_file(path: Path) -> dict[str, dict]:
    out: dict[str, dict] = {}
    for line in lines(path):
        assert line["file"] not in out, f"{line['file']} appears twice"
        out[line["file"]] = line
    return out


def test_one_line_per_file_in_input_order(tmp_path):
    files = make_files(tmp_path / "in", 5, bad=(2,))
    out = tmp_path / "out.jsonl"
    summary = batch([tmp_path / "in"], out)
    got = lines(out)
    assert [g["file"] for g in got] == [str(f) for f in files]
    assert summary.total == 5 and summary.done == 5 and summary.failed == 1
    good = got[0]
    assert good["name"] == "case 0" and [r["kind"] for r in good["results"]] == ["actions", "actions"]
    assert good["results"][0] == solve_one(str(files[0]), None, 10_000)["results"][0]
    err = got[2]
    assert set(err) == {"file", "error"}
    assert err["error"] == f"{files[2]}: hand.alice[0].card: unknown card 'Forrest' (did you mean 'Forest'?)"
    assert "\n" not in err["error"]


def test_results_match_solve(tmp_path):
    files = make_files(tmp_path / "in", 3)
    out = tmp_path / "out.jsonl"
    batch([str(f) for f in files], out)
    from mtgsolve.solver.api.runner import solve_file
    for line, f in zip(lines(out), files):
        assert line == json.loads(json.dumps(solve_file(f)))


def test_duplicates_and_mixed_inputs(tmp_path):
    files = make_files(tmp_path / "in", 3)
    out = tmp_path / "out.jsonl"
    s = batch([tmp_path / "in", files[0], str(files[1])], out)
    assert s.total == 3 and len(lines(out)) == 3


def test_missing_file_is_an_error_line(tmp_path):
    out = tmp_path / "out.jsonl"
    s = batch([tmp_path / "nope.yaml"], out)
    (line,) = lines(out)
    assert line["error"].startswith(str(tmp_path / "nope.yaml") + ": cannot read the file")
    assert s.failed == 1


def test_without_resume_output_is_overwritten(tmp_path):
    make_files(tmp_path / "in", 2)
    out = tmp_path / "out.jsonl"
    out.write_text('{"file": "stale"}\n')
    batch([tmp_path / "in"], out)
    assert "stale" not in by_file(out)


def test_resume_skips_done_files(tmp_path):
    files = make_files(tmp_path / "in", 4)
    out = tmp_path / "out.jsonl"
    batch([str(f) for f in files[:2]], out)
    first = out.read_text()
    s = batch([tmp_path / "in"], out, resume=True)
    assert s.skipped == 2 and s.done == 2
    assert out.read_text().startswith(first)
    assert sorted(by_file(out)) == sorted(str(f) for f in files)


@pytest.mark.parametrize("cut_fraction", [0.0, 0.13, 0.37, 0.5, 0.71, 0.99, 1.0])
def test_resume_after_interruption_at_any_byte(tmp_path, cut_fraction):
    """An interrupted run leaves any prefix of the output; resuming gives the full answer."""
    make_files(tmp_path / "in", 6, bad=(4,))
    full = tmp_path / "full.jsonl"
    batch([tmp_path / "in"], full)
    data = full.read_bytes()
    out = tmp_path / "out.jsonl"
    out.write_bytes(data[:int(len(data) * cut_fraction)])
    s = batch([tmp_path / "in"], out, resume=True)
    assert by_file(out) == by_file(full)
    assert out.read_bytes().endswith(b"\n")
    assert s.failed == 1  # the bad file's line counts, kept or new


def test_read_done_discards_partial_and_garbage_tail(tmp_path):
    out = tmp_path / "out.jsonl"
    out.write_bytes(b'{"file": "a", "results": []}\n{"file": "b", "error": "b: x"}\n{"file": "c", "res')
    done, errors = read_done(out)
    assert done == {"a", "b"} and errors == 1
    assert out.read_bytes().endswith(b'"b: x"}\n')
    out.write_bytes(b'{"file": "a", "results": []}\nnot json\n{"file": "z"}\n')
    done, _ = read_done(out)
    assert done == {"a"} and out.read_bytes() == b'{"file": "a", "results": []}\n'


def test_resume_after_killed_process(tmp_path):
    """Kill a real `mtgsolve batch` mid-run (SIGKILL), then resume: every file exactly once."""
    make_files(tmp_path / "in", 40)
    out = tmp_path / "out.jsonl"
    proc = subprocess.Popen([sys.executable, str(ROOT / "cli.py"), "batch", str(tmp_path / "in"), "--out", str(out)],
                            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (not out.exists() or out.read_bytes().count(b"\n") < 3):
        time.sleep(0.01)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert out.exists()
    reference = tmp_path / "ref.jsonl"
    batch([tmp_path / "in"], reference)
    batch([tmp_path / "in"], out, resume=True)
    assert by_file(out) == by_file(reference)


def test_jobs_give_the_same_lines(tmp_path):
    make_files(tmp_path / "in", 8, bad=(3,))
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    batch([tmp_path / "in"], one, jobs=1)
    s = batch([tmp_path / "in"], two, jobs=2)
    assert by_file(one) == by_file(two)
    assert s.failed == 1 and s.done == 8


def test_timeout_answers_timeout(tmp_path):
    make_files(tmp_path / "in", 2)
    out = tmp_path / "out.jsonl"
    s = batch([tmp_path / "in"], out, timeout=1e-9)
    for line in lines(out):
        assert [r["status"] for r in line["results"]] == ["timeout", "timeout"]
        assert [r["kind"] for r in line["results"]] == ["actions", "actions"]
    assert s.timeouts == 2 and s.failed == 0


def slow_solve(path: str, timeout, max_results) -> dict:
    """A solver that hangs on files named *hang*: the worker must be killed and replaced."""
    if "hang" in path:
        time.sleep(600)
    return solve_one(path, timeout, max_results)


def test_hung_worker_is_killed_and_batch_goes_on(tmp_path, monkeypatch):
    import mtgsolve.solver.apps.batch as b
    monkeypatch.setattr(b, "GRACE", 0.2)
    d = tmp_path / "in"
    make_files(d, 3)
    (d / "s001.yaml").rename(d / "s001-hang.yaml")
    out = tmp_path / "out.jsonl"
    t0 = time.monotonic()
    s = batch([d], out, jobs=2, timeout=3.0, solve=slow_solve)
    assert time.monotonic() - t0 < 60
    got = by_file(out)
    hung = got[str(d / "s001-hang.yaml")]
    assert hung["name"] == "case 1"
    assert [r["status"] for r in hung["results"]] == ["timeout", "timeout"]
    assert all("results" in v for v in got.values()) and len(got) == 3
    assert s.timeouts == 1 and s.failed == 0


def test_progress_bar_only_when_asked_or_tty(tmp_path, capfd):
    make_files(tmp_path / "in", 2)
    batch([tmp_path / "in"], tmp_path / "a.jsonl")  # stderr is not a terminal under pytest
    assert capfd.readouterr().err == ""
    batch([tmp_path / "in"], tmp_path / "b.jsonl", progress=True)
    captured = capfd.readouterr()
    assert "batch" in captured.err and captured.out == ""


def test_cli_exit_codes(tmp_path):
    make_files(tmp_path / "good", 2)
    make_files(tmp_path / "bad", 2, bad=(1,))
    runner = CliRunner()
    ok = runner.invoke(app, ["batch", str(tmp_path / "good"), "--out", str(tmp_path / "g.jsonl")])
    assert ok.exit_code == 0, ok.output
    assert len(lines(tmp_path / "g.jsonl")) == 2
    bad = runner.invoke(app, ["batch", str(tmp_path / "bad"), "--out", str(tmp_path / "b.jsonl"), "--jobs", "2"])
    assert bad.exit_code == 1
    again = runner.invoke(app, ["batch", str(tmp_path / "bad"), "--out", str(tmp_path / "b.jsonl"), "--resume"])
    assert again.exit_code == 1  # the error line kept from the first run still counts
    assert len(lines(tmp_path / "b.jsonl")) == 2


def test_lines_are_deterministic(tmp_path):
    make_files(tmp_path / "in", 4)
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    batch([tmp_path / "in"], a)
    batch([tmp_path / "in"], b)
    assert a.read_bytes() == b.read_bytes()


# -- issue 16/19: warm workers taking many files, fork, no main guard needed -----------------------------

def dying_solve(path: str, timeout, max_results) -> dict:
    """A solver whose process dies on files named *die*: that file is an error line, the worker is replaced
    and the rest of its chunk is answered by the others."""
    import os

    if "die" in path:
        os._exit(3)
    return solve_one(path, timeout, max_results)


def test_worker_death_in_a_chunk_loses_nothing(tmp_path):
    d = tmp_path / "in"
    make_files(d, 30)
    (d / "s005.yaml").rename(d / "s005-die.yaml")
    out = tmp_path / "out.jsonl"
    s = batch([d], out, jobs=2, solve=dying_solve)
    got = by_file(out)
    assert len(got) == 30 and s.done == 30 and s.failed == 1
    assert got[str(d / "s005-die.yaml")]["error"].endswith("internal error: the worker process died")
    ref = tmp_path / "ref.jsonl"
    batch([d], ref, jobs=1)
    expected = by_file(ref)
    for f, line in got.items():
        if "die" not in f:
            assert line == expected[f]


SCRIPT = """
from mtgsolve.solver.apps.batch import batch
s = batch([{src!r}], {out!r}, jobs=2)
print("DONE", s.done, s.failed)
"""


def test_library_batch_from_a_script_without_main_guard(tmp_path):
    """Issue 19: `batch(..., jobs=2)` at the top level of a script (no `if __name__ == "__main__":`) works."""
    make_files(tmp_path / "in", 12, bad=(4,))
    script = tmp_path / "run_batch.py"
    out = tmp_path / "out.jsonl"
    script.write_text(SCRIPT.format(src=str(tmp_path / "in"), out=str(out)))
    cp = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, cwd=tmp_path, timeout=300,
                        env={**__import__("os").environ, "PYTHONPATH": str(ROOT)})
    assert cp.returncode == 0, cp.stderr
    assert "Traceback" not in cp.stderr
    assert cp.stdout.strip() == "DONE 12 1"
    assert len(by_file(out)) == 12


def test_chunked_workers_answer_like_one_process(tmp_path):
    make_files(tmp_path / "in", 300, bad=(7, 150))
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    batch([tmp_path / "in"], one, jobs=1)
    s = batch([tmp_path / "in"], two, jobs=2)
    assert by_file(one) == by_file(two)
    assert s.done == 300 and s.failed == 2


def test_cli_refuses_to_overwrite_without_resume_or_force(tmp_path):
    make_files(tmp_path / "in", 3)
    out = tmp_path / "out.jsonl"
    runner = CliRunner()
    assert runner.invoke(app, ["batch", str(tmp_path / "in"), "--out", str(out)]).exit_code == 0
    before = out.read_bytes()
    res = runner.invoke(app, ["batch", str(tmp_path / "in"), "--out", str(out), "--jobs", "2"])
    assert res.exit_code == 2 and "--resume" in res.stderr and "--force" in res.stderr
    assert out.read_bytes() == before
    res = runner.invoke(app, ["batch", str(tmp_path / "in"), "--out", str(out), "--resume"])
    assert res.exit_code == 0 and out.read_bytes() == before  # nothing left to do
    res = runner.invoke(app, ["batch", str(tmp_path / "in"), "--out", str(out), "--force", "--jobs", "2"])
    assert res.exit_code == 0 and by_file(out) == {json.loads(x)["file"]: json.loads(x)
                                                   for x in before.decode().splitlines()}
