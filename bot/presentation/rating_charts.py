"""Rating charts: a player's rating after each of his rated games of one game, as `/stats` attaches it
and the leaderboard's web page shows it (the picture: bot.presentation.render.rating_chart).

The points are the ratings stored after each game (`rating_changes`, bot.storage.ratings.rating_history), shown as
players see them (bot.play.ratings.shown): the chart's last point is the rating `/stats` and the leaderboard give.

Rulings (where nothing asked said otherwise):
- `/stats` without a game charts the game in which the player has the most rated games in the pool (ties: the
  game's slug, alphabetically); with a game he has no rated game of, it says so in words and draws nothing.
- The pool is games between people, as `/stats` shows first; the AI's own chart (`/stats user:@Parlor`) is of
  the games it played, the only pool it has. The leaderboard's page charts the pool the leaderboard counts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.play.ai_seats import AI_NAME
from bot.play.ratings import ALL, PEOPLE, shown
from bot.presentation.render.rating_chart import chart_alt_text, draw_rating_chart
from bot.runtime.drawing import draw_off_loop
from bot.storage.store import RatedPlayer, Store
from games import get_game

CHART_FILE = "rating.png"
POOL_WORDS = {PEOPLE: "games between people", ALL: f"games with {AI_NAME} counted too"}


@dataclass(frozen=True)
class Chart:
    png: bytes
    alt_text: str
    points: list[int]


async def rating_points(store: Store, guild_id: str, player: str, slug: str, pool: str) -> list[int]:
    """The rating `player` was shown after each of his rated games of `slug` in `pool`, in the order they counted."""
    return [shown(rating) for _, rating in await store.rating_history(guild_id, player, slug, pool)]


def charted_game(ratings: Sequence[RatedPlayer], pool: str) -> str | None:
    """The game `/stats` charts when none is named: the most rated games in `pool` (None: none rated there)."""
    rows = sorted((row for row in ratings if row.pool == pool), key=lambda row: (-row.rating.games, row.slug))
    return rows[0].slug if rows else None


async def rating_chart(store: Store, guild_id: str, player: str, name: str, slug: str, pool: str) -> Chart | None:
    """`player`'s chart in `slug` (None: no rated game there), drawn off the event loop."""
    points = await rating_points(store, guild_id, player, slug, pool)
    if not points:
        return None
    title = get_game(slug).title
    subtitle = f"Rating after each game, {POOL_WORDS[pool]}"
    png = await draw_off_loop(draw_rating_chart, points, f"{name}: {title}", subtitle)
    return Chart(png, chart_alt_text(name, title, POOL_WORDS[pool], points), points)
