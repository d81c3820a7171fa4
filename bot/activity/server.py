"""The Activity's routes on the web server's app: its page, Discord's sign-in, and the table of its channel.

- `/activity` (and `/` when Discord opens it, with `frame_id` in the query): the page. Its script runs Discord's
  Embedded App SDK (`static/discord-embedded-app-sdk.js`, shipped here: nothing is loaded from elsewhere).
- `POST /activity/api/session`: the SDK's one-time code, the instance and its channel; answers a pass
  (bot.activity.identity) and the access token the page hands back to the SDK's `authenticate`.
- `/activity/api/<pass>/state|events|board.png`, `POST .../press`: the table of the pass's channel,
  built, streamed and played exactly as the web page's (bot.web.server): a player of the game gets his personal
  payload and his choices, anyone else the public one.

Every route is served under `/.proxy` too: inside Discord, requests to the Activity's own server go through
Discord's proxy at `/.proxy/...`, and a URL mapping may pass that prefix on. The page's CSP lets only Discord
(and the origins `ACTIVITY_FRAME_ANCESTORS` adds) frame it.
"""

from __future__ import annotations

import html
import logging
from collections.abc import Awaitable, Callable
from importlib import resources

from aiohttp import web

from bot.activity.identity import REOPEN, ActivityPass, DiscordIdentity, Passes, Refused
from bot.play.host import UserError
from bot.storage.store import SessionRecord
from bot.web.links import BadLink
from bot.web.server import PAGE, WebServer

log = logging.getLogger(__name__)

DISCORD_FRAMES = ("https://discord.com", "https://*.discord.com", "https://discordapp.com",
                  "https://*.discordapp.com", "https://*.discordsays.com")
"""Who may frame the Activity: Discord's web and desktop clients, and its Activity proxy."""
STATIC = {"activity.js": "text/javascript", "discord-embedded-app-sdk.js": "text/javascript",
          "LICENSES.txt": "text/plain"}
PREFIXES = ("", "/.proxy")
NO_TABLE = "There is no game in this channel yet: start one with `/game start`, then open the Activity again."
NEW_GAME = "A new game began in this channel: close the Activity and open it again to follow it."
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def csp(frame_ancestors: tuple[str, ...]) -> str:
    return ("default-src 'none'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; "
            f"base-uri 'self'; form-action 'none'; frame-ancestors {' '.join(frame_ancestors)}")


