"""Batch solving: many situation files, one JSON line each (contract §3, ``mtgsolve batch``).

:func:`batch` answers every query of every situation file and writes one JSON
line per file to ``out``:

* ``{"file": ..., "name": ..., "results": [...]}`` — the file's results, as
  ``mtgsolve solve --json`` gives them;
* ``{"file": ..., "error": "<one-line located error>"}`` — the file could not
  be read or one of its queries is malformed (the same one-line message the
  command line prints, naming the file and the place inside it), or the solver
  failed on it. One bad file never stops the batch.

Guarantees:

* **Flushed as it goes**: each line is written whole and flushed as soon as its
  file is answered.
* **Order**: with ``jobs=1`` lines follow the input order (files as given;
  directories expanded recursively in sorted order). With ``jobs > 1`` lines
  follow completion order (each line names its file; sort the output by
  ``file`` if you need a fixed order). Line *content* is deterministic either
  way.
* **Resumable**: with ``resume=True`` the files already present in the output
  are skipped and new lines are appended; a partial trailing line left by an
  interrupted run is discarded first. Without it the output is overwritten.
* **Timeouts**: ``timeout`` (seconds) is a budget per file. Every query is
  given the time that remains (status ``timeout`` when it runs out); queries
  that get no time answer ``{"kind": ..., "status": "timeout"}``. As a safety
  net a worker still busy ``GRACE`` seconds after its file's budget is killed
  and replaced, and the file's queries are all answered ``timeout``.
* **Processes**: with ``jobs > 1`` (or a ``timeout``) files are solved in warm
  worker processes that each take many files (sent in chunks, answered one
  line at a time). On POSIX the workers are started with ``fork``: they inherit
  what this process has loaded, and a script calling :func:`batch` needs no
  ``if __name__ == "__main__":`` guard. Where ``fork`` is unavailable
  (Windows) they are started with ``spawn``, which re-imports the calling
  script in every worker: there the call must sit under that guard, and
  :func:`batch` says so (a :class:`RuntimeError`) instead of letting every
  worker fail. Otherwise files are solved in this process.
* **Workers never outlive the batch**: a worker process exits when the process
  that started it dies, even by ``kill -9`` (Linux: the parent-death signal,
  ``prctl(PR_SET_PDEATHSIG)``; elsewhere a thread that checks the parent's pid
  every second), so nothing is left holding the output or a pipe
  (``mtgsolve batch … | tail`` ends).
* **Every input named is answered**: a file of a directory that cannot be read
  — a symbolic link in a loop or to nothing, among others — is one error line
  naming it and what is wrong (``d/loop.yaml: cannot read the file: Too many
  levels of symbolic links``), counted in :attr:`BatchSummary.failed`; never a
  silent skip or a traceback.
* **Output**: ``out``'s directory must exist (it is not created): else a located
  :class:`~solver.core.errors.MtgsolveError` (the command line: one line, exit
  code 2) before anything is read.
* **Ray**: :func:`batch_ray` (``mtgsolve batch --backend ray``) gives the same
  lines, resume and error semantics on a Ray cluster (docs/batch.md).
* **Progress**: a rich progress bar on stderr, only when stderr is a terminal.
* **Failures**: :attr:`BatchSummary.failed` counts the error lines in the output
  (those kept from an earlier run by ``resume`` included); the command line
  exits with 1 when it is not zero. A ``timeout`` answer is not a failure.
"""
from __future__ import annotations

import json
import logging
import multiprocessing
import os
import sys
import time
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence, cast

GRACE = 2.0
"""Seconds a worker may overrun its file's budget before it is killed."""

MAX_START_FAILURES = 10
"""Worker processes that may die while starting before the batch gives up."""


