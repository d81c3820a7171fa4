"""Taking a move back (games.undo): who may, and the undo itself, logged as an entry of its own.

The state before the move comes from replaying the log (an undo is rare; a move needs no replay), in a worker
thread: with each entry's views compared, a long Crayon Rails log takes a few tenths of a second.
"""

from __future__ import annotations

import asyncio
import logging

from bot.play.finishing import stand_ins_of
from bot.play.names import humanize
from bot.play.outcome import MoveOutcome
from bot.play.pacing import Pacing
from bot.play.player_views import PlayerViews
from bot.play.refusals import AT_THE_SAME_MOMENT, UserError, require_seat_player
from bot.play.sessions import Sessions
from bot.play.turn_events import turn_events
from bot.storage.store import MoveRecord, SessionRecord, StaleVersion
from games import get_game
from games.core import IllegalMove
from games.record import replay_timeline
from games.undo import UNDO_ACTION, Timeline

log = logging.getLogger("bot.play.host")
"""The host's log, as before its undo had a module of its own (operators filter on it)."""


def undoer_among(session: SessionRecord, who: str | None) -> str | None:
    """`who`, if the running game lets him take back its latest move (never the AI or its stand-in)."""
    if session.status != "active" or session.setup_outcomes is None:
        return None
    seat = next((seat for seat in session.players if seat.id == who), None)
    return None if seat is None or seat.ai or seat.stand_in else seat.id


def last_timeline(session: SessionRecord, moves: list[MoveRecord]) -> Timeline:
    """The `Timeline` after the last of `moves` (games.undo): pure, so it may run off the event loop."""
    steps = replay_timeline(get_game(session.slug), session.player_ids, session.options,
                            session.setup_outcomes or {}, ((m.player, m.action, m.outcomes) for m in moves),
                            stand_ins_of(session))
    for timeline, _ in steps:  # noqa: B007 (the timeline after the last entry is returned)
        pass
    return timeline


class Takebacks:
    """Takes moves back, and knows who may take back the latest."""

    def __init__(self, sessions: Sessions, pacing: Pacing) -> None:
        self.sessions = sessions
        self.pacing = pacing

    async def undo(self, session_id: int, player: str, expected_version: int | None = None) -> MoveOutcome:
        """Take back `player`'s latest move, if games.undo allows it: logged as an entry of its own."""
        sessions = self.sessions
        async with sessions.lock(session_id):
            session = await sessions.session(session_id)
            game = get_game(session.slug)
            sessions.require_playable(session, game, expected_version, player=player)
            if player not in session.player_ids:
                raise UserError("You are not playing in this game.")
            require_seat_player(session, player, by_ai=False)
            timeline = await self._timeline(session)
            state = timeline.state
            try:
                events = timeline.undo(player)
            except IllegalMove as refusal:
                raise UserError(humanize(session, refusal.message)) from None
            restored, to_act = timeline.state, game.to_act(timeline.state)
            wait = await self.pacing.wait_plan(session, to_act, player)
            try:
                updated = await sessions.store.record_move(
                    session, player=player, action=dict(UNDO_ACTION), outcomes={"rolls": [], "shuffles": []},
                    now=sessions.clock(), timers=wait.timers, state=restored.model_dump_json(),
                    turn_events=turn_events(session, game.to_act(state), to_act, events),
                    waiting_since=wait.waiting_since, timers_due=sessions.timers_added)
            except StaleVersion:
                sessions.forget(session_id)
                raise UserError(AT_THE_SAME_MOMENT) from None
            log.debug("session %s: undo by %s committed as version %s", session_id, player, updated.version)
            sessions.remember(updated, restored)
            sessions.last_seq[session_id] = timeline.seq
            sessions.undoers[session_id] = (updated.version, timeline.undoer)
            sessions.changed(updated)
            return MoveOutcome(
                session=updated, events=events, public_view=game.view(restored, None),
                views_before=PlayerViews(game, state, session.player_ids),
                views_after=PlayerViews(game, restored, session.player_ids),
                legal=sessions.legal_by_player(updated))

    async def undoer(self, session: SessionRecord) -> str | None:
        """The person who may take back the latest move of a running game now (never the AI), if anyone."""
        if session.status != "active" or session.setup_outcomes is None:
            return None
        cached = self.sessions.undoers.get(session.id)
        if cached is None or cached[0] != session.version:
            cached = (session.version, (await self._timeline(session)).undoer)
            if session.id in self.sessions.records:
                self.sessions.undoers[session.id] = cached
        return undoer_among(session, cached[1])

    async def _timeline(self, session: SessionRecord) -> Timeline:
        """The game replayed from its log, with what an undo may take back (games.undo), in a worker thread."""
        moves = await self.sessions.store.moves(session.id)
        return await asyncio.to_thread(last_timeline, session, moves)
