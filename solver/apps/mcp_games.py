"""The MCP server's whole-game tools (issue 27 item 4): an agent — an LLM through an MCP client —
plays a game between two decklists with hidden information, one decision at a time.

``start_game`` deals a game (:class:`solver.api.session.GameSession`: the set-up of CR 103 drawn
from the seed) and names it; ``observe_game`` shows it as one player may see it (CR 400.2: their own
hand, the sizes of the hidden zones); ``game_actions`` lists the acting player's legal actions as
canonical strings; ``play_action`` takes one (an illegal string is answered with the reason; unread
text reached stops the game as ``refused``, with the blocking text, contract §2.0); ``game_log``
reads the actions taken. The games live in the server process (at most :data:`MAX_GAMES`; the
oldest is dropped first). A decklist is its text ("4 Lightning Bolt" per line) or the path of a
decklist file inside the directory the server allows (``--allow-paths``).
"""
from __future__ import annotations

from collections import OrderedDict
from pathlib import Path
import json
from typing import TYPE_CHECKING, Annotated, Any, Callable, Protocol

from mcp_types import CallToolResult
from pydantic import BaseModel, ConfigDict, Field

if TYPE_CHECKING:
    from ..api.session import GameSession


class PathPolicy(Protocol):
    """Where files may be read from (the server's ``--allow-paths``: :class:`.mcp_server.Situations`)."""

    def resolve(self, path: str) -> str: ...

MAX_GAMES = 64
"""Games kept by one server process."""

GameId = Annotated[str, Field(description="The game's id, as start_game answered it")]


class GameAnswer(BaseModel):
    """A game tool's answer (status: ok, illegal, refused, over, limit, truncated, playing)."""

    model_config = ConfigDict(extra="allow")
    game: str
    status: str


def _decklist(sits: PathPolicy, deck: str) -> str | Path:
    """A decklist argument: its text, or a file inside the allowed directory."""
    if "\n" in deck or deck[:1].isdigit():
        return deck
    return Path(sits.resolve(deck))


def result(payload: dict[str, Any]) -> Any:
    """A tool's answer: the payload as structured content and as its JSON text."""
    from mcp_types import TextContent

    return CallToolResult(content=[TextContent(type="text", text=json.dumps(payload, ensure_ascii=False))],
                          structured_content=payload)


def _answer(game_id: str, payload: dict[str, Any]) -> Any:
    return result({"game": game_id, **payload})


def session_tools(sits: PathPolicy) -> list[Callable[..., Any]]:
    """The whole-game tools, in the tool list's order."""
    from mcp.server.mcpserver.exceptions import ToolError

    games: OrderedDict[str, "GameSession"] = OrderedDict()
    started = [0]

    def get(game: str) -> "GameSession":
        if game not in games:
            raise ToolError(f"game {game!r}: no such game (start one with start_game)")
        return games[game]

    def start_game(decks: Annotated[list[str], Field(min_length=2, max_length=2, description=(
                       "Two decklists (alice's first): text or a file in the allowed directory"))],
                   seed: Annotated[int, Field(0, description="The seed: same seed and actions, same game")] = 0,
                   max_steps: Annotated[int, Field(20_000, ge=1, description="Decisions before the game stops")] = 20_000,
                   ) -> Annotated[CallToolResult, GameAnswer]:
        """Start a two-player game (CR 103: starting player from the seed, London mulligans as decisions):
        its id, who acts, what they see."""
        from ..api.session import GameSession

        try:
            session = GameSession([_decklist(sits, d) for d in decks], seed, max_steps=max_steps)
        except (OSError, ValueError, KeyError) as e:
            raise ToolError(f"decks: {' '.join(str(e).split())}") from None
        started[0] += 1
        game_id = f"g{started[0]}"
        games[game_id] = session
        while len(games) > MAX_GAMES:
            games.popitem(last=False)
        who = session.to_act
        return _answer(game_id, {"status": session.status, "players": list(session.players), "to_act": who,
                                 "observation": session.observe(who) if who else None})

    def observe_game(game: GameId, player: Annotated[str, Field(description="Whose view (a player id)")]
                     ) -> Annotated[CallToolResult, GameAnswer]:
        """The game as that player sees it."""
        session = get(game)
        try:
            view = session.observe(player)
        except ValueError as e:
            raise ToolError(str(e)) from None
        return _answer(game, {"status": session.status, "observation": view})

    def game_actions(game: GameId, max_results: Annotated[int, Field(1_000, ge=1, description=(
                         "Cut the list (status truncated; count exact)"))] = 1_000
                     ) -> Annotated[CallToolResult, GameAnswer]:
        """The acting player's legal actions as strings for play_action (status refused: unread text
        could change them; the game stops)."""
        return _answer(game, get(game).legal_actions(max_results))

    def play_action(game: GameId, action: Annotated[str, Field(description=(
                        "An action string from game_actions, or 'concede'"))],
                    trigger_order: Annotated[list[str] | None, Field(None, description=(
                        "After choose_order: the sources, top first"))] = None,
                    ) -> Annotated[CallToolResult, GameAnswer]:
        """The acting player takes the action: ok, illegal (with the reason), choose_order (again with
        trigger_order) or refused (unread text; the game stops)."""
        session = get(game)
        out = session.apply(action, trigger_order)
        who = session.to_act
        return _answer(game, {**out, "to_act": who})

    def game_log(game: GameId, since: Annotated[int, Field(0, ge=0, description=(
                     "Only the actions after this many"))] = 0) -> Annotated[CallToolResult, GameAnswer]:
        """Every action taken so far (n, turn, step, player, action) and the game's result."""
        session = get(game)
        return _answer(game, {"status": session.status, "log": [e.to_json() for e in session.log[since:]],
                              "result": session.result()})

    return [start_game, observe_game, game_actions, play_action, game_log]
