"""The PostgreSQL connection behind the store: an asyncpg pool that speaks the store's SQL.

It offers the store the same small interface as the SQLite connection: `execute(sql, params)`, awaited
or used as `async with ... as rows` (rows with fetchone/fetchall, rowcount and lastrowid), and
`transaction()`. Statements are translated by `PostgresDialect` (bot.storage.dialects).

A transaction runs on one pooled connection; the statements the same task runs inside it go to that
connection (a ContextVar), every other statement borrows any connection of the pool, so reads never
wait for writes. Isolation is READ COMMITTED: a version-checked UPDATE waits for the row lock of a
concurrent writer and then re-reads the row, so of two writers (in this process or another) that read
the same version, the second changes no row and gets StaleVersion. That row lock is also the database
lock for the writes that span rows (a move, its log entry and its timers): they are all made after the
session's UPDATE, in the same transaction.
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import AsyncIterator, Sequence
from typing import Any

import asyncpg

from bot.storage.db_connection import Rows, Statement
from bot.storage.dialects import PostgresDialect
from bot.storage.storage_errors import from_postgres

IntegrityError = asyncpg.IntegrityConstraintViolationError

_SELECT_LIKE = ("SELECT", "WITH", "VALUES", "SHOW")


class PostgresConnection:
    """A pool of asyncpg connections used as one database connection (see the module docstring)."""

    dialect = PostgresDialect()

    def __init__(self, pool: asyncpg.Pool) -> None:
        self.pool = pool
        self._current: contextvars.ContextVar[asyncpg.Connection | None] = contextvars.ContextVar(
            f"parlor-pg-transaction-{id(self)}", default=None)

    @classmethod
    async def connect(cls, url: str, *, min_size: int = 1, max_size: int = 10) -> PostgresConnection:
        pool = await asyncpg.create_pool(url, min_size=min_size, max_size=max_size)
        return cls(pool)

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Statement:
        return Statement(self, sql, params)

    async def run(self, sql: str, params: Sequence[Any] = ()) -> Rows:
        connection = self._current.get()
        if connection is not None:
            return await self._step(connection, sql, params)
        async with self.pool.acquire() as borrowed:
            return await self._step(borrowed, sql, params)

    async def _step(self, connection: asyncpg.Connection, sql: str, params: Sequence[Any]) -> Rows:
        try:
            return await self._fetch(connection, sql, params)
        except asyncpg.PostgresError as error:
            trouble = from_postgres(error)
            if trouble is None:
                raise
            raise trouble from error

    async def _fetch(self, connection: asyncpg.Connection, sql: str, params: Sequence[Any]) -> Rows:
        statement = self.dialect.statement(sql)
        returning = self.dialect.wants_lastrowid(sql)
        if returning or "RETURNING" in statement.upper() or statement.lstrip().upper().startswith(_SELECT_LIKE):
            rows = await connection.fetch(statement, *params)
            lastrowid = rows[0]["id"] if returning and rows else None
            return Rows(rows, len(rows), lastrowid)
        status = await connection.execute(statement, *params)
        count = status.rsplit(" ", 1)[-1]
        return Rows([], int(count) if count.isdigit() else 0, None)

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[None]:
        """One transaction on one pooled connection; anything raised inside rolls it back."""
        if self._current.get() is not None:
            raise RuntimeError("transactions do not nest")
        async with self.pool.acquire() as connection, connection.transaction():
            token = self._current.set(connection)
            try:
                yield
            finally:
                self._current.reset(token)

    async def close(self) -> None:
        await self.pool.close()
