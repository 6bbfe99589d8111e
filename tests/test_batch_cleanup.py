"""Batch that cleans up (issue 28 item 3): ``kill -9`` of ``mtgsolve batch`` leaves no worker
behind (nothing holds its output pipe, so ``mtgsolve batch … | tail`` ends); a symbolic link
loop, or one to nothing, is one located error line and counted as failed, as an argument or
inside a directory, in the batch and in the MCP server; ``--out`` in a directory that does not
exist is one line and exit code 2, and no directory is created."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

from mtgsolve.solver.apps.batch import batch

ROOT = Path(__file__).resolve().parent.parent
CLI = [sys.executable, str(ROOT / "cli.py")]

SITUATION = {"format": "mtgsolve/1", "players": ["alice", "bob"],
             "turn": {"number": 3, "active": "alice", "step": "main1"},
             "battlefield": {"alice": ["Forest", "Forest", "Mountain"], "bob": ["Grizzly Bears"]},
             "hand": {"alice": ["Forest", "Grizzly Bears", "Shock"]},
             "query": [{"kind": "actions"}, {"kind": "targets", "cast": "shock"}, {"kind": "available_mana"}]}


def _children(pid: int) -> list[int]:
    """The live (not zombie) processes whose parent is ``pid`` (Linux /proc)."""
    out = []
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                stat = (d / "stat").read_text()
            except OSError:
                continue
            fields = stat.rsplit(")", 1)[1].split()
            if int(fields[1]) == pid and fields[0] != "Z":
                out.append(int(d.name))
    return out


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"   # a zombie is dead, waiting to be reaped


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux /proc to list processes")
def test_kill_9_of_the_batch_leaves_no_worker(tmp_path):
    inputs = tmp_path / "in"
    inputs.mkdir()
    for i in range(400):
        (inputs / f"s{i:03d}.yaml").write_text(yaml.safe_dump({**SITUATION, "name": f"case {i}"}))
    out = tmp_path / "out.jsonl"
    proc = subprocess.Popen(CLI + ["batch", str(inputs), "--out", str(out), "--jobs", "2"], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    workers: list[int] = []
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not (len(workers) == 2 and out.exists() and out.read_bytes().count(b"\n")):
        workers = _children(proc.pid)
        time.sleep(0.05)
    assert len(workers) == 2 and proc.poll() is None, "the batch should be running with its two workers"
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and any(_alive(w) for w in workers):
        time.sleep(0.05)
    survivors = [w for w in workers if _alive(w)]
    for w in survivors:   # do not leave them behind even when the test fails
        os.kill(w, signal.SIGKILL)
    assert not survivors, f"workers {survivors} outlived the batch"
    assert proc.stdout is not None and proc.stdout.read() == b""   # the pipe is closed: `| tail` would end
    assert out.read_bytes().count(b"\n") < 400


@pytest.mark.parametrize("jobs", [1, 2])
def test_link_loops_are_located_lines_and_failures(tmp_path, jobs):
    d = tmp_path / "d"
    d.mkdir()
    (d / "good.yaml").write_text(yaml.safe_dump(SITUATION))
    (d / "loop.yaml").symlink_to("loop.yaml")
    (d / "a.yaml").symlink_to("b.yaml")
    (d / "b.yaml").symlink_to("a.yaml")
    (d / "dangling.json").symlink_to("missing.json")
    (d / "sub").symlink_to(".")                     # a directory loop: not followed
    (tmp_path / "self.yaml").symlink_to("self.yaml")
    out = tmp_path / "out.jsonl"
    summary = batch([d, tmp_path / "self.yaml"], out, jobs=jobs)
    lines = {Path(x["file"]).name: x for x in map(json.loads, out.read_text().splitlines())}
    assert sorted(lines) == ["a.yaml", "b.yaml", "dangling.json", "good.yaml", "loop.yaml", "self.yaml"]
    assert "results" in lines.pop("good.yaml")
    for name, line in lines.items():
        assert line["error"] == f"{line['file']}: cannot read the file: " + (
            "no such file" if name == "dangling.json" else "Too many levels of symbolic links"), line
    assert summary.failed == 5 and summary.total == 6


def test_cli_batch_on_a_link_loop_is_exit_1_with_its_line(tmp_path):
    (tmp_path / "self.yaml").symlink_to("self.yaml")
    out = tmp_path / "out.jsonl"
    cp = subprocess.run(CLI + ["batch", str(tmp_path / "self.yaml"), "--out", str(out)], capture_output=True,
                        text=True, cwd=ROOT, timeout=120)
    assert cp.returncode == 1, cp.stderr
    assert "Traceback" not in cp.stderr and "RuntimeError" not in cp.stderr
    assert cp.stderr.strip().splitlines()[-1].startswith("1 files: 1 answered, 0 skipped (already in the output), "
                                                         "1 failed")
    assert json.loads(out.read_text()) == {
        "file": str(tmp_path / "self.yaml"),
        "error": f"{tmp_path / 'self.yaml'}: cannot read the file: Too many levels of symbolic links"}


def test_out_in_a_missing_directory_is_one_line_exit_2(tmp_path):
    target = tmp_path / "nonexistent" / "dir" / "out.jsonl"
    (tmp_path / "in.yaml").write_text(yaml.safe_dump(SITUATION))
    cp = subprocess.run(CLI + ["batch", str(tmp_path / "in.yaml"), "--out", str(target)], capture_output=True,
                        text=True, cwd=ROOT, timeout=120)
    assert cp.returncode == 2
    assert cp.stderr.strip().splitlines() == [
        f"{target}: the output's directory {target.parent} does not exist (batch does not create it)"]
    assert not (tmp_path / "nonexistent").exists()


def test_mcp_path_in_a_link_loop_is_a_located_tool_error(tmp_path):
    pytest.importorskip("mcp", reason="the optional extra 'mcp' is not installed (pip install 'mtgsolve[mcp]')")
    import anyio
    from mcp import Client

    from mtgsolve.solver.apps.mcp_server import build_server

    (tmp_path / "loop.yaml").symlink_to("loop.yaml")

    async def go():
        async with Client(build_server(tmp_path)) as c:
            return await c.call_tool("solve", {"path": "loop.yaml"})

    r = anyio.run(go)
    assert r.is_error
    text = r.content[0].text
    assert "internal error" not in text and "\n" not in text, text
    assert text.endswith("loop.yaml: cannot read the file: Too many levels of symbolic links"), text
