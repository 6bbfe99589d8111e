"""Card look-ups through the index of the shipped database (solver.cards.lookup: start-up time,
issue 16) give what reading the whole database gives."""
from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

from mtgsolve.solver import cards
from mtgsolve.solver.cards import lookup

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def index(tmp_path):
    path = tmp_path / "oracle.idx"
    lookup.write_index(path, cards._builtin_index())
    return lookup.Index(path)


def _expected(name: str) -> tuple[str | None, dict | None]:
    idx = cards._builtin_index()
    if name in idx:
        return name, idx[name]
    canon = {n.lower(): n for n in idx}.get(name.lower())
    return canon, (idx[canon] if canon else None)


def test_index_finds_what_the_database_holds(index, monkeypatch):
    names = sorted(cards._builtin_index())
    sample = random.Random(16).sample(names, 300) + names[:3] + names[-3:]
    probes = sample + [n.upper() for n in sample[:50]] + [n.lower() for n in sample[:50]]
    probes += ["Forrest", "", "zzzz", "\"", "Lightning Bolt // x", "\u00e6ther vial"]
    monkeypatch.setattr(lookup, "_open", lambda db, build: index)
    for name in probes:
        assert lookup.lookup(cards.DEFAULT_DB, cards._builtin_index, name) == _expected(name), name


def test_case_insensitive_ties_go_to_the_last_card_like_a_dict(tmp_path):
    path = tmp_path / "tie.idx"
    lookup.write_index(path, {"Ab": {"name": "Ab"}, "AB": {"name": "AB"}, "aB": {"name": "aB"}, "c": {"name": "c"}})
    ix = lookup.Index(path)
    rows = ix.rows("ab")
    assert sorted(r[1] for r in rows) == ["AB", "Ab", "aB"]
    assert max(rows)[1] == "aB" and ix.rows("c")[0][1] == "c" and ix.rows("b") == []


def test_an_incomplete_index_is_not_used(tmp_path):
    path = tmp_path / "bad.idx"
    lookup.write_index(path, {"A": {"name": "A"}})
    path.write_bytes(path.read_bytes()[:-3])
    with pytest.raises(ValueError):
        lookup.Index(path)


def _load_in_process(env: dict) -> str:
    code = ("from mtgsolve.solver import cards\n"
            "c = cards.get_card('liliana vess')\n"
            "print(c.name, cards.canonical_name('LIGHTNING BOLT'), cards._builtin_index.cache_info().currsize)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=300,
                         env=env)
    assert out.returncode == 0, out.stderr[-2000:]
    return out.stdout.strip()


def test_cards_load_through_the_index_or_without_one(tmp_path):
    import os

    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    assert _load_in_process(env) == "Liliana Vess Lightning Bolt 1"  # first use: reads all, writes the index
    assert list((tmp_path / "cache" / "mtgsolve").glob("oracle-cards-*.idx"))
    assert _load_in_process(env) == "Liliana Vess Lightning Bolt 0"  # then: the index alone
    blocked = tmp_path / "file"
    blocked.write_text("not a directory")
    env["XDG_CACHE_HOME"] = str(blocked)
    assert _load_in_process(env) == "Liliana Vess Lightning Bolt 1"  # no index possible: as before


def test_a_damaged_index_falls_back(tmp_path, monkeypatch):
    path = tmp_path / "bad.idx"
    path.write_bytes(b'"a"\t0\t"A"\t{not json\n' + lookup.END)
    monkeypatch.setattr(lookup, "_open", lambda db, build: lookup.Index(path))
    assert lookup.lookup(cards.DEFAULT_DB, cards._builtin_index, "a") is None
    path.write_bytes(b"garbage without tabs\n" + lookup.END)
    assert lookup.lookup(cards.DEFAULT_DB, cards._builtin_index, "b") is None


def test_no_cache_directory_without_an_absolute_path(monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/dir")
    monkeypatch.setenv("HOME", "/home/someone")
    assert lookup.cache_dir() == Path("/home/someone/.cache/mtgsolve")
    monkeypatch.setenv("XDG_CACHE_HOME", "/tmp/x")
    assert lookup.cache_dir() == Path("/tmp/x/mtgsolve")
