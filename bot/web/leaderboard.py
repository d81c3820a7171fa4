"""The leaderboard's web page: a server's best-rated players of each game, each with the chart of his
rating over his games (bot.presentation.rating_charts), the same chart `/stats` attaches.

`/leaderboard`'s answer links to it when the web pages are on. Its address is signed per server
(bot.web.links.Links.leaderboard_key), so nobody counts his way through every server's players; it shows what
`/leaderboard` shows anyone on the server, nothing more. The page is plain HTML drawn here (no script): every
name and word escaped, each chart an image with its alt text (first, highest and current rating).

Rulings (where nothing asked said otherwise): the page shows each rated game's top ten (`/leaderboard game:`
shows one game's ten), in the pool the server's leaderboard counts (`/settings leaderboard`), and each chart is
of that pool.
"""

from __future__ import annotations

import html
from urllib.parse import quote

from bot.play.ratings import shown
from bot.presentation.rating_charts import POOL_WORDS, Chart, rating_chart, rating_points
from bot.presentation.render.rating_chart import chart_alt_text
from bot.presentation.standings import TOP, pool_of, ranked
from bot.storage.store import Store
from games import GAMES, get_game


class NotRated(Exception):
    """No chart for that address; the message says why."""


async def leaderboard_page(store: Store, guild_id: str, base: str) -> str:
    """The page's HTML: each game's best-rated players, each with his rating chart (`base`/chart/...)."""
    with_ai = (await store.guild_settings(guild_id)).leaderboard_with_ai
    pool = pool_of(with_ai)
    games = await store.rated_games(guild_id, pool)
    sections = [(slug, await store.leaderboard(guild_id, pool, slug, TOP)) for slug in games]
    parts = []
    for slug, rows in sections:
        title = html.escape(get_game(slug).title)
        items = []
        for rank, row in ranked(rows):
            points = await rating_points(store, guild_id, row.player, slug, pool)
            name = html.escape(row.name)
            games_played = f"{row.rating.games} game{'s' if row.rating.games != 1 else ''}"
            chart = ""
            if points:
                alt = html.escape(chart_alt_text(row.name, get_game(slug).title, POOL_WORDS[pool], points), quote=True)
                src = f"{base}/chart/{quote(slug)}/{quote(row.player)}.png"
                chart = f'<img src="{src}" alt="{alt}" width="720" height="400" loading="lazy">'
            items.append(f"<li><p><strong>{rank}. {name}</strong> {shown(row.rating):,} ({games_played})</p>"
                         f"{chart}</li>")
        parts.append(f'<section><h2>{title}</h2><ol class="log">{"".join(items)}</ol></section>')
    counted = POOL_WORDS[pool]
    body = "".join(parts) or "<p>No rated game on this server yet: a game counts once it is played to the end.</p>"
    return LEADERBOARD_PAGE.format(counted=html.escape(counted), body=body)


async def chart_picture(store: Store, guild_id: str, slug: str, player: str) -> Chart:
    """One player's chart on the page, in the pool the server's leaderboard counts."""
    if slug not in GAMES:
        raise NotRated("There is no such game.")
    pool = pool_of((await store.guild_settings(guild_id)).leaderboard_with_ai)
    rows = [row for row in await store.player_ratings(guild_id, player) if row.slug == slug and row.pool == pool]
    chart = await rating_chart(store, guild_id, player, rows[0].name, slug, pool) if rows else None
    if chart is None:
        raise NotRated("This player has no rated game of that game on this server.")
    return chart


LEADERBOARD_PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Parlor: leaderboard</title>
<link rel="stylesheet" href="/static/parlor.css">
</head>
<body>
<header><h1>Leaderboard</h1><p>This server's best-rated players, {counted}, each with his rating after each game.
Rating: 1000 for a newcomer, rising with results and their number.</p></header>
<main>{body}</main>
</body>
</html>
"""
