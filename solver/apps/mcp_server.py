"""The MCP server: ``mtgsolve mcp`` serves the queries as tools over stdio.

Built on the official Python MCP SDK (``mcp`` 2.x, :class:`mcp.server.mcpserver.MCPServer`), the
optional extra ``mcp`` (``pip install 'mtgsolve[mcp]'``; without it ``mtgsolve mcp`` says so in one
line and exits 2).

Tools (one per query kind of contract §2, plus ``solve`` and ``check``, plus two
conveniences for agents):

==================  =====================================================================
``could_produce``   §2.1 — ``objects`` (default: every permanent)
``available_mana``  §2.2 — ``player``
``pay``             §2.3 — ``cast`` | ``cost`` | ``activate`` | ``suspend``; ``x``, ``life``, ``player``
``targets``         §2.4 — ``cast`` | ``activate`` | ``trigger`` | ``spell``; ``how``, ``player``
``order``           §2.5 — ``event``
``actions``         §2.6 — ``player``
``resolve``         §2.7
``pass``            §2.10
``attacks``         §2.8 — ``player``
``blocks``          §2.9 — ``player``
``solve``           every query written in the situation → ``{name, results}``
``check``           compare with the situation's ``expect`` (contract §4) → ``{ok, message, results}``
``legal_actions``   every fully specified legal action as a string (:mod:`solver.api`)
``apply_action``    the situation after an action (:meth:`solver.api.Situation.apply`)
==================  =====================================================================

Every tool takes the situation as ``situation`` — a mapping in the format of
contract §1, validated by the project's situation loader — or, only when the server was
started with ``--allow-paths DIR``, as ``path``: a situation file inside
``DIR`` (symbolic links resolved; anything outside is refused). Query tools
also take ``max_results`` and ``timeout`` (seconds).

The situation's JSON Schema (contract §1, ``mtgsolve schema``) is defined once:
every tool's ``situation`` argument refers to it by its ``$id``
(:data:`solver.io.load.SCHEMA_ID`), and the server publishes it as the
resource ``mtgsolve://schema/situation`` and through the ``situation_schema``
tool. The whole tool list stays small (a test keeps it under 40 KB) instead of
repeating the 17 KB schema in every tool.

Outputs are the contract's results as structured content (and the same JSON as
text): exactly the fields of ``mtgsolve solve --json``, for every status — ``ok``,
``truncated``, ``timeout``, ``unsupported`` (with ``unsupported`` and ``reason``, contract
§2.0) and ``error`` (with ``error``: a question the query cannot answer, such as passing in
the untap step). Those are answers, never tool errors; ``legal_actions`` and
``apply_action`` answer a refusal of the engine the same way (``status: unsupported``).
Errors are raised, never returned as results: bad input (a located
one-line message such as ``situation: battlefield.alice[2].card: unknown card
'Forrest' (did you mean 'Forest'?)``), a malformed query, a refused path (also
one with a NUL byte), an unreadable file, an illegal action — the client
receives a tool error (``isError: true``) with that one line; arguments that do not fit
a tool's input schema are one line (``max_results: Input should be a valid integer…``); an
unexpected failure is one line too (``internal error: …``), never a traceback.
"""
import copy
import functools
import json
import os
from pathlib import Path
from typing import Annotated, Any, Callable, Literal

from mcp_types import CallToolResult
from pydantic import BaseModel, ConfigDict, Field

from .mcp_games import result as _result, session_tools

SOURCE = "situation"
"""How errors name a situation given as a mapping."""

INSTRUCTIONS = (
    "mtgsolve answers, exactly, what the legal choices are in a Magic: The Gathering situation. "
    "Give each tool a situation in the mtgsolve/1 format (players, turn, battlefield, hand, ...; object ids are "
    "the card names lower-cased with '-' for other characters, e.g. 'coalition-honor-guard', '-2' for a second "
    "copy). Use 'actions' to list what the player with priority may do, 'legal_actions' for every fully "
    "specified action string, and 'apply_action' to play one. To play a whole game between two decklists with "
    "hidden information: start_game, then observe_game, game_actions and play_action until it is over; game_log "
    "reads the actions taken.")


