"""The whole path of a move: take the session's lock, let the engine apply the action with a recording
randomness, then commit the move (with its chance) and the new state in one transaction, guarded by the version.
Only after that commit does the caller tell Discord anything; a refusal raises `UserError` and writes nothing.
Also what a move would do, committing nothing (`preview`, `foresee`), and whether an older button still acts."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from bot.play.finishing import played_out, ratings_after
from bot.play.names import humanize
from bot.play.outcome import MoveOutcome
from bot.play.pacing import Pacing
from bot.play.player_views import PlayerViews
from bot.play.refusals import AT_THE_SAME_MOMENT, IN_FLIGHT, STALE_BUTTON, UserError, require_seat_player
from bot.play.replay import replayed_in_worker
from bot.play.sessions import Sessions
from bot.play.turn_events import turn_events
from bot.play.undo import undoer_among
from bot.runtime.metrics import METRICS
from bot.storage.store import RatingChange, SessionRecord, StaleVersion
from games import get_game
from games.core import Game, IllegalMove, Randomness, RecordingRandomness, SeededRandomness
from games.dice import DiceRandomness
from games.undo import STOOD_IN, UNDO_TYPE, why_it_stands

log = logging.getLogger("bot.play.host")
"""The host's log, as before its moves had a module of their own (operators filter on it)."""


@dataclass
class Upcoming:
    """A move about to commit, as its table will show it (Host.committing): the table prepares its message
    while the commit is in flight, and sends nothing unless the commit succeeds with this very session."""

    session: SessionRecord
    state: BaseModel
    public_view: dict
    undoer: str | None
    """Who may take this move back once it is committed (bot.play.undo `undoer_among`)."""
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


def consequences(session: SessionRecord, game: Game, state: BaseModel, player: str, action: Mapping[str, Any],
                 rng: Randomness) -> tuple[BaseModel, list[dict], dict | None, dict[str, Any]]:
    """What `action` does to the game: the new state, its events, the result if it ends the game, and
    the session's changes that show it (state and turn events). Raises IllegalMove."""
    new_state, events = game.apply(state, player, dict(action), rng)
    result = game.result(new_state)
    changes: dict[str, Any] = {"state": new_state.model_dump_json(),
                               "turn_events": turn_events(session, game.to_act(state),
                                                          game.to_act(new_state) if result is None else [],
                                                          events)}
    return new_state, events, result, changes


