"""What reminders and turn notices say, and how they reach Discord.

The dispatcher takes the two `send_*` methods of `DiscordNotices` as plain callables, so it is
tested without Discord; the texts are functions of their own for the same reason.
"""

from __future__ import annotations

import logging

import discord

from bot.store import SessionRecord
from bot.timers import Reminder, TurnNotice
from bot.turn_clock import format_duration
from games import get_game

log = logging.getLogger(__name__)


def channel_link(session: SessionRecord) -> str:
    """A jump link to the game's channel, which works from a DM."""
    return f"https://discord.com/channels/{session.guild_id or '@me'}/{session.channel_id}"


def game_name(session: SessionRecord) -> str:
    return f"{get_game(session.slug).title} #{session.id}"


def reminder_text(reminder: Reminder) -> str:
    waited = format_duration(reminder.waited)
    text = f"⏰ <@{reminder.player}>, {game_name(reminder.session)} has been waiting on you for {waited}."
    if reminder.claim_in is None:
        return text
    if reminder.claim_in <= 0:
        return f"{text} The turn clock has run out: the other players may now `/game claim` the game."
    return f"{text} If nobody moves, the others may `/game claim` it in {format_duration(reminder.claim_in)}."


def notice_text(notice: TurnNotice) -> str:
    return (f"It's your turn in {game_name(notice.session)}: {channel_link(notice.session)}\n"
            "(`/notify off` stops these messages.)")


class DiscordNotices:
    """Sends reminders to the game's channel and notices by DM through a connected client."""

    def __init__(self, client: discord.Client) -> None:
        self.client = client

    async def send_reminder(self, reminder: Reminder) -> None:
        session = reminder.session
        guild_id = int(session.guild_id) if session.guild_id else None
        channel = self.client.get_partial_messageable(int(session.channel_id), guild_id=guild_id)
        await channel.send(reminder_text(reminder),
                           allowed_mentions=discord.AllowedMentions(users=[discord.Object(int(reminder.player))],
                                                                    roles=False, everyone=False))

    async def send_notice(self, notice: TurnNotice) -> None:
        user_id = int(notice.player)
        try:
            user = self.client.get_user(user_id) or await self.client.fetch_user(user_id)
            await user.send(notice_text(notice))
        except discord.Forbidden:
            log.info("player %s does not accept direct messages; no turn notice", notice.player)
