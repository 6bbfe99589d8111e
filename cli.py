"""The ``mtgsolve`` command line (contract §3). Thin: parse arguments, call
:mod:`solver`, print.

Exit codes (docs/getting-started.md, "Exit codes"):

* ``0`` — every query answered (``ok``, ``truncated``, ``timeout`` or
  ``unsupported``: honest answers), every ``check`` matched;
* ``1`` — some query answered ``status: error``, a ``check`` differs, or a
  ``batch`` line is an error;
* ``2`` — bad input: an unreadable or malformed file, a malformed query, a bad
  option; one line on stderr naming the file and the place inside it; nothing
  is half-written;
* ``3`` — an unexpected internal failure (one line; ``MTGSOLVE_DEBUG=1`` shows
  the traceback).

Start-up: nothing heavy is imported at module level — not even the command-line
framework (typer builds :data:`app` on first use) — and each command imports
what it needs when it runs, so ``--help``, ``--version``, ``schema`` and
``cards show`` never load CP-SAT, numpy or MCP. ``mtgsolve solve FILE… [--json]
[--max-results N] [--timeout S]`` (the common case) is parsed without typer at
all (:func:`_fast_solve_args`); anything else goes through typer. On that path
the cyclic garbage collector is off until the first file's modules are imported
(:func:`_warm`), and the process ends without the interpreter's tear-down once
everything is printed (:func:`_leave`).
"""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any, List, Optional

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_BAD_INPUT = 2  # the same as solver.core.errors.EXIT_BAD_INPUT (not imported: start-up time)
EXIT_INTERNAL = 3


class _Exit(Exception):
    """Leave with an exit code (turned into ``typer.Exit`` or ``SystemExit``)."""

    def __init__(self, code: int):
        super().__init__(code)
        self.code = code


def version() -> str:
    """The installed distribution's version (``importlib.metadata``), else the source tree's."""
    try:
        from importlib.metadata import PackageNotFoundError, version as _version

        return _version("mtgsolve")
    except (ImportError, PackageNotFoundError):  # running from a checkout that was never installed
        from mtgsolve.solver import __version__

        return __version__


def _echo(text: str, err: bool = False) -> None:
    stream = sys.stderr if err else sys.stdout
    stream.write(text + "\n")
    stream.flush()


def _fail(exc: BaseException) -> None:
    """Print one line for ``exc`` and exit (2 for bad input, 3 otherwise)."""
    if os.environ.get("MTGSOLVE_DEBUG"):
        raise exc
    from mtgsolve.solver.core.errors import MtgsolveError, error_line

    _echo(error_line(exc), err=True)
    raise _Exit(EXIT_BAD_INPUT if isinstance(exc, MtgsolveError) else EXIT_INTERNAL)


def _bad_input(message: str) -> None:
    """One line on stderr, exit 2."""
    _echo(message, err=True)
    raise _Exit(EXIT_BAD_INPUT)


def _options(max_results: int, timeout: Optional[float]):
    from mtgsolve.solver.queries import Options

    return Options(max_results=max_results, timeout=timeout)


def _dumps(obj) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ": "))


def _human(result: dict) -> list[str]:
    """A compact, deterministic human rendering of one query result."""
    lines = [f"  {result.get('kind')}: {result.get('status')}"]
    for k, v in result.items():
        if k in ("kind", "status"):
            continue
        if isinstance(v, list) and v and len(_dumps(v)) > 100:
            lines.append(f"    {k}:")
            lines.extend(f"      - {_dumps(x)}" for x in v)
        else:
            lines.append(f"    {k}: {_dumps(v)}")
    return lines


STDIN = "-"


def _inputs(paths: List[str], what: str = "situation files") -> list[str]:
    """Files as given, directories expanded (every .yaml/.yml/.json below, sorted), ``-`` for standard input.
    A directory with no situation file is bad input (exit 2)."""
    out: list[str] = []
    for p in paths:
        if p == STDIN:
            out.append(STDIN)
            continue
        pp = Path(p)
        if pp.is_dir():
            found = sorted(str(f) for f in pp.rglob("*") if f.suffix in (".yaml", ".yml", ".json") and f.is_file())
            if not found:
                _bad_input(f"{p}: no {what} (.yaml, .yml, .json) in this directory")
            out.extend(found)
        else:
            out.append(p)
    if out.count(STDIN) > 1:
        _bad_input("-: standard input can be read only once")
    return out


