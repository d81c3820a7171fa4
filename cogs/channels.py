"""A channel or thread deleted with a game in it: the game ends there.

Nobody could reach it any more, yet its reminders would keep failing and its turn notices keep
pointing players at a channel that is gone, and it would count as running in their lists. So its
lobby or running game is abandoned (bot.discord.table `channel_deleted`: unrated, "its channel was deleted"
in the records), and its table, deleted with the channel, is recorded as needing nothing. A channel
deleted while the bot was down is found the same way when Discord first answers "Unknown Channel"
(its table at start-up, or a reminder).
"""

from __future__ import annotations

import logging

import discord
from discord.ext import commands

log = logging.getLogger(__name__)


class Channels(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        await self._gone(channel.id)

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        await self._gone(payload.thread_id)

    async def _gone(self, channel_id: int) -> None:
        try:
            await self.bot.tables.channel_deleted(str(channel_id))  # type: ignore[attr-defined]
        except Exception:
            log.exception("could not end the game of deleted channel %s", channel_id)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Channels(bot))
