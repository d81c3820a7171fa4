"""Discord's side of an Activity: OAuth2 codes and tokens, `/users/@me` with a bearer token, and Activity instances.

What the Discord client does when an Activity's Embedded App SDK sends AUTHORIZE (`authorize`: a one-time code for
the user who pressed Authorize) and when someone opens or joins an Activity (`open_activity`, `join_activity`), and
what Discord's API answers the Activity's server: `POST /oauth2/token` exchanges a code once (a used, unknown or
another application's code is Discord's `invalid_grant`), `GET /users/@me` with `Authorization: Bearer <token>` is
that token's user, and `GET /applications/{app}/activity-instances/{id}` (with the bot's token) says where an
instance runs and who is in it.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field

from aiohttp import web

from tests.fakediscord import errors, payloads
from tests.fakediscord.state import FakeChannel, FakeUser, World

CLIENT_SECRET = "fake-activity-client-secret"


@dataclass
class Instance:
    id: str
    channel: FakeChannel
    users: list[int] = field(default_factory=list)


class OAuth:
    """The codes, tokens and Activity instances of the one application (the bot's)."""

    def __init__(self, world: World, bot_token: str) -> None:
        self.world = world
        self.bot_token = bot_token
        self.client_secret = CLIENT_SECRET
        self.codes: dict[str, tuple[int, tuple[str, ...]]] = {}
        self.tokens: dict[str, int] = {}
        self.instances: dict[str, Instance] = {}
        self.exchanges: list[tuple[str, int]] = []
        """Every token exchange answered: the code and the HTTP status."""

    @property
    def client_id(self) -> str:
        return str(self.world.bot_user.id)

    def authorize(self, user: FakeUser, scopes: tuple[str, ...] = ("identify",)) -> str:
        """The code Discord gives the Activity when `user` authorizes it (AUTHORIZE)."""
        code = secrets.token_urlsafe(16)
        self.codes[code] = (user.id, scopes)
        return code

    def open_activity(self, channel: FakeChannel, *users: FakeUser) -> str:
        instance = Instance(id=f"i-{secrets.token_hex(6)}", channel=channel, users=[user.id for user in users])
        self.instances[instance.id] = instance
        return instance.id

    def join_activity(self, instance_id: str, user: FakeUser) -> None:
        self.instances[instance_id].users.append(user.id)

    def routes(self) -> list[tuple[str, str, object]]:
        return [("POST", "/oauth2/token", self.token),
                ("GET", "/applications/{app_id}/activity-instances/{instance_id}", self.instance)]

    async def token(self, request: web.Request) -> web.Response:
        form = await request.post()
        code = str(form.get("code", ""))
        granted = self.codes.pop(code, None)
        if (form.get("client_id") != self.client_id or form.get("client_secret") != self.client_secret):
            self.exchanges.append((code, 401))
            return web.json_response({"error": "invalid_client"}, status=401)
        if form.get("grant_type") != "authorization_code" or granted is None:
            self.exchanges.append((code, 400))
            return web.json_response({"error": "invalid_grant", "error_description": 'Invalid "code" in request.'},
                                     status=400)
        access = secrets.token_urlsafe(24)
        self.tokens[access] = granted[0]
        self.exchanges.append((code, 200))
        return web.json_response({"access_token": access, "token_type": "Bearer", "expires_in": 604800,
                                  "refresh_token": secrets.token_urlsafe(24), "scope": " ".join(granted[1])})

    def bearer_user(self, request: web.Request) -> web.Response:
        """`GET /users/@me` with a bearer token: its user, or 401."""
        token = request.headers.get("Authorization", "").removeprefix("Bearer ")
        user_id = self.tokens.get(token)
        if user_id is None:
            raise errors.DiscordHTTPError(401, 0, "401: Unauthorized")
        return web.json_response(payloads.user(self.world.users[user_id]))

    async def instance(self, request: web.Request) -> web.Response:
        found = self.instances.get(request.match_info["instance_id"])
        if found is None or request.match_info["app_id"] != self.client_id:
            raise errors.unknown("Activity instance", 10070)
        channel = found.channel
        return web.json_response({
            "application_id": self.client_id, "instance_id": found.id, "launch_id": found.id,
            "location": {"id": f"gc-{channel.id}", "kind": "gc", "channel_id": str(channel.id),
                         "guild_id": str(channel.guild_id) if channel.guild_id else None},
            "users": [str(user) for user in found.users]})
