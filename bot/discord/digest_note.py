"""What the daily digest (bot.play.digest) says, how it reaches the player's DMs, and `/notify digest`."""

from __future__ import annotations

import discord

from bot.discord.actions import Done, host_of
from bot.discord.dm_reach import DmReach, refused_dm
from bot.discord.notices import channel_link
from bot.discord.panels import user_of
from bot.play.digest import Digest, set_digest
from bot.play.pauses import discord_time
from bot.play.turn_clock import format_duration
from bot.presentation.user_text import MESSAGE_MAX
from bot.presentation.words import game_label


def digest_text(digest: Digest) -> str:
    count = len(digest.games)
    lines = [f"📬 Your daily digest: {count} game{'s' if count != 1 else ''} waiting on you."]
    lines += [f"• {game_label(session)}, waiting {format_duration(waited)}: {channel_link(session)}"
              for session, waited in digest.games]
    lines.append("(`/notify on` for a message per turn instead, `/notify off` for none.)")
    return "\n".join(lines)[:MESSAGE_MAX]


class DiscordDigest:
    def __init__(self, client: discord.Client, reach: DmReach) -> None:
        self.client = client
        self.reach = reach

    async def send(self, digest: Digest) -> None:
        """The digest DM, unless his DMs were refused since he last acted (bot.discord.dm_reach)."""
        if not await self.reach.reachable([digest.player]):
            return
        try:
            user = await user_of(self.client, digest.player)
            await user.send(digest_text(digest))
        except discord.HTTPException as error:
            if not refused_dm(error):
                raise
            await self.reach.refused(digest.player)


async def digest_on(interaction: discord.Interaction, user: str, hour: int) -> Done:
    """`/notify digest`: per-turn DMs off, the digest on at `hour` in his zone (bot.play.digest)."""
    host = host_of(interaction)
    due = await set_digest(host, user, hour)
    zone = (await host.store.pacing.players([user]))[user].time_zone or "UTC (`/preferences timezone:` sets yours)"
    return Done(private={"content": f"One digest a day at {hour:02d}:00 {zone}, listing the games waiting on you, "
                                    f"the first {discord_time(due or 0)}; no message per turn. `/notify on` brings "
                                    "those back, `/notify off` stops both."})