# ---------------------------------------------------------------------------
# Input and output models
# ---------------------------------------------------------------------------

class AbilityRefIn(BaseModel):
    """An ability: the n-th (1-based, printed order) activated — or for ``trigger``, triggered — ability."""

    model_config = ConfigDict(extra="forbid")
    object: str = Field(description="The object's id")
    index: int = Field(1, ge=1, description="1-based index in printed order")


class UnsupportedPart(BaseModel):
    """Unread text that could change the answer (contract §2.0)."""

    model_config = ConfigDict(extra="allow")
    object: str | None = Field(None, description="The object's id")
    text: str | None = Field(None, description="The card's text as printed")
    affects: list[str] = Field(default_factory=list, description="What it could change (costs, targets, mana, ...)")


Status = Literal["ok", "unsupported", "error", "timeout", "truncated"]
"""Every status of contract §2 (the same as ``mtgsolve solve --json``)."""


class Result(BaseModel):
    """A query result (contract §2): ``kind``, ``status`` and the kind's fields — exactly the
    CLI's JSON. ``unsupported`` (with ``unsupported`` and ``reason``, contract §2.0) and
    ``error`` (with ``error``) are answers too, not tool errors."""

    model_config = ConfigDict(extra="allow")
    kind: str
    status: Status
    unsupported: list[UnsupportedPart] | None = Field(
        None, description="status unsupported: the unread parts that could change the answer")
    reason: str | None = Field(None, description="Why: the refusal (unsupported), or why a cost can't be paid")
    error: str | None = Field(None, description="status error: what the query cannot answer")


class CouldProduceResult(Result):
    could_produce: dict[str, list[str]] | None = Field(None, description="Permanent id → mana types (W U B R G C)")


class AvailableManaResult(Result):
    count: int | None = None
    bundles: list[str] | None = Field(None, description="Every maximal producible multiset of mana")


class PayResult(Result):
    payable: bool | None = None
    count: int | None = None
    payments: list[dict[str, Any]] | None = Field(
        None, description="Each distinct payment: tap, untap, sacrifice, life, damage, x, pool_after")


class TargetsResult(Result):
    count: int | None = None
    choices: list[list[list[str]]] | None = Field(
        None, description="Each choice: one sorted list of ids per instance of the word 'target'")


class OrderResult(Result):
    count: int | None = None
    outcomes: list[dict[str, Any]] | None = Field(None, description="Each distinct result with the orders giving it")


class ActionsResult(Result):
    count: int | None = None
    actions: list[dict[str, Any]] | None = Field(
        None, description="kind (activate|cast|pass|play_land|suspend), object, index, targets and "
                                  "payments counts")


class ResolveResult(Result):
    count: int | None = None
    outcomes: list[dict[str, Any]] | None = Field(None, description="Each outcome's choices and situation")
    resolved: bool | None = Field(None, description="Whether the object resolved (false: all targets illegal)")


class PassResult(Result):
    count: int | None = None
    outcomes: list[dict[str, Any]] | None = Field(None, description="Each outcome's choices and situation")


class DeclarationsResult(Result):
    count: int | None = None
    declarations: list[dict[str, Any]] | None = Field(
        None, description="attacks: {attackers: {id: what it attacks}}; blocks: {blockers: {id: [attackers]}}")


class SolveResult(BaseModel):
    model_config = ConfigDict(extra="allow")
    name: str | None = None
    results: list[dict[str, Any]]


class CheckResult(BaseModel):
    model_config = ConfigDict(extra="allow")
    ok: bool
    message: str
    results: list[dict[str, Any]]


class LegalActionsResult(BaseModel):
    model_config = ConfigDict(extra="allow")
    player: str
    status: Status = Field("ok", description="'truncated' when max_results cut the list; 'unsupported' when "
                                             "unread text could change the answer (contract §2.0)")
    count: int | None = Field(None, description="Number of fully specified legal actions")
    actions: list[str] = Field(default_factory=list, description="Canonical action strings (up to max_results)")
    truncated: bool = False
    unsupported: list[UnsupportedPart] = Field(default_factory=list, description="The blocking parts")
    reason: str | None = Field(None, description="status unsupported: the refusal")


