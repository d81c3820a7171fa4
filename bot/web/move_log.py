"""The move log a web page shows, narrated once per move however many pages show it.

`/game log` replays a game's whole log each time it is asked; a page's log changes at every move, so
replaying it all again would cost a long game (Crayon Rails) its whole length per move. Instead the
replay (`games.record.replay_timeline`'s `Timeline`) is kept for each game with a page open, and each
new version replays only the entries it added. A first replay of many entries runs in a worker thread,
off the event loop; engines are pure, and a game's replay is only ever stepped under its own lock.
"""

from __future__ import annotations

import asyncio
import weakref
from collections import OrderedDict
from dataclasses import dataclass, field

from bot.play.host import Host
from bot.presentation.words import log_lines
from bot.storage.store import MoveRecord, SessionRecord
from bot.web.page_text import page_escaped
from games import get_game
from games.core import ScriptedRandomness
from games.record import replay_timeline
from games.undo import Timeline

KEPT_GAMES = 256
IN_A_WORKER_FROM = 20
"""Entries to replay at once from which the replay runs in a worker thread."""


@dataclass
class _Replayed:
    timeline: Timeline
    lines: list[str] = field(default_factory=list)


class MoveLogs:
    """Each watched game's narrated log, extended move by move."""

    def __init__(self, host: Host) -> None:
        self.host = host
        self._kept: OrderedDict[int, _Replayed] = OrderedDict()
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()

    async def lines(self, session: SessionRecord) -> list[str]:
        """One numbered line per entry of the game's log, as the table told it (names, no mentions)."""
        if session.setup_outcomes is None:
            return []
        lock = self._locks.get(session.id)
        if lock is None:
            lock = self._locks[session.id] = asyncio.Lock()
        async with lock:
            moves = await self.host.moves(session)
            kept = self._kept.get(session.id)
            if kept is None or len(kept.lines) > len(moves):
                game = get_game(session.slug)
                timeline, _ = next(replay_timeline(game, session.player_ids, session.options,
                                                   session.setup_outcomes, []))
                kept = _Replayed(timeline)
            new = moves[len(kept.lines):]
            if len(new) >= IN_A_WORKER_FROM:
                await asyncio.to_thread(_extend, kept, session, new)
            else:
                _extend(kept, session, new)
            self._kept[session.id] = kept
            self._kept.move_to_end(session.id)
            while len(self._kept) > KEPT_GAMES:
                self._kept.popitem(last=False)
            return list(kept.lines)


def _extend(kept: _Replayed, session: SessionRecord, moves: list[MoveRecord]) -> None:
    narrated = [(move, kept.timeline.step(move.player, dict(move.action), ScriptedRandomness(**move.outcomes)))
                for move in moves]
    kept.lines.extend(log_lines(session, narrated, escape=page_escaped))  # names as the page shows them as written
