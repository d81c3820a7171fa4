"""`/game web`: a game's web pages (bot.web): its public page, and for a player his personal link.
`/game activity`: the channel's table inside Discord, as an Activity (bot.discord.activity_launch).

The answer is private. Everyone gets the public page of the channel's game (the latest one when none
is open). A player of a running game also gets his personal link, bound to him and that game, which
expires after WEB_LINK_HOURS; asking again gives a new link and the older ones stop working (so a link
shown to someone else can be taken back). The command exists whether or not the web pages are on, so
every process syncs the same commands. With them off it tells the player so, in his words (a player
cannot set WEB_PORT: he is sent to whoever runs the bot), and the log tells the operator how to turn
them on.
"""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.actions import guarded, host_of
from bot.discord.activity_launch import launch_activity
from bot.play.host import UserError
from bot.presentation.words import game_label

log = logging.getLogger(__name__)
WEB_OFF = ("This bot does not serve web pages, so the table here is the whole game. If you would like them, "
           "ask whoever runs the bot.")


@app_commands.command(name="web", description="This game's web page; for a player, a personal link to play it")
@app_commands.guild_only()
async def web_links(interaction: discord.Interaction) -> None:
    async def work() -> None:
        client = interaction.client
        web = getattr(client, "web", None)
        if web is None:
            log.info("/game web was asked for, but the web pages are off: set WEB_PORT to serve them")
            raise UserError(WEB_OFF)
        host = host_of(interaction)
        session = await host.last_session_in(str(interaction.channel_id))
        base = web.base_url
        player = str(interaction.user.id)
        lines = [f"**{game_label(session)}** on the web. Anyone with this link can watch it live (the public "
                 f"table only): {base}{web.watch_path(session.id)}"]
        seat = next((seat for seat in session.players if seat.id == player), None)
        if seat is not None and session.status == "active":
            hours = client.settings.web_link_hours  # type: ignore[attr-defined]
            lines.append(f"Your personal link, to see your own view and play from the page: "
                         f"{base}{await web.play_path(session.id, player)}\n"
                         f"Keep it to yourself: it plays as you. It works for {hours:g} hours; asking "
                         "`/game web` again gives a new one and this one stops working.")
        await interaction.response.send_message("\n".join(lines), ephemeral=True,
                                                allowed_mentions=discord.AllowedMentions.none())

    await guarded(interaction, work)


@app_commands.command(name="activity", description="Open this channel's table inside Discord, as an Activity")
async def activity(interaction: discord.Interaction) -> None:
    await guarded(interaction, lambda: launch_activity(interaction))


async def setup(bot: commands.Bot) -> None:
    """Add `web` and `activity` to the `/game` group (cogs/lobby.py, loaded before this module)."""
    group = bot.tree.get_command("game")
    assert isinstance(group, app_commands.Group), "cogs/lobby.py defines /game"
    group.add_command(web_links)
    group.add_command(activity)


async def teardown(bot: commands.Bot) -> None:
    group = bot.tree.get_command("game")
    if isinstance(group, app_commands.Group):
        group.remove_command("web")
        group.remove_command("activity")
