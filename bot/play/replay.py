"""A game's move log replayed off the event loop: the state it leads to, and each move with the events it caused.

`/game log` narrates them, `/game export` records them, `Host.replay` audits a game, and the host replays a
log to check an older button. Replaying a whole log through the engine takes a long game (Crayon Rails) a
noticeable time, so it runs in a worker thread, as the undo's replay does (bot.play.undo): the event loop keeps
serving every other channel meanwhile.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Protocol

from pydantic import BaseModel

from bot.play.refusals import UserError
from bot.storage.store import MoveRecord, SessionRecord, Store
from games import get_game
from games.record import replay_log

Narrated = list[tuple[MoveRecord, list[dict]]]


class MoveLog(Protocol):
    """Whatever reads a session's move log (the host)."""

    async def moves(self, session: SessionRecord) -> list[MoveRecord]: ...


def replayed(session: SessionRecord, moves: Sequence[MoveRecord]) -> tuple[BaseModel, Narrated]:
    """The state after the game's setup and `moves` (its log, or the first part of it), and each move with
    the events it caused. Pure: it runs in a worker thread."""
    steps = replay_log(get_game(session.slug), session.player_ids, session.options, session.setup_outcomes or {},
                       ((move.player, move.action, move.outcomes) for move in moves))
    state, _ = next(steps)
    told: Narrated = []
    for move, (state, events) in zip(moves, steps, strict=True):  # noqa: B007 (the last state is returned)
        told.append((move, events))
    return state, told


def narrated(session: SessionRecord, moves: Sequence[MoveRecord]) -> Narrated:
    """Each of `moves` (the game's log, in order) with the events it caused, replayed from the game's setup;
    nothing for a game that never began. Pure: it runs in a worker thread."""
    if session.setup_outcomes is None:
        return []
    return replayed(session, moves)[1]


async def narrated_moves(host: MoveLog, session: SessionRecord) -> Narrated:
    """The game's whole log with each move's events (what the table narrated), replayed in a worker thread."""
    if session.setup_outcomes is None:
        return []
    return await asyncio.to_thread(narrated, session, await host.moves(session))


async def replayed_in_worker(store: Store, session: SessionRecord, log: list[MoveRecord] | None = None,
                             ) -> tuple[BaseModel, Narrated]:
    """The state after the setup and `log` (the whole move log by default), and each move's events;
    replayed in a worker thread (a long Crayon Rails log takes a while), the loop serving others."""
    if session.setup_outcomes is None:
        raise UserError("This game never began, so it has no moves to replay.")
    moves = await store.moves(session.id) if log is None else log
    return await asyncio.to_thread(replayed, session, moves)
