"""The `web_links` rows: the generation of each player's personal link to a game's web pages (bot.web)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.storage.repository import Repository


class WebLinks(Repository):
    """Personal links' generations, and what the web pages poll to see a game change."""

    async def web_generation(self, session_id: int, player: str) -> int:
        """The generation of `player`'s current personal link to the game (0: he never asked for one)."""
        async with self._db.execute("SELECT generation FROM web_links WHERE session_id = ? AND player = ?",
                                    (session_id, player)) as cursor:
            row = await cursor.fetchone()
        return int(row[0]) if row else 0

    async def next_web_generation(self, session_id: int, player: str) -> int:
        """A new generation for `player`'s personal link: every older link stops working."""
        async with self._transaction():
            await self._db.execute(
                "INSERT INTO web_links (session_id, player, generation) VALUES (?, ?, 1)"
                " ON CONFLICT (session_id, player) DO UPDATE SET generation = web_links.generation + 1",
                (session_id, player))
        return await self.web_generation(session_id, player)

    async def watched(self, session_ids: Sequence[int]) -> dict[int, tuple[int, int, int]]:
        """For the web pages' poll: each session's version, the sum of its link generations (which changes
        when a player asks for a new link), and for a finished game the next game that began in its channel
        (0 while none has: its pages offer its rematch), in one cheap query."""
        if not session_ids:
            return {}
        marks = ", ".join("?" for _ in session_ids)
        async with self._db.execute(
            f"SELECT s.id, s.version, (SELECT COALESCE(SUM(w.generation), 0) FROM web_links w"
            f" WHERE w.session_id = s.id), CASE WHEN s.status = 'finished' THEN (SELECT COALESCE(MIN(n.id), 0)"
            f" FROM sessions n WHERE n.channel_id = s.channel_id AND n.id > s.id AND n.state IS NOT NULL) ELSE 0 END"
            f" FROM sessions s WHERE s.id IN ({marks})", tuple(session_ids)
        ) as cursor:
            rows = await cursor.fetchall()
        return {int(row[0]): (int(row[1]), int(row[2]), int(row[3])) for row in rows}
