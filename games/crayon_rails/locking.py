"""Public locking: the card pool, its size rules, locks, deliveries, pitching and derailment losses.

Every change to the pool ends in `settle_pool`, which applies the pool-size rules in order:
(1) never draw past 3 x N public cards; (2) while fewer than 2 x N are unlocked, draw.
A drawn event is resolved at once; a derailment pauses the drawing until every derailed
player has chosen the load he loses.
"""

from __future__ import annotations

from games.core import IllegalMove, Randomness
from games.crayon_rails.cards import EventCard, deck, demand_card
from games.crayon_rails.hazards import resolve_event, struck
from games.crayon_rails.mapdata import board
from games.crayon_rails.state import (
    Lock,
    PoolCard,
    State,
    demand_load,
    free_loads,
    holds_locked_load,
    markers_left,
    private_load_aboard,
)
from games.crayon_rails.turns import require_operating, require_turn

PITCH_COUNT = 3


def draw_card(state: State, rng: Randomness, events: list[dict]) -> int | None:
    """The front card of the deck, reshuffling the discards into a new deck when it runs out."""
    if not state.deck:
        if not state.discard:
            return None
        state.deck = rng.shuffle(sorted(state.discard))
        state.discard = []
        events.append({"type": "reshuffled", "cards": len(state.deck)})
    return state.deck.pop(0)


def draw_for_setup(state: State, rng: Randomness, events: list[dict]) -> bool:
    """Put one demand card in the pool during setup; events turned up then are set aside unplayed."""
    while (card_id := draw_card(state, rng, events)) is not None:
        if isinstance(deck()[card_id], EventCard):
            state.discard.append(card_id)
            events.append({"type": "event_set_aside", "card": card_id})
            continue
        state.pool.append(PoolCard(id=card_id))
        events.append({"type": "card_drawn", "card": card_id})
        return True
    return False


def settle_pool(state: State, rng: Randomness, events: list[dict]) -> None:
    """Draw until the pool-size rules hold, resolving events as they turn up."""
    seats = len(state.players)
    while not state.pending_losses:
        if len(state.unlocked_pool) >= 2 * seats or len(state.public_pool) >= 3 * seats:
            return
        card_id = draw_card(state, rng, events)
        if card_id is None:
            return
        card = deck()[card_id]
        if isinstance(card, EventCard):
            state.discard.append(card_id)
            resolve_event(state, card, events)
            continue
        state.pool.append(PoolCard(id=card_id))
        events.append({"type": "card_drawn", "card": card_id})


def _pool_card(state: State, card_id: int) -> PoolCard:
    card = state.card(card_id)
    if card is None:
        raise IllegalMove(f"Card {card_id} is not in the pool.")
    return card


def check_lock(state: State, player_id: str, card_id: int, demand: int) -> None:
    require_turn(state, player_id, "play")
    if state.turn and state.turn.building_started:
        raise IllegalMove("Locks come before building or upgrading; end your turn instead.")
    card = _pool_card(state, card_id)
    if card.private_to is not None:
        raise IllegalMove(f"Card {card_id} is privately locked by {card.private_to}.")
    if not 0 <= demand <= 2:
        raise IllegalMove("A card has demands 0, 1 and 2.")
    if card.locks and card.locked_demand != demand:
        raise IllegalMove(f"Card {card_id} is locked on demand {card.locked_demand}; only that one can be locked.")
    if any(lock.player == player_id for lock in card.locks):
        raise IllegalMove(f"You have already locked card {card_id}.")
    if markers_left(state, player_id) < 1:
        raise IllegalMove("All three of your markers are in use.")
    load = demand_load(card_id, demand)
    if free_loads(state, player_id)[load] < 1:
        raise IllegalMove(f"To lock this demand you must carry a {load} that locks no other card.")


def lock(state: State, player_id: str, card_id: int, demand: int, rng: Randomness, events: list[dict]) -> None:
    check_lock(state, player_id, card_id, demand)
    card = _pool_card(state, card_id)
    card.locks.append(Lock(player=player_id, demand=demand))
    if state.turn:
        state.turn.operated = True
    events.append({"type": "locked", "player": player_id, "card": card_id, "demand": demand,
                   "load": demand_load(card_id, demand), "race": len(card.locks) > 1})
    settle_pool(state, rng, events)


