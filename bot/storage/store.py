"""Sessions and their move logs in SQLite (aiosqlite) or PostgreSQL (asyncpg, bot.storage.postgres).

`Store.connect(DATABASE_URL)` picks the database. The queries below are written once, in SQL both
understand; what differs (placeholders, generated ids, DDL, the schema version) is in bot.storage.dialects.

Every write that changes a game is one transaction guarded by the session's
version (optimistic concurrency): two writers that read the same version cannot
both commit, so no move is lost or applied twice, even across processes.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import json
import logging
import os
import sqlite3
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import aiosqlite
import asyncpg
import orjson
from pydantic import BaseModel, Field

from bot.runtime.shards import Shards
from bot.storage import db_files
from bot.storage.db_connection import SerializedConnection
from bot.storage.dialects import DATABASE_URL_HELP, POSTGRES_URLS, SQLITE_URL, SqliteDialect
from bot.storage.migrations import MIGRATIONS
from bot.storage.postgres import IntegrityError as PostgresIntegrityError
from bot.storage.postgres import PostgresConnection
from bot.storage.storage_errors import (
    StorageBusy,
    StorageError,
    StoragePathIsFolder,
    StoragePathUnusable,
    StorageReadOnly,
    from_sqlite,
)
from games.undo import stood_in_at

log = logging.getLogger(__name__)

OPEN_STATUSES = ("lobby", "active")
BUSY_TIMEOUT_MS = 2000
"""How long a write waits for a lock another program holds: well inside Discord's 3-second deadline for
an answer, so a user whose move could not be saved is told so."""
DEFAULT_FILE_NAME = "parlor.sqlite3"
"""The database file's name in DATABASE_URL's default (bot.config), suggested for a path naming a folder."""
INTEGRITY_ERRORS = (sqlite3.IntegrityError, PostgresIntegrityError)


class UnknownDatabase(ValueError):
    """DATABASE_URL names neither a SQLite file nor a PostgreSQL database."""


class DatabaseUnavailable(RuntimeError):
    """The PostgreSQL server named by DATABASE_URL could not be reached or refused us."""


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


class TableRecord(BaseModel):
    """One row of `tables`: the message that shows a game in its channel, and what it shows.

    `shown_version` is the session version drawn on it (behind the session's own after a crash
    between a commit and the Discord call); `announced` are the players to act it mentioned.
    """

    session_id: int
    channel_id: str
    message_id: str | None = None
    shown_version: int = -1
    shown_status: str | None = None
    announced: list[str] = []


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


def _json_text(value: Any) -> str:
    """A value as the text of a JSON column. orjson, not the json module: a move writes four of them and reads
    two back, and with orjson a move runs some ten per cent fewer instructions on the loop (issue 24). Its
    text is compact and UTF-8, where the json module's has spaces and escapes; either reads back the same.
    Keys that are not strings become strings, as the json module makes them; an integer beyond 64 bits, which
    no column holds, is refused rather than stored."""
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


def _decoded(column: str, stored: Any) -> Any:
    """A `sessions` column as stored (JSON kept as TEXT) -> the value `SessionRecord` validates."""
    if column == "turn_events":
        return orjson.loads(stored or "[]")
    if column in _JSON_COLUMNS:
        return None if stored is None else orjson.loads(stored)
    return stored


def _session_from_row(row: sqlite3.Row) -> SessionRecord:
    return SessionRecord.model_validate({column: _decoded(column, stored) for column, stored in dict(row).items()})


def _table_from_row(row: sqlite3.Row) -> TableRecord:
    return TableRecord.model_validate({**dict(row), "announced": orjson.loads(row["announced"])})


def _as_written(session: SessionRecord, written: dict[str, Any], now: float, version: int) -> SessionRecord:
    """The session as reading it back would give it, after a write of the `written` columns (as stored) at
    `now` that made `version`: `session` (as committed at its own version), with those columns decoded
    and validated as a read does. So a write needs no read, nor the whole row parsed back (a move's
    commit is the bot's hottest path: issue 24)."""
    return SessionRecord.model_validate({**session.__dict__,
                                         **{column: _decoded(column, stored) for column, stored in written.items()},
                                         "version": version, "updated_at": now})


class Store:
    """The database behind the host. Open with `await Store.open(path)`."""

    def __init__(self, db: aiosqlite.Connection | PostgresConnection) -> None:
        # SQLite: one connection writes for every session (transactions must not interleave on it), and
        # a read-only one reads what is committed (bot.storage.db_connection). PostgreSQL: a pool, whose reads see
        # committed rows only (bot.storage.postgres).
        self._db = db if isinstance(db, PostgresConnection) else SerializedConnection(db)
        self._dialect = db.dialect if isinstance(db, PostgresConnection) else SqliteDialect()

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

    # -- reading -------------------------------------------------------------

    async def session(self, session_id: int) -> SessionRecord | None:
        async with self._db.execute("SELECT * FROM sessions WHERE id = ?", (session_id,)) as cursor:
            row = await cursor.fetchone()
        return _session_from_row(row) if row else None

    async def open_session_in(self, channel_id: str) -> SessionRecord | None:
        async with self._db.execute(
            "SELECT * FROM sessions WHERE channel_id = ? AND status IN ('lobby', 'active')", (channel_id,)
        ) as cursor:
            row = await cursor.fetchone()
        return _session_from_row(row) if row else None

    async def sessions_where(self, where: str, params: Sequence[Any] = ()) -> list[SessionRecord]:
        """Sessions matching a SQL condition; the host composes the few it needs."""
        async with self._db.execute(f"SELECT * FROM sessions WHERE {where}", tuple(params)) as cursor:
            rows = await cursor.fetchall()
        return [_session_from_row(row) for row in rows]

    async def sessions_with_player(self, player: str, statuses: Sequence[str],
                                   guild_id: str | None = None) -> list[SessionRecord]:
        """The sessions `player` is seated in, newest first, optionally on one server only."""
        marks = ", ".join("?" for _ in statuses)
        # `players` is the JSON of the seats, so a seat is the text `"id": "<player>"` (a name's quotes
        # are escaped, so no name can fake it): plain LIKE, the same in SQLite and PostgreSQL.
        seat = json.dumps({"id": player})[1:-1]
        literal = seat.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
        where = f"status IN ({marks}) AND players LIKE ? ESCAPE '\\'"
        params: list[Any] = [*statuses, f"%{literal}%"]
        if guild_id is not None:
            where += " AND guild_id = ?"
            params.append(guild_id)
        return await self.sessions_where(f"{where} ORDER BY id DESC", params)

    async def moves(self, session_id: int) -> list[MoveRecord]:
        async with self._db.execute(
            "SELECT * FROM moves WHERE session_id = ? ORDER BY seq", (session_id,)
        ) as cursor:
            rows = await cursor.fetchall()
        return [
            MoveRecord(session_id=row["session_id"], seq=row["seq"], player=row["player"],
                       action=orjson.loads(row["action"]), outcomes=orjson.loads(row["outcomes"]),
                       created_at=row["created_at"])
            for row in rows
        ]

    async def last_seq(self, session_id: int) -> int:
        """The sequence number of the session's latest move (0 before the first)."""
        async with self._db.execute(
            "SELECT COALESCE(MAX(seq), 0) FROM moves WHERE session_id = ?", (session_id,)
        ) as cursor:
            (last,) = await cursor.fetchone()
        return last

    # -- writing -------------------------------------------------------------

    async def create_lobby(self, *, guild_id: str | None, channel_id: str, slug: str, creator: Seat,
                           invited: Sequence[str], options: dict[str, Any], now: float,
                           players: Sequence[Seat] | None = None, timers: TimerPlan | None = None,
                           timers_due: Callable[[float], None] | None = None, **changes: Any) -> SessionRecord:
        """Open a lobby seating `creator` (or `players`); `changes` and `timers`, if any, are written in
        the same transaction, so a rematch is seated and begun by one commit. `timers_due` hears when the
        earliest timer written falls due, once committed."""
        seated = list(players) if players is not None else [creator]
        try:
            async with self._transaction():
                cursor = await self._db.execute(
                    "INSERT INTO sessions (guild_id, channel_id, slug, status, creator, players, invited, options,"
                    " version, created_at, updated_at) VALUES (?, ?, ?, 'lobby', ?, ?, ?, ?, 0, ?, ?)",
                    (guild_id, channel_id, slug, creator.id, _encode("players", seated),
                     _json_text(list(invited)), _json_text(options), now, now),
                )
                due = None
                if changes or timers is not None:
                    created = await self.session(cursor.lastrowid)
                    assert created is not None
                    due = await self._update(created, now, changes, timers)
        except INTEGRITY_ERRORS as error:
            raise ChannelBusy(channel_id) from error
        if due is not None and timers_due is not None:
            timers_due(due)
        session = await self.session(cursor.lastrowid)
        assert session is not None
        return session

    async def update_session(self, session: SessionRecord, *, now: float, timers: TimerPlan | None = None,
                             ratings: Sequence[RatingChange] = (), timers_due: Callable[[float], None] | None = None,
                             **changes: Any) -> SessionRecord:
        """Write `changes` (and `timers`, and the `ratings` a finished game moved) if the session is still at
        `session.version`; bump the version. `timers_due`: see `_write_session`."""
        encoded = _encoded(changes)
        statements = self._update_statements(session, now, encoded, timers)
        return await self._write_session(session, now, encoded, statements,
                                         self._rating_statements(session, ratings, now), timers=timers,
                                         timers_due=timers_due)

    async def record_move(self, session: SessionRecord, *, player: str, action: dict[str, Any],
                          outcomes: dict[str, Any], now: float, timers: TimerPlan | None = None,
                          ratings: Sequence[RatingChange] = (), syncing: Callable[[], None] | None = None,
                          committed: Callable[[SessionRecord], None] | None = None,
                          timers_due: Callable[[float], None] | None = None, **changes: Any) -> SessionRecord:
        """Append a move and store the session's new state (and its new timers, and the `ratings` the
        game moved if the move finished it) in one transaction. `syncing` is called once the transaction's
        statements are done and its commit has begun (on SQLite; on PostgreSQL at once); `committed`, with
        the session as committed, the moment the commit is done, before this returns; `timers_due`, when the
        earliest timer written falls due (see `_write_session`)."""
        encoded = _encoded(changes)
        statements = self._update_statements(session, now, encoded, timers)
        statements.append((
            "INSERT INTO moves (session_id, seq, player, action, outcomes, created_at)"
            " SELECT ?, COALESCE(MAX(seq), 0) + 1, ?, ?, ?, ? FROM moves WHERE session_id = ?",
            (session.id, player, _json_text(action), _json_text(outcomes), now, session.id)))
        return await self._write_session(session, now, encoded, statements,
                                         self._rating_statements(session, ratings, now), syncing, committed,
                                         timers=timers, timers_due=timers_due)

    async def _write_session(self, session: SessionRecord, now: float, encoded: dict[str, Any],
                             statements: list[tuple[str, Sequence[Any]]],
                             checked: Sequence[tuple[str, Sequence[Any]]] = (),
                             syncing: Callable[[], None] | None = None,
                             committed: Callable[[SessionRecord], None] | None = None, *,
                             timers: TimerPlan | None = None,
                             timers_due: Callable[[float], None] | None = None) -> SessionRecord:
        """Run `statements` (the session's version-checked UPDATE ... RETURNING version first, which wrote
        the `encoded` columns), then `checked` (each must change exactly one row), as one transaction.

        On SQLite the whole transaction is one trip to the database thread (`write_batch`). Nothing is read
        back afterwards: the session as committed is `session` (which must be the session as committed at
        its version: read, or returned by a write) with what this write changed (`_as_written`).

        `committed` gets that session the moment the commit is done: on SQLite from the database connection's
        own settling of the write, before the awaiting task resumes, so what waits on it (the table,
        bot.discord.table) goes before the caller's work after the commit. `timers_due` then hears when the earliest of
        the timers written (`timers`, listed by `_update_statements`) falls due, if any was (the turn dispatcher
        wakes for it: bot.play.timers).

        That session is built as the commit's sync begins (`syncing`), while the database thread waits for the
        disk: the version check fixes the version it will have, so the loop's work after the commit is shorter.
        """
        statements = [*statements, *checked]
        written: list[SessionRecord] = []
        foreseen: list[SessionRecord] = []

        def sync_began() -> None:
            if syncing is not None:
                syncing()
            with contextlib.suppress(Exception):  # made again once committed (`landed`), failing there if it must
                foreseen.append(_as_written(session, encoded, now, session.version + 1))

        def landed(results: list[Any]) -> None:
            version = results[0].one()[0]
            written.append(foreseen[0] if foreseen and foreseen[0].version == version
                           else _as_written(session, encoded, now, version))
            if committed is not None:
                try:
                    committed(written[0])
                except Exception:  # the write stands all the same: its caller still hears of it
                    log.exception("session %s: what its commit told failed", session.id)
            due = None if timers is None else _earliest_due(timers, results[1:])  # after the UPDATE: _update_statements
            if due is not None and timers_due is not None:
                timers_due(due)

        def version_checked(results: list[Any]) -> None:
            if len(results[0]) != 1:
                raise StaleVersion(session.id)
            if any(result.rowcount != 1 for result in results[len(results) - len(checked):]):
                raise StaleVersion(session.id)  # a rating moved since it was read: read it again

        try:
            if hasattr(self._db, "write_batch"):
                results = await self._db.write_batch(statements, version_checked, syncing=sync_began, committed=landed)
            else:
                sync_began()
                async with self._transaction():
                    results = [await self._db.execute(sql, params) for sql, params in statements]
                    version_checked(results)
                landed(results)
        except INTEGRITY_ERRORS as error:
            raise ChannelBusy(session.channel_id) from error
        return written[0] if written else _as_written(session, encoded, now, results[0].one()[0])

    def _update_statements(self, session: SessionRecord, now: float, encoded: dict[str, Any],
                           timers: TimerPlan | None) -> list[tuple[str, Sequence[Any]]]:
        """The session's `encoded` changes under the version check (returning the new version), then its
        timers' statements (`_timer_statements`)."""
        assignments = ", ".join(f"{key} = ?" for key in encoded)
        sql = (f"UPDATE sessions SET {assignments}{', ' if assignments else ''}"
               "version = version + 1, updated_at = ? WHERE id = ? AND version = ? RETURNING version")
        statements: list[tuple[str, Sequence[Any]]] = [(sql, (*encoded.values(), now, session.id, session.version))]
        if timers is not None:
            statements += self._timer_statements(session.id, timers)
        return statements

    @staticmethod
    def _rating_statements(session: SessionRecord, changes: Sequence[RatingChange], now: float
                           ) -> list[tuple[str, Sequence[Any]]]:
        """Each rating's new value, written only if it still has the games it had when read (else no row
        changes, and the write is refused), and the game's change of it, recorded once per game."""
        statements: list[tuple[str, Sequence[Any]]] = []
        for change in changes:
            before, after = change.before, change.after
            games_before = before.games if before else 0
            statements.append((
                "INSERT INTO ratings (guild_id, slug, pool, player, name, mu, sigma, games, updated_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, slug, pool, player) DO UPDATE SET"
                " name = excluded.name, mu = excluded.mu, sigma = excluded.sigma, games = excluded.games,"
                " updated_at = excluded.updated_at WHERE ratings.games = ?",
                (session.guild_id, session.slug, change.pool, change.player, change.name,
                 after.mu, after.sigma, after.games, now, games_before)))
            statements.append((
                "INSERT INTO rating_changes (session_id, pool, player, mu_before, sigma_before, games_before,"
                " mu, sigma, games) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                (session.id, change.pool, change.player, before.mu if before else None,
                 before.sigma if before else None, games_before, after.mu, after.sigma, after.games)))
        return statements

    @staticmethod
    def _timer_statements(session_id: int, plan: TimerPlan) -> list[tuple[str, Sequence[Any]]]:
        """Drop fired timers and pending ones not kept (one DELETE), then add the new ones: an INSERT each, in the
        order of `plan.add` (a notice is written only for a player who asked for turn DMs, decided here inside the
        write's own transaction, so a move reads nothing before it: bot.play.turn_clock). `_earliest_due` reads their
        results in that order."""
        keep = list(dict.fromkeys(plan.keep))
        sql = "DELETE FROM timers WHERE session_id = ?"
        if keep:
            sql += f" AND (fired = 1 OR player NOT IN ({', '.join('?' for _ in keep)}))"
        statements: list[tuple[str, Sequence[Any]]] = [(sql, (session_id, *keep))]
        for timer in plan.add:
            if timer.kind == "notice":
                statements.append((_INSERT_WANTED_NOTICE, (session_id, timer.due_at, timer.player)))
            else:
                statements.append((_INSERT_TIMER, (session_id, timer.kind, timer.player, timer.due_at)))
        return statements

    # -- timers ----------------------------------------------------------------

    async def pending_timers(self, session_id: int | None = None) -> list[Timer]:
        """Timers not yet fired, soonest first: of one session, or of all."""
        if session_id is None:
            return await self._unfired_timers("", ())
        return await self._unfired_timers("AND session_id = ?", (session_id,))

    async def due_timers(self, now: float, shards: Shards | None = None) -> list[Timer]:
        """Timers due by `now`; only those of guilds on `shards`, when this process runs some shards."""
        condition, params = _on_shards(shards)
        return await self._unfired_timers(f"AND due_at <= ?{condition}", (now, *params))

    async def _unfired_timers(self, condition: str, params: Sequence[Any]) -> list[Timer]:
        async with self._db.execute(
            f"SELECT * FROM timers WHERE fired = 0 {condition} ORDER BY due_at, id", tuple(params)
        ) as cursor:
            rows = await cursor.fetchall()
        return [Timer.model_validate(dict(row)) for row in rows]

    async def next_due(self, shards: Shards | None = None) -> float | None:
        condition, params = _on_shards(shards)
        async with self._db.execute(f"SELECT MIN(due_at) FROM timers WHERE fired = 0{condition}",
                                    tuple(params)) as cursor:
            (due,) = await cursor.fetchone()
        return due

    async def fire_timer(self, timer: Timer, next_due: float | None) -> bool:
        """Mark `timer` fired and schedule its successor in one transaction.

        False when it was fired or cancelled meanwhile (another dispatcher, or a move), so that
        exactly one caller ever goes on to send it.
        """
        async with self._transaction():
            cursor = await self._db.execute("UPDATE timers SET fired = 1 WHERE id = ? AND fired = 0", (timer.id,))
            if cursor.rowcount != 1:
                return False
            if next_due is not None:
                await self._db.execute(
                    "INSERT INTO timers (session_id, kind, player, due_at) VALUES (?, ?, ?, ?)",
                    (timer.session_id, timer.kind, timer.player, next_due))
        return True

    # -- settings ------------------------------------------------------------

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

    # -- ratings (bot.play.ratings) -------------------------------------------------

    async def ratings(self, guild_id: str, slug: str, keys: Sequence[tuple[str, str]]) -> dict[tuple[str, str], Rating]:
        """The current ratings of (pool, player) `keys` in one game on one server; newcomers are left out."""
        if not keys:
            return {}
        players = sorted({player for _, player in keys})
        marks = ", ".join("?" for _ in players)
        async with self._db.execute(
            f"SELECT * FROM ratings WHERE guild_id = ? AND slug = ? AND player IN ({marks})",
            (guild_id, slug, *players)
        ) as cursor:
            rows = await cursor.fetchall()
        found = {(row["pool"], row["player"]): _rating(row) for row in rows}
        return {key: found[key] for key in keys if key in found}

    async def leaderboard(self, guild_id: str, pool: str, slug: str, limit: int) -> list[RatedPlayer]:
        """The best-rated players of one game's pool on one server, best first (bot.play.ratings.shown's order)."""
        async with self._db.execute(
            "SELECT * FROM ratings WHERE guild_id = ? AND pool = ? AND slug = ?"
            " ORDER BY mu - 3 * sigma DESC, games DESC, player LIMIT ?", (guild_id, pool, slug, limit)
        ) as cursor:
            rows = await cursor.fetchall()
        return [_rated_player(row) for row in rows]

    async def rated_games(self, guild_id: str, pool: str) -> list[str]:
        """The games with ratings in `pool` on one server, the most players first."""
        async with self._db.execute(
            "SELECT slug, COUNT(*) AS players FROM ratings WHERE guild_id = ? AND pool = ?"
            " GROUP BY slug ORDER BY players DESC, slug", (guild_id, pool)
        ) as cursor:
            rows = await cursor.fetchall()
        return [row["slug"] for row in rows]

    async def player_ratings(self, guild_id: str, player: str) -> list[RatedPlayer]:
        async with self._db.execute(
            "SELECT * FROM ratings WHERE guild_id = ? AND player = ? ORDER BY slug, pool", (guild_id, player)
        ) as cursor:
            rows = await cursor.fetchall()
        return [_rated_player(row) for row in rows]

    async def rating_changes(self, session_id: int) -> list[RatingChange]:
        """What a finished game did to its players' ratings (nothing for a game that did not count)."""
        async with self._db.execute(
            "SELECT c.*, r.name FROM rating_changes c JOIN sessions s ON s.id = c.session_id"
            " LEFT JOIN ratings r ON r.guild_id = s.guild_id AND r.slug = s.slug AND r.pool = c.pool"
            " AND r.player = c.player WHERE c.session_id = ? ORDER BY c.pool, c.player", (session_id,)
        ) as cursor:
            rows = await cursor.fetchall()
        return [_rating_change(row) for row in rows]

    async def last_rating_changes(self, guild_id: str, player: str) -> dict[tuple[str, str], RatingChange]:
        """(game, pool) -> the change `player`'s latest rated game there made, on one server.

        The latest is the game that ended last, whenever it began: each rated game adds one to the player's
        games in the pool (a write from stale ratings is refused), so the highest count is the last game and
        the change that made his rating as it stands."""
        async with self._db.execute(
            "SELECT c.*, s.slug, '' AS name FROM rating_changes c JOIN sessions s ON s.id = c.session_id"
            " WHERE c.player = ? AND s.guild_id = ? ORDER BY c.games, c.session_id", (player, guild_id)
        ) as cursor:
            rows = await cursor.fetchall()
        return {(row["slug"], row["pool"]): _rating_change(row) for row in rows}

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

    # -- tables and panels --------------------------------------------------------

    async def table(self, session_id: int) -> TableRecord | None:
        async with self._db.execute("SELECT * FROM tables WHERE session_id = ?", (session_id,)) as cursor:
            row = await cursor.fetchone()
        if row is None:
            return None
        return _table_from_row(row)

    async def save_table(self, record: TableRecord) -> None:
        """Record what a table shows. On SQLite it joins the writes committing meanwhile (one group, one
        sync: bot.storage.db_connection), so a busy bot does not pay a second sync per move for it."""
        statement = (
            "INSERT INTO tables (session_id, channel_id, message_id, shown_version, shown_status, announced)"
            " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (session_id) DO UPDATE SET channel_id = excluded.channel_id,"
            " message_id = excluded.message_id, shown_version = excluded.shown_version,"
            " shown_status = excluded.shown_status, announced = excluded.announced",
            (record.session_id, record.channel_id, record.message_id, record.shown_version,
             record.shown_status, _json_text(record.announced)))
        if hasattr(self._db, "write_batch"):
            await self._db.write_batch([statement])
            return
        async with self._transaction():
            await self._db.execute(*statement)

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

    # -- the web pages (bot.web) -------------------------------------------------

    async def web_generation(self, session_id: int, player: str) -> int:
        """The generation of `player`'s current personal link to the game (0: he never asked for one)."""
        async with self._db.execute("SELECT generation FROM web_links WHERE session_id = ? AND player = ?",
                                    (session_id, player)) as cursor:
            row = await cursor.fetchone()
        return int(row[0]) if row else 0

    async def next_web_generation(self, session_id: int, player: str) -> int:
        """A new generation for `player`'s personal link: every older link stops working."""
        async with self._transaction():
            await self._db.execute(
                "INSERT INTO web_links (session_id, player, generation) VALUES (?, ?, 1)"
                " ON CONFLICT (session_id, player) DO UPDATE SET generation = web_links.generation + 1",
                (session_id, player))
        return await self.web_generation(session_id, player)

    async def watched(self, session_ids: Sequence[int]) -> dict[int, tuple[int, int, int]]:
        """For the web pages' poll: each session's version, the sum of its link generations (which changes
        when a player asks for a new link), and for a finished game the next game that began in its channel
        (0 while none has: its pages offer its rematch), in one cheap query."""
        if not session_ids:
            return {}
        marks = ", ".join("?" for _ in session_ids)
        async with self._db.execute(
            f"SELECT s.id, s.version, (SELECT COALESCE(SUM(w.generation), 0) FROM web_links w"
            f" WHERE w.session_id = s.id), CASE WHEN s.status = 'finished' THEN (SELECT COALESCE(MIN(n.id), 0)"
            f" FROM sessions n WHERE n.channel_id = s.channel_id AND n.id > s.id AND n.state IS NOT NULL) ELSE 0 END"
            f" FROM sessions s WHERE s.id IN ({marks})", tuple(session_ids)
        ) as cursor:
            rows = await cursor.fetchall()
        return {int(row[0]): (int(row[1]), int(row[2]), int(row[3])) for row in rows}

    def _transaction(self) -> contextlib.AbstractAsyncContextManager[None]:
        return self._db.transaction()

    async def _update(self, session: SessionRecord, now: float, changes: dict[str, Any],
                      timers: TimerPlan | None) -> float | None:
        """Inside a transaction: `_update_statements`, a statement at a time; the earliest due time of the timers
        written."""
        statements = self._update_statements(session, now, _encoded(changes), timers)
        try:
            results = [await self._db.execute(sql, params) for sql, params in statements]
        except INTEGRITY_ERRORS as error:
            raise ChannelBusy(session.channel_id) from error
        if len(results[0]) != 1:
            raise StaleVersion(session.id)
        return None if timers is None else _earliest_due(timers, results[1:])  # after the UPDATE


