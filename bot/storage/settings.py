"""The `user_settings`, `guild_settings` and `bot_meta` rows: players' and servers' choices, and the bot's own facts."""

from __future__ import annotations

from collections.abc import Sequence

from bot.storage.records import GuildSettings
from bot.storage.repository import Repository


class Settings(Repository):
    """What players and servers chose (turn DMs, text views, periods, leaderboards), whose DMs are closed, and
    the bot's own facts."""

    async def set_turn_dms(self, user_id: str, on: bool) -> None:
        async with self._transaction():
            await self._db.execute(
                "INSERT INTO user_settings (user_id, turn_dms) VALUES (?, ?)"
                " ON CONFLICT (user_id) DO UPDATE SET turn_dms = excluded.turn_dms", (user_id, int(on)))

    async def turn_dm_users(self, user_ids: Sequence[str]) -> set[str]:
        """Those of `user_ids` who asked for a direct message when their turn comes."""
        if not user_ids:
            return set()
        marks = ", ".join("?" for _ in user_ids)
        async with self._db.execute(
            f"SELECT user_id FROM user_settings WHERE turn_dms = 1 AND user_id IN ({marks})", tuple(user_ids)
        ) as cursor:
            rows = await cursor.fetchall()
        return {row["user_id"] for row in rows}

    async def set_dms_closed(self, user_id: str, closed: bool) -> None:
        async with self._transaction():
            await self._db.execute(
                "INSERT INTO user_settings (user_id, dms_closed) VALUES (?, ?)"
                " ON CONFLICT (user_id) DO UPDATE SET dms_closed = excluded.dms_closed", (user_id, int(closed)))

    async def dms_closed_users(self, user_ids: Sequence[str] | None = None) -> set[str]:
        """Those of `user_ids` (default: everyone) whose direct messages Discord refused last time."""
        if user_ids is not None and not user_ids:
            return set()
        query, args = "SELECT user_id FROM user_settings WHERE dms_closed = 1", ()
        if user_ids is not None:
            query += f" AND user_id IN ({', '.join('?' for _ in user_ids)})"
            args = tuple(user_ids)
        async with self._db.execute(query, args) as cursor:
            rows = await cursor.fetchall()
        return {row["user_id"] for row in rows}

    async def set_text_view(self, user_id: str, on: bool) -> None:
        async with self._transaction():
            await self._db.execute(
                "INSERT INTO user_settings (user_id, text_view) VALUES (?, ?)"
                " ON CONFLICT (user_id) DO UPDATE SET text_view = excluded.text_view", (user_id, int(on)))

    async def text_view(self, user_id: str) -> bool:
        """Whether the user asked for his private views as text, without pictures (`/game view`)."""
        async with self._db.execute("SELECT text_view FROM user_settings WHERE user_id = ?", (user_id,)) as cursor:
            row = await cursor.fetchone()
        return bool(row and row["text_view"])

    async def set_text_tables(self, guild_id: str, on: bool) -> GuildSettings:
        async with self._transaction():
            await self._db.execute(
                "INSERT INTO guild_settings (guild_id, text_tables) VALUES (?, ?)"
                " ON CONFLICT (guild_id) DO UPDATE SET text_tables = excluded.text_tables", (guild_id, int(on)))
        return await self.guild_settings(guild_id)

    async def guild_settings(self, guild_id: str | None) -> GuildSettings:
        if guild_id is None:
            return GuildSettings()
        async with self._db.execute("SELECT * FROM guild_settings WHERE guild_id = ?", (guild_id,)) as cursor:
            row = await cursor.fetchone()
        return GuildSettings.model_validate(dict(row)) if row else GuildSettings()

    async def set_leaderboard_with_ai(self, guild_id: str, on: bool) -> GuildSettings:
        async with self._transaction():
            await self._db.execute(
                "INSERT INTO guild_settings (guild_id, leaderboard_with_ai) VALUES (?, ?)"
                " ON CONFLICT (guild_id) DO UPDATE SET leaderboard_with_ai = excluded.leaderboard_with_ai",
                (guild_id, int(on)))
        return await self.guild_settings(guild_id)

    async def set_guild_hours(self, guild_id: str, *, reminder_hours: float | None = None,
                              turn_clock_hours: float | None = None) -> GuildSettings:
        """Set whichever of the server's periods are given; the others stay as they were."""
        async with self._transaction():
            await self._db.execute("INSERT INTO guild_settings (guild_id) VALUES (?) ON CONFLICT (guild_id) DO NOTHING",
                                   (guild_id,))
            if reminder_hours is not None:
                await self._db.execute("UPDATE guild_settings SET reminder_hours = ? WHERE guild_id = ?",
                                       (reminder_hours, guild_id))
            if turn_clock_hours is not None:
                await self._db.execute("UPDATE guild_settings SET turn_clock_hours = ? WHERE guild_id = ?",
                                       (turn_clock_hours, guild_id))
        return await self.guild_settings(guild_id)

    # -- the bot's own facts ---------------------------------------------------

    async def meta(self, key: str) -> str | None:
        async with self._db.execute("SELECT value FROM bot_meta WHERE key = ?", (key,)) as cursor:
            row = await cursor.fetchone()
        return row["value"] if row else None

    async def set_meta(self, key: str, value: str) -> None:
        async with self._transaction():
            await self._db.execute("INSERT INTO bot_meta (key, value) VALUES (?, ?)"
                                   " ON CONFLICT (key) DO UPDATE SET value = excluded.value", (key, value))

    async def meta_or_set(self, key: str, value: str) -> str:
        """The fact stored under `key`, storing `value` first if there is none (the first process wins)."""
        async with self._transaction():
            await self._db.execute("INSERT INTO bot_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING",
                                   (key, value))
        return await self.meta(key) or value
