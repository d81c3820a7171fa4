"""The recorded world of the fake Discord: users, the test guilds, channels and every message.

The first guild is the test guild every test gets; `add_guild` adds more (member users are members of
every guild, with the same roles), so one fake serves a bot whose guilds live on several shards.

Everything the bot does over REST lands here, and the test-facing API reads it back. Each change
wakes the waiters (`World.wait_until`), so tests await conditions instead of sleeping.
"""

from __future__ import annotations

import asyncio
import itertools
import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, TypeVar

from tests.fakediscord import permissions as perms
from tests.fakediscord.components import walk

DISCORD_EPOCH_MS = 1420070400000
EPHEMERAL = 1 << 6
LOADING = 1 << 7
PUBLIC_THREAD = 11
T = TypeVar("T")


class SnowflakeFactory:
    """Discord-shaped ids (timestamp in the high bits), increasing, so ordering by id is ordering by time."""

    def __init__(self) -> None:
        self._counter = itertools.count()

    def __call__(self) -> int:
        millis = int(time.time() * 1000) - DISCORD_EPOCH_MS
        return (millis << 22) | (next(self._counter) & 0x3FFFFF)


def now_iso() -> str:
    return datetime.now(UTC).isoformat()


@dataclass(eq=False)
class FakeRole:
    id: int
    name: str
    permissions: int
    position: int


@dataclass(eq=False)
class FakeUser:
    """A Discord user; `member` is False for users outside the test guild (they can still DM the bot)."""

    id: int
    name: str
    bot: bool = False
    member: bool = True
    role_ids: list[int] = field(default_factory=list)
    joined_at: str = field(default_factory=now_iso)
    refuses_dms: bool = False

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"


@dataclass(eq=False)
class FakeChannel:
    """A guild text channel (type 0), the DM channel between the bot and one user (type 1), or a public
    thread (type 11) of a text channel (`parent_id`)."""

    id: int
    name: str
    type: int = 0
    position: int = 0
    recipient_id: int | None = None
    guild_id: int | None = None
    parent_id: int | None = None
    bot_denied: int = 0
    """Permission bits a channel overwrite denies the bot here (`FakeDiscord.deny_bot`)."""

    @property
    def is_dm(self) -> bool:
        return self.type == 1

    @property
    def is_thread(self) -> bool:
        return self.type == PUBLIC_THREAD

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"


@dataclass(eq=False)
class FakeGuild:
    id: int
    name: str
    owner_id: int
    roles: list[FakeRole] = field(default_factory=list)

    @property
    def everyone(self) -> FakeRole:
        return self.roles[0]


@dataclass(eq=False)
class FakeAttachment:
    id: int
    filename: str
    data: bytes = field(repr=False)
    description: str | None = None
    content_type: str | None = None

    @property
    def size(self) -> int:
        return len(self.data)


@dataclass(eq=False)
class FakeMessage:
    """A message as Discord holds it, plus who may see it (`visible_to`, for ephemeral messages)."""

    id: int
    channel_id: int
    author_id: int
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[FakeAttachment] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    visible_to: int | None = None
    interaction_id: int | None = None
    interaction_user_id: int | None = None
    interaction_type: int | None = None
    webhook_id: int | None = None
    timestamp: str = field(default_factory=now_iso)
    edited_timestamp: str | None = None
    edits: int = 0
    deleted: bool = False
    pinged: list[int] = field(default_factory=list)
    """Users Discord notified when this message appeared (its allowed mentions); edits notify nobody."""

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        """True while this is a deferred "Bot is thinking..." placeholder."""
        return bool(self.flags & LOADING)

    @property
    def embed(self) -> dict[str, Any] | None:
        return self.embeds[0] if self.embeds else None

    @property
    def text(self) -> str:
        """Content plus every embed's title, description, field names/values and footer: for `in` checks."""
        parts = [self.content]
        for embed in self.embeds:
            parts += [embed.get("title", ""), embed.get("description", "")]
            for embed_field in embed.get("fields", []):
                parts += [embed_field.get("name", ""), embed_field.get("value", "")]
            parts.append(embed.get("footer", {}).get("text", ""))
        parts += [c.get("content", "") for c in self.walk_components() if c.get("type") == 10]
        return "\n".join(p for p in parts if p)

    def walk_components(self) -> Iterator[dict[str, Any]]:
        return walk(self.components)

    def buttons(self) -> list[dict[str, Any]]:
        return [c for c in self.walk_components() if c.get("type") == 2]

    def button(self, *, label: str | None = None, custom_id: str | None = None) -> dict[str, Any]:
        """The one button with this label or custom_id; raises LookupError listing the buttons there are."""
        found = [
            b
            for b in self.buttons()
            if (label is None or b.get("label") == label) and (custom_id is None or b.get("custom_id") == custom_id)
        ]
        if len(found) != 1:
            labels = [(b.get("label"), b.get("custom_id")) for b in self.buttons()]
            raise LookupError(f"{len(found)} buttons match label={label!r} custom_id={custom_id!r}; have {labels}")
        return found[0]

    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in self.walk_components() if "custom_id" in c]

    def attachment(self, filename: str) -> FakeAttachment:
        for attachment in self.attachments:
            if attachment.filename == filename:
                return attachment
        raise LookupError(f"no attachment {filename!r}; have {[a.filename for a in self.attachments]}")