@dataclass
class BatchSummary:
    """What a batch did: files in the input, answered now, skipped (already in
    the output), failed (error lines in the whole output), timed out (files
    with at least one ``timeout`` answer, this run)."""

    total: int = 0
    done: int = 0
    skipped: int = 0
    failed: int = 0
    timeouts: int = 0
    seconds: float = 0.0

    def __str__(self) -> str:
        rate = self.done / self.seconds if self.seconds > 0 else 0.0
        return (f"{self.total} files: {self.done} answered, {self.skipped} skipped (already in the output), "
                f"{self.failed} failed, {self.timeouts} with timeouts; {self.seconds:.2f} s ({rate:.1f} files/s)")


# ---------------------------------------------------------------------------
# One file
# ---------------------------------------------------------------------------

def solve_one(path: str, timeout: float | None, max_results: int, data: bytes | None = None,
              cards: str | None = None) -> dict:
    """The output line (as a dict) for one file. Never raises for a bad file.

    ``data``: the file's bytes, already read (the Ray backend reads files where
    the batch was started and solves them elsewhere); errors still name ``path``.
    ``cards``: the user's card file added to the shipped database (:class:`solver.cards.CardDB`)."""
    from ..cards import CardDB
    from ..core.errors import MtgsolveError, QueryError, error_line
    from ..queries import Options, answer
    from ..io.load import load_situation, situation_from_dict

    deadline = time.monotonic() + timeout if timeout is not None else None
    try:
        db = CardDB(cards)
        loaded = load_situation(path, cards=db) if data is None else \
            situation_from_dict(_parse_bytes(path, data), path, cards=db)
        many = len(loaded.queries) != 1 or isinstance(loaded.raw.get("query"), list)
        results = []
        for i, q in enumerate(loaded.queries):
            qpath = f"query[{i}]" if many else "query"
            remaining = None if deadline is None else deadline - time.monotonic()
            if remaining is not None and remaining <= 0:
                results.append({"kind": q.get("kind"), "status": "timeout"})
                continue
            try:
                results.append(answer(loaded.state, q, Options(max_results=max_results, timeout=remaining), path=qpath))
            except QueryError as e:
                raise QueryError(loaded.source, e.path, e.message) from None
        return {"file": path, "name": loaded.state.name, "results": results}
    except MtgsolveError as e:
        return {"file": path, "error": error_line(e)}
    except Exception as e:  # noqa: BLE001 - one bad file never stops the batch
        return {"file": path, "error": f"{path}: internal error: {error_line(e)}"}


def _parse_bytes(path: str, data: bytes) -> Any:
    """What :func:`solver.io.load.read_document` makes of a file's bytes (same limits and messages)."""
    from ..io import load as sit

    limit = sit._limit(None, sit.MAX_FILE_BYTES_ENV, sit.DEFAULT_MAX_FILE_BYTES)
    if len(data) > limit:
        raise sit.SituationError(path, "", f"the file is larger than {limit} bytes "
                                           f"(set {sit.MAX_FILE_BYTES_ENV} to allow more)")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise sit.SituationError(path, "", f"not UTF-8 text (bad byte at offset {e.start})") from None
    if Path(path).suffix.lower() == ".json":
        return sit._parse_json(text, path)
    return sit._parse_yaml(text, path)


def timeout_line(path: str) -> dict:
    """The line for a file whose worker was killed: every query ``timeout``."""
    from ..core.errors import MtgsolveError, error_line
    from ..io.load import read_document

    try:
        raw = read_document(path)
    except MtgsolveError as e:
        return {"file": path, "error": error_line(e)}
    query = raw.get("query") if isinstance(raw, dict) else None
    queries = query if isinstance(query, list) else [query] if query is not None else []
    name = raw.get("name") if isinstance(raw, dict) and isinstance(raw.get("name"), str) else None
    return {"file": path, "name": name,
            "results": [{"kind": q.get("kind") if isinstance(q, dict) else None, "status": "timeout"} for q in queries]}


def dumps(line: dict) -> str:
    """One output line (no newline inside: JSON escapes them)."""
    return json.dumps(line, ensure_ascii=False, separators=(",", ":"))


