"""Playing over a day: `/notify` (turn DMs), `/settings reminder|clock|tables|leaderboard` (per server)
and `/stats [user] [game]` (with a chart of the player's rating: bot.presentation.rating_charts).

`/notify on` sends its confirming direct message (which also tells at once whether the user's DMs are
open) only when notices go from off to on, or when a direct message to the user was refused since he
last acted (bot.discord.dm_reach's mark: his notices reach him no more); asked again while they are on, or `off`
while off, it says they already were and changes nothing.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord import records
from bot.discord.actions import Done, guarded, host_of, play
from bot.discord.attachments import attachment
from bot.discord.digest_note import digest_on
from bot.discord.dm_reach import refused_dm
from bot.discord.share import answer_privately, shareable
from bot.play.ai_seats import AI_NAME, is_ai_id
from bot.play.away import allowance
from bot.play.digest import set_digest
from bot.play.host import UserError
from bot.play.ratings import AI_RATED, ALL, PEOPLE
from bot.play.text_view import MODES
from bot.presentation.rating_charts import CHART_FILE, POOL_WORDS, charted_game, rating_chart, rating_points
from bot.presentation.standings import stats_lines
from bot.presentation.user_text import MESSAGE_MAX
from cogs.lobby import GAME_CHOICES
from games import get_game


def _require_manage_guild(interaction: discord.Interaction) -> None:
    """Default permissions hide the commands; this holds even where a server admin overrode them."""
    permissions = getattr(interaction, "permissions", None)
    if not (permissions and permissions.manage_guild):
        raise UserError("Only members with Manage Server can change this server's settings.")


ALREADY_ON = ("Turn notices were already on: I'll send you a direct message with a link to the game when it "
              "becomes your turn. `/notify off` stops them.")
ALREADY_OFF = "Turn notices were already off. `/notify on` turns them on."
NO_DIGEST = "No more daily digest. `/notify on` sends a message per turn, `/notify digest` one a day."
DMS_CLOSED = ("I can't send you direct messages, so turn notices stay off. Allow direct messages from this "
              "server's members (Privacy Settings), then `/notify on` again.")
DMS_STILL_CLOSED = ("Turn notices are on, but I can't send you direct messages, so none reaches you. Allow direct "
                    "messages from this server's members (Privacy Settings), then `/notify on` again.")


class Turns(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="notify", description="Get a direct message when it becomes your turn")
    @app_commands.describe(state="on: DM me when it is my turn; digest: one DM a day; off: stop",
                           hour="digest: the hour of the day it comes, in your /preferences time zone (default 8)")
    @app_commands.choices(state=[app_commands.Choice(name="on", value="on"),
                                 app_commands.Choice(name="digest", value="digest"),
                                 app_commands.Choice(name="off", value="off")])
    async def notify(self, interaction: discord.Interaction, state: app_commands.Choice[str],
                     hour: app_commands.Range[int, 0, 23] | None = None) -> None:
        async def work() -> Done:
            user, on = str(interaction.user.id), state.value == "on"
            if state.value == "digest":
                return await digest_on(interaction, user, 8 if hour is None else hour)
            had_digest = (await host_of(interaction).store.pacing.players([user]))[user].digest_hour is not None
            if had_digest:
                await set_digest(host_of(interaction), user, None)  # on or off: no digest any more
            reach = interaction.client.dm_reach  # type: ignore[attr-defined]
            refused_since = await reach.reopen(user)
            already = on == await host_of(interaction).wants_turn_dms(user)
            if already and not (on and refused_since):
                return Done(private={"content": NO_DIGEST if had_digest and not on else
                                     ALREADY_ON if on else ALREADY_OFF})
            if on:
                try:
                    await interaction.user.send("Turn notices are on: I'll message you here with a link when it "
                                                "becomes your turn in a game. `/notify off` stops them.")
                except discord.HTTPException as error:
                    if not refused_dm(error):
                        raise
                    await reach.refused(user)
                    return Done(private={"content": DMS_STILL_CLOSED if already else DMS_CLOSED})
            if not already:
                await host_of(interaction).set_turn_dms(user, on)
            text = ("I'll send you a direct message with a link to the game when it becomes your turn. "
                    "`/notify off` stops them." if on else "No more turn messages. `/notify on` brings them back.")
            return Done(private={"content": text})

        await play(interaction, work, shows_table=False, tries_dms=True)

    settings = app_commands.Group(name="settings",
                                  description="This server's reminders, turn clock, tables and leaderboard",
                                  guild_only=True, default_permissions=discord.Permissions(manage_guild=True))

    @settings.command(name="reminder", description="Hours before the player to act is reminded (again each period)")
    @app_commands.describe(hours="Leave out to see the current setting")
    async def reminder(self, interaction: discord.Interaction,
                       hours: app_commands.Range[float, 0.5, 720.0] | None = None) -> None:
        await guarded(interaction, lambda: self._set_hours(interaction, reminder_hours=hours))

    @settings.command(name="clock", description="Hours an idle player has before the others may /game claim")
    @app_commands.describe(hours="Leave out to see the current setting")
    async def clock(self, interaction: discord.Interaction,
                    hours: app_commands.Range[float, 1.0, 2160.0] | None = None) -> None:
        await guarded(interaction, lambda: self._set_hours(interaction, turn_clock_hours=hours))

    @settings.command(name="away", description="Away days a player may take a year on this server (default 14)")
    @app_commands.describe(days="Leave out to see the current setting")
    async def away_days(self, interaction: discord.Interaction,
                        days: app_commands.Range[int, 0, 365] | None = None) -> None:
        async def work() -> None:
            store, guild_id = host_of(interaction).store, str(interaction.guild_id)
            if days is not None:
                _require_manage_guild(interaction)
                await store.pacing.set_away_days(guild_id, days)
            text = f"Each player may be `/away` {await allowance(store, guild_id)} days a year on this server."
            await interaction.response.send_message(f"Saved. {text}" if days is not None else text, ephemeral=True)

        await guarded(interaction, work)

    @settings.command(name="tables", description="Show this server's game tables as pictures or as text only")
    @app_commands.describe(mode="text: no pictures, for screen readers and slow connections (leave out to see)")
    @app_commands.choices(mode=[app_commands.Choice(name=mode, value=mode) for mode in MODES])
    async def tables(self, interaction: discord.Interaction, mode: app_commands.Choice[str] | None = None) -> None:
        async def work() -> None:
            text_view = host_of(interaction).text_view
            guild_id = str(interaction.guild_id)
            if mode is not None:
                _require_manage_guild(interaction)
                await text_view.set_server_text(guild_id, mode.value == "text")
            text = ("This server's tables are text only: the same words and buttons, no pictures."
                    if await text_view.server_text(guild_id) else
                    "This server's tables show the board as a picture, with alt text for screen readers.")
            if mode is not None:
                text = f"Saved. {text} (Each table follows from its next update; `/game table` shows it now.)"
            await interaction.response.send_message(text, ephemeral=True)

        await guarded(interaction, work)

    @settings.command(name="leaderboard", description="Whether games with Parlor's AI count on the leaderboard")
    @app_commands.describe(ai_games="on: count games with the AI too (and list it); off: people only. "
                                    "Leave out to see it")
    @app_commands.choices(ai_games=[app_commands.Choice(name="on", value="on"),
                                    app_commands.Choice(name="off", value="off")])
    async def leaderboard(self, interaction: discord.Interaction,
                          ai_games: app_commands.Choice[str] | None = None) -> None:
        async def work() -> None:
            store = host_of(interaction).store
            guild_id = str(interaction.guild_id)
            if ai_games is not None:
                _require_manage_guild(interaction)
                with_ai = (await store.set_leaderboard_with_ai(guild_id, ai_games.value == "on")).leaderboard_with_ai
            else:
                with_ai = (await store.guild_settings(guild_id)).leaderboard_with_ai
            text = (f"`/leaderboard` counts games with {AI_NAME} too, and lists it." if with_ai else
                    f"`/leaderboard` counts games between people only; games with {AI_NAME} are rated apart.")
            if ai_games is not None:
                text = f"Saved. {text}"
            await interaction.response.send_message(text, ephemeral=True)

        await guarded(interaction, work)

    async def _set_hours(self, interaction: discord.Interaction, *, reminder_hours: float | None = None,
                         turn_clock_hours: float | None = None) -> None:
        host = host_of(interaction)
        guild_id = str(interaction.guild_id)
        changing = reminder_hours is not None or turn_clock_hours is not None
        if changing:
            _require_manage_guild(interaction)
            periods = await host.set_periods(guild_id, reminder_hours=reminder_hours,
                                             turn_clock_hours=turn_clock_hours)
        else:
            periods = await host.periods_for(guild_id)
        text = (f"Reminders every {periods.reminder_hours:g} h; the others may `/game claim` after "
                f"{periods.turn_clock_hours:g} h.")
        if reminder_hours is not None:
            text = f"Saved. {text} Running games use it at once: each one's next reminder follows the new period."
        elif turn_clock_hours is not None:
            text = (f"Saved. {text} Running games use it at once: a game already waiting longer than the new "
                    "clock may be claimed now.")
        await interaction.response.send_message(text, ephemeral=True)

    @app_commands.command(name="stats", description="Games played and won on this server (private; Share posts it)")
    @app_commands.describe(user="Whose (default: yours)",
                           game="The game whose rating chart to draw (default: the one with the most rated games)")
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.guild_only()
    async def stats(self, interaction: discord.Interaction, user: discord.User | None = None,
                    game: app_commands.Choice[str] | None = None) -> None:
        who = user or interaction.user
        is_parlor = who.id == getattr(interaction.client.user, "id", None)
        player = "ai-1" if is_parlor else str(who.id)  # asked about the bot: its AI's record
        await answer_privately(interaction, "stats", f"{player}/{game.value}" if game else player)


@shareable("stats")
async def stats_answer(interaction: discord.Interaction, argument: str) -> dict:
    """`/stats` for `player` (and his chart in `slug`: `player/slug`) on the interaction's server: private first,
    the same when shared; with the chart of his rating (bot.presentation.rating_charts) unless the asker reads text
    only (bot.play.text_view)."""
    player, _, slug = argument.partition("/")
    host = host_of(interaction)
    guild_id = str(interaction.guild_id)
    rows = await records.stats(host, player, guild_id)
    name = AI_NAME if is_ai_id(player) else await records.player_name(host, player, guild_id, interaction)
    key = AI_RATED if is_ai_id(player) else player
    ratings = await host.store.player_ratings(guild_id, key)
    rated = stats_lines(ratings, await host.store.last_rating_changes(guild_id, key), of_ai=is_ai_id(player))
    pool = ALL if is_ai_id(player) else PEOPLE
    charted = slug or charted_game(ratings, pool)
    chart = None
    if charted and await host.text_view.pictures_for(guild_id, str(interaction.user.id)):
        chart = await rating_chart(host.store, guild_id, key, name, charted, pool)
    if slug and chart is None and not await rating_points(host.store, guild_id, key, slug, pool):
        rated.append(f"No rated {get_game(slug).title} game yet ({POOL_WORDS[pool]}): no rating chart to draw.")
    content = "\n".join([records.stats_text(name, rows, of_ai=is_ai_id(player)), *rated])[:MESSAGE_MAX]
    if chart is None:
        return {"content": content}
    return {"content": content, "file": attachment(chart.png, CHART_FILE, description=chart.alt_text)}


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Turns(bot))
