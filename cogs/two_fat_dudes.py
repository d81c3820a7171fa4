"""Two Fat Dudes commands: `/negotiate offer|counter|accept|decline|pass` and `/edge`, and the Counter… form.

Walking and racing use the shared `/roll` (cogs/verbs.py). At an encounter the board carries the
frontend's buttons; all are plain `ActionButton`s except Counter…, which needs an amount: it is drawn
as a `CounterButton` (registered in `bot.buttons.BUTTON_ITEMS`), which checks that the presser may
counter now and opens a `CounterForm` asking for the points. The button's custom_id carries the
session and the version it was drawn for, so it works after a restart. The form lives only while it
is open in this process (discord.py hands a modal submit to the modal object it sent), so a form left
open across a restart cannot be submitted: pressing Counter… again opens a new one.
"""

from __future__ import annotations

import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.actions import guarded, host_of, perform_game_command, play
from bot.buttons import BUTTON_ITEMS
from bot.frontends.two_fat_dudes import COUNTER_MODAL_TOKEN, FRONTEND, counter_from_text
from bot.host import MoveOutcome

SLUG = "two-fat-dudes"
FORM_TIMEOUT = 30 * 60
"""Seconds an unanswered Counter form is kept in memory before it is forgotten."""
EDGE_CHOICES = [app_commands.Choice(name="retreat (you go back to your start)", value="retreat"),
                app_commands.Choice(name="send_back (the other dude goes back to his)", value="send_back")]


async def act(interaction: discord.Interaction, command: str, action_name: str, **options: Any) -> None:
    """Run one command's action on the channel's game and post the board."""
    await perform_game_command(interaction, SLUG, command, lambda: FRONTEND.command_action(action_name, options))


class CounterForm(discord.ui.Modal):
    """Asks the player facing an offer how many points he counters with."""

    def __init__(self, session_id: int, version: int, opened_by: int, on_table: int) -> None:
        # Unique per opening: discord.py forgets a finished form by its custom_id, which must not
        # unregister a newer form the same player opened meanwhile.
        super().__init__(title="Counter-offer", timeout=FORM_TIMEOUT,
                         custom_id=f"parlor:dudes-counter-form:{session_id}:{version}:{opened_by}")
        self.session_id, self.version = session_id, version
        self.points: discord.ui.TextInput = discord.ui.TextInput(
            label="Points (a whole number, 0 or more)", custom_id="points", placeholder=f"On the table: {on_table}",
            min_length=1, max_length=9)
        self.add_item(self.points)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        async def work() -> MoveOutcome:
            action = counter_from_text(self.points.value)
            return await host_of(interaction).act(self.session_id, str(interaction.user.id), action,
                                                  expected_version=self.version)

        await play(interaction, work)


class CounterButton(discord.ui.DynamicItem[discord.ui.Button],
                    template=r"parlor:dudes-counter:(?P<session>[0-9]+):(?P<version>[0-9]+)"):
    """Counter… under an offer: opens the amount form for the player facing the offer, and nobody else."""

    def __init__(self, session_id: int, version: int, token: str = COUNTER_MODAL_TOKEN, *,
                 label: str = "Counter…", style: discord.ButtonStyle = discord.ButtonStyle.secondary) -> None:
        super().__init__(discord.ui.Button(label=label, style=style,
                                           custom_id=f"parlor:dudes-counter:{session_id}:{version}"))
        self.session_id, self.version = session_id, version

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str]) -> CounterButton:
        return cls(int(match["session"]), int(match["version"]), label=item.label or "Counter…", style=item.style)

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            host = host_of(interaction)
            session = await host.session(self.session_id)
            player = str(interaction.user.id)
            # Asks the engine, committing nothing, whether this player may counter on this board now.
            host.preview(session, player, {"type": "counter", "points": 0}, expected_version=self.version)
            on_table = host.public_view(session)["offer"]["points"]
            form = CounterForm(self.session_id, self.version, interaction.id, on_table)
            await interaction.response.send_modal(form)

        await guarded(interaction, work)


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
    @app_commands.describe(choice="retreat to your own start, or send the other dude back to his")
    @app_commands.choices(choice=EDGE_CHOICES)
    @app_commands.guild_only()
    async def edge(self, interaction: discord.Interaction, choice: app_commands.Choice[str]) -> None:
        await act(interaction, "edge", "edge", choice=choice.value)


async def setup(bot: commands.Bot) -> None:
    BUTTON_ITEMS[(SLUG, COUNTER_MODAL_TOKEN)] = CounterButton
    bot.add_dynamic_items(CounterButton)
    await bot.add_cog(TwoFatDudes(bot))
