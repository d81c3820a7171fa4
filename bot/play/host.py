"""The game host: one session per channel, and every change of a game goes through here.

The host coordinates; each concern is a collaborator of its own in bot/play: the sessions this process knows
(sessions), the lobby and a game's beginning and early end (lobby), a move and what one would do (moves),
taking one back (undo), who plays a seat (seats), how an ending is written (finishing), waiting on players
(pacing), and the move log replayed (replay). Refusals raise `UserError` and write nothing.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Mapping
from typing import Any

from pydantic import BaseModel

from bot.play.finishing import stand_ins_of, who_played
from bot.play.lobby import Lobby
from bot.play.moves import Mover, Upcoming
from bot.play.names import humanize
from bot.play.outcome import MoveOutcome
from bot.play.pacing import Pacing
from bot.play.refusals import (
    ABANDON_WHO,
    ELSEWHERE,
    IN_FLIGHT,
    NO_GAME_YET,
    SEATS_SAVED,
    STALE_BUTTON,
    UserError,
    not_begun,
)
from bot.play.replay import Narrated, replayed_in_worker
from bot.play.seats import Seats
from bot.play.sessions import Clock, Sessions
from bot.play.text_view import TextView
from bot.play.turn_clock import Periods
from bot.play.turn_events import TURN_EVENTS_KEPT, turn_events
from bot.play.undo import Takebacks, last_timeline, undoer_among
from bot.storage.store import MoveRecord, Seat, SessionRecord, Store

__all__ = ["ABANDON_WHO", "ELSEWHERE", "IN_FLIGHT", "NO_GAME_YET", "SEATS_SAVED", "STALE_BUTTON", "TURN_EVENTS_KEPT",
           "Clock", "Host", "MoveOutcome", "Upcoming", "UserError", "last_timeline", "not_begun", "stand_ins_of",
           "turn_events", "undoer_among", "who_played"]
"""The names other modules have always imported from here, wherever they now live."""


class _Kept:
    """A host attribute one collaborator keeps, where the others read it: setting it on the host (the client's
    hooks, a test's clock or dice) sets it there."""

    def __init__(self, holder: str, name: str | None = None) -> None:
        self.holder, self.name = holder, name

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = self.name or name

    def __get__(self, host: Host | None, owner: type | None = None) -> Any:
        return self if host is None else getattr(getattr(host, self.holder), self.name)

    def __set__(self, host: Host, value: Any) -> None:
        setattr(getattr(host, self.holder), self.name, value)


class Host:
    """Sessions per channel over a `Store`; all game changes go through here."""

    store = _Kept("sessions")
    clock = _Kept("sessions")
    _seed_source = _Kept("sessions", "seed_source")
    timers_added = _Kept("sessions")
    """Called with the earliest new due time after a commit that added timers (bot.play.sessions)."""
    changed = _Kept("sessions")
    """Called with the session after every committed change of a running game (the AI looks: bot.play.ai_player)."""
    moved_elsewhere = _Kept("sessions")
    """Called when this process finds that another process changed a game (bot.discord.table forgets it)."""
    committing = _Kept("mover")
    """Called just before a move's commit with its `Upcoming` session (bot.play.moves)."""
    default_periods = _Kept("pacing")

    def __init__(self, store: Store, clock: Clock = time.time,
                 seed_source: Callable[[], int] = lambda: secrets.randbits(256),
                 periods: Periods | None = None) -> None:
        self.sessions = Sessions(store, clock, seed_source)
        self.pacing = Pacing(self.sessions, periods)
        self.lobby = Lobby(self.sessions, self.pacing)
        self.mover = Mover(self.sessions, self.pacing)
        self.takebacks = Takebacks(self.sessions, self.pacing)
        self.seats = Seats(self.sessions, self.pacing, self.lobby)
        self.text_view = TextView(store)
        """Who gets text instead of pictures (bot.play.text_view)."""

    # -- the sessions (bot.play.sessions) ---------------------------------------

    async def current(self, session_id: int) -> SessionRecord:
        return await self.sessions.current(session_id)

    async def session(self, session_id: int) -> SessionRecord:
        return await self.sessions.session(session_id)

    async def open_session(self, channel_id: str) -> SessionRecord:
        return await self.sessions.open_session(channel_id)

    async def session_pressed_in(self, session_id: int, *, channel_id: str, guild_id: str | None,
                                 player: str) -> SessionRecord:
        return await self.sessions.session_pressed_in(session_id, channel_id=channel_id, guild_id=guild_id,
                                                      player=player)

    def state_of(self, session: SessionRecord) -> BaseModel:
        return self.sessions.state_of(session)

    def public_view(self, session: SessionRecord) -> dict:
        return self.sessions.public_view(session)

    def view_for(self, session: SessionRecord, player: str) -> dict:
        return self.sessions.view_for(session, player)

    def legal_actions(self, session: SessionRecord, player: str) -> list[dict]:
        return self.sessions.legal_by_player(session).get(player, [])

    def legal_by_player(self, session: SessionRecord) -> dict[str, list[dict]]:
        return self.sessions.legal_by_player(session)

    def to_act(self, session: SessionRecord) -> list[str]:
        return self.sessions.to_act(session)

    async def moves(self, session: SessionRecord) -> list[MoveRecord]:
        return await self.sessions.moves(session)

    humanize = staticmethod(humanize)

    # -- the lobby (bot.play.lobby) ---------------------------------------------

    async def open_lobby(self, *, guild_id: str | None, channel_id: str, slug: str, creator: Seat,
                         invited: list[str] | None = None, options: Mapping[str, Any] | None = None,
                         ) -> SessionRecord:
        return await self.lobby.open_lobby(guild_id=guild_id, channel_id=channel_id, slug=slug, creator=creator,
                                           invited=invited, options=options)

    async def join(self, channel_id: str, seat: Seat) -> tuple[SessionRecord, MoveOutcome | None]:
        return await self.lobby.join(channel_id, seat)

    async def leave(self, channel_id: str, player: str) -> SessionRecord:
        return await self.lobby.leave(channel_id, player)

    async def begin(self, channel_id: str, player: str) -> MoveOutcome:
        return await self.lobby.begin(channel_id, player)

    async def rematch(self, channel_id: str, player: str) -> MoveOutcome:
        return await self.lobby.rematch(channel_id, player)

    async def abandon(self, channel_id: str, player: str, *, can_manage: bool) -> SessionRecord:
        return await self.lobby.abandon(channel_id, player, can_manage=can_manage)

    async def end_in_deleted_channel(self, channel_id: str) -> SessionRecord | None:
        return await self.lobby.end_in_deleted_channel(channel_id)

    async def last_session_in(self, channel_id: str) -> SessionRecord:
        return await self.lobby.last_session_in(channel_id)

    async def last_game_in(self, channel_id: str, *, over: bool = False) -> SessionRecord | None:
        return await self.lobby.last_game_in(channel_id, over=over)

    async def rematch_after(self, session: SessionRecord) -> SessionRecord | None:
        return await self.lobby.rematch_after(session)

    # -- moves (bot.play.moves) and taking them back (bot.play.undo) ----------------

    async def act(self, session_id: int, player: str, action: Mapping[str, Any],
                  expected_version: int | None = None, *, by_ai: bool = False,
                  from_command: bool = False) -> MoveOutcome:
        return await self.mover.act(session_id, player, action, expected_version, by_ai=by_ai,
                                    from_command=from_command)

    async def act_in_channel(self, channel_id: str, player: str, action: Mapping[str, Any]) -> MoveOutcome:
        return await self.mover.act_in_channel(channel_id, player, action)

    async def require_current(self, session: SessionRecord, expected_version: int, player: str) -> SessionRecord:
        return await self.mover.require_current(session, expected_version, player)

    def foresee(self, session: SessionRecord, player: str, action: Mapping[str, Any]
                ) -> tuple[SessionRecord, dict] | None:
        return self.mover.foresee(session, player, action)

    def preview(self, session: SessionRecord, player: str, action: Mapping[str, Any],
                expected_version: int | None = None) -> list[dict]:
        return self.mover.preview(session, player, action, expected_version)

    async def undo(self, session_id: int, player: str, expected_version: int | None = None) -> MoveOutcome:
        return await self.takebacks.undo(session_id, player, expected_version)

    async def undoer(self, session: SessionRecord) -> str | None:
        return await self.takebacks.undoer(session)

    # -- waiting on players (bot.play.pacing) and its seats (bot.play.seats) --------

    async def periods_for(self, guild_id: str | None) -> Periods:
        return await self.pacing.periods_for(guild_id)

    async def set_periods(self, guild_id: str, *, reminder_hours: float | None = None,
                          turn_clock_hours: float | None = None) -> Periods:
        return await self.pacing.set_periods(guild_id, reminder_hours=reminder_hours,
                                             turn_clock_hours=turn_clock_hours)

    async def wants_turn_dms(self, user_id: str) -> bool:
        return await self.pacing.wants_turn_dms(user_id)

    async def set_turn_dms(self, user_id: str, on: bool) -> None:
        await self.pacing.set_turn_dms(user_id, on)

    async def claim(self, channel_id: str, player: str) -> SessionRecord:
        return await self.seats.claim(channel_id, player)

    async def seat_ai(self, channel_id: str, player: str, *, fill: bool = False
                      ) -> tuple[SessionRecord, MoveOutcome | None]:
        return await self.seats.seat_ai(channel_id, player, fill=fill)

    async def substitute(self, channel_id: str, player: str) -> tuple[SessionRecord, list[str]]:
        return await self.seats.substitute(channel_id, player)

    async def return_to_seat(self, channel_id: str, player: str) -> SessionRecord:
        return await self.seats.return_to_seat(channel_id, player)

    # -- the audit (bot.play.replay) ----------------------------------------------

    async def replay(self, session_id: int) -> BaseModel:
        """Rebuild a session's state from its setup and move log alone."""
        state, _ = await replayed_in_worker(self.store, await self.session(session_id))
        return state

    async def narrated_moves(self, session: SessionRecord) -> Narrated:
        """Each move with the events it caused (what the table narrated), replayed from the log."""
        if session.setup_outcomes is None:
            return []
        _, moves = await replayed_in_worker(self.store, session)
        return moves
