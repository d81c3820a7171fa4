"""Storage trouble, told truthfully: what failed, that nothing was changed, and what to do.

The database connections turn their driver's errors into these: SQLite's result codes in
bot.storage.db_connection, PostgreSQL's SQLSTATE codes in bot.storage.postgres. Each is raised only after the
transaction was rolled back, so the reply can say nothing was changed (a move, a join, a setting
alike). `reply` is the private answer to the user; `startup` the one line printed when the bot
cannot use its database at all.
"""

from __future__ import annotations

import sqlite3


class StorageError(Exception):
    """The database could not do what was asked; nothing was written."""

    reply = ("I could not save that: the bot's database failed, so nothing was changed. Try again in a "
             "minute; if it keeps failing, tell the server's admin.")
    startup = "the database cannot be used"


class StorageFull(StorageError):
    reply = ("Nothing was changed: the bot's disk is full, so nothing could be saved. Tell the server's "
             "admin (the bot's host must free some disk space), then try again.")
    startup = "the disk is full"


class StorageBusy(StorageError):
    reply = ("Nothing was changed: the bot's database is busy (locked by another program). Try again in a "
             "minute; if it stays busy, tell the server's admin.")
    startup = "the database is locked by another program"


class StoragePathUnusable(StorageError):
    """The database file's folder cannot be made: a part of its path is a file, or missing and not creatable."""

    startup = "its folder cannot be made (a part of the path is a file, or cannot be created)"


class StoragePathIsFolder(StorageError):
    """The database path names a folder (the one meant to hold it, say): SQLite needs a file there, and
    would only have said it cannot open it, which read as a read-only database."""

    def __init__(self, instead: str) -> None:
        super().__init__(f"the database path is a folder; use {instead}")
        self.startup = f"it is a folder, not a database file (set DATABASE_URL to a file in it, such as {instead})"


class StorageReadOnly(StorageError):
    reply = ("Nothing was changed: the bot's database is read-only, so nothing can be saved. Tell the "
             "server's admin (the bot's host must make the database writable); your game is kept as it was.")
    startup = "the database is read-only (or its folder is not writable)"


# SQLite's primary result codes (https://sqlite.org/rescode.html).
_BY_CODE: dict[int, type[StorageError]] = {
    3: StorageReadOnly,   # SQLITE_PERM
    5: StorageBusy,       # SQLITE_BUSY
    6: StorageBusy,       # SQLITE_LOCKED
    8: StorageReadOnly,   # SQLITE_READONLY
    10: StorageError,     # SQLITE_IOERR
    11: StorageError,     # SQLITE_CORRUPT
    13: StorageFull,      # SQLITE_FULL
    14: StorageReadOnly,  # SQLITE_CANTOPEN: the file or its folder cannot be opened for writing
    26: StorageError,     # SQLITE_NOTADB
}


def from_sqlite(error: sqlite3.Error) -> StorageError | None:
    """The storage trouble an SQLite error stands for; None for the others (constraints, bugs)."""
    code = getattr(error, "sqlite_errorcode", None)
    kind = _BY_CODE.get(code & 0xFF) if isinstance(code, int) else None
    return kind(str(error)) if kind else None


# PostgreSQL's SQLSTATE codes (https://www.postgresql.org/docs/current/errcodes-appendix.html).
_BY_SQLSTATE: dict[str, type[StorageError]] = {
    "53100": StorageFull,      # disk_full
    "53200": StorageError,     # out_of_memory
    "53300": StorageBusy,      # too_many_connections
    "55P03": StorageBusy,      # lock_not_available
    "57014": StorageBusy,      # query_canceled (a statement or lock timeout)
    "25006": StorageReadOnly,  # read_only_sql_transaction
    "42501": StorageReadOnly,  # insufficient_privilege
}


def from_postgres(error: Exception) -> StorageError | None:
    """The storage trouble a PostgreSQL error stands for (by its SQLSTATE); None for the others."""
    kind = _BY_SQLSTATE.get(str(getattr(error, "sqlstate", "")))
    return kind(str(error)) if kind else None
