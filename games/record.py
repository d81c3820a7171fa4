"""A finished game's record: everything needed to check its dice without the bot.

The bot exports it as JSON (`/game export`); `games.verify` reads it back. It holds the players,
the options, the seed with its commitment, the setup's outcomes, and every move with the
outcomes it consumed and the events the engine answered, in order. Player ids are the engine's
(Discord user ids); `players` gives each a name for reports.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from games.core import Game, ScriptedRandomness
from games.undo import Timeline

RECORD_FORMAT = "parlor-game-record/1"
END_REASONS = ("played out", "abandoned", "timeout")
"""How a game ends: by its rules, abandoned by a player, or claimed when a turn clock ran out."""


class Outcomes(BaseModel):
    """The chance one step consumed, in the order the engine asked for it."""

    model_config = ConfigDict(extra="forbid")

    rolls: list[int] = Field(default_factory=list)
    shuffles: list[list[Any]] = Field(default_factory=list)


class RecordedPlayer(BaseModel):
    id: str
    name: str


class RecordedMove(BaseModel):
    seq: int
    player: str
    action: dict[str, Any]
    outcomes: Outcomes
    events: list[dict[str, Any]]


class GameRecord(BaseModel):
    """One exported game; `seed` is the revealed seed, `commitment` what the table showed."""

    format: Literal["parlor-game-record/1"] = RECORD_FORMAT
    game: str
    game_id: int
    players: list[RecordedPlayer]
    options: dict[str, Any] = Field(default_factory=dict)
    commitment: str
    seed: str
    setup: Outcomes
    moves: list[RecordedMove]
    end: Literal["played out", "abandoned", "timeout"]
    result: dict[str, Any] | None = None

    @property
    def player_ids(self) -> list[str]:
        return [player.id for player in self.players]

    @property
    def names(self) -> dict[str, str]:
        return {player.id: player.name for player in self.players}


def with_names(text: str, names: dict[str, str]) -> str:
    """Engines name players by id; put their names in instead (longest ids first, so none clips another)."""
    for player_id in sorted(names, key=len, reverse=True):
        text = text.replace(player_id, names[player_id])
    return text


def replay_log(game: Game, players: Sequence[str], options: Mapping[str, Any] | None,
               setup: Mapping[str, Any], moves: Iterable[tuple[str, Mapping[str, Any], Mapping[str, Any]]],
               ) -> Iterator[tuple[Any, list[dict]]]:
    """Replay a move log with its logged outcomes: the state after the setup (no events), then after each entry.

    `moves` are (player, action, outcomes) in order; an undo entry (games.undo) restores the state
    from before the move it takes back. This trusts the log (the audit of a game the bot itself
    played); `games.verify` is the check that trusts only the seed.
    """
    for timeline, events in replay_timeline(game, players, options, setup, moves):
        yield timeline.state, events


def replay_timeline(game: Game, players: Sequence[str], options: Mapping[str, Any] | None,
                    setup: Mapping[str, Any], moves: Iterable[tuple[str, Mapping[str, Any], Mapping[str, Any]]],
                    ) -> Iterator[tuple[Timeline, list[dict]]]:
    """`replay_log` with the `Timeline` itself after each entry: what an undo may take back then."""
    timeline = Timeline(game, players, game.new_game(players, ScriptedRandomness(**setup), options or None))
    yield timeline, []
    for player, action, outcomes in moves:
        events = timeline.step(player, dict(action), ScriptedRandomness(**outcomes))
        yield timeline, events