# ---------------------------------------------------------------------------
# Output file and resume
# ---------------------------------------------------------------------------

def read_done(out: Path) -> tuple[set[str], int]:
    """Files already answered in ``out`` and how many of those lines are errors.

    A trailing line without its newline (an interrupted write) or that is not a
    JSON object naming a file is cut off, so appending starts on a clean line.
    """
    done: set[str] = set()
    errors = 0
    if not out.exists():
        return done, errors
    data = out.read_bytes()
    keep = 0
    pos = 0
    while pos < len(data):
        nl = data.find(b"\n", pos)
        if nl < 0:
            break  # partial trailing line
        raw = data[pos:nl]
        try:
            line = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError):
            break
        if not isinstance(line, dict) or not isinstance(line.get("file"), str):
            break
        done.add(line["file"])
        errors += "error" in line
        pos = keep = nl + 1
    if keep != len(data):
        with open(out, "r+b") as f:
            f.truncate(keep)
    return done, errors


SUFFIXES = (".yaml", ".yml", ".json")
"""The situation files of a directory (as :func:`solver.api.runner.situation_files`)."""


def expand(paths: Iterable[str | Path]) -> list[str]:
    """Files and directories → situation files (directories recursively, sorted), duplicates dropped.

    In a directory, a situation file's name that cannot be read as a file — a symbolic
    link in a loop or to nothing — is kept, so that its line says what is wrong (reading
    it fails with a located message) instead of the file vanishing from the batch. Links to
    directories are not followed (no loop through them)."""
    out: list[str] = []
    seen: set[str] = set()
    for p in paths:
        pp = Path(p)
        if pp.is_dir():
            files = sorted(f for f in pp.rglob("*") if f.suffix in SUFFIXES and (f.is_file() or _broken_link(f)))
        else:
            files = [pp]
        for f in files:
            s = str(f)
            if s not in seen:
                seen.add(s)
                out.append(s)
    return out


def _broken_link(f: Path) -> bool:
    """A symbolic link that leads to nothing readable: a loop, or a missing target."""
    return f.is_symlink() and not f.exists()


def _same_file(a: str | Path, b: str | Path) -> bool:
    """Whether two names are the same file (symbolic links followed; a looping link is only itself)."""
    return os.path.realpath(a) == os.path.realpath(b)


def _open_output(out: Path, resume: bool) -> tuple[set[str], int]:
    """Check ``out``'s directory (never created) and prepare the output: the files already
    answered and their error lines with ``resume``, else an empty file."""
    from ..core.errors import MtgsolveError

    if not out.parent.is_dir():
        raise MtgsolveError(str(out), "", f"the output's directory {out.parent} does not exist "
                                          f"(batch does not create it)")
    try:
        if resume:
            return read_done(out)
        out.write_bytes(b"")
    except OSError as e:
        raise MtgsolveError(str(out), "", f"cannot write the output: {e.strerror or e}") from None
    return set(), 0


# ---------------------------------------------------------------------------
# Workers
# ---------------------------------------------------------------------------

def warm_up() -> None:
    """Load what every file needs (card database, query modules, CP-SAT) so
    that a file's time budget is not spent on start-up."""
    import importlib

    from ..cards import oracle_index
    from ..queries import KINDS

    oracle_index()
    for kind in KINDS:
        try:
            importlib.import_module(f"mtgsolve.solver.queries.{kind}")
        except ImportError:
            pass
    importlib.import_module("ortools.sat.python.cp_model")


PR_SET_PDEATHSIG = 1
"""``prctl`` option (Linux, ``<linux/prctl.h>``): the signal a process gets when its parent dies."""


