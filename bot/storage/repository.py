"""What the store's parts share: the one connection (or pool) they all read and write through."""

from __future__ import annotations

import contextlib

from bot.storage.db_connection import SerializedConnection
from bot.storage.postgres import PostgresConnection

Connection = SerializedConnection | PostgresConnection


class Repository:
    """A part of the store: the queries on some tables, through the connection the whole store shares."""

    def __init__(self, db: Connection) -> None:
        self._db = db

    def _transaction(self) -> contextlib.AbstractAsyncContextManager[None]:
        return self._db.transaction()
