"""The REST half of the fake: the /api/v10 routes a bot uses, answering as Discord does.

Unknown routes (and known paths with an unknown method) answer 404 {"message": "404: Not Found",
"code": 0} and are recorded in `World.unknown_routes`; every other error is recorded in
`World.http_errors` as (method, path, status, code). A test can have the next matching requests
refused: by Discord's rate limit (`FakeDiscord.rate_limit`: 429 with `retry_after` 0, so discord.py
sends them again at once) or by Discord unavailable for a moment (`FakeDiscord.unavailable`: 503).
It can also have matching requests wait until it lets them through (`FakeDiscord.hold`: Discord slow
to answer).
"""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web

from tests.fakediscord import errors, interactions, messages, payloads
from tests.fakediscord import permissions as perms
from tests.fakediscord.commands import CommandRegistry
from tests.fakediscord.gateway import Gateway
from tests.fakediscord.interactions import InteractionLog
from tests.fakediscord.oauth import OAuth
from tests.fakediscord.state import FakeChannel, FakeGuild, FakeMessage, World

API = "/api/v10"
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
UNAUTHENTICATED_PREFIXES = (f"{API}/interactions/", f"{API}/webhooks/", f"{API}/oauth2/token")


def json_response(data: Any, status: int = 200) -> web.Response:
    """JSON with Content-Type exactly "application/json", as Discord sends it (discord.py compares it as is)."""
    return web.Response(body=json.dumps(data).encode(), status=status, headers={"Content-Type": "application/json"})


def _matches(request: web.Request, method: str, path: re.Pattern[str]) -> bool:
    """Whether `request` is a `method` request whose path after /api/v10 fully matches `path` (a test's
    refusal or hold)."""
    return request.method == method and path.fullmatch(request.path.removeprefix(API)) is not None


