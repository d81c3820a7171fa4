"""How a game's ending is written: its result with what the AI played, and the ratings that change with it,
committed by the same transaction as the move (or claim) that ends it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.play.ratings import rating_keys, updated_ratings
from bot.storage.store import RatingChange, SessionRecord, Store
from games.record import timeout_result


def who_played(session: SessionRecord) -> dict[str, Any]:
    """What a result records about the AI: its own seats, and the versions it stood in for people."""
    recorded: dict[str, Any] = {}
    if ai_seats := [seat.id for seat in session.players if seat.ai]:
        recorded["ai_seats"] = ai_seats
    if stand_ins := stand_ins_of(session):
        recorded["stand_ins"] = stand_ins
    return recorded


def stand_ins_of(session: SessionRecord) -> dict[str, list[list[int]]]:
    """The stretches of moves in which the AI stood in for each person it played for (games.undo `StandIns`)."""
    return {seat.id: seat.stand_ins for seat in session.players if seat.stand_ins}


def played_out(session: SessionRecord, result: dict) -> dict[str, Any]:
    """The changes that finish a game its engine ended with `result`."""
    return {"status": "finished", "result": {**result, **who_played(session)}, "end_reason": "played out"}


def timed_out(session: SessionRecord, idle: list[str]) -> dict[str, Any]:
    """The changes that finish a game whose turn clock ran out on `idle` (a claim): they lose."""
    return {"status": "finished", "end_reason": "timeout",
            "result": {**timeout_result(session.player_ids, idle), **who_played(session)}}


async def ratings_after(store: Store, session: SessionRecord, ending: Mapping[str, Any]) -> list[RatingChange]:
    """What finishing `session` with `ending` (status, result) does to its players' ratings (bot.play.ratings),
    from the ratings as committed now: written by the same transaction as the finishing move."""
    finished = session.model_copy(update={key: ending[key] for key in ("status", "result", "end_reason")})
    keys = rating_keys(finished)
    if not keys or finished.guild_id is None:
        return []
    return updated_ratings(finished, await store.ratings(finished.guild_id, finished.slug, keys))
