"""The game host: one session per channel, and the whole path of a move.

A move is: take the session's lock, load it, let the engine apply the action
with a recording randomness, then commit the move (with its chance) and the new
state in one transaction, guarded by the version. Only after that commit does
the caller tell Discord anything. Refusals raise `UserError` and write nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
import weakref
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from bot.play.ai_seats import new_ai_seats
from bot.play.move_replay import replayed
from bot.play.pauses import claim_left
from bot.play.player_views import PlayerViews
from bot.play.ratings import rating_keys, updated_ratings
from bot.play.text_view import TextView
from bot.play.turn_clock import (
    Periods,
    WaitPlan,
    format_duration,
    no_wait,
    plan_wait,
)
from bot.presentation.frontend import EARLIER_CUT, dropped_earlier
from bot.presentation.user_text import name_as_written
from bot.runtime.metrics import METRICS
from bot.storage.store import (
    OPEN_STATUSES,
    ChannelBusy,
    MoveRecord,
    RatingChange,
    Seat,
    SessionRecord,
    StaleVersion,
    Store,
)
from games import get_game
from games.core import (
    Game,
    IllegalMove,
    Randomness,
    RecordingRandomness,
    SeededRandomness,
    UnknownGame,
)
from games.dice import SETUP_SEQ, DiceRandomness, seed_from_int
from games.record import replay_timeline, timeout_result, with_names
from games.undo import STOOD_IN, UNDO_ACTION, UNDO_TYPE, Timeline, why_it_stands

log = logging.getLogger(__name__)
Clock = Callable[[], float]
STALE_BUTTON = ("That button belongs to an earlier turn: use the latest message's buttons "
                "or the slash commands.")
IN_FLIGHT = ("Your move just before this command was still being made, so this one did nothing: look at the "
             "table, then send it again if you meant another move.")
ELSEWHERE = ("That belongs to a game in another channel, so it does nothing here: use the buttons of "
             "this channel's game, or the slash commands.")
ABANDON_WHO = "(Its players, or members with Manage Channels, may `/game abandon` it.)"
"""Who may end an open game early: said to anyone told a game stands in his way, who may not be one of them."""
SEATS_SAVED = "the seats left are saved for the invited players"
NO_GAME_YET = "No game has been played in this channel yet. Start one with `/game start`."
STATE_CACHE_SIZE = 2048
"""Sessions (and parsed states) kept in memory; others are read back from the store when next used."""
LEGAL_CACHE_SIZE = 64
"""Sessions whose legal actions are kept: a move asks for them several times (the outcome, the table,
the panels, the next press) and Crayon Rails takes milliseconds to list them; few games move at once."""


class UserError(Exception):
    """A refusal a user caused; the message says what to do instead."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass
class MoveOutcome:
    """What a move (or the start of a game) did, for the replies to Discord."""

    session: SessionRecord
    events: list[dict]
    public_view: dict
    views_before: Mapping[str, dict] = field(default_factory=dict)
    views_after: Mapping[str, dict] = field(default_factory=dict)
    """Each seated player's view before and after the move, worked out on first use (bot.play.player_views)."""
    began: bool = False
    legal: dict[str, list[dict]] = field(default_factory=dict)
    """Each seated player's legal actions after the move: what the table's components offer."""

    @property
    def to_act(self) -> list[str]:
        return list(self.public_view.get("to_act") or [])


@dataclass
class Upcoming:
    """A move about to commit, as its table will show it (Host.committing): the table prepares its message
    while the commit is in flight, and sends nothing unless the commit succeeds with this very session."""

    session: SessionRecord
    state: BaseModel
    public_view: dict
    undoer: str | None
    """Who may take this move back once it is committed (bot.play.host `undoer`)."""
    syncing: asyncio.Event = field(default_factory=asyncio.Event)
    """Set once the commit's statements are done and its sync has begun (or it has ended): work meant to
    overlap the commit waits for it, so as not to hold the database thread's interpreter lock."""
    landed: asyncio.Event = field(default_factory=asyncio.Event)
    """Set the moment the commit is done (`committed` is then the session as committed), or has failed
    (`committed` stays None); what waits for it runs before the host's own work after the commit."""
    committed: SessionRecord | None = None
    _legal: dict[str, list[dict]] | None = None

    def sync_began(self) -> None:
        """The commit's statements are done and the disk syncs: what overlaps it may start, and the legal actions
        after the move are listed now (the table's message and the move's outcome need them), not after."""
        self.syncing.set()
        with contextlib.suppress(Exception):  # listed again by whoever needs them, failing there if it must
            self.legal()

    def land(self, committed: SessionRecord) -> None:
        self.committed = committed
        self.landed.set()

    def legal(self) -> dict[str, list[dict]]:
        """Every seated player's legal actions after the move (listed once)."""
        if self._legal is None:
            game = get_game(self.session.slug)
            active = self.session.status == "active"
            self._legal = {player: game.legal_actions(self.state, player) if active else []
                           for player in self.session.player_ids}
        return {player: list(actions) for player, actions in self._legal.items()}

    def to_act(self) -> list[str]:
        return get_game(self.session.slug).to_act(self.state) if self.session.status == "active" else []


def undoer_among(session: SessionRecord, who: str | None) -> str | None:
    """`who`, if the running game lets him take back its latest move (never the AI or its stand-in)."""
    if session.status != "active" or session.setup_outcomes is None:
        return None
    seat = next((seat for seat in session.players if seat.id == who), None)
    return None if seat is None or seat.ai or seat.stand_in else seat.id


def who_played(session: SessionRecord) -> dict[str, Any]:
    """What a result records about the AI: its own seats, and the versions it stood in for people."""
    recorded: dict[str, Any] = {}
    if ai_seats := [seat.id for seat in session.players if seat.ai]:
        recorded["ai_seats"] = ai_seats
    if stand_ins := stand_ins_of(session):
        recorded["stand_ins"] = stand_ins
    return recorded


def stand_ins_of(session: SessionRecord) -> dict[str, list[list[int]]]:
    """The stretches of moves in which the AI stood in for each person it played for (games.undo `StandIns`)."""
    return {seat.id: seat.stand_ins for seat in session.players if seat.stand_ins}