_CARD_FILE: list[str] = []  # the user's card database for this command (--cards or MTGSOLVE_CARDS): the edge's choice


def _cards():
    """The card database of this command (:class:`solver.cards.CardDB`), checked readable."""
    from mtgsolve.solver.cards import DATA_ENV, CardDB

    path = _CARD_FILE[0] if _CARD_FILE else os.environ.get(DATA_ENV)  # the fast `solve` path skips the option
    return CardDB(path or None).check()


def _load(f: str):
    """A loaded situation from a file or standard input (``-``, YAML or JSON)."""
    from mtgsolve.solver.io.load import load_situation, parse_document, situation_from_dict

    if f == STDIN:
        data = sys.stdin.buffer.read() if hasattr(sys.stdin, "buffer") else sys.stdin.read().encode("utf-8")
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as e:
            from mtgsolve.solver.core.errors import SituationError

            raise SituationError("<stdin>", "", f"not UTF-8 text (bad byte at offset {e.start})") from None
        return situation_from_dict(parse_document(text, "<stdin>"), "<stdin>", cards=_cards())
    return load_situation(f, cards=_cards())


def _warm(loaded: Any) -> None:
    """End of start-up (see :func:`main`): import CP-SAT (every query builds a CP-SAT model) and the
    modules of the file's query kinds, then keep every object made so far out of the garbage
    collector's work (``gc.freeze``) and turn the collector back on for the answers. An import that
    fails here fails again, the same way, when the query is answered."""
    import gc
    import importlib

    from mtgsolve.solver.queries import KINDS

    try:
        import ortools.sat.python.cp_model  # noqa: F401
    except Exception:  # noqa: BLE001 - reported where it is needed
        pass
    for q in loaded.queries:
        kind = q.get("kind") if isinstance(q, dict) else None
        if isinstance(kind, str) and kind in KINDS:
            try:
                importlib.import_module(f"mtgsolve.solver.queries.{kind}")
            except Exception:  # noqa: BLE001 - answered (or reported) by the query itself
                pass
    gc.freeze()
    gc.enable()


def _solve(files: List[str], as_json: bool, max_results: int, timeout: Optional[float],
           start_up: bool = False) -> None:
    """``mtgsolve solve``: answer every file, print only once all are answered; exit 1 if a query
    answered ``error``. ``start_up``: the garbage collector is off until the first file's modules
    are imported (:func:`_warm`)."""
    outputs = []
    try:
        from mtgsolve.solver.api.runner import solve_loaded

        opts = _options(max_results, timeout)
        for f in _inputs(files):
            loaded = _load(f)
            if start_up:
                _warm(loaded)
                start_up = False
            outputs.append({"file": "<stdin>" if f == STDIN else f, "name": loaded.state.name,
                            "results": solve_loaded(loaded, opts)})
    except _Exit:
        raise
    except Exception as e:  # noqa: BLE001 - every failure becomes one line
        _fail(e)
    lines = []
    for out in outputs:  # printed only once every file answered: nothing half-written
        if as_json:
            lines.append(json.dumps(out, ensure_ascii=False))
        else:
            lines.append(f"{out['file']}" + (f" — {out['name']}" if out.get("name") else ""))
            lines.extend("\n".join(_human(r)) for r in out["results"])
    if lines:
        _echo("\n".join(lines))
    if any(r.get("status") == "error" for out in outputs for r in out["results"]):
        raise _Exit(EXIT_FAILED)


