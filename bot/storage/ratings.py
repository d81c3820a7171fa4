"""The `ratings` and `rating_changes` rows: players' skill estimates per game and pool (bot.play.ratings)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.storage.records import RatedPlayer, Rating, RatingChange, SessionRecord
from bot.storage.repository import Repository


class Ratings(Repository):
    """Ratings and leaderboards as they stand (a finished game's changes are written with it: `rating_statements`)."""

    async def ratings(self, guild_id: str, slug: str, keys: Sequence[tuple[str, str]]) -> dict[tuple[str, str], Rating]:
        """The current ratings of (pool, player) `keys` in one game on one server; newcomers are left out."""
        if not keys:
            return {}
        players = sorted({player for _, player in keys})
        marks = ", ".join("?" for _ in players)
        async with self._db.execute(
            f"SELECT * FROM ratings WHERE guild_id = ? AND slug = ? AND player IN ({marks})",
            (guild_id, slug, *players)
        ) as cursor:
            rows = await cursor.fetchall()
        found = {(row["pool"], row["player"]): _rating(row) for row in rows}
        return {key: found[key] for key in keys if key in found}

    async def leaderboard(self, guild_id: str, pool: str, slug: str, limit: int) -> list[RatedPlayer]:
        """The best-rated players of one game's pool on one server, best first (bot.play.ratings.shown's order)."""
        async with self._db.execute(
            "SELECT * FROM ratings WHERE guild_id = ? AND pool = ? AND slug = ?"
            " ORDER BY mu - 3 * sigma DESC, games DESC, player LIMIT ?", (guild_id, pool, slug, limit)
        ) as cursor:
            rows = await cursor.fetchall()
        return [_rated_player(row) for row in rows]

    async def rated_games(self, guild_id: str, pool: str) -> list[str]:
        """The games with ratings in `pool` on one server, the most players first."""
        async with self._db.execute(
            "SELECT slug, COUNT(*) AS players FROM ratings WHERE guild_id = ? AND pool = ?"
            " GROUP BY slug ORDER BY players DESC, slug", (guild_id, pool)
        ) as cursor:
            rows = await cursor.fetchall()
        return [row["slug"] for row in rows]

    async def player_ratings(self, guild_id: str, player: str) -> list[RatedPlayer]:
        async with self._db.execute(
            "SELECT * FROM ratings WHERE guild_id = ? AND player = ? ORDER BY slug, pool", (guild_id, player)
        ) as cursor:
            rows = await cursor.fetchall()
        return [_rated_player(row) for row in rows]

    async def rating_changes(self, session_id: int) -> list[RatingChange]:
        """What a finished game did to its players' ratings (nothing for a game that did not count)."""
        async with self._db.execute(
            "SELECT c.*, r.name FROM rating_changes c JOIN sessions s ON s.id = c.session_id"
            " LEFT JOIN ratings r ON r.guild_id = s.guild_id AND r.slug = s.slug AND r.pool = c.pool"
            " AND r.player = c.player WHERE c.session_id = ? ORDER BY c.pool, c.player", (session_id,)
        ) as cursor:
            rows = await cursor.fetchall()
        return [_rating_change(row) for row in rows]

    async def rating_history(self, guild_id: str, player: str, slug: str, pool: str) -> list[tuple[int, Rating]]:
        """(game, `player`'s rating after it) for each rated game of `slug` in `pool` on one server, in the order
        they counted (each adds one to his games there): the points of his rating chart."""
        async with self._db.execute(
            "SELECT c.session_id, c.mu, c.sigma, c.games FROM rating_changes c JOIN sessions s ON s.id = c.session_id"
            " WHERE c.player = ? AND c.pool = ? AND s.guild_id = ? AND s.slug = ? ORDER BY c.games, c.session_id",
            (player, pool, guild_id, slug)
        ) as cursor:
            rows = await cursor.fetchall()
        return [(row["session_id"], _rating(row)) for row in rows]

    async def last_rating_changes(self, guild_id: str, player: str) -> dict[tuple[str, str], RatingChange]:
        """(game, pool) -> the change `player`'s latest rated game there made, on one server.

        The latest is the game that ended last, whenever it began: each rated game adds one to the player's
        games in the pool (a write from stale ratings is refused), so the highest count is the last game and
        the change that made his rating as it stands."""
        async with self._db.execute(
            "SELECT c.*, s.slug, '' AS name FROM rating_changes c JOIN sessions s ON s.id = c.session_id"
            " WHERE c.player = ? AND s.guild_id = ? ORDER BY c.games, c.session_id", (player, guild_id)
        ) as cursor:
            rows = await cursor.fetchall()
        return {(row["slug"], row["pool"]): _rating_change(row) for row in rows}


def _rating(row: Any) -> Rating:
    return Rating(mu=row["mu"], sigma=row["sigma"], games=row["games"])


def _rated_player(row: Any) -> RatedPlayer:
    return RatedPlayer(slug=row["slug"], pool=row["pool"], player=row["player"], name=row["name"], rating=_rating(row))


def _rating_change(row: Any) -> RatingChange:
    before = (Rating(mu=row["mu_before"], sigma=row["sigma_before"], games=row["games_before"])
              if row["mu_before"] is not None else None)
    return RatingChange(pool=row["pool"], player=row["player"], name=row["name"] or row["player"], before=before,
                        after=_rating(row))


def rating_statements(session: SessionRecord, changes: Sequence[RatingChange], now: float
                      ) -> list[tuple[str, Sequence[Any]]]:
    """Each rating's new value, written only if it still has the games it had when read (else no row
    changes, and the write is refused), and the game's change of it, recorded once per game."""
    statements: list[tuple[str, Sequence[Any]]] = []
    for change in changes:
        before, after = change.before, change.after
        games_before = before.games if before else 0
        statements.append((
            "INSERT INTO ratings (guild_id, slug, pool, player, name, mu, sigma, games, updated_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, slug, pool, player) DO UPDATE SET"
            " name = excluded.name, mu = excluded.mu, sigma = excluded.sigma, games = excluded.games,"
            " updated_at = excluded.updated_at WHERE ratings.games = ?",
            (session.guild_id, session.slug, change.pool, change.player, change.name,
             after.mu, after.sigma, after.games, now, games_before)))
        statements.append((
            "INSERT INTO rating_changes (session_id, pool, player, mu_before, sigma_before, games_before,"
            " mu, sigma, games) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
            (session.id, change.pool, change.player, before.mu if before else None,
             before.sigma if before else None, games_before, after.mu, after.sigma, after.games)))
    return statements
