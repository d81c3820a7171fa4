"""The rows the store reads and writes, as records, and the errors its writes raise."""

from __future__ import annotations

from typing import Any

import orjson
from pydantic import BaseModel, Field

from games.undo import stood_in_at

OPEN_STATUSES = ("lobby", "active")


class Seat(BaseModel):
    """A player at the table: the Discord user id (or an AI seat's id) and the name shown in pictures."""

    id: str
    name: str
    ai: bool = False
    """Parlor's AI sits here for the whole game (see bot.play.ai_player)."""
    stand_in: bool = False
    """The AI plays this person's seat now, since `/game substitute`, until he `/game return`s."""
    stand_ins: list[list[int]] = []
    """[first, last] move numbers (seq) the AI may have played for this person (last -1 while it still does);
    a stretch in which the game never came to his seat has last = first - 1."""

    def for_a_new_game(self) -> Seat:
        """This seat as a rematch seats it: its player's own again (an AI seat stays the AI's). A stand-in was
        for an idle player of the last game; he is not idle in a game that has not begun."""
        return self.model_copy(update={"stand_in": False, "stand_ins": []})

    def stood_in_at(self, seq: int) -> bool:
        """Whether move `seq` fell in a stretch in which the AI played this person's seat (`stand_ins`)."""
        return stood_in_at(self.stand_ins, seq)


class SessionRecord(BaseModel):
    """One row of `sessions`: a lobby, a running game, or a finished one."""

    id: int
    guild_id: str | None
    channel_id: str
    slug: str
    status: str
    creator: str
    players: list[Seat]
    invited: list[str]
    options: dict[str, Any]
    setup_outcomes: dict[str, Any] | None
    state: str | None
    version: int
    result: dict[str, Any] | None
    end_reason: str | None
    created_at: float
    updated_at: float
    waiting_since: dict[str, float] | None = None
    turn_events: list[dict[str, Any]] = []
    """The engine's events since the player(s) to act last changed: what the table narrates."""
    dice_seed: str | None = Field(default=None, repr=False)
    """The game's secret dice seed (games.dice): never shown, logged or exported while the game runs."""

    @property
    def player_ids(self) -> list[str]:
        return [seat.id for seat in self.players]

    @property
    def ai_played(self) -> list[str]:
        """Seats the AI plays now: AI seats and the seats it stands in for."""
        return [seat.id for seat in self.players if seat.ai or seat.stand_in]

    @property
    def against_ai(self) -> bool:
        """Whether the AI took part: an AI seat, or a stand-in at any time."""
        return any(seat.ai or seat.stand_ins for seat in self.players)

    def name_of(self, player_id: str) -> str:
        for seat in self.players:
            if seat.id == player_id:
                return seat.name
        return player_id


class MoveRecord(BaseModel):
    """One row of `moves`: who did what, and the chance it consumed."""

    session_id: int
    seq: int
    player: str
    action: dict[str, Any]
    outcomes: dict[str, Any]
    created_at: float


class Timer(BaseModel):
    """One row of `timers`: a reminder or a turn notice due for a player of a session."""

    id: int
    session_id: int
    kind: str
    player: str
    due_at: float
    fired: bool


class NewTimer(BaseModel):
    kind: str
    player: str
    due_at: float


class TimerPlan(BaseModel):
    """How a write changes a session's timers: keep the pending ones of `keep`, drop the rest, add `add`."""

    keep: list[str] = []
    add: list[NewTimer] = []
    actor: str | None = None
    """The player whose move this write is: it ends his away on the game's server, and his forced move due
    (bot.play.pauses, bot.play.autoplay)."""
    at: float = 0.0


class TableRecord(BaseModel):
    """One row of `tables`: the message that shows a game in its channel, and what it shows.

    `shown_version` is the session version drawn on it (behind the session's own after a crash
    between a commit and the Discord call); `announced` are the players to act it mentioned; `retiring` are
    the game's superseded tables still to delete (a crash came before their deletion, or it failed).
    """

    session_id: int
    channel_id: str
    message_id: str | None = None
    shown_version: int = -1
    shown_status: str | None = None
    announced: list[str] = []
    retiring: list[str] = []


class PanelRecord(BaseModel):
    """One row of `panels`: a player's private direct-message panel for one game."""

    session_id: int
    player: str
    channel_id: str
    message_id: str
    shows: str | None = None
    """A fingerprint of what the panel shows (bot.discord.panels.fingerprint), never the bones themselves;
    None: not known."""


class GuildSettings(BaseModel):
    """A server's own periods (None means the bot's default) and whether its leaderboard counts AI games."""

    reminder_hours: float | None = None
    turn_clock_hours: float | None = None
    text_tables: bool = False
    """Show this server's tables as text only, without a picture (issue 25; see bot.play.text_view)."""
    leaderboard_with_ai: bool = False


class Rating(BaseModel):
    """A skill estimate (bot.play.ratings): OpenSkill's mean and uncertainty, and how many games made it."""

    mu: float
    sigma: float
    games: int


class RatingChange(BaseModel):
    """What one finished game did to one rating of one pool (`before` None: his first rated game there)."""

    pool: str
    player: str
    name: str
    before: Rating | None
    after: Rating


class RatedPlayer(BaseModel):
    """One row of `ratings`: a player's rating in one game's pool on one server, with his latest name."""

    slug: str
    pool: str
    player: str
    name: str
    rating: Rating


class ChannelBusy(Exception):
    """The channel already has a lobby or a running game."""


class StaleVersion(Exception):
    """The session changed since it was read; the write was not made."""


def json_text(value: Any) -> str:
    """A value as the text of a JSON column. orjson, not the json module: a move writes four of them and reads
    two back, and with orjson a move runs some ten per cent fewer instructions on the loop (issue 24). Its
    text is compact and UTF-8, where the json module's has spaces and escapes; either reads back the same.
    Keys that are not strings become strings, as the json module makes them; an integer beyond 64 bits, which
    no column holds, is refused rather than stored."""
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