def _fast_solve_args(argv: list[str]) -> tuple[list[str], bool, int, Optional[float]] | None:
    """``solve FILE… [--json] [--max-results N] [--timeout S]`` parsed without typer, or None for anything
    else (help, other commands, global options, odd values: typer handles them, with its messages)."""
    if not argv or argv[0] != "solve":
        return None
    files: list[str] = []
    as_json, max_results, timeout = False, 10_000, None
    rest = argv[1:]
    i = 0
    only_files = False
    while i < len(rest):
        a = rest[i]
        if only_files or a == STDIN or not a.startswith("-"):
            files.append(a)
        elif a == "--":
            only_files = True
        elif a == "--json":
            as_json = True
        elif a in ("--max-results", "--timeout") or a.startswith(("--max-results=", "--timeout=")):
            name, eq, value = a.partition("=")
            if not eq:
                if i + 1 >= len(rest):
                    return None
                i += 1
                value = rest[i]
            try:
                if name == "--max-results":
                    max_results = int(value)
                    if max_results < 0:
                        return None
                else:
                    timeout = float(value)
                    if not timeout >= 0:
                        return None
            except ValueError:
                return None
        else:
            return None
        i += 1
    return (files, as_json, max_results, timeout) if files else None


# ---------------------------------------------------------------------------
# The typer application (built on first use: ``from cli import app``)
# ---------------------------------------------------------------------------

_APP: Any = None


