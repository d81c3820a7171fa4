"""The rows of days-long play (bot.play.pauses): players' zones and choices, away periods, forced moves due."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel

from bot.runtime.shards import Shards
from bot.storage.repository import Repository

PACING_COLUMNS = ("time_zone", "quiet_from", "quiet_to", "autoplay", "auto_away", "digest_hour")


class PlayerPacing(BaseModel):
    """A player's own pacing choices; the defaults are those of a player who chose nothing."""

    user_id: str
    time_zone: str | None = None
    quiet_from: int | None = None
    quiet_to: int | None = None
    autoplay: bool = False
    auto_away: bool = False
    digest_hour: int | None = None


class AwayPeriod(BaseModel):
    guild_id: str
    user_id: str
    starts: float
    ends: float
    reason: str | None = None


class Pacing(Repository):
    """Read and write the pacing rows; each write is one transaction."""

    async def players(self, user_ids: Sequence[str]) -> dict[str, PlayerPacing]:
        """Every one of `user_ids`, with the defaults for those who chose nothing."""
        found = {user: PlayerPacing(user_id=user) for user in user_ids}
        if not user_ids:
            return found
        marks = ", ".join("?" for _ in user_ids)
        async with self._db.execute(
            f"SELECT user_id, {', '.join(PACING_COLUMNS)} FROM user_settings WHERE user_id IN ({marks})",
            tuple(user_ids)
        ) as cursor:
            for row in await cursor.fetchall():
                values = {key: row[key] for key in ("user_id", *PACING_COLUMNS) if row[key] is not None}
                found[row["user_id"]] = PlayerPacing.model_validate(values)
        return found

    async def set_player(self, user_id: str, **values: Any) -> PlayerPacing:
        """Set the given columns (of PACING_COLUMNS, plus `digest_due`); the others stay."""
        async with self._transaction():
            await self._db.execute("INSERT INTO user_settings (user_id) VALUES (?) ON CONFLICT (user_id) DO NOTHING",
                                   (user_id,))
            for column, value in values.items():
                if column not in (*PACING_COLUMNS, "digest_due"):
                    raise ValueError(column)
                stored = int(value) if isinstance(value, bool) else value
                await self._db.execute(f"UPDATE user_settings SET {column} = ? WHERE user_id = ?", (stored, user_id))
        return (await self.players([user_id]))[user_id]

    # -- away --------------------------------------------------------------------

    async def away_periods(self, guild_id: str | None, user_ids: Sequence[str], since: float) -> list[AwayPeriod]:
        """The away periods on `guild_id` of `user_ids` that end after `since`, earliest first."""
        if guild_id is None or not user_ids:
            return []
        marks = ", ".join("?" for _ in user_ids)
        async with self._db.execute(
            f"SELECT * FROM away_periods WHERE guild_id = ? AND ends > ? AND user_id IN ({marks}) ORDER BY starts",
            (guild_id, since, *user_ids)
        ) as cursor:
            return [AwayPeriod.model_validate(dict(row)) for row in await cursor.fetchall()]

    async def add_away(self, period: AwayPeriod) -> None:
        async with self._transaction():
            await self._db.execute(
                "INSERT INTO away_periods (guild_id, user_id, starts, ends, reason) VALUES (?, ?, ?, ?, ?)",
                (period.guild_id, period.user_id, period.starts, period.ends, period.reason))

    async def end_away(self, guild_id: str | None, user_id: str, now: float) -> list[AwayPeriod]:
        """End at `now` every away period of `user_id` running on `guild_id` (all his servers when None);
        the periods as they were."""
        condition, params = ("", ()) if guild_id is None else (" AND guild_id = ?", (guild_id,))
        async with self._transaction():
            async with self._db.execute(
                f"SELECT * FROM away_periods WHERE user_id = ? AND starts <= ? AND ends > ?{condition}",
                (user_id, now, now, *params)
            ) as cursor:
                running = [AwayPeriod.model_validate(dict(row)) for row in await cursor.fetchall()]
            for period in running:
                await self._db.execute("UPDATE away_periods SET ends = ? WHERE guild_id = ? AND user_id = ?"
                                       " AND starts = ?", (now, period.guild_id, user_id, period.starts))
                # What was held until the planned end comes now instead (a quiet hour still holds it).
                in_guild = "session_id IN (SELECT id FROM sessions WHERE guild_id = ?)"
                await self._db.execute(f"UPDATE timers SET due_at = ? WHERE fired = 0 AND player = ? AND due_at = ?"
                                       f" AND {in_guild}", (now, user_id, period.ends, period.guild_id))
                await self._db.execute(f"UPDATE autoplay_due SET due_at = ? WHERE player = ? AND due_at = ?"
                                       f" AND {in_guild}", (now, user_id, period.ends, period.guild_id))
        return running

    async def away_since(self, guild_id: str, user_id: str, since: float) -> list[AwayPeriod]:
        """His away periods on `guild_id` that began at or after `since` (to count the days of a year)."""
        async with self._db.execute(
            "SELECT * FROM away_periods WHERE guild_id = ? AND user_id = ? AND starts >= ? ORDER BY starts",
            (guild_id, user_id, since)
        ) as cursor:
            return [AwayPeriod.model_validate(dict(row)) for row in await cursor.fetchall()]

    async def set_away_days(self, guild_id: str, days: int) -> None:
        async with self._transaction():
            await self._db.execute(
                "INSERT INTO guild_settings (guild_id, away_days) VALUES (?, ?)"
                " ON CONFLICT (guild_id) DO UPDATE SET away_days = excluded.away_days", (guild_id, days))

    async def away_days(self, guild_id: str) -> int | None:
        async with self._db.execute("SELECT away_days FROM guild_settings WHERE guild_id = ?", (guild_id,)) as cursor:
            row = await cursor.fetchone()
        return row["away_days"] if row else None

    # -- timers: postponed, and forced moves due ---------------------------------------

    async def postpone_timer(self, timer_id: int, due_at: float) -> bool:
        """Move a pending timer to `due_at` (its player is in quiet hours or away); False if it fired meanwhile."""
        async with self._transaction():
            cursor = await self._db.execute("UPDATE timers SET due_at = ? WHERE id = ? AND fired = 0",
                                            (due_at, timer_id))
            return cursor.rowcount == 1

    async def schedule_autoplay(self, session_id: int, player: str, due_at: float) -> None:
        """Due at `due_at` unless one is already due for him in that game (its grace runs on)."""
        async with self._transaction():
            await self._db.execute(
                "INSERT INTO autoplay_due (session_id, player, due_at) VALUES (?, ?, ?)"
                " ON CONFLICT (session_id, player) DO NOTHING", (session_id, player, due_at))

    async def due_autoplays(self, now: float, shards: Shards | None = None) -> list[tuple[int, str, float]]:
        condition, params = _on_shards(shards)
        async with self._db.execute(
            f"SELECT session_id, player, due_at FROM autoplay_due WHERE due_at <= ?{condition} ORDER BY due_at",
            (now, *params)
        ) as cursor:
            return [(row["session_id"], row["player"], row["due_at"]) for row in await cursor.fetchall()]

    async def next_autoplay(self, shards: Shards | None = None) -> float | None:
        condition, params = _on_shards(shards)
        async with self._db.execute(f"SELECT MIN(due_at) FROM autoplay_due WHERE 1 = 1{condition}",
                                    tuple(params)) as cursor:
            (due,) = await cursor.fetchone()
        return due

    async def take_autoplay(self, session_id: int, player: str) -> bool:
        """Remove the due row; only the caller that removed it plays the move (one process, once)."""
        async with self._transaction():
            cursor = await self._db.execute("DELETE FROM autoplay_due WHERE session_id = ? AND player = ?",
                                            (session_id, player))
            return cursor.rowcount == 1

    # -- the daily digest --------------------------------------------------------

    async def due_digests(self, now: float) -> list[tuple[PlayerPacing, float]]:
        """Each player whose digest is due by `now`, with the time it was due (for `move_digest`)."""
        async with self._db.execute("SELECT user_id, digest_due FROM user_settings WHERE digest_due <= ?",
                                    (now,)) as cursor:
            due = {row["user_id"]: row["digest_due"] for row in await cursor.fetchall()}
        chosen = await self.players(list(due))
        return [(chosen[user], due[user]) for user in due]

    async def next_digest(self) -> float | None:
        async with self._db.execute("SELECT MIN(digest_due) FROM user_settings") as cursor:
            (due,) = await cursor.fetchone()
        return due

    async def move_digest(self, user_id: str, was_due: float, next_due: float | None) -> bool:
        """Mark his digest sent by moving it to `next_due`; False if another process did first."""
        async with self._transaction():
            cursor = await self._db.execute(
                "UPDATE user_settings SET digest_due = ? WHERE user_id = ? AND digest_due = ?",
                (next_due, user_id, was_due))
            return cursor.rowcount == 1


def _on_shards(shards: Shards | None) -> tuple[str, list[Any]]:
    if shards is None:
        return "", []
    condition, params = shards.condition("sessions.guild_id")
    return f" AND session_id IN (SELECT id FROM sessions WHERE {condition})", params
