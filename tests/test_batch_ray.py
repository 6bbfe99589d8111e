"""The Ray backend of batch (``mtgsolve batch --backend ray``, :func:`solver.apps.batch.batch_ray`): the same lines,
resume and error semantics as local batch, against a local Ray instance started by the test.

Needs the optional extra ``ray`` (``pip install -e '.[ray]'``); skipped without it. Marker: ``ray``."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

ray = pytest.importorskip("ray")

from mtgsolve.solver.apps.batch import batch, batch_ray, read_done  # noqa: E402
from test_batch import by_file, make_files  # noqa: E402

pytestmark = pytest.mark.ray


@pytest.fixture(scope="module")
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, logging_level="ERROR", log_to_driver=False)
    yield
    ray.shutdown()


def test_ray_gives_the_lines_of_local_batch(tmp_path, local_ray):
    make_files(tmp_path / "in", 40, bad=(3, 17))
    (tmp_path / "in" / "latin1.yaml").write_bytes(b"format: mtgsolve/1\nplayers: [\xff]\n")
    local, remote = tmp_path / "local.jsonl", tmp_path / "ray.jsonl"
    batch([tmp_path / "in", tmp_path / "missing.yaml"], local, jobs=2)
    s = batch_ray([tmp_path / "in", tmp_path / "missing.yaml"], remote, chunk=8)
    assert by_file(remote) == by_file(local)
    assert s.done == 42 and s.failed == 4 and s.total == 42
    assert by_file(remote)[str(tmp_path / "missing.yaml")]["error"].endswith("cannot read the file: no such file")


def test_ray_resume_after_interruption(tmp_path, local_ray):
    make_files(tmp_path / "in", 20, bad=(5,))
    ref, out = tmp_path / "ref.jsonl", tmp_path / "out.jsonl"
    batch([tmp_path / "in"], ref)
    full = ref.read_bytes()
    out.write_bytes(full[: len(full) // 2])  # an interrupted run: a partial last line
    s = batch_ray([tmp_path / "in"], out, resume=True)
    assert by_file(out) == by_file(ref)
    assert s.skipped + s.done == 20 and s.failed == 1
    assert read_done(out)[0] == set(by_file(ref))


def test_ray_timeouts(tmp_path, local_ray):
    make_files(tmp_path / "in", 3)
    out = tmp_path / "out.jsonl"
    s = batch_ray([tmp_path / "in"], out, timeout=1e-9)
    for line in by_file(out).values():
        assert [r["status"] for r in line["results"]] == ["timeout", "timeout"]
    assert s.timeouts == 3 and s.failed == 0


def test_ray_from_the_command_line(tmp_path, local_ray):
    from typer.testing import CliRunner

    from mtgsolve.cli import app

    make_files(tmp_path / "in", 6, bad=(2,))
    out = tmp_path / "out.jsonl"
    res = CliRunner().invoke(app, ["batch", str(tmp_path / "in"), "--out", str(out), "--backend", "ray"])
    assert res.exit_code == 1  # one bad file
    assert len(by_file(out)) == 6
    assert [json.loads(x)["file"] for x in out.read_text().splitlines()].count(str(tmp_path / "in" / "s002.yaml")) == 1