class ApplyResult(BaseModel):
    model_config = ConfigDict(extra="allow")
    action: str = Field(description="The action applied, fully specified, as its canonical string")
    status: Status = Field("ok", description="'unsupported' when a consequence of the action is not modeled "
                                             "(contract §2.0): no situation then")
    situation: dict[str, Any] | None = Field(None, description="The situation after it (contract §1)")
    unsupported: list[UnsupportedPart] = Field(default_factory=list, description="The blocking parts")
    reason: str | None = Field(None, description="status unsupported: the refusal")


# ---------------------------------------------------------------------------
# The server
# ---------------------------------------------------------------------------

SituationArg = Annotated[dict[str, Any] | None, Field(
    None, description="The situation (contract §1) as a mapping")]
PathArg = Annotated[str | None, Field(
    None, description="A situation file inside the directory the server allows (--allow-paths); else refused")]
MaxResults = Annotated[int, Field(10_000, ge=0, description="Cut listings after this many entries (status: truncated)")]
Timeout = Annotated[float | None, Field(None, gt=0, description="Seconds allowed (status: timeout)")]
Player = Annotated[str | None, Field(None, description="Player id (default: the player with priority)")]


class Situations:
    """Turns tool arguments into loaded situations, enforcing the path policy."""

    def __init__(self, allow_paths: str | Path | None, cards: Any = None):
        from ..cards import SHIPPED

        self.cards = cards or SHIPPED  # the card database names are read in (solver.cards.CardDB)
        self.root = Path(allow_paths).resolve() if allow_paths is not None else None
        if self.root is not None and not self.root.is_dir():
            raise ValueError(f"--allow-paths: {allow_paths} is not a directory")

    def load(self, situation: dict | None, path: str | None):
        from mcp.server.mcpserver.exceptions import ToolError

        from ..core.errors import MtgsolveError
        from ..io.load import load_situation, situation_from_dict

        if (situation is None) == (path is None):
            raise ToolError("give exactly one of 'situation' (a mapping) or 'path'")
        try:
            if situation is not None:
                return situation_from_dict(situation, SOURCE, cards=self.cards)
            assert path is not None
            return load_situation(self.resolve(path), cards=self.cards)
        except MtgsolveError as e:
            raise ToolError(str(e)) from None

    def resolve(self, path: str) -> str:
        from mcp.server.mcpserver.exceptions import ToolError

        if self.root is None:
            raise ToolError("reading situation files is disabled: pass the situation as a mapping, or start the "
                            "server with --allow-paths DIR")
        if "\x00" in path:
            raise ToolError(f"{path!r}: a path cannot contain a NUL byte")
        p = Path(path)
        try:
            full = (p if p.is_absolute() else self.root / p).resolve()
        except (RuntimeError, OSError) as e:   # a symbolic link loop (RuntimeError before Python 3.13)
            why = "Too many levels of symbolic links" if isinstance(e, RuntimeError) else (e.strerror or str(e))
            raise ToolError(f"{path}: cannot read the file: {why}") from None
        if os.path.commonpath([str(full), str(self.root)]) != str(self.root):
            raise ToolError(f"{path}: outside the allowed directory {self.root}")
        return str(full)




def _refusal(e: Exception) -> dict[str, Any]:
    """The structured refusal (contract §2.0) of an action the engine does not model: the
    blocking parts when known, and the engine's message as ``reason`` (one line)."""
    return {"status": "unsupported", "unsupported": [dict(p) for p in getattr(e, "parts", ())],
            "reason": " ".join(str(e).split())}


def _answer(loaded: Any, query: dict, max_results: int, timeout: float | None) -> Any:
    from mcp.server.mcpserver.exceptions import ToolError

    from ..core.errors import QueryError
    from ..queries import Options, answer

    try:
        res = answer(loaded.state, query, Options(max_results=max_results, timeout=timeout))
    except QueryError as e:
        raise ToolError(str(QueryError(loaded.source, e.path, e.message))) from None
    return _result(res)


