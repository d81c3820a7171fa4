"""Tells the open web pages that a game changed, within a fraction of a second, across processes.

The store is the truth. A move this process commits pokes the feed at once (the host's `changed`
hook, and the web's own presses); moves committed by another process (another shard on the same
PostgreSQL, or a second program on the same SQLite file) are found by polling: one small query every
`POLL_SECONDS` for the versions of the games that have a page open here, for their personal links'
generations (a revoked link's page is closed), and for the rematch of a finished one (begun by any
process: its pages offer it). The same poll wakes a personal page whose link has expired by the host's
clock, so it says so at once instead of at the next move. Nothing is polled while no page is open.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable

from bot.runtime.background import Background

log = logging.getLogger(__name__)

POLL_SECONDS = 0.25
Marks = tuple[int, ...]
"""A game's (version, sum of its personal links' generations, the next game begun in its channel once it is
finished): a change of any is news for its pages."""


class Listener:
    """One open page's wake-up call: set when its game changed, or its link expired (`expires`, by the host's
    clock; None for a page whose link never does); the page then reads the game afresh."""

    def __init__(self, session_id: int, expires: float | None = None) -> None:
        self.session_id = session_id
        self.expires = expires
        self._event = asyncio.Event()

    def wake(self) -> None:
        self._event.set()

    async def wait(self, timeout: float) -> bool:
        """Whether the game changed (True) or `timeout` passed first (False)."""
        if self._event.is_set():
            self._event.clear()
            return True
        try:
            await asyncio.wait_for(self._event.wait(), timeout)
        except TimeoutError:
            return False
        self._event.clear()
        return True


class Feed:
    """The listeners per game, and the poll that notices other processes' commits."""

    def __init__(self, read_marks: Callable[[list[int]], Awaitable[dict[int, Marks]]],
                 poll_seconds: float = POLL_SECONDS, clock: Callable[[], float] = time.time) -> None:
        self._read_marks = read_marks
        self._clock = clock
        self._poll_seconds = poll_seconds
        self._listeners: dict[int, set[Listener]] = {}
        self._marks: dict[int, Marks] = {}
        self._poller = Background("parlor-web-feed", self._poll)
        self._someone = asyncio.Event()

    @property
    def open_pages(self) -> int:
        return sum(len(listeners) for listeners in self._listeners.values())

    def listen(self, session_id: int, expires: float | None = None) -> Listener:
        listener = Listener(session_id, expires)
        self._listeners.setdefault(session_id, set()).add(listener)
        self._someone.set()
        return listener

    def leave(self, listener: Listener) -> None:
        listeners = self._listeners.get(listener.session_id)
        if listeners is not None:
            listeners.discard(listener)
            if not listeners:
                del self._listeners[listener.session_id]
                self._marks.pop(listener.session_id, None)

    def poke(self, session_id: int) -> None:
        """A game changed (committed by this process): wake its pages."""
        for listener in self._listeners.get(session_id, ()):
            listener.wake()

    def start(self) -> None:
        self._poller.start()

    async def stop(self) -> None:
        await self._poller.stop()
        for listeners in self._listeners.values():
            for listener in listeners:
                listener.wake()

    async def _poll(self) -> None:
        while True:
            if not self._listeners:
                self._someone.clear()
                await self._someone.wait()
            try:
                await self.check()
            except Exception:
                log.warning("could not read the watched games' versions", exc_info=True)
            await asyncio.sleep(self._poll_seconds)

    async def check(self) -> None:
        """One poll: wake the pages whose link expired, and those of every game whose marks moved since the
        last look."""
        watched = list(self._listeners)
        if not watched:
            return
        self._wake_expired()
        marks = await self._read_marks(watched)
        for session_id, now in marks.items():
            before = self._marks.get(session_id)
            if session_id in self._listeners:
                self._marks[session_id] = now
            if before != now:  # the first look too: a page may have read the game just before a change
                self.poke(session_id)

    def _wake_expired(self) -> None:
        """Wake, once, each page whose link has expired: it then finds its link refused and says so."""
        now = self._clock()
        for listeners in self._listeners.values():
            for listener in listeners:
                if listener.expires is not None and now >= listener.expires:
                    listener.expires = None
                    listener.wake()
