"""A game's move log replayed off the event loop: each move with the events it caused.

`/game log` narrates them, `/game export` records them, and the host replays a log to check an older
button or to take a move back. Replaying a whole log through the engine takes
a long game (Crayon Rails) a noticeable time, so it runs in a worker thread, as the host's undo replay does
(`Host._timeline`): the event loop keeps serving every other channel meanwhile.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import TYPE_CHECKING

from pydantic import BaseModel

from bot.storage.store import MoveRecord, SessionRecord
from games import get_game
from games.record import replay_log

if TYPE_CHECKING:
    from bot.play.host import Host

Narrated = list[tuple[MoveRecord, list[dict]]]


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


async def narrated_moves(host: Host, session: SessionRecord) -> Narrated:
    """The game's whole log with each move's events (what the table narrated), replayed in a worker thread."""
    if session.setup_outcomes is None:
        return []
    return await asyncio.to_thread(narrated, session, await host.moves(session))
