"""The ``mtgsolve`` command line (contract §3). Thin: parse arguments, call
:mod:`solver`, print.

Bad input is one line on stderr naming the file and the place inside it, with
exit code 2; nothing is half-written. Unexpected internal failures print one
line too (exit 3); set ``MTGSOLVE_DEBUG=1`` to see the traceback.
"""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import List, Optional

import typer

from solver.errors import EXIT_BAD_INPUT, MtgsolveError

EXIT_INTERNAL = 3

app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  help="Exact legal choices in Magic: The Gathering situations (CP-SAT).")
cards_app = typer.Typer(add_completion=False, no_args_is_help=True, help="The card library and the Oracle-text reader.")
app.add_typer(cards_app, name="cards")


@app.callback()
def _global(cards: Optional[Path] = typer.Option(
        None, "--cards", help="Card database to use instead of the shipped one (an MTGJSON file, or one made by "
                              "'mtgsolve cards import'); the same as setting MTGSOLVE_CARDS.")) -> None:
    """Exact legal choices in Magic: The Gathering situations (CP-SAT)."""
    if cards is not None:
        from solver.cards import DATA_ENV

        os.environ[DATA_ENV] = str(cards)  # read when a card is first looked up (the batch workers inherit it)


def _fail(exc: BaseException) -> None:
    """Print one line for ``exc`` and exit (2 for bad input, 3 otherwise)."""
    if os.environ.get("MTGSOLVE_DEBUG"):
        raise exc
    from solver.errors import error_line

    typer.echo(error_line(exc), err=True)
    raise typer.Exit(EXIT_BAD_INPUT if isinstance(exc, MtgsolveError) else EXIT_INTERNAL)


def _options(max_results: int, timeout: Optional[float]):
    from solver.queries import Options

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


MaxResults = typer.Option(10_000, "--max-results", help="Cut listings after this many entries (status: truncated).")
Timeout = typer.Option(None, "--timeout", help="Seconds allowed per query (status: timeout).")


@app.command()
def solve(files: List[Path] = typer.Argument(..., help="Situation files (YAML or JSON)."),
          as_json: bool = typer.Option(False, "--json", help="One JSON object per file."),
          max_results: int = MaxResults, timeout: Optional[float] = Timeout) -> None:
    """Answer the queries in each situation file."""
    from solver.runner import solve_file

    opts = _options(max_results, timeout)
    outputs = []
    try:
        for f in files:
            outputs.append(solve_file(f, opts))
    except Exception as e:  # noqa: BLE001 - every failure becomes one line
        _fail(e)
    for out in outputs:  # printed only once every file answered: nothing half-written
        if as_json:
            typer.echo(json.dumps(out, ensure_ascii=False))
        else:
            typer.echo(f"{out['file']}" + (f" — {out['name']}" if out.get("name") else ""))
            for r in out["results"]:
                typer.echo("\n".join(_human(r)))


@app.command()
def check(paths: List[str] = typer.Argument(..., help="Situation files or directories."),
          max_results: int = MaxResults, timeout: Optional[float] = Timeout) -> None:
    """Compare each file's answers with its `expect`; exit 1 if any differ."""
    from solver.runner import check_loaded, situation_files
    from solver.situation import load_situation

    opts = _options(max_results, timeout)
    files = situation_files(paths)
    failed = 0
    checked = 0
    for f in files:
        try:
            res = check_loaded(load_situation(f), opts)
            line = f"{'ok  ' if res.ok else 'FAIL'} {f}: {res.message}"
            ok = res.ok
        except MtgsolveError as e:
            line, ok = f"FAIL {e}", False
        except Exception as e:  # noqa: BLE001
            if os.environ.get("MTGSOLVE_DEBUG"):
                raise
            from solver.errors import error_line
            line, ok = f"FAIL {f}: internal error: {error_line(e)}", False
        checked += 1
        failed += not ok
        typer.echo(line)
    typer.echo(f"{checked - failed} passed, {failed} failed")
    if failed or not files:
        raise typer.Exit(1)


