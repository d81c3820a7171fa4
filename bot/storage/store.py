"""The database behind the host, in SQLite (aiosqlite) or PostgreSQL (asyncpg, bot.storage.postgres).

`Store.connect(DATABASE_URL)` picks the database, creates or migrates it, and hands one connection to the
parts that read and write its tables: sessions and their moves (bot.storage.sessions), timers, settings,
ratings, tables and panels, web links. Their queries are written once, in SQL both understand; what differs
(placeholders, generated ids, DDL, the schema version) is in bot.storage.dialects.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import os
import sqlite3
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import aiosqlite
import asyncpg

from bot.runtime.shards import Shards
from bot.storage import db_files
from bot.storage.db_connection import SerializedConnection
from bot.storage.dialects import DATABASE_URL_HELP, POSTGRES_URLS, SQLITE_URL, SqliteDialect
from bot.storage.migrations import MIGRATIONS
from bot.storage.pacing import Pacing
from bot.storage.postgres import PostgresConnection
from bot.storage.ratings import Ratings
from bot.storage.records import (
    OPEN_STATUSES,
    ChannelBusy,
    GuildSettings,
    MoveRecord,
    NewTimer,
    PanelRecord,
    RatedPlayer,
    Rating,
    RatingChange,
    Seat,
    SessionRecord,
    StaleVersion,
    TableRecord,
    Timer,
    TimerPlan,
)
from bot.storage.sessions import Sessions
from bot.storage.settings import Settings
from bot.storage.storage_errors import (
    StorageBusy,
    StorageError,
    StoragePathIsFolder,
    StoragePathUnusable,
    StorageReadOnly,
    from_sqlite,
)
from bot.storage.tables import Tables
from bot.storage.timers import Timers
from bot.storage.web_links import WebLinks

__all__ = [
    "BUSY_TIMEOUT_MS", "DEFAULT_FILE_NAME", "OPEN_STATUSES", "ChannelBusy", "DatabaseUnavailable", "GuildSettings",
    "MoveRecord", "NewTimer", "PanelRecord", "RatedPlayer", "Rating", "RatingChange", "Seat", "SessionRecord",
    "StaleVersion", "Store", "TableRecord", "Timer", "TimerPlan", "UnknownDatabase",
]

BUSY_TIMEOUT_MS = 2000
"""How long a write waits for a lock another program holds: well inside Discord's 3-second deadline for
an answer, so a user whose move could not be saved is told so."""
DEFAULT_FILE_NAME = "parlor.sqlite3"
"""The database file's name in DATABASE_URL's default (bot.config), suggested for a path naming a folder."""


class UnknownDatabase(ValueError):
    """DATABASE_URL names neither a SQLite file nor a PostgreSQL database."""


class DatabaseUnavailable(RuntimeError):
    """The PostgreSQL server named by DATABASE_URL could not be reached or refused us."""


WAL_ATTEMPTS = 8


async def _switch_to_wal(db: SerializedConnection) -> None:
    """Put the database in WAL mode, trying again when another process does so at the same moment.

    Two connections switching a new database together would deadlock, so SQLite answers one of them
    "locked" at once, without waiting out the busy timeout: that one waits a little and tries again.
    """
    for attempt in range(1, WAL_ATTEMPTS + 1):
        try:
            await db.execute("PRAGMA journal_mode=WAL")
            return
        except StorageBusy:
            if attempt == WAL_ATTEMPTS:
                raise
            await asyncio.sleep(0.02 * attempt)


async def _reader(path: Path, busy_timeout_ms: int) -> aiosqlite.Connection:
    """A read-only connection to the database at `path` (in WAL mode, it never waits for a writer)."""
    try:
        reader = await aiosqlite.connect(path, isolation_level=None)
    except sqlite3.Error as error:
        raise from_sqlite(error) or StorageError(str(error)) from error
    reader.row_factory = sqlite3.Row
    await reader.execute(f"PRAGMA busy_timeout={int(busy_timeout_ms)}")
    await reader.execute("PRAGMA query_only=ON")
    return reader



class Store:
    """The database behind the host. Open with `await Store.connect(url)` (or `Store.open(path)` for SQLite)."""

    def __init__(self, db: aiosqlite.Connection | PostgresConnection) -> None:
        # SQLite: one connection writes for every session (transactions must not interleave on it), and
        # a read-only one reads what is committed (bot.storage.db_connection). PostgreSQL: a pool, whose reads see
        # committed rows only (bot.storage.postgres). Every part of the store shares it.
        self._db = db if isinstance(db, PostgresConnection) else SerializedConnection(db)
        self._dialect = db.dialect if isinstance(db, PostgresConnection) else SqliteDialect()
        self._sessions = Sessions(self._db)
        self._timers = Timers(self._db)
        self._settings = Settings(self._db)
        self._ratings = Ratings(self._db)
        self._tables = Tables(self._db)
        self._web_links = WebLinks(self._db)
        self.pacing = Pacing(self._db)
        """Players' zones, quiet hours, away periods and forced moves due (bot.play.pauses)."""

    @classmethod
    async def connect(cls, url: str) -> Store:
        """The store named by a DATABASE_URL: sqlite:///path/to/file or postgresql://user:pass@host:port/db."""
        if url.startswith(SQLITE_URL):
            return await cls.open(url[len(SQLITE_URL):])
        if url.startswith(POSTGRES_URLS):
            try:
                connection = await PostgresConnection.connect(url)
            except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
                where = url.rsplit("@", 1)[-1].split("://", 1)[-1]  # host:port/database, never the password
                raise DatabaseUnavailable(f"cannot open the PostgreSQL database {where}: {error}") from error
            store = cls(connection)
            try:
                await store._migrate()
                await store.set_meta("started_at", str(time.time()))  # fails now, not at the first move
            except BaseException:
                await store.close()
                raise
            return store
        raise UnknownDatabase(DATABASE_URL_HELP)

    @classmethod
    async def open(cls, path: str | Path, *, busy_timeout_ms: int = BUSY_TIMEOUT_MS) -> Store:
        """Open (creating if need be) and migrate the database, and check that it can be written.

        Raises a `StorageError` saying why when it cannot be used, so the bot stops at start-up
        rather than at the first move. A path ending in a slash names a folder, made yet or not.
        """
        names_a_folder = isinstance(path, str) and path.endswith(("/", os.sep))
        path = Path(path)  # which drops that slash
        on_disk = str(path) != ":memory:"
        if on_disk and (names_a_folder or path.is_dir()):  # before anything touches it (or makes it a file)
            raise StoragePathIsFolder(f"{SQLITE_URL}{path / DEFAULT_FILE_NAME}")
        try:
            if on_disk:
                db_files.prepare(path)
            db = await aiosqlite.connect(path, isolation_level=None)
        except PermissionError as error:
            raise StorageReadOnly(str(error)) from error
        except OSError as error:  # a part of the path is a file, or a folder that cannot be made there
            raise (StorageReadOnly if error.errno == errno.EROFS else StoragePathUnusable)(str(error)) from error
        except sqlite3.Error as error:
            raise from_sqlite(error) or StorageError(str(error)) from error
        db.row_factory = sqlite3.Row
        store = cls(db)
        try:
            # The busy timeout first: switching to WAL waits for other connections starting together.
            await store._db.execute(f"PRAGMA busy_timeout={int(busy_timeout_ms)}")
            await _switch_to_wal(store._db)
            await store._db.execute("PRAGMA foreign_keys=ON")
            if on_disk:
                db_files.tighten(path)
            await store._migrate()
            await store.set_meta("started_at", str(time.time()))
            if on_disk:
                assert isinstance(store._db, SerializedConnection)
                store._db.read_through(await _reader(path, busy_timeout_ms))
        except BaseException:
            await store.close()
            raise
        return store

    async def close(self) -> None:
        await self._db.close()

    async def _migrate(self) -> None:
        """Run the migrations not yet run, in one transaction (under a lock where processes share the database)."""
        async with self._transaction():
            for statement in self._dialect.before_migrating():
                await self._db.execute(statement)
            done = await self.schema_version()
            for number, script in enumerate(MIGRATIONS[done:], start=done + 1):
                for statement in self._dialect.ddl(script):
                    await self._db.execute(statement)
                await self._db.execute(self._dialect.write_version(number))

    async def schema_version(self) -> int:
        async with self._db.execute(self._dialect.read_version) as cursor:
            (version,) = await cursor.fetchone()
        return version

    def _transaction(self) -> contextlib.AbstractAsyncContextManager[None]:
        return self._db.transaction()

    # -- sessions and their moves ------------------------------------------------

    async def session(self, session_id: int) -> SessionRecord | None:
        return await self._sessions.session(session_id)

    async def open_session_in(self, channel_id: str) -> SessionRecord | None:
        return await self._sessions.open_session_in(channel_id)

    async def sessions_where(self, where: str, params: Sequence[Any] = ()) -> list[SessionRecord]:
        return await self._sessions.sessions_where(where, params)

    async def sessions_with_player(self, player: str, statuses: Sequence[str],
                                   guild_id: str | None = None) -> list[SessionRecord]:
        return await self._sessions.sessions_with_player(player, statuses, guild_id)

    async def moves(self, session_id: int) -> list[MoveRecord]:
        return await self._sessions.moves(session_id)

    async def last_seq(self, session_id: int) -> int:
        return await self._sessions.last_seq(session_id)

    async def create_lobby(self, *, guild_id: str | None, channel_id: str, slug: str, creator: Seat,
                           invited: Sequence[str], options: dict[str, Any], now: float,
                           players: Sequence[Seat] | None = None, timers: TimerPlan | None = None,
                           timers_due: Callable[[float], None] | None = None, **changes: Any) -> SessionRecord:
        return await self._sessions.create_lobby(guild_id=guild_id, channel_id=channel_id, slug=slug, creator=creator,
                                                 invited=invited, options=options, now=now, players=players,
                                                 timers=timers, timers_due=timers_due, **changes)

    async def update_session(self, session: SessionRecord, *, now: float, timers: TimerPlan | None = None,
                             ratings: Sequence[RatingChange] = (), timers_due: Callable[[float], None] | None = None,
                             **changes: Any) -> SessionRecord:
        return await self._sessions.update_session(session, now=now, timers=timers, ratings=ratings,
                                                   timers_due=timers_due, **changes)

    async def record_move(self, session: SessionRecord, *, player: str, action: dict[str, Any],
                          outcomes: dict[str, Any], now: float, timers: TimerPlan | None = None,
                          ratings: Sequence[RatingChange] = (), syncing: Callable[[], None] | None = None,
                          committed: Callable[[SessionRecord], None] | None = None,
                          timers_due: Callable[[float], None] | None = None, **changes: Any) -> SessionRecord:
        return await self._sessions.record_move(session, player=player, action=action, outcomes=outcomes, now=now,
                                                timers=timers, ratings=ratings, syncing=syncing, committed=committed,
                                                timers_due=timers_due, **changes)

    # -- timers ------------------------------------------------------------------

    async def pending_timers(self, session_id: int | None = None) -> list[Timer]:
        return await self._timers.pending_timers(session_id)

    async def due_timers(self, now: float, shards: Shards | None = None) -> list[Timer]:
        return await self._timers.due_timers(now, shards)

    async def next_due(self, shards: Shards | None = None) -> float | None:
        return await self._timers.next_due(shards)

    async def fire_timer(self, timer: Timer, next_due: float | None) -> bool:
        return await self._timers.fire_timer(timer, next_due)

    # -- settings, and the bot's own facts ---------------------------------------

    async def set_turn_dms(self, user_id: str, on: bool) -> None:
        return await self._settings.set_turn_dms(user_id, on)

    async def turn_dm_users(self, user_ids: Sequence[str]) -> set[str]:
        return await self._settings.turn_dm_users(user_ids)

    async def set_dms_closed(self, user_id: str, closed: bool) -> None:
        return await self._settings.set_dms_closed(user_id, closed)

    async def dms_closed_users(self, user_ids: Sequence[str] | None = None) -> set[str]:
        return await self._settings.dms_closed_users(user_ids)

    async def set_text_view(self, user_id: str, on: bool) -> None:
        return await self._settings.set_text_view(user_id, on)

    async def text_view(self, user_id: str) -> bool:
        return await self._settings.text_view(user_id)

    async def set_text_tables(self, guild_id: str, on: bool) -> GuildSettings:
        return await self._settings.set_text_tables(guild_id, on)

    async def guild_settings(self, guild_id: str | None) -> GuildSettings:
        return await self._settings.guild_settings(guild_id)

    async def set_leaderboard_with_ai(self, guild_id: str, on: bool) -> GuildSettings:
        return await self._settings.set_leaderboard_with_ai(guild_id, on)

    async def set_guild_hours(self, guild_id: str, *, reminder_hours: float | None = None,
                              turn_clock_hours: float | None = None) -> GuildSettings:
        return await self._settings.set_guild_hours(guild_id, reminder_hours=reminder_hours,
                                                    turn_clock_hours=turn_clock_hours)

    async def meta(self, key: str) -> str | None:
        return await self._settings.meta(key)

    async def set_meta(self, key: str, value: str) -> None:
        return await self._settings.set_meta(key, value)

    async def meta_or_set(self, key: str, value: str) -> str:
        return await self._settings.meta_or_set(key, value)

    # -- ratings (bot.play.ratings) ----------------------------------------------

    async def ratings(self, guild_id: str, slug: str, keys: Sequence[tuple[str, str]]) -> dict[tuple[str, str], Rating]:
        return await self._ratings.ratings(guild_id, slug, keys)

    async def leaderboard(self, guild_id: str, pool: str, slug: str, limit: int) -> list[RatedPlayer]:
        return await self._ratings.leaderboard(guild_id, pool, slug, limit)

    async def rated_games(self, guild_id: str, pool: str) -> list[str]:
        return await self._ratings.rated_games(guild_id, pool)

    async def player_ratings(self, guild_id: str, player: str) -> list[RatedPlayer]:
        return await self._ratings.player_ratings(guild_id, player)

    async def rating_changes(self, session_id: int) -> list[RatingChange]:
        return await self._ratings.rating_changes(session_id)

    async def rating_history(self, guild_id: str, player: str, slug: str, pool: str) -> list[tuple[int, Rating]]:
        return await self._ratings.rating_history(guild_id, player, slug, pool)

    async def last_rating_changes(self, guild_id: str, player: str) -> dict[tuple[str, str], RatingChange]:
        return await self._ratings.last_rating_changes(guild_id, player)

    # -- tables and panels -------------------------------------------------------

    async def table(self, session_id: int) -> TableRecord | None:
        return await self._tables.table(session_id)

    async def save_table(self, record: TableRecord, *, over: str | bool | None = True) -> bool:
        return await self._tables.save_table(record, over=over)

    async def tables_retiring(self, shards: Shards | None = None) -> list[int]:
        return await self._tables.tables_retiring(shards)

    async def tables_behind(self, shards: Shards | None = None) -> list[int]:
        return await self._tables.tables_behind(shards)

    async def earlier_tables(self, channel_id: str, session_id: int) -> list[TableRecord]:
        return await self._tables.earlier_tables(channel_id, session_id)

    async def panel(self, session_id: int, player: str) -> PanelRecord | None:
        return await self._tables.panel(session_id, player)

    async def panels_of(self, session_id: int) -> list[PanelRecord]:
        return await self._tables.panels_of(session_id)

    async def save_panel(self, record: PanelRecord) -> None:
        return await self._tables.save_panel(record)

    async def running_panels(self, shards: Shards | None = None) -> list[PanelRecord]:
        return await self._tables.running_panels(shards)

    # -- the web pages (bot.web) -------------------------------------------------

    async def web_generation(self, session_id: int, player: str) -> int:
        return await self._web_links.web_generation(session_id, player)

    async def next_web_generation(self, session_id: int, player: str) -> int:
        return await self._web_links.next_web_generation(session_id, player)

    async def watched(self, session_ids: Sequence[int]) -> dict[int, tuple[int, int, int]]:
        return await self._web_links.watched(session_ids)

