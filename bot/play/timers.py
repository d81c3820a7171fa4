"""The one task that sends what is due: reminders in the channel and turn notices by DM.

Timers live in the `timers` table, written by the host in the same transaction as the move that
makes them due (so a move and its reminders commit together or not at all). This task sleeps
until the earliest pending timer and is woken early when the host adds a sooner one.

Delivery is *at most once per timer*, and exactly once across a restart: a timer is marked fired
(and the next reminder scheduled) in one transaction *before* anything is sent, and only the
caller whose `UPDATE ... WHERE fired = 0` changed the row sends it. A process that dies after
that commit but before its HTTP call loses that one message (the next reminder is already
scheduled); a process that dies before the commit leaves the timer pending, and whichever
dispatcher runs next sends it once. The other order (send, then mark) would repeat a ping after
every such crash, and two dispatchers on one database could both send; a duplicate mention is
the worse failure for a reminder, so we mark first.

Several processes (bot.runtime.shards): each dispatcher reads only the timers of the guilds on its own shards,
so every reminder is sent by the process that owns the game's guild; the `fired = 0` check still
makes it exactly once should two processes ever run the same shard (a replacement started before the
old one died). A process that dies leaves its due timers pending: whichever process runs those
shards next sends them when it starts.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot.play.host import Clock, Host
from bot.play.pauses import claim_left, paces
from bot.play.turn_clock import Periods, next_reminder, wait_began
from bot.runtime.background import Background
from bot.runtime.due import Wait, wait_for_event
from bot.runtime.shards import Shards
from bot.storage.store import SessionRecord, Timer

log = logging.getLogger(__name__)

RETRY_AFTER_ERROR = 60.0


@dataclass(frozen=True)
class Reminder:
    """A player the game has waited on for a while; `claim_in` is 0 once the others may claim."""

    session: SessionRecord
    player: str
    waited: float
    claim_in: float | None
    periods: Periods


@dataclass(frozen=True)
class TurnNotice:
    """A player whose turn has just come, who asked for a direct message."""

    session: SessionRecord
    player: str


Send = Callable[[Reminder], Awaitable[None]]
SendNotice = Callable[[TurnNotice], Awaitable[None]]


class TurnDispatcher:
    """Fires due timers through injectable senders; `run` is the long-lived loop, `dispatch_due` one pass."""

    def __init__(self, host: Host, *, send_reminder: Send, send_notice: SendNotice, clock: Clock | None = None,
                 wait: Wait = wait_for_event, shards: Shards | None = None) -> None:
        self.host = host
        self.shards = shards
        self.store = host.store
        self.clock = clock or host.clock
        self._send_reminder = send_reminder
        self._send_notice = send_notice
        self._wait = wait
        self._wakeup = asyncio.Event()
        self._sleeping_until: float | None = None
        self._sending: asyncio.Future[int] | None = None
        """The timer being fired (claimed, its message on its way), shielded from the loop's cancellation."""
        self._stopping = False
        self._loop = Background("parlor-turn-dispatcher", self.run)

    def wake(self, due_at: float) -> None:
        """A timer due at `due_at` was added: wake the loop if it sleeps past that (or does not know)."""
        if self._sleeping_until is None or due_at < self._sleeping_until:
            self._wakeup.set()

    def start(self) -> None:
        self._stopping = False
        self._loop.start()

    async def stop(self, grace: float = 0.0) -> None:
        """Stop firing timers. A message on its way is given `grace` seconds to go first: its timer is already
        marked fired, so cut off it would be lost (a crash mid-send still loses it: docs/players.md, "Playing over
        a day")."""
        self._stopping = True
        sending = self._sending
        if sending is not None:
            if grace > 0:
                with contextlib.suppress(Exception):  # a failed send was logged where it failed; a slow one is cut
                    await asyncio.wait_for(asyncio.shield(sending), grace)
            sending.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await sending
        await self._loop.stop()

    async def run(self) -> None:
        while True:
            self._sleeping_until = None
            self._wakeup.clear()
            try:
                await self.dispatch_due()
                self._sleeping_until = await self.store.next_due(self.shards)
                timeout = None if self._sleeping_until is None else max(0.0, self._sleeping_until - self.clock())
            except Exception:
                log.exception("the turn dispatcher failed; retrying")
                timeout = RETRY_AFTER_ERROR
            await self._wait(self._wakeup, timeout)

    async def dispatch_due(self) -> int:
        """Fire every timer due now; returns how many messages were sent (or attempted)."""
        sent = 0
        for timer in await self.store.due_timers(self.clock(), self.shards):
            if self._stopping:
                break
            self._sending = asyncio.ensure_future(self._fire(timer))
            try:
                sent += await asyncio.shield(self._sending)
            finally:
                self._sending = None
        return sent

    async def _fire(self, timer: Timer) -> int:
        """Claim one due timer and send its message: 1 if a message was due (sent or attempted), else 0."""
        message = await self._claim(timer)
        if message is None:
            return 0
        try:
            if isinstance(message, Reminder):
                await self._send_reminder(message)
            else:
                await self._send_notice(message)
        except Exception:
            log.exception("could not send %s timer %s of session %s", timer.kind, timer.id, timer.session_id)
        return 1

    async def _claim(self, timer: Timer) -> Reminder | TurnNotice | None:
        """Mark the timer fired (scheduling the next reminder); the message to send, if still wanted."""
        now = self.clock()
        session = await self.store.session(timer.session_id)
        still_waiting = session is not None and timer.player in self.host.to_act(session)
        if session is None or not still_waiting:
            await self.store.fire_timer(timer, None)
            return None
        held = (await paces(self.store, session.guild_id, [timer.player], now))[timer.player].held_until(now)
        if held is not None:  # his quiet hours or away: it waits until they end (bot.play.pauses)
            await self.store.pacing.postpone_timer(timer.id, held)
            return None
        periods = await self.host.periods_for(session.guild_id)
        if timer.kind == "notice":
            return TurnNotice(session, timer.player) if await self.store.fire_timer(timer, None) else None
        if not await self.store.fire_timer(timer, next_reminder(timer.due_at, now, periods)):
            return None
        to_act = self.host.to_act(session)
        others = [seat.id for seat in session.players if seat.id not in to_act and not seat.ai]  # the AI never claims
        claim_in = await claim_left(self.store, session, to_act, now, periods) if others else None
        waited = now - wait_began(session.waiting_since, timer.player, session.updated_at)
        return Reminder(session, timer.player, waited=waited, claim_in=claim_in, periods=periods)
