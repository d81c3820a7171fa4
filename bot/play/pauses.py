"""Days-long games: each player's time zone and quiet hours, and away periods, pause his turn clock
and hold what is due for him (reminders, turn DMs) until they end.

Rulings:
- Quiet hours are whole hours in the player's own zone (IANA name; UTC until he sets one), `22-08` meaning from
  22:00 to 08:00 the next morning. At most 12 hours: a longer span is refused, so a day always has 12 hours of
  clock. Daylight saving moves them with the wall clock.
- A player's turn clock does not run while he is in quiet hours or away; the clock of a game that waits on
  several players runs out when it has run out for each of them (bot.play.turn_clock).
- A reminder or turn DM that falls due in his quiet hours, or while he is away, is moved to the moment both end
  (the table still shows whose turn it is); it is then sent once, as it would have been.
- Away periods belong to a server: they pause his clocks in every game on that server only.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from bot.play.refusals import UserError
from bot.play.turn_clock import Periods, wait_began
from bot.storage.pacing import AwayPeriod, PlayerPacing
from bot.storage.store import SessionRecord, Store

DAY = 86400.0
MAX_QUIET_HOURS = 12
QUIET_FORMAT = re.compile(r"^\s*(\d{1,2})(?::00)?\s*[-–]\s*(\d{1,2})(?::00)?\s*$")


class PacingError(UserError):
    """A setting that cannot be taken, with the words to tell the player."""


@lru_cache(maxsize=1)
def zone_names() -> tuple[str, ...]:
    return tuple(sorted(available_timezones()))


def zone(name: str | None) -> ZoneInfo:
    try:
        return ZoneInfo(name or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def check_zone(name: str) -> str:
    """The IANA name as spelled in the database of zones, or a PacingError."""
    wanted = name.strip().replace(" ", "_")
    for known in zone_names():
        if known.lower() == wanted.lower():
            return known
    named = f" `{name}`" if 0 < len(name) <= 40 and name.isprintable() else ""
    raise PacingError(f"I don't know the time zone{named}: pick one of the suggestions, like `Europe/Paris`.")


def parse_quiet(text: str) -> tuple[int, int] | None:
    """`22-08` → (22, 8); `off` → None; a PacingError for anything else, or for more than 12 hours."""
    if text.strip().lower() in ("off", "none", "no", ""):
        return None
    match = QUIET_FORMAT.match(text)
    if not match:
        raise PacingError("Quiet hours are two whole hours of your day, like `22-08` (from 22:00 to 08:00), or `off`.")
    start, end = int(match.group(1)), int(match.group(2))
    if start > 23 or end > 24 or start == end % 24:
        raise PacingError("Quiet hours go from an hour 0–23 to another, like `22-08`.")
    if (end - start) % 24 > MAX_QUIET_HOURS:
        raise PacingError(f"Quiet hours last at most {MAX_QUIET_HOURS} hours a day, so that a turn clock still runs.")
    return start, end % 24


@dataclass(frozen=True)
class Pace:
    """What pauses one player's clock: his quiet hours (in his zone) and his away periods on the game's server."""

    time_zone: str | None = None
    quiet: tuple[int, int] | None = None
    away: tuple[tuple[float, float], ...] = field(default_factory=tuple)

    def quiet_windows(self, start: float, end: float) -> list[tuple[float, float]]:
        """His quiet windows (as timestamps) that overlap [start, end]."""
        if self.quiet is None or end <= start:
            return []
        tz = zone(self.time_zone)
        first = dt.datetime.fromtimestamp(start, tz).date() - dt.timedelta(days=1)
        last = dt.datetime.fromtimestamp(end, tz).date()
        begin_hour, end_hour = self.quiet
        windows = []
        day = first
        while day <= last:
            opens = dt.datetime.combine(day, dt.time(begin_hour), tz).timestamp()
            closes_on = day + dt.timedelta(days=1) if end_hour <= begin_hour else day
            closes = dt.datetime.combine(closes_on, dt.time(end_hour), tz).timestamp()
            if closes > start and opens < end:
                windows.append((opens, closes))
            day += dt.timedelta(days=1)
        return windows

    def pauses(self, start: float, end: float) -> list[tuple[float, float]]:
        """The spans within [start, end] when his clock stands, merged and in order."""
        spans = sorted([*self.quiet_windows(start, end), *self.away])
        merged: list[list[float]] = []
        for opens, closes in spans:
            opens, closes = max(opens, start), min(closes, end)
            if closes <= opens:
                continue
            if merged and opens <= merged[-1][1]:
                merged[-1][1] = max(merged[-1][1], closes)
            else:
                merged.append([opens, closes])
        return [(opens, closes) for opens, closes in merged]

    def paused(self, start: float, end: float) -> float:
        return sum(closes - opens for opens, closes in self.pauses(start, end))

    def held_until(self, now: float) -> float | None:
        """When a pause running at `now` ends (following on pauses that touch it); None if none runs."""
        horizon = now + 60 * DAY
        for opens, closes in self.pauses(now, horizon):
            if opens > now:
                return None
            return closes
        return None

    def in_quiet(self, now: float) -> bool:
        return any(opens <= now < closes for opens, closes in self.quiet_windows(now, now + 1))

    def away_until(self, now: float) -> float | None:
        return max((closes for opens, closes in self.away if opens <= now < closes), default=None)

    def clock_runs_out(self, began: float, seconds: float) -> float:
        """The moment his clock, started at `began`, has run `seconds` of unpaused time."""
        runs_out = began + seconds
        for _ in range(200):
            later = began + seconds + self.paused(began, runs_out)
            if math.isclose(later, runs_out, abs_tol=1e-6):
                break
            runs_out = later
        return runs_out


def pace_of(player: PlayerPacing | None, away: Sequence[AwayPeriod] = ()) -> Pace:
    if player is None:
        return Pace(away=tuple((period.starts, period.ends) for period in away))
    quiet = (player.quiet_from, player.quiet_to) if player.quiet_from is not None and player.quiet_to is not None \
        else None
    return Pace(time_zone=player.time_zone, quiet=quiet,
                away=tuple((period.starts, period.ends) for period in away if period.user_id == player.user_id))


async def paces(store: Store, guild_id: str | None, players: Sequence[str], since: float) -> dict[str, Pace]:
    """The pace of each of `players` in a game on `guild_id`, with his away periods ending after `since`."""
    players = list(dict.fromkeys(players))
    chosen = await store.pacing.players(players)
    away = await store.pacing.away_periods(guild_id, players, since)
    return {player: pace_of(chosen[player], away) for player in players}


def time_left(waiting_since: Mapping[str, float] | None, to_act: Sequence[str], *, fallback: float, now: float,
              periods: Periods, paces_by_player: Mapping[str, Pace]) -> float:
    """Seconds until the turn clock has run out for every player in `to_act` (0 once it has), pauses counted."""
    if not to_act:
        return math.inf
    runs_out = max(paces_by_player.get(player, Pace()).clock_runs_out(
        wait_began(waiting_since, player, fallback), periods.clock_seconds) for player in to_act)
    return max(0.0, runs_out - now)


async def claim_left(store: Store, session: SessionRecord, to_act: Sequence[str], now: float,
                     periods: Periods) -> float:
    """`time_left` for a game, its players' pauses read from the store."""
    began = min((wait_began(session.waiting_since, player, session.updated_at) for player in to_act), default=now)
    found = await paces(store, session.guild_id, to_act, began)
    return time_left(session.waiting_since, to_act, fallback=session.updated_at, now=now, periods=periods,
                     paces_by_player=found)


def discord_time(timestamp: float, style: str = "f") -> str:
    """A Discord timestamp, shown to each reader in his own zone."""
    return f"<t:{int(timestamp)}:{style}>"
