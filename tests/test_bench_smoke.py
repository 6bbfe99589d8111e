"""CI-cheap smoke runs of the benchmarks behind the README's figures (issue 28 items 5–6): the
commands the docs quote still run, on small inputs, and print the lines the docs quote (the
``README:`` lines, benchmarks/readme.py). Nothing about time is asserted; phase.rs and matplotlib
(the extra ``bench``) are left out when missing (the ratio to phase.rs is then not printed)."""
from __future__ import annotations

import re

from benchmarks import bench_batch, bench_startup


def test_batch_benchmark_prints_small_files_and_real_deck_lines(capsys):
    bench_batch.bench_batch(6)
    bench_batch.bench_batch_realdecks(3)
    bench_batch.readme_figure(3, {1: 1.0, 2: 2.0}, 6, {1: 3.0, 2: 4.0}, "0.0 0.0 0.0")
    out = capsys.readouterr().out
    assert re.search(r"^README: batch, 3 real-deck boards; 6 small land-only files: 1 files/s \(--jobs 1\), "
                     r"2 \(--jobs 2\); 3, 4; load ", out, re.M), out
    for jobs in (1, 2):
        assert re.search(rf"^batch --jobs {jobs}: 6 small files in [\d.]+ s = \d+ files/s .*; load ", out, re.M), out
        assert re.search(rf"^batch --jobs {jobs} --timeout 10: 3 real-deck boards \(\d+ queries, seed 20261130\) "
                         rf"in [\d.]+ s = [\d.]+ files/s, \d+ with timeouts, 0 failed; load ", out, re.M), out


def test_startup_benchmark_breaks_start_up_down_by_import(capsys):
    costs = bench_startup.import_costs()
    assert costs["cp_model"] > 0 and costs["mtgsolve"] > 0 and costs["all"] >= costs["cp_model"] + costs["mtgsolve"]
    assert 0 < costs["pandas"] < costs["cp_model"]   # OR-Tools' cp_model imports pandas (docs/benchmarks.md)
    bench_startup.readme_figure(bench_startup.bench_startup(1, "library cards", bench_startup.FILES[0][1]), "?")
    out = capsys.readouterr().out
    assert re.search(r'^README: `mtgsolve solve` on a small file: [\d.]+× the bare `python -c "from ortools.sat.python '
                     r'import cp_model"` process \([\d.]+× without its tear-down\); load ', out, re.M), out
    assert re.search(r"^start-up, library cards \(flagbearer_shock.yaml\): mtgsolve solve \d+ ms, bare CP-SAT import "
                     r"\d+ ms; ratio median [\d.]+ .*without tear-down \(\d+ ms\) [\d.]+; load ", out, re.M), out


# -- the README's other figures: each benchmark prints its `README:` line (benchmarks/readme.py) ----------------

LOAD = r"; load \S+ \S+ \S+ -> \S+ \S+ \S+$"


def test_counting_benchmark_prints_the_readme_lines(capsys):
    from benchmarks import bench_counting, readme

    since = readme.load()
    phase_ms, _why = bench_counting.phase_actions_ms(1)   # None without phase-python: the ratio is left out
    figs = bench_counting.bench_board_40(1, phase_ms)
    figs.update(bench_counting.bench_arc_trail(1))
    figs.update(bench_counting.bench_listing(True))
    figs.update(bench_counting.bench_cataracts(10.0, 1))
    bench_counting.readme_lines(figs, since)
    out = capsys.readouterr().out
    ratio = r" = [\d.]+×" if phase_ms is not None else ""
    for pattern in (rf"`actions` with exact counts, 40 lands \+ 7 spells \(1,296,540 payments counted\): [\d.]+ ms{ratio} "
                    rf"phase\.rs `actions\(\)` on the same board, same run.*; the mask [\d.]+ ms{ratio}",
                    r"`pay` counts, Hangarback Walker X = 1…20 on that board: ≤ [\d.]+ ms each",
                    r"`pay` for Cultivate, Cascading Cataracts board \(25,491 payments\): [\d.]+ s \(first 10,000 listed",
                    r"`is_legal` of one Arc Trail among 320 creatures \(103,362 choices\): [\d.]+ ms fresh, [\d.]+ ms warm",
                    r"listing payments: [\d,]+ payments/s \(Hangarback Walker\), [\d,]+ \(Cultivate\)"):
        assert re.search(rf"^README: {pattern}.*{LOAD}", out, re.M), (pattern, out)


def test_combat_benchmark_prints_the_readme_line(capsys):
    from benchmarks import bench_combat

    assert bench_combat.main(["--sizes", "2", "4"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^README: `attacks`/`blocks`, 4 creatures a side \(plain, mixed, taxed; up to [\d,]+ declarations\): "
                     rf"counted in ≤ \d+ ms \(first 1,000 listed\); equal to brute force in the 10 of 10 cases "
                     rf"where it finishes{LOAD}",
                     out, re.M), out


def test_pay_benchmark_prints_the_readme_line(capsys):
    from benchmarks import bench_pay

    bench_pay.payable_figure((50,), 1)
    out = capsys.readouterr().out
    assert re.search(r"^README: `pay`: is it payable\? 50 mixed permanents, 3 costs: [\d.]+–[\d.]+ ms CPU "
                     rf"\([\d.]+–[\d.]+ ms wall\), model build included{LOAD}", out, re.M), out


def test_targets_benchmark_prints_the_readme_line(capsys):
    from benchmarks import bench_targets

    bench_targets.main(["--sizes", "10", "20", "--enumerate", "50", "--full-max", "100", "--ref-max", "1000"])
    out = capsys.readouterr().out
    assert re.search(r"^README: `targets`: count over 10–20 objects, 1–3 slots: [\d.]+–[\d.]+ ms "
                     rf"\(wall; brute force: up to [\d.e+-]+ s\){LOAD}", out, re.M), out


def test_games_benchmark_prints_the_readme_line(capsys):
    from benchmarks import bench_games

    assert bench_games.main(["--games=2"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^README: whole games, Ninth Edition Core Game decks, Gold vs Silver \(2 seeded games, random agents\): [\d.]+ games/s, [\d,]+ "
                     r"steps/s wall \([\d.]+ games, [\d,]+ steps per CPU-second\); 2 of 2 games to a winner, "
                     rf"0 refused, 0 exceptions{LOAD}", out, re.M), out


def test_realdecks_benchmark_prints_the_readme_lines(capsys):
    from benchmarks import bench_realdecks

    assert bench_realdecks.main(["--boards", "4", "--references"]) == 0
    out = capsys.readouterr().out
    shares = ", ".join(rf"`{k}` [\d.]+%" for k in ("actions", "targets", "pay", "available_mana", "could_produce"))
    assert re.search(rf"^README: real decks, 4 boards \(24 development decklists, seed 20261130\): share of sound "
                     rf"`ok` answers — {shares}.*, `pass` [\d.]+% \([\d.]+% of all \d+ answers; [\d.]+% without "
                     rf"`pass`\){LOAD}", out, re.M), out
    assert re.search(r"^README: every `ok` pay/targets answer on these boards equals brute force \((\d+) of \1; "
                     rf"\d+ reference timeouts\){LOAD}", out, re.M), out
