"""Which guilds this process owns, when the bot is split over several processes by shard.

Discord sends a guild's events to shard `(guild_id >> 22) % shard_count`; a process running some of
the shards owns those guilds: it handles their interactions and sends their reminders and turn
notices. `Shards.condition` says the same in SQL (the integer arithmetic is the same in SQLite and
PostgreSQL), so a process reads only its own timers. A session without a guild belongs to shard 0,
where Discord sends direct messages.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Shards:
    count: int
    ids: tuple[int, ...]

    def owns(self, guild_id: str | int | None) -> bool:
        return shard_of(guild_id, self.count) in self.ids

    def condition(self, guild_column: str) -> tuple[str, list[Any]]:
        """A SQL condition true for rows whose guild (in `guild_column`, TEXT) is on these shards."""
        marks = ", ".join("?" for _ in self.ids)
        return (f"(CAST(COALESCE({guild_column}, '0') AS BIGINT) >> 22) % ? IN ({marks})",
                [self.count, *self.ids])


def shard_of(guild_id: str | int | None, shard_count: int) -> int:
    return 0 if guild_id is None else (int(guild_id) >> 22) % shard_count
