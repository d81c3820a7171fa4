"""Who is in the Activity, asked of Discord, and the signed pass that binds a page to him and to one channel.

Discord's OAuth2 for an Activity: the page's Embedded App SDK gets a one-time code (`authorize`, scope
`identify`); this server exchanges it at Discord's `/oauth2/token` with the client secret (which never reaches
the page), reads the user from `/users/@me` with the token, and asks Discord where the Activity instance runs and
who is in it (`/applications/{app}/activity-instances/{id}`, with the bot's token). Only then is a pass issued:
the user, the channel and the instance, signed with the web links' secret, expiring like a personal web link.
A used, forged or foreign code, a user who is not in that instance, or an instance of another channel is
`Refused` with words that say what to do, and nothing is issued.
"""

from __future__ import annotations

import hmac
from dataclasses import dataclass
from typing import Any

import aiohttp

from bot.web.links import Links, b64, unb64

DISCORD_API = "https://discord.com/api/v10"
REOPEN = "Close the Activity and open it again from the game's table (Play in Discord)."


class Refused(Exception):
    """A sign-in or pass that opens nothing; `message` says why and what to do."""

    def __init__(self, message: str, status: int = 403) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


@dataclass(frozen=True)
class ActivityPass:
    """What a valid pass grants: `user` sees the table of `channel`, from Activity `instance`, until `expires`."""

    user: str
    channel: str
    instance: str
    expires: int


class Passes:
    """Signs and checks the Activity's passes."""

    def __init__(self, links: Links) -> None:
        self._links = links

    def _sign(self, body: str) -> str:
        return self._links.sign("activity", body)

    def issue(self, granted: ActivityPass) -> str:
        body = f"{granted.user}.{granted.channel}.{granted.instance}.{granted.expires}"
        return f"{b64(body.encode())}.{self._sign(body)}"

    def check(self, token: str, *, now: float) -> ActivityPass:
        encoded, _, signature = token.partition(".")
        try:
            body = unb64(encoded).decode()
            user, channel, instance, expires = body.split(".")
            granted = ActivityPass(user, channel, instance, int(expires))
        except (ValueError, UnicodeDecodeError):
            raise Refused(f"This Activity's sign-in is not valid. {REOPEN}") from None
        if not hmac.compare_digest(signature, self._sign(body)):
            raise Refused(f"This Activity's sign-in is not valid. {REOPEN}")
        if now >= granted.expires:
            raise Refused(f"This Activity's sign-in has expired. {REOPEN}")
        return granted


@dataclass(frozen=True)
class Instance:
    channel: str
    users: frozenset[str]


class DiscordIdentity:
    """Discord's OAuth2 and Activity-instance endpoints, as this application."""

    def __init__(self, client_id: str, client_secret: str, bot_token: str, api_base: str | None = None) -> None:
        self.client_id = client_id
        self._client_secret = client_secret
        self._bot_token = bot_token
        self.api_base = (api_base or DISCORD_API).rstrip("/")
        self._http: aiohttp.ClientSession | None = None

    def _session(self) -> aiohttp.ClientSession:
        if self._http is None or self._http.closed:
            self._http = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=10))
        return self._http

    async def close(self) -> None:
        if self._http is not None:
            await self._http.close()

    async def _ask(self, method: str, path: str, **kwargs: Any) -> tuple[int, Any]:
        try:
            async with self._session().request(method, self.api_base + path, **kwargs) as response:
                data = await response.json(content_type=None)
                return response.status, data
        except (aiohttp.ClientError, TimeoutError, ValueError):
            raise Refused("Discord could not be reached to check who you are: try again in a moment.", 503) from None

    async def exchange(self, code: str) -> str:
        """The access token for a one-time `code`; a used, forged or another application's code is refused."""
        status, data = await self._ask("POST", "/oauth2/token", data={
            "client_id": self.client_id, "client_secret": self._client_secret,
            "grant_type": "authorization_code", "code": code})
        if status != 200 or not isinstance(data, dict) or not isinstance(data.get("access_token"), str):
            raise Refused(f"Discord did not accept this sign-in (it was already used, or is not valid). {REOPEN}")
        return data["access_token"]

    async def user(self, access_token: str) -> str:
        """The id of the user the token is for."""
        status, data = await self._ask("GET", "/users/@me", headers={"Authorization": f"Bearer {access_token}"})
        if status != 200 or not isinstance(data, dict) or not str(data.get("id", "")).isdigit():
            raise Refused(f"Discord did not say who you are. {REOPEN}")
        return str(data["id"])

    async def instance(self, instance_id: str) -> Instance:
        """Where the Activity instance runs and who is in it."""
        status, data = await self._ask("GET", f"/applications/{self.client_id}/activity-instances/{instance_id}",
                                       headers={"Authorization": f"Bot {self._bot_token}"})
        location = data.get("location") if isinstance(data, dict) else None
        if status != 200 or not isinstance(location, dict):
            raise Refused(f"Discord does not know this Activity. {REOPEN}")
        return Instance(str(location.get("channel_id")), frozenset(str(user) for user in data.get("users") or ()))
