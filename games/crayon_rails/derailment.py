"""Derailment losses: each derailed player with loads chooses the one he loses.

The choice comes before any further card is drawn; once every derailed player has chosen,
the pool is settled again (a freed card may already bring the unlocked cards up to 2 x N).
"""

from __future__ import annotations

from games.core import IllegalMove, Randomness, require_seated
from games.crayon_rails.locking import settle_pool
from games.crayon_rails.state import State, demand_load, free_loads, private_load_aboard


def _require_pending(state: State, player_id: str) -> None:
    require_seated([p.id for p in state.players], player_id)
    if player_id not in state.pending_losses:
        raise IllegalMove("You have no load to give up: that follows only a derailment.")


def check_give_up(state: State, player_id: str, card_id: int | None, load: str | None) -> str:
    """The load lost by giving up a public lock (`card_id`) or an unlocked load (`load`)."""
    _require_pending(state, player_id)
    if card_id is not None:
        card = state.card(card_id)
        if card is None:
            raise IllegalMove(f"Card {card_id} is not in the pool.")
        if card.private_to == player_id:
            raise IllegalMove(f"Card {card_id} is private: choose release or keep_private for it.")
        lock = next((lock for lock in card.locks if lock.player == player_id), None)
        if lock is None:
            raise IllegalMove(f"You have no lock on card {card_id}.")
        return demand_load(card_id, lock.demand)
    if load is None:
        raise IllegalMove("Name the card whose locked load you give up, or an unlocked load.")
    if free_loads(state, player_id)[load] < 1:
        raise IllegalMove(f"You carry no unlocked {load}.")
    return load


def check_private_loss(state: State, player_id: str, card_id: int) -> None:
    _require_pending(state, player_id)
    card = state.card(card_id)
    if card is None or card.private_to != player_id:
        raise IllegalMove(f"Card {card_id} is not one of your private cards.")
    if not private_load_aboard(state, card):
        raise IllegalMove(f"The load for card {card_id} is not aboard, so it cannot be lost.")


def give_up(state: State, player_id: str, card_id: int | None, load: str | None,
            rng: Randomness, events: list[dict]) -> None:
    lost = check_give_up(state, player_id, card_id, load)
    if card_id is not None:
        card = state.card(card_id)
        assert card is not None
        card.locks = [lock for lock in card.locks if lock.player != player_id]
    state.player(player_id).loads.remove(lost)
    events.append({"type": "load_lost", "player": player_id, "load": lost, "card": card_id,
                   "unlocked": card_id is not None and not state.card(card_id).locks})
    _resolved(state, player_id, rng, events)


def lose_private_load(state: State, player_id: str, card_id: int, release: bool,
                      rng: Randomness, events: list[dict]) -> None:
    check_private_loss(state, player_id, card_id)
    card = state.card(card_id)
    assert card is not None
    lost = demand_load(card_id, card.locks[0].demand)
    state.player(player_id).loads.remove(lost)
    if release:
        card.private_to = None
        card.locks = []
    events.append({"type": "released" if release else "kept_private", "player": player_id,
                   "card": card_id, "load": lost})
    _resolved(state, player_id, rng, events)


def _resolved(state: State, player_id: str, rng: Randomness, events: list[dict]) -> None:
    state.pending_losses.remove(player_id)
    if not state.pending_losses:
        state.derailment = None
        settle_pool(state, rng, events)
