"""The Discord client: connects, loads the cogs, registers persistent buttons, syncs commands.

`create_bot` picks the kind of process from the settings: a plain `commands.Bot` (one connection, every
guild) when SHARD_COUNT is unset, or an AutoShardedBot over SHARD_IDS of SHARD_COUNT shards, so several
processes can split a large bot's guilds between them (Discord sends each guild's events to shard
`(guild_id >> 22) % SHARD_COUNT`, so every guild's interactions reach exactly one process).
"""

from __future__ import annotations

import asyncio
import logging
import pkgutil

import discord
import yarl
from discord import app_commands
from discord.ext import commands

import cogs
from bot.activity.identity import DiscordIdentity, Passes
from bot.activity.server import Activity
from bot.config import Settings
from bot.discord import presses, replays  # noqa: F401  (they register their press handlers: bot.discord.dispatch)
from bot.discord.actions import refuse, show_ai_move, tell_storage_trouble
from bot.discord.activity_launch import PlayInDiscordButton
from bot.discord.autoplay_note import show_autoplayed
from bot.discord.buttons import ActionButton, LobbyButton, ReplayButton, TableButton, UndoButton
from bot.discord.command_sync import sync_if_changed
from bot.discord.digest_note import DiscordDigest
from bot.discord.dm_reach import DmReach
from bot.discord.foresight import Foresight
from bot.discord.notices import DiscordNotices
from bot.discord.panels import Panels
from bot.discord.private_notes import PrivateNotes
from bot.discord.private_presses import PrivatePresses
from bot.discord.share import ShareButton
from bot.discord.table import Tables
from bot.ops.checks import database_check, games_running, gateway_connected
from bot.ops.rest import remember_routes, rest_trace
from bot.ops.server import Checks, OpsServer
from bot.play.ai_player import AiPlayer
from bot.play.autoplay import Autoplay
from bot.play.digest import DigestSender
from bot.play.host import Host, UserError
from bot.play.timers import TurnDispatcher
from bot.play.turn_clock import Periods
from bot.presentation.words import APOLOGY
from bot.runtime.collector import QuietCollector, set_aside_start_up
from bot.runtime.gate import Gate
from bot.runtime.metrics import LoopLag
from bot.storage.storage_errors import StorageError
from bot.storage.store import SessionRecord, Store
from bot.web.links import Links
from bot.web.server import WebServer

log = logging.getLogger(__name__)
IN_FLIGHT_GRACE = 10.0
"""Seconds a shutdown waits for interactions in flight to finish."""
DISCORD_CLOSE_TIMEOUT = 5.0

def cog_extensions() -> list[str]:
    """Every module in `cogs/`, one cog per concern: a new game's cog needs no registration."""
    return [f"{cogs.__name__}.{module.name}" for module in sorted(pkgutil.iter_modules(cogs.__path__),
                                                                   key=lambda m: m.name)]


def point_at_discord(settings: Settings) -> None:
    """Send REST and gateway traffic to an emulator when configured (tests, local development)."""
    if settings.discord_api_base:
        discord.http.Route.BASE = settings.discord_api_base.rstrip("/")
    if settings.discord_gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.discord_gateway_url)


PERSISTENT_ITEMS: list[type[discord.ui.DynamicItem]] = [ActionButton, LobbyButton, TableButton, UndoButton, ShareButton,
                                                        ReplayButton, PlayInDiscordButton]
"""Registered at start-up, so their buttons work after a restart; game cogs may add their own."""


class ParlorTree(app_commands.CommandTree):
    """Answers any command error a user can see with an ephemeral message."""

    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        original = getattr(error, "original", error)
        if isinstance(original, UserError):
            await refuse(interaction, original.message)
            return
        if isinstance(original, StorageError):
            await tell_storage_trouble(interaction, original)
            return
        if isinstance(error, app_commands.CheckFailure):
            await refuse(interaction, str(error) or "You can't use that command here.")
            return
        log.error("command %s failed", interaction.command and interaction.command.qualified_name,
                  exc_info=original)
        try:
            await refuse(interaction, APOLOGY)
        except discord.HTTPException:
            log.warning("could not send the apology for interaction %s", interaction.id)


class WebUnavailable(Exception):
    """The web pages cannot listen where the settings say (WEB_HOST, WEB_PORT)."""


class OpsUnavailable(Exception):
    """`/healthz` and `/metrics` cannot listen where the settings say (OPS_HOST, OPS_PORT)."""


