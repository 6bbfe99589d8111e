"""Benchmark of the Oracle-text reader: ``python -m benchmarks.bench_reader [--quick]``.

Reads the shipped card database (solver/data/oracle-cards.json.gz, 35,033
cards; every 10th card with ``--quick``) and prints:

* the tokeniser alone (reminder text removed, self-references resolved) — the
  floor any reader of this text pays;
* the full reader, cold (line cache cleared) and warm (every line cached);
* the hand-written library's builders against the reader on the 80 library
  cards (the library is a dictionary lookup: the ratio is the price of reading);
* the coverage figures of the same run (see :mod:`solver.cards.coverage`),
  with the coverage per layer — structure, costs, targets, statics, effects,
  whole cards — per line and per card (definitions in that module's docstring).

Wall-clock (``perf_counter``) and CPU (``process_time``) seconds are both given:
on a shared machine the CPU figure is the steadier one.  Nothing is asserted.
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

from mtgsolve.solver.cards import CardData, oracle_index
from mtgsolve.solver.cards.library import LIBRARY
from mtgsolve.solver.reader import _read_permanent_line, _context, read, read_lines
from mtgsolve.solver.cards.coverage import LAYERS, measure
from mtgsolve.solver.cards.importer import card_data, load_cards
from mtgsolve.solver.reader.tokens import normalise_chars, strip_reminder, tokenize

DATA = Path(__file__).resolve().parent.parent / "solver" / "data" / "oracle-cards.json.gz"


def _timed(fn):
    w, c = time.perf_counter(), time.process_time()
    out = fn()
    return out, time.perf_counter() - w, time.process_time() - c


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    quick = "--quick" in argv
    cards = load_cards(DATA)
    if quick:
        cards = cards[::10]
    datas = [card_data(c)[0] for c in cards]
    n = len(datas)
    print(f"cards: {n:,}{' (--quick: every 10th card)' if quick else ''}")
    print(f"{'pass':<44}{'wall s':>9}{'cpu s':>9}{'cards/s (cpu)':>15}")

    def tokenize_all():
        k = 0
        for d in datas:
            _ctx, names, subs = _context(d)
            for raw in d.text.split("\n"):
                clean = strip_reminder(normalise_chars(raw))
                if clean:
                    k += len(tokenize(clean, names, subs))
        return k

    def read_all():
        for d in datas:
            read_lines(d)

    rows = []
    ntok, w, c = _timed(tokenize_all)
    rows.append(("tokenise only", w, c))
    _read_permanent_line.cache_clear()
    _, w, c = _timed(read_all)
    rows.append(("read, cold (line cache cleared)", w, c))
    cold_cpu = c
    _, w, c = _timed(read_all)
    rows.append(("read, warm (identical lines cached)", w, c))
    for name, w, c in rows:
        print(f"{name:<44}{w:>9.2f}{c:>9.2f}{n / c if c else 0:>15,.0f}")
    print(f"tokens: {ntok:,}; cold read / tokenise (cpu): {cold_cpu / rows[0][2]:.1f}x")

    idx = oracle_index()
    lib = [CardData.from_mtgjson(idx[name]) for name in sorted(LIBRARY)]
    reps = 20 if quick else 100

    def build_lib():
        for _ in range(reps):
            for d in lib:
                LIBRARY[d.name](d)

    def read_lib():
        for _ in range(reps):
            _read_permanent_line.cache_clear()
            for d in lib:
                read(d)

    _, wl, cl = _timed(build_lib)
    _, wr, cr = _timed(read_lib)
    print(f"80 library cards x{reps}: library builders {cl * 1e3:.1f} ms cpu, reader (cold) {cr * 1e3:.1f} ms cpu, "
          f"ratio {cr / cl if cl else float('inf'):.0f}x")

    _read_permanent_line.cache_clear()
    rep = measure(cards, source=str(DATA.name) + (" (every 10th card)" if quick else ""), top=10)
    print()
    print(f"{'layer':<12}{'lines read':>14}{'of':>9}{'%':>7}{'cards read':>13}{'of':>9}{'%':>7}")
    for layer in LAYERS + ("whole",):
        if layer == "whole":
            lr, lt, cr_, ct = rep.text_lines_understood, rep.text_lines, rep.fully_understood, rep.cards
        else:
            lr, lt = rep.layer_lines_read[layer], rep.layer_lines[layer]
            cr_, ct = rep.layer_cards_read[layer], rep.layer_cards[layer]
        print(f"{layer:<12}{lr:>14,}{lt:>9,}{100 * lr / lt if lt else 0:>7.1f}{cr_:>13,}{ct:>9,}"
              f"{100 * cr_ / ct if ct else 0:>7.1f}")
    print()
    for line in rep.lines():
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
