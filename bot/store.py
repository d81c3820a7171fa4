"""Sessions and their move logs in SQLite, through aiosqlite.

Every write that changes a game is one transaction guarded by the session's
version (optimistic concurrency): two writers that read the same version cannot
both commit, so no move is lost or applied twice, even across processes.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sqlite3
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import aiosqlite
from pydantic import BaseModel

from bot.migrations import MIGRATIONS

OPEN_STATUSES = ("lobby", "active")


class Seat(BaseModel):
    """A player at the table: the Discord user id and the name shown in pictures."""

    id: str
    name: str


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

    @property
    def player_ids(self) -> list[str]:
        return [seat.id for seat in self.players]

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


class ChannelBusy(Exception):
    """The channel already has a lobby or a running game."""


class StaleVersion(Exception):
    """The session changed since it was read; the write was not made."""


def _session_from_row(row: sqlite3.Row) -> SessionRecord:
    data = dict(row)
    for key in ("players", "invited", "options"):
        data[key] = json.loads(data[key])
    for key in ("setup_outcomes", "result"):
        data[key] = json.loads(data[key]) if data[key] is not None else None
    return SessionRecord.model_validate(data)


class Store:
    """The database behind the host. Open with `await Store.open(path)`."""

    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db
        # One connection serves every session: transactions must not interleave on it.
        self._write_lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: str | Path) -> Store:
        path = Path(path)
        if str(path) != ":memory:":
            path.parent.mkdir(parents=True, exist_ok=True)
        db = await aiosqlite.connect(path, isolation_level=None)
        db.row_factory = sqlite3.Row
        await db.execute("PRAGMA journal_mode=WAL")
        await db.execute("PRAGMA foreign_keys=ON")
        await db.execute("PRAGMA busy_timeout=5000")
        store = cls(db)
        await store._migrate()
        return store

    async def close(self) -> None:
        await self._db.close()

    async def _migrate(self) -> None:
        async with self._db.execute("PRAGMA user_version") as cursor:
            (done,) = await cursor.fetchone()
        for number, script in enumerate(MIGRATIONS[done:], start=done + 1):
            async with self._transaction():
                for statement in filter(str.strip, script.split(";")):
                    await self._db.execute(statement)
                await self._db.execute(f"PRAGMA user_version = {number}")

    async def schema_version(self) -> int:
        async with self._db.execute("PRAGMA user_version") as cursor:
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

    async def moves(self, session_id: int) -> list[MoveRecord]:
        async with self._db.execute(
            "SELECT * FROM moves WHERE session_id = ? ORDER BY seq", (session_id,)
        ) as cursor:
            rows = await cursor.fetchall()
        return [
            MoveRecord(session_id=row["session_id"], seq=row["seq"], player=row["player"],
                       action=json.loads(row["action"]), outcomes=json.loads(row["outcomes"]),
                       created_at=row["created_at"])
            for row in rows
        ]

    # -- writing -------------------------------------------------------------

    async def create_lobby(self, *, guild_id: str | None, channel_id: str, slug: str, creator: Seat,
                           invited: Sequence[str], options: dict[str, Any], now: float) -> SessionRecord:
        try:
            async with self._write_lock:
                cursor = await self._db.execute(
                    "INSERT INTO sessions (guild_id, channel_id, slug, status, creator, players, invited, options,"
                    " version, created_at, updated_at) VALUES (?, ?, ?, 'lobby', ?, ?, ?, ?, 0, ?, ?)",
                    (guild_id, channel_id, slug, creator.id, json.dumps([creator.model_dump()]),
                     json.dumps(list(invited)), json.dumps(options), now, now),
                )
        except sqlite3.IntegrityError as error:
            raise ChannelBusy(channel_id) from error
        session = await self.session(cursor.lastrowid)
        assert session is not None
        return session

    async def update_session(self, session: SessionRecord, *, now: float, **changes: Any) -> SessionRecord:
        """Write `changes` to the session if it is still at `session.version`; bump the version."""
        async with self._transaction():
            await self._update(session, now, changes)
        updated = await self.session(session.id)
        assert updated is not None
        return updated

    async def record_move(self, session: SessionRecord, *, player: str, action: dict[str, Any],
                          outcomes: dict[str, Any], now: float, **changes: Any) -> SessionRecord:
        """Append a move and store the session's new state in one transaction."""
        async with self._transaction():
            await self._update(session, now, changes)
            async with self._db.execute(
                "SELECT COALESCE(MAX(seq), 0) FROM moves WHERE session_id = ?", (session.id,)
            ) as cursor:
                (last,) = await cursor.fetchone()
            await self._db.execute(
                "INSERT INTO moves (session_id, seq, player, action, outcomes, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (session.id, last + 1, player, json.dumps(action), json.dumps(outcomes), now),
            )
        updated = await self.session(session.id)
        assert updated is not None
        return updated

    @contextlib.asynccontextmanager
    async def _transaction(self) -> AsyncIterator[None]:
        async with self._write_lock:
            await self._db.execute("BEGIN IMMEDIATE")
            try:
                yield
            except BaseException:
                await self._db.execute("ROLLBACK")
                raise
            await self._db.execute("COMMIT")

    async def _update(self, session: SessionRecord, now: float, changes: dict[str, Any]) -> None:
        encoded = {key: _encode(key, value) for key, value in changes.items()}
        assignments = ", ".join(f"{key} = ?" for key in encoded)
        sql = (f"UPDATE sessions SET {assignments}{', ' if assignments else ''}"
               "version = version + 1, updated_at = ? WHERE id = ? AND version = ?")
        try:
            cursor = await self._db.execute(sql, (*encoded.values(), now, session.id, session.version))
        except sqlite3.IntegrityError as error:
            raise ChannelBusy(session.channel_id) from error
        if cursor.rowcount != 1:
            raise StaleVersion(session.id)


_JSON_COLUMNS = {"players", "invited", "options", "setup_outcomes", "result"}
_COLUMNS = _JSON_COLUMNS | {"status", "state", "end_reason"}


def _encode(key: str, value: Any) -> Any:
    if key not in _COLUMNS:
        raise ValueError(f"unknown session column {key!r}")
    if key == "players":
        return json.dumps([seat.model_dump() if isinstance(seat, Seat) else seat for seat in value])
    if key in _JSON_COLUMNS:
        return None if value is None else json.dumps(value)
    return value