def not_begun(session: SessionRecord, player: str | None = None) -> str:
    """What a lobby waits for, for anyone who tries to play in it: only its creator begins it early.

    An invited player is told to join, never to `/game begin` (issue 21): a lobby that seats as many as
    the game takes begins by itself, and only the one who opened it may begin it before. A player who has
    joined is not told to join again: he is told who begins it, himself when he may."""
    game = get_game(session.slug)
    seated = player in session.player_ids
    join = "you have joined" if seated else "press **Join** (or `/game join`)"
    if game.min_players == game.max_players:
        return f"{join}; it begins by itself once {game.max_players} have joined."
    if seated and (player == session.creator or session.creator not in session.player_ids):
        starter = "you begin it with **Begin** (or `/game begin`)"
    elif session.creator in session.player_ids:
        starter = f"{session.name_of(session.creator)} begins it with **Begin**"
    else:
        starter = "a player begins it with **Begin**"
    return (f"{join}; {starter} once {game.min_players} have joined, and it begins by itself once "
            f"{game.max_players} have.")


def last_timeline(session: SessionRecord, moves: list[MoveRecord]) -> Timeline:
    """The `Timeline` after the last of `moves` (games.undo): pure, so it may run off the event loop."""
    steps = replay_timeline(get_game(session.slug), session.player_ids, session.options,
                            session.setup_outcomes or {}, ((m.player, m.action, m.outcomes) for m in moves),
                            stand_ins_of(session))
    for timeline, _ in steps:  # noqa: B007 (the timeline after the last entry is returned)
        pass
    return timeline


TURN_EVENTS_KEPT = 40
"""Events narrated on one table at most (a long chain of one player's steps keeps its latest)."""


def turn_events(session: SessionRecord, before: list[str], after: list[str], events: list[dict]) -> list[dict]:
    """What the table narrates after a move: this move's events when the player(s) to act changed,
    else the events since they last changed followed by this move's. Past `TURN_EVENTS_KEPT` the oldest
    go, and an `EARLIER_CUT` mark first counts them, so the table says where they went (`/game log`)."""
    if set(before) != set(after):
        dropped, told = 0, list(events)
    else:
        dropped = dropped_earlier(session.turn_events)
        told = [*session.turn_events[1 if dropped else 0:], *events]
    dropped += max(0, len(told) - TURN_EVENTS_KEPT)
    told = told[-TURN_EVENTS_KEPT:]
    return [{"type": EARLIER_CUT, "events": dropped}, *told] if dropped else told


