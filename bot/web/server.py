"""The web server inside the bot process: routes, the live stream, and its start and stop with the bot.

It runs on the aiohttp that discord.py already brings, on WEB_HOST:WEB_PORT, and only when WEB_PORT is
set. Every page, stylesheet and script comes from this package (no CDN: a page works on a machine
without internet), and the Content-Security-Policy lets a page load nothing from anywhere else.

- `/watch/<game>.<signature>`: a game's public page (`state`, `events`, `board.png` below it); once the game
  has ended, its step-through (`steps`, `step/<n>.png`: bot.web.history).
- `/leaderboard/<server>.<signature>`: a server's leaderboard with each player's rating chart (bot.web.leaderboard).
- `/play/<token>`: a player's personal page (`state`, `events`, and `press` to act); his own part is in words
  on the public board's page (bot.web.pages), so it has no picture of its own.

A page's live updates are server-sent events: the whole payload again at each change (a few kB),
so a page that reconnects is simply up to date. A personal page's stream checks its link at every
change and when the link expires, and is told so and closed when the link was revoked or has expired.
Access logs are off: a personal link is a password and must not end up in a log.

An address that does not work, personal (forged, expired, replaced, not his game) or public (forged, or its
game gone), opens one error page saying why, with the refusal's status (403, 404) kept rather than a soft 200:
a browser notes that status in its console for the page itself, and that is the only line it notes (the icon
is served, every script runs clean: tests/e2e/test_web_e2e.py). Its `state`, `events` and `press` answer JSON.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import json
import logging
from collections.abc import Awaitable, Callable
from importlib import resources
from typing import Any

from aiohttp import web

from bot.play.host import STALE_BUTTON, Host, MoveOutcome, UserError
from bot.presentation.frontend import AnswerRefused
from bot.presentation.replays import replayable
from bot.presentation.words import APOLOGY
from bot.runtime.gate import RESTARTING, Gate
from bot.runtime.metrics import METRICS
from bot.storage.storage_errors import StorageError
from bot.storage.store import SessionRecord
from bot.web.feed import Feed
from bot.web.history import History, NoHistory
from bot.web.leaderboard import NotRated, chart_picture, leaderboard_page
from bot.web.links import BadLink, Links, Pass
from bot.web.page_text import page_refusal
from bot.web.pages import Pages
from bot.web.play import press
from games.core import IllegalMove

PAGE_WORDS = {STALE_BUTTON: "The game moved on since this page showed that choice: the choices shown now are "
                            "the current ones."}
"""Refusals that speak of Discord's messages and commands, as a page says them."""


def page_words(refusal: UserError | IllegalMove) -> str:
    """A refusal as a page says it: a form's answer it cannot read is corrected in the page's form, which stays
    open (Discord's closes: its words say to open it again)."""
    if isinstance(refusal, AnswerRefused):
        return f"{refusal.problem}: {refusal.how}, and press **Send** again."
    return PAGE_WORDS.get(refusal.message, refusal.message)

log = logging.getLogger(__name__)

HEARTBEAT_SECONDS = 15.0
"""A comment line on every idle stream this often, so proxies and browsers keep it open."""
RETRY_SECONDS = 2.0
"""How soon a stream reads its game again after the database failed to answer."""
RECONNECT_MS = 1000
"""How soon a page whose stream broke (the bot restarting, a network hiccup) tries again: browsers wait 3 s
by default; a second is enough for a restart to be noticed without hammering a bot that is down."""
STATIC = {"parlor.css": "text/css", "parlor.js": "text/javascript", "history.js": "text/javascript",
          "favicon.png": "image/png"}
"""What `/static/` serves, with its type. The icon (a die's five, 32 px, drawn once with Pillow) is declared by every
page (`<link rel=icon>`) and also answers `/favicon.ico`, which a browser asks for where no page declared one:
a 404 there is a console error on every page."""
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'none'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
                               "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
}
NO_GAME = "That game no longer exists."
ShowMove = Callable[[MoveOutcome], Awaitable[None]]


