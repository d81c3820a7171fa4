"""The `timers` rows: reminders and turn notices due for the players of sessions (bot.play.timers)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.runtime.shards import Shards
from bot.storage.records import Timer, TimerPlan
from bot.storage.repository import Repository


class Timers(Repository):
    """Timers due, and firing them (a write's own timers are written with it: `timer_statements`)."""

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


def earliest_due(plan: TimerPlan, results: Sequence[Any]) -> float | None:
    """The earliest due time of the timers of `plan` that `timer_statements` wrote, from its statements'
    `results` (its DELETE's first, then an INSERT's per timer; any results after those are not read); None if
    they wrote none."""
    inserted = results[1:1 + len(plan.add)]
    return min((timer.due_at for timer, rows in zip(plan.add, inserted, strict=True) if rows.rowcount > 0),
               default=None)


def timer_statements(session_id: int, plan: TimerPlan) -> list[tuple[str, Sequence[Any]]]:
    """Drop fired timers and pending ones not kept (one DELETE), then add the new ones: an INSERT each, in the
    order of `plan.add` (a notice is written only for a player who asked for turn DMs, decided here inside the
    write's own transaction, so a move reads nothing before it: bot.play.turn_clock). `earliest_due` reads their
    results in that order. A player's own move then ends his away and drops his forced move due."""
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
    if plan.actor is not None:
        statements += [(_END_AWAY, (plan.at, plan.actor, plan.at, plan.at, session_id)),
                       ("DELETE FROM autoplay_due WHERE session_id = ? AND player = ?", (session_id, plan.actor))]
    return statements


_END_AWAY = ("UPDATE away_periods SET ends = ? WHERE user_id = ? AND starts <= ? AND ends > ?"
             " AND guild_id = (SELECT guild_id FROM sessions WHERE id = ?)")
