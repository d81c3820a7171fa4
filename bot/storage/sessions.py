"""The `sessions` rows and their `moves` log: reading them, and the version-checked writes that change a game.

Every write that changes a game is one transaction guarded by the session's version (optimistic concurrency):
two writers that read the same version cannot both commit, so no move is lost or applied twice, even across
processes. A write's timers and rating changes go in the same transaction (bot.storage.timers, bot.storage.ratings).
"""

from __future__ import annotations

import contextlib
import json
import logging
import sqlite3
from collections.abc import Callable, Sequence
from typing import Any

import orjson

from bot.storage.postgres import IntegrityError as PostgresIntegrityError
from bot.storage.ratings import rating_statements
from bot.storage.records import (
    ChannelBusy,
    MoveRecord,
    RatingChange,
    Seat,
    SessionRecord,
    StaleVersion,
    TimerPlan,
    json_text,
)
from bot.storage.repository import Repository
from bot.storage.timers import earliest_due, timer_statements

log = logging.getLogger(__name__)

INTEGRITY_ERRORS = (sqlite3.IntegrityError, PostgresIntegrityError)


class Sessions(Repository):
    """Sessions and their moves: each write one transaction, refused if the session moved since it was read."""

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
                     json_text(list(invited)), json_text(options), now, now),
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
                                         rating_statements(session, ratings, now), timers=timers,
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
            (session.id, player, json_text(action), json_text(outcomes), now, session.id)))
        return await self._write_session(session, now, encoded, statements,
                                         rating_statements(session, ratings, now), syncing, committed,
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
            due = None if timers is None else earliest_due(timers, results[1:])  # after the UPDATE: _update_statements
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
        timers' statements (`bot.storage.timers.timer_statements`)."""
        assignments = ", ".join(f"{key} = ?" for key in encoded)
        sql = (f"UPDATE sessions SET {assignments}{', ' if assignments else ''}"
               "version = version + 1, updated_at = ? WHERE id = ? AND version = ? RETURNING version")
        statements: list[tuple[str, Sequence[Any]]] = [(sql, (*encoded.values(), now, session.id, session.version))]
        if timers is not None:
            statements += timer_statements(session.id, timers)
        return statements

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
        return None if timers is None else earliest_due(timers, results[1:])  # after the UPDATE


def _decoded(column: str, stored: Any) -> Any:
    """A `sessions` column as stored (JSON kept as TEXT) -> the value `SessionRecord` validates."""
    if column == "turn_events":
        return orjson.loads(stored or "[]")
    if column in _JSON_COLUMNS:
        return None if stored is None else orjson.loads(stored)
    return stored


def _session_from_row(row: sqlite3.Row) -> SessionRecord:
    return SessionRecord.model_validate({column: _decoded(column, stored) for column, stored in dict(row).items()})


def _as_written(session: SessionRecord, written: dict[str, Any], now: float, version: int) -> SessionRecord:
    """The session as reading it back would give it, after a write of the `written` columns (as stored) at
    `now` that made `version`: `session` (as committed at its own version), with those columns decoded
    and validated as a read does. So a write needs no read, nor the whole row parsed back (a move's
    commit is the bot's hottest path: issue 24)."""
    return SessionRecord.model_validate({**session.__dict__,
                                         **{column: _decoded(column, stored) for column, stored in written.items()},
                                         "version": version, "updated_at": now})


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
        return None if value is None else json_text(value)
    return value
