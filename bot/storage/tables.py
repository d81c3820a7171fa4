"""The `tables` and `panels` rows: the messages that show a game, in its channel and in its players' DMs."""

from __future__ import annotations

import sqlite3

import orjson

from bot.runtime.shards import Shards
from bot.storage.records import PanelRecord, TableRecord, json_text
from bot.storage.repository import Repository


class Tables(Repository):
    """What each game's table and each player's panel show, and where."""

    async def table(self, session_id: int) -> TableRecord | None:
        async with self._db.execute("SELECT * FROM tables WHERE session_id = ?", (session_id,)) as cursor:
            row = await cursor.fetchone()
        if row is None:
            return None
        return _table_from_row(row)

    async def save_table(self, record: TableRecord, *, over: str | bool | None = True) -> bool:
        """Record what a table shows; False if not saved because the row no longer names the message `over`
        (a compare-and-set: another process recorded its own table of the game since this one read the row).
        `over=True`: saved whatever the row holds. On SQLite it joins the writes committing meanwhile (one group,
        one sync: bot.storage.db_connection), so a busy bot does not pay a second sync per move for it."""
        sql = ("INSERT INTO tables (session_id, channel_id, message_id, shown_version, shown_status, announced,"
               " retiring) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (session_id) DO UPDATE SET"
               " channel_id = excluded.channel_id, message_id = excluded.message_id,"
               " shown_version = excluded.shown_version, shown_status = excluded.shown_status,"
               " announced = excluded.announced, retiring = excluded.retiring")
        params: list = [record.session_id, record.channel_id, record.message_id, record.shown_version,
                        record.shown_status, json_text(record.announced), json_text(record.retiring)]
        if over is not True:
            sql += " WHERE tables.message_id IS NOT DISTINCT FROM ?"
            params.append(over)
        if hasattr(self._db, "write_batch"):
            [rows] = await self._db.write_batch([(sql, params)])
            return rows.rowcount > 0
        async with self._transaction(), self._db.execute(sql, params) as rows:
            return rows.rowcount > 0

    async def tables_retiring(self, shards: Shards | None = None) -> list[int]:
        """Sessions whose superseded tables are not all deleted yet (of guilds on `shards`, if given)."""
        condition, params = ("", []) if shards is None else shards.condition("s.guild_id")
        async with self._db.execute(
            "SELECT t.session_id FROM tables t JOIN sessions s ON s.id = t.session_id WHERE t.retiring <> '[]'"
            f"{' AND ' + condition if condition else ''} ORDER BY t.session_id", params
        ) as cursor:
            rows = await cursor.fetchall()
        return [row[0] for row in rows]

    async def tables_behind(self, shards: Shards | None = None) -> list[int]:
        """Sessions whose table shows less than they have committed: open ones, and ended ones with a
        table; only those of guilds on `shards`, when this process runs some shards."""
        condition, params = ("", []) if shards is None else shards.condition("s.guild_id")
        async with self._db.execute(
            "SELECT s.id FROM sessions s LEFT JOIN tables t ON t.session_id = s.id"
            " WHERE s.version > COALESCE(t.shown_version, -1)"
            " AND (s.status IN ('lobby', 'active') OR t.session_id IS NOT NULL)"
            f"{' AND ' + condition if condition else ''} ORDER BY s.id", params
        ) as cursor:
            rows = await cursor.fetchall()
        return [row[0] for row in rows]

    async def earlier_tables(self, channel_id: str, session_id: int) -> list[TableRecord]:
        """Tables of the channel's earlier games whose message is still recorded: their buttons, taken away by
        a later lobby, are spent once its game begins (bot.discord.table)."""
        async with self._db.execute(
            "SELECT * FROM tables WHERE channel_id = ? AND session_id < ? AND message_id IS NOT NULL"
            " ORDER BY session_id DESC LIMIT 3", (channel_id, session_id)
        ) as cursor:
            rows = await cursor.fetchall()
        return [_table_from_row(row) for row in rows]

    async def panel(self, session_id: int, player: str) -> PanelRecord | None:
        async with self._db.execute("SELECT * FROM panels WHERE session_id = ? AND player = ?",
                                    (session_id, player)) as cursor:
            row = await cursor.fetchone()
        return PanelRecord.model_validate(dict(row)) if row else None

    async def panels_of(self, session_id: int) -> list[PanelRecord]:
        async with self._db.execute("SELECT * FROM panels WHERE session_id = ? ORDER BY player",
                                    (session_id,)) as cursor:
            rows = await cursor.fetchall()
        return [PanelRecord.model_validate(dict(row)) for row in rows]

    async def save_panel(self, record: PanelRecord) -> None:
        async with self._transaction():
            await self._db.execute(
                "INSERT INTO panels (session_id, player, channel_id, message_id, shows) VALUES (?, ?, ?, ?, ?)"
                " ON CONFLICT (session_id, player) DO UPDATE SET channel_id = excluded.channel_id,"
                " message_id = excluded.message_id, shows = excluded.shows",
                (record.session_id, record.player, record.channel_id, record.message_id, record.shows))

    async def running_panels(self, shards: Shards | None = None) -> list[PanelRecord]:
        """The panels of running games (of guilds on `shards`, when this process runs some), to catch up at
        start-up those behind their game."""
        condition, params = ("", []) if shards is None else shards.condition("s.guild_id")
        async with self._db.execute(
            "SELECT p.* FROM panels p JOIN sessions s ON s.id = p.session_id WHERE s.status = 'active'"
            f"{' AND ' + condition if condition else ''} ORDER BY p.session_id, p.player", params
        ) as cursor:
            rows = await cursor.fetchall()
        return [PanelRecord.model_validate(dict(row)) for row in rows]


def _table_from_row(row: sqlite3.Row) -> TableRecord:
    return TableRecord.model_validate({**dict(row), "announced": orjson.loads(row["announced"]),
                                       "retiring": orjson.loads(row["retiring"])})
