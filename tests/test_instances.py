"""Every situation file under instances/ answers as its `expect` says
(contract §4). These files are the seed rulings, CR examples and scenarios."""
from __future__ import annotations

from pathlib import Path

import pytest

from mtgsolve.solver.api.runner import check_loaded
from mtgsolve.solver.io.load import load_situation

ROOT = Path(__file__).resolve().parent.parent / "instances"
FILES = sorted(p for p in ROOT.rglob("*") if p.suffix in (".yaml", ".yml", ".json") and p.is_file())


def test_there_are_instances():
    assert len(FILES) >= 1


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(ROOT)) for p in FILES])
def test_instance(path):
    loaded = load_situation(path)
    assert loaded.expect is not None, f"{path} has no expect"
    res = check_loaded(loaded)
    assert res.ok, res.message
