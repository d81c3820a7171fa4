"""Away days: a player away from a server has his turn clocks frozen in every game there, his
reminders and turn DMs held (bot.play.pauses), and nobody may claim against him.

Rulings:
- Each server allows a number of away days a calendar year (UTC), 14 unless its moderators set another
  (`/settings away`). A period of n days counts n days; one ended early (`/away off`, or any move of his on that
  server, made in the move's own transaction: bot.storage.timers) counts the days begun, the rest come back.
- One period at a time: asking again while away replaces the end of the running period (counted anew).
- With `/preferences auto_away:on`, a turn clock that has run out uses one of his away days when someone tries to
  claim or substitute (the first moment it matters): the claim is refused, saying so, and `/game status` shows
  his away. (He is not sent a message of his own about it.)
- `/game status` and a note in each of his games' channels say "@alice is away until <t:…>" with the time only:
  the reason he gave is his own, shown to him alone.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Sequence

from bot.play.pauses import DAY, discord_time
from bot.play.refusals import UserError
from bot.storage.pacing import AwayPeriod
from bot.storage.store import SessionRecord, Store

DEFAULT_AWAY_DAYS = 14
MAX_AWAY_DAYS = 365


def year_began(now: float) -> float:
    year = dt.datetime.fromtimestamp(now, dt.UTC).year
    return dt.datetime(year, 1, 1, tzinfo=dt.UTC).timestamp()


def days_counted(period: AwayPeriod) -> int:
    return max(0, math.ceil((period.ends - period.starts) / DAY - 1e-9))


async def allowance(store: Store, guild_id: str) -> int:
    days = await store.pacing.away_days(guild_id)
    return DEFAULT_AWAY_DAYS if days is None else days


async def days_used(store: Store, guild_id: str, user_id: str, now: float) -> int:
    return sum(days_counted(period) for period in await store.pacing.away_since(guild_id, user_id, year_began(now)))


async def go_away(store: Store, guild_id: str, user_id: str, days: int, reason: str | None,
                  now: float) -> AwayPeriod:
    """Start (or replace) his away period on `guild_id`: `days` days from `now`, within the year's allowance."""
    await store.pacing.end_away(guild_id, user_id, now)
    used, allowed = await days_used(store, guild_id, user_id, now), await allowance(store, guild_id)
    if used + days > allowed:
        left = max(0, allowed - used)
        raise UserError(f"This server allows {allowed} away days a year; you have {left} left this year.")
    period = AwayPeriod(guild_id=guild_id, user_id=user_id, starts=now, ends=now + days * DAY, reason=reason)
    await store.pacing.add_away(period)
    return period


async def come_back(store: Store, guild_id: str, user_id: str, now: float) -> bool:
    """End his away on `guild_id` now; False if he was not away."""
    return bool(await store.pacing.end_away(guild_id, user_id, now))


async def away_notes(store: Store, session: SessionRecord, now: float,
                     players: Sequence[str] | None = None) -> list[str]:
    """"<@alice> is away until <t:…>" for each of `players` (default: the game's seats) away now, and no reason
    (a mention, which Discord shows as his name and which needs no escaping; the messages ping nobody)."""
    wanted = list(players if players is not None else session.player_ids)
    periods = await store.pacing.away_periods(session.guild_id, wanted, now)
    until: dict[str, float] = {}
    for period in periods:
        if period.starts <= now:
            until[period.user_id] = max(until.get(period.user_id, 0.0), period.ends)
    return [f"<@{player}> is away until {discord_time(ends)}" for player, ends in until.items()]


async def auto_away(store: Store, session: SessionRecord, idle: Sequence[str], now: float) -> list[str]:
    """Those of `idle` who chose `auto_away` and have a day left on the game's server: a day's away each, now.
    Their notes ("<@alice> is away until <t:…>")."""
    if session.guild_id is None:
        return []
    chosen = await store.pacing.players(list(idle))
    used = []
    for player in idle:
        if chosen[player].auto_away and await days_used(store, session.guild_id, player, now) < \
                await allowance(store, session.guild_id):
            await go_away(store, session.guild_id, player, 1, None, now)
            used.append(player)
    return await away_notes(store, session, now, used) if used else []
