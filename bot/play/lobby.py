"""A channel's games from the lobby to the first move, and how an open one ends early: open, join, leave,
begin, rematch, abandon, a deleted channel; and which of a channel's games a user means by "the last"."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel

from bot.play.outcome import MoveOutcome
from bot.play.pacing import Pacing
from bot.play.player_views import PlayerViews
from bot.play.refusals import ABANDON_WHO, NO_GAME_YET, SEATS_SAVED, UserError
from bot.play.sessions import Sessions
from bot.play.turn_clock import WaitPlan, no_wait
from bot.storage.store import OPEN_STATUSES, ChannelBusy, Seat, SessionRecord
from games import get_game
from games.core import Game, RecordingRandomness, UnknownGame
from games.dice import SETUP_SEQ, DiceRandomness, seed_from_int


class Lobby:
    """Opens, seats and begins a channel's games; ends an open one early."""

    def __init__(self, sessions: Sessions, pacing: Pacing) -> None:
        self.sessions = sessions
        self.pacing = pacing

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
        store = self.sessions.store
        try:
            return await store.create_lobby(guild_id=guild_id, channel_id=channel_id, slug=slug, creator=creator,
                                            invited=invited, options=dict(options or {}), now=self.sessions.clock())
        except ChannelBusy:
            existing = await store.open_session_in(channel_id)
            title = get_game(existing.slug).title if existing else "A game"
            raise UserError(f"{title} is already open in this channel: start yours in another channel, or once "
                            f"it is over. {ABANDON_WHO}") from None

    async def join(self, channel_id: str, seat: Seat) -> tuple[SessionRecord, MoveOutcome | None]:
        """Seat a player; a lobby that becomes full begins at once (returned as the outcome)."""
        session = await self.sessions.open_session(channel_id)
        async with self.sessions.lock(session.id):
            session = await self.sessions.session(session.id)
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
                began = await self.begin_locked(session, actor=seat.id, players=players)
                return began.session, began
            return await self.sessions.write(session, players=players), None

    async def leave(self, channel_id: str, player: str) -> SessionRecord:
        """Leave a lobby; the last one out closes it. An invited player who has not joined declines: the seat
        kept for him is free for anyone."""
        session = await self.sessions.open_session(channel_id)
        async with self.sessions.lock(session.id):
            session = await self.sessions.session(session.id)
            if session.status != "lobby" and player not in session.player_ids:
                raise UserError("You are not playing in this game, so there is nothing to leave.")
            if session.status != "lobby":
                raise UserError("The game has begun: to stop it, use `/game abandon`.")
            if player not in session.player_ids and player in session.invited:
                return await self.sessions.write(session, invited=[p for p in session.invited if p != player])
            if player not in session.player_ids:
                raise UserError("You are not in this lobby, so there is nothing to leave: **Join** (or `/game join`) "
                                "takes a seat.")
            players = [seat for seat in session.players if seat.id != player]
            if all(seat.ai for seat in players):  # the AI never begins a game, nor could anyone else abandon it
                return await self.sessions.write(session, players=players, status="abandoned",
                                                 end_reason="empty lobby")
            return await self.sessions.write(session, players=players)

    async def begin(self, channel_id: str, player: str) -> MoveOutcome:
        """Begin a lobby before it is full: its creator decides (anyone seated, once he has left it)."""
        session = await self.sessions.open_session(channel_id)
        async with self.sessions.lock(session.id):
            session = await self.sessions.session(session.id)
            game = get_game(session.slug)
            if session.status != "lobby":
                raise UserError(f"{game.title} has already begun.")
            if player not in session.player_ids:
                raise UserError("Only a player in the lobby can begin the game. `/game join` first.")
            self.require_may_begin(session, game, player)
            if len(session.players) < game.min_players:
                raise UserError(f"{game.title} needs at least {game.min_players} players; "
                                f"{len(session.players)} joined so far.")
            return await self.begin_locked(session, actor=player)

    @staticmethod
    def require_may_begin(session: SessionRecord, game: Game, player: str) -> None:
        """Beginning a lobby before it is full (`/game begin`, `/game fill`) is its creator's call while he is in it."""
        if session.creator in session.player_ids and player != session.creator:
            raise UserError(f"Only {session.name_of(session.creator)}, who opened this lobby, can begin "
                            f"the game; it also begins by itself when {game.max_players} have joined.")

    async def begin_locked(self, session: SessionRecord, actor: str, players: list[Seat] | None = None
                           ) -> MoveOutcome:
        """Begin the lobby with `players` (its own by default), seating and beginning in one commit."""
        players = list(session.players) if players is None else players
        draft = session.model_copy(update={"players": players})
        state, rng, wait, seed = await self._new_game(draft, [seat.id for seat in players], actor)
        session = await self.sessions.write(session, players=players, **self._begin_changes(state, rng, wait, seed))
        return self._began(session, state)

    async def _new_game(self, session: SessionRecord, player_ids: list[str], actor: str
                        ) -> tuple[BaseModel, RecordingRandomness, WaitPlan, str]:
        """A new game's state for `player_ids`, the chance its setup drew, whom it waits on, and its dice seed."""
        game = get_game(session.slug)
        seed = seed_from_int(self.sessions.seed_source())
        rng = RecordingRandomness(DiceRandomness(seed, SETUP_SEQ))
        state = game.new_game(player_ids, rng, session.options or None)
        return state, rng, await self.pacing.wait_plan(session, game.to_act(state), actor), seed

    @staticmethod
    def _begin_changes(state: BaseModel, rng: RecordingRandomness, wait: WaitPlan, seed: str) -> dict[str, Any]:
        return {"status": "active", "state": state.model_dump_json(), "setup_outcomes": rng.outcomes,
                "waiting_since": wait.waiting_since, "timers": wait.timers, "dice_seed": seed,
                "turn_events": [{"type": "began"}]}

    def _began(self, session: SessionRecord, state: BaseModel) -> MoveOutcome:
        game = get_game(session.slug)
        self.sessions.remember(session, state)
        self.sessions.last_seq[session.id] = 0  # a game just begun has logged no move: its first move reads nothing
        self.sessions.changed(session)
        return MoveOutcome(session=session, events=[{"type": "began"}], public_view=game.view(state, None),
                           views_after=PlayerViews(game, state, session.player_ids), began=True,
                           legal=self.sessions.legal_by_player(session))

    async def rematch(self, channel_id: str, player: str) -> MoveOutcome:
        """A new game with the last game's players in the same seats, begun at once: each player in his own seat
        again, even if the AI stood in for him in the last game (its own seats stay its own).

        A game that plays matches (its view offers `next_game_options`, as Follow the Arrow does)
        continues its match when the last game was played out; otherwise the rematch is a fresh
        game with the last game's options. Only the last game's players may start it; the last game is
        the last that began (`last_game_in`): a lobby closed empty since then does not stand in its way.
        """
        store = self.sessions.store
        if await store.open_session_in(channel_id) is not None:
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
        view = self.sessions.public_view(last)
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
            session = await store.create_lobby(guild_id=last.guild_id, channel_id=channel_id, slug=last.slug,
                                               creator=creator, invited=[], options=dict(options),
                                               now=self.sessions.clock(), players=seats,
                                               timers_due=self.sessions.timers_added,
                                               **self._begin_changes(state, rng, wait, seed))
        except ChannelBusy:
            raise UserError("Another game was opened in this channel at the same moment.") from None
        return self._began(session, state)

    async def abandon(self, channel_id: str, player: str, *, can_manage: bool) -> SessionRecord:
        session = await self.sessions.open_session(channel_id)
        async with self.sessions.lock(session.id):
            session = await self.sessions.session(session.id)
            if session.status not in OPEN_STATUSES:  # ended while this waited its turn: its result stands
                raise UserError(await self.sessions.no_open_game(channel_id))
            if player not in session.player_ids and not can_manage:
                raise UserError("Only its players, or members with Manage Channels, can abandon this game.")
            return await self.sessions.write(session, status="abandoned", end_reason="abandoned",
                                             waiting_since=None, timers=no_wait().timers)

    async def end_in_deleted_channel(self, channel_id: str) -> SessionRecord | None:
        """The channel (or thread) was deleted: its lobby or running game ends there, abandoned (end reason
        "channel deleted": unrated, its reminders and turn notices gone with it). None if it had none."""
        session = await self.sessions.store.open_session_in(channel_id)
        if session is None:
            return None
        async with self.sessions.lock(session.id):
            session = await self.sessions.session(session.id)
            if session.status not in OPEN_STATUSES:
                return None
            return await self.sessions.write(session, status="abandoned", end_reason="channel deleted",
                                             waiting_since=None, timers=no_wait().timers)

    # -- a channel's games, as a user names them ----------------------------------

    async def last_session_in(self, channel_id: str) -> SessionRecord:
        """The channel's open lobby or game, else its most recent game that began, else its last lobby: a lobby
        closed before its game began does not hide the game before it (/game status, table, log, web)."""
        found = await self.sessions.store.sessions_where(
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
        found = await self.sessions.store.sessions_where(f"{where} ORDER BY id DESC LIMIT 1", (channel_id,))
        return found[0] if found else None

    async def rematch_after(self, session: SessionRecord) -> SessionRecord | None:
        """The rematch of a finished game, once begun: the next game that began in its channel, if it is the same
        game with the same players in the same seats (what `rematch` starts, or a new game the same players
        started by hand: to someone following them, the same thing). None for any other game."""
        if session.status != "finished":
            return None
        found = await self.sessions.store.sessions_where(
            "channel_id = ? AND id > ? AND state IS NOT NULL ORDER BY id LIMIT 1", (session.channel_id, session.id))
        if not found or found[0].slug != session.slug or found[0].player_ids != session.player_ids:
            return None
        return found[0]
