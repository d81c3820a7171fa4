"""Follow the Arrow's own command, /jump; placing and line moves use the shared /place and /move.

The "Call Jump!" and "No call" buttons under the board are plain game actions (see the frontend):
anyone may press them, and the engine refuses everyone but the player who just moved.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.actions import perform_game_command
from bot.presentation.frontends.follow_the_arrow import FRONTEND
from cogs.verbs import autocomplete_number, autocomplete_verb

SLUG = "follow-the-arrow"


async def jump(interaction: discord.Interaction, pawn: int, path: str) -> None:
    """Jump `pawn` along the landing circles `path` in this channel's Follow the Arrow game."""

    await perform_game_command(interaction, SLUG, "jump", lambda: FRONTEND.jump_action(pawn, path))


class FollowTheArrow(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="jump", description="Follow the Arrow: jump a pawn over your opponent's pawns")
    @app_commands.describe(pawn="Your pawn's number", path="The circles it lands on, in order, e.g. c4 c6")
    @app_commands.guild_only()
    async def jump(self, interaction: discord.Interaction, pawn: app_commands.Range[int, 1, 5], path: str) -> None:
        await jump(interaction, pawn, path)

    @jump.autocomplete("pawn")
    async def jump_pawn(self, interaction: discord.Interaction, current: Any) -> list[app_commands.Choice[int]]:
        return await autocomplete_number(interaction, "jump", "pawn", current)

    @jump.autocomplete("path")
    async def jump_path(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await autocomplete_verb(interaction, "jump", "path", current)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(FollowTheArrow(bot))
