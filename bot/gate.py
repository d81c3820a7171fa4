"""The gate interactions pass through, so that shutting down waits for those in flight.

It also tells idle work (bot.foresight) when no interaction is urgent, that is when every one in
flight has its result on its way to Discord (`result_on_its_way`, called as a table is sent) or has
ended: the rest of an interaction (deleting the table it replaced, its private answer) does not hold
that work back.

On SIGTERM the bot closes the gate: new interactions are turned away with a short private
message, the ones already running finish (a bounded wait), and only then are the Discord
session and the database closed, so no handler ever meets a closed connection.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Iterator
from contextvars import ContextVar

RESTARTING = "Parlor is restarting. Nothing was changed: try again in a minute."

_urgent_here: ContextVar[Callable[[], None] | None] = ContextVar("parlor_urgent_here", default=None)


def result_on_its_way() -> None:
    """The running interaction's result (its table) is being sent: it no longer holds back idle work."""
    release = _urgent_here.get()
    if release is not None:
        release()


class Gate:
    def __init__(self) -> None:
        self.open = True
        self._running = 0
        self._idle = asyncio.Event()
        self._idle.set()
        self._urgent = 0
        self._calm = asyncio.Event()
        self._calm.set()

    @property
    def running(self) -> int:
        return self._running

    @contextlib.contextmanager
    def passage(self) -> Iterator[None]:
        """Count one interaction as in flight while the block runs."""
        self._running += 1
        self._idle.clear()
        try:
            yield
        finally:
            self._running -= 1
            if self._running == 0:
                self._idle.set()

    @property
    def urgent_now(self) -> int:
        """Interactions in flight whose result is not on its way yet."""
        return self._urgent

    @contextlib.contextmanager
    def urgent(self) -> Iterator[None]:
        """Count one interaction as urgent while the block runs, or until `result_on_its_way` is called in it."""
        released = False

        def release() -> None:
            nonlocal released
            if not released:
                released = True
                self._urgent -= 1
                if self._urgent == 0:
                    self._calm.set()

        self._urgent += 1
        self._calm.clear()
        token = _urgent_here.set(release)
        try:
            yield
        finally:
            release()
            _urgent_here.reset(token)

    async def calm(self) -> None:
        """Return once no interaction is urgent: each has its result on its way, or has ended."""
        await self._calm.wait()

    async def close(self, timeout: float) -> bool:
        """Admit nothing more; wait up to `timeout` s for those in flight. True if all finished."""
        self.open = False
        try:
            await asyncio.wait_for(self._idle.wait(), timeout)
        except TimeoutError:
            return False
        return True