class WebServer:
    """The pages of one bot process over its host."""

    def __init__(self, host: Host, links: Links, *, show_move: ShowMove, gate: Gate | None = None,
                 link_hours: float = 72.0, poll_seconds: float | None = None) -> None:
        self.host = host
        self.links = links
        self.pages = Pages(host)
        self.history = History(host, self.pages.logs)
        self.feed = Feed(host.store.watched, clock=lambda: self.host.clock(),
                         **({"poll_seconds": poll_seconds} if poll_seconds else {}))
        self.show_move = show_move
        self.gate = gate or Gate()
        self.link_hours = link_hours
        self._closing = False
        self._runner: web.AppRunner | None = None
        self.port: int | None = None
        self.base_url = ""
        self.mounts: list[Callable[[web.Application], None]] = []
        """Other windows' routes on this server (bot.activity)."""
        self.frame_home: Callable[[web.Request], Awaitable[web.StreamResponse]] | None = None
        """What `/` serves when Discord opens it as an Activity (its `frame_id` in the query)."""

    # -- start and stop ------------------------------------------------------------

    def app(self) -> web.Application:
        app = web.Application(middlewares=[_headers])
        app.add_routes([
            web.get("/", self._home),
            web.get("/favicon.ico", self._icon),
            web.get("/static/{name}", self._static),
            web.get("/watch/{key}", self._watch_page),
            web.get("/watch/{key}/state", self._watch_state),
            web.get("/watch/{key}/events", self._watch_events),
            web.get("/watch/{key}/board.png", self._board),
            web.get("/watch/{key}/steps", self._steps),
            web.get(r"/watch/{key}/step/{index:\d+}.png", self._step_picture),
            web.get("/leaderboard/{key}", self._leaderboard),
            web.get("/leaderboard/{key}/chart/{slug}/{player}.png", self._chart),
            web.get("/play/{token}", self._play_page),
            web.get("/play/{token}/state", self._play_state),
            web.get("/play/{token}/events", self._play_events),
            web.post("/play/{token}/press", self._press),
        ])
        for mount in self.mounts:
            mount(app)
        return app

    async def start(self, host: str, port: int, base_url: str | None = None) -> None:
        """Listen on host:port (0: any free port); links point at `base_url` (WEB_BASE_URL), else here."""
        self._closing = False
        self._runner = web.AppRunner(self.app(), access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, host, port)
        await site.start()
        server = getattr(site, "_server", None)
        sockets = getattr(server, "sockets", None) or []
        self.port = sockets[0].getsockname()[1] if sockets else port
        self.base_url = (base_url or f"http://{host}:{self.port}").rstrip("/")
        self.feed.start()
        log.info("web pages on http://%s:%s", host, self.port)

    async def stop(self) -> None:
        """Close the open streams, then the server (before the store closes)."""
        self._closing = True
        await self.feed.stop()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    def poke(self, session: SessionRecord) -> None:
        """A game changed in this process: its open pages update now, not at the next poll."""
        self.feed.poke(session.id)

    # -- addresses -------------------------------------------------------------------

    def watch_path(self, session_id: int) -> str:
        return f"/watch/{self.links.watch_key(session_id)}"

    def leaderboard_path(self, guild_id: str) -> str:
        return f"/leaderboard/{self.links.leaderboard_key(guild_id)}"

    async def play_path(self, session_id: int, player: str) -> str:
        """A new personal address for `player`; his older ones for this game stop working."""
        token, _ = await self.links.issue(session_id, player, now=self.host.clock(), hours=self.link_hours)
        return f"/play/{token}"

    # -- the public page ----------------------------------------------------------------

    async def _watched(self, request: web.Request) -> SessionRecord:
        try:
            session_id = self.links.watched_session(request.match_info["key"])
            return await self.pages.fresh(session_id)
        except BadLink as error:
            raise _refused(404, error.message) from None
        except UserError:
            raise _refused(404, NO_GAME) from None

    async def _watch_page(self, request: web.Request) -> web.Response:
        try:
            session = await self._watched(request)
        except web.HTTPException as refused:
            return _refusal_page(request, refused, personal=False)
        return _page(f"{_title(session)}: watch", request.path, personal=False)

    async def _watch_state(self, request: web.Request) -> web.Response:
        session = await self._watched(request)
        return _json(await self.public_payload(session, request.path.rsplit("/", 1)[0]))

    async def _watch_events(self, request: web.Request) -> web.StreamResponse:
        session = await self._watched(request)
        base = request.path.rsplit("/", 1)[0]

        async def payload() -> dict:
            return await self.public_payload(await self.pages.fresh(session.id), base)

        return await self.stream(request, session.id, payload)

    async def _board(self, request: web.Request) -> web.Response:
        session = await self._watched(request)
        if session.state is None:
            raise _refused(404, "This game has not begun: it has no board yet.")
        png = await self.pages.board(session)
        return web.Response(body=png, content_type="image/png", headers={"Cache-Control": "no-cache"})

    async def _steps(self, request: web.Request) -> web.Response:
        session = await self._watched(request)
        try:
            return _json(await self.history.steps(session, f"{request.path.rsplit('/', 1)[0]}/step"))
        except NoHistory as error:
            raise _refused(404, str(error)) from None

    async def _step_picture(self, request: web.Request) -> web.Response:
        session = await self._watched(request)
        try:
            png = await self.history.picture(session, int(request.match_info["index"]))
        except NoHistory as error:
            raise _refused(404, str(error)) from None
        # An ended game's step never changes (the address carries its version).
        return web.Response(body=png, content_type="image/png", headers={"Cache-Control": "max-age=86400"})

    # -- the leaderboard ------------------------------------------------------------------

    def _board_guild(self, request: web.Request) -> str:
        try:
            return self.links.leaderboard_guild(request.match_info["key"])
        except BadLink as error:
            raise _refused(404, error.message) from None

    async def _leaderboard(self, request: web.Request) -> web.Response:
        guild_id = self._board_guild(request)
        text = await leaderboard_page(self.host.store, guild_id, request.path)
        return web.Response(text=text, content_type="text/html", headers={"Cache-Control": "no-store"})

    async def _chart(self, request: web.Request) -> web.Response:
        guild_id = self._board_guild(request)
        try:
            chart = await chart_picture(self.host.store, guild_id, request.match_info["slug"],
                                        request.match_info["player"])
        except NotRated as error:
            raise _refused(404, str(error)) from None
        return web.Response(body=chart.png, content_type="image/png", headers={"Cache-Control": "no-cache"})

    # -- a player's page ------------------------------------------------------------------

    async def _granted(self, request: web.Request) -> tuple[Pass, SessionRecord]:
        try:
            granted = await self.links.check(request.match_info["token"], now=self.host.clock())
            session = await self.pages.fresh(granted.session_id)
        except BadLink as error:
            raise _refused(403, error.message) from None
        except UserError:
            raise _refused(404, NO_GAME) from None
        if granted.player not in session.player_ids:
            raise _refused(403, "You are not playing in this game: ask for its public page with `/game web`.")
        return granted, session

    def _board_url(self, session_id: int) -> str:
        return f"{self.watch_path(session_id)}/board.png"

    async def _play_page(self, request: web.Request) -> web.Response:
        try:
            _, session = await self._granted(request)
        except web.HTTPException as refused:
            return _refusal_page(request, refused, personal=True)
        return _page(f"{_title(session)}: your page", request.path, personal=True)

    async def _play_state(self, request: web.Request) -> web.Response:
        granted, session = await self._granted(request)
        return _json(await self.personal_payload(session, granted.player, self._board_url(session.id)))

    async def _play_events(self, request: web.Request) -> web.StreamResponse:
        granted, session = await self._granted(request)
        board_url = self._board_url(session.id)
        token = request.match_info["token"]

        async def payload() -> dict:
            await self.links.check(token, now=self.host.clock())
            return await self.personal_payload(await self.pages.fresh(session.id), granted.player, board_url)

        return await self.stream(request, session.id, payload, expires=granted.expires)

    async def _press(self, request: web.Request) -> web.Response:
        if self.restarting:
            return _json({"error": RESTARTING}, status=503)
        granted, session = await self._granted(request)
        return await self.play(request, session, granted.player)

    @property
    def restarting(self) -> bool:
        return not self.gate.open or self._closing

    async def play(self, request: web.Request, session: SessionRecord, player: str) -> web.Response:
        """`player`'s press in `session`, as the request's JSON body says, through the host (a page's, an
        Activity's)."""
        if self.restarting:
            return _json({"error": RESTARTING}, status=503)
        try:
            body = await request.json()
        except ValueError:
            body = None
        with self.gate.passage():
            try:
                answer = await press(self.host, session, player, body, self._moved)
            except (UserError, IllegalMove) as refusal:
                said = page_words(refusal)
                # The version judged: the page keeps the refusal on screen until the game moves past it.
                named = {seat.id: seat.name for seat in session.players}
                return _json({"error": page_refusal(said, named), "version": session.version}, status=409)
            except StorageError as error:
                return _json({"error": error.reply}, status=503)
            except Exception:
                log.exception("a press on the web page of session %s failed", session.id)
                return _json({"error": APOLOGY}, status=500)
        return _json(answer)

    async def _moved(self, outcome: MoveOutcome) -> None:
        self.feed.poke(outcome.session.id)
        try:
            await self.show_move(outcome)
        except Exception:
            log.exception("could not show the web move of session %s in Discord", outcome.session.id)

    # -- what a page is sent ----------------------------------------------------------------

    async def public_payload(self, session: SessionRecord, base: str) -> dict:
        page = await self.pages.public(session, f"{base}/board.png")
        # An ended game's public page steps through it (bot.web.history); a player's page does not.
        steps = f"{base}/steps?v={session.version}" if replayable(session) is None else None
        return await self._followed(session, {**page, "history": steps})

    async def personal_payload(self, session: SessionRecord, player: str, board_url: str) -> dict:
        return await self._followed(session, await self.pages.personal(session, player, board_url))

    async def _followed(self, session: SessionRecord, page: dict) -> dict:
        """The page, and its game's rematch once begun: the rematch's public page, which whoever sees this page
        may see (a player's own page of it is his to ask for with `/game web`: no link leads into a private
        view, nor lets a personal link someone was shown reach the next game)."""
        rematch = await self.host.rematch_after(session)
        followed = None if rematch is None else {"title": _title(rematch), "url": self.watch_path(rematch.id)}
        return {**page, "rematch": followed}

    # -- the live stream ---------------------------------------------------------------------

    async def stream(self, request: web.Request, session_id: int, payload: Callable[[], Awaitable[dict]],
                      expires: float | None = None) -> web.StreamResponse:
        """Server-sent events: the page's payload now and after every change of the game (and when its link
        `expires`, so that the page is told at once)."""
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream", "Cache-Control": "no-store",
                                               "X-Accel-Buffering": "no"})
        await response.prepare(request)
        await response.write(f"retry: {RECONNECT_MS}\n\n".encode())
        listener = self.feed.listen(session_id, expires)
        METRICS.web_pages_open.inc()
        last = ""
        try:
            changed = True
            while not self._closing:
                retry = False
                if changed:
                    try:
                        data = json.dumps(await payload(), separators=(",", ":"))
                    except BadLink as error:
                        await response.write(_event("refused", json.dumps({"error": error.message})))
                        break
                    except UserError:
                        await response.write(_event("refused", json.dumps({"error": NO_GAME})))
                        break
                    except StorageError:
                        log.warning("could not read session %s for its web pages; trying again", session_id)
                        data, retry = last, True
                    if data != last:
                        await response.write(_event("state", data))
                        last = data
                else:
                    await response.write(b": still here\n\n")
                changed = await listener.wait(RETRY_SECONDS if retry else HEARTBEAT_SECONDS) or retry
        except (ConnectionResetError, asyncio.CancelledError):
            pass
        finally:
            METRICS.web_pages_open.dec()
            self.feed.leave(listener)
        with contextlib.suppress(ConnectionResetError):
            await response.write_eof()
        return response

    # -- small pages ------------------------------------------------------------------------

    async def _home(self, request: web.Request) -> web.StreamResponse:
        if self.frame_home is not None and "frame_id" in request.query:
            return await self.frame_home(request)
        return web.Response(text="Parlor's game pages. Ask for a game's link with /game web in its Discord "
                                 "channel.\n", content_type="text/plain")

    async def _static(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        if name not in STATIC:
            raise web.HTTPNotFound()
        return _static_file(name)

    async def _icon(self, request: web.Request) -> web.Response:
        return _static_file("favicon.png")


def _static_file(name: str) -> web.Response:
    body = resources.files("bot.web").joinpath("static", name).read_bytes()
    return web.Response(body=body, content_type=STATIC[name], charset=None if name.endswith(".png") else "utf-8",
                        headers={"Cache-Control": "max-age=3600"})


@web.middleware
async def _headers(request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
                   ) -> web.StreamResponse:
    try:
        response = await handler(request)
    except web.HTTPException as error:
        _secure(error.headers)
        raise
    if not response.prepared:
        _secure(response.headers)
    return response


def _secure(headers: Any) -> None:
    """The security headers, but those a window set itself (the Activity's CSP lets Discord frame it)."""
    for name, value in SECURITY_HEADERS.items():
        headers.setdefault(name, value)


def _refused(status: int, message: str) -> web.HTTPException:
    kind = {403: web.HTTPForbidden, 404: web.HTTPNotFound}[status]
    return kind(text=json.dumps({"error": message}), content_type="application/json",
                headers={"Cache-Control": "no-store"})


def _json(data: Any, status: int = 200) -> web.Response:
    return web.json_response(data, status=status, headers={"Cache-Control": "no-store"})


def _event(name: str, data: str) -> bytes:
    return f"event: {name}\ndata: {data}\n\n".encode()


def _title(session: SessionRecord) -> str:
    from games import get_game

    return f"{get_game(session.slug).title} #{session.id}"


def _refusal_page(request: web.Request, refused: web.HTTPException, *, personal: bool) -> web.Response:
    """A page whose address does not work (a bad, expired or revoked personal link, a public address forged or of a
    game that is gone): one error page, saying why, with the refusal's status."""
    return _page("Parlor: this link does not work", request.path, personal=personal,
                 refusal=json.loads(refused.text or "{}").get("error", ""), status=refused.status)


def _page(title: str, base: str, *, personal: bool, refusal: str = "", status: int = 200) -> web.Response:
    """The page's HTML: a skeleton the script fills from the stream (and a refusal, when the link fails)."""
    text = PAGE.format(title=html.escape(title), base=html.escape(base, quote=True),
                       kind="personal" if personal else "public",
                       refusal=html.escape(refusal), refused_hidden="" if refusal else " hidden")
    return web.Response(text=text, content_type="text/html", status=status, headers={"Cache-Control": "no-store"})


PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>{title}</title>
<link rel="icon" type="image/png" href="/static/favicon.png">
<link rel="stylesheet" href="/static/parlor.css">
<script src="/static/parlor.js" defer></script>
<script src="/static/history.js" defer></script>
</head>
<body data-base="{base}" data-kind="{kind}">
<header>
<h1 id="title">{title}</h1>
<p id="turn" role="status" aria-live="polite"></p>
<p id="rematch" role="status" aria-live="polite" hidden></p>
</header>
<main>
<p id="refusal" class="refusal" role="alert"{refused_hidden}>{refusal}</p>
<section aria-labelledby="board-heading">
<h2 id="board-heading">The table</h2>
<p id="headline"></p>
<img id="board" alt="The board: described in words below" aria-describedby="board-text" hidden>
<section id="you" class="yours" aria-labelledby="you-heading" hidden>
<h3 id="you-heading"></h3>
<p id="private-text" class="text"></p>
</section>
<section id="choices" class="yours" aria-labelledby="choices-heading" hidden>
<h3 id="choices-heading">Your move</h3>
<p id="prompt"></p>
<div id="controls"></div>
</section>
<p id="error" class="refusal" role="alert"></p>
<p id="done" role="status" aria-live="polite"></p>
<p id="board-text" class="text"></p>
<p id="dice" class="text"></p>
</section>
<section id="history" aria-labelledby="history-heading" hidden>
<h2 id="history-heading">The game, step by step</h2>
<div class="buttons" role="group" aria-label="Step through the game">
<button type="button" id="step-first" class="secondary" aria-label="First step">⏮ First</button>
<button type="button" id="step-previous" class="secondary" aria-label="Previous step">◀ Previous</button>
<button type="button" id="step-next" class="secondary" aria-label="Next step">Next ▶</button>
<button type="button" id="step-last" class="secondary" aria-label="Last step">Last ⏭</button>
</div>
<label for="step-slider" id="step-label">Step</label>
<input type="range" id="step-slider" min="0" max="0" value="0" aria-describedby="step-line">
<p class="hint-line">The ← and → keys step too. <a id="step-link" href="">Link to this step</a></p>
<p id="step-line" role="status" aria-live="polite" aria-atomic="true"></p>
<figure>
<img id="step-board" alt="The board at this step: described in words below" aria-describedby="step-text">
<figcaption id="step-text" class="text"></figcaption>
</figure>
<p id="step-dice"></p>
<ul id="step-narration"></ul>
</section>
<section aria-labelledby="narration-heading">
<h2 id="narration-heading">Since the turn changed</h2>
<ul id="narration"></ul>
</section>
<section aria-labelledby="log-heading">
<h2 id="log-heading">Move log</h2>
<ul id="log" class="log"></ul>
</section>
</main>
<footer><p id="connection" role="status">Connecting…</p></footer>
<noscript><p>This page needs JavaScript to show the game live.</p></noscript>
</body>
</html>
"""
