"""The health checks and the running-games count, built from the bot's store and its Discord connection."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from bot.storage.dialects import SQLITE_URL
from bot.storage.store import Store
from games import GAMES


class DatabaseFileMissing(RuntimeError):
    """The SQLite file is gone from its path: the open connection still answers, but from a deleted file whose
    writes are lost when the process ends."""


def database_check(store: Store, database_url: str):
    """A check that raises when the database cannot answer a read (or, for SQLite, its file has gone)."""
    path = Path(database_url[len(SQLITE_URL):]) if database_url.startswith(SQLITE_URL) else None
    if path is not None and str(path) == ":memory:":
        path = None

    async def check() -> None:
        if path is not None and not path.is_file():
            raise DatabaseFileMissing(f"{SQLITE_URL}{path} is missing")
        await store.schema_version()

    return check


def games_running(store: Store):
    """Counts the running games by slug, every game named."""

    async def count() -> dict[str, int]:
        running = Counter(session.slug for session in await store.sessions_where("status = 'active'"))
        return {slug: running.get(slug, 0) for slug in GAMES}

    return count


def gateway_connected(bot: Any) -> bool:
    """Whether Discord's gateway is connected: every shard this process runs, or its one connection."""
    if bot.is_closed() or not bot.is_ready():
        return False
    shards = getattr(bot, "shards", None)
    if isinstance(shards, dict) and shards:
        return all(not shard.is_closed() for shard in shards.values())
    ws = getattr(bot, "ws", None)
    return ws is not None and ws.open
