"""The gateway websocket: HELLO, IDENTIFY/RESUME, heartbeats, READY + GUILD_CREATE, and event dispatch.

Each session numbers its dispatches and keeps them, so a bot that reconnects with RESUME gets what it
missed; a bot process that restarts simply IDENTIFYs again and gets a fresh session. Frames leave
through one queue per connection, in order.

Sharding as Discord does it: an IDENTIFY may carry `shard: [shard_id, shard_count]`; that session is
sent only the guilds of its shard, `(guild_id >> 22) % shard_count`, and every event of a guild goes
to the most recently identified or resumed session of the guild's shard (DMs go to shard 0). Without
the field a session is shard 0 of 1 and gets everything.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from tests.fakediscord import payloads
from tests.fakediscord.state import FakeMessage, World

DISPATCH, HEARTBEAT, IDENTIFY, PRESENCE, VOICE, RESUME, RECONNECT, REQUEST_MEMBERS = 0, 1, 2, 3, 4, 6, 7, 8
INVALID_SESSION, HELLO, HEARTBEAT_ACK = 9, 10, 11
GUILDS, GUILD_MEMBERS, GUILD_MESSAGES, DIRECT_MESSAGES, MESSAGE_CONTENT = 1, 1 << 1, 1 << 9, 1 << 12, 1 << 15
AUTHENTICATION_FAILED, ALREADY_AUTHENTICATED = 4004, 4005


class Connection:
    """One websocket, with a writer task so frames queued from synchronous code go out in order."""

    def __init__(self, ws: web.WebSocketResponse, on_sent: Any) -> None:
        self.ws = ws
        self.queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self._on_sent = on_sent
        self.writer = asyncio.create_task(self._write())

    async def _write(self) -> None:
        while True:
            frame = await self.queue.get()
            if self.ws.closed:
                return
            try:
                await self.ws.send_str(json.dumps(frame))
            except ConnectionError:
                return
            self._on_sent(self, frame)


def shard_of(guild_id: int | None, shard_count: int) -> int:
    """The shard that receives a guild's events; direct messages go to shard 0."""
    return 0 if guild_id is None else (guild_id >> 22) % shard_count


@dataclass(eq=False)
class Session:
    id: str
    intents: int
    shard: list[int] | None
    seq: int = 0
    sent: list[dict[str, Any]] = field(default_factory=list)
    connection: Connection | None = None
    ready: bool = False
    ready_after: int = 0
    """The seq of the last frame of the initial burst (READY and the GUILD_CREATEs): sent means ready."""

    @property
    def shard_id(self) -> int:
        return self.shard[0] if self.shard else 0

    @property
    def shard_count(self) -> int:
        return self.shard[1] if self.shard else 1

    @property
    def live(self) -> bool:
        return self.connection is not None and self.ready

    def dispatch(self, event: str, data: dict[str, Any]) -> None:
        self.seq += 1
        frame = {"op": DISPATCH, "t": event, "s": self.seq, "d": data}
        self.sent.append(frame)
        if self.connection is not None:
            self.connection.queue.put_nowait(frame)