class Activity:
    """Parlor's table as a Discord Activity, served by `web`."""

    def __init__(self, web_server: WebServer, identity: DiscordIdentity, passes: Passes, *,
                 frame_ancestors: tuple[str, ...] = (), pass_hours: float = 72.0) -> None:
        self.web = web_server
        self.identity = identity
        self.passes = passes
        self.pass_hours = pass_hours
        self.headers = {"Content-Security-Policy": csp((*DISCORD_FRAMES, *frame_ancestors))}
        web_server.mounts.append(self.mount)
        web_server.frame_home = self._page

    def mount(self, app: web.Application) -> None:
        routes: list[tuple[str, str, Handler]] = [
            ("GET", "/activity", self._page),
            ("GET", "/activity/", self._page),
            ("GET", "/activity/static/{name}", self._static),
            ("POST", "/activity/api/session", self._sign_in),
            ("GET", "/activity/api/{pass}/state", self._state),
            ("GET", "/activity/api/{pass}/events", self._events),
            ("GET", "/activity/api/{pass}/board.png", self._board),
            ("POST", "/activity/api/{pass}/press", self._press),
        ]
        for prefix in PREFIXES:
            for method, path, handler in routes:
                app.router.add_route(method, prefix + path, self._framed(handler))

    def _framed(self, handler: Handler) -> Handler:
        async def framed(request: web.Request) -> web.StreamResponse:
            try:
                response = await handler(request)
            except web.HTTPException as error:
                error.headers.update(self.headers)
                raise
            except Refused as refusal:
                response = _json({"error": refusal.message}, status=refusal.status)
            if not response.prepared:
                response.headers.update(self.headers)
            return response
        return framed

    # -- the page ------------------------------------------------------------------------------

    async def _page(self, request: web.Request) -> web.Response:
        text = PAGE.format(title="Parlor", base="", kind="public", refusal="", refused_hidden=" hidden")
        text = text.replace('<script src="/static/parlor.js" defer></script>',
                            '<script src="/activity/static/discord-embedded-app-sdk.js" defer></script>\n'
                            '<script src="/activity/static/activity.js" defer></script>')
        text = text.replace('<body data-base="" data-kind="public">',
                            f'<body data-base="" data-kind="public" data-client-id="'
                            f'{html.escape(self.identity.client_id, quote=True)}">')
        text = text.replace("Connecting…", "Connecting to Discord…")
        return web.Response(text=text, content_type="text/html", headers={"Cache-Control": "no-store",
                                                                          **self.headers})

    async def _static(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        if name not in STATIC:
            raise web.HTTPNotFound()
        text = resources.files("bot.activity").joinpath("static", name).read_text(encoding="utf-8")
        return web.Response(text=text, content_type=STATIC[name], headers={"Cache-Control": "max-age=3600"})

    # -- Discord's sign-in ---------------------------------------------------------------------

    async def _sign_in(self, request: web.Request) -> web.Response:
        """The SDK's code → Discord's token → the user; the instance must run in the channel named, with him in it."""
        try:
            body = await request.json()
        except ValueError:
            body = None
        fields = [body.get(key) if isinstance(body, dict) else None for key in ("code", "instance_id", "channel_id")]
        if not all(isinstance(value, str) and value for value in fields):
            raise Refused(f"That is not a sign-in from Discord. {REOPEN}", 400)
        code, instance_id, channel_id = fields
        access_token = await self.identity.exchange(code)
        user = await self.identity.user(access_token)
        instance = await self.identity.instance(instance_id)
        if instance.channel != channel_id:
            raise Refused(f"This Activity was opened in another channel than the one it asks for. {REOPEN}")
        if user not in instance.users:
            raise Refused(f"Discord does not list you in this Activity. {REOPEN}")
        expires = int(self.web.host.clock() + self.pass_hours * 3600)
        token = self.passes.issue(ActivityPass(user, channel_id, instance_id, expires))
        return _json({"pass": token, "access_token": access_token, "user": user,
                      "playing": await self._playing(channel_id, user)})

    async def _playing(self, channel_id: str, user: str) -> bool:
        try:
            session = await self.web.host.last_session_in(channel_id)
        except UserError:
            return False
        return user in session.player_ids

    # -- the table of the pass's channel -----------------------------------------------------------

    async def _table(self, request: web.Request) -> tuple[ActivityPass, SessionRecord]:
        granted = self.passes.check(request.match_info["pass"], now=self.web.host.clock())
        try:
            session = await self.web.host.last_session_in(granted.channel)
            return granted, await self.web.pages.fresh(session.id)
        except UserError:
            raise Refused(NO_TABLE, 404) from None

    async def _payload(self, granted: ActivityPass, session: SessionRecord) -> dict:
        if granted.user in session.player_ids:
            page = await self.web.personal_payload(session, granted.user, "board.png")
        else:
            page = await self.web.public_payload(session, "")
            page["board"] = page["board"] and page["board"].lstrip("/")
        # The Activity follows its channel's table: a rematch shows here by itself (a link would lead out).
        return {**page, "rematch": None}

    async def _state(self, request: web.Request) -> web.Response:
        return _json(await self._payload(*await self._table(request)))

    async def _events(self, request: web.Request) -> web.StreamResponse:
        granted, session = await self._table(request)
        token = request.match_info["pass"]

        async def payload() -> dict:
            again, fresh = await self._table_of(token)
            if fresh.id != session.id:
                raise BadLink(NEW_GAME)
            return await self._payload(again, fresh)

        return await self.web.stream(request, session.id, payload, expires=granted.expires)

    async def _table_of(self, token: str) -> tuple[ActivityPass, SessionRecord]:
        try:
            granted = self.passes.check(token, now=self.web.host.clock())
        except Refused as refusal:
            raise BadLink(refusal.message) from None
        session = await self.web.host.last_session_in(granted.channel)
        return granted, await self.web.pages.fresh(session.id)

    async def _board(self, request: web.Request) -> web.Response:
        _, session = await self._table(request)
        if session.state is None:
            raise Refused("This game has not begun: it has no board yet.", 404)
        png = await self.web.pages.board(session)
        return web.Response(body=png, content_type="image/png", headers={"Cache-Control": "no-cache"})

    async def _press(self, request: web.Request) -> web.Response:
        granted, session = await self._table(request)
        if granted.user not in session.player_ids:
            raise Refused("You are watching this game: only its players can play from here.")
        return await self.web.play(request, session, granted.user)


def _json(data: object, status: int = 200) -> web.Response:
    return web.json_response(data, status=status, headers={"Cache-Control": "no-store"})


