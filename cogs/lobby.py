"""`/game ...`: open a lobby, join, leave, begin, and look at a channel's game."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord import game_record, records
from bot.discord.actions import Done, guarded, host_of, lobby_step, play, seat_of
from bot.discord.presses import undone
from bot.discord.replays import ask_replay
from bot.discord.replies import board_message, games_embed, lobby_message, log_messages, rules_embed
from bot.discord.share import answer_privately, shareable
from bot.play.ai_seats import AI_NAME
from bot.play.host import MoveOutcome, UserError
from bot.play.pace_status import pacing_lines
from bot.play.replay import narrated_moves
from bot.play.text_view import MODES
from bot.presentation.frontends import frontend_for
from bot.presentation.words import game_label, games_list, image_names, log_lines, waiting_line
from bot.runtime.drawing import draw_off_loop
from games import GAMES

GAME_CHOICES = [app_commands.Choice(name=game.title, value=slug) for slug, game in GAMES.items()]


def _can_manage(interaction: discord.Interaction) -> bool:
    permissions = getattr(interaction, "permissions", None)
    return bool(permissions and permissions.manage_channels)


class Lobby(commands.GroupCog, group_name="game", group_description="Start, join and follow games"):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        """Discord offers every /game subcommand in DMs; those about a channel's game refuse there."""
        command = interaction.command
        if interaction.guild_id is None and getattr(command, "guild_only", False):
            where = ("in the server channel where you want to play" if command.name == "start"
                     else "in the server channel where the game is played")
            raise app_commands.NoPrivateMessage(f"`/game {command.name}` works {where}, not here.")
        return True

    @app_commands.command(name="start", description="Open a lobby for a game in this channel")
    @app_commands.describe(game="Which game", opponent="Invite someone (they are mentioned and get a seat)")
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.guild_only()
    async def start(self, interaction: discord.Interaction, game: app_commands.Choice[str],
                    opponent: discord.User | None = None) -> None:
        async def work() -> Done | MoveOutcome:
            against_ai = opponent is not None and opponent.id == getattr(interaction.client.user, "id", None)
            if opponent is not None and opponent.bot and not against_ai:
                raise UserError("Bots can't play; invite a person, or me (@Parlor) to play against the AI.")
            if opponent is not None and opponent.id == interaction.user.id:
                raise UserError("You can't be your own opponent: name someone else in `opponent:`, or leave it "
                                "out and anyone may join.")
            invited = [str(opponent.id)] if opponent is not None and not against_ai else []
            host = host_of(interaction)
            session = await host.open_lobby(guild_id=str(interaction.guild_id),
                                            channel_id=str(interaction.channel_id), slug=game.value,
                                            creator=seat_of(interaction.user), invited=invited)
            if against_ai:
                session, began = await host.seat_ai(str(interaction.channel_id), str(interaction.user.id))
                if began is not None:
                    return began
                return Done(session_id=session.id, private={
                    "content": f"{AI_NAME} has a seat. `/game fill` seats the AI in every free seat and begins; "
                               "or wait for people to join and `/game begin`."})
            return Done(session_id=session.id)

        await play(interaction, work)

    @app_commands.command(name="fill", description="Seat Parlor's AI in every free seat and begin")
    @app_commands.guild_only()
    async def fill(self, interaction: discord.Interaction) -> None:
        async def work() -> MoveOutcome | None:
            _, began = await host_of(interaction).seat_ai(str(interaction.channel_id), str(interaction.user.id),
                                                          fill=True)
            return began

        await play(interaction, work)

    @app_commands.command(name="substitute",
                          description="Instead of a claim: Parlor's AI takes the idle player's seat and plays on")
    @app_commands.guild_only()
    async def substitute(self, interaction: discord.Interaction) -> None:
        async def work() -> Done:
            session, idle = await host_of(interaction).substitute(str(interaction.channel_id),
                                                                  str(interaction.user.id))
            who = ", ".join(discord.utils.escape_markdown(session.name_of(p)) for p in idle)
            return Done(session_id=session.id, private={
                "content": f"{AI_NAME} now plays for {who}, until they take the seat back with `/game return`."})

        await play(interaction, work)

    @app_commands.command(name="return", description="Take your seat back from Parlor's AI")
    @app_commands.guild_only()
    async def return_(self, interaction: discord.Interaction) -> None:
        async def work() -> Done:
            session = await host_of(interaction).return_to_seat(str(interaction.channel_id), str(interaction.user.id))
            return Done(session_id=session.id, private={"content": "You play your own seat again."})

        await play(interaction, work)

    @app_commands.command(name="undo", description="Take back your last move, if nothing random or hidden was seen")
    @app_commands.guild_only()
    async def undo(self, interaction: discord.Interaction) -> None:
        async def work() -> Done:
            host, player = host_of(interaction), str(interaction.user.id)
            session = await host.open_session(str(interaction.channel_id))
            return await undone(host, await host.undo(session.id, player), player)

        await play(interaction, work)

    @app_commands.command(name="join", description="Join the lobby in this channel")
    @app_commands.guild_only()
    async def join(self, interaction: discord.Interaction) -> None:
        await play(interaction, lambda: lobby_step(interaction, "join"))

    @app_commands.command(name="leave", description="Leave the lobby in this channel")
    @app_commands.guild_only()
    async def leave(self, interaction: discord.Interaction) -> None:
        await play(interaction, lambda: lobby_step(interaction, "leave"))

    @app_commands.command(name="begin", description="Begin the game once enough players have joined")
    @app_commands.guild_only()
    async def begin(self, interaction: discord.Interaction) -> None:
        await play(interaction, lambda: lobby_step(interaction, "begin"))

    @app_commands.command(name="rematch", description="A new game with the last game's players in the same seats")
    @app_commands.guild_only()
    async def rematch(self, interaction: discord.Interaction) -> None:
        await play(interaction, lambda: host_of(interaction).rematch(str(interaction.channel_id),
                                                                     str(interaction.user.id)))

    @app_commands.command(name="table", description="Bring this channel's game table back to the bottom")
    @app_commands.guild_only()
    async def table(self, interaction: discord.Interaction) -> None:
        async def work() -> Done:
            session = await host_of(interaction).last_session_in(str(interaction.channel_id))
            return Done(session_id=session.id, to_bottom=True)

        await play(interaction, work)

    @app_commands.command(name="status", description="The board and whose turn it is (only you see it)")
    @app_commands.guild_only()
    async def status(self, interaction: discord.Interaction) -> None:
        async def work() -> Done:
            host = host_of(interaction)
            session = await host.last_session_in(str(interaction.channel_id))
            if session.state is None:
                private = lobby_message(session)
                private.pop("view")
                return Done(private=private)
            view = host.public_view(session)
            png = None
            if await host.text_view.pictures_for(session.guild_id, str(interaction.user.id)):
                png = await draw_off_loop(frontend_for(session.slug).draw_board, view, image_names(session),
                                          session.turn_events)
            headline = "\n".join(line for line in [waiting_line(session, view, host.clock()),
                                                     *await pacing_lines(host, session, host.clock())] if line)
            private = board_message(session, view, headline=headline or None, png=png, with_buttons=False)
            # The table catches up here too if a crash left it behind (nothing happens when it is current).
            return Done(session_id=session.id, private=private)

        await play(interaction, work, shows_table=False)

    @app_commands.command(name="view", description="See your own views (status, your bones) as pictures or as text")
    @app_commands.describe(mode="text: your private views in words, without pictures (leave out to see)")
    @app_commands.choices(mode=[app_commands.Choice(name=mode, value=mode) for mode in MODES])
    async def view_mode(self, interaction: discord.Interaction, mode: app_commands.Choice[str] | None = None) -> None:
        async def work() -> None:
            text_view = host_of(interaction).text_view
            user = str(interaction.user.id)
            if mode is not None:
                await text_view.set_user_text(user, mode.value == "text")
            if await text_view.user_text(user):
                text = ("You get your own views as text: `/game status`, your bones, previews and panels come "
                        "in words, without pictures. A table is one message for everyone, so it stays as this "
                        "server shows it (`/settings tables` makes a server's tables text only).")
            else:
                text = "You get your own views with pictures (each with alt text). `/game view mode:text` for words."
            await interaction.response.send_message(f"Saved. {text}" if mode is not None else text, ephemeral=True)

        await guarded(interaction, work)

    @app_commands.command(name="rules", description="Our short summary of a game's rules")
    @app_commands.describe(game="Which game (default: this channel's, and the list of games)")
    @app_commands.choices(game=GAME_CHOICES)
    async def rules(self, interaction: discord.Interaction, game: app_commands.Choice[str] | None = None) -> None:
        async def work() -> None:
            if game is not None:
                embed = rules_embed(game.value)
            else:
                try:
                    embed = rules_embed((await host_of(interaction).last_session_in(str(interaction.channel_id))).slug)
                except UserError:
                    embed = games_embed()
                else:
                    embed.add_field(name="Every game (`/game rules game:<value>`)", value=games_list(), inline=False)
            await interaction.response.send_message(embed=embed, ephemeral=True)

        await guarded(interaction, work)

    @app_commands.command(name="replay", description="A finished game as an animated picture, move by move "
                                                     "(private; Share posts it)")
    @app_commands.describe(game="The game's number (default: this channel's latest finished game)")
    @app_commands.guild_only()
    async def replay(self, interaction: discord.Interaction, game: app_commands.Range[int, 1] | None = None) -> None:
        await ask_replay(interaction, game)

    @app_commands.command(name="log", description="The moves of this channel's game so far")
    @app_commands.guild_only()
    async def log(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            # A long game's replay (Crayon Rails) can take seconds: "thinking…" first, within Discord's 3 s.
            await interaction.response.defer(ephemeral=True, thinking=True)
            host = host_of(interaction)
            session = await host.last_session_in(str(interaction.channel_id))
            moves = await narrated_moves(host, session)
            lines = log_lines(session, moves, escape=discord.utils.escape_markdown)
            written = log_lines(session, moves, escape=None)
            for message in log_messages(session, lines, written):
                await interaction.followup.send(**message, ephemeral=True)

        await guarded(interaction, work)

    @app_commands.command(name="abandon", description="End this channel's game without a result")
    @app_commands.guild_only()
    async def abandon(self, interaction: discord.Interaction) -> None:
        async def work() -> Done:
            session = await host_of(interaction).abandon(str(interaction.channel_id), str(interaction.user.id),
                                                         can_manage=_can_manage(interaction))
            return Done(session_id=session.id, ended=session)

        await play(interaction, work, shows_table=False)  # the way out of a game in a channel Parlor lost

    @app_commands.command(name="claim", description="Win a game whose turn clock has run out")
    @app_commands.guild_only()
    async def claim(self, interaction: discord.Interaction) -> None:
        async def work() -> Done:
            session = await host_of(interaction).claim(str(interaction.channel_id), str(interaction.user.id))
            return Done(session_id=session.id, ended=session)

        await play(interaction, work)

    @app_commands.command(name="list", description="Your games and whose turn it is (in a DM: everywhere)")
    async def list_games(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            host = host_of(interaction)
            player = str(interaction.user.id)
            guild_id = str(interaction.guild_id) if interaction.guild_id else None
            sessions = await records.games_of(host, player, guild_id)
            text = records.game_list_text(host, player, sessions, everywhere=guild_id is None)
            await interaction.response.send_message(text, ephemeral=guild_id is not None,
                                                    allowed_mentions=discord.AllowedMentions.none())

        await guarded(interaction, work)

    @app_commands.command(name="history", description="This channel's past games and results (private; Share posts it)")
    @app_commands.guild_only()
    async def history(self, interaction: discord.Interaction) -> None:
        await answer_privately(interaction, "history")

    @app_commands.command(name="export", description="The record of a finished game, to check its dice")
    @app_commands.describe(game="The game's number (default: this channel's latest game)")
    @app_commands.guild_only()
    async def export(self, interaction: discord.Interaction, game: app_commands.Range[int, 1] | None = None) -> None:
        async def work() -> None:
            host = host_of(interaction)
            session = await game_record.finished_session(host, str(interaction.channel_id),
                                                          str(interaction.guild_id), game)
            await interaction.response.defer(ephemeral=True, thinking=True)
            file = await game_record.exported_file(host, session)
            await interaction.followup.send(
                f"The record of {game_label(session)}. Check it with `python -m games.verify {file.filename}` "
                "(in a copy of Parlor) or `/game verify`.", file=file, ephemeral=True)

        await guarded(interaction, work)

    @app_commands.command(name="verify", description="Check a game record: its seed, every die and every move")
    @app_commands.describe(record="A record file from /game export (default: a finished game of this server)",
                           game="The game's number (default: this channel's latest game)")
    async def verify(self, interaction: discord.Interaction, record: discord.Attachment | None = None,
                     game: app_commands.Range[int, 1] | None = None) -> None:
        async def work() -> None:
            host = host_of(interaction)
            guild_id = str(interaction.guild_id) if interaction.guild_id else None
            await interaction.response.defer(ephemeral=True, thinking=True)
            if record is not None:
                verdict = await game_record.check_attachment(host, record, guild_id)
            elif interaction.guild_id is None:
                raise UserError("Here in a direct message, attach a record file (`/game export` sends you one); "
                                "in a server channel `/game verify` can also check its finished games.")
            else:
                session = await game_record.finished_session(host, str(interaction.channel_id),
                                                              str(interaction.guild_id), game)
                verdict = await game_record.check_record(host, await game_record.record_of(host, session), guild_id)
            await interaction.followup.send(game_record.verdict_text(verdict), ephemeral=True,
                                            allowed_mentions=discord.AllowedMentions.none())

        await guarded(interaction, work)


@shareable("history")
async def history_answer(interaction: discord.Interaction, argument: str) -> dict:
    """`/game history` of the interaction's channel: private first, the same text when shared."""
    sessions = await records.history(host_of(interaction), str(interaction.channel_id))
    return {"content": records.history_text(sessions)}


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Lobby(bot))
