"""Database errors become the storage trouble they stand for, on SQLite and on PostgreSQL."""

from __future__ import annotations

import sqlite3

import asyncpg
import pytest

from bot.storage.storage_errors import (
    StorageBusy,
    StorageError,
    StorageFull,
    StoragePathIsFolder,
    StorageReadOnly,
    from_postgres,
    from_sqlite,
)
from bot.storage.store import Store


@pytest.mark.parametrize(("error", "kind"), [
    (asyncpg.exceptions.DiskFullError, StorageFull),
    (asyncpg.exceptions.ReadOnlySQLTransactionError, StorageReadOnly),
    (asyncpg.exceptions.InsufficientPrivilegeError, StorageReadOnly),
    (asyncpg.exceptions.LockNotAvailableError, StorageBusy),
    (asyncpg.exceptions.QueryCanceledError, StorageBusy),
    (asyncpg.exceptions.TooManyConnectionsError, StorageBusy),
    (asyncpg.exceptions.OutOfMemoryError, StorageError),
])
def test_postgresql_errors_map_to_their_trouble(error, kind):
    assert type(from_postgres(error("server said no"))) is kind


def test_other_errors_are_not_storage_trouble():
    assert from_postgres(asyncpg.exceptions.UniqueViolationError("duplicate")) is None
    db = sqlite3.connect(":memory:")
    db.execute("CREATE TABLE t (x PRIMARY KEY)")
    db.execute("INSERT INTO t VALUES (1)")
    with pytest.raises(sqlite3.IntegrityError) as duplicate:
        db.execute("INSERT INTO t VALUES (1)")
    assert from_sqlite(duplicate.value) is None
    db.execute("PRAGMA query_only = 1")
    with pytest.raises(sqlite3.OperationalError) as read_only:
        db.execute("INSERT INTO t VALUES (2)")
    assert type(from_sqlite(read_only.value)) is StorageReadOnly


async def test_start_up_on_a_read_only_postgresql_database_is_refused(postgres_server, postgres_url):
    await (await Store.connect(postgres_url)).close()
    admin = await asyncpg.connect(postgres_server.dsn())
    try:
        name = postgres_url.rsplit("/", 1)[-1]
        await admin.execute(f'ALTER DATABASE "{name}" SET default_transaction_read_only = on')
    finally:
        await admin.close()
    with pytest.raises(StorageReadOnly):
        await Store.connect(postgres_url)


async def test_a_database_path_ending_in_a_slash_names_a_folder_even_one_not_made_yet(tmp_path):
    """DATABASE_URL=sqlite:///data/ means the folder data: it used to become a database file called `data`
    (the slash lost on the way to a path), and the folder meant could no longer be made there."""
    folder = tmp_path / "data"
    with pytest.raises(StoragePathIsFolder) as told:
        await Store.connect(f"sqlite:///{folder}/")
    assert not folder.exists(), "nothing made"
    assert told.value.startup == ("it is a folder, not a database file (set DATABASE_URL to a file in it, such as "
                                  f"sqlite:///{folder}/parlor.sqlite3)")
