"""Looking up a few cards of the shipped database without loading all of it (start-up time, issue 16).

Reading ``solver/data/oracle-cards.json.gz`` (35,033 cards) whole costs a quarter of a second, more
than a small query; a situation needs a handful of its cards. On first use this module writes a
derived index of the database to the user's cache directory (``$XDG_CACHE_HOME/mtgsolve``, else
``~/.cache/mtgsolve``): one ASCII line per card, sorted by lower-cased name, which later processes
search by bisection through ``mmap`` (a few microseconds a card). The file is named after the
database's size and modification time, written whole and then renamed into place (processes that
build it at once do not see each other's half-written file), and ends with a marker line that is
checked before use. When no index can be written or read, :func:`lookup` says so (``None``) and the
caller reads the whole database as before: the answers are the same either way.
"""
from __future__ import annotations

import json
import mmap
import os
import tempfile
from functools import lru_cache
from pathlib import Path
from typing import Callable, Mapping

VERSION = "v1"
END = b"#end\n"


def cache_dir() -> Path | None:
    """``$XDG_CACHE_HOME/mtgsolve``, else ``~/.cache/mtgsolve``; None when neither is an absolute
    path (the XDG rule: a relative ``XDG_CACHE_HOME`` is ignored; no home directory: no cache)."""
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):
        base = os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "mtgsolve" if os.path.isabs(base) else None


def _index_path(db: Path) -> Path:
    where = cache_dir()
    if where is None:
        raise OSError("no cache directory")
    st = db.stat()
    return where / f"oracle-cards-{VERSION}-{st.st_size}-{st.st_mtime_ns}.idx"


def write_index(path: Path, cards: Mapping[str, dict]) -> None:
    """Write the index of ``cards`` (exact name → record, in database order) to ``path``."""
    rows = sorted((name.lower(), i, name, rec) for i, (name, rec) in enumerate(cards.items()))
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="ascii", newline="\n") as f:
            for low, i, name, rec in rows:
                f.write(f"{json.dumps(low)}\t{i}\t{json.dumps(name)}\t"
                        f"{json.dumps(rec, separators=(',', ':'))}\n")
            f.write(END.decode())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    for old in path.parent.glob(f"oracle-cards-{VERSION}-*.idx"):  # indexes of an earlier database
        if old != path:
            try:
                old.unlink()
            except OSError:
                pass


class Index:
    """An index file opened for lookups."""

    def __init__(self, path: Path):
        with open(path, "rb") as f:
            self.mm = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
        if self.mm[-len(END):] != END:
            raise ValueError(f"{path}: incomplete index")
        self.size = len(self.mm) - len(END)

    def _key(self, start: int, end: int) -> str:
        return json.loads(self.mm[start:self.mm.find(b"\t", start, end)])

    def rows(self, low: str) -> list[tuple[int, str, int, int]]:
        """``(ordinal, name, start, end)`` of every card whose lower-cased name is ``low``."""
        mm, lo, hi = self.mm, 0, self.size
        while lo < hi:  # the first line whose key is >= low
            mid = (lo + hi) // 2
            start = mm.rfind(b"\n", 0, mid) + 1
            end = mm.find(b"\n", start)
            if self._key(start, end) < low:
                lo = end + 1
            else:
                hi = start
        out = []
        while lo < self.size:
            end = mm.find(b"\n", lo)
            if self._key(lo, end) != low:
                break
            _, ordinal, name, _rest = mm[lo:end].split(b"\t", 3)
            out.append((int(ordinal), json.loads(name), lo, end))
            lo = end + 1
        return out

    def record(self, start: int, end: int) -> dict:
        return json.loads(self.mm[start:end].split(b"\t", 3)[3])


@lru_cache(maxsize=None)
def _open(db: Path, build: Callable[[], Mapping[str, dict]]) -> Index | None:
    try:
        path = _index_path(db)
        if not path.exists():
            write_index(path, build())
        return Index(path)
    except (OSError, ValueError):
        return None


def lookup(db: Path, build: Callable[[], Mapping[str, dict]], name: str) -> tuple[str | None, dict | None] | None:
    """In the database ``db``: the spelling of ``name`` (exactly, else case-insensitively: the last
    such card in database order, like a dict from lower-cased names) and its record, ``(None, None)``
    when it is not there, or ``None`` when no index is available. ``build`` gives the whole database
    (exact name → record), to write the index on first use."""
    index = _open(db, build)
    if index is None:
        return None
    try:
        rows = index.rows(name.lower())
        if not rows:
            return None, None
        exact = [r for r in rows if r[1] == name]
        _, canon, start, end = exact[0] if exact else max(rows)
        return canon, index.record(start, end)
    except (ValueError, IndexError, TypeError):  # a damaged index: read the database instead
        return None


def clear() -> None:
    """Forget opened indexes (tests)."""
    _open.cache_clear()


__all__ = ["Index", "cache_dir", "clear", "lookup", "write_index"]
