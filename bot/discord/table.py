"""The table: the one message that shows a game in its channel.

A game's table carries the current picture, whose turn it is, what happened since the turn
last changed, and the items for the next step. It is kept up to date after every commit:

- **Edited in place** while the same player(s) keep acting (a bonus roll, a chained step, a
  lobby filling up), so nothing new is posted and nobody is pinged again.
- **Re-posted at the bottom, the previous one deleted,** when the player(s) to act change or
  the game ends. Discord notifies a mention only in a new message, never in an edit, so a turn
  change needs a new message to reach the new player; deleting the old one keeps one table per
  game and leaves no stale buttons behind. Only the players newly to act are pinged.
- `/game table` re-posts it at the bottom without pinging anyone.

The store records which session version each table shows (`tables.shown_version`). A table
behind its session (a crash between a commit and the Discord call, Discord unreachable) is
brought up to date at start-up (`catch_up`) or by the next interaction with the game; updates
for one game are serialised and coalesced, so a burst of moves redraws only the latest state.
A table that failed to update (Discord unavailable or refusing for a moment) is tried again after
`TABLE_RETRIES` seconds, so it catches up by itself, as the mover is told; after the last try, it
waits for the game's next interaction or the bot's next start-up.

Speed (issue 24): a move's picture is drawn while its commit is in flight (`draw_ahead`, called by
the host just before the commit), or was drawn before the move at an idle moment (bot.discord.foresight),
and is used only if the committed session is the one it was drawn for; the table records are kept
in memory once read or written (one process owns a guild, as for the host's sessions), so showing a
move reads nothing from the database. The table's message, and its whole REST request
(bot.discord.table_request), are written during the commit's sync, and sent the moment the commit is done
(`_show_as_it_lands`, woken by the store before the moving task resumes): the host's and the
handler's own work after the commit follow it, and the handler's `show` finds the table up to date.
A table is recorded in memory before the store, so a failed save never makes this process post a
second table for the same move.

A server may ask for text-only tables (bot.play.text_view): the same message and buttons, no picture.

Rulings: an invited player is pinged once when the lobby opens; the final table pings nobody
(winners are named, not notified).

A crash between posting a new table and recording it leaves a table the store does not know of.
At start-up, before a table behind its game is brought up to date, the channel's latest messages
(`STRAY_SCAN`) are searched for the bot's own tables of that game other than the recorded one, and
those are retired like any superseded table. This needs the Read Message History permission; without
it the stray keeps buttons that are refused as stale after the next move.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import weakref
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, NamedTuple

import discord

from bot.discord import table_request
from bot.discord.channel_access import channel_is_gone
from bot.discord.foresight import Foresight, shows_same_picture
from bot.discord.leaderboard import add_rating_field
from bot.discord.replies import board_components, board_message, lobby_message
from bot.discord.table_request import TableRequest
from bot.play.host import Host, Upcoming
from bot.presentation.frontends import frontend_for
from bot.presentation.words import ended_view, headline, image_names
from bot.runtime.drawing import draw_off_loop
from bot.runtime.gate import result_on_its_way
from bot.runtime.metrics import METRICS
from bot.runtime.retries import Retries
from bot.runtime.shards import Shards
from bot.storage.store import SessionRecord, TableRecord

log = logging.getLogger(__name__)

DRAWN_AHEAD = 256
"""Pictures drawn ahead of their commit kept at most (one per session: the latest move's)."""
RECORDS_KEPT = 4096
"""Table records kept in memory; others are read back from the store when next shown."""
STRAY_SCAN = 50
"""How many of a channel's latest messages are searched for a table a crash left unrecorded."""
GAME_FOOTER = re.compile(r"Game #(?P<session>[0-9]+)\b")


def targets(session: SessionRecord, host: Host) -> list[str]:
    """The people the table asks to act: nobody in a lobby or once the game is over, never the AI."""
    if session.status != "active":
        return []
    return targets_among(session, host.to_act(session))


def targets_among(session: SessionRecord, to_act: list[str]) -> list[str]:
    return [player for player in to_act if player not in session.ai_played]


def pings(record: TableRecord, now: list[str], session: SessionRecord, *, first: bool, to_bottom: bool
          ) -> tuple[bool, list[str]]:
    """Whether the table is re-posted (rather than edited in place), and whom the new message pings."""
    repost = (to_bottom or record.message_id is None or set(now) != set(record.announced)
              or record.shown_status != session.status)
    if first and session.status == "lobby":
        return repost, [p for p in session.invited if p not in session.player_ids]
    return repost, [p for p in now if p not in record.announced] if repost else []


TABLE_RETRIES = (5.0, 30.0, 120.0, 600.0)
"""Seconds before each new try at a table that failed to update (`Tables.retries`; tests use 0)."""


class Tables:
    """Keeps every game's table up to date through a connected client."""

    def __init__(self, client: discord.Client, host: Host) -> None:
        self.client = client
        self.host = host
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._ahead: OrderedDict[int, Ahead] = OrderedDict()
        self._records: OrderedDict[int, TableRecord] = OrderedDict()
        self._landing: set[asyncio.Future[None]] = set()
        """Tables waiting to be sent as their move's commit lands (`_show_as_it_lands`)."""
        self.retries = Retries(TABLE_RETRIES)
        """The tables that failed to update, each tried again (`_retry`)."""
        self.foresight: Foresight | None = None
        """Draws the next moves' pictures at idle moments (bot.discord.foresight);
        None: every picture drawn after its move."""
        self.watch_url: Callable[[SessionRecord], str | None] = lambda session: None
        """The game's public web page, for the table's **Watch on the web** link (bot.web; None: no link)."""
        self.activity = False
        """Whether the table offers **Play in Discord** (the Activity is on: bot.activity)."""

    def _lock(self, session_id: int) -> asyncio.Lock:
        lock = self._locks.get(session_id)
        if lock is None:
            lock = self._locks[session_id] = asyncio.Lock()
        return lock

    def forget(self, session_id: int) -> None:
        """Another process changed the game (Host.moved_elsewhere), and may have posted its table: read
        the table's record from the store next time."""
        self._records.pop(session_id, None)
        self._ahead.pop(session_id, None)

    def draw_ahead(self, upcoming: Upcoming) -> None:
        """Start drawing the picture of the session a move about to commit will leave (Host.committing),
        and writing the table's message for it, while the commit is in flight."""
        session = upcoming.session
        if session.state is None or self.host.text_view.known_text(session.guild_id):
            return
        drawing = self.foresight.picture(session) if self.foresight is not None else None
        if drawing is None:
            drawing = asyncio.ensure_future(draw_off_loop(frontend_for(session.slug).draw_board,
                                                          upcoming.public_view, image_names(session),
                                                          session.turn_events))
        drawing.add_done_callback(_unread)
        record = self._records.get(session.id)
        writing = None
        if record is not None and record.message_id and session.status == "active":
            writing = asyncio.ensure_future(self._write_ahead(upcoming, record.model_copy(), drawing))
            writing.add_done_callback(_unread)
            showing = asyncio.ensure_future(self._show_as_it_lands(upcoming))
            self._landing.add(showing)
            showing.add_done_callback(self._landed)
        self._ahead.pop(session.id, None)
        self._ahead[session.id] = Ahead(session, drawing, writing)
        while len(self._ahead) > DRAWN_AHEAD:
            self._ahead.popitem(last=False)

    def _landed(self, showing: asyncio.Future[None]) -> None:
        self._landing.discard(showing)
        if not showing.cancelled() and showing.exception() is not None:
            # `show`, which the move's handler calls next, tries again.
            log.warning("could not show a table as its move was committed", exc_info=showing.exception())

    async def _write_ahead(self, upcoming: Upcoming, record: TableRecord, drawing: asyncio.Future[bytes]
                           ) -> tuple[list[str], dict[str, Any], TableRequest]:
        """The message a running game's table will show once `upcoming` is committed, whom it pings then, and
        the request that shows it (if the table's record is still `record`); from the move's own state,
        never the host's caches."""
        await upcoming.syncing.wait()  # the database thread's own work done: only the sync is left to overlap
        session = upcoming.session
        repost, ping = pings(record, targets_among(session, upcoming.to_act()), session, first=False,
                             to_bottom=False)
        png = await asyncio.shield(drawing) if await self.host.text_view.pictures_for(session.guild_id) else None
        message = self._board(session, upcoming.public_view, png, ping, upcoming.legal(), upcoming.undoer)
        return ping, message, self._request(message, edit=not repost)

    def _request(self, message: dict[str, Any], *, edit: bool) -> TableRequest:
        return table_request.built(message, self.client.allowed_mentions, edit=edit)

    async def _written_ahead(self, session: SessionRecord, ping: list[str]
                             ) -> tuple[dict[str, Any], TableRequest] | None:
        """The message written while the session's commit was in flight, and its request, if it was written
        for this very session and ping (else None, and the table is composed now)."""
        ahead = self._ahead.get(session.id)
        if ahead is None or ahead.writing is None or not _same_session(ahead.session, session):
            return None
        try:
            written = await _unless_given_up(ahead.writing)
        except Exception:
            return None  # composed now, drawing again if need be
        if written is None or written[0] != ping:
            return None
        if self._ahead.get(session.id) is ahead:
            del self._ahead[session.id]
        return written[1], written[2]

    async def _picture(self, session: SessionRecord, view: dict) -> bytes:
        """The board of the session as committed: drawn ahead of its commit if that drew this very session."""
        ahead = self._ahead.get(session.id)
        if ahead is not None and shows_same_picture(ahead.session, session):
            del self._ahead[session.id]
            drawn = await _unless_given_up(ahead.drawing)
            if drawn is not None:
                return drawn
            # A foreseen drawing given up (bot.discord.foresight): drawn now.
        # An ended game waits on nobody: a claimed game's board must not still ask someone to roll.
        return await draw_off_loop(frontend_for(session.slug).draw_board, ended_view(session, view),
                                   image_names(session), session.turn_events)

    async def _record(self, session_id: int) -> TableRecord | None:
        known = self._records.get(session_id)
        if known is None:
            return await self.host.store.table(session_id)
        self._records.move_to_end(session_id)
        return known.model_copy()

    async def _save(self, record: TableRecord) -> None:
        """Record what the table shows: in memory first, so that if the store fails, this process still knows
        which message is the table (and never posts a second one for the same move)."""
        self._records.pop(record.session_id, None)
        self._records[record.session_id] = record.model_copy()
        while len(self._records) > RECORDS_KEPT:
            self._records.popitem(last=False)
        await self.host.store.save_table(record)

    async def compose(self, session: SessionRecord, ping: list[str]) -> dict[str, Any]:
        """The table's message for the session as committed."""
        if session.state is None:
            return lobby_message(session, ping=ping)
        view = self.host.public_view(session)
        png = await self._picture(session, view) if await self.host.text_view.pictures_for(session.guild_id) else None
        message = self._board(session, view, png, ping, self.host.legal_by_player(session),
                              await self.host.undoer(session))
        if session.status == "finished":
            add_rating_field(message["embed"], session, await self.host.store.rating_changes(session.id))
        return message

    def _board(self, session: SessionRecord, view: dict, png: bytes | None, ping: list[str],
               legal: dict[str, list[dict]], undoer: str | None) -> dict[str, Any]:
        said = headline(session, discord.utils.escape_markdown)
        return board_message(session, view, session.turn_events, said, png=png, ping=ping, legal=legal,
                             undoer=undoer, web_url=self.watch_url(session), activity=self.activity)

    async def show(self, session_id: int, *, to_bottom: bool = False, strays: bool = False) -> None:
        """Bring the session's table up to date (and to the bottom of the channel if asked).

        `strays`: first retire tables of this game a crash may have left unrecorded (at start-up). If the
        table could not be updated, it is tried again later (`_retry`) and the error is raised."""
        try:
            await self._show_locked(session_id, to_bottom=to_bottom, strays=strays)
        except Exception as error:
            if channel_is_gone(error):  # deleted while nobody told this process (it was down, say)
                await self.channel_deleted((await self.host.current(session_id)).channel_id)
                return
            self._retry_later(session_id)
            raise

    async def _show_locked(self, session_id: int, *, to_bottom: bool, strays: bool) -> None:
        async with self._lock(session_id):
            session = await self.host.current(session_id)
            record = await self._record(session_id)
            if strays:
                await self._retire_strays(session, record.message_id if record else None)
            if (record is not None and record.message_id and not to_bottom
                    and record.shown_version >= session.version):
                return
            await self._put(session, record, targets(session, self.host), to_bottom=to_bottom)

    def _retry_later(self, session_id: int) -> None:
        """Have a table that failed to update tried again (unless that is under way already)."""
        METRICS.table_retries.inc()
        self.retries.later(session_id, lambda: self._retry(session_id))

    async def _retry(self, session_id: int) -> bool:
        """One more try at the table (`show` returns at once when it is up to date: another update got there
        first); True once it is."""
        try:
            await self.show(session_id)
            return True
        except Exception:
            log.warning("the table of session %s is still behind its game", session_id, exc_info=True)
            return False

    async def stop(self) -> None:
        """Give up the tries still waiting (at shutdown: the next start-up catches those tables up)."""
        await self.retries.stop()

    async def _show_as_it_lands(self, upcoming: Upcoming) -> None:
        """A move's table, shown the moment its commit lands: the host has taken the move in already
        (Host.act), and the host's and the handler's own work after the commit follow; the handler's `show`
        then finds the table up to date (issue 24)."""
        await upcoming.landed.wait()
        if upcoming.committed is not None:  # else the commit failed: nothing to show
            await self.show(upcoming.committed.id)

    async def _put(self, session: SessionRecord, record: TableRecord | None, now: list[str], *,
                   to_bottom: bool = False) -> None:
        """Show `session` (the game's lock held; `now`: whom it asks to act): its table edited in place or
        re-posted, then recorded; with the message and request written during its commit if they fit."""
        first = record is None
        record = record or TableRecord(session_id=session.id, channel_id=session.channel_id)
        left_lobby = record.shown_status == "lobby" and session.status != "lobby"
        repost, ping = pings(record, now, session, first=first, to_bottom=to_bottom)
        message, request = await self._written_ahead(session, ping) or (await self.compose(session, ping), None)
        if request is None or request.edit == repost:
            request = self._request(message, edit=not repost)
        channel_id = int(session.channel_id)
        result_on_its_way()
        if self.foresight is not None:
            self.foresight.shown(session)
        previous = record.message_id if repost else None
        try:
            record.message_id = await table_request.sent(self.client, channel_id, record.message_id, request)
        except discord.NotFound:
            if repost:
                raise
            previous = None  # the table was deleted: a new one, pinging whoever it did not yet
            message = await self.compose(session, [p for p in now if p not in record.announced])
            record.message_id = await table_request.sent(self.client, channel_id, None,
                                                         self._request(message, edit=False))
        record.shown_version, record.shown_status, record.announced = session.version, session.status, now
        await self._save(record)
        if previous:
            await self._retire(self._channel(session), previous)
        if first or left_lobby:
            await self._earlier_games(session, first=first)

    async def _retire(self, channel: discord.PartialMessageable, message_id: str) -> None:
        """Delete a superseded table; if that fails, at least take its buttons away."""
        message = channel.get_partial_message(int(message_id))
        try:
            await message.delete()
        except discord.NotFound:
            return
        except discord.HTTPException:
            with contextlib.suppress(discord.HTTPException):
                await message.edit(view=None)

    async def _retire_strays(self, session: SessionRecord, recorded: str | None) -> None:
        """Retire the bot's tables of `session` among the channel's latest messages, but the recorded one."""
        channel = self._channel(session)
        me = self.client.user
        try:
            strays = [message async for message in channel.history(limit=STRAY_SCAN)
                      if me is not None and message.author.id == me.id and str(message.id) != recorded
                      and _shows_session(message) == session.id]
        except discord.HTTPException:
            log.warning("could not read the latest messages of channel %s to find stray tables", session.channel_id)
            return
        for message in strays:
            await self._retire(channel, str(message.id))

    def _channel(self, session: SessionRecord) -> discord.PartialMessageable:
        return self.client.get_partial_messageable(int(session.channel_id),
                                                   guild_id=int(session.guild_id) if session.guild_id else None)

    async def _earlier_games(self, session: SessionRecord, *, first: bool) -> None:
        """A new session in the channel (its first table), or its lobby just closed or began: the final
        tables before it lose their Rematch/New game buttons, or get them back.

        Ruling: a lobby takes the buttons away while it is open (they would only be refused), but it is
        not a game yet, so the tables keep their messages until its game begins. A lobby closed before
        then never was a game: the last game's table gets its buttons back, and its players can still
        rematch from it, as `/game rematch` lets them (Host.last_game_in).
        """
        if session.status != "lobby" and session.state is None:
            await self._give_back_buttons(session)
            return
        for record in await self.host.store.earlier_tables(session.channel_id, session.id):
            if first:
                with contextlib.suppress(discord.HTTPException):
                    await self._message_of(record).edit(view=None)
            if session.state is not None:
                record.message_id = None
                await self._save(record)

    async def _give_back_buttons(self, lobby: SessionRecord) -> None:
        """The lobby closed before its game began: the last game before it shows its Rematch/New game again."""
        last = await self.host.last_game_in(lobby.channel_id)
        record = await self._record(last.id) if last is not None and last.id < lobby.id else None
        if last is None or record is None or not record.message_id:
            return
        view = board_components(last, self.host.public_view(last), web_url=self.watch_url(last))
        with contextlib.suppress(discord.HTTPException):
            await self._message_of(record).edit(view=view)

    def _message_of(self, record: TableRecord) -> discord.PartialMessage:
        channel = self.client.get_partial_messageable(int(record.channel_id))
        return channel.get_partial_message(int(record.message_id or 0))

    async def channel_deleted(self, channel_id: str) -> None:
        """A channel (or thread) was deleted: its game ends there (Host.end_in_deleted_channel), and its table,
        deleted with it, is recorded as needing nothing (so neither a retry nor the next start-up tries)."""
        session = await self.host.end_in_deleted_channel(channel_id)
        if session is None:
            return
        async with self._lock(session.id):
            record = await self._record(session.id)
            if record is not None:
                record.message_id = None
                record.shown_version, record.shown_status = session.version, session.status
                await self._save(record)
        log.info("session %s ended: its channel was deleted", session.id)
        panels = getattr(self.client, "panels", None)
        if panels is not None:
            await panels.close(session)

    async def catch_up(self, shards: Shards | None = None) -> int:
        """Bring every table behind its committed game up to date (at start-up); returns how many.

        A process running some shards catches up its own guilds' tables only."""
        caught = 0
        for session_id in await self.host.store.tables_behind(shards):
            try:
                await self.show(session_id, strays=True)
                caught += 1
            except Exception:
                log.exception("could not bring the table of session %s up to date", session_id)
        return caught


class Ahead(NamedTuple):
    """What was started for a session while its commit was in flight: its picture, and its message."""

    session: SessionRecord
    drawing: asyncio.Future[bytes]
    writing: asyncio.Future[tuple[list[str], dict[str, Any], TableRequest]] | None


async def _unless_given_up(work: asyncio.Future[Any]) -> Any:
    """`work`'s result, or None if it was given up (cancelled); this waiter's own cancellation is raised."""
    try:
        return await asyncio.shield(work)
    except asyncio.CancelledError:
        if not work.cancelled():
            raise
        return None


def _unread(done: asyncio.Future[Any]) -> None:
    """A future nobody may read (a commit that failed): no "exception was never retrieved" warning."""
    if not done.cancelled():
        done.exception()


def _same_session(upcoming: SessionRecord, committed: SessionRecord) -> bool:
    """Whether the session a move was about to commit is the one committed (its time of writing aside)."""
    return upcoming.model_copy(update={"updated_at": committed.updated_at}) == committed


def _shows_session(message: discord.Message) -> int | None:
    """The game a message of the bot shows as its table (from the embed's footer), if any."""
    for embed in message.embeds:
        if embed.footer and embed.footer.text and (match := GAME_FOOTER.match(embed.footer.text)):
            return int(match.group("session"))
    return None
