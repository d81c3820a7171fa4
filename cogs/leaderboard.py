"""`/leaderboard [game]`: the server's best-rated players (bot.presentation.standings), privately,
with a Share button."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.actions import host_of
from bot.discord.leaderboard import leaderboard_message
from bot.discord.share import answer_privately, shareable
from bot.presentation.user_text import MESSAGE_MAX
from cogs.lobby import GAME_CHOICES

EVERY_GAME = ""


class Leaderboard(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="leaderboard", description="This server's best-rated players (private; Share posts it)")
    @app_commands.describe(game="One game's top ten (default: each game's top three)")
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.guild_only()
    async def leaderboard(self, interaction: discord.Interaction,
                          game: app_commands.Choice[str] | None = None) -> None:
        await answer_privately(interaction, "leaderboard", game.value if game else EVERY_GAME)


@shareable("leaderboard")
async def leaderboard_answer(interaction: discord.Interaction, slug: str) -> dict:
    """Text only on a text-only server, or for a user who asked for text (bot.play.text_view): the answer is
    his, and what he shares is the same answer."""
    host = host_of(interaction)
    picture = await host.text_view.pictures_for(str(interaction.guild_id), str(interaction.user.id))
    message = await leaderboard_message(host.store, str(interaction.guild_id), slug or None, picture=picture)
    web = getattr(interaction.client, "web", None)
    if web is None:
        return message
    # When the web pages are on: the whole leaderboard with each player's rating chart (bot.web.leaderboard).
    link = f"\nEach player's rating chart: {web.base_url}{web.leaderboard_path(str(interaction.guild_id))}"
    return {**message, "content": message["content"][:MESSAGE_MAX - len(link)] + link}


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Leaderboard(bot))
