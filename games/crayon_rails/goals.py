"""Where a player's goals lie: the major cities his network has not joined and the cities on his cards.

Build suggestions (the legal `build` actions) and the `/cities` answer both start from these, so a
newcomer is offered the places that bring him closer to winning before any other.
"""

from __future__ import annotations

from games.crayon_rails.cards import demand_card
from games.crayon_rails.mapdata import board
from games.crayon_rails.routing import joined_network
from games.crayon_rails.state import State, private_cards, private_load_aboard, public_locks


def goal_cities(state: State, player_id: str) -> dict[str, str]:
    """City name -> why it matters, for cities not yet on the player's network, most pressing first.

    The network is the piece of track the win counts (`joined_network`): after a Flood cuts it, a
    city left on another piece is a goal again, and building toward it rejoins that piece.

    First where the player's kept and locked demands are delivered, then the major cities not
    joined, then the cities supplying a kept card's load that is not aboard yet.
    """
    the_board = board()
    own = joined_network(state.player(player_id))
    goals: dict[str, str] = {}
    supplies: dict[str, str] = {}
    for card in private_cards(state, player_id):
        wanted = demand_card(card.id).demands[card.locks[0].demand]
        goals.setdefault(wanted.city, f"delivers {wanted.load} for your card #{card.id}")
        if not private_load_aboard(state, card):
            for supplier in the_board.suppliers(wanted.load):
                supplies.setdefault(supplier.name, f"supplies {wanted.load} for your card #{card.id}")
    for card, lock in public_locks(state, player_id):
        wanted = demand_card(card.id).demands[lock.demand]
        goals.setdefault(wanted.city, f"delivers {wanted.load} for your lock on #{card.id}")
    for city in the_board.majors:
        goals.setdefault(city.name, "a major city you have not joined")
    for name, why in supplies.items():
        goals.setdefault(name, why)
    return {name: why for name, why in goals.items() if the_board.cities[name].at not in own}
