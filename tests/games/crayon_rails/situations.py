"""Hand-made game states for the rule tests: a play turn with chosen track, loads and pool."""

from __future__ import annotations

import itertools

from games.core import ScriptedRandomness
from games.crayon_rails.cards import DemandCard, EventCard, deck
from games.crayon_rails.engine import GAME
from games.crayon_rails.mapdata import board, edge
from games.crayon_rails.state import Lock, Player, PoolCard, State, Turn


def track(*mileposts: str) -> list[tuple[str, str]]:
    return [edge(a, b) for a, b in itertools.pairwise(mileposts)]


def land_path(start: str, goal: str) -> list[str]:
    """The fewest-milepost path over land, for laying down long track in a test."""
    previous: dict[str, str | None] = {start: None}
    frontier = [start]
    while goal not in previous:
        following = []
        for here in frontier:
            for there in board().neighbours(here):
                if there not in previous:
                    previous[there] = here
                    following.append(there)
        frontier = following
    path = [goal]
    while previous[path[-1]] is not None:
        path.append(previous[path[-1]])
    return path[::-1]


def demand_ids(count: int, skip: tuple[int, ...] = ()) -> list[int]:
    return [c.id for c in deck().values() if isinstance(c, DemandCard) and c.id not in skip][:count]


def event_id(kind: str, target: str | None = None) -> int:
    return next(c.id for c in deck().values()
                if isinstance(c, EventCard) and c.kind == kind and target in (None, c.target))


def card_with(load: str, city: str | None = None) -> tuple[int, int]:
    """(card id, demand index) of a demand card asking for `load` (at `city`)."""
    for card in deck().values():
        if isinstance(card, DemandCard):
            for index, demand in enumerate(card.demands):
                if demand.load == load and city in (None, demand.city):
                    return card.id, index
    raise LookupError(load)


def pool_card(card_id: int, locks: tuple[tuple[str, int], ...] = (), private_to: str | None = None) -> PoolCard:
    return PoolCard(id=card_id, locks=[Lock(player=p, demand=d) for p, d in locks], private_to=private_to)


def play_state(alice: dict | None = None, bob: dict | None = None, pool: list[PoolCard] | None = None,
               deck_ids: list[int] | None = None, to_move: str = "alice", **turn: object) -> State:
    """Alice and Bob in play, `to_move` starting a turn with a freight's 9 mileposts."""
    turn.setdefault("allowance", 9)
    return State(
        players=[Player(id="alice", **(alice or {})), Player(id="bob", **(bob or {}))],
        phase="play",
        round=1,
        turn=Turn(player=to_move, **turn),
        pool=pool or [],
        deck=deck_ids or [],
    )


def act(state: State, player: str, action: dict, rolls: tuple = (), shuffles: tuple = ()) -> tuple[State, list[dict]]:
    rng = ScriptedRandomness(rolls=rolls, shuffles=shuffles)
    new, events = GAME.apply(state, player, action, rng)
    assert rng.exhausted, "the engine left scripted chance unused"
    return new, events
