"""The ratings in Discord messages (words and pictures: bot.presentation.standings): `/leaderboard`'s answer and
the final table's ratings field."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.discord.attachments import attachment
from bot.play.ai_seats import AI_NAME
from bot.play.host import UserError
from bot.play.ratings import ALL, PEOPLE, change_text, shown
from bot.presentation.standings import LEADERBOARD_FILE, alt_text, draw_leaderboard, leaderboard_rows, leaderboard_text
from bot.runtime.drawing import draw_off_loop
from bot.storage.store import RatingChange, SessionRecord, Store
from games import get_game


async def leaderboard_message(store: Store, guild_id: str, slug: str | None, *, picture: bool = True) -> dict:
    """`/leaderboard [game]`: the words, and the picture with its alt text (send() keyword arguments);
    the words alone without `picture` (bot.play.text_view). With no rated game yet, what to do is said to the asker
    alone, as a refusal: there is nothing to share."""
    with_ai = (await store.guild_settings(guild_id)).leaderboard_with_ai
    sections = await leaderboard_rows(store, guild_id, slug, with_ai)
    text = leaderboard_text(sections, slug, with_ai, discord.utils.escape_markdown)
    if not any(rows for _, rows in sections):
        raise UserError(text)
    if not picture:
        return {"content": text}
    title = f"Leaderboard: {get_game(slug).title}" if slug else "Leaderboard: every game"
    subtitle = "Games with Parlor (AI) counted too" if with_ai else "Games between people"
    png = await draw_off_loop(draw_leaderboard, sections, title, subtitle)
    return {"content": text, "file": attachment(png, LEADERBOARD_FILE, description=alt_text(sections, slug))}


def add_rating_field(embed: discord.Embed, session: SessionRecord, changes: Sequence[RatingChange]) -> None:
    """The final table's field: each player's rating after the game and its change, in the pool the game counts
    in first (games between people; else the pool that counts games with the AI)."""
    if not changes:
        return
    pool = PEOPLE if any(change.pool == PEOPLE for change in changes) else ALL
    ordered = sorted((change for change in changes if change.pool == pool), key=lambda change: -shown(change.after))
    lines = [f"{discord.utils.escape_markdown(change.name)}: {change_text(change)}" for change in ordered]
    name = "Ratings" if pool == PEOPLE else f"Ratings (games with {AI_NAME}, counted apart)"
    embed.add_field(name=name, value="\n".join(lines)[:1024], inline=False)