def check_deliver(state: State, player_id: str, card_id: int, demand: int) -> None:
    require_operating(state, player_id)
    card = _pool_card(state, card_id)
    if card.private_to not in (None, player_id):
        raise IllegalMove(f"Card {card_id} is privately locked by {card.private_to}.")
    if not any(lock.player == player_id and lock.demand == demand for lock in card.locks):
        raise IllegalMove(f"Lock demand {demand} of card {card_id} first: deliveries need your lock.")
    if card.private_to and not private_load_aboard(state, card):
        raise IllegalMove(f"Pick up the {demand_load(card_id, demand)} for card {card_id} first.")
    wanted = demand_card(card_id).demands[demand]
    player = state.player(player_id)
    if player.at != board().cities[wanted.city].at:
        raise IllegalMove(f"Card {card_id} pays for {wanted.load} delivered at {wanted.city}; go there first.")
    if struck(state, wanted.city):
        raise IllegalMove(f"{wanted.city} is on strike: no deliveries there for now.")


def deliver(state: State, player_id: str, card_id: int, demand: int, rng: Randomness, events: list[dict]) -> None:
    check_deliver(state, player_id, card_id, demand)
    card = _pool_card(state, card_id)
    wanted = demand_card(card_id).demands[demand]
    player = state.player(player_id)
    player.loads.remove(wanted.load)
    player.cash += wanted.payoff
    state.pool.remove(card)
    state.discard.append(card_id)
    assert state.turn is not None
    state.turn.operated = True
    freed = [lock.player for lock in card.locks if lock.player != player_id]
    events.append({"type": "delivered", "player": player_id, "card": card_id, "demand": demand,
                   "load": wanted.load, "city": wanted.city, "payoff": wanted.payoff, "freed": freed})
    settle_pool(state, rng, events)


def check_pitch(state: State, player_id: str) -> None:
    require_turn(state, player_id, "play")
    turn = state.turn
    assert turn is not None
    if turn.operated or turn.building_started or turn.pitched:
        raise IllegalMove("Pitching takes your whole turn: do it before anything else.")
    if holds_locked_load(state, player_id):
        raise IllegalMove("You cannot pitch while you hold a locked load.")
    if not state.unlocked_pool:
        raise IllegalMove("There are no unlocked cards to pitch.")


def pitch(state: State, player_id: str, rng: Randomness, events: list[dict]) -> None:
    check_pitch(state, player_id)
    assert state.turn is not None
    state.turn.pitched = True
    state.turn.operated = True
    chosen = rng.shuffle(sorted(card.id for card in state.unlocked_pool))[:PITCH_COUNT]
    state.pool = [card for card in state.pool if card.id not in chosen]
    state.discard += chosen
    events.append({"type": "pitched", "player": player_id, "cards": chosen})
    settle_pool(state, rng, events)


def keep_cards(state: State, player_id: str, kept: dict[int, int], rng: Randomness, events: list[dict]) -> bool:
    """Setup: privately lock up to two offered cards, then offer the next seat or open the pool.

    Returns True once the last seat has kept its cards and the pool is filled.
    """
    check_keep(state, player_id, kept)
    for card_id, demand in kept.items():
        card = _pool_card(state, card_id)
        card.private_to = player_id
        card.locks = [Lock(player=player_id, demand=demand)]
    events.append({"type": "kept", "player": player_id, "cards": {str(k): v for k, v in kept.items()}})
    seats = [p.id for p in state.players]
    assert state.turn is not None
    following = seats.index(player_id) + 1
    if following < len(seats):
        for _ in range(2):
            draw_for_setup(state, rng, events)
        state.turn.player = seats[following]
        return False
    while len(state.public_pool) < 3 * len(seats) and draw_for_setup(state, rng, events):
        pass
    return True


def check_keep(state: State, player_id: str, kept: dict[int, int]) -> None:
    require_turn(state, player_id, "setup")
    if len(kept) > 2:
        raise IllegalMove("Keep at most two cards.")
    for card_id, demand in kept.items():
        card = state.card(card_id)
        if card is None or card.private_to is not None:
            raise IllegalMove(f"Card {card_id} is not on offer; pick from the face-up cards.")
        if not 0 <= demand <= 2:
            raise IllegalMove("Name demand 0, 1 or 2 of each kept card.")
