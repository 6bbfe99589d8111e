"""The real-competitive whole-game benchmark (issue 27 item 5): its twelve decklists (chosen by the
rule of benchmarks/decks/README.md, copied unchanged), its schedule, and its determinism — the same
seed plays the same games, byte for byte (``python -m benchmarks games --decks real-competitive``)."""
from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from mtgsolve.solver.api.games import parse_decklist
from mtgsolve.solver.cards import canonical_name

pytest.importorskip("pettingzoo")

from benchmarks import competitive_games as cg  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
FORMATS = ("legacy", "modern", "pauper", "pioneer", "standard", "vintage")


def test_twelve_decks_two_per_format_by_the_rule():
    """Per format, the first two 60-card files of benchmarks/decks/ in name order, copied unchanged."""
    decks = cg.competitive_decks()
    expected = [p for f in FORMATS for p in sorted((ROOT / "benchmarks" / "decks").glob(f"{f}_*.txt"))[:2]]
    assert [p.name for p in decks] == sorted(p.name for p in expected) and len(decks) == 12
    for p in expected:
        text = (cg.DECK_DIR / p.name).read_text()
        assert text == p.read_text(), p.name
        header = {line[2:].split(":", 1)[0] for line in text.splitlines() if line.startswith("# ") and ":" in line}
        assert {"name", "format", "source"} <= header, p.name
        names = parse_decklist(text)
        assert len(names) == 60 and all(canonical_name(n) == n for n in names), p.name


def test_schedule_covers_the_pairs_in_a_seeded_order():
    s0, s1 = cg.schedule(66, 0), cg.schedule(66, 1)
    assert s0 == cg.schedule(66, 0) and s0 != s1
    assert {frozenset((a, b)) for _, a, b in s0} == {frozenset(p) for p in itertools.combinations(cg.competitive_decks(), 2)}
    assert [g for g, _, _ in s1] == list(range(cg.SEED_STRIDE, cg.SEED_STRIDE + 66))


def test_same_seed_same_games_byte_for_byte():
    a = cg.results_table(cg.run(3, seed=2, max_steps=400))
    b = cg.results_table(cg.run(3, seed=2, max_steps=400))
    assert a == b and "exceptions: 0" in a and a.count("decisions ") == 3


def test_command_line(capsys):
    from benchmarks.__main__ import main

    assert main(["games", "--decks", "real-competitive", "--games", "1", "--max-steps", "300"]) == 0
    out = capsys.readouterr().out
    assert "games: 1 " in out and "slowest step:" in out and "steps/s" in out
