"""The database schema as numbered migrations, applied in order at start-up.

`PRAGMA user_version` records how many have run, so each runs exactly once and
an older database is brought up to date without losing games.
"""

from __future__ import annotations

MIGRATIONS: list[str] = [
    # 1: sessions and their move log
    """
    CREATE TABLE sessions (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        guild_id TEXT,
        channel_id TEXT NOT NULL,
        slug TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('lobby', 'active', 'finished', 'abandoned')),
        creator TEXT NOT NULL,
        players TEXT NOT NULL,
        invited TEXT NOT NULL DEFAULT '[]',
        options TEXT NOT NULL DEFAULT '{}',
        setup_outcomes TEXT,
        state TEXT,
        version INTEGER NOT NULL DEFAULT 0,
        result TEXT,
        end_reason TEXT,
        created_at REAL NOT NULL,
        updated_at REAL NOT NULL
    );
    CREATE UNIQUE INDEX sessions_one_open_per_channel
        ON sessions (channel_id) WHERE status IN ('lobby', 'active');
    CREATE INDEX sessions_by_channel ON sessions (channel_id, id);
    CREATE TABLE moves (
        session_id INTEGER NOT NULL REFERENCES sessions (id),
        seq INTEGER NOT NULL,
        player TEXT NOT NULL,
        action TEXT NOT NULL,
        outcomes TEXT NOT NULL,
        created_at REAL NOT NULL,
        PRIMARY KEY (session_id, seq)
    );
    """,
]
