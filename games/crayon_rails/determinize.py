"""Rebuild a Crayon Rails state from its public view, for search players (games.ai).

Every card is face up in this variant; only the order of the deck is unknown, and which of the
cards out of sight lie in the deck and which in the discards. Those are sampled: the deck is a
random choice of that many unseen cards in random order, the rest are the discards.
"""

from __future__ import annotations

from games.core import Randomness
from games.crayon_rails.cards import deck
from games.crayon_rails.state import ActiveEvent, Lock, Options, Player, PoolCard, State, Turn


def _event(entry: dict) -> ActiveEvent:
    return ActiveEvent(card=entry["card"], kind=entry["kind"], target=entry["target"], drawer=entry["drawer"],
                       turn_ends_left=entry["turn_ends_left"])


def _build_queue(view: dict, seats: list[str]) -> list[str]:
    """Initial building runs in seat order, then reversed; the queue starts at the builder on turn."""
    if view["phase"] != "initial-build" or view["turn"] is None:
        return []
    order = seats + seats[::-1]
    builder = view["turn"]["player"]
    start = order.index(builder) if view["round"] == 1 else len(seats) + order[len(seats):].index(builder)
    return order[start:]


def determinize(view: dict, rng: Randomness) -> State:
    seats = [entry["id"] for entry in view["players"]]
    players = [
        Player(id=entry["id"], cash=entry["cash"], train=entry["train"], at=entry["at"],
               came_from=entry["came_from"], loads=list(entry["loads"]),
               track=[(a, b) for a, b in entry["track"]], loses_next_turn=entry["loses_next_turn"])
        for entry in view["players"]
    ]
    pool = [PoolCard(id=card["id"], locks=[Lock(**lock) for lock in card["locks"]], private_to=card["private_to"])
            for card in view["pool"]]
    in_pool = {card.id for card in pool}
    unseen = rng.shuffle(sorted(card for card in deck() if card not in in_pool))
    events = [entry for entry in view["active_events"] if "pending" not in entry]
    derailment = next((entry for entry in view["active_events"] if "pending" in entry), None)
    return State(
        players=players,
        options=Options.model_validate(view["options"]),
        phase=view["phase"],
        round=view["round"],
        turn=None if view["turn"] is None else Turn.model_validate(view["turn"]),
        build_queue=_build_queue(view, seats),
        deck=unseen[: view["deck"]],
        discard=sorted(unseen[view["deck"]:]),
        pool=pool,
        active_events=[_event(entry) for entry in events],
        pending_losses=list(derailment["pending"]) if derailment else [],
        derailment=_event(derailment) if derailment else None,
        qualified=list(view.get("qualified", [])),
        winners=None if view["winners"] is None else list(view["winners"]),
    )
