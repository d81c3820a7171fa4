"""The sessions this process knows: each game's lock, and its record, parsed state and legal actions as last
committed or read, so a move needs no read first. Every collaborator of the host reads and writes games here.

Memory stays flat however many games the bot has hosted: a lock lives while someone holds or awaits it, the
rest is kept for the most recently used sessions only. A session another process changed is dropped (`forget`).
"""

from __future__ import annotations

import asyncio
import weakref
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel

from bot.play.refusals import ELSEWHERE, STALE_BUTTON, UserError, not_begun
from bot.storage.store import OPEN_STATUSES, ChannelBusy, MoveRecord, SessionRecord, StaleVersion, Store
from games import get_game
from games.core import Game

Clock = Callable[[], float]
STATE_CACHE_SIZE = 2048
"""Sessions (and parsed states) kept in memory; others are read back from the store when next used."""
LEGAL_CACHE_SIZE = 64
"""Sessions whose legal actions are kept: a move asks for them several times (the outcome, the table,
the panels, the next press) and Crayon Rails takes milliseconds to list them; few games move at once."""


class Sessions:
    """The games as this process knows them, over a `Store`, and the hooks told when one changes."""

    def __init__(self, store: Store, clock: Clock, seed_source: Callable[[], int]) -> None:
        self.store = store
        self.clock = clock
        self.seed_source = seed_source
        """Draws each game's secret 256-bit dice seed (games.dice) when it begins; tests pass their own."""
        self.timers_added: Callable[[float], None] = lambda due_at: None
        """Called with the earliest new due time after a commit that added timers (the dispatcher wakes); the
        store tells, since only it knows which turn notices were written (bot.play.turn_clock)."""
        self.changed: Callable[[SessionRecord], None] = lambda session: None
        """Called with the session after every committed change of a running game (the AI looks: bot.play.ai_player)."""
        self.moved_elsewhere: Callable[[int], None] = lambda session_id: None
        """Called when this process finds that another process changed a game (a move on a web page served
        there, bot.web): what it kept of that game's table is out of date too (bot.discord.table)."""
        self.locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self.states: OrderedDict[int, tuple[int, BaseModel]] = OrderedDict()
        self.records: OrderedDict[int, SessionRecord] = OrderedDict()
        """The sessions as this process last committed or read them, so a move needs no read first: its
        version-checked write refuses a stale copy (another process moved), which is then re-read."""
        self.legal: OrderedDict[int, tuple[int, dict[str, list[dict]]]] = OrderedDict()
        self.open_in: OrderedDict[str, int] = OrderedDict()
        """The open session last found in each channel (checked against `records` before use)."""
        self.last_seq: dict[int, int] = {}
        """The number of the last move logged, per session in `records` (it numbers the next move's dice)."""
        self.undoers: dict[int, tuple[int, str | None]] = {}
        """Per session in `records`: (version, the player who may take back the latest move then)."""

    def lock(self, session_id: int) -> asyncio.Lock:
        lock = self.locks.get(session_id)
        if lock is None:
            lock = self.locks[session_id] = asyncio.Lock()
        return lock

    def remember_record(self, session: SessionRecord) -> SessionRecord:
        """Cache the session as committed; an older snapshot (a render still drawing it while the AI
        moved on, bot.play.ai_player) never replaces a later version."""
        cached = self.records.get(session.id)
        if cached is not None and cached.version > session.version:
            return session
        self.records.pop(session.id, None)
        self.records[session.id] = session
        while len(self.records) > STATE_CACHE_SIZE:
            evicted, _ = self.records.popitem(last=False)
            self.last_seq.pop(evicted, None)
            self.undoers.pop(evicted, None)
        return session

    def forget(self, session_id: int) -> None:
        """Drop this process's copies of a game another process has changed."""
        self.moved_elsewhere(session_id)
        self.records.pop(session_id, None)
        self.legal.pop(session_id, None)
        self.last_seq.pop(session_id, None)
        self.undoers.pop(session_id, None)
        self.states.pop(session_id, None)

    def read_in(self, session: SessionRecord) -> SessionRecord:
        """Keep a session read from the store. One later than this process's copy was moved by another process
        (a Johari DM reply's button, which Discord sends to shard 0; a web page): what this process remembers
        of it, its table's message above all, may be out of date, so it is dropped."""
        cached = self.records.get(session.id)
        if cached is not None and cached.version < session.version:
            self.forget(session.id)
        return self.remember_record(session)

    def remember(self, session: SessionRecord, state: BaseModel) -> None:
        """Cache the parsed state of a running game; finished ones are rarely read again."""
        cached = self.records.get(session.id)
        if cached is not None and cached.version > session.version:
            return
        self.remember_record(session)
        self.states.pop(session.id, None)
        if session.status == "active":
            self.states[session.id] = (session.version, state)
            while len(self.states) > STATE_CACHE_SIZE:
                self.states.popitem(last=False)

    async def current(self, session_id: int) -> SessionRecord:
        """The session as last committed here, else read from the store."""
        cached = self.records.get(session_id)
        return cached if cached is not None else await self.session(session_id)

    async def session(self, session_id: int) -> SessionRecord:
        session = await self.store.session(session_id)
        if session is None:
            raise UserError("That game no longer exists.")
        return self.read_in(session)

    async def open_session(self, channel_id: str) -> SessionRecord:
        """The channel's lobby or running game, or a refusal saying how to start one.

        The session found last time is used without a read while this process's copy of it is still
        open: it is the one (a channel has one open session, and a new one opens only once it is over).
        """
        known = self.open_in.get(channel_id)
        cached = self.records.get(known) if known is not None else None
        if cached is not None and cached.status in OPEN_STATUSES and cached.channel_id == channel_id:
            self.records.move_to_end(cached.id)
            return cached
        session = await self.store.open_session_in(channel_id)
        if session is None:
            raise UserError(await self.no_open_game(channel_id))
        self.open_in.pop(channel_id, None)
        self.open_in[channel_id] = session.id
        while len(self.open_in) > STATE_CACHE_SIZE:
            self.open_in.popitem(last=False)
        return self.read_in(session)

    async def no_open_game(self, channel_id: str) -> str:
        """Why a command finds no game here: the last one is over (and how to start another), or none ever was."""
        found = await self.store.sessions_where("channel_id = ? ORDER BY id DESC LIMIT 1", (channel_id,))
        if not found:
            return "There is no game in this channel. Start one with `/game start`."
        return self.ended_words(found[0])

    def ended_words(self, session: SessionRecord) -> str:
        """Why an ended game (or closed lobby) takes no move, and how to start another: the same words for a
        command (`no_open_game`) and a button or menu (`require_playable`); a match's game offers its rematch."""
        title = get_game(session.slug).title
        if session.status == "abandoned" and session.state is None:
            return f"The {title} lobby here was closed before its game began. `/game start` opens a new game."
        if session.status == "abandoned":
            return f"The {title} game here was abandoned. `/game start` opens a new game."
        offers_rematch = session.end_reason == "played out" and self.public_view(session).get("next_game_options")
        rematch = " or `/game rematch` for the next game of the match" if offers_rematch else ""
        return f"The {title} game here is over (`/game status` shows how it ended). Start another with " \
               f"`/game start`{rematch}."

    def require_playable(self, session: SessionRecord, game: Game, expected_version: int | None = None, *,
                         player: str | None = None) -> None:
        """Refuse a game that has not begun or is over (telling `player` what the lobby waits for), or a button
        drawn for an earlier version."""
        if session.status == "lobby":
            raise UserError(f"{game.title} has not begun yet: {not_begun(session, player)}")
        if session.status in ("finished", "abandoned"):
            raise UserError(self.ended_words(session))
        if expected_version is not None and expected_version != session.version:
            raise UserError(STALE_BUTTON)

    async def session_pressed_in(self, session_id: int, *, channel_id: str, guild_id: str | None,
                                 player: str) -> SessionRecord:
        """The session a component names, if it may act from where it was pressed.

        In a server, only the game of that very channel (and server): a component of another
        channel's game never moves it from here. In a direct message (no server), only a game the
        presser plays: his private panel. Discord only delivers a component from the message that
        carries it, so this is defence in depth.
        """
        session = await self.current(session_id)
        if guild_id is None:
            if player in session.player_ids:
                return session
        elif session.channel_id == channel_id and session.guild_id == guild_id:
            return session
        raise UserError(ELSEWHERE)

    def state_of(self, session: SessionRecord) -> BaseModel:
        """The session's engine state, parsed once per version."""
        cached = self.states.get(session.id)
        if cached and cached[0] == session.version:
            self.states.move_to_end(session.id)
            return cached[1]
        if session.state is None:
            if session.status == "abandoned":
                raise UserError("That lobby was closed before its game began. `/game start` opens a new game.")
            raise UserError(f"This game has not begun yet: {not_begun(session)}")
        state = get_game(session.slug).state_from_json(session.state)
        self.read_in(session)
        self.remember(session, state)
        return state

    def public_view(self, session: SessionRecord) -> dict:
        return get_game(session.slug).view(self.state_of(session), None)

    def view_for(self, session: SessionRecord, player: str) -> dict:
        """A seated player's own view; anyone else gets the public view."""
        who = player if player in session.player_ids else None
        return get_game(session.slug).view(self.state_of(session), who)

    def to_act(self, session: SessionRecord) -> list[str]:
        """Whom a running game waits on; nobody in a lobby or once it is over."""
        if session.status != "active":
            return []
        return list(get_game(session.slug).to_act(self.state_of(session)))

    def legal_by_player(self, session: SessionRecord) -> dict[str, list[dict]]:
        """Every seated player's legal actions now (empty for those who may not act), listed once per version."""
        if session.status != "active":
            return {player: [] for player in session.player_ids}
        cached = self.legal.get(session.id)
        if cached is None or cached[0] != session.version:
            game, state = get_game(session.slug), self.state_of(session)
            cached = self.keep_legal(session.id, session.version,
                                     {player: game.legal_actions(state, player) for player in session.player_ids})
        self.legal.move_to_end(session.id)
        return {player: list(actions) for player, actions in cached[1].items()}

    def keep_legal(self, session_id: int, version: int, legal: dict[str, list[dict]]
                   ) -> tuple[int, dict[str, list[dict]]]:
        self.legal.pop(session_id, None)
        kept = self.legal[session_id] = (version, legal)
        while len(self.legal) > LEGAL_CACHE_SIZE:
            self.legal.popitem(last=False)
        return kept

    async def moves(self, session: SessionRecord) -> list[MoveRecord]:
        return await self.store.moves(session.id)

    async def write(self, session: SessionRecord, **changes: Any) -> SessionRecord:
        """Commit `changes` to the session (guarded by its version) and keep it as committed."""
        try:
            return self.remember_record(await self.store.update_session(session, now=self.clock(),
                                                                        timers_due=self.timers_added, **changes))
        except StaleVersion:
            raise UserError("Someone else changed this game at the same moment; try again.") from None
        except ChannelBusy:
            raise UserError("Another game is already open in this channel.") from None
