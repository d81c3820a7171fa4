"""Days-long games: `/preferences` (time zone, quiet hours, autoplay) and `/away` (away days).

Per-player choices are `/preferences`, not `/settings me`: `/settings` is for the server's moderators (Discord
hides the whole group from members without Manage Server).
"""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.actions import game_channel, guarded, host_of
from bot.play.away import MAX_AWAY_DAYS, allowance, come_back, days_used, go_away
from bot.play.pauses import check_zone, discord_time, parse_quiet, zone_names
from bot.play.refusals import UserError
from bot.storage.pacing import PlayerPacing

log = logging.getLogger(__name__)
MAX_REASON = 100
ON_OFF = [app_commands.Choice(name="on", value="on"), app_commands.Choice(name="off", value="off")]


def preferences_text(chosen: PlayerPacing) -> str:
    quiet = (f"{chosen.quiet_from:02d}:00–{chosen.quiet_to:02d}:00" if chosen.quiet_from is not None
             and chosen.quiet_to is not None else "none")
    return (f"Time zone: {chosen.time_zone or 'UTC (not set)'}. Quiet hours: {quiet}: no DM and no reminder ping "
            "then, and your turn clocks stand still. "
            f"Autoplay: {'on' if chosen.autoplay else 'off'} (a forced roll is rolled for you after 2 minutes). "
            f"Away day when your clock runs out: {'on' if chosen.auto_away else 'off'}.")


async def tell_tables(interaction: discord.Interaction, text: str) -> None:
    """Say `text` in the channel of each running game of the user on this server (the reason is never said)."""
    host = host_of(interaction)
    for session in await host.store.sessions_with_player(str(interaction.user.id), ["active"],
                                                         str(interaction.guild_id)):
        try:
            await game_channel(interaction.client, session).send(text, allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException:
            log.warning("could not tell session %s that a player is away or back", session.id)


class PacingCommands(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="preferences", description="Your time zone, quiet hours and autoplay (private)")
    @app_commands.describe(timezone="Your time zone, like Europe/Paris", quiet="Hours without pings, like 22-08, "
                           "or off (at most 12)", autoplay="on: roll for me when a roll is my only move",
                           auto_away="on: use an away day when my turn clock runs out")
    @app_commands.choices(autoplay=ON_OFF, auto_away=ON_OFF)
    async def preferences(self, interaction: discord.Interaction, timezone: str | None = None,
                          quiet: str | None = None, autoplay: app_commands.Choice[str] | None = None,
                          auto_away: app_commands.Choice[str] | None = None) -> None:
        async def work() -> None:
            user = str(interaction.user.id)
            changes: dict = {}
            if timezone is not None:
                changes["time_zone"] = check_zone(timezone)
            if quiet is not None:
                hours = parse_quiet(quiet)
                changes.update(quiet_from=hours and hours[0], quiet_to=hours and hours[1])
            if autoplay is not None:
                changes["autoplay"] = autoplay.value == "on"
            if auto_away is not None:
                changes["auto_away"] = auto_away.value == "on"
            pacing = host_of(interaction).store.pacing
            chosen = await pacing.set_player(user, **changes) if changes else (await pacing.players([user]))[user]
            text = preferences_text(chosen)
            await interaction.response.send_message(f"Saved. {text}" if changes else text, ephemeral=True)

        await guarded(interaction, work)

    @preferences.autocomplete("timezone")
    async def timezone_names(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        wanted = current.lower().replace(" ", "_")
        found = [name for name in zone_names() if wanted in name.lower()]
        return [app_commands.Choice(name=name, value=name) for name in found[:25]]

    away = app_commands.Group(name="away", description="Away days: your turn clocks on this server stand still",
                              guild_only=True)

    @away.command(name="for", description="Be away for some days: your clocks here freeze, nobody can claim")
    @app_commands.describe(days="How many days", reason="Only you see it (up to 100 characters)")
    async def away_for(self, interaction: discord.Interaction, days: app_commands.Range[int, 1, MAX_AWAY_DAYS],
                       reason: str | None = None) -> None:
        async def work() -> None:
            if reason is not None and len(reason) > MAX_REASON:
                raise UserError(f"Keep the reason to {MAX_REASON} characters (only you see it).")
            host, guild_id, user = host_of(interaction), str(interaction.guild_id), str(interaction.user.id)
            period = await go_away(host.store, guild_id, user, days, reason, host.clock())
            await tell_tables(interaction, f"🏝️ {interaction.user.mention} is away until "
                                           f"{discord_time(period.ends)}: the turn clock waits for them.")
            left = await allowance(host.store, guild_id) - await days_used(host.store, guild_id, user, host.clock())
            await interaction.response.send_message(
                f"You are away until {discord_time(period.ends)}{f' ({reason})' if reason else ''}: your turn clocks "
                f"on this server stand still and nobody can claim against you. Your next move here, or `/away off`, "
                f"ends it. Away days left this year: {left}.", ephemeral=True)

        await guarded(interaction, work)

    @away.command(name="off", description="Back early: your clocks on this server run again")
    async def away_off(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            host, guild_id, user = host_of(interaction), str(interaction.guild_id), str(interaction.user.id)
            back = await come_back(host.store, guild_id, user, host.clock())
            client = interaction.client
            for sender in (getattr(client, "dispatcher", None), getattr(client, "autoplay", None)):
                if back and sender is not None:
                    sender.wake(host.clock())  # what his away held is due now
            if back:
                await tell_tables(interaction, f"{interaction.user.mention} is back: the turn clock runs again.")
            left = await allowance(host.store, guild_id) - await days_used(host.store, guild_id, user, host.clock())
            text = "Welcome back: your turn clocks run again." if back else "You were not away on this server."
            await interaction.response.send_message(f"{text} Away days left this year: {left}.", ephemeral=True)

        await guarded(interaction, work)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(PacingCommands(bot))
