"""`python -m bot backup <file>` and `python -m bot restore <file>` for a SQLite database (docs/operators.md).

A backup uses SQLite's online backup API: it copies a consistent snapshot page by page while the bot keeps
running and writing (WAL mode). A restore first checks the copy on a scratch file: it must open, pass
SQLite's integrity check, take the migrations, and every game's move log replayed through its engine must
give the state stored with it; only then is it written over the database (with the bot stopped). PostgreSQL
is backed up with `pg_dump` instead.
"""

from __future__ import annotations

import asyncio
import sqlite3
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from bot.play.replay import replayed
from bot.storage.dialects import SQLITE_URL
from bot.storage.store import Store
from games import get_game

PAGES_PER_STEP = 256
"""Pages copied per step of the online backup: the bot's writes go on between steps."""


class BackupRefused(Exception):
    """A backup or restore that cannot be done as asked, said in one line for the operator."""


@dataclass
class Replayed:
    """What a restore's check found: how many games it replayed, and each one whose replay differs."""

    games: int = 0
    differing: list[int] = field(default_factory=list)


def sqlite_path(database_url: str) -> Path:
    """The SQLite file a DATABASE_URL names; PostgreSQL's are refused (pg_dump backs them up)."""
    if not database_url.startswith(SQLITE_URL):
        raise BackupRefused("DATABASE_URL is PostgreSQL: back it up with pg_dump (docs/operators.md)")
    path = database_url[len(SQLITE_URL):]
    if path == ":memory:" or not path:
        raise BackupRefused("DATABASE_URL names no file to back up")
    return Path(path)


def copy_database(source: Path, target: Path) -> None:
    """Copy `source` to `target` with SQLite's online backup API (safe while the bot writes to `source`)."""
    reader = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
    try:
        writer = sqlite3.connect(target)
        try:
            reader.backup(writer, pages=PAGES_PER_STEP)
        finally:
            writer.close()
    finally:
        reader.close()


def backup(database_url: str, target: Path) -> None:
    source = sqlite_path(database_url)
    if not source.is_file():
        raise BackupRefused(f"there is no database at {source}")
    if target.exists():
        raise BackupRefused(f"{target} exists already: name a new file")
    copy_database(source, target)
    check_integrity(target)


def check_integrity(path: Path) -> None:
    connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        (verdict,) = connection.execute("PRAGMA integrity_check").fetchone()
    except sqlite3.DatabaseError as error:
        raise BackupRefused(f"{path} is not a SQLite database Parlor can read: {error}") from None
    finally:
        connection.close()
    if verdict != "ok":
        raise BackupRefused(f"{path} fails SQLite's integrity check: {verdict}")


async def replay_every_game(store: Store) -> Replayed:
    """Replay each begun game's move log and compare with its stored state."""
    found = Replayed()
    for session in await store.sessions_where("state IS NOT NULL AND setup_outcomes IS NOT NULL ORDER BY id"):
        moves = await store.moves(session.id)
        state, _ = await asyncio.to_thread(replayed, session, moves)
        stored = get_game(session.slug).state_from_json(session.state)
        found.games += 1
        if state != stored:
            found.differing.append(session.id)
    return found


async def check_copy(copy: Path) -> Replayed:
    """The copy checked on a scratch file (the copy itself is left as it was)."""
    if not copy.is_file():
        raise BackupRefused(f"there is no file {copy}")
    check_integrity(copy)
    with tempfile.TemporaryDirectory(prefix="parlor-restore-") as scratch:
        trial = Path(scratch) / "trial.sqlite3"
        copy_database(copy, trial)
        store = await Store.open(trial)
        try:
            found = await replay_every_game(store)
        finally:
            await store.close()
    if found.differing:
        listed = ", ".join(f"#{number}" for number in found.differing)
        raise BackupRefused(f"{copy}: the move logs of games {listed} do not give their stored states")
    return found


async def restore(database_url: str, copy: Path) -> Replayed:
    """Check `copy`, then write it over the database (the bot must be stopped)."""
    target = sqlite_path(database_url)
    found = await check_copy(copy)
    target.parent.mkdir(parents=True, exist_ok=True)
    copy_database(copy, target)
    return found
