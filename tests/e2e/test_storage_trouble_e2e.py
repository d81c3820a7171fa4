"""Storage trouble gets a true private answer: which trouble, that nothing was changed, what to do.

Each fault is made real on the bot's own SQLite connection: another program holding the write lock
(busy), `query_only` (read-only), a page limit reached (disk full). The move is refused with that
fault's own message, no apology and no traceback, nothing changes; once the fault is gone the same
move is made. A database that cannot be written stops the bot at start-up with one line.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from bot.presentation.words import APOLOGY
from bot.storage.storage_errors import StorageBusy, StorageFull, StorageReadOnly
from bot.storage.store import Store
from tests.e2e.helpers import table

ROOT = Path(__file__).resolve().parents[2]


async def locked(raw, database: Path):
    """Another program holds the write lock; the bot gives up at once instead of after its busy timeout."""
    await raw.execute("PRAGMA busy_timeout = 0")
    other = sqlite3.connect(database, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    yield
    other.execute("ROLLBACK")
    other.close()


async def read_only(raw, database: Path):
    await raw.execute("PRAGMA query_only = 1")
    yield
    await raw.execute("PRAGMA query_only = 0")


async def full(raw, database: Path):
    """No page may be added, and the move log's last page has no room left for a row."""
    await raw.execute("INSERT INTO sessions (channel_id, slug, status, creator, players, version, created_at,"
                      " updated_at) VALUES ('filler', 'john-henry', 'finished', '0', '[]', 0, 0, 0)")
    async with raw.execute("SELECT MAX(id) FROM sessions") as cursor:
        (filler,) = await cursor.fetchone()
    async with raw.execute("PRAGMA page_count") as cursor:
        (pages,) = await cursor.fetchone()
    await raw.execute(f"PRAGMA max_page_count = {pages}")
    # One small row per commit (SQLite rolls a whole transaction back when the disk is full).
    async with raw.execute("PRAGMA synchronous") as cursor:
        (synchronous,) = await cursor.fetchone()
    await raw.execute("PRAGMA synchronous = OFF")
    with contextlib.suppress(sqlite3.OperationalError):
        for seq in range(1, 100_000):
            await raw.execute("INSERT INTO moves VALUES (?, ?, '', '', '', 0)", (filler, seq))
    await raw.execute(f"PRAGMA synchronous = {synchronous}")
    yield
    await raw.execute("PRAGMA max_page_count = 1073741823")


FAULTS = {"busy": (locked, StorageBusy, "busy"), "read-only": (read_only, StorageReadOnly, "read-only"),
          "disk full": (full, StorageFull, "disk is full")}


@pytest.mark.parametrize("fault", list(FAULTS))
async def test_each_storage_fault_gets_its_own_message_and_changes_nothing(fake_discord, parlor, tmp_path,
                                                                          caplog, fault):
    make, trouble, words = FAULTS[fault]
    fake = fake_discord
    alice, bob = fake.create_user("alice"), fake.create_user("bob")
    channel = fake.channel("games")
    await fake.slash(alice, "game start", channel=channel, game="john-henry", opponent=bob)
    lobby = table(fake, channel)
    await fake.click(bob, lobby, lobby.button(label="Join")["custom_id"])
    store = parlor.host.store
    before = await parlor.host.last_session_in(str(channel.id))

    fault_on = make(store._db.raw, tmp_path / "parlor.sqlite3")
    await anext(fault_on)
    with caplog.at_level(logging.WARNING):
        refused = await fake.slash(alice, "roll", channel=channel)
    with contextlib.suppress(StopAsyncIteration):
        await anext(fault_on)

    text = refused.response.content
    assert refused.ephemeral and text == trouble.reply, text
    assert words in text and "Nothing was changed" in text and "admin" in text
    assert APOLOGY not in text and len(text) <= 2000
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info], "no traceback"
    after = await parlor.host.last_session_in(str(channel.id))
    assert after.version == before.version and await parlor.host.moves(after) == []
    replies = {kind.reply for _, kind, _ in FAULTS.values()}
    assert len(replies) == len(FAULTS), "each fault has its own message"

    rolled = await fake.slash(alice, "roll", channel=channel)
    assert not rolled.ephemeral, "once the fault is gone the move is made"


@contextlib.contextmanager
def unwritable(path: Path):
    """The database file cannot be written by the bot: read-only for a user, immutable for root."""
    if os.geteuid() != 0:
        os.chmod(path, 0o444)
        yield
        os.chmod(path, 0o600)
        return
    if subprocess.run(["chattr", "+i", str(path)], capture_output=True).returncode != 0:
        pytest.skip("running as root without chattr: cannot make a file unwritable")
    try:
        yield
    finally:
        subprocess.run(["chattr", "-i", str(path)], check=True)


async def start_up_on(database_url: str, cwd: Path) -> tuple[int | None, list[str]]:
    """`python -m bot` on `database_url`, Discord unreachable (it must stop before): its exit code and lines."""
    env = {**os.environ, "DISCORD_TOKEN": "not-used", "DATABASE_URL": database_url,
           "DISCORD_API_BASE": "http://127.0.0.1:9/api/v10", "DISCORD_GATEWAY_URL": "ws://127.0.0.1:9/gateway",
           "DISCORD_GUILD_ID": "", "PYTHONPATH": str(ROOT), "LOG_LEVEL": "INFO"}
    process = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", cwd=cwd, env=env,
                                                   stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    out, err = await asyncio.wait_for(process.communicate(), timeout=60)
    return process.returncode, [line for line in (out + err).decode().splitlines() if line.strip()]


async def test_start_up_on_a_read_only_database_exits_with_one_clear_line(tmp_path):
    database = tmp_path / "parlor.sqlite3"
    await (await Store.open(database)).close()
    with unwritable(database):
        returncode, lines = await start_up_on(f"sqlite:///{database}", tmp_path)
    assert returncode != 0
    assert len(lines) == 1, lines
    assert "read-only" in lines[0] and str(database) in lines[0]


async def test_start_up_on_a_folder_says_it_is_a_folder_and_what_to_set_instead(tmp_path):
    """A DATABASE_URL naming a folder (the folder meant to hold the database, say) is not called read-only, and
    the folder is left as it was (its mode was once narrowed as a database file's)."""
    folder = tmp_path / "data"
    folder.mkdir()
    os.chmod(folder, 0o755)
    returncode, lines = await start_up_on("sqlite:///data", tmp_path)
    assert returncode != 0
    assert lines == ["parlor: cannot use the database sqlite:///data: it is a folder, not a database file (set "
                     "DATABASE_URL to a file in it, such as sqlite:///data/parlor.sqlite3). Fix that and start "
                     "again; no game was touched."]
    assert stat.S_IMODE(folder.stat().st_mode) == 0o755 and list(folder.iterdir()) == []
