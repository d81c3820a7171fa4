"""One digest a day instead of a DM per turn (`/notify digest`).

Rulings:
- `/notify` has three modes: `on` (a DM per turn), `digest` (one DM a day, at the whole hour he chose in his own
  zone, bot.play.pauses) and `off`. Choosing one ends the other.
- The digest lists every running game, on any server, in which he is to act now, with a link and how long it
  has waited on him; nothing else (no board, no hand, no away reason). With no such game, no DM is sent that day.
- The next due time is kept in `user_settings.digest_due`; it is moved to the next day before the DM is sent, by a
  conditional update, so one process sends it once (a crash in between loses that day's digest rather than
  sending it twice, as reminders do: bot.play.timers). The process running shard 0 sends every digest (Discord
  gives direct messages to shard 0 too); after downtime one digest is sent, then the next day's.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot.play.host import Host
from bot.play.pauses import zone
from bot.play.turn_clock import wait_began
from bot.runtime.background import Background
from bot.runtime.due import Wait, run_when_due, wait_for_event
from bot.storage.store import SessionRecord

log = logging.getLogger(__name__)

POLL_SECONDS = 60.0


@dataclass(frozen=True)
class Digest:
    """The games in which `player` is to act, each with how long it has waited on him."""

    player: str
    games: list[tuple[SessionRecord, float]]


SendDigest = Callable[[Digest], Awaitable[None]]
def next_digest(now: float, hour: int, time_zone: str | None) -> float:
    """The first `hour`:00 in his zone after `now`."""
    tz = zone(time_zone)
    local = dt.datetime.fromtimestamp(now, tz)
    due = dt.datetime.combine(local.date(), dt.time(hour), tz)
    while due.timestamp() <= now:
        due = dt.datetime.combine(due.date() + dt.timedelta(days=1), dt.time(hour), tz)
    return due.timestamp()


async def set_digest(host: Host, user_id: str, hour: int | None) -> float | None:
    """Turn his digest on at `hour` (turning per-turn DMs off), or off (None); its next due time."""
    if hour is None:
        await host.store.pacing.set_player(user_id, digest_hour=None, digest_due=None)
        return None
    chosen = (await host.store.pacing.players([user_id]))[user_id]
    due = next_digest(host.clock(), hour, chosen.time_zone)
    await host.store.pacing.set_player(user_id, digest_hour=hour, digest_due=due)
    await host.set_turn_dms(user_id, False)
    return due


async def games_to_act(host: Host, player: str, now: float) -> list[tuple[SessionRecord, float]]:
    """Every running game waiting on `player` (a person's seat, not stood in for), oldest wait first."""
    found = []
    for session in await host.store.sessions_with_player(player, ["active"]):
        if player in host.to_act(session) and player not in session.ai_played:
            found.append((session, now - wait_began(session.waiting_since, player, session.updated_at)))
    return sorted(found, key=lambda entry: -entry[1])


class DigestSender:
    """Sends the digests due; `run` is the long-lived loop, `send_due` one pass."""

    def __init__(self, host: Host, send: SendDigest, *, clock: Callable[[], float] | None = None,
                 wait: Wait = wait_for_event) -> None:
        self.host = host
        self.send = send
        self.clock = clock or host.clock
        self._wait = wait
        self._wakeup = asyncio.Event()
        self._loop = Background("parlor-digest", self.run)

    def start(self) -> None:
        self._loop.start()

    async def stop(self) -> None:
        await self._loop.stop()

    async def run(self) -> None:
        await run_when_due(self.send_due, self.host.store.pacing.next_digest, wakeup=self._wakeup, wait=self._wait,
                           clock=self.clock, poll=POLL_SECONDS, log=log, failed="the digest sender failed; retrying")

    async def send_due(self) -> int:
        """Send every digest due now that lists a game; how many were sent (or attempted)."""
        now, sent = self.clock(), 0
        for chosen, was_due in await self.host.store.pacing.due_digests(now):
            following = None if chosen.digest_hour is None else next_digest(now, chosen.digest_hour, chosen.time_zone)
            if not await self.host.store.pacing.move_digest(chosen.user_id, was_due, following):
                continue  # another process took it
            games = await games_to_act(self.host, chosen.user_id, now)
            if not games or following is None:
                continue
            try:
                await self.send(Digest(chosen.user_id, games))
            except Exception:
                log.exception("could not send a digest")
            sent += 1
        return sent
