"""Event cards: what each does when drawn, and what an active one forbids until it lapses."""

from __future__ import annotations

from games.crayon_rails.cards import EventCard
from games.crayon_rails.mapdata import board
from games.crayon_rails.state import ActiveEvent, State, snow_speed

DERAILMENT_RADIUS = 3
SNOW_RADIUS = 4


def _active(state: State, kind: str) -> list[ActiveEvent]:
    return [event for event in state.active_events if event.kind == kind]


def struck(state: State, city: str) -> bool:
    return any(event.target == city for event in _active(state, "strike"))


def flooded(state: State, river: str) -> bool:
    return any(event.target == river for event in _active(state, "flood"))


def snowed_in(state: State, milepost: str) -> bool:
    """Within reach of an active Snow: half speed, no building on mountain or alpine."""
    the_board = board()
    return any(
        the_board.distance(milepost, the_board.cities[event.target].at) <= SNOW_RADIUS
        for event in _active(state, "snow")
    )


def resolve_event(state: State, card: EventCard, events: list[dict]) -> None:
    """Apply a drawn event card in place; a derailment leaves load choices pending."""
    drawer = state.turn.player if state.turn else state.players[0].id
    active = ActiveEvent(card=card.id, kind=card.kind, target=card.target, drawer=drawer)
    the_board = board()
    if card.kind == "derailment":
        city = the_board.cities[card.target].at
        hit = [p for p in state.players if p.at and the_board.distance(p.at, city) <= DERAILMENT_RADIUS]
        for player in hit:
            player.loses_next_turn = True
        state.pending_losses = [p.id for p in hit if p.loads]
        state.derailment = active if state.pending_losses else None
        events.append({"type": "derailment", "card": card.id, "city": card.target,
                       "players": [p.id for p in hit], "must_lose_load": list(state.pending_losses)})
        return
    state.active_events.append(active)
    if card.kind == "flood":
        crossings = set(the_board.rivers[card.target])
        erased = []
        for player in state.players:
            lost = [section for section in player.track if section in crossings]
            player.track = [section for section in player.track if section not in crossings]
            erased += [{"player": player.id, "section": list(section)} for section in lost]
        events.append({"type": "flood", "card": card.id, "river": card.target, "erased": erased})
    elif card.kind == "strike":
        events.append({"type": "strike", "card": card.id, "city": card.target})
    else:
        _slow_current_train(state)
        events.append({"type": "snow", "card": card.id, "city": card.target})


def _slow_current_train(state: State) -> None:
    """Snow falling mid-turn halves what is left of the mover's allowance if he is caught in it."""
    turn = state.turn
    if turn is None:
        return
    player = state.player(turn.player)
    if player.at and snowed_in(state, player.at):
        turn.allowance = min(turn.allowance, snow_speed(player.speed))


def lapse_events(state: State, player_id: str, events: list[dict]) -> None:
    """At the end of `player_id`'s turn, events he drew count down and lapse after his next turn."""
    kept = []
    for event in state.active_events:
        if event.drawer == player_id:
            event.turn_ends_left -= 1
        if event.turn_ends_left > 0:
            kept.append(event)
        else:
            events.append({"type": "event_ended", "card": event.card, "kind": event.kind, "target": event.target})
    state.active_events = kept
