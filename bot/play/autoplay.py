"""Moves made for a player, by his choice (`/preferences autoplay:on`): a forced move is played for him
after a short grace.

Rulings:
- Forced means: his only legal action, and of a kind that decides nothing and shows nothing to him alone. Only a
  roll qualifies (John Henry's roll with no stop to choose, a Two Fat Dudes roll or roll-off); a Johari draw, an
  end of turn or a single placement are never played for him.
- The grace (2 minutes) starts when the game first waits on him with that move; a move of his own meanwhile
  drops it (in the move's transaction: bot.storage.timers). It is kept in the database (`autoplay_due`), so it
  survives a restart, and is played by the process running the game's shard, once (`take_autoplay`).
- While he is away (bot.play.away) nothing is played for him: his game waits, frozen, until he is back. Quiet
  hours do not hold it: a roll decides nothing.
- The move is his (logged as his, under the game's committed dice, so the record still verifies); the table
  says it was made for him.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from bot.play.host import Host, MoveOutcome, UserError
from bot.play.pauses import paces
from bot.runtime.background import Background
from bot.runtime.due import Wait, run_when_due, wait_for_event
from bot.runtime.shards import Shards
from bot.storage.store import SessionRecord

log = logging.getLogger(__name__)

GRACE_SECONDS = 120.0
POLL_SECONDS = 60.0
"""The longest the loop sleeps: a forced move scheduled by another process is seen within it."""
AUTOPLAYABLE = frozenset({"roll"})

Post = Callable[[MoveOutcome, str], Awaitable[None]]


def forced_action(host: Host, session: SessionRecord, player: str) -> dict | None:
    """His one legal action if it is one Parlor may play for him (see the rulings), else None."""
    if session.status != "active" or player in session.ai_played or player not in host.to_act(session):
        return None
    legal = host.legal_actions(session, player)
    if len(legal) == 1 and legal[0].get("type") in AUTOPLAYABLE and len(legal[0]) == 1:
        return dict(legal[0])
    return None


class Autoplay:
    """Schedules forced moves of players who chose autoplay, and plays them once due."""

    def __init__(self, host: Host, post: Post, *, grace: float = GRACE_SECONDS,
                 clock: Callable[[], float] | None = None, wait: Wait = wait_for_event,
                 shards: Shards | None = None) -> None:
        self.host = host
        self.post = post
        self.grace = grace
        self.clock = clock or host.clock
        self.shards = shards
        self._wait = wait
        self._wakeup = asyncio.Event()
        self._pending: set[asyncio.Task[None]] = set()
        self._loop = Background("parlor-autoplay", self.run)

    def poke(self, session: SessionRecord) -> None:
        """A change was committed: schedule a forced move for any player of it who chose autoplay."""
        if session.status != "active":
            return
        if not any(forced_action(self.host, session, player) for player in self.host.to_act(session)):
            return
        task = asyncio.create_task(self.schedule(session), name=f"parlor-autoplay-{session.id}")
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    async def schedule(self, session: SessionRecord) -> int:
        """Write the due rows of `session`'s forced moves; how many players have one."""
        forced = [player for player in self.host.to_act(session) if forced_action(self.host, session, player)]
        chosen = await self.host.store.pacing.players(forced)
        due = self.clock() + self.grace
        for player in forced:
            if chosen[player].autoplay:
                await self.host.store.pacing.schedule_autoplay(session.id, player, due)
        if any(chosen[player].autoplay for player in forced):
            self._wakeup.set()
        return sum(chosen[player].autoplay for player in forced)

    async def resume(self) -> None:
        """At start-up: forced moves of games committed just before a stop, whose rows were never written."""
        for session in await self.host.store.sessions_where("status = 'active'"):
            if self.shards is None or self.shards.owns(session.guild_id):
                await self.schedule(session)

    def wake(self, due_at: float) -> None:
        """A forced move came due sooner than the loop sleeps (an away ended early)."""
        self._wakeup.set()

    def start(self) -> None:
        self._loop.start()

    async def stop(self) -> None:
        for task in list(self._pending):
            task.cancel()
        await asyncio.gather(*self._pending, return_exceptions=True)
        await self._loop.stop()

    async def idle(self) -> None:
        """Wait until every scheduling started by `poke` is written (tests)."""
        while self._pending:
            await asyncio.gather(*self._pending, return_exceptions=True)

    async def run(self) -> None:
        await run_when_due(self.play_due, lambda: self.host.store.pacing.next_autoplay(self.shards),
                           wakeup=self._wakeup, wait=self._wait, clock=self.clock, poll=POLL_SECONDS, log=log,
                           failed="autoplay failed; retrying")

    async def play_due(self) -> int:
        """Play every forced move due now; how many were played."""
        played = 0
        for session_id, player, _ in await self.host.store.pacing.due_autoplays(self.clock(), self.shards):
            try:
                played += await self._play(session_id, player)
            except Exception:
                log.exception("could not autoplay in session %s", session_id)
        return played

    async def _play(self, session_id: int, player: str) -> int:
        session = await self.host.session(session_id)
        now = self.clock()
        away_until = (await paces(self.host.store, session.guild_id, [player], now))[player].away_until(now)
        if away_until is not None:  # frozen while he is away: try again when he is back
            if await self.host.store.pacing.take_autoplay(session_id, player):
                await self.host.store.pacing.schedule_autoplay(session_id, player, away_until)
            return 0
        if not await self.host.store.pacing.take_autoplay(session_id, player):
            return 0  # another process played it, or he moved
        action = forced_action(self.host, session, player)
        if action is None:
            return 0
        try:
            outcome = await self.host.act(session_id, player, action, expected_version=session.version)
        except UserError:
            return 0  # he (or someone) moved at that moment: the new state schedules its own
        await self.post(outcome, player)
        return 1
