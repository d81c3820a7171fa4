"""AI seats: their ids and names. An AI seat's id is `ai-<n>`, never a Discord user id."""

from __future__ import annotations

from collections.abc import Sequence

from bot.storage.store import Seat

AI_PREFIX = "ai-"
AI_NAME = "Parlor (AI)"


def is_ai_id(player_id: str) -> bool:
    return player_id.startswith(AI_PREFIX)


def ai_name(player_id: str) -> str:
    number = player_id.removeprefix(AI_PREFIX)
    return AI_NAME if number == "1" else f"Parlor (AI {number})"


def new_ai_seats(seated: Sequence[Seat], count: int) -> list[Seat]:
    """`count` AI seats whose ids no seat uses yet."""
    taken = {seat.id for seat in seated}
    ids = (f"{AI_PREFIX}{n}" for n in range(1, len(taken) + count + 2))
    fresh = [player_id for player_id in ids if player_id not in taken][:count]
    return [Seat(id=player_id, name=ai_name(player_id), ai=True) for player_id in fresh]