def die_with_parent(parent: int) -> None:
    """Make this (worker) process exit when the process ``parent`` dies, however it dies
    (``kill -9`` included): on Linux the kernel sends it ``SIGKILL`` then
    (``prctl(PR_SET_PDEATHSIG)``, through ctypes); elsewhere, or if that call fails, a
    daemon thread checks every second that the parent is still the same process. A parent
    already gone (it died before this ran) ends the process at once."""
    import signal

    armed = False
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            armed = libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0) == 0
        except (OSError, AttributeError):
            armed = False
    if os.getppid() != parent:
        os._exit(1)
    if not armed:
        import threading

        def watch() -> None:
            while os.getppid() == parent:
                time.sleep(1.0)
            os._exit(1)

        threading.Thread(target=watch, name="mtgsolve-parent-watch", daemon=True).start()


def _worker_main(conn: Connection, solve: Callable[[str, float | None, int], dict], warm: bool = True,
                 parent: int | None = None) -> None:
    """A worker process: tied to the batch's process ``parent`` (:func:`die_with_parent`),
    warm up (unless forked from a warm parent), say ``"ready"``, then answer chunks
    ``[(index, path), …], timeout, max_results`` — one ``(index, line)`` message per file, as
    each is answered — until ``None``."""
    if parent is not None:
        die_with_parent(parent)
    try:
        if warm:
            try:
                warm_up()
            except Exception:  # noqa: BLE001 - errors show up again, located, on the first file
                pass
        conn.send("ready")
        while True:
            task = conn.recv()
            if task is None:
                break
            chunk, timeout, max_results = task
            for index, path in chunk:
                conn.send((index, solve(path, timeout, max_results)))
    except (EOFError, KeyboardInterrupt, BrokenPipeError):
        pass


class _Worker:
    def __init__(self, ctx: Any, solve: Callable[[str, float | None, int], dict]):
        parent, child = ctx.Pipe()
        self.conn: Connection = parent
        self.solve = solve
        forked = ctx.get_start_method() == "fork"
        self.proc = ctx.Process(target=_worker_main, args=(child, solve, not forked, os.getpid()), daemon=True)
        self.proc.start()
        child.close()
        self.pending: list[tuple[int, str]] = []  # files sent, not yet answered (first = the one being solved)
        self.started = 0.0  # when the file being solved started (the previous answer, or the chunk's sending)
        self.ready = False

    @property
    def task(self) -> tuple[int, str] | None:
        return self.pending[0] if self.pending else None

    def give(self, chunk: list[tuple[int, str]], timeout: float | None, max_results: int) -> None:
        self.pending = list(chunk)
        self.started = time.monotonic()
        self.conn.send((chunk, timeout, max_results))

    def kill(self) -> None:
        try:
            self.proc.kill()
        finally:
            self.proc.join(5)
            self.conn.close()

    def stop(self) -> None:
        try:
            self.conn.send(None)
        except (BrokenPipeError, OSError):
            pass
        self.proc.join(5)
        if self.proc.is_alive():
            self.proc.kill()
            self.proc.join(5)
        self.conn.close()


CHUNK = 64
"""Most files sent to a worker at once (fewer near the end, and one at a time with a timeout)."""


def _context() -> Any:
    """``fork`` where available (POSIX): no main-module re-import, warm workers; else ``spawn``."""
    if "fork" in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("fork")
    _check_main_guard()
    return multiprocessing.get_context("spawn")


def _check_main_guard() -> None:
    """Under ``spawn`` every worker re-imports the calling script: refuse, with the reason, when the
    call runs at the top level of a script (not under ``if __name__ == "__main__":``)."""
    if multiprocessing.parent_process() is not None:
        raise RuntimeError("mtgsolve.solver.apps.batch.batch(jobs > 1) was called while a worker process imported the calling "
                           "script: put the call under 'if __name__ == \"__main__\":' (worker processes are "
                           "started with 'spawn' on this platform, which re-imports the script)")


