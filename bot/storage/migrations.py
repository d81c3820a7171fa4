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
    # 2: playing over a day: when each wait began, due timers, per-user and per-server settings
    """
    ALTER TABLE sessions ADD COLUMN waiting_since TEXT;
    CREATE TABLE timers (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        session_id INTEGER NOT NULL REFERENCES sessions (id),
        kind TEXT NOT NULL CHECK (kind IN ('reminder', 'notice')),
        player TEXT NOT NULL,
        due_at REAL NOT NULL,
        fired INTEGER NOT NULL DEFAULT 0
    );
    CREATE INDEX timers_pending ON timers (due_at) WHERE fired = 0;
    CREATE INDEX timers_by_session ON timers (session_id);
    CREATE TABLE user_settings (
        user_id TEXT PRIMARY KEY,
        turn_dms INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE guild_settings (
        guild_id TEXT PRIMARY KEY,
        reminder_hours REAL,
        turn_clock_hours REAL
    );
    """,
    # 3: committed dice: each game's secret seed (games.dice), revealed only once the game is over
    """
    ALTER TABLE sessions ADD COLUMN dice_seed TEXT;
    """,
    # 4: the bot's own small facts: the fingerprint of the last command sync, the last start
    """
    CREATE TABLE bot_meta (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
    );
    """,
    # 5: the table each game shows in its channel, and each player's private panel in DMs
    """
    ALTER TABLE sessions ADD COLUMN turn_events TEXT NOT NULL DEFAULT '[]';
    CREATE TABLE tables (
        session_id INTEGER PRIMARY KEY REFERENCES sessions (id),
        channel_id TEXT NOT NULL,
        message_id TEXT,
        shown_version INTEGER NOT NULL DEFAULT -1,
        shown_status TEXT,
        announced TEXT NOT NULL DEFAULT '[]'
    );
    CREATE TABLE panels (
        session_id INTEGER NOT NULL REFERENCES sessions (id),
        player TEXT NOT NULL,
        channel_id TEXT NOT NULL,
        message_id TEXT NOT NULL,
        PRIMARY KEY (session_id, player)
    );
    """,
    # 6: ratings per game, server and pool (bot.play.ratings), each game's rating changes, and whether a
    # server's leaderboard counts games with the AI
    """
    CREATE TABLE ratings (
        guild_id TEXT NOT NULL,
        slug TEXT NOT NULL,
        pool TEXT NOT NULL CHECK (pool IN ('people', 'all')),
        player TEXT NOT NULL,
        name TEXT NOT NULL,
        mu REAL NOT NULL,
        sigma REAL NOT NULL,
        games INTEGER NOT NULL,
        updated_at REAL NOT NULL,
        PRIMARY KEY (guild_id, slug, pool, player)
    );
    CREATE INDEX ratings_by_player ON ratings (guild_id, player);
    CREATE TABLE rating_changes (
        session_id INTEGER NOT NULL REFERENCES sessions (id),
        pool TEXT NOT NULL,
        player TEXT NOT NULL,
        mu_before REAL,
        sigma_before REAL,
        games_before INTEGER NOT NULL DEFAULT 0,
        mu REAL NOT NULL,
        sigma REAL NOT NULL,
        games INTEGER NOT NULL,
        PRIMARY KEY (session_id, pool, player)
    );
    CREATE INDEX rating_changes_by_player ON rating_changes (player, session_id);
    ALTER TABLE guild_settings ADD COLUMN leaderboard_with_ai INTEGER NOT NULL DEFAULT 0;
    """,
    # 7: the web pages (bot.web): each player's personal link generation; asking again revokes the older links
    """
    CREATE TABLE web_links (
        session_id INTEGER NOT NULL REFERENCES sessions (id),
        player TEXT NOT NULL,
        generation INTEGER NOT NULL,
        PRIMARY KEY (session_id, player)
    );
    """,
    # 8: without sight (issue 25): a server's text-only tables, a user's private views as text
    """
    ALTER TABLE guild_settings ADD COLUMN text_tables INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE user_settings ADD COLUMN text_view INTEGER NOT NULL DEFAULT 0;
    """,
    # 9: users whose direct messages Discord refused (bot.discord.dm_reach): no DM is tried until they act again
    """
    ALTER TABLE user_settings ADD COLUMN dms_closed INTEGER NOT NULL DEFAULT 0;
    """,
    # 10: what each private panel shows (bot.discord.panels.fingerprint), so that one behind its game is caught up at
    # start-up; none yet for the panels of before: each running game's are edited once
    """
    ALTER TABLE panels ADD COLUMN shows TEXT;
    """,
    # 11: superseded tables not yet deleted (bot.discord.table): recorded with the table that replaced them, so a
    # crash before their deletion is finished at start-up or on the game's next update, never leaving two tables
    """
    ALTER TABLE tables ADD COLUMN retiring TEXT NOT NULL DEFAULT '[]';
    """,
    # 12: days-long games (bot.play.pauses): a player's time zone, quiet hours and choices, a server's
    # away allowance, each away period, and the forced moves due to be played for their players
    """
    ALTER TABLE user_settings ADD COLUMN time_zone TEXT;
    ALTER TABLE user_settings ADD COLUMN quiet_from INTEGER;
    ALTER TABLE user_settings ADD COLUMN quiet_to INTEGER;
    ALTER TABLE user_settings ADD COLUMN autoplay INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE user_settings ADD COLUMN auto_away INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE user_settings ADD COLUMN digest_hour INTEGER;
    ALTER TABLE user_settings ADD COLUMN digest_due REAL;
    ALTER TABLE guild_settings ADD COLUMN away_days INTEGER;
    CREATE TABLE away_periods (
        guild_id TEXT NOT NULL,
        user_id TEXT NOT NULL,
        starts REAL NOT NULL,
        ends REAL NOT NULL,
        reason TEXT,
        PRIMARY KEY (guild_id, user_id, starts)
    );
    CREATE TABLE autoplay_due (
        session_id INTEGER NOT NULL REFERENCES sessions (id),
        player TEXT NOT NULL,
        due_at REAL NOT NULL,
        PRIMARY KEY (session_id, player)
    );
    CREATE INDEX user_settings_digest ON user_settings (digest_due) WHERE digest_due IS NOT NULL;
    """,
]