class Mover:
    """Makes moves, one at a time per session, and tells what one would do."""

    def __init__(self, sessions: Sessions, pacing: Pacing) -> None:
        self.sessions = sessions
        self.pacing = pacing
        self.committing: Callable[[Upcoming], None] = lambda upcoming: None
        """Called just before a move's commit with the session as it will be once committed: the table starts
        drawing it and writing its message while the commit is in flight (bot.discord.table). The commit may still
        fail, so nothing may reach Discord from here."""
        self.moving: dict[tuple[int, str], int] = {}
        """(session, player) -> how many of his moves are on their way (in `act`, not yet committed or refused)."""

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
        if from_command and key in self.moving:
            raise UserError(IN_FLIGHT)
        self.moving[key] = self.moving.get(key, 0) + 1
        try:
            return await self._act_once_locked(session_id, player, action, expected_version, by_ai)
        finally:
            if (left := self.moving.pop(key) - 1) > 0:
                self.moving[key] = left

    async def _act_once_locked(self, session_id: int, player: str, action: Mapping[str, Any],
                               expected_version: int | None, by_ai: bool) -> MoveOutcome:
        sessions = self.sessions
        async with sessions.lock(session_id):
            known = sessions.records.get(session_id)
            try:
                return await self._act_locked(known or await sessions.session(session_id), player, action,
                                              expected_version, by_ai)
            except StaleVersion:
                sessions.forget(session_id)
            except UserError:
                if known is None or (await sessions.store.session(session_id) or known).version == known.version:
                    raise  # refused on the game as it is
                sessions.forget(session_id)  # another process moved: judge the move on its game
            try:
                return await self._act_locked(await sessions.session(session_id), player, action, expected_version,
                                              by_ai)
            except StaleVersion:
                sessions.forget(session_id)
                raise UserError(AT_THE_SAME_MOMENT) from None

    async def _act_locked(self, session: SessionRecord, player: str, action: Mapping[str, Any],
                          expected_version: int | None, by_ai: bool = False) -> MoveOutcome:
        sessions, session_id = self.sessions, session.id
        game = get_game(session.slug)
        sessions.require_playable(session, game, player=player)
        if expected_version is not None:
            session = await self.require_current(session, expected_version, player)
        require_seat_player(session, player, by_ai)
        state = sessions.state_of(session)
        rng = RecordingRandomness(await self.chance_of_next_move(session))
        try:
            new_state, events, result, changes = consequences(session, game, state, player, action, rng)
        except IllegalMove as refusal:
            raise UserError(humanize(session, refusal.message)) from None
        ratings: list[RatingChange] = []
        if result is not None:
            changes.update(played_out(session, result))
            ratings = await ratings_after(sessions.store, session, changes)
        wait = await self.pacing.wait_plan(session, game.to_act(new_state) if result is None else [], player)
        changes["waiting_since"] = wait.waiting_since
        public_view, now = game.view(new_state, None), sessions.clock()
        stands = why_it_stands(game, session.player_ids, state, new_state, bool(rng.rolls or rng.shuffles))
        if any(seat.id == player and seat.stand_in for seat in session.players):
            stands = STOOD_IN  # the AI's move for an idle person is not his to take back (games.undo)
        after = session.model_copy(update={**changes, "version": session.version + 1, "updated_at": now})
        upcoming = Upcoming(session=after, state=new_state, public_view=public_view,
                            undoer=undoer_among(after, None if stands else player))
        self.committing(upcoming)
        last_seq = sessions.last_seq.get(session_id)

        def taken_in(committed: SessionRecord) -> None:
            """The move in this host's memory the moment its commit is done: what the commit wakes first (the
            table, bot.discord.table) already finds the game as committed. (Taking it in twice changes nothing.)"""
            sessions.remember(committed, new_state)
            if last_seq is not None:
                sessions.last_seq[session_id] = last_seq + 1
            sessions.undoers[session_id] = (committed.version, None if stands else player)
            if upcoming._legal is not None:  # listed while the commit was in flight (the table's message)
                sessions.keep_legal(session_id, committed.version, upcoming._legal)
            upcoming.land(committed)

        try:
            updated = await sessions.store.record_move(session, player=player, action=dict(action),
                                                       outcomes=rng.outcomes, now=now, timers=wait.timers,
                                                       ratings=ratings, syncing=upcoming.sync_began,
                                                       committed=taken_in, timers_due=sessions.timers_added,
                                                       **changes)
        finally:
            upcoming.syncing.set()
            upcoming.landed.set()
        if upcoming.committed is not updated:
            taken_in(updated)  # not told as the commit landed (a callback failed and was logged)
        # The action's type only: its fields and the state may name hidden things (bot.logs).
        log.debug("session %s: %s by %s committed as version %s", session_id, action.get("type"), player,
                  updated.version)
        METRICS.moves.labels(session.slug).inc()
        sessions.changed(updated)
        return MoveOutcome(
            session=updated, events=events, public_view=public_view,
            views_before=PlayerViews(game, state, session.player_ids),
            views_after=PlayerViews(game, new_state, session.player_ids),
            legal=sessions.legal_by_player(updated),
        )

    async def act_in_channel(self, channel_id: str, player: str, action: Mapping[str, Any]) -> MoveOutcome:
        session = await self.sessions.open_session(channel_id)
        return await self.act(session.id, player, action)

    async def require_current(self, session: SessionRecord, expected_version: int, player: str) -> SessionRecord:
        """Refuse a component for a game that is over or not begun, or drawn for an earlier version,
        unless that earlier component still offers `player` his own action (`_still_offered`).

        Returns the session to act on: a component drawn for a later version than this process's copy
        means another process moved (a web page served there, bot.web), so the game is read afresh."""
        if expected_version > session.version:
            self.sessions.forget(session.id)
            session = await self.sessions.session(session.id)
        game = get_game(session.slug)
        self.sessions.require_playable(session, game, player=player)
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
        moves = await self.sessions.store.moves(session.id)
        made_then = len(moves) - (session.version - version)
        if made_then < 0 or any(move.player == player or move.action.get("type") == UNDO_TYPE
                                for move in moves[made_then:]):
            return False
        then, _ = await replayed_in_worker(self.sessions.store, session, moves[:made_then])
        return player in game.to_act(then)

    async def chance_of_next_move(self, session: SessionRecord) -> Randomness:
        """The next move's dice, fixed by the game's seed and the move's sequence number.

        A game begun before dice were committed has no seed and keeps drawing as it did.
        """
        if session.dice_seed is None:
            return SeededRandomness(self.sessions.seed_source())
        if session.id not in self.sessions.last_seq:
            self.sessions.last_seq[session.id] = await self.sessions.store.last_seq(session.id)
        dice = self._known_dice(session)
        assert dice is not None
        return dice

    def _known_dice(self, session: SessionRecord) -> DiceRandomness | None:
        """The next move's dice if this process knows them without a read: the seed, and the move's number."""
        last = self.sessions.last_seq.get(session.id)
        return None if session.dice_seed is None or last is None else DiceRandomness(session.dice_seed, last + 1)

    def foresee(self, session: SessionRecord, player: str, action: Mapping[str, Any]
                ) -> tuple[SessionRecord, dict] | None:
        """The session as `action` would leave it, and its public view, committing nothing: what the table
        would show after that move (bot.discord.foresight draws it before it is made).

        Only where the move's chance is already fixed (the game's committed dice, the move's number known
        here) and the session is the one this process last committed: else None. Nothing foreseen is ever
        shown unless the move is made and committed and leaves exactly this session.
        """
        dice = self._known_dice(session)
        known = self.sessions.records.get(session.id)
        if dice is None or known is None or known.version != session.version or session.status != "active":
            return None
        game = get_game(session.slug)
        try:
            new_state, _, _, changes = consequences(session, game, self.sessions.state_of(session), player,
                                                    action, RecordingRandomness(dice))
        except IllegalMove:
            return None
        return session.model_copy(update={**changes, "version": session.version + 1}), game.view(new_state, None)

    def preview(self, session: SessionRecord, player: str, action: Mapping[str, Any],
                expected_version: int | None = None) -> list[dict]:
        """The events `action` would cause now, committing nothing: for a step the player confirms first.

        Any chance the engine draws here is thrown away, so preview only actions that use none.
        """
        game = get_game(session.slug)
        self.sessions.require_playable(session, game, expected_version, player=player)
        try:
            _, events = game.apply(self.sessions.state_of(session), player, dict(action),
                                   SeededRandomness(self.sessions.seed_source()))
        except IllegalMove as refusal:
            raise UserError(humanize(session, refusal.message)) from None
        return events
