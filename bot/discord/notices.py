"""What reminders and turn notices say, and how they reach Discord.

The dispatcher takes the two `send_*` methods of `DiscordNotices` as plain callables, so it is
tested without Discord; the texts are functions of their own for the same reason.
"""

from __future__ import annotations

import logging

import discord

from bot.discord.actions import game_channel
from bot.discord.channel_access import channel_is_gone
from bot.discord.dm_reach import DmReach, refused_dm
from bot.discord.panels import user_of
from bot.play.timers import Reminder, TurnNotice
from bot.play.turn_clock import format_duration
from bot.presentation.words import game_label
from bot.storage.store import SessionRecord

log = logging.getLogger(__name__)


def channel_link(session: SessionRecord) -> str:
    """A jump link to the game's channel, which works from a DM."""
    return f"https://discord.com/channels/{session.guild_id or '@me'}/{session.channel_id}"


def reminder_text(reminder: Reminder) -> str:
    waited = format_duration(reminder.waited)
    text = f"⏰ <@{reminder.player}>, {game_label(reminder.session)} has been waiting on you for {waited}."
    if reminder.claim_in is None:
        return text
    if reminder.claim_in <= 0:
        return f"{text} The turn clock has run out: the other players may now `/game claim` the game."
    return f"{text} If nobody moves, the others may `/game claim` it in {format_duration(reminder.claim_in)}."


def notice_text(notice: TurnNotice) -> str:
    return (f"It's your turn in {game_label(notice.session)}: {channel_link(notice.session)}\n"
            "(`/notify off` stops these messages.)")


class DiscordNotices:
    """Sends reminders to the game's channel and notices by DM through a connected client."""

    def __init__(self, client: discord.Client, reach: DmReach) -> None:
        self.client = client
        self.reach = reach

    async def send_reminder(self, reminder: Reminder) -> None:
        try:
            await game_channel(self.client, reminder.session).send(
                reminder_text(reminder),
                allowed_mentions=discord.AllowedMentions(users=[discord.Object(int(reminder.player))], roles=False,
                                                         everyone=False))
        except discord.NotFound as error:
            if not channel_is_gone(error):
                raise
            await self.client.tables.channel_deleted(reminder.session.channel_id)  # type: ignore[attr-defined]

    async def send_notice(self, notice: TurnNotice) -> None:
        """The turn DM, unless his DMs were refused since he last acted (bot.discord.dm_reach)."""
        if not await self.reach.reachable([notice.player]):
            return
        try:
            user = await user_of(self.client, notice.player)
            await user.send(notice_text(notice))
        except discord.HTTPException as error:
            if not refused_dm(error):
                raise
            await self.reach.refused(notice.player)