def __getattr__(name: str) -> Any:
    if name in ("app", "cards_app"):
        app = _build()
        return app if name == "app" else app._mtgsolve_cards_app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _build() -> Any:
    """The typer application with every command."""
    global _APP
    if _APP is not None:
        return _APP
    import typer

    import functools

    def _run(fn, *args) -> None:
        try:
            fn(*args)
        except _Exit as e:
            raise typer.Exit(e.code) from None

    def _exits(fn):
        """A command whose ``_Exit`` becomes ``typer.Exit`` (typer reads the signature through ``wraps``)."""
        @functools.wraps(fn)
        def command(*args: Any, **kwargs: Any) -> Any:
            try:
                return fn(*args, **kwargs)
            except _Exit as e:
                raise typer.Exit(e.code) from None
        return command

    app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                      help="Exact legal choices in Magic: The Gathering situations (CP-SAT).")
    cards_app = typer.Typer(add_completion=False, no_args_is_help=True,
                            help="The card library and the Oracle-text reader.")
    app.add_typer(cards_app, name="cards")
    app._mtgsolve_cards_app = cards_app

    def _print_version(value: bool) -> None:
        if value:
            typer.echo(f"mtgsolve {version()}")
            raise typer.Exit(EXIT_OK)

    @app.callback()
    def _global(cards: Optional[Path] = typer.Option(
            None, "--cards", envvar="MTGSOLVE_CARDS", show_envvar=False,
            help="A card database to add to the built-in one (an MTGJSON file, or one made by "
                 "'mtgsolve cards import'); its cards win on a name clash. The same as setting "
                 "MTGSOLVE_CARDS."),
            show_version: bool = typer.Option(False, "--version", is_eager=True, callback=_print_version,
                                              help="Print the version and exit.")) -> None:
        """Exact legal choices in Magic: The Gathering situations (CP-SAT)."""
        _CARD_FILE[:] = [str(cards)] if cards is not None and str(cards) else []

    MaxResults = typer.Option(10_000, "--max-results", min=0,
                              help="Cut listings after this many entries (status: truncated).")
    Timeout = typer.Option(None, "--timeout", min=0.0, help="Seconds allowed per query (status: timeout).")

    @app.command()
    @_exits
    def solve(files: List[str] = typer.Argument(..., help="Situation files (YAML or JSON), directories (every "
                                                          ".yaml/.yml/.json below, sorted), or - for standard input."),
              as_json: bool = typer.Option(False, "--json", help="One JSON object per file."),
              max_results: int = MaxResults, timeout: Optional[float] = Timeout) -> None:
        """Answer the queries in each situation file. Exit 0 when every query is answered, 1 when
        some query answered 'error', 2 on bad input."""
        _run(_solve, files, as_json, max_results, timeout)


    @app.command()
    @_exits
    def check(paths: List[str] = typer.Argument(..., help="Situation files or directories, or - for standard input."),
              max_results: int = MaxResults, timeout: Optional[float] = Timeout) -> None:
        """Compare each file's answers with its `expect`: exit 1 if any differ, 2 if a file is bad input."""
        from mtgsolve.solver.core.errors import MtgsolveError, error_line
        from mtgsolve.solver.api.runner import check_loaded

        opts = _options(max_results, timeout)
        files = _inputs(paths)
        failed = bad = checked = 0
        for f in files:
            try:
                res = check_loaded(_load(f), opts)
                line = f"{'ok  ' if res.ok else 'FAIL'} {f}: {res.message}"
                ok = res.ok
            except MtgsolveError as e:
                line, ok = f"FAIL {e}", False
                bad += 1
            except Exception as e:  # noqa: BLE001
                if os.environ.get("MTGSOLVE_DEBUG"):
                    raise
                line, ok = f"FAIL {f}: internal error: {error_line(e)}", False
            checked += 1
            failed += not ok
            _echo(line)
        _echo(f"{checked - failed} passed, {failed} failed")
        if bad:
            raise _Exit(EXIT_BAD_INPUT)
        if failed:
            raise _Exit(EXIT_FAILED)


    @app.command()
    @_exits
    def batch(paths: List[str] = typer.Argument(..., help="Situation files or directories (recursive)."),
              out: Path = typer.Option(..., "--out", help="JSON Lines output, one line per file."),
              jobs: int = typer.Option(1, "--jobs", min=1, help="Worker processes (local backend)."),
              resume: bool = typer.Option(False, "--resume", help="Skip files already in the output; append."),
              force: bool = typer.Option(False, "--force", help="Overwrite an existing output file."),
              backend: str = typer.Option("local", "--backend", help="local (worker processes on this machine) or "
                                                                     "ray (a Ray cluster; pip install 'mtgsolve[ray]')."),
              address: Optional[str] = typer.Option(None, "--address", help="(ray) the cluster to join, e.g. "
                                                                            "ray://head:10001 or auto; default: "
                                                                            "RAY_ADDRESS, else a local Ray instance."),
              max_results: int = MaxResults, timeout: Optional[float] = Timeout) -> None:
        """Solve many files into JSON Lines (progress on stderr); exit 1 if any file failed, 2 on bad input."""
        if backend not in ("local", "ray"):
            _bad_input(f"--backend: unknown backend '{backend}' (expected local or ray)")
        if address is not None and backend != "ray":
            _bad_input("--address: only with --backend ray")
        if resume and force:
            _bad_input("--resume and --force: give one of them")
        if timeout is not None and timeout <= 0:
            _bad_input(f"--timeout: must be more than 0 seconds (got {timeout:g})")
        if out.is_dir():
            _bad_input(f"{out}: --out is a directory")
        if out.exists() and out.stat().st_size > 0 and not (resume or force):
            _bad_input(f"{out}: the output file exists; add --resume to continue it or --force to overwrite it")
        try:
            if backend == "ray":
                from mtgsolve.solver.apps.batch import batch_ray

                summary = batch_ray(paths, out, resume=resume, timeout=timeout, max_results=max_results,
                                    address=address, cards=_cards().path)
            else:
                from functools import partial

                from mtgsolve.solver.apps.batch import batch as run_batch, solve_one

                db = _cards().path
                summary = run_batch(paths, out, jobs=jobs, resume=resume, timeout=timeout, max_results=max_results,
                                    solve=partial(solve_one, cards=db) if db else solve_one)
        except typer.Exit:
            raise
        except Exception as e:  # noqa: BLE001
            _fail(e)
        _echo(str(summary), err=True)
        if summary.failed:
            raise _Exit(EXIT_FAILED)


    @app.command()
    @_exits
    def mcp(allow_paths: Optional[Path] = typer.Option(
            None, "--allow-paths", help="Directory the tools may read situation files from (default: none).")) -> None:
        """Serve the queries as MCP tools over stdio (pip install 'mtgsolve[mcp]')."""
        if allow_paths is not None and not allow_paths.is_dir():
            _bad_input(f"--allow-paths: {allow_paths} is not a directory")
        import importlib.util

        missing = [m for m in ("mcp", "mcp_types") if importlib.util.find_spec(m) is None]
        if missing:
            _bad_input(f"mcp: the MCP server needs the optional extra 'mcp' (the MCP SDK is not installed): "
                       f"pip install 'mtgsolve[mcp]'")
        try:
            from mtgsolve.solver.apps.mcp_server import serve
        except ImportError as e:
            _bad_input(f"mcp: the MCP SDK cannot be imported ({e.name}): pip install 'mtgsolve[mcp]'")
        serve(allow_paths, _cards())


    @app.command()
    @_exits
    def schema() -> None:
        """Print the situation file's JSON Schema (contract §1; one precise schema per query kind)."""
        from mtgsolve.solver.io.load import situation_json_schema

        _echo(json.dumps(situation_json_schema(), indent=2, sort_keys=True))


    @cards_app.command("show")
    @_exits
    def cards_show(name: str = typer.Argument(..., help="Card name (case-insensitive); a face's own name shows "
                                                        "the whole card."),
                   as_json: bool = typer.Option(False, "--json")) -> None:
        """What the project understood of a card, ability by ability and face by face; every unmodeled part listed."""
        try:
            from mtgsolve.solver.api.describe import also_face_of, card_for_show, describe_card

            card, named = card_for_show(name, _cards())
            info = describe_card(card)
        except KeyError as e:
            _echo(f"{name}: {e}", err=True)
            raise _Exit(EXIT_BAD_INPUT)
        except Exception as e:  # noqa: BLE001
            _fail(e)
        if named is not None:
            info["named_face"] = named
        others = also_face_of(name, card)
        if others:
            info["also_face_of"] = others
        if as_json:
            _echo(json.dumps(info, ensure_ascii=False, indent=2))
            return
        _echo("\n".join(_show_lines(info)))


    @cards_app.command("import")
    @_exits
    def cards_import(src: Path = typer.Argument(..., help="An MTGJSON file (AtomicCards, a set file, or a list of cards)."),
                     out: Path = typer.Option(Path("cards.json.gz"), "--out", help="Where to write the card database.")) -> None:
        """Build a card database from an MTGJSON file, with each card's supported and unsupported parts."""
        try:
            from mtgsolve.solver.cards.importer import import_cards
            summary = import_cards(src, out)
        except Exception as e:  # noqa: BLE001
            _fail(e)
        _echo(str(summary))
        _echo(f"use it with: mtgsolve --cards {out} solve ... (or MTGSOLVE_CARDS={out})")


    @cards_app.command("coverage")
    @_exits
    def cards_coverage(src: Path = typer.Argument(..., help="An MTGJSON-shaped corpus (e.g. solver/data/oracle-cards.json.gz)."),
                       top: int = typer.Option(20, "--top", help="How many unsupported templates to list."),
                       as_json: bool = typer.Option(False, "--json")) -> None:
        """How much of a card corpus the Oracle-text reader understands."""
        try:
            from mtgsolve.solver.cards.coverage import coverage_report
            rep = coverage_report(src, top)
        except Exception as e:  # noqa: BLE001
            _fail(e)
        if as_json:
            _echo(json.dumps(rep.to_json(), indent=2, sort_keys=True))
        else:
            _echo("\n".join(rep.lines()))

    _APP = app
    return app