def _query(kind: str, **params: Any) -> dict:
    q: dict[str, Any] = {"kind": kind}
    for k, v in params.items():
        if v is None:
            continue
        q[k] = v.model_dump() if isinstance(v, BaseModel) else v
    return q


def build_server(allow_paths: str | Path | None = None, cards: Any = None) -> Any:
    """The MCP server (not yet running). ``allow_paths``: the directory situation
    files may be read from through ``path`` (default: none may); ``cards``: the card database
    (:class:`solver.cards.CardDB`; default: the shipped one)."""
    from mcp.server.mcpserver import MCPServer

    from .. import __version__

    sits = Situations(allow_paths, cards)
    fns = _query_tools(sits) + _file_tools(sits) + _game_tools(sits) + session_tools(sits)
    tool_class = _one_line_tool_class()
    tools = []
    for fn in fns:
        tool = tool_class.from_function(_one_line_errors(fn))
        tool.parameters = _without_titles(_refer_to_situation_schema(tool.parameters))
        if tool.fn_metadata.output_schema is not None:
            tool.fn_metadata.output_schema = _without_titles(tool.fn_metadata.output_schema)
        tools.append(tool)
    server = MCPServer("mtgsolve", version=__version__, instructions=INSTRUCTIONS, tools=tools, log_level="WARNING")

    @server.resource(SCHEMA_RESOURCE, name="situation_schema", mime_type="application/schema+json",
                     description="The situation's JSON Schema (contract §1), referenced by every tool's "
                                 "'situation' argument")
    def situation_schema_resource() -> str:
        return _situation_schema()

    return server