@app.command()
def batch(paths: List[str] = typer.Argument(..., help="Situation files or directories (recursive)."),
          out: Path = typer.Option(..., "--out", help="JSON Lines output, one line per file."),
          jobs: int = typer.Option(1, "--jobs", min=1, help="Worker processes."),
          resume: bool = typer.Option(False, "--resume", help="Skip files already in the output; append."),
          max_results: int = MaxResults, timeout: Optional[float] = Timeout) -> None:
    """Solve many files into JSON Lines (progress on stderr); exit 1 if any file failed."""
    from solver.batch import batch as run_batch

    try:
        summary = run_batch(paths, out, jobs=jobs, resume=resume, timeout=timeout, max_results=max_results)
    except Exception as e:  # noqa: BLE001
        _fail(e)
    typer.echo(str(summary), err=True)
    if summary.failed:
        raise typer.Exit(1)


@app.command()
def mcp(allow_paths: Optional[Path] = typer.Option(
        None, "--allow-paths", help="Directory the tools may read situation files from (default: none).")) -> None:
    """Serve the queries as MCP tools over stdio."""
    from solver.mcp_server import serve

    serve(allow_paths)


@app.command()
def schema() -> None:
    """Print the situation file's JSON Schema (contract §1)."""
    from solver.situation import situation_json_schema

    typer.echo(json.dumps(situation_json_schema(), indent=2, sort_keys=True))


@cards_app.command("show")
def cards_show(name: str = typer.Argument(..., help="Card name (case-insensitive)."),
               as_json: bool = typer.Option(False, "--json")) -> None:
    """What the project understood of a card, ability by ability; every unmodeled part listed."""
    from solver.cards import get_card
    from solver.cards.describe import describe_card

    try:
        card = get_card(name)
    except KeyError as e:
        typer.echo(f"{name}: {e}", err=True)
        raise typer.Exit(EXIT_BAD_INPUT)
    except Exception as e:  # noqa: BLE001
        _fail(e)
    info = describe_card(card)
    if as_json:
        typer.echo(json.dumps(info, ensure_ascii=False, indent=2))
        return
    typer.echo(f"{info['name']}  {info['mana_cost']}  ({info['type_line']})")
    for line in info["lines"]:
        typer.echo(f"  {line}")
    typer.echo(f"  behaviour from: {info['source']}; fully modeled: {'yes' if info['fully_modeled'] else 'no'}")


@cards_app.command("import")
def cards_import(src: Path = typer.Argument(..., help="An MTGJSON file (AtomicCards, a set file, or a list of cards)."),
                 out: Path = typer.Option(Path("cards.json.gz"), "--out", help="Where to write the card database.")) -> None:
    """Build a card database from an MTGJSON file, with each card's supported and unsupported parts."""
    try:
        from solver.reader.importer import import_cards
        summary = import_cards(src, out)
    except Exception as e:  # noqa: BLE001
        _fail(e)
    typer.echo(str(summary))
    typer.echo(f"use it with: MTGSOLVE_CARDS={out} mtgsolve solve ...")


@cards_app.command("coverage")
def cards_coverage(src: Path = typer.Argument(..., help="An MTGJSON-shaped corpus (e.g. solver/data/oracle-cards.json.gz)."),
                   top: int = typer.Option(20, "--top", help="How many unsupported templates to list."),
                   as_json: bool = typer.Option(False, "--json")) -> None:
    """How much of a card corpus the Oracle-text reader understands."""
    try:
        from solver.reader.coverage import coverage_report
        rep = coverage_report(src, top)
    except Exception as e:  # noqa: BLE001
        _fail(e)
    if as_json:
        typer.echo(json.dumps(rep.to_json(), indent=2, sort_keys=True))
    else:
        typer.echo("\n".join(rep.lines()))


def main() -> None:
    """Console-script entry point."""
    try:
        app()
    except KeyboardInterrupt:
        typer.echo("interrupted", err=True)
        sys.exit(130)


if __name__ == "__main__":
    main()
