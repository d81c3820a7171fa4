"""Opening the table as a Discord Activity (bot.activity) from Discord: `/game activity` and the table's
**Play in Discord** button answer with Discord's LAUNCH_ACTIVITY (interaction callback 12,
`InteractionResponse.launch_activity`, discord.py 2.6+).

Where it cannot open (the Activity is off in this bot, or Discord refuses: Activities not enabled for the app,
or not allowed in this channel), the presser is told plainly, privately, what to do instead.
"""

from __future__ import annotations

import logging
import re

import discord

from bot.play.host import UserError

log = logging.getLogger(__name__)

ACTIVITY_OFF = ("This bot does not show its table as a Discord Activity, so the table here is the whole game "
                "(`/game web` gives its web page, if the bot serves one). If you would like it, ask whoever runs "
                "the bot.")
LAUNCH_REFUSED = ("Discord would not open Parlor's Activity here (Activities may be off for this server or this "
                  "channel, or for your Discord app). Play on the table here, or ask for its web page with "
                  "`/game web`.")
PLAY_IN_DISCORD = "Play in Discord"


async def launch_activity(interaction: discord.Interaction) -> None:
    """Answer `interaction` by opening the Activity in its channel, or say why it cannot open."""
    if getattr(interaction.client, "activity", None) is None:
        log.info("the Activity was asked for, but it is off: set ACTIVITY_CLIENT_SECRET (and WEB_PORT) to serve it")
        raise UserError(ACTIVITY_OFF)
    try:
        await interaction.response.launch_activity()
    except discord.HTTPException as error:
        log.info("Discord refused to launch the Activity in channel %s: %s", interaction.channel_id, error)
        raise UserError(LAUNCH_REFUSED) from None


class PlayInDiscordButton(discord.ui.DynamicItem[discord.ui.Button], template=r"parlor:activity:(?P<session>[0-9]+)"):
    """**Play in Discord** on a running game's table: opens the channel's table as an Activity for the presser."""

    def __init__(self, session_id: int) -> None:
        super().__init__(discord.ui.Button(label=PLAY_IN_DISCORD, style=discord.ButtonStyle.primary,
                                           custom_id=f"parlor:activity:{session_id}"))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str]) -> PlayInDiscordButton:
        return cls(int(match["session"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            await launch_activity(interaction)
        except UserError as refusal:
            await interaction.response.send_message(refusal.message, ephemeral=True)
