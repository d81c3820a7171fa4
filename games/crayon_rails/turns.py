"""Whose turn it is: turn checks, the initial building rounds, the play order and victory."""

from __future__ import annotations

from games.core import IllegalMove, require_seated
from games.crayon_rails.hazards import lapse_events, snowed_in
from games.crayon_rails.routing import majors_joined
from games.crayon_rails.state import Phase, State, Turn, holds_locked_load, snow_speed

PHASE_HINTS = {
    "setup": "The game is still in setup: keep up to two cards with keep.",
    "initial-build": "Trains do not run yet: build track, then end your turn.",
    "play": "That belongs to another part of the game.",
}


def require_turn(state: State, player_id: str, phase: Phase | tuple[Phase, ...]) -> None:
    """Refuse anyone but the player the game waits for, and actions outside their phase."""
    require_seated([p.id for p in state.players], player_id)
    if state.phase == "over":
        raise IllegalMove("The game is over.")
    if state.pending_losses:
        if player_id in state.pending_losses:
            raise IllegalMove("Derailed: first choose the load you lose (give_up, release or keep_private).")
        raise IllegalMove(f"Waiting for {', '.join(state.pending_losses)} to choose a load lost to the derailment.")
    phases = (phase,) if isinstance(phase, str) else phase
    if state.phase not in phases:
        raise IllegalMove(PHASE_HINTS[state.phase])
    assert state.turn is not None
    if state.turn.player != player_id:
        raise IllegalMove(f"It is {state.turn.player}'s turn.")


def require_operating(state: State, player_id: str) -> None:
    """Train actions: only in play, before building or upgrading, and not in a pitched turn."""
    require_turn(state, player_id, "play")
    turn = state.turn
    assert turn is not None
    if turn.pitched:
        raise IllegalMove("You pitched cards this turn: you may only lock with loads aboard, then end your turn.")
    if turn.building_started:
        raise IllegalMove("The train runs before you build or upgrade; end your turn instead.")


def allowance(state: State, player_id: str) -> int:
    player = state.player(player_id)
    if player.at and snowed_in(state, player.at):
        return snow_speed(player.speed)
    return player.speed


def qualifies(state: State, player_id: str) -> bool:
    player = state.player(player_id)
    return (
        player.cash >= state.options.target_cash
        and majors_joined(player) >= state.options.major_cities
        and not holds_locked_load(state, player_id)
    )


def begin_play(state: State, events: list[dict]) -> None:
    """After the initial rounds the last to build moves first: seat 0, as round 2 runs in reverse."""
    state.phase = "play"
    state.round = 1
    state.build_queue = []
    events.append({"type": "play_started"})
    _begin_turn(state, state.players[0].id, events)


def _begin_turn(state: State, player_id: str, events: list[dict]) -> None:
    player = state.player(player_id)
    state.turn = Turn(player=player_id, allowance=allowance(state, player_id))
    if player.loses_next_turn:
        player.loses_next_turn = False
        events.append({"type": "turn_lost", "player": player_id})
        finish_turn(state, player_id, events)


def end_initial_turn(state: State, events: list[dict]) -> None:
    state.build_queue.pop(0)
    if not state.build_queue:
        begin_play(state, events)
        return
    state.turn = Turn(player=state.build_queue[0])
    state.round = 1 if len(state.build_queue) > len(state.players) else 2


def finish_turn(state: State, player_id: str, events: list[dict]) -> None:
    """End a play turn: events lapse, a qualification is announced (and stands for the rest of the
    round, whatever a later Flood does), the round's last turn decides the winners, the next seat starts."""
    lapse_events(state, player_id, events)
    if qualifies(state, player_id) and player_id not in state.qualified:
        state.qualified.append(player_id)
        events.append({"type": "qualified", "player": player_id})
    seats = [p.id for p in state.players]
    seat = seats.index(player_id)
    if seat == len(seats) - 1:
        if state.qualified:
            best = max(state.player(p).cash for p in state.qualified)
            state.winners = [p for p in seats if p in state.qualified and state.player(p).cash == best]
            state.phase = "over"
            state.turn = None
            events.append({"type": "game_over", "winners": list(state.winners)})
            return
        state.round += 1
    _begin_turn(state, seats[(seat + 1) % len(seats)], events)