class Host:
    """Sessions per channel over a `Store`; all game changes go through here."""

    def __init__(self, store: Store, clock: Clock = time.time,
                 seed_source: Callable[[], int] = lambda: secrets.randbits(256),
                 periods: Periods | None = None) -> None:
        self.store = store
        self.clock = clock
        self._seed_source = seed_source
        """Draws each game's secret 256-bit dice seed (games.dice) when it begins; tests pass their own."""
        self.default_periods = periods or Periods()
        self.timers_added: Callable[[float], None] = lambda due_at: None
        """Called with the earliest new due time after a commit that added timers (the dispatcher wakes); the
        store tells, since only it knows which turn notices were written (bot.play.turn_clock)."""
        self.changed: Callable[[SessionRecord], None] = lambda session: None
        """Called with the session after every committed change of a running game (the AI looks: bot.play.ai_player)."""
        self.moved_elsewhere: Callable[[int], None] = lambda session_id: None
        """Called when this process finds that another process changed a game (a move on a web page served
        there, bot.web): what it kept of that game's table is out of date too (bot.discord.table)."""
        self.committing: Callable[[Upcoming], None] = lambda upcoming: None
        """Called just before a move's commit with the session as it will be once committed: the table starts
        drawing it and writing its message while the commit is in flight (bot.discord.table). The commit may still
        fail, so nothing may reach Discord from here."""
        # A session's lock lives while someone holds or awaits it; parsed states are kept for the most
        # recently used sessions only, so memory stays flat however many games the bot has hosted.
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._states: OrderedDict[int, tuple[int, BaseModel]] = OrderedDict()
        # The sessions as this process last committed or read them, so a move needs no read first: its
        # version-checked write refuses a stale copy (another process moved), which is then re-read.
        self._records: OrderedDict[int, SessionRecord] = OrderedDict()
        self._legal: OrderedDict[int, tuple[int, dict[str, list[dict]]]] = OrderedDict()
        self._periods: dict[str | None, Periods] = {}
        self._open_in: OrderedDict[str, int] = OrderedDict()
        """The open session last found in each channel (checked against `_records` before use)."""
        self.text_view = TextView(store)
        """Who gets text instead of pictures (bot.play.text_view)."""
        self._last_seq: dict[int, int] = {}
        """The number of the last move logged, per session in `_records` (it numbers the next move's dice)."""
        self._undoers: dict[int, tuple[int, str | None]] = {}
        """Per session in `_records`: (version, the player who may take back the latest move then)."""
        self._moving: dict[tuple[int, str], int] = {}
        """(session, player) -> how many of his moves are on their way (in `act`, not yet committed or refused)."""

    # -- lookups -------------------------------------------------------------

    def _lock(self, session_id: int) -> asyncio.Lock:
        lock = self._locks.get(session_id)
        if lock is None:
            lock = self._locks[session_id] = asyncio.Lock()
        return lock

    def _remember_record(self, session: SessionRecord) -> SessionRecord:
        """Cache the session as committed; an older snapshot (a render still drawing it while the AI
        moved on, bot.play.ai_player) never replaces a later version."""
        cached = self._records.get(session.id)
        if cached is not None and cached.version > session.version:
            return session
        self._records.pop(session.id, None)
        self._records[session.id] = session
        while len(self._records) > STATE_CACHE_SIZE:
            evicted, _ = self._records.popitem(last=False)
            self._last_seq.pop(evicted, None)
            self._undoers.pop(evicted, None)
        return session

    def _forget(self, session_id: int) -> None:
        """Drop this process's copies of a game another process has changed."""
        self.moved_elsewhere(session_id)
        self._records.pop(session_id, None)
        self._legal.pop(session_id, None)
        self._last_seq.pop(session_id, None)
        self._undoers.pop(session_id, None)
        self._states.pop(session_id, None)

    def _read_in(self, session: SessionRecord) -> SessionRecord:
        """Keep a session read from the store. One later than this process's copy was moved by another process
        (a Johari DM reply's button, which Discord sends to shard 0; a web page): what this process remembers
        of it, its table's message above all, may be out of date, so it is dropped."""
        cached = self._records.get(session.id)
        if cached is not None and cached.version < session.version:
            self._forget(session.id)
        return self._remember_record(session)

    async def current(self, session_id: int) -> SessionRecord:
        """The session as last committed here, else read from the store."""
        cached = self._records.get(session_id)
        return cached if cached is not None else await self.session(session_id)

    def _remember(self, session: SessionRecord, state: BaseModel) -> None:
        """Cache the parsed state of a running game; finished ones are rarely read again."""
        cached = self._records.get(session.id)
        if cached is not None and cached.version > session.version:
            return
        self._remember_record(session)
        self._states.pop(session.id, None)
        if session.status == "active":
            self._states[session.id] = (session.version, state)
            while len(self._states) > STATE_CACHE_SIZE:
                self._states.popitem(last=False)

    async def open_session(self, channel_id: str) -> SessionRecord:
        """The channel's lobby or running game, or a refusal saying how to start one.

        The session found last time is used without a read while this process's copy of it is still
        open: it is the one (a channel has one open session, and a new one opens only once it is over).
        """
        known = self._open_in.get(channel_id)
        cached = self._records.get(known) if known is not None else None
        if cached is not None and cached.status in OPEN_STATUSES and cached.channel_id == channel_id:
            self._records.move_to_end(cached.id)
            return cached
        session = await self.store.open_session_in(channel_id)
        if session is None:
            raise UserError(await self._no_open_game(channel_id))
        self._open_in.pop(channel_id, None)
        self._open_in[channel_id] = session.id
        while len(self._open_in) > STATE_CACHE_SIZE:
            self._open_in.popitem(last=False)
        return self._read_in(session)

    async def _no_open_game(self, channel_id: str) -> str:
        """Why a command finds no game here: the last one is over (and how to start another), or none ever was."""
        found = await self.store.sessions_where("channel_id = ? ORDER BY id DESC LIMIT 1", (channel_id,))
        if not found:
            return "There is no game in this channel. Start one with `/game start`."
        return self._ended_words(found[0])

    def _ended_words(self, session: SessionRecord) -> str:
        """Why an ended game (or closed lobby) takes no move, and how to start another: the same words for a
        command (`_no_open_game`) and a button or menu (`_require_playable`); a match's game offers its rematch."""
        title = get_game(session.slug).title
        if session.status == "abandoned" and session.state is None:
            return f"The {title} lobby here was closed before its game began. `/game start` opens a new game."
        if session.status == "abandoned":
            return f"The {title} game here was abandoned. `/game start` opens a new game."
        offers_rematch = session.end_reason == "played out" and self.public_view(session).get("next_game_options")
        rematch = " or `/game rematch` for the next game of the match" if offers_rematch else ""
        return f"The {title} game here is over (`/game status` shows how it ended). Start another with " \
               f"`/game start`{rematch}."

    async def last_session_in(self, channel_id: str) -> SessionRecord:
        """The channel's open lobby or game, else its most recent game that began, else its last lobby: a lobby
        closed before its game began does not hide the game before it (/game status, table, log, web)."""
        found = await self.store.sessions_where(
            "channel_id = ? ORDER BY (status = 'lobby' OR state IS NOT NULL) DESC, id DESC LIMIT 1", (channel_id,))
        if not found:
            raise UserError(NO_GAME_YET)
        return found[0]

    async def last_game_in(self, channel_id: str, *, over: bool = False) -> SessionRecord | None:
        """The channel's most recent game that began (only one that is over, if `over`); None if none did.

        A lobby closed before its game began never was a game: what "the last game" means to a user
        (its rematch, its record) passes over it to the game played before.
        """
        where = "channel_id = ? AND state IS NOT NULL" + (" AND status IN ('finished', 'abandoned')" if over else "")
        found = await self.store.sessions_where(f"{where} ORDER BY id DESC LIMIT 1", (channel_id,))
        return found[0] if found else None

    async def rematch_after(self, session: SessionRecord) -> SessionRecord | None:
        """The rematch of a finished game, once begun: the next game that began in its channel, if it is the same
        game with the same players in the same seats (what `rematch` starts, or a new game the same players
        started by hand: to someone following them, the same thing). None for any other game."""
        if session.status != "finished":
            return None
        found = await self.store.sessions_where("channel_id = ? AND id > ? AND state IS NOT NULL ORDER BY id LIMIT 1",
                                                (session.channel_id, session.id))
        if not found or found[0].slug != session.slug or found[0].player_ids != session.player_ids:
            return None
        return found[0]

    async def session(self, session_id: int) -> SessionRecord:
        session = await self.store.session(session_id)
        if session is None:
            raise UserError("That game no longer exists.")
        return self._read_in(session)

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
        cached = self._states.get(session.id)
        if cached and cached[0] == session.version:
            self._states.move_to_end(session.id)
            return cached[1]
        if session.state is None:
            if session.status == "abandoned":
                raise UserError("That lobby was closed before its game began. `/game start` opens a new game.")
            raise UserError(f"This game has not begun yet: {not_begun(session)}")
        state = get_game(session.slug).state_from_json(session.state)
        self._read_in(session)
        self._remember(session, state)
        return state

    def public_view(self, session: SessionRecord) -> dict:
        return get_game(session.slug).view(self.state_of(session), None)

    def view_for(self, session: SessionRecord, player: str) -> dict:
        """A seated player's own view; anyone else gets the public view."""
        who = player if player in session.player_ids else None
        return get_game(session.slug).view(self.state_of(session), who)

    def legal_actions(self, session: SessionRecord, player: str) -> list[dict]:
        return self.legal_by_player(session).get(player, [])

    def legal_by_player(self, session: SessionRecord) -> dict[str, list[dict]]:
        """Every seated player's legal actions now (empty for those who may not act), listed once per version."""
        if session.status != "active":
            return {player: [] for player in session.player_ids}
        cached = self._legal.get(session.id)
        if cached is None or cached[0] != session.version:
            game, state = get_game(session.slug), self.state_of(session)
            cached = self._keep_legal(session.id, session.version,
                                      {player: game.legal_actions(state, player) for player in session.player_ids})
        self._legal.move_to_end(session.id)
        return {player: list(actions) for player, actions in cached[1].items()}

    def _keep_legal(self, session_id: int, version: int, legal: dict[str, list[dict]]
                    ) -> tuple[int, dict[str, list[dict]]]:
        self._legal.pop(session_id, None)
        kept = self._legal[session_id] = (version, legal)
        while len(self._legal) > LEGAL_CACHE_SIZE:
            self._legal.popitem(last=False)
        return kept

    async def require_current(self, session: SessionRecord, expected_version: int, player: str) -> SessionRecord:
        """Refuse a component for a game that is over or not begun, or drawn for an earlier version,
        unless that earlier component still offers `player` his own action (`_still_offered`).

        Returns the session to act on: a component drawn for a later version than this process's copy
        means another process moved (a web page served there, bot.web), so the game is read afresh."""
        if expected_version > session.version:
            self._forget(session.id)
            session = await self.session(session.id)
        game = get_game(session.slug)
        self._require_playable(session, game, player=player)
        if expected_version != session.version and not await self._still_offered(session, game, player,
                                                                                 expected_version):
            raise UserError(STALE_BUTTON)
        return session

    async def _still_offered(self, session: SessionRecord, game: Game, player: str, version: int) -> bool:
        """Whether a component drawn at an earlier `version` still acts for `player`.

        It does when the game waited on him at that version, he has not moved since, and nobody took a
        move back since: both players of a roll-off may press the same Roll, whoever presses first. After
        an undo the game it was drawn for may never come back (the opponent took his offer back and made
        another, moved another pawn), so an answer to it would act on a game its presser never saw.
        Whether his action is still legal is then checked against the game as it is now, like any press.
        While a game runs, every write is a move or an undo, so the entries made after `version` are the
        last `session.version - version`.
        """
        if not 0 <= version < session.version or session.setup_outcomes is None:
            return False
        moves = await self.store.moves(session.id)
        made_then = len(moves) - (session.version - version)
        if made_then < 0 or any(move.player == player or move.action.get("type") == UNDO_TYPE
                                for move in moves[made_then:]):
            return False
        then, _ = await self._replayed(session, moves[:made_then])
        return player in game.to_act(then)

    async def moves(self, session: SessionRecord) -> list[MoveRecord]:
        return await self.store.moves(session.id)

    # -- the lobby -----------------------------------------------------------

    async def open_lobby(self, *, guild_id: str | None, channel_id: str, slug: str, creator: Seat,
                         invited: list[str] | None = None, options: Mapping[str, Any] | None = None,
                         ) -> SessionRecord:
        try:
            game = get_game(slug)
        except UnknownGame as error:
            raise UserError(str(error)) from None
        invited = [user for user in invited or [] if user != creator.id]
        if len(invited) > game.max_players - 1:
            raise UserError(f"{game.title} seats at most {game.max_players} players.")
        try:
            return await self.store.create_lobby(guild_id=guild_id, channel_id=channel_id, slug=slug,
                                                 creator=creator, invited=invited, options=dict(options or {}),
                                                 now=self.clock())
        except ChannelBusy:
            existing = await self.store.open_session_in(channel_id)
            title = get_game(existing.slug).title if existing else "A game"
            raise UserError(f"{title} is already open in this channel: start yours in another channel, or once "
                            f"it is over. {ABANDON_WHO}") from None

    async def join(self, channel_id: str, seat: Seat) -> tuple[SessionRecord, MoveOutcome | None]:
        """Seat a player; a lobby that becomes full begins at once (returned as the outcome)."""
        session = await self.open_session(channel_id)
        async with self._lock(session.id):
            session = await self.session(session.id)
            game = get_game(session.slug)
            if session.status != "lobby":
                raise UserError(f"{game.title} has already begun here; wait for the next one.")
            if seat.id in session.player_ids:
                raise UserError("You have already joined. Wait for the others, or `/game leave`.")
            free = game.max_players - len(session.players)
            if free <= 0:
                raise UserError(f"{game.title} is full.")
            reserved = [user for user in session.invited if user not in session.player_ids]
            if seat.id not in reserved and free <= len(reserved):
                raise UserError(f"{SEATS_SAVED.capitalize()}: a seat opens if one of them declines with **Leave**. "
                                "Meanwhile `/game start` opens a game in another channel.")
            players = [*session.players, seat]
            if len(players) == game.max_players:
                # Seated and begun by one commit: a crash between the two would leave a full lobby
                # that never begins.
                began = await self._begin_locked(session, actor=seat.id, players=players)
                return began.session, began
            return await self._write(session, players=players), None

    async def leave(self, channel_id: str, player: str) -> SessionRecord:
        """Leave a lobby; the last one out closes it. An invited player who has not joined declines: the seat
        kept for him is free for anyone."""
        session = await self.open_session(channel_id)
        async with self._lock(session.id):
            session = await self.session(session.id)
            if session.status != "lobby" and player not in session.player_ids:
                raise UserError("You are not playing in this game, so there is nothing to leave.")
            if session.status != "lobby":
                raise UserError("The game has begun: to stop it, use `/game abandon`.")
            if player not in session.player_ids and player in session.invited:
                return await self._write(session, invited=[p for p in session.invited if p != player])
            if player not in session.player_ids:
                raise UserError("You are not in this lobby, so there is nothing to leave: **Join** (or `/game join`) "
                                "takes a seat.")
            players = [seat for seat in session.players if seat.id != player]
            if all(seat.ai for seat in players):  # the AI never begins a game, nor could anyone else abandon it
                return await self._write(session, players=players, status="abandoned", end_reason="empty lobby")
            return await self._write(session, players=players)

    async def begin(self, channel_id: str, player: str) -> MoveOutcome:
        """Begin a lobby before it is full: its creator decides (anyone seated, once he has left it)."""
        session = await self.open_session(channel_id)
        async with self._lock(session.id):
            session = await self.session(session.id)
            game = get_game(session.slug)
            if session.status != "lobby":
                raise UserError(f"{game.title} has already begun.")
            if player not in session.player_ids:
                raise UserError("Only a player in the lobby can begin the game. `/game join` first.")
            self._require_may_begin(session, game, player)
            if len(session.players) < game.min_players:
                raise UserError(f"{game.title} needs at least {game.min_players} players; "
                                f"{len(session.players)} joined so far.")
            return await self._begin_locked(session, actor=player)

    @staticmethod
    def _require_may_begin(session: SessionRecord, game: Game, player: str) -> None:
        """Beginning a lobby before it is full (`/game begin`, `/game fill`) is its creator's call while he is in it."""
        if session.creator in session.player_ids and player != session.creator:
            raise UserError(f"Only {session.name_of(session.creator)}, who opened this lobby, can begin "
                            f"the game; it also begins by itself when {game.max_players} have joined.")

    async def _begin_locked(self, session: SessionRecord, actor: str, players: list[Seat] | None = None
                            ) -> MoveOutcome:
        """Begin the lobby with `players` (its own by default), seating and beginning in one commit."""
        players = list(session.players) if players is None else players
        draft = session.model_copy(update={"players": players})
        state, rng, wait, seed = await self._new_game(draft, [seat.id for seat in players], actor)
        session = await self._write(session, players=players, **self._begin_changes(state, rng, wait, seed))
        return self._began(session, state)

    async def _new_game(self, session: SessionRecord, player_ids: list[str], actor: str
                        ) -> tuple[BaseModel, RecordingRandomness, WaitPlan, str]:
        """A new game's state for `player_ids`, the chance its setup drew, whom it waits on, and its dice seed."""
        game = get_game(session.slug)
        seed = seed_from_int(self._seed_source())
        rng = RecordingRandomness(DiceRandomness(seed, SETUP_SEQ))
        state = game.new_game(player_ids, rng, session.options or None)
        return state, rng, await self._wait_plan(session, game.to_act(state), actor), seed

    @staticmethod
    def _begin_changes(state: BaseModel, rng: RecordingRandomness, wait: WaitPlan, seed: str) -> dict[str, Any]:
        return {"status": "active", "state": state.model_dump_json(), "setup_outcomes": rng.outcomes,
                "waiting_since": wait.waiting_since, "timers": wait.timers, "dice_seed": seed,
                "turn_events": [{"type": "began"}]}

    def _began(self, session: SessionRecord, state: BaseModel) -> MoveOutcome:
        game = get_game(session.slug)
        self._remember(session, state)
        self._last_seq[session.id] = 0  # a game just begun has logged no move: its first move reads nothing
        self.changed(session)
        return MoveOutcome(session=session, events=[{"type": "began"}], public_view=game.view(state, None),
                           views_after=PlayerViews(game, state, session.player_ids), began=True,
                           legal=self.legal_by_player(session))

    async def rematch(self, channel_id: str, player: str) -> MoveOutcome:
        """A new game with the last game's players in the same seats, begun at once: each player in his own seat
        again, even if the AI stood in for him in the last game (its own seats stay its own).

        A game that plays matches (its view offers `next_game_options`, as Follow the Arrow does)
        continues its match when the last game was played out; otherwise the rematch is a fresh
        game with the last game's options. Only the last game's players may start it; the last game is
        the last that began (`last_game_in`): a lobby closed empty since then does not stand in its way.
        """
        if await self.store.open_session_in(channel_id) is not None:
            raise UserError(f"A game is still open in this channel: the rematch waits until it is over. {ABANDON_WHO}")
        last = await self.last_game_in(channel_id)
        if last is None:
            raise UserError(NO_GAME_YET)
        game = get_game(last.slug)
        if player not in last.player_ids:
            raise UserError(f"Only the players of the last {game.title} game here can start its rematch; "
                            "`/game start` opens a new game.")
        if last.status != "finished":
            raise UserError(f"The last {game.title} game here was abandoned, so it has no rematch: "
                            "`/game start` a new one.")
        view = self.public_view(last)
        if "next_game_options" in view:
            options = view["next_game_options"] if last.end_reason == "played out" else None
            options = options or {}
        else:
            options = last.options
        seats = [seat.for_a_new_game() for seat in last.players]
        creator = next(seat for seat in seats if seat.id == player)
        # Opened, seated and begun by one commit: a crash leaves either no new game or a running one.
        draft = last.model_copy(update={"options": dict(options), "waiting_since": None, "players": seats})
        state, rng, wait, seed = await self._new_game(draft, last.player_ids, player)
        try:
            session = await self.store.create_lobby(guild_id=last.guild_id, channel_id=channel_id, slug=last.slug,
                                                    creator=creator, invited=[], options=dict(options),
                                                    now=self.clock(), players=seats,
                                                    timers_due=self.timers_added,
                                                    **self._begin_changes(state, rng, wait, seed))
        except ChannelBusy:
            raise UserError("Another game was opened in this channel at the same moment.") from None
        return self._began(session, state)

    async def abandon(self, channel_id: str, player: str, *, can_manage: bool) -> SessionRecord:
        session = await self.open_session(channel_id)
        async with self._lock(session.id):
            session = await self.session(session.id)
            if session.status not in OPEN_STATUSES:  # ended while this waited its turn: its result stands
                raise UserError(await self._no_open_game(channel_id))
            if player not in session.player_ids and not can_manage:
                raise UserError("Only its players, or members with Manage Channels, can abandon this game.")
            return await self._write(session, status="abandoned", end_reason="abandoned", waiting_since=None,
                                     timers=no_wait().timers)

    async def end_in_deleted_channel(self, channel_id: str) -> SessionRecord | None:
        """The channel (or thread) was deleted: its lobby or running game ends there, abandoned (end reason
        "channel deleted": unrated, its reminders and turn notices gone with it). None if it had none."""
        session = await self.store.open_session_in(channel_id)
        if session is None:
            return None
        async with self._lock(session.id):
            session = await self.session(session.id)
            if session.status not in OPEN_STATUSES:
                return None
            return await self._write(session, status="abandoned", end_reason="channel deleted", waiting_since=None,
                                     timers=no_wait().timers)

    # -- moves ---------------------------------------------------------------

    async def act(self, session_id: int, player: str, action: Mapping[str, Any],
                  expected_version: int | None = None, *, by_ai: bool = False,
                  from_command: bool = False) -> MoveOutcome:
        """Apply one action for `player` (played by the AI when `by_ai`); commit it before returning.

        The session comes from memory when this process last wrote it: the move is then one write
        transaction and no read. If another process moved meanwhile, the write is refused, or the move
        looks illegal on the copy in memory (not his turn any more, or not yet), and the move is tried
        once more on the session read afresh.

        `from_command`: a slash command, which names no version of the game, unlike a component. One that
        arrives while the same player's previous move is still on its way was sent before he could see
        that move's result (a Roll pressed, then `/roll` typed as well), so it is refused rather than
        applied to a game he never saw: in John Henry it would become the bonus die of a 6. Only his own
        moves count: the AI's move for his seat is none of his, and his command is told the AI plays for him.
        """
        if by_ai:
            return await self._act_once_locked(session_id, player, action, expected_version, by_ai)
        key = (session_id, player)
        if from_command and key in self._moving:
            raise UserError(IN_FLIGHT)
        self._moving[key] = self._moving.get(key, 0) + 1
        try:
            return await self._act_once_locked(session_id, player, action, expected_version, by_ai)
        finally:
            if (left := self._moving.pop(key) - 1) > 0:
                self._moving[key] = left

    async def _act_once_locked(self, session_id: int, player: str, action: Mapping[str, Any],
                               expected_version: int | None, by_ai: bool) -> MoveOutcome:
        async with self._lock(session_id):
            known = self._records.get(session_id)
            try:
                return await self._act_locked(known or await self.session(session_id), player, action,
                                              expected_version, by_ai)
            except StaleVersion:
                self._forget(session_id)
            except UserError:
                if known is None or (await self.store.session(session_id) or known).version == known.version:
                    raise  # refused on the game as it is
                self._forget(session_id)  # another process moved: judge the move on its game
            try:
                return await self._act_locked(await self.session(session_id), player, action, expected_version,
                                              by_ai)
            except StaleVersion:
                self._forget(session_id)
                raise UserError("Someone else moved at the same moment. Look at the table and try again.") from None

    async def _act_locked(self, session: SessionRecord, player: str, action: Mapping[str, Any],
                          expected_version: int | None, by_ai: bool = False) -> MoveOutcome:
        session_id = session.id
        game = get_game(session.slug)
        self._require_playable(session, game, player=player)
        if expected_version is not None:
            session = await self.require_current(session, expected_version, player)
        self._require_seat_player(session, player, by_ai)
        state = self.state_of(session)
        rng = RecordingRandomness(await self._chance_of_next_move(session))
        try:
            new_state, events, result, changes = self._consequences(session, game, state, player, action, rng)
        except IllegalMove as refusal:
            raise UserError(self.humanize(session, refusal.message)) from None
        ratings: list[RatingChange] = []
        if result is not None:
            changes.update(status="finished", result={**result, **who_played(session)}, end_reason="played out")
            ratings = await self._ratings_after(session, changes)
        wait = await self._wait_plan(session, game.to_act(new_state) if result is None else [], player)
        changes["waiting_since"] = wait.waiting_since
        public_view, now = game.view(new_state, None), self.clock()
        stands = why_it_stands(game, session.player_ids, state, new_state, bool(rng.rolls or rng.shuffles))
        if any(seat.id == player and seat.stand_in for seat in session.players):
            stands = STOOD_IN  # the AI's move for an idle person is not his to take back (games.undo)
        after = session.model_copy(update={**changes, "version": session.version + 1, "updated_at": now})
        upcoming = Upcoming(session=after, state=new_state, public_view=public_view,
                            undoer=undoer_among(after, None if stands else player))
        self.committing(upcoming)
        last_seq = self._last_seq.get(session_id)

        def taken_in(committed: SessionRecord) -> None:
            """The move in this host's memory the moment its commit is done: what the commit wakes first (the
            table, bot.discord.table) already finds the game as committed. (Taking it in twice changes nothing.)"""
            self._remember(committed, new_state)
            if last_seq is not None:
                self._last_seq[session_id] = last_seq + 1
            self._undoers[session_id] = (committed.version, None if stands else player)
            if upcoming._legal is not None:  # listed while the commit was in flight (the table's message)
                self._keep_legal(session_id, committed.version, upcoming._legal)
            upcoming.land(committed)

        try:
            updated = await self.store.record_move(session, player=player, action=dict(action),
                                                   outcomes=rng.outcomes, now=now, timers=wait.timers,
                                                   ratings=ratings, syncing=upcoming.sync_began,
                                                   committed=taken_in, timers_due=self.timers_added, **changes)
        finally:
            upcoming.syncing.set()
            upcoming.landed.set()
        if upcoming.committed is not updated:
            taken_in(updated)  # not told as the commit landed (a callback failed and was logged)
        # The action's type only: its fields and the state may name hidden things (bot.logs).
        log.debug("session %s: %s by %s committed as version %s", session_id, action.get("type"), player,
                  updated.version)
        METRICS.moves.labels(session.slug).inc()
        self.changed(updated)
        return MoveOutcome(
            session=updated, events=events, public_view=public_view,
            views_before=PlayerViews(game, state, session.player_ids),
            views_after=PlayerViews(game, new_state, session.player_ids),
            legal=self.legal_by_player(updated),
        )

    @staticmethod
    def _consequences(session: SessionRecord, game: Game, state: BaseModel, player: str,
                      action: Mapping[str, Any], rng: Randomness
                      ) -> tuple[BaseModel, list[dict], dict | None, dict[str, Any]]:
        """What `action` does to the game: the new state, its events, the result if it ends the game, and
        the session's changes that show it (state and turn events). Raises IllegalMove."""
        new_state, events = game.apply(state, player, dict(action), rng)
        result = game.result(new_state)
        changes: dict[str, Any] = {"state": new_state.model_dump_json(),
                                   "turn_events": turn_events(session, game.to_act(state),
                                                              game.to_act(new_state) if result is None else [],
                                                              events)}
        return new_state, events, result, changes

    def foresee(self, session: SessionRecord, player: str, action: Mapping[str, Any]
                ) -> tuple[SessionRecord, dict] | None:
        """The session as `action` would leave it, and its public view, committing nothing: what the table
        would show after that move (bot.discord.foresight draws it before it is made).

        Only where the move's chance is already fixed (the game's committed dice, the move's number known
        here) and the session is the one this process last committed: else None. Nothing foreseen is ever
        shown unless the move is made and committed and leaves exactly this session.
        """
        dice = self._known_dice(session)
        known = self._records.get(session.id)
        if dice is None or known is None or known.version != session.version or session.status != "active":
            return None
        game = get_game(session.slug)
        rng = RecordingRandomness(dice)
        try:
            new_state, _, _, changes = self._consequences(session, game, self.state_of(session), player,
                                                          action, rng)
        except IllegalMove:
            return None
        return session.model_copy(update={**changes, "version": session.version + 1}), game.view(new_state, None)

    async def _chance_of_next_move(self, session: SessionRecord) -> Randomness:
        """The next move's dice, fixed by the game's seed and the move's sequence number.

        A game begun before dice were committed has no seed and keeps drawing as it did.
        """
        if session.dice_seed is None:
            return SeededRandomness(self._seed_source())
        if session.id not in self._last_seq:
            self._last_seq[session.id] = await self.store.last_seq(session.id)
        dice = self._known_dice(session)
        assert dice is not None
        return dice

    def _known_dice(self, session: SessionRecord) -> DiceRandomness | None:
        """The next move's dice if this process knows them without a read: the seed, and the move's number."""
        last = self._last_seq.get(session.id)
        return None if session.dice_seed is None or last is None else DiceRandomness(session.dice_seed, last + 1)

    def preview(self, session: SessionRecord, player: str, action: Mapping[str, Any],
                expected_version: int | None = None) -> list[dict]:
        """The events `action` would cause now, committing nothing: for a step the player confirms first.

        Any chance the engine draws here is thrown away, so preview only actions that use none.
        """
        game = get_game(session.slug)
        self._require_playable(session, game, expected_version, player=player)
        try:
            _, events = game.apply(self.state_of(session), player, dict(action),
                                   SeededRandomness(self._seed_source()))
        except IllegalMove as refusal:
            raise UserError(self.humanize(session, refusal.message)) from None
        return events

    async def act_in_channel(self, channel_id: str, player: str, action: Mapping[str, Any]) -> MoveOutcome:
        session = await self.open_session(channel_id)
        return await self.act(session.id, player, action)

    def _require_playable(self, session: SessionRecord, game: Game, expected_version: int | None = None, *,
                          player: str | None = None) -> None:
        """Refuse a game that has not begun or is over (telling `player` what the lobby waits for), or a button
        drawn for an earlier version."""
        if session.status == "lobby":
            raise UserError(f"{game.title} has not begun yet: {not_begun(session, player)}")
        if session.status in ("finished", "abandoned"):
            raise UserError(self._ended_words(session))
        if expected_version is not None and expected_version != session.version:
            raise UserError(STALE_BUTTON)

    # -- taking a move back (games.undo) ----------------------------------------

    async def undo(self, session_id: int, player: str, expected_version: int | None = None) -> MoveOutcome:
        """Take back `player`'s latest move, if games.undo allows it: logged as an entry of its own.

        The state before the move comes from replaying the log (an undo is rare; a move needs no replay).
        """
        async with self._lock(session_id):
            session = await self.session(session_id)
            game = get_game(session.slug)
            self._require_playable(session, game, expected_version, player=player)
            if player not in session.player_ids:
                raise UserError("You are not playing in this game.")
            self._require_seat_player(session, player, by_ai=False)
            timeline = await self._timeline(session)
            state = timeline.state
            try:
                events = timeline.undo(player)
            except IllegalMove as refusal:
                raise UserError(self.humanize(session, refusal.message)) from None
            restored, to_act = timeline.state, game.to_act(timeline.state)
            wait = await self._wait_plan(session, to_act, player)
            try:
                updated = await self.store.record_move(
                    session, player=player, action=dict(UNDO_ACTION), outcomes={"rolls": [], "shuffles": []},
                    now=self.clock(), timers=wait.timers, state=restored.model_dump_json(),
                    turn_events=turn_events(session, game.to_act(state), to_act, events),
                    waiting_since=wait.waiting_since, timers_due=self.timers_added)
            except StaleVersion:
                self._forget(session_id)
                raise UserError("Someone else moved at the same moment. Look at the table and try again.") from None
            log.debug("session %s: undo by %s committed as version %s", session_id, player, updated.version)
            self._remember(updated, restored)
            self._last_seq[session_id] = timeline.seq
            self._undoers[session_id] = (updated.version, timeline.undoer)
            self.changed(updated)
            return MoveOutcome(
                session=updated, events=events, public_view=game.view(restored, None),
                views_before=PlayerViews(game, state, session.player_ids),
                views_after=PlayerViews(game, restored, session.player_ids),
                legal=self.legal_by_player(updated))

    async def undoer(self, session: SessionRecord) -> str | None:
        """The person who may take back the latest move of a running game now (never the AI), if anyone."""
        if session.status != "active" or session.setup_outcomes is None:
            return None
        cached = self._undoers.get(session.id)
        if cached is None or cached[0] != session.version:
            cached = (session.version, (await self._timeline(session)).undoer)
            if session.id in self._records:
                self._undoers[session.id] = cached
        return undoer_among(session, cached[1])

    async def _timeline(self, session: SessionRecord) -> Timeline:
        """The game replayed from its log, with what an undo may take back (games.undo).

        Replayed in a worker thread: with each entry's views compared, a long Crayon Rails log takes a few
        tenths of a second, too long to hold the event loop."""
        moves = await self.store.moves(session.id)
        return await asyncio.to_thread(last_timeline, session, moves)

    async def _ratings_after(self, session: SessionRecord, ending: Mapping[str, Any]) -> list[RatingChange]:
        """What finishing `session` with `ending` (status, result) does to its players' ratings (bot.play.ratings),
        from the ratings as committed now: written by the same transaction as the finishing move."""
        finished = session.model_copy(update={key: ending[key] for key in ("status", "result", "end_reason")})
        keys = rating_keys(finished)
        if not keys or finished.guild_id is None:
            return []
        return updated_ratings(finished, await self.store.ratings(finished.guild_id, finished.slug, keys))

    # -- waiting on players -----------------------------------------------------

    async def periods_for(self, guild_id: str | None) -> Periods:
        """The server's reminder and turn-clock periods, falling back to the bot's defaults.

        Kept in memory once read: a server's settings change only through `set_periods`, which the
        process owning that server runs (one process per guild, see bot.runtime.shards).
        """
        cached = self._periods.get(guild_id)
        if cached is not None:
            return cached
        own = await self.store.guild_settings(guild_id)
        periods = Periods(reminder_hours=own.reminder_hours or self.default_periods.reminder_hours,
                          turn_clock_hours=own.turn_clock_hours or self.default_periods.turn_clock_hours)
        self._periods[guild_id] = periods
        return periods

    async def set_periods(self, guild_id: str, *, reminder_hours: float | None = None,
                          turn_clock_hours: float | None = None) -> Periods:
        await self.store.set_guild_hours(guild_id, reminder_hours=reminder_hours, turn_clock_hours=turn_clock_hours)
        self._periods.pop(guild_id, None)
        return await self.periods_for(guild_id)

    async def wants_turn_dms(self, user_id: str) -> bool:
        """Whether `user_id` asked for a direct message when his turn comes (`/notify on`)."""
        return user_id in await self.store.turn_dm_users([user_id])

    async def set_turn_dms(self, user_id: str, on: bool) -> None:
        """The store decides each turn notice in the move's own transaction (bot.play.turn_clock): nothing to
        remember."""
        await self.store.set_turn_dms(user_id, on)

    async def _wait_plan(self, session: SessionRecord, to_act: list[str], actor: str | None) -> WaitPlan:
        to_act = [player for player in to_act if player not in session.ai_played]  # the AI never idles
        if not to_act:
            return no_wait()
        return plan_wait(session.waiting_since, to_act, actor=actor, now=self.clock(),
                         periods=await self.periods_for(session.guild_id))

    def to_act(self, session: SessionRecord) -> list[str]:
        """Whom a running game waits on; nobody in a lobby or once it is over."""
        if session.status != "active":
            return []
        return list(get_game(session.slug).to_act(self.state_of(session)))

    async def claim(self, channel_id: str, player: str) -> SessionRecord:
        """End a game whose turn clock ran out: the players it waits on lose (see bot.play.turn_clock)."""
        session = await self.open_session(channel_id)
        async with self._lock(session.id):
            session = await self.session(session.id)
            idle = await self._idle_past_clock(session, player, "claim")
            ending = {"status": "finished", "end_reason": "timeout",
                      "result": {**timeout_result(session.player_ids, idle), **who_played(session)}}
            return await self._write(session, **ending, ratings=await self._ratings_after(session, ending),
                                     waiting_since=None, timers=no_wait().timers)

    async def _idle_past_clock(self, session: SessionRecord, player: str, verb: str) -> list[str]:
        """The players whose turn clock has run out, if `player` (one of the others) may claim or substitute."""
        game = get_game(session.slug)
        self._require_playable(session, game, player=player)
        if player not in session.player_ids:
            raise UserError(f"Only the game's players can {verb} here.")
        idle = [p for p in self.to_act(session) if p not in session.ai_played]
        if not idle:
            raise UserError(f"The game is not waiting on anyone idle, so there is nothing to {verb}.")
        if player in idle:
            raise UserError("The game is waiting on you: make your move instead.")
        periods = await self.periods_for(session.guild_id)
        left = await claim_left(self.store, session, idle, self.clock(), periods)
        if left > 0:
            raise UserError(f"The turn clock has not run out yet. You can {verb} in "
                            f"{format_duration(left, round_up=True)}.")
        return idle

    # -- the AI at the table (bot.play.ai_player) ------------------------------------

    async def seat_ai(self, channel_id: str, player: str, *, fill: bool = False
                      ) -> tuple[SessionRecord, MoveOutcome | None]:
        """Seat Parlor's AI in the lobby: one seat, or with `fill` every free seat, and then begin.

        Like a person joining, the seat that fills the lobby begins the game; `fill` begins it in any case.
        """
        session = await self.open_session(channel_id)
        async with self._lock(session.id):
            session = await self.session(session.id)
            game = get_game(session.slug)
            if session.status != "lobby":
                raise UserError(f"{game.title} has already begun here; the AI can play the next one.")
            if player not in session.player_ids:
                raise UserError("Only a player in the lobby can seat the AI. `/game join` first.")
            if fill:
                self._require_may_begin(session, game, player)
            reserved = [user for user in session.invited if user not in session.player_ids]
            free = game.max_players - len(session.players) - len(reserved)
            if free <= 0 and (not fill or len(session.players) < game.min_players):
                raise UserError(f"{game.title} has no free seat for the AI"
                                f"{f' ({SEATS_SAVED})' if reserved else ''}.")
            players = [*session.players, *new_ai_seats(session.players, max(free, 0) if fill else 1)]
            if fill or len(players) == game.max_players:
                if len(players) < game.min_players:
                    raise UserError(f"{game.title} needs at least {game.min_players} players.")
                began = await self._begin_locked(session, actor=player, players=players)
                return began.session, began
            return await self._write(session, players=players), None

    async def substitute(self, channel_id: str, player: str) -> tuple[SessionRecord, list[str]]:
        """Instead of a claim: the AI takes the seats whose turn clock ran out, and the game plays on."""
        session = await self.open_session(channel_id)
        async with self._lock(session.id):
            session = await self.session(session.id)
            idle = await self._idle_past_clock(session, player, "substitute")
            first = await self.store.last_seq(session.id) + 1
            players = [seat.model_copy(update={"stand_in": True, "stand_ins": [*seat.stand_ins, [first, -1]]})
                       if seat.id in idle else seat for seat in session.players]
            updated = await self._reseat(session, players, actor=player)
            return updated, idle

    async def return_to_seat(self, channel_id: str, player: str) -> SessionRecord:
        """The player the AI stood in for takes his seat back; from now on the game waits on him again."""
        session = await self.open_session(channel_id)
        async with self._lock(session.id):
            session = await self.session(session.id)
            self._require_playable(session, get_game(session.slug), player=player)
            seat = next((seat for seat in session.players if seat.id == player), None)
            if seat is None or not seat.stand_in:
                raise UserError("The AI is not playing for you in this game, so there is no seat to take back.")
            periods = [list(period) for period in seat.stand_ins]
            periods[-1][1] = await self.store.last_seq(session.id)
            players = [s.model_copy(update={"stand_in": False, "stand_ins": periods}) if s.id == player else s
                       for s in session.players]
            return await self._reseat(session, players, actor=player)

    async def _reseat(self, session: SessionRecord, players: list[Seat], actor: str) -> SessionRecord:
        """Write new seats of a running game, with the waits (and timers) that follow from who plays them."""
        draft = session.model_copy(update={"players": players})
        wait = await self._wait_plan(draft, self.to_act(session), actor)
        updated = await self._write(session, players=players, waiting_since=wait.waiting_since, timers=wait.timers)
        self._remember(updated, self.state_of(session))
        self.changed(updated)
        return updated

    @staticmethod
    def _require_seat_player(session: SessionRecord, player: str, by_ai: bool) -> None:
        """A seat the AI plays takes the AI's moves only; a person's seat only his own."""
        seat = next((seat for seat in session.players if seat.id == player), None)
        if seat is None:
            return  # the engine refuses anyone not seated
        if by_ai and not (seat.ai or seat.stand_in):
            raise UserError(f"{seat.name} plays this seat again.")
        if seat.stand_in and not by_ai:
            raise UserError("The AI plays for you since your turn clock ran out: `/game return` takes your "
                            "seat back, then make your move.")

    async def _write(self, session: SessionRecord, **changes: Any) -> SessionRecord:
        try:
            return self._remember_record(await self.store.update_session(session, now=self.clock(),
                                                                         timers_due=self.timers_added, **changes))
        except StaleVersion:
            raise UserError("Someone else changed this game at the same moment; try again.") from None
        except ChannelBusy:
            raise UserError("Another game is already open in this channel.") from None

    @staticmethod
    def humanize(session: SessionRecord, message: str) -> str:
        """Engines name players by id; show their names instead, as written (escaped for Discord's markdown)."""
        return with_names(message, {seat.id: name_as_written(seat.name) for seat in session.players})

    # -- the audit -----------------------------------------------------------

    async def replay(self, session_id: int) -> BaseModel:
        """Rebuild a session's state from its setup and move log alone."""
        state, _ = await self._replayed(await self.session(session_id))
        return state

    async def narrated_moves(self, session: SessionRecord) -> list[tuple[MoveRecord, list[dict]]]:
        """Each move with the events it caused (what the table narrated), replayed from the log."""
        if session.setup_outcomes is None:
            return []
        _, moves = await self._replayed(session)
        return moves

    async def _replayed(self, session: SessionRecord, log: list[MoveRecord] | None = None,
                        ) -> tuple[BaseModel, list[tuple[MoveRecord, list[dict]]]]:
        """The state after the setup and `log` (the whole move log by default), and each move's events;
        replayed in a worker thread (a long Crayon Rails log takes a while), the loop serving others."""
        if session.setup_outcomes is None:
            raise UserError("This game never began, so it has no moves to replay.")
        moves = await self.store.moves(session.id) if log is None else log
        return await asyncio.to_thread(replayed, session, moves)