def _query_tools(sits: "Situations") -> list[Callable[..., Any]]:
    """The tools of the contract §2 queries, one per kind (the tool list's order)."""

    def could_produce(situation: SituationArg = None, path: PathArg = None,
                      objects: Annotated[list[str] | None, Field(None, description="Permanent ids (default: all)")] = None,
                      max_results: MaxResults = 10_000, timeout: Timeout = None
                      ) -> Annotated[CallToolResult, CouldProduceResult]:
        """Contract §2.1 (CR 106.7): the types of mana each permanent could produce."""
        return _answer(sits.load(situation, path), _query("could_produce", objects=objects), max_results, timeout)

    def available_mana(situation: SituationArg = None, path: PathArg = None, player: Player = None,
                       max_results: MaxResults = 10_000, timeout: Timeout = None
                       ) -> Annotated[CallToolResult, AvailableManaResult]:
        """Contract §2.2: every maximal bundle of mana the player could have in their pool now."""
        return _answer(sits.load(situation, path), _query("available_mana", player=player), max_results, timeout)

    def pay(situation: SituationArg = None, path: PathArg = None,
            cast: Annotated[str | None, Field(None, description="Id of a card to cast")] = None,
            cost: Annotated[str | None, Field(None, description="A mana cost such as {1}{G}")] = None,
            activate: Annotated[AbilityRefIn | None, Field(None, description="An activated ability")] = None,
            x: Annotated[int | Literal["any"] | None, Field(None, description="X: a number, or 'any'")] = None,
            life: Annotated[bool | None, Field(None, description="false forbids paying life")] = None,
            player: Player = None, max_results: MaxResults = 10_000, timeout: Timeout = None,
            suspend: Annotated[str | None, Field(None, description="Id of a card with suspend in the hand: "
                                                                   "its suspend cost (CR 702.62a)")] = None,
            ) -> Annotated[CallToolResult, PayResult]:
        """Contract §2.3 (CR 601.2f-h, 602.2b, 605): can the cost be paid, and every distinct payment."""
        q = _query("pay", cast=cast, cost=cost, activate=activate, suspend=suspend, x=x, life=life, player=player)
        return _answer(sits.load(situation, path), q, max_results, timeout)

    def targets(situation: SituationArg = None, path: PathArg = None,
                cast: Annotated[str | None, Field(None, description="Id of a card to cast")] = None,
                activate: Annotated[AbilityRefIn | None, Field(None, description="An activated ability")] = None,
                trigger: Annotated[AbilityRefIn | None, Field(None, description="A triggered ability")] = None,
                spell: Annotated[str | None, Field(None, description="Id of a spell or ability on the stack")] = None,
                how: Annotated[Literal["cast", "activate", "trigger", "copy", "change", "random"] | None,
                               Field(None, description="Who/why targets are chosen")] = None,
                player: Annotated[str | None, Field(None, description="Who chooses (default: the controller)")] = None,
                max_results: MaxResults = 10_000, timeout: Timeout = None
                ) -> Annotated[CallToolResult, TargetsResult]:
        """Contract §2.4 (CR 115, 601.2c): every legal choice of targets, Flagbearer requirements obeyed."""
        q = _query("targets", cast=cast, activate=activate, trigger=trigger, spell=spell, how=how, player=player)
        return _answer(sits.load(situation, path), q, max_results, timeout)

    def order(situation: SituationArg = None, path: PathArg = None,
              event: Annotated[dict[str, Any] | None, Field(
                  None, description="{kind: tap_for_mana, object} | {kind: counters, object, counter, amount} | "
                                    "{kind: enter, object}")] = None,
              max_results: MaxResults = 10_000, timeout: Timeout = None) -> Annotated[CallToolResult, OrderResult]:
        """Contract §2.5 (CR 614, 616): every distinct result of ordering replacement effects."""
        return _answer(sits.load(situation, path), _query("order", event=event), max_results, timeout)

    def actions(situation: SituationArg = None, path: PathArg = None, player: Player = None,
                max_results: MaxResults = 10_000, timeout: Timeout = None) -> Annotated[CallToolResult, ActionsResult]:
        """Contract §2.6: everything the player may legally do now, with target and payment counts."""
        return _answer(sits.load(situation, path), _query("actions", player=player), max_results, timeout)

    def resolve(situation: SituationArg = None, path: PathArg = None,
                max_results: MaxResults = 10_000, timeout: Timeout = None) -> Annotated[CallToolResult, ResolveResult]:
        """Contract §2.7 (CR 608, 704): every outcome of resolving the top of the stack."""
        return _answer(sits.load(situation, path), _query("resolve"), max_results, timeout)

    def pass_(situation: SituationArg = None, path: PathArg = None,
              max_results: MaxResults = 10_000, timeout: Timeout = None) -> Annotated[CallToolResult, PassResult]:
        """Contract §2.10 (CR 117.3d-117.4, 500-514): every outcome of the player with priority passing."""
        return _answer(sits.load(situation, path), _query("pass"), max_results, timeout)

    pass_.__name__ = "pass"

    def attacks(situation: SituationArg = None, path: PathArg = None,
                player: Annotated[str | None, Field(None, description="The attacking player (default: active)")] = None,
                max_results: MaxResults = 10_000, timeout: Timeout = None
                ) -> Annotated[CallToolResult, DeclarationsResult]:
        """Contract §2.8 (CR 508.1): every legal declaration of attackers."""
        return _answer(sits.load(situation, path), _query("attacks", player=player), max_results, timeout)

    def blocks(situation: SituationArg = None, path: PathArg = None,
               player: Annotated[str | None, Field(None, description="The defending player")] = None,
               max_results: MaxResults = 10_000, timeout: Timeout = None
               ) -> Annotated[CallToolResult, DeclarationsResult]:
        """Contract §2.9 (CR 509.1): every legal declaration of blockers for the attack in the situation."""
        return _answer(sits.load(situation, path), _query("blocks", player=player), max_results, timeout)

    return [could_produce, available_mana, pay, targets, order, actions, resolve, pass_, attacks, blocks]