class ParlorBot(commands.Bot):
    """The bot process: one host over one store, shared by every cog."""

    host: Host
    dispatcher: TurnDispatcher | None = None
    ai: AiPlayer | None = None
    autoplay: Autoplay | None = None
    digests: DigestSender | None = None
    web: WebServer | None = None
    activity: Activity | None = None
    ops: OpsServer | None = None

    def __init__(self, settings: Settings, *, store: Store | None = None) -> None:
        intents = discord.Intents.default()
        intents.members = False
        intents.message_content = False
        shard_options = ({"shard_count": settings.shard_count, "shard_ids": settings.own_shards}
                         if settings.sharded else {})
        # No message cache: Parlor edits its tables by id and never reads a cached message, and a thousand
        # cached messages would only cost memory and the garbage collector's time (issue 24).
        super().__init__(command_prefix=commands.when_mentioned, intents=intents, tree_cls=ParlorTree,
                         help_command=None, max_messages=None, http_trace=rest_trace(), **shard_options)
        remember_routes(self.http)
        self.loop_lag = LoopLag()
        self.settings = settings
        self._store = store
        self.gate = Gate()
        """Interactions in flight; closed first on shutdown (bot.runtime.gate)."""
        self._caught_up = False
        self._store_closed = False

    async def setup_hook(self) -> None:
        store = self._store or await Store.connect(self.settings.database_url)
        self.host = Host(store, periods=Periods(reminder_hours=self.settings.reminder_hours,
                                                turn_clock_hours=self.settings.turn_clock_hours))
        self.dm_reach = DmReach(self.host.store)
        notices = DiscordNotices(self, self.dm_reach)
        self.dispatcher = TurnDispatcher(self.host, send_reminder=notices.send_reminder,
                                         send_notice=notices.send_notice, shards=self.settings.shards)
        self.host.timers_added = self.dispatcher.wake
        self.tables = Tables(self, self.host)
        self.host.committing = self.tables.draw_ahead
        self.foresight = Foresight(self.host, idle=self.gate.calm,
                                   pictures=lambda session: not self.host.text_view.known_text(session.guild_id))
        self.tables.foresight = self.foresight
        self.host.moved_elsewhere = self.tables.forget
        self.panels = Panels(self, self.host, self.dm_reach)
        self.private_notes = PrivateNotes()
        self.private_presses = PrivatePresses()
        self.ai = AiPlayer(self.host, post=lambda outcome: show_ai_move(self, outcome))
        self.autoplay = Autoplay(self.host, post=lambda outcome, player: show_autoplayed(self, outcome, player),
                                 shards=self.settings.shards)
        ai_poke, autoplay_poke = self.ai.poke, self.autoplay.poke

        def changed(session: SessionRecord) -> None:
            ai_poke(session)
            autoplay_poke(session)

        self.host.changed = changed
        await self.start_web()
        await self.start_ops()
        self.loop_lag.start()
        self.dispatcher.start()
        self.autoplay.start()
        if self.settings.shards is None or 0 in self.settings.shards.ids:  # DMs: shard 0 (bot.play.digest)
            self.digests = DigestSender(self.host, DiscordDigest(self, self.dm_reach).send)
            self.digests.start()
        self.add_dynamic_items(*PERSISTENT_ITEMS)
        for extension in cog_extensions():
            await self.load_extension(extension)
        await self.sync_commands()
        set_aside_start_up()
        self.collector = QuietCollector(lambda: self.gate.running > 0)
        self.collector.start()
        self.foresight.start()

    async def start_web(self) -> None:
        """The web pages (bot.web), when WEB_PORT is set: served from this process, told of its commits."""
        if self.settings.web_port is None:
            return
        secret = self.settings.web_secret.get_secret_value() if self.settings.web_secret else None
        self.web = WebServer(self.host, await Links.open(self.host.store, secret),
                             show_move=lambda outcome: show_ai_move(self, outcome), gate=self.gate,
                             link_hours=self.settings.web_link_hours)
        self.activity = self.open_activity(self.web)
        self.tables.activity = self.activity is not None
        try:
            await self.web.start(self.settings.web_host, self.settings.web_port, self.settings.web_base_url)
        except OSError as error:  # the port taken, the host unknown: said in one line by `python -m bot`
            where = f"{self.settings.web_host}:{self.settings.web_port}"
            raise WebUnavailable(f"cannot serve the web pages on {where}: {error.strerror or error}") from error
        ai_poke, web = self.host.changed, self.web

        def changed(session: SessionRecord) -> None:
            ai_poke(session)
            web.poke(session)

        self.host.changed = changed
        self.tables.watch_url = lambda session: web.base_url + web.watch_path(session.id)

    def open_activity(self, web: WebServer) -> Activity | None:
        """The table as a Discord Activity (bot.activity), on the web server, when ACTIVITY_CLIENT_SECRET is set."""
        settings = self.settings
        if settings.activity_client_secret is None or settings.discord_token is None:
            return None
        identity = DiscordIdentity(settings.activity_client_id or str(self.application_id),
                                   settings.activity_client_secret.get_secret_value(),
                                   settings.discord_token.get_secret_value(), settings.discord_api_base)
        return Activity(web, identity, Passes(web.links), pass_hours=settings.web_link_hours,
                        frame_ancestors=tuple(settings.activity_frame_ancestors.split()))

    async def start_ops(self) -> None:
        """`/healthz` and `/metrics` (bot.ops), when OPS_PORT is set."""
        if self.settings.ops_port is None:
            return
        checks = Checks(database=database_check(self.host.store, self.settings.database_url),
                        gateway=lambda: gateway_connected(self), games_running=games_running(self.host.store))
        self.ops = OpsServer(checks)
        try:
            await self.ops.start(self.settings.ops_host, self.settings.ops_port)
        except OSError as error:
            where = f"{self.settings.ops_host}:{self.settings.ops_port}"
            raise OpsUnavailable(f"cannot serve /healthz and /metrics on {where}: {error.strerror or error}") from error

    async def sync_commands(self) -> None:
        await sync_if_changed(self.tree, self.host.store, self.application_id, self.settings.discord_guild_id,
                              force=self.settings.force_command_sync)

    async def on_ready(self) -> None:
        log.info("ready as %s (%s) in %d guilds", self.user, self.user and self.user.id, len(self.guilds))
        if not self._caught_up:
            self._caught_up = True
            with self.gate.passage():
                caught = await self.tables.catch_up(self.settings.shards)
                panels = await self.panels.catch_up(self.settings.shards)
            if caught:
                log.info("brought %d game tables up to date", caught)
            if panels:
                log.info("brought %d private panels up to date", panels)
            await self.ai.resume(self.settings.shards)
            await self.autoplay.resume()

    async def close(self) -> None:
        """Shut down gracefully: turn new interactions away, let those in flight finish (bounded),
        then close Discord (bounded too, so an unreachable Discord does not hold us) and the database."""
        if not await self.gate.close(IN_FLIGHT_GRACE):
            log.warning("closing with %d interactions still running after %gs", self.gate.running, IN_FLIGHT_GRACE)
        if self.dispatcher is not None:
            await self.dispatcher.stop(IN_FLIGHT_GRACE)
        if getattr(self, "ai", None) is not None:
            await self.ai.stop()
        if getattr(self, "autoplay", None) is not None:
            await self.autoplay.stop()
        if getattr(self, "digests", None) is not None:
            await self.digests.stop()
        if getattr(self, "collector", None) is not None:
            await self.collector.stop()
        if getattr(self, "foresight", None) is not None:
            await self.foresight.stop()
        if self.web is not None:
            await self.web.stop()
        if self.activity is not None:
            await self.activity.identity.close()
        if self.ops is not None:
            await self.ops.stop()
        await self.loop_lag.stop()
        if getattr(self, "tables", None) is not None:
            await self.tables.stop()
        if getattr(self, "panels", None) is not None:
            await self.panels.stop()
        try:
            await asyncio.wait_for(super().close(), DISCORD_CLOSE_TIMEOUT)
        except TimeoutError:
            log.warning("Discord did not close within %gs; exiting anyway", DISCORD_CLOSE_TIMEOUT)
        # The store given at creation too: a login Discord refused never reached setup_hook, and its database
        # threads would keep the process alive after the error was said.
        store = self.host.store if getattr(self, "host", None) is not None else self._store
        if store is not None and not self._store_closed:
            self._store_closed = True
            await store.close()


class ShardedParlorBot(ParlorBot, commands.AutoShardedBot):
    """The same bot as an AutoShardedBot: this process runs SHARD_IDS of SHARD_COUNT shards."""


def create_bot(settings: Settings, *, store: Store | None = None) -> ParlorBot:
    """The bot this process runs: sharded when SHARD_COUNT is set, else today's single connection."""
    if settings.sharded:
        return ShardedParlorBot(settings, store=store)
    return ParlorBot(settings, store=store)