def _stats(d: dict) -> str:
    """A face's printed numbers and colors for ``cards show``: P/T, loyalty, defense (CR 208, 306.5b,
    310.4), colors (CR 202.2; "color indicator" when it has one, 204)."""
    parts = []
    if d.get("power") is not None or d.get("toughness") is not None:
        parts.append(f"{d.get('power')}/{d.get('toughness')}")
    if d.get("loyalty") is not None:
        parts.append(f"loyalty {d['loyalty']}")
    if d.get("defense") is not None:
        parts.append(f"defense {d['defense']}")
    colors = "".join(d.get("colors") or ()) or "colorless"
    parts.append(f"colors {colors}" + (" (color indicator)" if d.get("color_indicator") else ""))
    return "; ".join(parts)


def _reading_lines(d: dict, pad: str, seen: set[str]) -> list[str]:
    """Oracle text, what was understood, the unread parts (each once: ``seen``) and read structures."""
    out = []
    if d.get("oracle_text"):
        out.append(f"{pad}oracle text:")
        out.extend(f"{pad}  {line}" for line in d["oracle_text"].split("\n"))
    if d.get("lines") is not None:
        out.append(f"{pad}understood:")
        out.extend(f"{pad}  {line}" for line in d["lines"] if "unsupported: " not in line)
    for u in d.get("unread", ()):
        if u["text"] not in seen:
            seen.add(u["text"])
            out.append(f"{pad}unread ({u['kind']}; affects {', '.join(u['affects'])}): {u['text']}")
    for st in d.get("structures", ()):
        out.append(f"{pad}structure read (its meaning unread): {st['structure']} — {st['text']}")
    return out


