"""Two Fat Dudes commands: `/negotiate offer|counter|accept|decline|pass` and `/edge`.

Walking and racing use the shared `/roll` (cogs/verbs.py). The table's buttons and its Offer… and
Counter… forms are the frontend's components (bot/presentation/frontends/two_fat_dudes.py), handled like every
game's by bot/discord/presses.py.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.actions import perform_game_command
from bot.presentation.frontends.two_fat_dudes import FRONTEND

SLUG = "two-fat-dudes"
EDGE_CHOICES = [app_commands.Choice(name="retreat (you go back to your start)", value="retreat"),
                app_commands.Choice(name="send_back (the other dude goes back to theirs)", value="send_back")]


async def act(interaction: discord.Interaction, command: str, action_name: str, **options: Any) -> None:
    """Run one command's action on the channel's game and post the board."""
    await perform_game_command(interaction, SLUG, command, lambda: FRONTEND.command_action(action_name, options))


class TwoFatDudes(commands.Cog):
    negotiate = app_commands.Group(name="negotiate", guild_only=True,
                                   description="Two Fat Dudes: haggle at an encounter")

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @negotiate.command(name="offer", description="Offer points to be let past (costs 1 point now)")
    @app_commands.describe(points="What you will pay if the other dude accepts: a whole number, 0 or more")
    async def offer(self, interaction: discord.Interaction, points: app_commands.Range[int, 0]) -> None:
        await act(interaction, "negotiate offer", "offer", points=points)

    @negotiate.command(name="counter", description="Change the amount on the table (costs 1 point now)")
    @app_commands.describe(points="The new amount; the first offerer still pays it")
    async def counter(self, interaction: discord.Interaction, points: app_commands.Range[int, 0]) -> None:
        await act(interaction, "negotiate counter", "counter", points=points)

    @negotiate.command(name="accept", description="Accept the offer: points change hands and you swap places")
    async def accept(self, interaction: discord.Interaction) -> None:
        await act(interaction, "negotiate accept", "accept")

    @negotiate.command(name="decline", description="Decline the offer: the Edge holder decides who goes back")
    async def decline(self, interaction: discord.Interaction) -> None:
        await act(interaction, "negotiate decline", "decline")

    @negotiate.command(name="pass", description="Make no offer (if both pass, the Edge holder decides)")
    async def pass_(self, interaction: discord.Interaction) -> None:
        await act(interaction, "negotiate pass", "pass")

    @app_commands.command(name="edge", description="Two Fat Dudes: use the Edge after a failed negotiation")
    @app_commands.describe(choice="retreat to your own start, or send the other dude back to theirs")
    @app_commands.choices(choice=EDGE_CHOICES)
    @app_commands.guild_only()
    async def edge(self, interaction: discord.Interaction, choice: app_commands.Choice[str]) -> None:
        await act(interaction, "edge", "edge", choice=choice.value)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(TwoFatDudes(bot))
