"""The fake Discord against a tiny real discord.py bot: every kind of answer is recorded as Discord would."""

from __future__ import annotations

import asyncio
import io
from collections.abc import AsyncIterator

import discord
import pytest
import pytest_asyncio
from discord import app_commands
from PIL import Image

from tests.fakediscord import CommandError, FakeDiscord, FakeMessage
from tests.fakediscord import fixtures as fake_fixtures
from tests.fakediscord import permissions as perms

fake_discord = fake_fixtures.fake_discord
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
SQUARES = ["a1", "a2", "b1", "b2"]


def board_png() -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (40, 30), "green").save(buffer, format="PNG")
    return buffer.getvalue()


class PressView(discord.ui.View):
    """Persistent (timeout=None, fixed custom_id) so it still answers after the bot restarts."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Press", custom_id="tiny:press", style=discord.ButtonStyle.primary)
    async def press(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        board = await interaction.message.attachments[0].read()
        await interaction.response.edit_message(content=f"pressed by {interaction.user.name}; board {len(board)} bytes")

    @discord.ui.button(label="Later", custom_id="tiny:later")
    async def later(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.defer()
        await interaction.edit_original_response(content="edited later", view=None)


class ColourView(discord.ui.View):
    @discord.ui.select(
        custom_id="tiny:colour",
        options=[discord.SelectOption(label=c, value=c) for c in ("red", "blue", "green")],
    )
    async def colour(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        await interaction.response.edit_message(content=f"chose {select.values[0]}", view=None)


class InviteView(discord.ui.View):
    @discord.ui.select(cls=discord.ui.UserSelect, custom_id="tiny:invite", max_values=2)
    async def invite(self, interaction: discord.Interaction, select: discord.ui.UserSelect) -> None:
        names = sorted(u.display_name for u in select.values)
        await interaction.response.send_message(f"invited {', '.join(names)}")


class FeedbackModal(discord.ui.Modal, title="Feedback"):
    text = discord.ui.TextInput(label="Your feedback", custom_id="feedback:text", max_length=200)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"thanks for: {self.text.value}", ephemeral=True)


game = app_commands.Group(name="game", description="Games")
admin = app_commands.Group(
    name="admin", description="Admin", default_permissions=discord.Permissions(manage_channels=True)
)
admin_channel = app_commands.Group(name="channel", description="Channel admin", parent=admin)


@game.command(name="start", description="Start a game")
@app_commands.choices(game=[app_commands.Choice(name="John Henry", value="john-henry")])
async def game_start(interaction: discord.Interaction, game: str, opponent: discord.Member) -> None:
    await interaction.response.send_message(f"{interaction.user.mention} vs {opponent.mention}: {game}")


@admin_channel.command(name="lock", description="Lock the channel")
async def admin_lock(interaction: discord.Interaction) -> None:
    can = interaction.permissions.manage_channels
    await interaction.response.send_message(f"locked {interaction.channel.name}; manage_channels={can}")


class TinyBot(discord.Client):
    def __init__(self, guild_id: int) -> None:
        super().__init__(intents=discord.Intents.default(), guild_ready_timeout=0.05)
        self.tree = app_commands.CommandTree(self)
        self.guild_only = discord.Object(guild_id)
        self.dm_echoes: list[str] = []
        self._add_commands()

    async def setup_hook(self) -> None:
        self.add_view(PressView())
        await self.tree.sync()
        await self.tree.sync(guild=self.guild_only)

    async def on_message(self, message: discord.Message) -> None:
        if message.guild is None and message.author != self.user:
            await message.channel.send(f"echo: {message.content}")

    def _add_commands(self) -> None:
        tree = self.tree
        tree.add_command(game)
        tree.add_command(admin, guild=self.guild_only)

        @tree.command(description="Show the board")
        async def show(interaction: discord.Interaction) -> None:
            embed = discord.Embed(title="Board", description="Your move").set_image(url="attachment://board.png")
            file = discord.File(io.BytesIO(board_png()), filename="board.png")
            await interaction.response.send_message(embed=embed, file=file, view=PressView())

        @tree.command(description="A secret")
        async def secret(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("only you can see this", ephemeral=True)

        @tree.command(description="Slow work")
        async def slow(interaction: discord.Interaction) -> None:
            await interaction.response.defer(thinking=True)
            await interaction.followup.send("done")
            await interaction.followup.send("psst", ephemeral=True)

        @tree.command(description="DM someone")
        async def dm(interaction: discord.Interaction, target: discord.User) -> None:
            try:
                await target.send(f"hello from {interaction.user.name}")
            except discord.Forbidden as error:
                await interaction.response.send_message(f"cannot DM ({error.code})", ephemeral=True)
            else:
                await interaction.response.send_message("sent", ephemeral=True)

        @tree.command(description="Move a piece")
        async def move(interaction: discord.Interaction, to: str) -> None:
            await interaction.response.send_message(f"moved to {to}")

        @move.autocomplete("to")
        async def move_to(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
            return [app_commands.Choice(name=s, value=s) for s in SQUARES if s.startswith(current)]

        @tree.command(description="Give feedback")
        async def feedback(interaction: discord.Interaction) -> None:
            await interaction.response.send_modal(FeedbackModal())

        @tree.command(description="Pick a colour")
        async def pick(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("pick one", view=ColourView())

        @tree.command(description="Render slowly, then edit the original response")
        async def render(interaction: discord.Interaction) -> None:
            await interaction.response.defer(ephemeral=True, thinking=True)
            file = discord.File(io.BytesIO(board_png()), filename="render.png")
            await interaction.edit_original_response(content="rendered", attachments=[file])

        @tree.command(description="Invite players")
        async def invite(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("who?", view=InviteView())

        @tree.command(description="Too long for Discord")
        async def long(interaction: discord.Interaction) -> None:
            try:
                await interaction.channel.send("x" * 2001)
            except discord.HTTPException as error:
                await interaction.response.send_message(f"refused {error.status} {error.code}", ephemeral=True)

        @tree.command(description="Never answers")
        async def silent(interaction: discord.Interaction) -> None:
            return None

        @tree.command(description="Calls a route Discord does not have")
        async def bogus(interaction: discord.Interaction) -> None:
            try:
                await self.http.request(discord.http.Route("GET", "/no/such/route"))
            except discord.NotFound as error:
                await interaction.response.send_message(f"{error.status} {error.code} {error.text}")


async def start_bot(fake: FakeDiscord) -> tuple[TinyBot, asyncio.Task[None]]:
    bot = TinyBot(fake.guild.id)
    task = asyncio.create_task(bot.start(fake.token))
    fake.watch_bot(task)
    await fake.wait_until_ready()
    await fake.wait_for(lambda: fake.commands.sync_count >= 2, 5, "both command syncs")
    return bot, task


async def stop_bot(bot: TinyBot, task: asyncio.Task[None]) -> None:
    await bot.close()
    await task


@pytest_asyncio.fixture
async def bot(fake_discord: FakeDiscord) -> AsyncIterator[TinyBot]:
    client, task = await start_bot(fake_discord)
    yield client
    await stop_bot(client, task)
    fake_discord.assert_no_unknown_routes()


@pytest.fixture
def alice(fake_discord: FakeDiscord):
    return fake_discord.create_user("alice")


@pytest.fixture
def bob(fake_discord: FakeDiscord):
    return fake_discord.create_user("bob")


async def test_bot_connects_and_syncs_global_and_guild_commands(fake_discord: FakeDiscord, bot: TinyBot) -> None:
    assert bot.user is not None and bot.user.id == fake_discord.bot_user.id
    assert bot.application_id == fake_discord.application_id
    assert fake_discord.gateway.identify_count == 1
    assert {c["name"] for c in fake_discord.synced_commands()} >= {"game", "show", "move", "feedback"}
    assert [c["name"] for c in fake_discord.synced_commands(guild=True)] == ["admin"]
    await bot.wait_until_ready()
    assert bot.get_guild(fake_discord.guild.id).get_channel(fake_discord.channel("games").id).name == "games"


async def test_reply_with_embed_png_and_button_then_click(fake_discord: FakeDiscord, bot: TinyBot, alice, bob) -> None:
    games = fake_discord.channel("games")
    result = await fake_discord.slash(alice, "show", channel=games)

    reply = result.response
    assert result.callback_type == 4 and not result.ephemeral
    assert reply.embed["title"] == "Board" and reply.embed["image"]["url"] == "attachment://board.png"
    assert reply.attachment("board.png").data == board_png()
    assert reply.attachment("board.png").data.startswith(PNG_SIGNATURE)
    assert reply.button(label="Press")["custom_id"] == "tiny:press"
    assert fake_discord.messages(games) == [reply]

    pressed = await fake_discord.click(bob, reply, "tiny:press")
    assert pressed.callback_type == 7 and pressed.response is reply
    assert reply.content == f"pressed by bob; board {len(board_png())} bytes"
    assert reply.attachments and reply.edits == 1


async def test_alt_text_is_kept_for_every_file_sent_and_a_long_one_is_refused(fake_discord: FakeDiscord,
                                                                             bot: TinyBot) -> None:
    channel = bot.get_partial_messageable(fake_discord.channel("games").id)

    def picture(alt: str) -> discord.File:
        return discord.File(io.BytesIO(board_png()), filename="board.png", description=alt)

    sent = await channel.send(file=picture("A green board"))
    await sent.edit(attachments=[picture("The same board, edited")])
    first, second = fake_discord.world.sent_files[-2:]
    assert [file.description for _, file in (first, second)] == ["A green board", "The same board, edited"]
    assert first[0] is second[0] and second[0].attachments == [second[1]], "the edit replaced the file"
    with pytest.raises(discord.HTTPException, match="description"):
        await channel.send(file=picture("x" * 1025))


async def test_a_rate_limited_request_is_answered_429_once_and_retried_by_discord_py(fake_discord: FakeDiscord,
                                                                                     bot: TinyBot) -> None:
    games = fake_discord.channel("games")
    channel = bot.get_partial_messageable(games.id)
    fake_discord.rate_limit("POST", rf"/channels/{games.id}/messages")
    sent = await channel.send(file=discord.File(io.BytesIO(board_png()), filename="board.png"))
    assert fake_discord.http_errors[-1] == ("POST", f"/api/v10/channels/{games.id}/messages", 429, 0)
    assert [m.id for m in fake_discord.messages(games)] == [sent.id], "posted once, by the retry"
    assert fake_discord.messages(games)[0].attachment("board.png").data == board_png(), "the whole file, retried"
    await channel.send("not limited")
    assert len(fake_discord.http_errors) == 1, "each limit answers one request"


async def test_a_held_request_is_handled_once_the_test_lets_it_through(fake_discord: FakeDiscord, bot: TinyBot) -> None:
    games = fake_discord.channel("games")
    answer = fake_discord.hold("POST", rf"/channels/{games.id}/messages")
    sending = asyncio.create_task(bot.get_partial_messageable(games.id).send("slow"))
    await fake_discord.wait_for(lambda: any(path.endswith(f"/{games.id}/messages") for _, path, _ in
                                            fake_discord.world.requests), what="the request to arrive")
    assert fake_discord.messages(games) == [] and not sending.done(), "held: not handled yet"
    answer.set()
    sent = await sending
    assert [m.id for m in fake_discord.messages(games)] == [sent.id]


async def test_a_channel_denying_the_bot_refuses_its_messages_as_discord_does(fake_discord: FakeDiscord,
                                                                               bot: TinyBot) -> None:
    games = fake_discord.channel("games")
    channel = bot.get_partial_messageable(games.id)
    sent = await channel.send("before")
    fake_discord.deny_bot(games, perms.ATTACH_FILES)
    await channel.send("words still go")
    with pytest.raises(discord.Forbidden) as refused:
        await channel.send(file=discord.File(io.BytesIO(board_png()), filename="board.png"))
    assert refused.value.code == 50013
    fake_discord.deny_bot(games, perms.VIEW_CHANNEL)
    with pytest.raises(discord.Forbidden) as unseen:
        await sent.edit(content="edited")
    assert unseen.value.code == 50001
    assert [m.content for m in fake_discord.messages(games)] == ["before", "words still go"]


async def test_ephemeral_reply_is_visible_to_its_user_only(fake_discord: FakeDiscord, bot: TinyBot, alice, bob) -> None:
    general = fake_discord.channel("general")
    result = await fake_discord.slash(alice, "secret", channel=general)

    assert result.ephemeral and result.response.content == "only you can see this"
    assert fake_discord.ephemeral_messages(alice) == [result.response]
    assert fake_discord.visible_messages(alice, general) == [result.response]
    assert fake_discord.messages(general) == [] and fake_discord.visible_messages(bob, general) == []


async def test_deferred_reply_resolved_by_followups(fake_discord: FakeDiscord, bot: TinyBot, alice, bob) -> None:
    games = fake_discord.channel("games")
    result = await fake_discord.slash(alice, "slow", channel=games)
    psst = await result.wait_for_followup(lambda m: m.content == "psst")

    assert result.callback_type == 5 and result.deferred and not result.thinking
    assert result.response.content == "done" and not result.response.ephemeral
    assert [m.content for m in result.messages] == ["done", "psst"]
    assert psst.ephemeral and fake_discord.ephemeral_messages(alice) == [psst]
    assert [m.content for m in fake_discord.messages(games)] == ["done"]


async def test_dm_and_refused_dm(fake_discord: FakeDiscord, bot: TinyBot, alice, bob) -> None:
    general = fake_discord.channel("general")
    sent = await fake_discord.slash(alice, "dm", channel=general, target=bob)
    assert sent.response.content == "sent"
    assert [m.content for m in fake_discord.dms(bob)] == ["hello from alice"]

    carol = fake_discord.create_user("carol")
    fake_discord.refuse_dms(carol)
    refused = await fake_discord.slash(alice, "dm", channel=general, target=carol)
    assert refused.response.content == "cannot DM (50007)"
    assert fake_discord.dms(carol) == []
    dm_channel = fake_discord.dm_channel(carol)
    assert ("POST", f"/api/v10/channels/{dm_channel.id}/messages", 403, 50007) in fake_discord.http_errors


async def test_autocomplete_returns_choices_and_validates_the_option(
    fake_discord: FakeDiscord, bot: TinyBot, alice
) -> None:
    games = fake_discord.channel("games")
    choices = await fake_discord.autocomplete(alice, "move", games, focused="to", to="a")
    assert choices == [{"name": "a1", "value": "a1"}, {"name": "a2", "value": "a2"}]
    assert await fake_discord.autocomplete(alice, "move", games, focused="to") == [
        {"name": s, "value": s} for s in SQUARES
    ]
    with pytest.raises(CommandError, match="has no options"):
        await fake_discord.autocomplete(alice, "move", games, focused="square")
    moved = await fake_discord.slash(alice, "move", channel=games, to="a2")
    assert moved.response.content == "moved to a2"


async def test_modal_opened_and_submitted(fake_discord: FakeDiscord, bot: TinyBot, alice) -> None:
    games = fake_discord.channel("games")
    opened = await fake_discord.slash(alice, "feedback", channel=games)
    assert opened.callback_type == 9 and opened.modal["title"] == "Feedback"

    submitted = await fake_discord.submit_modal(alice, opened, {"feedback:text": "great game"})
    assert submitted.response.content == "thanks for: great game" and submitted.ephemeral
    with pytest.raises(LookupError, match="no inputs"):
        await fake_discord.submit_modal(alice, opened, {"feedback:other": "x"})


async def test_select_menu(fake_discord: FakeDiscord, bot: TinyBot, alice) -> None:
    games = fake_discord.channel("games")
    menu = (await fake_discord.slash(alice, "pick", channel=games)).response
    with pytest.raises(ValueError, match="offers"):
        await fake_discord.select(alice, menu, "tiny:colour", ["purple"])
    chosen = await fake_discord.select(alice, menu, "tiny:colour", ["blue"])
    assert chosen.response is menu and menu.content == "chose blue" and menu.components == []


async def test_subcommands_user_options_and_validation(fake_discord: FakeDiscord, bot: TinyBot, alice, bob) -> None:
    games = fake_discord.channel("games")
    started = await fake_discord.slash(alice, "game start", channel=games, game="john-henry", opponent=bob)
    assert started.response.content == f"{alice.mention} vs {bob.mention}: john-henry"
    options = started.payload["data"]["options"]
    assert options[0]["type"] == 1 and options[0]["name"] == "start"
    assert started.payload["data"]["resolved"]["users"][str(bob.id)]["username"] == "bob"

    with pytest.raises(CommandError, match="no options"):
        await fake_discord.slash(alice, "game start", channel=games, game="john-henry", rival=bob)
    with pytest.raises(CommandError, match="requires option 'opponent'"):
        await fake_discord.slash(alice, "game start", channel=games, game="john-henry")
    with pytest.raises(CommandError, match="must be one of"):
        await fake_discord.slash(alice, "game start", channel=games, game="chess", opponent=bob)
    with pytest.raises(CommandError, match="no subcommand"):
        await fake_discord.slash(alice, "game stop", channel=games)
    with pytest.raises(CommandError, match="no slash command"):
        await fake_discord.slash(alice, "games", channel=games)


async def test_guild_command_group_respects_default_permissions(fake_discord: FakeDiscord, bot: TinyBot, alice) -> None:
    games = fake_discord.channel("games")
    moderator = fake_discord.create_user("mod", moderator=True)
    with pytest.raises(CommandError, match="needs permissions"):
        await fake_discord.slash(alice, "admin channel lock", channel=games)
    locked = await fake_discord.slash(moderator, "admin channel lock", channel=games)
    assert locked.response.content == "locked games; manage_channels=True"
    assert locked.payload["data"]["options"][0]["type"] == 2
    with pytest.raises(CommandError, match="no slash command"):
        await fake_discord.slash(moderator, "admin channel lock", channel=fake_discord.dm_channel(moderator))


async def test_command_in_dm_and_user_message_in_dm(fake_discord: FakeDiscord, bot: TinyBot, alice) -> None:
    dm_channel = fake_discord.dm_channel(alice)
    result = await fake_discord.slash(alice, "move", channel=dm_channel, to="b1")
    assert "member" not in result.payload and result.payload["user"]["id"] == str(alice.id)
    assert result.payload["channel"]["type"] == 1 and result.payload["context"] == 1
    assert fake_discord.dms(alice) == [result.response]

    await fake_discord.post_message(alice, dm_channel, "hi bot")
    echo = await fake_discord.wait_for_dm(alice, lambda m: m.content.startswith("echo"))
    assert echo.content == "echo: hi bot"


async def test_unknown_route_is_recorded(fake_discord: FakeDiscord, alice) -> None:
    client, task = await start_bot(fake_discord)
    try:
        result = await fake_discord.slash(alice, "bogus", channel=fake_discord.channel("general"))
    finally:
        await stop_bot(client, task)
    assert result.response.content == "404 0 404: Not Found"
    assert fake_discord.unknown_routes == [("GET", "/api/v10/no/such/route")]


async def test_unanswered_interaction_fails_the_test(fake_discord: FakeDiscord, bot: TinyBot, alice) -> None:
    fake_discord.response_timeout = 0.2
    with pytest.raises(AssertionError, match="to acknowledge"):
        await fake_discord.slash(alice, "silent", channel=fake_discord.channel("general"))


async def test_resume_after_reconnect_and_identify_after_restart(fake_discord: FakeDiscord, alice) -> None:
    games = fake_discord.channel("games")
    client, task = await start_bot(fake_discord)
    shown = (await fake_discord.slash(alice, "show", channel=games)).response
    await fake_discord.reconnect_bot()
    assert fake_discord.gateway.resume_count == 1 and fake_discord.gateway.identify_count == 1
    await fake_discord.slash(alice, "secret", channel=games)
    await stop_bot(client, task)

    client, task = await start_bot(fake_discord)
    try:
        assert fake_discord.gateway.identify_count == 2
        await fake_discord.click(alice, shown, "tiny:press")
    finally:
        await stop_bot(client, task)
    assert shown.content.startswith("pressed by alice")
    fake_discord.assert_no_unknown_routes()


def message_has_button(message: FakeMessage) -> bool:
    return bool(message.buttons())


async def test_wait_for_message_sees_later_messages(fake_discord: FakeDiscord, bot: TinyBot, alice) -> None:
    games = fake_discord.channel("games")
    waiting = asyncio.create_task(fake_discord.wait_for_message(games, message_has_button))
    await fake_discord.slash(alice, "show", channel=games)
    found = await waiting
    assert found.button(custom_id="tiny:press")["label"] == "Press"
    with pytest.raises(AssertionError, match="timed out"):
        await fake_discord.wait_for_message(games, lambda m: m.content == "never", timeout=0.05)


async def test_missed_events_are_replayed_on_resume(fake_discord: FakeDiscord, bot: TinyBot) -> None:
    resumed = asyncio.ensure_future(bot.wait_for("resumed"))
    fake_discord.gateway.request_reconnect()
    late = fake_discord.create_channel("late")
    await fake_discord.wait_for(lambda: fake_discord.gateway.resume_count == 1, 5, "a RESUME")
    await asyncio.wait_for(resumed, 5)
    assert bot.get_channel(late.id).name == "late"


async def test_message_over_discord_limits_is_refused(fake_discord: FakeDiscord, bot: TinyBot, alice) -> None:
    general = fake_discord.channel("general")
    result = await fake_discord.slash(alice, "long", channel=general)
    assert result.response.content == "refused 400 50035"
    assert fake_discord.messages(general) == []


async def test_deferred_then_edit_original_with_a_file(fake_discord: FakeDiscord, bot: TinyBot, alice) -> None:
    result = await fake_discord.slash(alice, "render", channel=fake_discord.channel("games"))
    assert result.callback_type == 5 and result.ephemeral and result.followups == []
    assert result.response.content == "rendered" and result.response.edits == 1
    assert result.response.attachment("render.png").data == board_png()
    assert fake_discord.ephemeral_messages(alice) == [result.response]


async def test_user_select_resolves_members(fake_discord: FakeDiscord, bot: TinyBot, alice, bob) -> None:
    games = fake_discord.channel("games")
    menu = (await fake_discord.slash(alice, "invite", channel=games)).response
    carol = fake_discord.create_user("carol")
    invited = await fake_discord.select(alice, menu, "tiny:invite", [bob, carol])
    assert invited.callback_type == 4 and invited.response.content == "invited bob, carol"


async def test_component_deferred_update_then_edit(fake_discord: FakeDiscord, bot: TinyBot, alice) -> None:
    shown = (await fake_discord.slash(alice, "show", channel=fake_discord.channel("games"))).response
    later = await fake_discord.click(alice, shown, "tiny:later")
    assert later.callback_type == 6 and later.response is shown
    await fake_discord.wait_for(lambda: shown.content == "edited later", 5, "the edit after a deferred update")
    assert shown.components == [] and shown.attachment("board.png").data == board_png()


async def test_a_bot_that_dies_fails_the_wait_at_once(fake_discord: FakeDiscord) -> None:
    bot = TinyBot(fake_discord.guild.id)
    task = asyncio.create_task(bot.start("not-the-token"))
    fake_discord.watch_bot(task)
    with pytest.raises(RuntimeError, match="bot stopped") as failure:
        await fake_discord.wait_until_ready(timeout=10)
    assert isinstance(failure.value.__cause__, discord.LoginFailure)
    await bot.close()