RESPONSE_DEADLINE = 3.0
"""Seconds Discord waits for the initial response (a reply, a deferral, a modal) before the interaction fails."""


class World:
    """All recorded state, and the one place that wakes waiters when any of it changes."""

    def __init__(self) -> None:
        self.base_url = ""
        self.clock: Callable[[], float] = time.monotonic
        """Seconds, for the interaction deadlines; tests may replace it with a virtual clock."""
        self.response_deadline = RESPONSE_DEADLINE
        """Seconds the bot has to acknowledge an interaction (Discord's 3); a bench's burst, whose fake shares the
        machine with the bot, may wait longer and report how late the answers came instead."""
        self.snowflake = SnowflakeFactory()
        self.activities = True
        """Whether the application may launch its Activity (LAUNCH_ACTIVITY, callback type 12)."""
        self.users: dict[int, FakeUser] = {}
        self.channels: dict[int, FakeChannel] = {}
        self.messages: dict[int, FakeMessage] = {}
        self.unknown_routes: list[tuple[str, str]] = []
        self.http_errors: list[tuple[str, str, int, int]] = []
        self.uploads: dict[int, FakeAttachment] = {}
        self.sent_files: list[tuple[FakeMessage, FakeAttachment]] = []
        """Every file the bot sent, in order, with the message it went on (edits replace files; this keeps all)."""
        """Files users attached to slash command options (served like message attachments)."""
        self.requests: list[tuple[str, str, bytearray]] = []
        """Every REST request the bot made: method, path and body (a multipart body as its parts' bytes)."""
        self.refusals: list[tuple[str, re.Pattern[str], int]] = []
        """Requests to answer with an HTTP status (429: rate limited, 503: Discord unavailable), each once, the
        first matching (method, path after /api/v10) first."""
        self.holds: list[tuple[str, re.Pattern[str], asyncio.Event]] = []
        """Requests (method, path after /api/v10) that wait for their event before Discord handles them."""
        self.callback_answers: asyncio.Event | None = None
        """When set to an Event: interaction callbacks take effect at once, but their HTTP answers wait
        for it (a slow network back to the bot)."""
        self.bot_user = FakeUser(id=self.snowflake(), name="parlor-test-bot", bot=True)
        self.users[self.bot_user.id] = self.bot_user
        owner = FakeUser(id=self.snowflake(), name="guild-owner")
        self.users[owner.id] = owner
        self.guilds: list[FakeGuild] = []
        self.guild = self.add_guild("Parlor Test Guild", owner_id=owner.id)
        self._changed = asyncio.Event()
        self.message_listeners: list[Callable[[str, FakeMessage], None]] = []
        self.watched: list[asyncio.Task[Any]] = []

    # -- changes -----------------------------------------------------------------------------------
    def changed(self) -> None:
        """Wake everyone waiting on a condition; they re-check it."""
        self._changed.set()
        self._changed = asyncio.Event()

    def watch(self, task: asyncio.Task[Any]) -> None:
        """Make every wait fail at once, with the task's exception, if this task (the bot) dies."""
        self.watched.append(task)
        task.add_done_callback(lambda _: self.changed())

    def _raise_if_a_watched_task_died(self, what: str) -> None:
        for task in self.watched:
            if task.done() and not task.cancelled() and task.exception() is not None:
                raise RuntimeError(f"the bot stopped while waiting for {what}") from task.exception()

    async def wait_until(self, check: Callable[[], T], timeout: float, what: str) -> T:
        """Return check()'s first truthy value, re-checking after every change; AssertionError on timeout."""
        deadline = asyncio.get_running_loop().time() + timeout
        while True:
            self._raise_if_a_watched_task_died(what)
            value = check()
            if value:
                return value
            remaining = deadline - asyncio.get_running_loop().time()
            if remaining <= 0:
                raise AssertionError(f"timed out after {timeout}s waiting for {what}")
            try:
                await asyncio.wait_for(self._changed.wait(), remaining)
            except TimeoutError:
                continue

    # -- entities ----------------------------------------------------------------------------------
    def add_guild(self, name: str, *, owner_id: int | None = None, guild_id: int | None = None) -> FakeGuild:
        """A guild with @everyone, Moderators and Parlor roles; moderators and the bot get theirs in it."""
        guild_id = guild_id or self.snowflake()
        guild = FakeGuild(
            id=guild_id,
            name=name,
            owner_id=owner_id or self.guilds[0].owner_id,
            roles=[
                FakeRole(id=guild_id, name="@everyone", permissions=perms.EVERYONE, position=0),
                FakeRole(id=self.snowflake(), name="Moderators", permissions=perms.MODERATOR, position=1),
                FakeRole(id=self.snowflake(), name="Parlor", permissions=perms.BOT, position=2),
            ],
        )
        if self.guilds:
            moderator_role = self.role("Moderators").id
            for user in self.users.values():
                if moderator_role in user.role_ids:
                    user.role_ids.append(guild.roles[1].id)
        self.bot_user.role_ids.append(guild.roles[2].id)
        self.guilds.append(guild)
        return guild

    def guild_by_id(self, guild_id: int) -> FakeGuild | None:
        return next((g for g in self.guilds if g.id == guild_id), None)

    def guild_of(self, channel: FakeChannel) -> FakeGuild | None:
        """The guild a channel belongs to; None for a DM channel."""
        return None if channel.guild_id is None else self.guild_by_id(channel.guild_id)

    def role(self, name: str, guild: FakeGuild | None = None) -> FakeRole:
        for role in (guild or self.guild).roles:
            if role.name == name:
                return role
        raise LookupError(f"no role {name!r}")

    def add_user(self, name: str, *, member: bool, moderator: bool) -> FakeUser:
        user = FakeUser(id=self.snowflake(), name=name, member=member)
        if moderator:
            user.role_ids.extend(self.role("Moderators", guild).id for guild in self.guilds)
        self.users[user.id] = user
        self.changed()
        return user

    def add_channel(self, name: str, guild: FakeGuild | None = None) -> FakeChannel:
        guild = guild or self.guild
        position = len(self.guild_channels(guild))
        channel = FakeChannel(id=self.snowflake(), name=name, position=position, guild_id=guild.id)
        self.channels[channel.id] = channel
        self.changed()
        return channel

    def add_thread(self, name: str, parent: FakeChannel) -> FakeChannel:
        thread = FakeChannel(id=self.snowflake(), name=name, type=PUBLIC_THREAD, guild_id=parent.guild_id,
                             parent_id=parent.id)
        self.channels[thread.id] = thread
        self.changed()
        return thread

    def guild_channels(self, guild: FakeGuild | None = None) -> list[FakeChannel]:
        """The guild's channels, without its threads (as Discord lists them)."""
        guild_id = (guild or self.guild).id
        return [c for c in self.channels.values() if c.guild_id == guild_id and not c.is_thread]

    def guild_threads(self, guild: FakeGuild | None = None) -> list[FakeChannel]:
        guild_id = (guild or self.guild).id
        return [c for c in self.channels.values() if c.guild_id == guild_id and c.is_thread]

    def members(self) -> list[FakeUser]:
        return [u for u in self.users.values() if u.member]

    def dm_channel(self, user: FakeUser) -> FakeChannel:
        """The DM channel between the bot and `user`, created on first use (Discord keeps one per pair)."""
        for channel in self.channels.values():
            if channel.recipient_id == user.id:
                return channel
        channel = FakeChannel(id=self.snowflake(), name=f"dm-{user.name}", type=1, recipient_id=user.id)
        self.channels[channel.id] = channel
        return channel

    def permissions_of(self, user: FakeUser, guild: FakeGuild | None = None) -> int:
        """Guild-level permissions (no channel overwrites exist in the fake); the owner and admins get all."""
        guild = guild or self.guild
        if user.id == guild.owner_id:
            return perms.ALL
        value = guild.everyone.permissions
        for role in guild.roles:
            if role.id in user.role_ids:
                value |= role.permissions
        return perms.ALL if value & perms.ADMINISTRATOR else value

    def bot_permissions_in(self, channel: FakeChannel) -> int:
        """The bot's permissions in `channel`: its guild's, less what the channel's overwrite denies it (in a
        thread, its parent's overwrite: a thread has none of its own, so a denial set on it stands for one)."""
        if channel.is_dm:
            return perms.BOT
        value = self.permissions_of(self.bot_user, self.guild_of(channel) or self.guild)
        denied = channel.bot_denied
        if channel.parent_id is not None and channel.parent_id in self.channels:
            denied |= self.channels[channel.parent_id].bot_denied
        return value if value & perms.ADMINISTRATOR else value & ~denied

    # -- messages ----------------------------------------------------------------------------------
    def add_message(self, message: FakeMessage) -> FakeMessage:
        self.messages[message.id] = message
        self.message_event("MESSAGE_CREATE", message)
        return message

    def message_event(self, event: str, message: FakeMessage) -> None:
        """Record that a message was created, updated or deleted: wakes waiters, tells the gateway."""
        for listener in self.message_listeners:
            listener(event, message)
        self.changed()

    def channel_messages(self, channel_id: int) -> list[FakeMessage]:
        return sorted(
            (m for m in self.messages.values() if m.channel_id == channel_id and not m.deleted),
            key=lambda m: m.id,
        )
