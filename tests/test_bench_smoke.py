"""CI-cheap smoke runs of the start-up and batch benchmarks (issue 28 items 5–6): the commands
the docs quote still run and print the lines the docs quote. Nothing about time is asserted."""
from __future__ import annotations

import re

from benchmarks import bench_batch, bench_startup


def test_batch_benchmark_prints_small_files_and_real_deck_lines(capsys):
    bench_batch.bench_batch(6)
    bench_batch.bench_batch_realdecks(3)
    out = capsys.readouterr().out
    for jobs in (1, 2):
        assert re.search(rf"^batch --jobs {jobs}: 6 small files in [\d.]+ s = \d+ files/s .*; load ", out, re.M), out
        assert re.search(rf"^batch --jobs {jobs} --timeout 10: 3 real-deck boards \(\d+ queries, seed 20261130\) "
                         rf"in [\d.]+ s = [\d.]+ files/s, \d+ with timeouts, 0 failed; load ", out, re.M), out


def test_startup_benchmark_breaks_start_up_down_by_import(capsys):
    costs = bench_startup.import_costs()
    assert costs["cp_model"] > 0 and costs["mtgsolve"] > 0 and costs["all"] >= costs["cp_model"] + costs["mtgsolve"]
    assert 0 < costs["pandas"] < costs["cp_model"]   # OR-Tools' cp_model imports pandas (docs/benchmarks.md)
    bench_startup.bench_startup(1, "library cards", bench_startup.FILES[0][1])
    out = capsys.readouterr().out
    assert re.search(r"^start-up, library cards \(flagbearer_shock.yaml\): mtgsolve solve \d+ ms, bare CP-SAT import "
                     r"\d+ ms; ratio median [\d.]+ .*without tear-down \(\d+ ms\) [\d.]+; load ", out, re.M), out
