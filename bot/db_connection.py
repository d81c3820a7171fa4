"""The one SQLite connection, shared so that a read never sees another task's uncommitted write.

Every statement of the store goes through `SerializedConnection.execute`: inside the task that holds
the open transaction it runs at once; from any other task it waits until that transaction has
committed or rolled back. A read therefore sees committed data only, and a board is never drawn from
a move a crash could still lose. Results are fetched whole while the connection is held, so no row
is stepped after another task's BEGIN. A COMMIT that fails is rolled back explicitly, so the
connection never stays inside a half-done transaction. SQLite's storage errors (disk full, locked,
read-only) become `bot.storage_errors` exceptions that say which it was.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Generator, Sequence
from typing import Any, Protocol

import aiosqlite

from bot.storage_errors import StorageError, from_sqlite

log = logging.getLogger(__name__)


class Rows:
    """A statement's result: its rows, and the rowcount and lastrowid of a write."""

    def __init__(self, rows: Sequence[Any], rowcount: int, lastrowid: int | None) -> None:
        self._rows = list(rows)
        self.rowcount = rowcount
        self.lastrowid = lastrowid

    async def fetchone(self) -> Any:
        return self._rows[0] if self._rows else None

    async def fetchall(self) -> list[Any]:
        return list(self._rows)

    async def __aenter__(self) -> Rows:
        return self

    async def __aexit__(self, *exc: object) -> None:
        return None


class Runs(Protocol):
    """A connection that runs one statement to its whole result (SQLite's here, PostgreSQL's)."""

    def run(self, sql: str, params: Sequence[Any] = ()) -> Awaitable[Rows]: ...


class Statement:
    """`await conn.execute(...)` or `async with conn.execute(...) as rows`, as with aiosqlite."""

    def __init__(self, connection: Runs, sql: str, params: Sequence[Any]) -> None:
        self._run = connection.run(sql, params)

    def __await__(self) -> Generator[Any, None, Rows]:
        return self._run.__await__()

    async def __aenter__(self) -> Rows:
        return await self._run

    async def __aexit__(self, *exc: object) -> None:
        return None


class SerializedConnection:
    """An aiosqlite connection used by one task at a time (see the module docstring)."""

    def __init__(self, db: aiosqlite.Connection) -> None:
        self.raw = db
        self._lock = asyncio.Lock()
        self._owner: asyncio.Task[Any] | None = None

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Statement:
        return Statement(self, sql, params)

    async def run(self, sql: str, params: Sequence[Any] = ()) -> Rows:
        if self._owner is not None and self._owner is asyncio.current_task():
            return await self._step(sql, params)
        async with self._lock:
            return await self._step(sql, params)

    async def _step(self, sql: str, params: Sequence[Any]) -> Rows:
        try:
            async with self.raw.execute(sql, tuple(params)) as cursor:
                rows = list(await cursor.fetchall())
                return Rows(rows, cursor.rowcount, cursor.lastrowid)
        except sqlite3.Error as error:
            trouble = from_sqlite(error)
            if trouble is None:
                raise
            raise trouble from error

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[None]:
        """BEGIN IMMEDIATE ... COMMIT; anything raised inside, or by COMMIT itself, rolls back."""
        async with self._lock:
            self._owner = asyncio.current_task()
            try:
                await self._step("BEGIN IMMEDIATE", ())
                try:
                    yield
                    await self._step("COMMIT", ())
                except BaseException:
                    await self._rollback()
                    raise
            finally:
                self._owner = None

    async def _rollback(self) -> None:
        if not self.raw.in_transaction:
            return
        try:
            await self._step("ROLLBACK", ())
        except (sqlite3.Error, StorageError):
            # The error being raised says more; SQLite rolls back on its own when it cannot go on.
            log.warning("ROLLBACK failed", exc_info=True)

    async def close(self) -> None:
        await self.raw.close()