class Gateway:
    def __init__(self, world: World, token: str) -> None:
        self._world = world
        self._token = token
        self.url = ""
        self.heartbeat_interval_ms = 41250
        self.sessions: dict[str, Session] = {}
        self.live_sessions: dict[int, Session] = {}
        """Per shard id: the session that shard's events go to (the latest identified or resumed)."""
        self.shard_count = 1
        self.connections: set[Connection] = set()
        self.identify_count = 0
        self.resume_count = 0
        self.heartbeats = 0
        self.presence_updates: list[dict[str, Any]] = []
        world.message_listeners.append(self._message_event)

    # -- state the test API reads ------------------------------------------------------------------
    @property
    def live(self) -> Session | None:
        """The session of shard 0 (the only one of an unsharded bot)."""
        return self.live_sessions.get(0)

    @property
    def connected(self) -> bool:
        """Every shard holds a live session on an open websocket and has been sent READY and its guilds."""
        return all(self.shard_connected(n) for n in range(self.shard_count))

    def shard_connected(self, shard_id: int) -> bool:
        session = self.live_sessions.get(shard_id)
        return session is not None and session.live

    def serves(self, guild_id: int | None) -> bool:
        """The shard of this guild (or of DMs, for None) is connected: its events reach a bot."""
        return self.shard_connected(shard_of(guild_id, self.shard_count))

    def dispatch(self, event: str, data: dict[str, Any], intent: int | None = None, *,
                 guild_id: int | None = None) -> None:
        """Send an event of `guild_id` (None: a DM) to the session of that guild's shard."""
        session = self.live_sessions.get(shard_of(guild_id, self.shard_count))
        if session is not None and (intent is None or session.intents & intent):
            session.dispatch(event, data)

    # -- controls for tests ------------------------------------------------------------------------
    def request_reconnect(self) -> None:
        """Send op 7 RECONNECT: the bot closes and comes back with RESUME."""
        if self.live is None or self.live.connection is None:
            raise RuntimeError("the bot is not connected to the gateway")
        self.live.connection.queue.put_nowait({"op": RECONNECT, "d": None})

    def invalidate_session(self) -> None:
        """Send op 9 INVALID_SESSION (not resumable): the bot must IDENTIFY again."""
        if self.live is None or self.live.connection is None:
            raise RuntimeError("the bot is not connected to the gateway")
        self.live.connection.queue.put_nowait({"op": INVALID_SESSION, "d": False})

    async def close(self) -> None:
        for connection in list(self.connections):
            connection.writer.cancel()
            await connection.ws.close(code=1001, message=b"fake Discord shutting down")

    # -- the websocket -----------------------------------------------------------------------------
    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        connection = Connection(ws, self._sent)
        self.connections.add(connection)
        connection.queue.put_nowait({"op": HELLO, "d": {"heartbeat_interval": self.heartbeat_interval_ms}})
        try:
            async for message in ws:
                if message.type is WSMsgType.TEXT:
                    await self._receive(connection, json.loads(message.data))
        finally:
            connection.writer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await connection.writer
            self.connections.discard(connection)
            for session in self.sessions.values():
                if session.connection is connection:
                    session.connection = None
            self._world.changed()
        return ws

    def _sent(self, connection: Connection, frame: dict[str, Any]) -> None:
        if frame.get("op") != DISPATCH:
            return
        for session in self.sessions.values():
            if session.connection is connection and not session.ready and (
                    frame.get("t") == "RESUMED" or frame["s"] >= session.ready_after):
                session.ready = True
                self._world.changed()

    async def _receive(self, connection: Connection, frame: dict[str, Any]) -> None:
        op, data = frame.get("op"), frame.get("d")
        if op == HEARTBEAT:
            self.heartbeats += 1
            connection.queue.put_nowait({"op": HEARTBEAT_ACK})
        elif op == IDENTIFY:
            await self._identify(connection, data or {})
        elif op == RESUME:
            await self._resume(connection, data or {})
        elif op == REQUEST_MEMBERS:
            self._members_chunk(data or {})
        elif op == PRESENCE:
            self.presence_updates.append(data or {})

    async def _identify(self, connection: Connection, data: dict[str, Any]) -> None:
        if data.get("token") != self._token:
            await connection.ws.close(code=AUTHENTICATION_FAILED, message=b"Authentication failed.")
            return
        if any(s.connection is connection for s in self.sessions.values()):
            await connection.ws.close(code=ALREADY_AUTHENTICATED, message=b"Already authenticated.")
            return
        session = Session(id=secrets.token_hex(16), intents=int(data.get("intents", 0)), shard=data.get("shard"))
        self.sessions[session.id] = session
        self.shard_count = session.shard_count
        self._attach(session, connection)
        self.identify_count += 1
        world = self._world
        guilds = [g for g in world.guilds if shard_of(g.id, session.shard_count) == session.shard_id]
        ready: dict[str, Any] = {
            "v": 10,
            "user": payloads.client_user(world.bot_user),
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": self.url,
            "application": {"id": str(world.bot_user.id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "user_settings": {},
            "geo_ordered_rtc_regions": [],
            "_trace": ["fake-discord"],
        }
        if session.shard is not None:
            ready["shard"] = session.shard
        session.dispatch("READY", ready)
        for guild in guilds:
            session.dispatch("GUILD_CREATE", payloads.guild_create(world, guild))
        session.ready_after = session.seq
        world.changed()

    async def _resume(self, connection: Connection, data: dict[str, Any]) -> None:
        session = self.sessions.get(data.get("session_id") or "")
        if session is None or data.get("token") != self._token:
            connection.queue.put_nowait({"op": INVALID_SESSION, "d": False})
            return
        if session.connection is not None and session.connection is not connection:
            await session.connection.ws.close(code=4009, message=b"Session resumed elsewhere.")
        self._attach(session, connection)
        self.resume_count += 1
        last_seen = data.get("seq") or 0
        for frame in session.sent:
            if frame["s"] > last_seen:
                connection.queue.put_nowait(frame)
        session.dispatch("RESUMED", {})
        self._world.changed()

    def _attach(self, session: Session, connection: Connection) -> None:
        session.connection = connection
        session.ready = False
        self.live_sessions[session.shard_id] = session

    def _members_chunk(self, data: dict[str, Any]) -> None:
        world = self._world
        guild_id = str(data.get("guild_id") or "")
        guild = world.guild_by_id(int(guild_id)) if guild_id.isdigit() else None
        if guild is None:
            return
        members = world.members()
        if data.get("user_ids"):
            wanted = {str(i) for i in data["user_ids"]}
            members = [m for m in members if str(m.id) in wanted]
        if data.get("query"):
            members = [m for m in members if m.name.lower().startswith(str(data["query"]).lower())]
        if data.get("limit"):
            members = members[: int(data["limit"])]
        chunk: dict[str, Any] = {
            "guild_id": str(guild.id),
            "members": [payloads.member(world, m, guild=guild) for m in members],
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [],
        }
        if data.get("nonce"):
            chunk["nonce"] = data["nonce"]
        self.dispatch("GUILD_MEMBERS_CHUNK", chunk, guild_id=guild.id)

    def _message_event(self, event: str, message: FakeMessage) -> None:
        """Mirror REST changes as MESSAGE_* events, with the intents and visibility Discord applies."""
        channel = self._world.channels.get(message.channel_id)
        if channel is None or message.ephemeral:
            return
        session = self.live_sessions.get(shard_of(channel.guild_id, self.shard_count))
        if session is None:
            return
        intent = DIRECT_MESSAGES if channel.is_dm else GUILD_MESSAGES
        if event == "MESSAGE_DELETE":
            data: dict[str, Any] = {"id": str(message.id), "channel_id": str(channel.id)}
            if not channel.is_dm:
                data["guild_id"] = str(channel.guild_id)
        else:
            data = payloads.message(self._world, message, gateway=True)
            author_is_bot = message.author_id == self._world.bot_user.id
            mentioned = self._world.bot_user.mention in message.content
            if not (session.intents & MESSAGE_CONTENT or channel.is_dm or author_is_bot or mentioned):
                data.update(content="", embeds=[], attachments=[], components=[])
        self.dispatch(event, data, intent, guild_id=channel.guild_id)
