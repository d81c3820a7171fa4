"""Who plays each seat once a lobby fills or a turn clock runs out: Parlor's AI seated in a lobby, a claim that
ends a game on its idle players, the AI standing in for them instead, and a player taking his seat back."""

from __future__ import annotations

from bot.play.ai_seats import new_ai_seats
from bot.play.away import auto_away, away_notes
from bot.play.finishing import ratings_after, timed_out
from bot.play.lobby import Lobby
from bot.play.outcome import MoveOutcome
from bot.play.pacing import Pacing
from bot.play.pauses import claim_left
from bot.play.refusals import SEATS_SAVED, UserError
from bot.play.sessions import Sessions
from bot.play.turn_clock import format_duration, no_wait
from bot.storage.store import Seat, SessionRecord
from games import get_game


class Seats:
    """Seats the AI, and settles seats whose turn clock ran out."""

    def __init__(self, sessions: Sessions, pacing: Pacing, lobby: Lobby) -> None:
        self.sessions = sessions
        self.pacing = pacing
        self.lobby = lobby

    async def claim(self, channel_id: str, player: str) -> SessionRecord:
        """End a game whose turn clock ran out: the players it waits on lose (see bot.play.turn_clock)."""
        session = await self.sessions.open_session(channel_id)
        async with self.sessions.lock(session.id):
            session = await self.sessions.session(session.id)
            idle = await self._idle_past_clock(session, player, "claim")
            ending = timed_out(session, idle)
            return await self.sessions.write(session, **ending,
                                             ratings=await ratings_after(self.sessions.store, session, ending),
                                             waiting_since=None, timers=no_wait().timers)

    async def _idle_past_clock(self, session: SessionRecord, player: str, verb: str) -> list[str]:
        """The players whose turn clock has run out, if `player` (one of the others) may claim or substitute."""
        self.sessions.require_playable(session, get_game(session.slug), player=player)
        if player not in session.player_ids:
            raise UserError(f"Only the game's players can {verb} here.")
        idle = [p for p in self.sessions.to_act(session) if p not in session.ai_played]
        if not idle:
            raise UserError(f"The game is not waiting on anyone idle, so there is nothing to {verb}.")
        if player in idle:
            raise UserError("The game is waiting on you: make your move instead.")
        periods = await self.pacing.periods_for(session.guild_id)
        left = await claim_left(self.sessions.store, session, idle, self.sessions.clock(), periods)
        if left > 0 and (away := await away_notes(self.sessions.store, session, self.sessions.clock(), idle)):
            raise UserError(f"The turn clock stands still: {'; '.join(away)}. Nobody can {verb} meanwhile.")
        if left <= 0 and (saved := await auto_away(self.sessions.store, session, idle, self.sessions.clock())):
            raise UserError(f"The turn clock ran out, but an away day was kept for this: {'; '.join(saved)}.")
        if left > 0:
            raise UserError(f"The turn clock has not run out yet. You can {verb} in "
                            f"{format_duration(left, round_up=True)}.")
        return idle

    async def seat_ai(self, channel_id: str, player: str, *, fill: bool = False
                      ) -> tuple[SessionRecord, MoveOutcome | None]:
        """Seat Parlor's AI in the lobby: one seat, or with `fill` every free seat, and then begin.

        Like a person joining, the seat that fills the lobby begins the game; `fill` begins it in any case.
        """
        session = await self.sessions.open_session(channel_id)
        async with self.sessions.lock(session.id):
            session = await self.sessions.session(session.id)
            game = get_game(session.slug)
            if session.status != "lobby":
                raise UserError(f"{game.title} has already begun here; the AI can play the next one.")
            if player not in session.player_ids:
                raise UserError("Only a player in the lobby can seat the AI. `/game join` first.")
            if fill:
                self.lobby.require_may_begin(session, game, player)
            reserved = [user for user in session.invited if user not in session.player_ids]
            free = game.max_players - len(session.players) - len(reserved)
            if free <= 0 and (not fill or len(session.players) < game.min_players):
                raise UserError(f"{game.title} has no free seat for the AI"
                                f"{f' ({SEATS_SAVED})' if reserved else ''}.")
            players = [*session.players, *new_ai_seats(session.players, max(free, 0) if fill else 1)]
            if fill or len(players) == game.max_players:
                if len(players) < game.min_players:
                    raise UserError(f"{game.title} needs at least {game.min_players} players.")
                began = await self.lobby.begin_locked(session, actor=player, players=players)
                return began.session, began
            return await self.sessions.write(session, players=players), None

    async def substitute(self, channel_id: str, player: str) -> tuple[SessionRecord, list[str]]:
        """Instead of a claim: the AI takes the seats whose turn clock ran out, and the game plays on."""
        session = await self.sessions.open_session(channel_id)
        async with self.sessions.lock(session.id):
            session = await self.sessions.session(session.id)
            idle = await self._idle_past_clock(session, player, "substitute")
            first = await self.sessions.store.last_seq(session.id) + 1
            players = [seat.model_copy(update={"stand_in": True, "stand_ins": [*seat.stand_ins, [first, -1]]})
                       if seat.id in idle else seat for seat in session.players]
            updated = await self._reseat(session, players, actor=player)
            return updated, idle

    async def return_to_seat(self, channel_id: str, player: str) -> SessionRecord:
        """The player the AI stood in for takes his seat back; from now on the game waits on him again."""
        session = await self.sessions.open_session(channel_id)
        async with self.sessions.lock(session.id):
            session = await self.sessions.session(session.id)
            self.sessions.require_playable(session, get_game(session.slug), player=player)
            seat = next((seat for seat in session.players if seat.id == player), None)
            if seat is None or not seat.stand_in:
                raise UserError("The AI is not playing for you in this game, so there is no seat to take back.")
            periods = [list(period) for period in seat.stand_ins]
            periods[-1][1] = await self.sessions.store.last_seq(session.id)
            players = [s.model_copy(update={"stand_in": False, "stand_ins": periods}) if s.id == player else s
                       for s in session.players]
            return await self._reseat(session, players, actor=player)

    async def _reseat(self, session: SessionRecord, players: list[Seat], actor: str) -> SessionRecord:
        """Write new seats of a running game, with the waits (and timers) that follow from who plays them."""
        draft = session.model_copy(update={"players": players})
        wait = await self.pacing.wait_plan(draft, self.sessions.to_act(session), actor)
        updated = await self.sessions.write(session, players=players, waiting_since=wait.waiting_since,
                                            timers=wait.timers)
        self.sessions.remember(updated, self.sessions.state_of(session))
        self.sessions.changed(updated)
        return updated