class Rest:
    def __init__(self, world: World, registry: CommandRegistry, log: InteractionLog, gateway: Gateway, token: str):
        self.world = world
        self.registry = registry
        self.log = log
        self.gateway = gateway
        self.token = token
        self.oauth = OAuth(world, token)

    def app(self) -> web.Application:
        app = web.Application(middlewares=[self._errors], client_max_size=64 * 1024 * 1024)
        routes = [
            ("GET", "/gateway", self.get_gateway),
            ("GET", "/gateway/bot", self.get_gateway_bot),
            ("GET", "/users/@me", self.get_me),
            ("GET", "/users/{user_id}", self.get_user),
            ("GET", "/oauth2/applications/@me", self.get_application),
            ("GET", "/applications/@me", self.get_application),
            ("GET", "/applications/{app_id}/commands", self.get_commands),
            ("PUT", "/applications/{app_id}/commands", self.put_commands),
            ("GET", "/applications/{app_id}/guilds/{guild_id}/commands", self.get_commands),
            ("PUT", "/applications/{app_id}/guilds/{guild_id}/commands", self.put_commands),
            ("POST", "/interactions/{interaction_id}/{token}/callback", self.callback),
            ("POST", "/webhooks/{app_id}/{token}", self.post_followup),
            ("GET", "/webhooks/{app_id}/{token}/messages/{message_id}", self.get_webhook_message),
            ("PATCH", "/webhooks/{app_id}/{token}/messages/{message_id}", self.edit_webhook_message),
            ("DELETE", "/webhooks/{app_id}/{token}/messages/{message_id}", self.delete_webhook_message),
            ("GET", "/channels/{channel_id}", self.get_channel),
            ("GET", "/channels/{channel_id}/messages", self.get_messages),
            ("POST", "/channels/{channel_id}/messages", self.post_message),
            ("GET", "/channels/{channel_id}/messages/{message_id}", self.get_message),
            ("PATCH", "/channels/{channel_id}/messages/{message_id}", self.edit_message),
            ("DELETE", "/channels/{channel_id}/messages/{message_id}", self.delete_message),
            ("POST", "/channels/{channel_id}/typing", self.typing),
            ("POST", "/users/@me/channels", self.create_dm),
            ("GET", "/guilds/{guild_id}", self.get_guild),
            ("GET", "/guilds/{guild_id}/channels", self.get_guild_channels),
            ("GET", "/guilds/{guild_id}/members/{user_id}", self.get_member),
        ]
        routes += self.oauth.routes()
        for method, path, handler in routes:
            app.router.add_route(method, API + path, handler)
        app.router.add_get("/gateway", self.gateway.handle)
        app.router.add_get("/attachments/{channel_id}/{attachment_id}/{filename}", self.get_attachment)
        return app

    # -- plumbing ----------------------------------------------------------------------------------
    @web.middleware
    async def _errors(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        try:
            raw = request[messages.RAW_BODY] = bytearray()
            self.world.requests.append((request.method, request.path, raw))
            if not request.content_type.startswith("multipart/"):
                raw += await request.read()  # cached: the handler reads it again; multipart fills it in read_body
            needs_auth = request.path.startswith(API) and not request.path.startswith(UNAUTHENTICATED_PREFIXES)
            authorization = request.headers.get("Authorization", "")
            bearer = request.path == f"{API}/users/@me" and authorization.startswith("Bearer ")
            if needs_auth and not bearer and request.headers.get("Authorization") != f"Bot {self.token}":
                raise errors.DiscordHTTPError(401, 0, "401: Unauthorized")
            if (status := self._refused(request)) is not None:
                raw += await request.read()
                return self._refusal(request, status)
            for method, path, answer in self.world.holds:
                if _matches(request, method, path):
                    self.world.changed()  # a test may wait for the request to have arrived
                    await answer.wait()
            return await handler(request)
        except (web.HTTPNotFound, web.HTTPMethodNotAllowed):
            self.world.unknown_routes.append((request.method, request.path))
            self.world.changed()
            return json_response({"message": "404: Not Found", "code": 0}, status=404)
        except json.JSONDecodeError:
            return self._error(request, errors.DiscordHTTPError(400, 50109, "The request body contains invalid JSON."))
        except errors.DiscordHTTPError as error:
            return self._error(request, error)

    def _refused(self, request: web.Request) -> int | None:
        """The status a test asked this request to be refused with (`FakeDiscord.rate_limit`, `unavailable`),
        used up if so."""
        for refusal in self.world.refusals:
            if _matches(request, refusal[0], refusal[1]):
                self.world.refusals.remove(refusal)
                return refusal[2]
        return None

    def _refusal(self, request: web.Request, status: int) -> web.Response:
        """Discord's 429 (its JSON body with `retry_after`, 0 here: the client retries at once, no test waits on
        the wall clock; and the `Via` header that tells discord.py it is Discord's, not a Cloudflare ban), or
        its 503 when unavailable."""
        self.world.http_errors.append((request.method, request.path, status, 0))
        self.world.changed()
        if status == 429:
            body = {"message": "You are being rate limited.", "retry_after": 0.0, "global": False}
        else:
            body = {"message": f"{status}: Service Unavailable", "code": 0}
        return web.Response(body=json.dumps(body).encode(), status=status,
                            headers={"Content-Type": "application/json", "Via": "1.1 google"})

    def _error(self, request: web.Request, error: errors.DiscordHTTPError) -> web.Response:
        self.world.http_errors.append((request.method, request.path, error.status, error.code))
        self.world.changed()
        return json_response({"message": error.message, "code": error.code}, status=error.status)

    def _message_json(self, message: FakeMessage) -> web.Response:
        return json_response(payloads.message(self.world, message))

    def _channel(self, request: web.Request) -> FakeChannel:
        channel_id = request.match_info["channel_id"]
        channel = self.world.channels.get(int(channel_id)) if channel_id.isdigit() else None
        if channel is None:
            raise errors.unknown("Channel", errors.UNKNOWN_CHANNEL)
        return channel

    def _require_bot_permissions(self, channel: FakeChannel, needed: int) -> None:
        """As Discord refuses a bot's message in a channel it may not see (50001) or lacks `needed` in (50013)."""
        granted = self.world.bot_permissions_in(channel)
        if not granted & perms.VIEW_CHANNEL:
            raise errors.DiscordHTTPError(403, errors.MISSING_ACCESS, "Missing Access")
        if needed & ~granted:
            raise errors.DiscordHTTPError(403, errors.MISSING_PERMISSIONS, "Missing Permissions")

    def _channel_message(self, request: web.Request) -> FakeMessage:
        """A message reachable through /channels: not deleted and not ephemeral (those live on webhooks)."""
        channel = self._channel(request)
        self._require_bot_permissions(channel, 0)
        message_id = request.match_info["message_id"]
        message = self.world.messages.get(int(message_id)) if message_id.isdigit() else None
        if message is None or message.channel_id != channel.id or message.deleted or message.ephemeral:
            raise errors.unknown("Message", errors.UNKNOWN_MESSAGE)
        return message

    def _check_application(self, request: web.Request) -> None:
        if request.match_info["app_id"] != str(self.world.bot_user.id):
            raise errors.unknown("Application", errors.UNKNOWN_APPLICATION)

    # -- gateway, identity, application ------------------------------------------------------------
    async def get_gateway(self, request: web.Request) -> web.Response:
        return json_response({"url": self.gateway.url})

    async def get_gateway_bot(self, request: web.Request) -> web.Response:
        limit = {"total": 1000, "remaining": 999, "reset_after": 14400000, "max_concurrency": 1}
        return json_response({"url": self.gateway.url, "shards": 1, "session_start_limit": limit})

    async def get_me(self, request: web.Request) -> web.Response:
        if request.headers.get("Authorization", "").startswith("Bearer "):
            return self.oauth.bearer_user(request)
        return json_response(payloads.client_user(self.world.bot_user))

    async def get_user(self, request: web.Request) -> web.Response:
        user_id = request.match_info["user_id"]
        user = self.world.users.get(int(user_id)) if user_id.isdigit() else None
        if user is None:
            raise errors.unknown("User", errors.UNKNOWN_USER)
        return json_response(payloads.user(user))

    async def get_application(self, request: web.Request) -> web.Response:
        bot = self.world.bot_user
        owner = self.world.users[self.world.guild.owner_id]
        return json_response(
            {
                "id": str(bot.id),
                "name": bot.name,
                "description": "",
                "icon": None,
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": payloads.user(owner),
                "team": None,
                "verify_key": "0" * 64,
                "flags": 0,
                "bot": payloads.user(bot),
                "interactions_endpoint_url": None,
                "redirect_uris": [],
                "tags": [],
                "integration_types_config": {"0": {}},
            }
        )

    async def get_commands(self, request: web.Request) -> web.Response:
        self._check_application(request)
        guild_id = request.match_info.get("guild_id")
        return json_response(self.registry.listing(int(guild_id) if guild_id else None))

    async def put_commands(self, request: web.Request) -> web.Response:
        self._check_application(request)
        guild_id = request.match_info.get("guild_id")
        if guild_id is not None and not (guild_id.isdigit() and self.world.guild_by_id(int(guild_id))):
            raise errors.DiscordHTTPError(403, 50001, "Missing Access")
        body = await request.json()
        if not isinstance(body, list):
            raise errors.invalid_form("a bulk overwrite takes a list of commands")
        return json_response(self.registry.replace(int(guild_id) if guild_id else None, body))

    # -- interactions ------------------------------------------------------------------------------
    async def callback(self, request: web.Request) -> web.Response:
        result = self.log.for_callback(request.match_info["interaction_id"], request.match_info["token"])
        body, files = await messages.read_body(request)
        answer = interactions.acknowledge(self.world, result, body, files)
        if self.world.callback_answers is not None:
            await self.world.callback_answers.wait()
        if request.query.get("with_response") in ("1", "true", "True"):
            return json_response(answer)
        return web.Response(status=204)

    async def post_followup(self, request: web.Request) -> web.StreamResponse:
        result = self.log.for_webhook(request.match_info["app_id"], request.match_info["token"])
        body, files = await messages.read_body(request)
        message = interactions.followup(self.world, result, body, files)
        if request.query.get("wait") in ("1", "true", "True"):
            return self._message_json(message)
        return web.Response(status=204)

    async def get_webhook_message(self, request: web.Request) -> web.Response:
        result = self.log.for_webhook(request.match_info["app_id"], request.match_info["token"])
        return self._message_json(interactions.webhook_message(result, request.match_info["message_id"]))

    async def edit_webhook_message(self, request: web.Request) -> web.Response:
        result = self.log.for_webhook(request.match_info["app_id"], request.match_info["token"])
        message = interactions.webhook_message(result, request.match_info["message_id"])
        body, files = await messages.read_body(request)
        messages.edit(self.world, message, body, files)
        return self._message_json(message)

    async def delete_webhook_message(self, request: web.Request) -> web.Response:
        result = self.log.for_webhook(request.match_info["app_id"], request.match_info["token"])
        self._delete(interactions.webhook_message(result, request.match_info["message_id"]))
        return web.Response(status=204)

    # -- channels and messages ---------------------------------------------------------------------
    async def get_channel(self, request: web.Request) -> web.Response:
        return json_response(payloads.channel(self.world, self._channel(request)))

    async def get_messages(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        found = [m for m in self.world.channel_messages(channel.id) if not m.ephemeral and not m.loading]
        if "before" in request.query:
            found = [m for m in found if m.id < int(request.query["before"])]
        if "after" in request.query:
            found = [m for m in found if m.id > int(request.query["after"])]
        limit = int(request.query.get("limit", 50))
        newest_first = list(reversed(found))[:limit]
        return json_response([payloads.message(self.world, m) for m in newest_first])

    async def post_message(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        if channel.is_dm and self.world.users[channel.recipient_id or 0].refuses_dms:
            raise errors.DiscordHTTPError(403, errors.CANNOT_DM, "Cannot send messages to this user")
        body, files = await messages.read_body(request)
        send = perms.SEND_MESSAGES_IN_THREADS if channel.is_thread else perms.SEND_MESSAGES
        self._require_bot_permissions(channel, send | (perms.ATTACH_FILES if files else 0))
        body["flags"] = (body.get("flags") or 0) & ~interactions.EPHEMERAL
        message = messages.create(self.world, body, files, channel_id=channel.id, author_id=self.world.bot_user.id)
        return self._message_json(message)

    async def get_message(self, request: web.Request) -> web.Response:
        return self._message_json(self._channel_message(request))

    async def edit_message(self, request: web.Request) -> web.Response:
        message = self._channel_message(request)
        if message.author_id != self.world.bot_user.id:
            raise errors.DiscordHTTPError(403, 50005, "Cannot edit a message authored by another user")
        body, files = await messages.read_body(request)
        self._require_bot_permissions(self._channel(request), perms.ATTACH_FILES if files else 0)
        return self._message_json(messages.edit(self.world, message, body, files))

    async def delete_message(self, request: web.Request) -> web.Response:
        self._delete(self._channel_message(request))
        return web.Response(status=204)

    def _delete(self, message: FakeMessage) -> None:
        message.deleted = True
        self.world.message_event("MESSAGE_DELETE", message)

    async def typing(self, request: web.Request) -> web.Response:
        self._channel(request)
        return web.Response(status=204)

    async def create_dm(self, request: web.Request) -> web.Response:
        body: dict[str, Any] = await request.json()
        recipient = str(body.get("recipient_id", ""))
        user = self.world.users.get(int(recipient)) if recipient.isdigit() else None
        if user is None or user.bot:
            raise errors.DiscordHTTPError(400, 50033, "Invalid Recipient(s)")
        return json_response(payloads.channel(self.world, self.world.dm_channel(user)))

    # -- guild -------------------------------------------------------------------------------------
    def _guild(self, request: web.Request) -> FakeGuild:
        guild_id = request.match_info["guild_id"]
        guild = self.world.guild_by_id(int(guild_id)) if guild_id.isdigit() else None
        if guild is None:
            raise errors.unknown("Guild", 10004)
        return guild

    async def get_guild(self, request: web.Request) -> web.Response:
        data = payloads.guild_create(self.world, self._guild(request))
        for key in ("members", "channels", "threads", "presences", "voice_states", "joined_at", "large"):
            data.pop(key)
        return json_response(data)

    async def get_guild_channels(self, request: web.Request) -> web.Response:
        channels = self.world.guild_channels(self._guild(request))
        return json_response([payloads.channel(self.world, c) for c in channels])

    async def get_member(self, request: web.Request) -> web.Response:
        guild = self._guild(request)
        user_id = request.match_info["user_id"]
        user = self.world.users.get(int(user_id)) if user_id.isdigit() else None
        if user is None or not user.member:
            raise errors.unknown("Member", 10007)
        return json_response(payloads.member(self.world, user, guild=guild))

    async def get_attachment(self, request: web.Request) -> web.Response:
        """Attachment bytes, so `discord.Attachment.read()` works against the fake."""
        attachment_id = int(request.match_info["attachment_id"])
        if attachment_id in self.world.uploads:
            upload = self.world.uploads[attachment_id]
            return web.Response(body=upload.data, content_type=upload.content_type or "application/octet-stream")
        for message in self.world.messages.values():
            for attachment in message.attachments:
                if attachment.id == attachment_id:
                    content_type = attachment.content_type or "application/octet-stream"
                    return web.Response(body=attachment.data, content_type=content_type)
        raise web.HTTPNotFound()
