"""Registers the frontend components' persistent items, and answers their forms by custom_id.

A form's modal is not kept in memory (see `bot.discord.presses.open_form`): every modal submit whose
custom_id is a Parlor form is handled here from the custom_id alone, so a form opened before a
restart is answered after it like any other.
"""

from __future__ import annotations

import discord
from discord.ext import commands

from bot.discord.components import FORM_MODAL, ChoiceMenu, FormButton
from bot.discord.presses import submit_form


class Components(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        if interaction.type != discord.InteractionType.modal_submit:
            return
        match = FORM_MODAL.fullmatch(str((interaction.data or {}).get("custom_id", "")))
        if match is not None:
            await submit_form(interaction, int(match["session"]), int(match["version"]), match["key"])


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(ChoiceMenu, FormButton)
    await bot.add_cog(Components(bot))
