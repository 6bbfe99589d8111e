"""The README's figures, as the benchmarks print them (issue 28 item 5).

Every figure the README's "Figures" section quotes is printed by the benchmark
that measures it as one line starting ``README:``, worded as the README words
it, followed by the machine load (the 1-, 5- and 15-minute load averages of
``/proc/loadavg``) when the benchmark started and when the line was printed:
``python -m benchmarks NAME | grep '^README:'`` gives the lines to compare.
"""
from __future__ import annotations

from pathlib import Path


def load() -> str:
    """The load averages now (``/proc/loadavg``), or ``?`` where there is none."""
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "?"


def line(text: str, since: str | None = None) -> None:
    """Print ``README: text; load SINCE -> NOW`` (the load at the start of the measurement and now)."""
    print(f"README: {text}; load {since or '?'} -> {load()}", flush=True)