def _rating(row: Any) -> Rating:
    return Rating(mu=row["mu"], sigma=row["sigma"], games=row["games"])


def _rated_player(row: Any) -> RatedPlayer:
    return RatedPlayer(slug=row["slug"], pool=row["pool"], player=row["player"], name=row["name"], rating=_rating(row))


def _rating_change(row: Any) -> RatingChange:
    before = (Rating(mu=row["mu_before"], sigma=row["sigma_before"], games=row["games_before"])
              if row["mu_before"] is not None else None)
    return RatingChange(pool=row["pool"], player=row["player"], name=row["name"] or row["player"], before=before,
                        after=_rating(row))


def _on_shards(shards: Shards | None) -> tuple[str, list[Any]]:
    """An extra condition on `timers` for the guilds of `shards` (none: every timer)."""
    if shards is None:
        return "", []
    condition, params = shards.condition("sessions.guild_id")
    return f" AND session_id IN (SELECT id FROM sessions WHERE {condition})", params


_INSERT_TIMER = "INSERT INTO timers (session_id, kind, player, due_at) VALUES (?, ?, ?, ?)"
_INSERT_WANTED_NOTICE = (
    # The casts tell PostgreSQL the types of values selected rather than inserted directly.
    "INSERT INTO timers (session_id, kind, player, due_at)"
    " SELECT CAST(? AS INTEGER), 'notice', user_id, CAST(? AS DOUBLE PRECISION) FROM user_settings"
    " WHERE user_id = ? AND turn_dms = 1")


def _earliest_due(plan: TimerPlan, results: Sequence[Any]) -> float | None:
    """The earliest due time of the timers of `plan` that `_timer_statements` wrote, from its statements'
    `results` (its DELETE's first, then an INSERT's per timer; any results after those are not read); None if
    they wrote none."""
    inserted = results[1:1 + len(plan.add)]
    return min((timer.due_at for timer, rows in zip(plan.add, inserted, strict=True) if rows.rowcount > 0),
               default=None)


_JSON_COLUMNS = {"players", "invited", "options", "setup_outcomes", "result", "waiting_since", "turn_events"}
_COLUMNS = _JSON_COLUMNS | {"status", "state", "end_reason", "dice_seed"}


def _encoded(changes: dict[str, Any]) -> dict[str, Any]:
    """Session columns as they are stored."""
    return {key: _encode(key, value) for key, value in changes.items()}


def _encode(key: str, value: Any) -> Any:
    if key not in _COLUMNS:
        raise ValueError(f"unknown session column {key!r}")
    if key == "players":  # the json module's text, which `sessions_with_player` searches
        return json.dumps([seat.model_dump() if isinstance(seat, Seat) else seat for seat in value])
    if key in _JSON_COLUMNS:
        return None if value is None else _json_text(value)
    return value