def _run_pool(todo: list[str], jobs: int, timeout: float | None, max_results: int, emit,
              solve: Callable[[str, float | None, int], dict] = solve_one) -> None:
    ctx = _context()
    n_workers = max(1, min(jobs, len(todo)))
    if ctx.get_start_method() == "fork" and timeout is not None:
        try:  # workers forked from a warm parent: a file's budget is not spent on start-up
            warm_up()
        except Exception:  # noqa: BLE001
            pass
    workers = [_Worker(ctx, solve) for _ in range(n_workers)]
    queue = list(enumerate(todo))
    queue.reverse()
    busy: dict[Connection, _Worker] = {}
    start_failures = 0

    def next_chunk() -> list[tuple[int, str]]:
        size = 1 if timeout is not None else max(1, min(CHUNK, len(queue) // (4 * n_workers)))
        chunk = [queue.pop() for _ in range(min(size, len(queue)))]
        return chunk

    def requeue(w: _Worker) -> None:
        for item in reversed(w.pending[1:]):  # the files after the one that failed go back to the queue
            queue.append(item)
        w.pending = []

    try:
        while queue or busy:
            for w in workers:
                if w.ready and not w.pending and queue:
                    w.give(next_chunk(), timeout, max_results)
                    busy[w.conn] = w
            starting = {w.conn: w for w in workers if not w.ready}
            wait_for = None
            if timeout is not None and busy:
                now = time.monotonic()
                wait_for = max(0.0, min(w.started + timeout + GRACE - now for w in busy.values()))
            ready = cast("list[Connection]", wait(list(busy) + list(starting), timeout=wait_for))  # connections only
            for conn in ready:
                if conn in starting:
                    w = starting[conn]
                    try:
                        conn.recv()
                        w.ready = True
                    except (EOFError, OSError):  # died while starting: start another, a few times
                        start_failures += 1
                        if start_failures > MAX_START_FAILURES:
                            hint = ("" if ctx.get_start_method() == "fork" else
                                    " (with the 'spawn' start method each worker re-imports the calling script: "
                                    "call batch() under 'if __name__ == \"__main__\":')")
                            raise RuntimeError("batch worker processes keep dying while starting" + hint) from None
                        workers[workers.index(w)] = _respawn(ctx, w)
                    continue
                w = busy[conn]
                try:
                    _, line = conn.recv()
                except (EOFError, OSError):  # the worker died: its file is an error, the worker replaced
                    busy.pop(conn)
                    path = w.pending[0][1]
                    line = {"file": path, "error": f"{path}: internal error: the worker process died"}
                    requeue(w)
                    workers[workers.index(w)] = _respawn(ctx, w)
                else:
                    w.pending.pop(0)
                    w.started = time.monotonic()
                    if not w.pending:
                        busy.pop(conn)
                emit(line)
            if timeout is not None:
                now = time.monotonic()
                for conn, w in list(busy.items()):
                    if now > w.started + timeout + GRACE:
                        busy.pop(conn)
                        path = w.pending[0][1]
                        requeue(w)
                        workers[workers.index(w)] = _respawn(ctx, w)
                        emit(timeout_line(path))
    finally:
        for w in workers:
            w.stop()


def _respawn(ctx: Any, w: _Worker) -> _Worker:
    w.kill()
    return _Worker(ctx, w.solve)


# ---------------------------------------------------------------------------
# The batch
# ---------------------------------------------------------------------------

def _emitter(fh: Any, summary: BatchSummary, bar: Any) -> Callable[[dict], None]:
    """Write one answered file's line, whole and flushed, and count it in ``summary`` (both backends)."""
    def emit(line: dict) -> None:
        fh.write(dumps(line) + "\n")
        fh.flush()
        summary.done += 1
        if "error" in line:
            summary.failed += 1
        elif any(r.get("status") == "timeout" for r in line.get("results", [])):
            summary.timeouts += 1
        bar.advance(line)

    return emit


def batch(paths: Sequence[str | Path], out: str | Path, jobs: int = 1, resume: bool = False,
          timeout: float | None = None, max_results: int = 10_000, progress: bool | None = None, *,
          solve: Callable[[str, float | None, int], dict] = solve_one) -> BatchSummary:
    """Solve every situation file under ``paths`` into the JSON Lines file ``out``
    (see the module docstring for the guarantees).

    ``progress``: show the progress bar (default: when stderr is a terminal).
    ``solve``: the function answering one file, ``solve(path, timeout,
    max_results) -> line`` (default :func:`solve_one`); it must be a picklable
    module-level function when worker processes are used."""
    if jobs < 1:
        raise ValueError("jobs must be at least 1")
    if timeout is not None and timeout <= 0:
        raise ValueError("timeout must be positive")
    t0 = time.monotonic()
    out = Path(out)
    done, failed = _open_output(out, resume)
    files = [f for f in expand(paths) if not _same_file(f, out)]  # never read the output itself
    summary = BatchSummary(total=len(files), failed=failed)
    todo = [f for f in files if f not in done]
    summary.skipped = len(files) - len(todo)
    show = sys.stderr.isatty() if progress is None else progress
    with open(out, "a", encoding="utf-8") as fh, _Progress(show, len(todo)) as bar:
        emit = _emitter(fh, summary, bar)

        if jobs == 1 and timeout is None:
            for f in todo:
                emit(solve(f, None, max_results))
        elif todo:
            _run_pool(todo, jobs, timeout, max_results, emit, solve)
    summary.seconds = time.monotonic() - t0
    return summary


# ---------------------------------------------------------------------------
# The Ray backend
# ---------------------------------------------------------------------------

RAY_CHUNK = 64
"""Most files per Ray task (fewer near the end; one per task with a timeout)."""


def _ray_solve_chunk(items: list[tuple[str, bytes | None]], timeout: float | None, max_results: int,
                     cards: str | None = None) -> list[dict]:
    """A Ray task: the lines for a chunk of files given as (path, bytes) — the
    bytes travel with the task, so the cluster's nodes need not see the files."""
    return [solve_one(path, timeout, max_results, data, cards) for path, data in items]


def _read_bytes(path: str) -> bytes | None:
    """A file's bytes (bounded by the size limit), or None when it can't be read
    (then the line is made where the batch runs, with the usual message)."""
    from ..io import load as sit

    limit = sit._limit(None, sit.MAX_FILE_BYTES_ENV, sit.DEFAULT_MAX_FILE_BYTES)
    try:
        with open(path, "rb") as f:
            return f.read(limit + 1)
    except (OSError, ValueError):
        return None


def batch_ray(paths: Sequence[str | Path], out: str | Path, resume: bool = False, timeout: float | None = None,
              max_results: int = 10_000, progress: bool | None = None, *, address: str | None = None,
              chunk: int | None = None, cards: str | None = None) -> BatchSummary:
    """:func:`batch` on a Ray cluster (``pip install 'mtgsolve[ray]'``); ``cards``: the user's card
    file added to the shipped database (it must be readable at the same path on every node).

    The same output lines, resume and error semantics as :func:`batch` with
    ``jobs > 1``: one whole, flushed line per file in completion order, files
    already in the output skipped with ``resume``, a bad file an error line, a
    file whose task overruns its budget by ``GRACE`` cancelled and answered
    ``timeout``. ``address``: the cluster (``ray://head:10001``, ``auto``);
    default ``RAY_ADDRESS``, else a local Ray instance started for the batch.
    If Ray is already initialised in this process, that connection is used.
    Files are read here and sent with the tasks; every node needs the same
    ``mtgsolve`` version installed (docs/batch.md)."""
    try:
        import ray
    except ImportError:
        from ..core.errors import MtgsolveError

        raise MtgsolveError("--backend ray", "", "Ray is not installed; pip install 'mtgsolve[ray]'") from None
    if timeout is not None and timeout <= 0:
        raise ValueError("timeout must be positive")
    t0 = time.monotonic()
    out = Path(out)
    done, failed = _open_output(out, resume)
    files = [f for f in expand(paths) if not _same_file(f, out)]
    summary = BatchSummary(total=len(files), failed=failed)
    todo = [f for f in files if f not in done]
    summary.skipped = len(files) - len(todo)
    started_here = False
    if todo and not ray.is_initialized():
        ray.init(address=address, ignore_reinit_error=True, include_dashboard=False, logging_level=logging.ERROR,
                 log_to_driver=False)
        started_here = True
    show = sys.stderr.isatty() if progress is None else progress
    try:
        with open(out, "a", encoding="utf-8") as fh, _Progress(show, len(todo)) as bar:
            emit = _emitter(fh, summary, bar)

            if todo:
                _run_ray(ray, todo, timeout, max_results, emit, chunk, cards)
    finally:
        if started_here:
            ray.shutdown()
    summary.seconds = time.monotonic() - t0
    return summary


def _run_ray(ray: Any, todo: list[str], timeout: float | None, max_results: int, emit, chunk: int | None,
             cards: str | None = None) -> None:
    remote = ray.remote(max_retries=0)(_ray_solve_chunk)
    cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
    size = 1 if timeout is not None else (chunk or max(1, min(RAY_CHUNK, len(todo) // (4 * cpus))))
    in_flight_max = 2 * cpus
    queue = list(reversed(todo))
    running: dict[Any, tuple[list[str], float]] = {}  # task → (its files, when it was submitted)

    def submit() -> None:
        while queue and len(running) < in_flight_max:
            paths = [queue.pop() for _ in range(min(size, len(queue)))]
            items = []
            for p in paths:
                data = _read_bytes(p)
                if data is None:  # unreadable here: the usual located line, made here
                    emit(solve_one(p, timeout, max_results, cards=cards))
                else:
                    items.append((p, data))
            if items:
                running[remote.remote(items, timeout, max_results, cards)] = ([p for p, _ in items], time.monotonic())

    submit()
    while running:
        wait_for = None
        if timeout is not None:
            now = time.monotonic()
            wait_for = max(0.0, min(t + len(ps) * (timeout + GRACE) - now for ps, t in running.values()))
        ready, _ = ray.wait(list(running), num_returns=1, timeout=wait_for)
        for ref in ready:
            paths, _ = running.pop(ref)
            try:
                lines = ray.get(ref)
            except Exception as e:  # noqa: BLE001 - a task that failed: its files are error lines
                from ..core.errors import error_line

                why = error_line(e).splitlines()[0][:200] if str(e) else type(e).__name__
                lines = [{"file": p, "error": f"{p}: internal error: the Ray task failed ({why})"} for p in paths]
            for line in lines:
                emit(line)
        if timeout is not None:
            now = time.monotonic()
            for ref, (paths, t) in list(running.items()):
                if now > t + len(paths) * (timeout + GRACE):
                    running.pop(ref)
                    ray.cancel(ref, force=True)
                    for p in paths:
                        emit(timeout_line(p))
        submit()


class _Progress:
    """A rich progress bar on stderr (or nothing)."""

    def __init__(self, show: bool, total: int):
        self.show = show and total > 0
        self.total = total
        self.progress: Any = None   # a rich Progress when shown (rich is imported only then)
        self.task: Any = None

    def __enter__(self) -> "_Progress":
        if self.show:
            from rich.console import Console
            from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn,
                                       TimeRemainingColumn)

            self.progress = Progress(TextColumn("[bold]batch"), BarColumn(), MofNCompleteColumn(),
                                     TextColumn("{task.fields[failed]} failed"), TimeElapsedColumn(),
                                     TimeRemainingColumn(), console=Console(file=sys.stderr), transient=False)
            self.progress.__enter__()
            self.task = self.progress.add_task("batch", total=self.total, failed=0)
        return self

    def advance(self, line: dict) -> None:
        if self.progress is not None:
            failed = self.progress.tasks[0].fields["failed"] + ("error" in line)
            self.progress.update(self.task, advance=1, failed=failed)

    def __exit__(self, *exc: Any) -> None:
        if self.progress is not None:
            self.progress.__exit__(*exc)
