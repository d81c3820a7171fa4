"""How ratings are shown (bot.play.ratings): the leaderboard's text and picture, `/stats` lines, the final table.

The leaderboard (bot.discord.leaderboard) answers privately with a Share button (bot.discord.share); its picture
is 720 px wide with names and ratings in the boards' key type size (about 14 px on a 400 px phone), drawn off the
event loop, and its alt text (the attachment's description) names the top entries for screen readers. Which pool it
shows is the server's choice (`/settings leaderboard`): games between people only (the default), or
every rated game, the AI's seats included and the AI listed. Without a game it shows each game's top
three on the server, the games with the most rated players first.

Ruling: players whose shown ratings are equal share a rank (standard competition ranking: 1, 2, 2, 4), in the
words, the picture (the same medal colour) and the alt text; a top three may then end inside a tie.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.play.ai_seats import AI_NAME
from bot.play.ratings import ALL, PEOPLE, new_rating, shown
from bot.presentation.alt_text import shorten
from bot.presentation.markdown import Escape, markdown_escaped
from bot.presentation.render.canvas import (
    BODY,
    INK,
    KEY,
    MUTED,
    PHONE_WIDTH,
    SMALL,
    TITLE,
    Board,
    clip,
    fit_size,
    game_palette,
)
from bot.presentation.user_text import MESSAGE_MAX
from bot.storage.store import RatedPlayer, RatingChange, Store
from games import get_game

LEADERBOARD_FILE = "leaderboard.png"
TOP, TOP_PER_GAME = 10, 3
ROW, HEADING, MARGIN = 44, 52, 20
GOLD, SILVER, BRONZE = (190, 140, 20), (120, 125, 135), (160, 95, 45)
STRIPE = (236, 229, 212)
PAPER = (245, 240, 228)
PALETTE = game_palette([PAPER, STRIPE, INK, MUTED, GOLD, SILVER, BRONZE], [INK, MUTED, GOLD, SILVER, BRONZE],
                       [PAPER, STRIPE])


def pool_of(with_ai: bool) -> str:
    return ALL if with_ai else PEOPLE


async def leaderboard_rows(store: Store, guild_id: str, slug: str | None, with_ai: bool
                           ) -> list[tuple[str, list[RatedPlayer]]]:
    """(game, best-rated players) for one game, or each rated game of the server (its top three)."""
    pool = pool_of(with_ai)
    if slug is not None:
        return [(slug, await store.leaderboard(guild_id, pool, slug, TOP))]
    return [(game, await store.leaderboard(guild_id, pool, game, TOP_PER_GAME))
            for game in await store.rated_games(guild_id, pool)]


def ranked(rows: Sequence[RatedPlayer]) -> list[tuple[int, RatedPlayer]]:
    """Each row with its rank, best first: equal shown ratings share a rank, the next rank skipping as many
    (standard competition ranking: 1, 2, 2, 4). The store returns them in the order of the shown rating."""
    found: list[tuple[int, RatedPlayer]] = []
    for index, row in enumerate(rows):
        tied = found and shown(found[-1][1].rating) == shown(row.rating)
        found.append((found[-1][0] if tied else index + 1, row))
    return found


def _entry(rank: int, row: RatedPlayer, escape: Escape | None = None) -> str:
    """One line of the leaderboard; in a message the name is escaped (`escape`), so it shows as written."""
    name = escape(row.name) if escape is not None else row.name
    return f"{rank}. {name} {shown(row.rating):,} ({row.rating.games} game{'s' if row.rating.games != 1 else ''})"




def leaderboard_text(sections: Sequence[tuple[str, list[RatedPlayer]]], slug: str | None, with_ai: bool,
                     escape: Escape = markdown_escaped) -> str:
    """The leaderboard in words (the message text, for those who do not see the picture); names escaped by
    `escape` (the Discord window passes discord.py's)."""
    what = get_game(slug).title if slug else "every game"
    counted = f"games with {AI_NAME} counted too" if with_ai else f"games between people (games with {AI_NAME} apart)"
    if not any(rows for _, rows in sections):
        game = f" of {what}" if slug else ""
        which = (f"This leaderboard counts games with {AI_NAME} too." if with_ai else
                 f"This leaderboard counts games between people; games with {AI_NAME} are rated apart.")
        return f"No rated game{game} on this server yet: a game counts once it is played to the end or claimed. {which}"
    lines = [f"**Leaderboard: {what}** on this server, {counted}."]
    for game, rows in sections:
        if slug is None:
            lines.append(f"__{get_game(game).title}__")
        lines += [_entry(rank, row, escape) for rank, row in ranked(rows)]
    footer = "Rating: 1000 for a newcomer, rising with results and their number (OpenSkill; `/stats` has yours)."
    text = "\n".join([*lines, footer])
    while len(text) > MESSAGE_MAX and len(lines) > 1:
        lines.pop()  # the last entry that does not fit whole, and a game's heading left without entries
        while len(lines) > 1 and lines[-1].startswith("__"):
            lines.pop()
        text = "\n".join([*lines, "…", footer])
    return text


def alt_text(sections: Sequence[tuple[str, list[RatedPlayer]]], slug: str | None) -> str:
    """The picture's description for screen readers: the top entries, in order; past Discord's limit
    (bot.presentation.alt_text) the last entries that do not fit whole give way to an ellipsis."""
    parts = [f"{get_game(game).title}: " + "; ".join(_entry(rank, row) for rank, row in ranked(rows))
             for game, rows in sections if rows]
    title = f"Leaderboard of {get_game(slug).title}" if slug else "Leaderboard of every game"
    return shorten(f"{title}. {'. '.join(parts) or 'No rated game yet'}.", marks=("; ", " "))


def draw_leaderboard(sections: Sequence[tuple[str, list[RatedPlayer]]], title: str, subtitle: str) -> bytes:
    """The leaderboard as a phone-legible picture: rank, name, rating and games, the top three in medal colours."""
    rows = sum(len(found) + 1 for _, found in sections)
    height = 2 * MARGIN + 80 + rows * ROW
    board = Board.blank(PHONE_WIDTH, height, PAPER)
    board.text((MARGIN, MARGIN), title, fit_size(title, TITLE, PHONE_WIDTH - 2 * MARGIN), INK, bold=True)
    board.text((MARGIN, MARGIN + 42), subtitle, fit_size(subtitle, SMALL, PHONE_WIDTH - 2 * MARGIN), MUTED)
    y = MARGIN + 80
    name_width = PHONE_WIDTH - 2 * MARGIN - 70 - 230
    for game, found in sections:
        board.text((MARGIN, y + ROW / 2), get_game(game).title, KEY, INK, "lm", bold=True)
        board.text((PHONE_WIDTH - MARGIN, y + ROW / 2), "rating  games", SMALL, MUTED, "rm")
        y += ROW
        for index, (rank, row) in enumerate(ranked(found)):
            if index % 2 == 0:
                board.draw.rectangle((MARGIN // 2, y, PHONE_WIDTH - MARGIN // 2, y + ROW - 1), fill=STRIPE)
            medal = {1: GOLD, 2: SILVER, 3: BRONZE}.get(rank, INK)
            middle = y + ROW / 2
            board.text((MARGIN + 44, middle), f"{rank}.", KEY, medal, "rm", bold=rank <= 3)
            board.text((MARGIN + 60, middle), clip(row.name, KEY, name_width), KEY, INK, "lm", bold=rank == 1)
            board.text((PHONE_WIDTH - MARGIN - 100, middle), f"{shown(row.rating):,}", KEY, INK, "rm", bold=True)
            board.text((PHONE_WIDTH - MARGIN, middle), str(row.rating.games), BODY, MUTED, "rm")
            y += ROW
    return board.png(PALETTE)


def stats_lines(ratings: Sequence[RatedPlayer], last: dict[tuple[str, str], RatingChange], *,
                of_ai: bool = False) -> list[str]:
    """`/stats`: each game's rating and what the last game did to it; the one with AI games too, if any differ
    (`of_ai`: the AI's own, which has only that one). Each change is its own pool's last game, so beside the
    line with AI games the first says "the last game between people": the two last games differ."""
    by_key = {(row.slug, row.pool): row for row in ratings}
    lines = []
    for slug in sorted({row.slug for row in ratings}):
        people, every = by_key.get((slug, PEOPLE)), by_key.get((slug, ALL))
        apart = people is not None and every is not None and people.rating.games != every.rating.games
        shown_rows = ((people, "", " between people" if apart else ""),
                      (every, "" if of_ai else f", games with {AI_NAME} counted too", ""))
        for row, label, which in shown_rows:
            if row is None or (row is every and people is not None and not apart):
                continue
            change = last.get((slug, row.pool))
            delta = shown(change.after) - shown(change.before or new_rating()) if change else 0
            lines.append(f"• {get_game(slug).title}{label}: rating **{shown(row.rating):,}** "
                         f"({'+' if delta >= 0 else '−'}{abs(delta)} in the last game{which})")
    return ["**Ratings** (1000 for a newcomer):", *lines] if lines else []
