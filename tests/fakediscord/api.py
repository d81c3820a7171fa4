"""`FakeDiscord`: the test-facing side. Start it, point the bot at it, then play users and read results.

    async with FakeDiscord() as fake:                       # or the `fake_discord` fixture
        alice, bob = fake.create_user("alice"), fake.create_user("bob")
        ... start the bot with fake.token, after point_discord_py_at(fake.api_base, fake.gateway_url)
        await fake.wait_until_ready()
        result = await fake.slash(alice, "game start", fake.channel("games"), game="john-henry", opponent=bob)
        assert result.response.embed["title"] == ...
        await fake.click(bob, result.response, result.response.button(label="Roll")["custom_id"])

Every interaction method waits for the bot's answer the way Discord would (acknowledged within
`response_timeout`; a type-5 deferral then resolved within `deferred_timeout`) and returns its
`InteractionResult`. As on Discord, an initial response later than 3 s after the interaction was
sent (by `world.clock`, real time unless a test injects its own) is refused with 10062 Unknown
interaction, and the interaction fails. Conditions are awaited on change notifications, never by sleeping.
"""

from __future__ import annotations

import asyncio
import mimetypes
import re
from collections.abc import Callable
from typing import Any, Self, TypeVar

from aiohttp import web

from tests.fakediscord import commands as command_tree
from tests.fakediscord import components, interactions, payloads
from tests.fakediscord.commands import CommandRegistry
from tests.fakediscord.gateway import GUILD_MEMBERS, GUILDS, Gateway
from tests.fakediscord.interactions import InteractionLog, InteractionResult
from tests.fakediscord.server import Rest
from tests.fakediscord.state import FakeAttachment, FakeChannel, FakeGuild, FakeMessage, FakeUser, World

T = TypeVar("T")
DEFAULT_CHANNELS = ("general", "games", "lounge")


