"""Waiting on players: each server's reminder and turn-clock periods, whom a game waits on after a change and
since when (bot.play.turn_clock), and who asked for a direct message when his turn comes."""

from __future__ import annotations

from bot.play.sessions import Sessions
from bot.play.turn_clock import Periods, WaitPlan, no_wait, plan_wait
from bot.storage.store import SessionRecord


class Pacing:
    """The periods of each server, kept once read, and the waits that follow from them."""

    def __init__(self, sessions: Sessions, periods: Periods | None = None) -> None:
        self.sessions = sessions
        self.default_periods = periods or Periods()
        self.periods: dict[str | None, Periods] = {}

    async def periods_for(self, guild_id: str | None) -> Periods:
        """The server's reminder and turn-clock periods, falling back to the bot's defaults.

        Kept in memory once read: a server's settings change only through `set_periods`, which the
        process owning that server runs (one process per guild, see bot.runtime.shards).
        """
        cached = self.periods.get(guild_id)
        if cached is not None:
            return cached
        own = await self.sessions.store.guild_settings(guild_id)
        periods = Periods(reminder_hours=own.reminder_hours or self.default_periods.reminder_hours,
                          turn_clock_hours=own.turn_clock_hours or self.default_periods.turn_clock_hours)
        self.periods[guild_id] = periods
        return periods

    async def set_periods(self, guild_id: str, *, reminder_hours: float | None = None,
                          turn_clock_hours: float | None = None) -> Periods:
        await self.sessions.store.set_guild_hours(guild_id, reminder_hours=reminder_hours,
                                                  turn_clock_hours=turn_clock_hours)
        self.periods.pop(guild_id, None)
        return await self.periods_for(guild_id)

    async def wants_turn_dms(self, user_id: str) -> bool:
        """Whether `user_id` asked for a direct message when his turn comes (`/notify on`)."""
        return user_id in await self.sessions.store.turn_dm_users([user_id])

    async def set_turn_dms(self, user_id: str, on: bool) -> None:
        """The store decides each turn notice in the move's own transaction (bot.play.turn_clock): nothing to
        remember."""
        await self.sessions.store.set_turn_dms(user_id, on)

    async def wait_plan(self, session: SessionRecord, to_act: list[str], actor: str | None) -> WaitPlan:
        """Whom the game waits on after a change by `actor`, since when, and the timers that follow."""
        to_act = [player for player in to_act if player not in session.ai_played]  # the AI never idles
        if not to_act:
            return no_wait(actor, self.sessions.clock())
        return plan_wait(session.waiting_since, to_act, actor=actor, now=self.sessions.clock(),
                         periods=await self.periods_for(session.guild_id))
