"""The gate interactions pass through, so that shutting down waits for those in flight.

It also tells idle work (bot.discord.foresight) when no interaction is urgent, that is when every one in
flight has its result on its way to Discord (`result_on_its_way`, called as a table is sent, or, with no
table, as the answer is) or has ended: the rest of an interaction (deleting the table it replaced, its
private answer beside a table) does not hold that work back.

And it gives urgent interactions their turns: at most WORKING_AT_ONCE do their work (engine, commit, the
table's message) at once, each until its result is on its way. In a burst, every interaction is first
acknowledged (bot.discord.actions), then waits its turn; without turns, the loop ran the work of all those that had
arrived, turn about, and a new one's acknowledgement queued behind it: 1,000 moves at once were acknowledged
after 2.4-3.5 s (median), at Discord's 3-second deadline; in turns, after 1.4-1.7 s.

On SIGTERM the bot closes the gate: new interactions are turned away with a short private
message, the ones already running finish (a bounded wait), and only then are the Discord
session and the database closed, so no handler ever meets a closed connection.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from contextvars import ContextVar

RESTARTING = "Parlor is restarting. Nothing was changed: try again in a minute."

WORKING_AT_ONCE = 16
"""Urgent interactions doing their work at once. Their work is the loop's and SQLite's (a turn ends as the table
is sent, so no turn waits for Discord); 16 keep both busy, and the moves of a turn still commit together."""


class _Urgency:
    """One urgent interaction: counted until its result is on its way or it ends, and holding its turn till then
    once it has one."""

    def __init__(self, gate: Gate) -> None:
        self._gate = gate
        self.released = False
        self.has_turn = False

    def release(self) -> None:
        if self.has_turn:
            self.has_turn = False
            self._gate._turns.release()
        if not self.released:
            self.released = True
            self._gate._urgent -= 1
            if self._gate._urgent == 0:
                self._gate._calm.set()


_urgent_here: ContextVar[_Urgency | None] = ContextVar("parlor_urgent_here", default=None)


def result_on_its_way() -> None:
    """The running interaction's result (its table) is being sent: it no longer holds back idle work, nor
    holds a turn."""
    urgency = _urgent_here.get()
    if urgency is not None:
        urgency.release()


class Gate:
    def __init__(self, working_at_once: int = WORKING_AT_ONCE) -> None:
        self.open = True
        self._running = 0
        self._idle = asyncio.Event()
        self._idle.set()
        self._urgent = 0
        self._calm = asyncio.Event()
        self._calm.set()
        self._turns = asyncio.Semaphore(working_at_once)

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
        urgency = _Urgency(self)
        self._urgent += 1
        self._calm.clear()
        token = _urgent_here.set(urgency)
        try:
            yield
        finally:
            urgency.release()
            _urgent_here.reset(token)

    async def take_turn(self) -> None:
        """Wait for the running urgent interaction's turn to work (WORKING_AT_ONCE at most), held until its
        result is on its way or it ends; at once if it has one, or is not urgent (any more)."""
        urgency = _urgent_here.get()
        if urgency is None or urgency.released or urgency.has_turn:
            return
        await self._turns.acquire()
        urgency.has_turn = True

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