class FakeDiscord:
    """One fake Discord: a test guild (channels general/games/lounge), its bot user, REST and gateway."""

    def __init__(
        self,
        *,
        token: str = "fake-discord-bot-token",
        channels: tuple[str, ...] = DEFAULT_CHANNELS,
        response_timeout: float = 3.0,
        deferred_timeout: float = 10.0,
    ) -> None:
        self.world = World()
        self.token = token
        self.response_timeout = response_timeout
        self.deferred_timeout = deferred_timeout
        self.commands = CommandRegistry(self.world)
        self.interactions = InteractionLog(self.world)
        self.gateway = Gateway(self.world, token)
        self._rest = Rest(self.world, self.commands, self.interactions, self.gateway, token)
        self.oauth = self._rest.oauth
        """Discord's side of the Activity: codes, bearer tokens, Activity instances (tests.fakediscord.oauth)."""
        self._runner: web.AppRunner | None = None
        self.port = 0
        for name in channels:
            self.world.add_channel(name)

    # -- lifecycle ---------------------------------------------------------------------------------
    async def start(self) -> None:
        """Serve on 127.0.0.1 at a free port."""
        self._runner = web.AppRunner(self._rest.app(), handle_signals=False, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = self._runner.addresses[0][1]
        self.world.base_url = self.base_url
        self.gateway.url = self.gateway_url

    async def stop(self) -> None:
        await self.gateway.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> Self:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        """What `discord.http.Route.BASE` must be set to."""
        return f"{self.base_url}/api/v10"

    @property
    def gateway_url(self) -> str:
        """What `discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY` must be (as a yarl.URL)."""
        return f"ws://127.0.0.1:{self.port}/gateway"

    # -- the world ---------------------------------------------------------------------------------
    @property
    def bot_user(self) -> FakeUser:
        return self.world.bot_user

    @property
    def application_id(self) -> int:
        return self.world.bot_user.id

    @property
    def guild(self) -> FakeGuild:
        return self.world.guild

    @property
    def owner(self) -> FakeUser:
        return self.world.users[self.world.guild.owner_id]

    def channel(self, name: str, guild: FakeGuild | None = None) -> FakeChannel:
        """The channel #name of `guild` (the test guild by default)."""
        for channel in self.world.guild_channels(guild):
            if channel.name == name:
                return channel
        raise LookupError(f"no channel #{name}; have {[c.name for c in self.world.guild_channels(guild)]}")

    def create_channel(self, name: str, guild: FakeGuild | None = None) -> FakeChannel:
        channel = self.world.add_channel(name, guild)
        self.gateway.dispatch("CHANNEL_CREATE", payloads.channel(self.world, channel), GUILDS,
                              guild_id=channel.guild_id)
        return channel

    def create_thread(self, name: str, parent: FakeChannel) -> FakeChannel:
        """A public thread of `parent`, started by the bot (so it needs no joining): the bot is sent THREAD_CREATE.
        Posting in it takes Send Messages in Threads, not Send Messages."""
        thread = self.world.add_thread(name, parent)
        self.gateway.dispatch("THREAD_CREATE", {**payloads.channel(self.world, thread), "newly_created": True},
                              GUILDS, guild_id=thread.guild_id)
        return thread

    def delete_channel(self, channel: FakeChannel) -> None:
        """A moderator deletes a guild channel: gone from Discord (its routes answer Unknown Channel), its
        messages with it, and the bot is sent CHANNEL_DELETE."""
        del self.world.channels[channel.id]
        for message in self.world.channel_messages(channel.id):
            message.deleted = True
        self.gateway.dispatch("CHANNEL_DELETE", payloads.channel(self.world, channel), GUILDS,
                              guild_id=channel.guild_id)
        self.world.changed()

    def create_guild(self, name: str, *, shard: tuple[int, int] | None = None,
                     channels: tuple[str, ...] = DEFAULT_CHANNELS) -> FakeGuild:
        """Another guild the bot is in, with `channels`; `shard=(shard_id, shard_count)` picks an id on that
        shard. A connected shard is sent its GUILD_CREATE, as when the bot joins a server."""
        guild_id = None
        if shard is not None:
            shard_id, shard_count = shard
            candidate = self.world.snowflake()
            millis = candidate >> 22
            guild_id = ((millis + (shard_id - millis) % shard_count) << 22) | (candidate & 0x3FFFFF)
        guild = self.world.add_guild(name, guild_id=guild_id)
        for channel_name in channels:
            self.world.add_channel(channel_name, guild)
        self.gateway.dispatch("GUILD_CREATE", payloads.guild_create(self.world, guild), GUILDS, guild_id=guild.id)
        self.world.changed()
        return guild

    def create_user(self, name: str, *, moderator: bool = False, member: bool = True) -> FakeUser:
        """A user; `moderator` gives the role with Manage Channels and Manage Guild; `member=False` is outside.

        A member is a member of every guild of the fake."""
        user = self.world.add_user(name, member=member, moderator=moderator)
        if member:
            for guild in self.world.guilds:
                data = {**payloads.member(self.world, user, guild=guild), "guild_id": str(guild.id)}
                self.gateway.dispatch("GUILD_MEMBER_ADD", data, GUILD_MEMBERS, guild_id=guild.id)
        return user

    def dm_channel(self, user: FakeUser) -> FakeChannel:
        """The DM channel with `user`: pass it as `channel` to run a command in DMs."""
        return self.world.dm_channel(user)

    def rate_limit(self, method: str, path: str, times: int = 1) -> None:
        """The next `times` `method` requests whose path (after /api/v10) fully matches the regular expression
        `path` are answered 429, as Discord does when a bucket is spent (discord.py then retries them)."""
        self.world.refusals += [(method, re.compile(path), 429)] * times

    def unavailable(self, method: str, path: str, times: int = 1) -> None:
        """The next `times` matching requests (as for `rate_limit`) are answered 503: Discord unavailable for a
        moment (discord.py gives up on a 503 at once, with DiscordServerError)."""
        self.world.refusals += [(method, re.compile(path), 503)] * times

    def deny_bot(self, channel: FakeChannel, permissions: int) -> None:
        """A channel overwrite denying the bot `permissions` (bits of tests.fakediscord.permissions) in `channel`:
        its messages there are refused as Discord refuses them, and interactions there say so."""
        channel.bot_denied = permissions

    def hold(self, method: str, path: str) -> asyncio.Event:
        """From now on, `method` requests whose path (after /api/v10) fully matches the regular expression `path`
        are handled only once the returned event is set: Discord slow to answer, or a rate limit waited out."""
        answer = asyncio.Event()
        self.world.holds.append((method, re.compile(path), answer))
        return answer

    def refuse_dms(self, user: FakeUser, refuse: bool = True) -> None:
        """From now on the bot's DMs to `user` fail with 403 / 50007 "Cannot send messages to this user"."""
        user.refuses_dms = refuse

    def upload(self, filename: str, data: bytes) -> FakeAttachment:
        """A file a user attaches to a slash command option (pass it as the option's value)."""
        return FakeAttachment(id=self.world.snowflake(), filename=filename, data=data,
                              content_type=mimetypes.guess_type(filename)[0])

    async def post_message(self, user: FakeUser, channel: FakeChannel, content: str) -> FakeMessage:
        """`user` writes in a channel (or DM channel): recorded, and sent to the bot as MESSAGE_CREATE."""
        message = FakeMessage(id=self.world.snowflake(), channel_id=channel.id, author_id=user.id, content=content)
        return self.world.add_message(message)

    # -- interactions ------------------------------------------------------------------------------
    async def slash(
        self,
        user: FakeUser,
        command: str,
        /,
        channel: FakeChannel,
        *,
        options: dict[str, Any] | None = None,
        timeout: float | None = None,
        **values: Any,
    ) -> InteractionResult:
        """Run "/command sub option:value" as `user` in `channel`, validated against the synced commands.

        Option values: str/int/float/bool, FakeUser, FakeChannel, FakeRole. Options whose names are not
        Python identifiers, or are `channel`/`options`/`timeout`, go in `options={...}`.
        """
        all_values = {**values, **(options or {})}
        invocation = command_tree.build(self.commands, self.world, user, channel, command, all_values)
        kind = interactions.APPLICATION_COMMAND
        result = interactions.new_result(self.world, kind, user, channel, invocation.data)
        return await self._run(result, timeout, f"/{command}")

    async def autocomplete(
        self,
        user: FakeUser,
        command: str,
        /,
        channel: FakeChannel,
        *,
        focused: str,
        options: dict[str, Any] | None = None,
        timeout: float | None = None,
        **values: Any,
    ) -> list[dict[str, Any]]:
        """The choices the bot offers for option `focused`, typed so far as values[focused] (default "")."""
        all_values = {**values, **(options or {})}
        invocation = command_tree.build(self.commands, self.world, user, channel, command, all_values, focused)
        result = interactions.new_result(self.world, interactions.AUTOCOMPLETE, user, channel, invocation.data)
        await self._run(result, timeout, f"autocomplete of /{command} {focused}")
        return result.choices or []

    async def click(
        self, user: FakeUser, message: FakeMessage, custom_id: str, *, timeout: float | None = None
    ) -> InteractionResult:
        """Press the button `custom_id` on `message` (as it is now: an edited-away button cannot be pressed)."""
        button = self._component(user, message, custom_id)
        if button["type"] != components.BUTTON or button.get("disabled") or "url" in button:
            raise ValueError(f"{custom_id!r} is not an enabled button: {button}")
        data = {"custom_id": custom_id, "component_type": components.BUTTON}
        return await self._component_interaction(user, message, data, timeout, f"button {custom_id!r}")

    async def select(
        self,
        user: FakeUser,
        message: FakeMessage,
        custom_id: str,
        values: list[str] | list[FakeUser],
        *,
        timeout: float | None = None,
    ) -> InteractionResult:
        """Choose `values` in the select menu `custom_id` (option values, or users for a user select)."""
        select = self._component(user, message, custom_id)
        if select["type"] not in (components.STRING_SELECT, components.USER_SELECT):
            raise ValueError(f"{custom_id!r} is not a string or user select: {select}")
        chosen = [str(v.id) if isinstance(v, FakeUser) else v for v in values]
        components.check_select_values(select, chosen)
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": select["type"], "values": chosen}
        if select["type"] == components.USER_SELECT:
            picked = [v for v in values if isinstance(v, FakeUser)]
            data["resolved"] = {"users": {str(u.id): payloads.user(u) for u in picked}}
            if not self.world.channels[message.channel_id].is_dm:
                guild = self.world.guild_of(self.world.channels[message.channel_id])
                data["resolved"]["members"] = {
                    str(u.id): payloads.member(self.world, u, with_user=False, with_permissions=True, guild=guild)
                    for u in picked
                    if u.member
                }
        return await self._component_interaction(user, message, data, timeout, f"select {custom_id!r}")

    async def submit_modal(
        self, user: FakeUser, opened: InteractionResult, values: dict[str, Any], *, timeout: float | None = None
    ) -> InteractionResult:
        """Fill in and submit the modal the bot opened in answer to `opened` (text: str, selects: [str])."""
        if opened.modal is None:
            raise ValueError(f"interaction {opened.id} did not open a modal (callback type {opened.callback_type})")
        if opened.user is not user:
            raise ValueError("only the user who opened a modal can submit it")
        data = {
            "custom_id": opened.modal["custom_id"],
            "components": components.modal_submission(opened.modal["components"], values),
        }
        result = interactions.new_result(
            self.world, interactions.MODAL_SUBMIT, user, opened.channel, data, opened.source_message
        )
        return await self._run(result, timeout, f"modal {opened.modal['custom_id']!r}")

    def _component(self, user: FakeUser, message: FakeMessage, custom_id: str) -> dict[str, Any]:
        if message.deleted:
            raise ValueError(f"message {message.id} was deleted")
        if message.visible_to not in (None, user.id):
            raise ValueError(f"{user.name} cannot see the ephemeral message {message.id}")
        channel = self.world.channels[message.channel_id]
        if channel.is_dm and channel.recipient_id != user.id:
            raise ValueError(f"{user.name} cannot see a DM to someone else")
        return components.find(message.components, custom_id)

    async def _component_interaction(
        self, user: FakeUser, message: FakeMessage, data: dict[str, Any], timeout: float | None, what: str
    ) -> InteractionResult:
        channel = self.world.channels[message.channel_id]
        kind = interactions.MESSAGE_COMPONENT
        result = interactions.new_result(self.world, kind, user, channel, data, source_message=message)
        return await self._run(result, timeout, what)

    async def _run(self, result: InteractionResult, timeout: float | None, what: str) -> InteractionResult:
        guild_id = result.channel.guild_id
        if not self.gateway.serves(guild_id):
            raise RuntimeError("the bot is not connected to the fake gateway (for this guild's shard): "
                               "await fake.wait_until_ready() first")
        self.interactions.add(result)
        self.gateway.dispatch("INTERACTION_CREATE", result.payload, guild_id=guild_id)
        try:
            await self.world.wait_until(
                lambda: result.acknowledged or result.late, timeout or self.response_timeout,
                f"the bot to acknowledge {what}"
            )
            if result.late:
                raise AssertionError(f"the bot answered {what} after Discord's {self.world.response_deadline}s "
                                     "deadline, so the interaction failed")
            if result.callback_type == interactions.DEFERRED_MESSAGE:
                what = f"the bot to finish its deferred reply to {what}"
                await self.world.wait_until(lambda: not result.thinking, self.deferred_timeout, what)
            elif result.callback_type == interactions.DEFERRED_UPDATE:
                # Discord tracks nothing after a type-6 deferral; the user sees a result once the bot edits
                # the message or follows up, so that is what "answered" means here.
                what = f"the bot to update the message after deferring {what}"
                await self.world.wait_until(lambda: result.updated, self.deferred_timeout, what)
        except AssertionError as error:
            recent, unknown = self.world.http_errors[-3:], self.unknown_routes
            raise AssertionError(f"{error}; recent HTTP errors {recent}; unknown routes {unknown}") from None
        return result

    # -- reading back ------------------------------------------------------------------------------
    @property
    def unknown_routes(self) -> list[tuple[str, str]]:
        return list(self.world.unknown_routes)

    @property
    def http_errors(self) -> list[tuple[str, str, int, int]]:
        """Every error answered: (method, path, HTTP status, Discord code)."""
        return list(self.world.http_errors)

    def assert_no_unknown_routes(self) -> None:
        assert not self.world.unknown_routes, f"the bot called routes the fake does not know: {self.unknown_routes}"

    def synced_commands(self, *, guild: bool = False) -> list[dict[str, Any]]:
        return self.commands.listing(self.world.guild.id if guild else None)

    def messages(self, channel: FakeChannel) -> list[FakeMessage]:
        """What everyone sees in `channel`: not ephemeral, not deleted, not a "thinking" placeholder."""
        return [m for m in self.world.channel_messages(channel.id) if m.visible_to is None and not m.loading]

    def visible_messages(self, user: FakeUser, channel: FakeChannel) -> list[FakeMessage]:
        """What `user` sees in `channel`: the public messages plus the ephemeral ones meant for them."""
        return [m for m in self.world.channel_messages(channel.id) if m.visible_to in (None, user.id) and not m.loading]

    def ephemeral_messages(self, user: FakeUser, channel: FakeChannel | None = None) -> list[FakeMessage]:
        found = sorted(
            (m for m in self.world.messages.values() if m.visible_to == user.id and not m.deleted and not m.loading),
            key=lambda m: m.id,
        )
        return [m for m in found if channel is None or m.channel_id == channel.id]

    def dms(self, user: FakeUser) -> list[FakeMessage]:
        """Messages in the DM channel between the bot and `user` (both directions)."""
        return self.messages(self.world.dm_channel(user))

    def last_message(self, channel: FakeChannel) -> FakeMessage:
        found = self.messages(channel)
        if not found:
            raise LookupError(f"no messages in {channel.name}")
        return found[-1]

    # -- waiting -----------------------------------------------------------------------------------
    def watch_bot(self, task: asyncio.Task[Any]) -> None:
        """Pass the task running `bot.start(...)`: if it dies, every wait raises its error at once."""
        self.world.watch(task)

    async def wait_for(self, check: Callable[[], T], timeout: float = 5.0, what: str = "a condition") -> T:
        """Await check() becoming truthy (re-checked on every change in the fake); returns its value."""
        return await self.world.wait_until(check, timeout, what)

    async def wait_until_ready(self, timeout: float = 10.0, *, commands: bool = True,
                               shards: tuple[int, ...] | None = None) -> None:
        """The bot is connected (READY and the guilds delivered; on every shard, or on `shards`) and,
        unless commands=False, has synced."""
        if shards is None:
            await self.wait_for(lambda: self.gateway.connected, timeout, "the bot to connect to the gateway")
        else:
            await self.wait_for(lambda: all(self.gateway.shard_connected(n) for n in shards), timeout,
                                f"shards {shards} to connect to the gateway")
        if commands:
            await self.wait_for_commands(timeout)

    async def wait_for_commands(self, timeout: float = 10.0) -> None:
        await self.wait_for(lambda: self.commands.sync_count > 0, timeout, "the bot to sync its commands")

    async def wait_for_message(
        self, channel: FakeChannel, predicate: Callable[[FakeMessage], bool] | None = None, timeout: float = 5.0
    ) -> FakeMessage:
        """The first public message in `channel` (already there or yet to come) that satisfies `predicate`."""

        def check() -> FakeMessage | None:
            return next((m for m in self.messages(channel) if predicate is None or predicate(m)), None)

        return await self.wait_for(check, timeout, f"a message in #{channel.name}")

    async def wait_for_dm(
        self, user: FakeUser, predicate: Callable[[FakeMessage], bool] | None = None, timeout: float = 5.0
    ) -> FakeMessage:
        return await self.wait_for_message(self.world.dm_channel(user), predicate, timeout)

    async def reconnect_bot(self, timeout: float = 10.0) -> None:
        """Ask the bot to reconnect (op 7) and wait until it has RESUMEd."""
        resumes = self.gateway.resume_count
        self.gateway.request_reconnect()
        await self.wait_for(
            lambda: self.gateway.resume_count > resumes and self.gateway.connected, timeout, "the bot to resume"
        )
