"""The SQLite connections, shared so that a read never sees another task's uncommitted write.

Every statement of the store goes through `SerializedConnection.execute`. Writes use one connection:
inside the task that holds the open transaction a statement runs at once; from any other task it
waits until that transaction has committed or rolled back. Reads from any other task go to a second,
read-only connection: in WAL mode it sees the last commit, never waits for a writer (not even for a
write stuck behind another process's lock), and never sees uncommitted data. A board is therefore
never drawn from a move a crash could still lose, and opening a form or showing the table never
waits for moves being saved. (An in-memory database has no second connection: its reads take the
writer's turn.)

Moves commit as a group (`write_batch`): the writes that queue while one transaction runs go to the
database thread together, as one BEGIN IMMEDIATE ... COMMIT with a SAVEPOINT per write, so a busy bot
pays one trip and one sync of the log for many moves, not one each. Each write still stands or falls
alone: its version check failing rolls back only its savepoint, and each caller hears of its own write
only once the group's COMMIT is done. A write made while nothing commits is sent at once by its own
task (a lone move pays no extra task and no extra turn of the loop); a group, once sent, runs to its
COMMIT or ROLLBACK and settles its writes from the database thread even if the task that sent it is
cancelled meanwhile, and a write cancelled before it was sent is never written. A write can be told of
its commit (`committed`) as the group settles, before its caller resumes, and its caller then yields once:
what the callback woke (the move's table, bot.discord.table) goes first, its request out before the caller's
own work after the commit (aiohttp sends a request's body from a task of its own). A large group settles
SETTLE_SLICE writes per turn of the loop, so that settling 1,000 moves never holds the loop for long.

Results are fetched whole in one trip, so no row is stepped after another task's BEGIN. A COMMIT that
fails is rolled back explicitly, so the connection never stays inside a half-done transaction.
SQLite's storage errors (disk full, locked, read-only) become `bot.storage.storage_errors` exceptions that say
which it was.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Generator, Sequence
from typing import Any, Protocol

import aiosqlite

from bot.storage.storage_errors import StorageError, from_sqlite

log = logging.getLogger(__name__)

SETTLE_SLICE = 50
"""Writes of a committed group settled per turn of the loop. Settling one runs its `committed` callback (the
move's session parsed as written, taken into the host's memory: bot.storage.store, bot.play.host), some 20-40 µs each on
a slow machine, so a group of 1,000 moves settled in one go held every other channel up for 20-37 ms (issue
24's longest stall); in slices no step takes more than a few ms, and the other tasks run between them."""


class Rows:
    """A statement's result: its rows, and the rowcount and lastrowid of a write."""

    def __init__(self, rows: Sequence[Any], rowcount: int, lastrowid: int | None) -> None:
        self._rows = list(rows)
        self.rowcount = rowcount
        self.lastrowid = lastrowid

    def __len__(self) -> int:
        return len(self._rows)

    def one(self) -> Any:
        """The first row, or None (what `fetchone` gives, for code that may not await)."""
        return self._rows[0] if self._rows else None

    async def fetchone(self) -> Any:
        return self.one()

    async def fetchall(self) -> list[Any]:
        return list(self._rows)

    async def __aenter__(self) -> Rows:
        return self

    async def __aexit__(self, *exc: object) -> None:
        return None


Guard = Callable[[list[Rows]], None]
"""Sees a write's results before its commit; raising refuses the write."""


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


def _run_statement(connection: sqlite3.Connection, sql: str, params: Sequence[Any]) -> Rows:
    cursor = connection.execute(sql, params)
    try:
        return Rows(cursor.fetchall(), cursor.rowcount, cursor.lastrowid)
    finally:
        cursor.close()


def _storage_error(error: sqlite3.Error) -> Exception:
    """The storage error `error` is (disk full, locked, read-only), caused by it; else `error` itself."""
    trouble = from_sqlite(error)
    if trouble is None:
        return error
    trouble.__cause__ = error
    return trouble


class _Refused:
    """A write of a group that its guard refused: rolled back to its savepoint, the others go on."""

    def __init__(self, error: Exception) -> None:
        self.error = error


def _run_group(connection: sqlite3.Connection, writes: list[tuple[list[tuple[str, Sequence[Any]]], Guard | None]],
               syncing: Callable[[], None] | None = None) -> list[list[Rows] | _Refused]:
    """On the connection's thread: several writes, one transaction, a savepoint each; `syncing` is called
    as the COMMIT (the sync of the log) begins.

    A guard's refusal undoes its own write only. A database error undoes the whole group (the caller
    then runs the writes one by one, so only the faulty one fails).
    """
    connection.execute("BEGIN IMMEDIATE")
    outcomes: list[list[Rows] | _Refused] = []
    try:
        for statements, guard in writes:
            connection.execute("SAVEPOINT one_write")
            try:
                results = [_run_statement(connection, sql, tuple(params)) for sql, params in statements]
                if guard is not None:
                    guard(results)
            except sqlite3.Error:
                raise
            except Exception as refusal:
                connection.execute("ROLLBACK TO one_write")
                outcomes.append(_Refused(refusal))
            else:
                outcomes.append(results)
            connection.execute("RELEASE one_write")
        if syncing is not None:
            syncing()
        connection.execute("COMMIT")
    except BaseException:
        if connection.in_transaction:
            connection.execute("ROLLBACK")
        raise
    return outcomes


def _group_outcomes(connection: sqlite3.Connection,
                    writes: list[tuple[list[tuple[str, Sequence[Any]]], Guard | None]],
                    syncing: Callable[[], None] | None = None) -> list[list[Rows] | BaseException]:
    """On the connection's thread: each write's results, or what refused it (its guard's refusal, a
    faulty statement, the storage's error)."""
    try:
        outcomes = _run_group(connection, writes, syncing)
    except sqlite3.Error as error:
        if from_sqlite(error) is None and len(writes) > 1:
            # One write is faulty, not the storage: run them one by one so only that one fails.
            return [_group_outcomes(connection, [write])[0] for write in writes]
        return [_storage_error(error)] * len(writes)
    except BaseException as error:
        return [error] * len(writes)
    return [outcome.error if isinstance(outcome, _Refused) else outcome for outcome in outcomes]


def _run_group_delivering(connection: sqlite3.Connection,
                          writes: list[tuple[list[tuple[str, Sequence[Any]]], Guard | None]],
                          deliver: Callable[[list[list[Rows] | BaseException]], None],
                          syncing: Callable[[], None] | None = None) -> None:
    """On the connection's thread: the group's outcomes, handed to `deliver` from here (not through the
    awaiting task, which may have been cancelled meanwhile)."""
    deliver(_group_outcomes(connection, writes, syncing))


class _PendingWrite:
    """A write waiting for the next group, and the future its caller awaits."""

    def __init__(self, statements: list[tuple[str, Sequence[Any]]], guard: Guard | None,
                 future: asyncio.Future[list[Rows]], syncing: Callable[[], None] | None = None,
                 committed: Callable[[list[Rows]], None] | None = None) -> None:
        self.statements = statements
        self.guard = guard
        self.future = future
        self.syncing = syncing
        self.committed = committed

    def settle(self, outcome: list[Rows] | BaseException) -> None:
        if self.future.done():  # its caller was cancelled meanwhile
            return
        if isinstance(outcome, asyncio.CancelledError):
            self.future.cancel()
        elif isinstance(outcome, BaseException):
            self.future.set_exception(outcome)
        else:
            if self.committed is not None:
                try:
                    self.committed(outcome)
                except Exception:  # the write stands all the same: its caller still hears of it
                    log.exception("a committed write's callback failed")
            self.future.set_result(outcome)


class _Settling:
    """A committed group's writes told of their outcome, SETTLE_SLICE per turn of the loop; the lock goes once
    every write is settled.

    An object rather than a closure that schedules itself: such a closure refers to itself, and the cycle
    kept the whole group (its sessions, results and callbacks) alive until a garbage collection, for every
    commit. Each write is let go of as it is settled, so what it carried is freed during the slices; the
    database thread's last call may keep this object, empty by then, until its next one."""

    def __init__(self, group: list[_PendingWrite], lock: asyncio.Lock, loop: asyncio.AbstractEventLoop) -> None:
        self._group: list[Any] = group  # the sender's own list: each write let go of (None) once settled
        self._lock = lock
        self._loop = loop
        self._outcomes: list[list[Rows] | BaseException | None] = []
        self._finished = False

    def finish(self, outcomes: list[list[Rows] | BaseException]) -> None:
        """Settle the group with `outcomes` (once: the database thread and a failed trip may both tell)."""
        if self._finished:
            return
        self._finished = True
        self._outcomes = list(outcomes)
        self._settle_from(0)

    def _settle_from(self, start: int) -> None:
        """Settle the writes from `start` on, a slice of them, letting go of each once settled (so the slices, not
        the last one, free what the writes carried)."""
        end = min(start + SETTLE_SLICE, len(self._group))
        try:
            for index in range(start, end):
                write, outcome = self._group[index], self._outcomes[index]
                self._group[index] = self._outcomes[index] = None
                if write is not None:
                    write.settle(outcome)
        finally:
            if end < len(self._group):
                self._loop.call_soon(self._settle_from, end)
            else:
                self._group, self._outcomes = [], []
                self._lock.release()


class SerializedConnection:
    """An aiosqlite connection used by one task at a time (see the module docstring)."""

    def __init__(self, db: aiosqlite.Connection) -> None:
        self.raw = db
        self._reader: aiosqlite.Connection | None = None
        self._lock = asyncio.Lock()
        self._owner: asyncio.Task[Any] | None = None
        self._pending: list[_PendingWrite] = []
        self._flusher: asyncio.Task[None] | None = None

    def read_through(self, reader: aiosqlite.Connection) -> None:
        """From now on, other tasks' SELECTs go to `reader`, a read-only connection to the same file."""
        self._reader = reader

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Statement:
        return Statement(self, sql, params)

    async def run(self, sql: str, params: Sequence[Any] = ()) -> Rows:
        if self._owner is not None and self._owner is asyncio.current_task():
            return await self._step(sql, params)
        if self._reader is not None and sql.lstrip()[:6].upper() == "SELECT":
            return await self._step(sql, params, self._reader)
        async with self._lock:
            return await self._step(sql, params)

    async def _step(self, sql: str, params: Sequence[Any], connection: aiosqlite.Connection | None = None) -> Rows:
        # One trip to aiosqlite's thread per statement (its cursor API takes three: execute, fetch, close).
        connection = connection or self.raw
        try:
            return await connection._execute(_run_statement, connection._conn, sql, tuple(params))
        except sqlite3.Error as error:
            trouble = from_sqlite(error)
            if trouble is None:
                raise
            raise trouble from error

    async def write_batch(self, statements: Sequence[tuple[str, Sequence[Any]]],
                          guard: Guard | None = None, *, syncing: Callable[[], None] | None = None,
                          committed: Callable[[list[Rows]], None] | None = None) -> list[Rows]:
        """BEGIN IMMEDIATE, `statements`, COMMIT, grouped with the other writes queued meanwhile.

        `guard` sees the results before the commit; whatever it raises rolls back this write alone and
        is raised here (the version check of a move). Returns once the write is committed. `syncing` is
        called on the loop once the group's COMMIT has begun on the database thread (its statements
        done, the log being synced): work that overlaps the sync then leaves the thread alone.
        `committed` is called with the results on the loop as the group settles after its COMMIT (not if the
        write failed), before the calling task has resumed: what waits on it goes first.

        When nothing is committing, the calling task sends its write (and any queued with it) at once
        itself: a lone move starts no task and waits for no other to run. Writes that arrive while a
        group is in flight queue for the next one, which a flusher task sends.
        """
        loop = asyncio.get_running_loop()
        write = _PendingWrite(list(statements), guard, loop.create_future(), syncing, committed)
        self._pending.append(write)
        if self._flusher is None and self._lock.locked():
            self._flusher = loop.create_task(self._flush())
        elif self._flusher is None:
            try:
                await self._lock.acquire()  # free: taken at once, unless another task was just handed it
                await self._send_queued()
            except asyncio.CancelledError:
                write.future.cancel()  # unless sent already, it stays unwritten; if sent, it stands, unheard
                raise
        results = await write.future
        if committed is not None:
            await asyncio.sleep(0)  # what `committed` woke goes first (a table's request: bot.discord.table)
        return results

    async def _flush(self) -> None:
        """Commit the queued writes, a group at a time, until none are left."""
        try:
            while self._pending:
                await self._lock.acquire()
                await self._send_queued()
        finally:
            self._flusher = None

    async def _send_queued(self) -> None:
        """The lock just taken: commit the queued writes whose callers still wait for them (a cancelled one is
        never written) as one group, or release the lock if none are left (another task sent them)."""
        group = [write for write in self._pending if not write.future.done()]
        self._pending = []
        if group:
            await self._commit_group(group)
        else:
            self._lock.release()

    async def _commit_group(self, group: list[_PendingWrite]) -> None:
        """Send `group` to the database thread as one transaction, the lock held (by the caller) until it is
        done there. Then, on the loop, each write is settled and the lock released, even if the sender
        was cancelled meanwhile: once sent, the group runs all the same, so its writes still hear how it
        went and nothing else starts on the connection before its COMMIT or ROLLBACK is over."""
        loop = asyncio.get_running_loop()
        settling = _Settling(group, self._lock, loop)

        def deliver(outcomes: list[list[Rows] | BaseException]) -> None:  # on the database thread
            with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits any more
                loop.call_soon_threadsafe(settling.finish, outcomes)

        told = [write.syncing for write in group if write.syncing is not None]

        def syncing() -> None:  # on the database thread
            for tell in told:
                with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits any more
                    loop.call_soon_threadsafe(tell)

        try:
            await self.raw._execute(_run_group_delivering, self.raw._conn,
                                    [(write.statements, write.guard) for write in group], deliver,
                                    syncing if told else None)
        except asyncio.CancelledError:
            raise  # the thread settles the group when it is done with it
        except Exception as error:  # the trip failed (the connection is closed: nothing was sent)
            settling.finish([error] * len(group))

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[None]:
        """BEGIN IMMEDIATE ... COMMIT; anything raised inside, or by COMMIT itself, rolls back."""
        async with self._lock:
            self._owner = asyncio.current_task()
            try:
                try:
                    await self._step("BEGIN IMMEDIATE", ())
                except asyncio.CancelledError:
                    # The BEGIN still runs on the database thread: end it there before the lock goes, or the
                    # next transaction would find the connection inside this one.
                    with contextlib.suppress(sqlite3.Error, StorageError):
                        await asyncio.shield(self._step("ROLLBACK", ()))
                    raise
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
        try:
            if self._reader is not None:
                await self._reader.close()
        finally:
            await self.raw.close()
