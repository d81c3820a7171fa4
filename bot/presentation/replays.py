"""Replays made once and kept: the log replayed in a worker thread, the frames drawn and encoded in
the drawing pool (bot.runtime.drawing), never on the event loop.

A finished game never changes, so a replay is kept per game (and version, and the names its pictures give,
which a rename would change) in a small in-memory cache; asks for one being made share its making. Only
finished games are replayed: a running game's story is its table.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TypeVar
from weakref import WeakKeyDictionary

from bot.play.host import Host
from bot.presentation.frontend import joined
from bot.presentation.render.animation import Animation, animated
from bot.presentation.replay import Update, frames_of, picture, updates
from bot.presentation.words import image_names
from bot.runtime.drawing import draw_off_loop
from bot.storage.store import MoveRecord, SessionRecord
from games import get_game

KEPT = 8
"""Replays kept in memory: a few megabytes each at most."""
STEPS_KEPT = 32
"""Games whose updates the web's step-through keeps (a long game's replay takes a while)."""
PICTURES_KEPT = 512

T = TypeVar("T")


@dataclass(frozen=True)
class Replay:
    animation: Animation
    alt_text: str
    frames: int

    @property
    def filename(self) -> str:
        return f"replay.{self.animation.extension}"


def replayable(session: SessionRecord) -> str | None:
    """Why the game has no replay (None: it has one)."""
    if session.status in ("lobby", "active"):
        return "is still being played; its table shows it as it stands" if session.status == "active" \
            else "has not begun"
    if session.setup_outcomes is None:
        return "never began"
    return None


def summary(session: SessionRecord, moves: int, frames: int) -> str:
    """The alt text of a replay: the game, its players, its result and how many moves it took."""
    names = image_names(session)
    players = joined([names[player] for player in session.player_ids])
    winners = [names.get(player, player) for player in (session.result or {}).get("winners", [])]
    if session.status == "abandoned":
        result = "abandoned"
    else:
        won = f"won by {joined(winners)}" if winners else "nobody won"
        result = f"{won}{', claimed on the turn clock' if session.end_reason == 'timeout' else ''}"
    return (f"Replay of {get_game(session.slug).title} #{session.id}: {players}; {result}; "
            f"{moves} move{'s' if moves != 1 else ''} in {frames} frame{'s' if frames != 1 else ''}.")


def _key(session: SessionRecord) -> tuple:
    return session.id, session.version, tuple(sorted(image_names(session).items()))


class Replays:
    """The replays of one process: made off the loop, shared while being made, kept once made."""

    def __init__(self, moves_of: Callable[[SessionRecord], Awaitable[list[MoveRecord]]]) -> None:
        self._moves_of = moves_of
        self._made: OrderedDict[tuple, asyncio.Future[Replay]] = OrderedDict()
        self._steps: OrderedDict[tuple, asyncio.Future[list[Update]]] = OrderedDict()
        self._pictures: OrderedDict[tuple, bytes] = OrderedDict()

    async def replay(self, session: SessionRecord) -> Replay:
        return await _shared(self._made, _key(session), lambda: self._make(session), KEPT)

    async def steps(self, session: SessionRecord) -> list[Update]:
        """Every update of the finished game's table, replayed from its log in a worker thread."""
        return await _shared(self._steps, _key(session), lambda: self._replayed(session), STEPS_KEPT)

    async def picture(self, session: SessionRecord, index: int) -> bytes:
        """The table's picture at update `index` (0: as the game began)."""
        key = (*_key(session), index)
        png = self._pictures.get(key)
        if png is None:
            png = await draw_off_loop(picture, session.slug, (await self.steps(session))[index])
            self._pictures[key] = png
            while len(self._pictures) > PICTURES_KEPT:
                self._pictures.popitem(last=False)
        return png

    async def _replayed(self, session: SessionRecord) -> list[Update]:
        return await asyncio.to_thread(updates, session, await self._moves_of(session))

    async def _make(self, session: SessionRecord) -> Replay:
        found = await self.steps(session)
        frames = frames_of(session, found)
        made = await draw_off_loop(animated, session.slug, frames)
        moves = sum(1 for update in found[1:] if update.player is not None)
        return Replay(made, summary(session, moves, len(frames)), len(frames))


async def _shared(cache: OrderedDict[tuple, asyncio.Future[T]], key: tuple,
                     make: Callable[[], Awaitable[T]], kept: int) -> T:
    """`make()` once per key: a second ask awaits the first's making; a failed making is not kept."""
    making = cache.get(key)
    if making is None:
        making = asyncio.ensure_future(make())
        cache[key] = making
        while len(cache) > kept:
            cache.popitem(last=False)
        making.add_done_callback(lambda done: _forget_failed(cache, key, done))
    else:
        cache.move_to_end(key)
    return await asyncio.shield(making)


def _forget_failed(cache: OrderedDict, key: tuple, done: asyncio.Future) -> None:
    if (done.cancelled() or done.exception() is not None) and cache.get(key) is done:
        del cache[key]


_REPLAYS: WeakKeyDictionary[Host, Replays] = WeakKeyDictionary()


def replays_of(host: Host) -> Replays:
    """The host's replays: one cache for both windows (a replay asked in Discord and a step-through on the web of
    the same game share its replayed log)."""
    replays = _REPLAYS.get(host)
    if replays is None:
        replays = _REPLAYS[host] = Replays(host.moves)
    return replays
