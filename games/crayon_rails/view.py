"""The public view: everything is face up in this variant, so every player sees the same.

Beyond the rules file's keys the view carries what a player at the table knows and the legal moves
depend on (the game's options, what the current turn has done, where each train came from, who
lost his next turn, how long each event lasts), so `determinize` can rebuild the state from it.
"""

from __future__ import annotations

from games.crayon_rails.cards import demand_card
from games.crayon_rails.routing import majors_joined
from games.crayon_rails.state import State, markers_left
from games.crayon_rails.turns import allowance


def to_act(state: State) -> list[str]:
    if state.phase == "over" or state.turn is None:
        return []
    if state.pending_losses:
        return list(state.pending_losses)
    return [state.turn.player]


def _moves_left(state: State, player_id: str) -> int:
    if state.phase == "play" and state.turn and state.turn.player == player_id:
        return state.turn.moves_left
    return allowance(state, player_id)


def _active_events(state: State) -> list[dict]:
    shown = [
        {"card": e.card, "kind": e.kind, "target": e.target, "drawer": e.drawer, "turn_ends_left": e.turn_ends_left}
        for e in state.active_events
    ]
    if state.derailment:
        event = state.derailment
        shown.append({"card": event.card, "kind": event.kind, "target": event.target, "drawer": event.drawer,
                      "turn_ends_left": event.turn_ends_left, "pending": list(state.pending_losses)})
    return shown


def public_view(state: State) -> dict:
    return {
        "phase": state.phase,
        "round": state.round,
        "options": state.options.model_dump(),
        "turn": state.turn.model_dump() if state.turn else None,
        "to_act": to_act(state),
        "players": [
            {
                "id": p.id,
                "cash": p.cash,
                "train": p.train,
                "at": p.at,
                "came_from": p.came_from,
                "loses_next_turn": p.loses_next_turn,
                "moves_left": _moves_left(state, p.id),
                "loads": list(p.loads),
                "markers": markers_left(state, p.id),
                "track": [list(section) for section in p.track],
                "majors_joined": majors_joined(p),
            }
            for p in state.players
        ],
        "pool": [
            {
                "id": card.id,
                "demands": [
                    {"load": d.load, "city": d.city, "payoff": d.payoff} for d in demand_card(card.id).demands
                ],
                "locks": [{"player": lock.player, "demand": lock.demand} for lock in card.locks],
                "private_to": card.private_to,
            }
            for card in state.pool
        ],
        "deck": len(state.deck),
        "active_events": _active_events(state),
        "qualified": list(state.qualified),
        "winners": list(state.winners) if state.winners is not None else None,
    }