def _file_tools(sits: "Situations") -> list[Callable[..., Any]]:
    """The tools answering or checking every query written in a situation (contract §3, §4)."""
    from mcp.server.mcpserver.exceptions import ToolError

    def solve(situation: SituationArg = None, path: PathArg = None,
              max_results: MaxResults = 10_000, timeout: Timeout = None) -> Annotated[CallToolResult, SolveResult]:
        """Answer every query written in the situation (its 'query' key), like `mtgsolve solve --json`."""
        from ..core.errors import QueryError
        from ..queries import Options
        from ..api.runner import solve_loaded

        loaded = sits.load(situation, path)
        try:
            results = solve_loaded(loaded, Options(max_results=max_results, timeout=timeout))
        except QueryError as e:
            raise ToolError(str(e)) from None
        out: dict[str, Any] = {"name": loaded.state.name, "results": results}
        if path is not None:
            out = {"file": path, **out}
        return _result(out)

    def check(situation: SituationArg = None, path: PathArg = None,
              max_results: MaxResults = 10_000, timeout: Timeout = None) -> Annotated[CallToolResult, CheckResult]:
        """Compare the answers with the situation's 'expect' (contract §4)."""
        from ..core.errors import QueryError
        from ..queries import Options
        from ..api.runner import check_loaded, solve_loaded

        loaded = sits.load(situation, path)
        if loaded.expect is None:
            raise ToolError(f"{loaded.source}: the situation has no 'expect' to check")
        opts = Options(max_results=max_results, timeout=timeout)
        try:
            res = check_loaded(loaded, opts)
            results = solve_loaded(loaded, opts)
        except QueryError as e:
            raise ToolError(str(e)) from None
        return _result({"ok": res.ok, "message": res.message, "results": results})

    return [solve, check]


def _game_tools(sits: "Situations") -> list[Callable[..., Any]]:
    """The agents' tools (legal actions as strings, applying one) and the situation's schema."""
    from mcp.server.mcpserver.exceptions import ToolError

    def legal_actions(situation: SituationArg = None, path: PathArg = None,
                      max_results: MaxResults = 1_000) -> Annotated[CallToolResult, LegalActionsResult]:
        """Every fully specified legal action of the player with priority, as canonical strings
        (e.g. 'cast shock -> bob paying mountain'); feed one to apply_action."""
        from ..api.session import action_strings
        from ..api.situation import ActionError, Situation, UnsupportedActionError

        loaded = sits.load(situation, path)
        sit = Situation(loaded.state, source=loaded.source)
        try:
            listed, count = action_strings(sit, max_results)
        except UnsupportedActionError as e:   # contract §2.0: the same structured refusal as the queries
            return _result({"player": sit.player, **_refusal(e)})
        except ActionError as e:
            raise ToolError(str(e)) from None
        truncated = count > len(listed)
        return _result({"player": sit.player, "status": "truncated" if truncated else "ok", "count": count,
                        "actions": listed, "truncated": truncated})

    def apply_action(action: Annotated[str | dict[str, Any], Field(
                         description="An action string ('play forest', 'cast shock -> bob', 'pass') or its JSON")],
                     situation: SituationArg = None, path: PathArg = None,
                     trigger_order: Annotated[list[str] | None, Field(
                         None, description="Source ids of simultaneous triggers, top of the stack first")] = None,
                     ) -> Annotated[CallToolResult, ApplyResult]:
        """The situation after the player with priority takes the action (partial actions are
        completed when only one completion is legal)."""
        from ..api.situation import ActionError, Situation, UnsupportedActionError

        loaded = sits.load(situation, path)
        sit = Situation(loaded.state, source=loaded.source)
        try:
            full = sit.complete(action)
        except UnsupportedActionError as e:
            return _result({"action": str(action), **_refusal(e)})
        except ActionError as e:
            raise ToolError(f"{loaded.source}: {e}") from None
        try:
            after = sit.apply(full, trigger_order=trigger_order)
        except UnsupportedActionError as e:   # legal, but a consequence is not modeled: refused, never guessed
            return _result({"action": str(full), **_refusal(e)})
        except ActionError as e:
            raise ToolError(f"{loaded.source}: {e}") from None
        return _result({"action": str(full), "status": "ok", "situation": after.to_dict()})

    def situation_schema() -> Annotated[CallToolResult, SchemaResult]:
        """The JSON Schema of a situation (contract §1, format mtgsolve/1; one precise schema per query
        kind), which every tool's 'situation' argument refers to by its $id. Also the resource
        mtgsolve://schema/situation."""
        return _result(json.loads(_situation_schema()))

    return [legal_actions, apply_action, situation_schema]


