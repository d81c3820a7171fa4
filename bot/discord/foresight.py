"""Pictures of the next moves, drawn while the table waits for them.

A move's table is on Discord only once its board is drawn and encoded (about a millisecond and a
half, the largest part of a move's time after the commit: issue 24). Between moves the bot is
mostly idle, and a player usually has few choices: roll, or keep a 6 and stop. So once a table
is on its way and no other interaction waits, `Foresight` works out what each legal move of the players
to act would leave (`Host.foresee`: the game's dice are committed when it begins, so a roll's
outcome is already fixed) and draws those boards. When one of those moves is made, the table uses
the picture already drawn (`Tables.draw_ahead`), and the move's time is the commit and the REST
call.

Rulings: only people's moves are foreseen (the AI moves at once, while its table is being shown),
and only where they have at most `MOVES_FORESEEN` legal moves (a Crayon Rails build has hundreds).
A picture is used only if the committed session has the very state, events, names and version it
was drawn for (`shows_same_picture`), so a foreseen picture never shows anything a move did not do;
it is public (the public view) and kept in memory only, never sent otherwise. "Idle" is when no
interaction waits for its result (bot.runtime.gate `calm`: each in flight has its table on its way, or has
ended), so the drawing overlaps only an interaction's tail (deleting the table it replaced, its
private answer), never a move on its way to the table; work pauses as soon as a new one arrives.
Only the latest table of a game is foreseen, and at most `SESSIONS_KEPT` games' pictures are kept.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable

from bot.play.host import Host
from bot.presentation.frontends import frontend_for
from bot.presentation.words import image_names
from bot.runtime.background import Background
from bot.runtime.drawing import draw_off_loop
from bot.storage.store import SessionRecord

log = logging.getLogger(__name__)

MOVES_FORESEEN = 6
"""A game is foreseen only if its players to act have this many legal moves or fewer in all."""
SESSIONS_KEPT = 64
"""Games whose foreseen pictures are kept (the most recently shown)."""


def shows_same_picture(drawn: SessionRecord, session: SessionRecord) -> bool:
    """Whether a picture drawn for `drawn` shows `session`: the same version, state, events and names."""
    return (drawn.version == session.version and drawn.state == session.state
            and drawn.turn_events == session.turn_events and image_names(drawn) == image_names(session))


class Foresight:
    """Draws the boards of a shown game's next moves at idle moments (see the module docstring)."""

    def __init__(self, host: Host, *, idle: Callable[[], Awaitable[None]],
                 pictures: Callable[[SessionRecord], bool]) -> None:
        """`idle` returns once no interaction waits for its result; `pictures(session)`: whether its table has
        one."""
        self._host = host
        self._idle = idle
        self._pictures = pictures
        self._wanted: OrderedDict[int, SessionRecord] = OrderedDict()
        self._woken = asyncio.Event()
        self._drawn: OrderedDict[int, list[tuple[SessionRecord, asyncio.Future[bytes]]]] = OrderedDict()
        self._taken: set[asyncio.Future[bytes]] = set()
        """Pictures a move is waiting for: drawn at once, busy or not, even if their game has moved on."""
        self._asked = asyncio.Event()
        """Set when a move takes a picture: the worker stops waiting for an idle moment."""
        self._worker = Background("parlor-foresight", self._run)

    def start(self) -> None:
        self._worker.start()

    async def stop(self) -> None:
        await self._worker.stop()

    def shown(self, session: SessionRecord) -> None:
        """A table now shows `session`: foresee its next moves when the bot is idle."""
        self._drawn.pop(session.id, None)
        self._wanted.pop(session.id, None)
        if session.status == "active" and session.state is not None:
            self._wanted[session.id] = session
            while len(self._wanted) > SESSIONS_KEPT:
                self._wanted.popitem(last=False)  # after a burst of moves, only the latest games are foreseen
            self._woken.set()

    def picture(self, session: SessionRecord) -> asyncio.Future[bytes] | None:
        """The picture of `session` as a move is about to commit it, if that move was foreseen (it may still
        be drawing; if its drawing is given up, the future is cancelled and the caller draws it)."""
        for drawn, png in self._drawn.pop(session.id, ()):
            if shows_same_picture(drawn, session):
                self._taken.add(png)
                png.add_done_callback(self._taken.discard)
                self._asked.set()
                return png
        return None

    async def _run(self) -> None:
        while True:
            await self._woken.wait()
            self._woken.clear()
            while self._wanted:
                await self._idle()
                # The table just sent (Tables._put) goes out first: aiohttp writes a request from a task of
                # its own, queued behind this wake-up.
                await asyncio.sleep(0)
                if not self._wanted:
                    continue
                _, session = self._wanted.popitem(last=False)
                try:
                    await self._foresee(session)
                except Exception:
                    log.exception("could not foresee the next moves of session %s", session.id)

    async def _idle_unless_taken(self, picture: asyncio.Future[bytes]) -> None:
        """Wait for an idle moment, but not for a picture a move waits for (that move keeps the bot busy)."""
        self._asked.clear()
        if picture in self._taken:
            return
        waits = [asyncio.ensure_future(self._idle()), asyncio.ensure_future(self._asked.wait())]
        try:
            await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for wait in waits:
                wait.cancel()

    def _wanted_still(self, session_id: int, listed: list, picture: asyncio.Future[bytes]) -> bool:
        """Whether a picture may yet be asked for: a move waits for it, or its game has not moved on."""
        return picture in self._taken or self._drawn.get(session_id) is listed

    async def _foresee(self, session: SessionRecord) -> None:
        """Work out the next moves' sessions first (quick), then draw their boards one after another; each
        picture can be taken while it is still being drawn."""
        if not self._pictures(session):
            return
        moves = [(player, action) for player in self._host.to_act(session) if player not in session.ai_played
                 for action in self._host.legal_actions(session, player)]
        if not moves or len(moves) > MOVES_FORESEEN:
            return
        loop = asyncio.get_running_loop()
        foreseen = [(after, view, loop.create_future()) for after, view in
                    filter(None, (self._host.foresee(session, player, action) for player, action in moves))]
        listed = self._drawn[session.id] = [(after, picture) for after, _, picture in foreseen]
        while len(self._drawn) > SESSIONS_KEPT:
            self._drawn.popitem(last=False)
        draw_board = frontend_for(session.slug).draw_board
        try:
            for after, view, picture in foreseen:
                if not self._wanted_still(session.id, listed, picture):
                    continue
                await self._idle_unless_taken(picture)
                if not self._wanted_still(session.id, listed, picture):
                    continue
                picture.set_result(await draw_off_loop(draw_board, view, image_names(after), after.turn_events))
        finally:
            for _, _, picture in foreseen:
                picture.cancel()  # those not drawn (a no-op on those drawn)
