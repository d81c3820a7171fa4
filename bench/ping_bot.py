"""The baseline of bench/bench_latency.py: a minimal discord.py bot whose one slash command, `/ping`,
answers "pong" at once (one interaction callback, nothing else).

It runs as its own process, like Parlor in the bench, pointed at a fake Discord by the same two
settings Parlor reads (DISCORD_API_BASE, DISCORD_GATEWAY_URL) and DISCORD_TOKEN.
Run by the bench: python bench/ping_bot.py
"""

from __future__ import annotations

import asyncio
import os
import signal

import discord
from discord import app_commands

from tests.fakediscord.connect import point_discord_py_at


class PingBot(discord.Client):
    def __init__(self) -> None:
        super().__init__(intents=discord.Intents.default())
        self.tree = app_commands.CommandTree(self)

        @self.tree.command(description="Answers pong at once.")
        async def ping(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("pong")

    async def setup_hook(self) -> None:
        await self.tree.sync()


async def main() -> None:
    async with PingBot() as bot:
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, lambda: asyncio.ensure_future(bot.close()))
        await bot.start(os.environ["DISCORD_TOKEN"])


if __name__ == "__main__":
    point_discord_py_at(os.environ["DISCORD_API_BASE"], os.environ["DISCORD_GATEWAY_URL"])
    asyncio.run(main())