SCHEMA_RESOURCE = "mtgsolve://schema/situation"
"""The MCP resource holding the situation's JSON Schema."""


class SchemaResult(BaseModel):
    model_config = ConfigDict(extra="allow")


def _one_line_errors(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Every failure of a tool becomes a one-line tool error: located errors as
    themselves, anything unexpected as ``internal error: …`` (no traceback in
    the server's log, nothing but that line for the client)."""
    from mcp.server.mcpserver.exceptions import ToolError

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except ToolError:
            raise
        except Exception as e:  # noqa: BLE001 - one line for the client, whatever it was
            from ..core.errors import MtgsolveError, error_line

            if isinstance(e, MtgsolveError):
                raise ToolError(str(e)) from None
            raise ToolError(f"internal error: {error_line(e)}") from None

    return wrapper


@functools.lru_cache(maxsize=1)
def _one_line_tool_class() -> Any:
    """The SDK's :class:`~mcp.server.mcpserver.tools.Tool` whose failures outside the tool's
    body are one line too: arguments that do not match the input schema (the SDK's message is
    pydantic's, several lines with links) become ``max_results: Input should be a valid
    integer…``, one ``field: problem`` per error; a result that does not fit the output
    schema (a bug) becomes ``internal error: …``."""
    from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
    from mcp.server.mcpserver.tools import Tool
    from pydantic import ValidationError

    class OneLineTool(Tool):
        async def run(self, arguments: dict[str, Any], context: Any, convert_result: bool = False) -> Any:
            try:
                return await super().run(arguments, context, convert_result)
            except UnexpectedToolError as e:
                cause = e.__cause__
                if isinstance(cause, ValidationError):
                    raise ToolError(f"Error executing tool {self.name}: internal error: the result does not fit "
                                    f"the output schema: {_validation_line(cause)}") from None
                raise
            except ToolError as e:
                cause = e.__cause__
                if isinstance(cause, ValidationError):   # the SDK logs the field names of the cause only
                    raise ToolError(f"Error executing tool {self.name}: {_validation_line(cause)}") from cause
                raise

    return OneLineTool


def _validation_line(e: Any) -> str:
    """A pydantic ``ValidationError`` as one line: ``field: message`` per error (the rejected
    values are left out: they are the caller's data)."""
    parts = []
    for err in e.errors():
        loc = ".".join(str(x) for x in err.get("loc", ())) or "arguments"
        parts.append(f"{loc}: {' '.join(str(err.get('msg', '')).split())}")
    return "; ".join(parts) or " ".join(str(e).split())


@functools.lru_cache(maxsize=1)
def _situation_schema() -> str:
    from ..io.load import situation_json_schema

    return json.dumps(situation_json_schema(), sort_keys=True)


def _without_titles(schema: Any) -> Any:
    """The schema without pydantic's generated ``title`` of every property and definition
    (``"max_results"`` → ``"Max Results"``: nothing a client needs, a fifth of the tool list's
    size). Only the schema published is changed; arguments and results are validated by the
    tools' models as before."""
    if isinstance(schema, dict):
        return {k: _without_titles(v) for k, v in schema.items() if not (k == "title" and isinstance(v, str))}
    if isinstance(schema, list):
        return [_without_titles(v) for v in schema]
    return schema


def _refer_to_situation_schema(params: dict) -> dict:
    """Make a tool's ``situation`` argument refer to the one situation schema
    (by its ``$id``) instead of repeating it in every tool."""
    if "situation" not in params.get("properties", {}):
        return params
    from ..io.load import SCHEMA_ID

    out = copy.deepcopy(params)
    prop = out["properties"]["situation"]
    desc = prop.get("description", "The situation")
    out["properties"]["situation"] = {
        "anyOf": [{"$ref": SCHEMA_ID}, {"type": "null"}], "default": None,
        "description": f"{desc}; its schema: resource {SCHEMA_RESOURCE}, tool situation_schema"}
    return out


def serve(allow_paths: str | Path | None = None, cards: Any = None) -> None:
    """Run the server over stdio until the client disconnects."""
    build_server(allow_paths, cards).run("stdio")
