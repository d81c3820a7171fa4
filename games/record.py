"""A finished game's record: everything needed to check its dice without the bot.

The bot exports it as JSON (`/game export`); `games.verify` reads it back. It holds the players,
the options, the seed with its commitment, the setup's outcomes, and every move with the
outcomes it consumed and the events the engine answered, in order. Player ids are the engine's
(Discord user ids); `players` gives each a name for reports.

Who played which seat: `ai_seats` are the seats Parlor's AI played for the whole game, and
`stand_ins` the stretches of moves (first and last sequence number; -1 while it still stood in at
the end) in which it played a person's seat after `/game substitute`. `result` is what the rules
(or, for a claim, the turn clock: `timeout_result`) decided; records exported before these fields
existed carried them inside `result`, and are read the same way.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from games.core import Game, ScriptedRandomness
from games.undo import StandIns, Timeline

RECORD_FORMAT = "parlor-game-record/1"
END_REASONS = ("played out", "abandoned", "timeout")
"""How a game ends: by its rules, abandoned by a player, or claimed when a turn clock ran out."""
WHO_PLAYED = ("ai_seats", "stand_ins")
"""The keys of a stored result that say who played the seats, not what the game decided."""


def timeout_result(players: Sequence[str], idle: Iterable[str]) -> dict:
    """The result of a claim: everyone but the idle players wins."""
    idle = set(idle)
    winners = [player for player in players if player not in idle]
    return {"winners": winners, "scores": {player: int(player in winners) for player in players},
            "idle": [player for player in players if player in idle]}


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
    ai_seats: list[str] = Field(default_factory=list)
    stand_ins: dict[str, list[list[int]]] = Field(default_factory=dict)

    @model_validator(mode="before")
    @classmethod
    def _who_played_out_of_result(cls, data: Any) -> Any:
        """A record written before `ai_seats` and `stand_ins` were fields kept them in `result`."""
        if isinstance(data, dict) and isinstance(data.get("result"), dict):
            result = data["result"]
            if any(key in result for key in WHO_PLAYED):
                data = {**data, "result": {k: v for k, v in result.items() if k not in WHO_PLAYED}}
                for key in WHO_PLAYED:
                    if key in result:
                        data.setdefault(key, result[key])
        return data

    @property
    def player_ids(self) -> list[str]:
        return [player.id for player in self.players]

    @property
    def names(self) -> dict[str, str]:
        return {player.id: player.name for player in self.players}

    def ai_played_at_end(self) -> set[str]:
        """The seats the AI played when the game ended: its own, and those it still stood in for."""
        return {*self.ai_seats, *(player for player, periods in self.stand_ins.items()
                                  if periods and periods[-1][1] == -1)}


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
                    stand_ins: StandIns | None = None) -> Iterator[tuple[Timeline, list[dict]]]:
    """`replay_log` with the `Timeline` itself after each entry: what an undo may take back then (a move the AI
    made for a person it stood in for, `stand_ins`, is not his to take back)."""
    timeline = Timeline(game, players, game.new_game(players, ScriptedRandomness(**setup), options or None),
                        stand_ins)
    yield timeline, []
    for player, action, outcomes in moves:
        events = timeline.step(player, dict(action), ScriptedRandomness(**outcomes))
        yield timeline, events
