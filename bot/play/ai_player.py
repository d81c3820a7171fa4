"""Parlor at the table: the AI moves for AI seats and for idle players it stands in for.

The AI is a player like any other: it moves through `Host.act` (so its moves are committed,
logged and replayable) and its moves are shown by the same reply path as anyone's. After every
committed change the host calls `poke(session)`. When the game then waits on a seat the AI plays,
the runner waits a short pause (so people can follow; injectable, tests pass one that does not
sleep), computes the move in a worker thread from that seat's view alone (the search never runs
on the event loop and never sees hidden information), and plays it at the version it looked at:
if a person moved meanwhile, the move is refused as stale and the AI simply looks again.

Rulings: the AI also answers optional calls a game offers it while another player is to act
(calling Jump in Follow the Arrow); it does not wait longer than its pause for a person's optional
call on its own move (a call made before it moves applies). AI seats are never waited on, reminded
or claimed against. A person cannot move a seat while the AI stands in for him: `/game return` first.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Awaitable, Callable

from bot.play.host import Host, MoveOutcome, UserError
from bot.runtime.shards import Shards
from bot.storage.store import SessionRecord
from games import get_game
from games.ai import choose_action
from games.core import SeededRandomness

log = logging.getLogger(__name__)

PAUSE_SECONDS = 2.0
"""How long the AI waits before it moves, so people see one move at a time."""
THINK_SECONDS = 0.6
"""The search's time budget per move."""

Post = Callable[[MoveOutcome], Awaitable[None]]
Sleep = Callable[[float], Awaitable[None]]


class AiPlayer:
    """Plays every AI-played seat of every running game, one task per game while it has a move to make."""

    def __init__(self, host: Host, post: Post, *, pause: float = PAUSE_SECONDS, think: float = THINK_SECONDS,
                 sleep: Sleep = asyncio.sleep, seed_source: Callable[[], int] = lambda: secrets.randbits(64),
                 iterations: int | None = None) -> None:
        self.host = host
        self.post = post
        self.pause = pause
        self.think = think
        self.iterations = iterations
        """A fixed search size instead of the time budget (tests: the same move on every machine)."""
        self.sleep = sleep
        """How the pause is waited (tests pass one that does not sleep)."""
        self.seed_source = seed_source
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._again: set[int] = set()

    def poke(self, session: SessionRecord) -> None:
        """A change was committed: start playing if the game now has a move for the AI."""
        if session.status != "active" or not session.ai_played:
            return
        running = self._tasks.get(session.id)
        if running is not None and not running.done():
            self._again.add(session.id)
            return
        self._tasks[session.id] = asyncio.create_task(self._play(session.id), name=f"parlor-ai-{session.id}")

    async def resume(self, shards: Shards | None = None) -> int:
        """At start-up: pick up every running game (of this process's shards) where the AI has a move."""
        found = 0
        for session in await self.host.store.sessions_where("status = 'active'"):
            if session.ai_played and (shards is None or shards.owns(session.guild_id)):
                self.poke(session)
                found += 1
        return found

    async def idle(self) -> None:
        """Wait until no game has an AI move under way (tests, and a clean shutdown)."""
        while running := [task for task in self._tasks.values() if not task.done()]:
            await asyncio.gather(*running, return_exceptions=True)

    async def stop(self) -> None:
        for task in self._tasks.values():
            task.cancel()
        await asyncio.gather(*self._tasks.values(), return_exceptions=True)
        self._tasks.clear()

    async def _play(self, session_id: int) -> None:
        try:
            while True:
                self._again.discard(session_id)
                moved = await self._move_once(session_id)
                if not moved and session_id not in self._again:
                    return
        except Exception:
            log.exception("the AI could not move in session %s", session_id)

    def mover(self, session: SessionRecord) -> str | None:
        """The AI-played seat with something to do: one the game waits on first, else one with an option."""
        if session.status != "active":
            return None
        to_act = self.host.to_act(session)
        played = [p for p in session.player_ids if p in session.ai_played]
        for player in [p for p in played if p in to_act] + [p for p in played if p not in to_act]:
            if self.host.legal_actions(session, player):
                return player
        return None

    async def _move_once(self, session_id: int) -> bool:
        await self.sleep(self.pause)
        session = await self.host.session(session_id)
        player = self.mover(session)
        if player is None:
            return False
        game = get_game(session.slug)
        view = self.host.view_for(session, player)
        rng = SeededRandomness(self.seed_source())
        budget = {"iterations": self.iterations} if self.iterations else {"seconds": self.think}
        action = await asyncio.to_thread(choose_action, game, view, player, rng, **budget)
        try:
            outcome = await self.host.act(session.id, player, action, expected_version=session.version, by_ai=True)
        except UserError:
            if (await self.host.session(session_id)).version != session.version:
                return True  # someone moved first, or the seat was taken back: look again
            # Refused on the very game it chose for: a fault of the search, not a race. Looking again would choose
            # the same forever, so the seat plays its first legal action instead (the log names the action's type
            # only: its fields may name what the seat alone sees).
            log.error("the AI's %s in session %s was refused; it plays its first legal action instead",
                      action.get("type"), session_id)
            fallback = self.host.legal_actions(session, player)[0]
            try:
                outcome = await self.host.act(session.id, player, fallback, expected_version=session.version,
                                              by_ai=True)
            except UserError:
                return True
        await self.post(outcome)
        return True
