"""Shared pieces for the tests of playing over a day: starting games, recording senders, a fake wait."""

from __future__ import annotations

import asyncio

from bot.play.host import Host
from bot.play.timers import Reminder, TurnDispatcher, TurnNotice
from bot.storage.store import Seat
from tests.bot.conftest import FakeClock

HOUR = 3600.0


async def start_game(host: Host, slug: str, channel: str, seats: list[Seat], guild: str = "1",
                     options: dict | None = None) -> int:
    """Open a lobby with the first seat, seat the rest and begin; the session id."""
    await host.open_lobby(guild_id=guild, channel_id=channel, slug=slug, creator=seats[0], options=options)
    outcome = None
    for seat in seats[1:]:
        _, outcome = await host.join(channel, seat)
    if outcome is None:
        outcome = await host.begin(channel, seats[0].id)
    return outcome.session.id


async def play_until_over(host: Host, session_id: int, limit: int = 500) -> None:
    for _ in range(limit):
        session = await host.session(session_id)
        if session.status != "active":
            return
        player = host.to_act(session)[0]
        await host.act(session_id, player, host.legal_actions(session, player)[0])
    raise AssertionError("the game did not end")


class Outbox:
    """The dispatcher's senders, recording what they were asked to send."""

    def __init__(self) -> None:
        self.reminders: list[Reminder] = []
        self.notices: list[TurnNotice] = []

    async def send_reminder(self, reminder: Reminder) -> None:
        self.reminders.append(reminder)

    async def send_notice(self, notice: TurnNotice) -> None:
        self.notices.append(notice)

    def dispatcher(self, host: Host, **kwargs) -> TurnDispatcher:
        return TurnDispatcher(host, send_reminder=self.send_reminder, send_notice=self.send_notice, **kwargs)

    @property
    def reminded(self) -> list[str]:
        return [reminder.player for reminder in self.reminders]


class FakeWait:
    """Stands in for sleeping: a timeout up to `horizon` seconds passes at once on the fake clock;
    a longer one (or none) waits for the wake-up event only. Records every timeout asked for."""

    def __init__(self, clock: FakeClock, horizon: float) -> None:
        self.clock = clock
        self.horizon = horizon
        self.timeouts: list[float | None] = []
        self.calls = asyncio.Condition()

    async def __call__(self, event: asyncio.Event, timeout: float | None) -> None:
        self.timeouts.append(timeout)
        async with self.calls:
            self.calls.notify_all()
        if event.is_set():
            return
        if timeout is not None and timeout <= self.horizon:
            self.clock.advance(timeout)
            self.horizon -= timeout
            await asyncio.sleep(0)
            return
        await event.wait()

    async def until(self, count: int) -> None:
        """Until the loop has gone to sleep `count` times."""
        async with self.calls:
            await asyncio.wait_for(self.calls.wait_for(lambda: len(self.timeouts) >= count), 5)