def _face_lines(info: dict, seen: set[str]) -> list[str]:
    """Every face of a multi-face card (``cards show``), front first; a face the data lacks is unread."""
    out = [f"  layout: {info['layout']}" + (f"; named face: {info['named_face']}" if info.get("named_face") else "")
           + f"; {len(info['faces'])} faces"]
    if info.get("also_face_of"):
        out.append(f"  also a face of: {'; '.join(info['also_face_of'])}")
    for i, f in enumerate(info["faces"], 1):
        if not f["read"]:
            out.append(f"  face: {f['name']}  (not in the card database: unread)")
            continue
        if "type_line" not in f:             # the front of a card whose other faces the data lacks
            out.append(f"  face: {f['name']}  (the card above)")
            continue
        out.append(f"  face {i}: {f['name']}  {f['mana_cost'] or '(no mana cost)'}  ({f['type_line']})  {_stats(f)}")
        out.extend(_reading_lines(f, "    ", seen))
    return out


def _show_lines(info: dict) -> list[str]:
    """``mtgsolve cards show``'s text: the card, each face when it has several, what was read of each."""
    out = [f"{info['name']}  {info['mana_cost']}  ({info['type_line']})"]
    seen: set[str] = set()
    if "faces" in info:
        out.extend(_face_lines(info, seen))
        if any("type_line" not in f for f in info["faces"]):
            out.extend(_reading_lines(info, "  ", seen))     # the card itself is its only face read
        else:
            out.extend(f"  unread ({u['kind']}; affects {', '.join(u['affects'])}): {u['text']}"
                       for u in info["unread"] if u["text"] not in seen)
    else:
        out.append(f"  {_stats(info)}")
        if info.get("also_face_of"):
            out.append(f"  also a face of: {'; '.join(info['also_face_of'])}")
        out.extend(_reading_lines(info, "  ", seen))
    out.append(f"  behaviour from: {info['source']}; fully modeled: {'yes' if info['fully_modeled'] else 'no'}")
    return out


def _leave(code: int) -> None:
    """End the process after ``solve FILE…`` has printed everything: flush both streams and exit
    without the interpreter's tear-down (freeing every module and object of CP-SAT, numpy, pandas
    and the solver takes longer than a small query: start-up time, issue 16). Nothing is left to do
    then: no file is open for writing, no thread runs, and the solve path registers no ``atexit``
    hook. When a stream cannot be flushed (a closed pipe), the normal exit reports it."""
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except Exception:  # noqa: BLE001 - the normal exit path handles (and reports) it
        sys.exit(code)
    os._exit(code)


def main() -> None:
    """Console-script entry point (``solve FILE…`` ends the process itself: :func:`_leave`)."""
    # The command line uses pydantic only to validate situations: skip the scan for third-party pydantic
    # plugins (entry points) at start-up, unless the user set this variable.
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    try:
        if sys.argv[1:] == ["--version"]:
            _echo(f"mtgsolve {version()}")
            sys.exit(EXIT_OK)
        fast = _fast_solve_args(sys.argv[1:])
        if fast is not None:
            # Start-up: importing the solver, CP-SAT, numpy and pandas makes some 70,000 objects that live
            # as long as the process; the cyclic garbage collector would go over them again and again
            # (about a tenth of a small solve). It is off until the first file's modules are imported.
            import gc

            gc.disable()
            code = EXIT_OK
            try:
                _solve(*fast, start_up=True)
            except _Exit as e:
                code = e.code
            _leave(code)
        _build()()
    except KeyboardInterrupt:
        _echo("interrupted", err=True)
        sys.exit(130)


if __name__ == "__main__":
    main()
