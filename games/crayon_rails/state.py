"""The game state as pydantic models, plus the small queries every rule module needs."""

from __future__ import annotations

import math
from collections import Counter
from typing import Literal

from pydantic import BaseModel, Field

from games.crayon_rails.cards import demand_card

TRAINS: dict[str, tuple[int, int]] = {"freight": (9, 2), "fast": (12, 2), "heavy": (9, 3), "super": (12, 3)}
"""Train -> (speed, capacity)."""
UPGRADES = {"freight": ("fast", "heavy"), "fast": ("super",), "heavy": ("super",), "super": ()}
MARKERS = 3
CHIPS_PER_LOAD = 3
START_CASH = 50
BUILD_LIMIT = 20
UPGRADE_COST = 20
FOREIGN_TRACK_FEE = 4

Phase = Literal["setup", "initial-build", "play", "over"]


class Options(BaseModel):
    target_cash: int = 100
    major_cities: int = 3


class Lock(BaseModel):
    player: str
    demand: int


class PoolCard(BaseModel):
    """A face-up card; `private_to` marks a card kept at setup (its single lock is its owner's)."""

    id: int
    locks: list[Lock] = Field(default_factory=list)
    private_to: str | None = None

    @property
    def locked_demand(self) -> int | None:
        return self.locks[0].demand if self.locks else None


class ActiveEvent(BaseModel):
    card: int
    kind: str
    target: str
    drawer: str
    turn_ends_left: int = 2
    """Ends of the drawer's turns until the event lapses (the current one and the next)."""


class Player(BaseModel):
    id: str
    cash: int = START_CASH
    train: str = "freight"
    at: str | None = None
    came_from: str | None = None
    """The milepost the train last left, so a reversal outside a city can be refused."""
    loads: list[str] = Field(default_factory=list)
    track: list[tuple[str, str]] = Field(default_factory=list)
    loses_next_turn: bool = False

    @property
    def speed(self) -> int:
        return TRAINS[self.train][0]

    @property
    def capacity(self) -> int:
        return TRAINS[self.train][1]


class Turn(BaseModel):
    player: str
    allowance: int = 0
    moved: int = 0
    fee_paid: bool = False
    operated: bool = False
    built: int = 0
    upgraded: bool = False
    pitched: bool = False

    @property
    def moves_left(self) -> int:
        return max(0, self.allowance - self.moved)

    @property
    def building_started(self) -> bool:
        return self.built > 0 or self.upgraded


class State(BaseModel):
    players: list[Player]
    options: Options = Field(default_factory=Options)
    phase: Phase = "setup"
    round: int = 0
    turn: Turn | None = None
    build_queue: list[str] = Field(default_factory=list)
    """Initial building: who builds next, in order (seat order, then reversed)."""
    deck: list[int] = Field(default_factory=list)
    discard: list[int] = Field(default_factory=list)
    pool: list[PoolCard] = Field(default_factory=list)
    active_events: list[ActiveEvent] = Field(default_factory=list)
    pending_losses: list[str] = Field(default_factory=list)
    """Derailed players who still choose which load they lose; no card is drawn meanwhile."""
    derailment: ActiveEvent | None = None
    """The derailment being resolved while `pending_losses` is not empty."""
    qualified: list[str] = Field(default_factory=list)
    """Players who met the victory conditions at the end of their turn this round: it stands."""
    winners: list[str] | None = None

    def player(self, player_id: str) -> Player:
        return next(p for p in self.players if p.id == player_id)

    def other(self, player_id: str) -> Player:
        return next(p for p in self.players if p.id != player_id)

    def card(self, card_id: int) -> PoolCard | None:
        return next((c for c in self.pool if c.id == card_id), None)

    @property
    def public_pool(self) -> list[PoolCard]:
        return [c for c in self.pool if c.private_to is None]

    @property
    def unlocked_pool(self) -> list[PoolCard]:
        return [c for c in self.pool if c.private_to is None and not c.locks]


def demand_load(card_id: int, demand: int) -> str:
    return demand_card(card_id).demands[demand].load


def public_locks(state: State, player_id: str) -> list[tuple[PoolCard, Lock]]:
    return [(c, lock) for c in state.public_pool for lock in c.locks if lock.player == player_id]


def private_cards(state: State, player_id: str) -> list[PoolCard]:
    return [c for c in state.pool if c.private_to == player_id]


def markers_left(state: State, player_id: str) -> int:
    return MARKERS - len(public_locks(state, player_id)) - len(private_cards(state, player_id))


def committed_loads(state: State, player_id: str) -> Counter[str]:
    """Loads aboard that are locked: those under public locks, then those filling private cards."""
    carried = Counter(state.player(player_id).loads)
    committed = Counter(demand_load(card.id, lock.demand) for card, lock in public_locks(state, player_id))
    wanted = Counter(demand_load(c.id, c.locks[0].demand) for c in private_cards(state, player_id))
    for load, count in wanted.items():
        committed[load] += min(count, carried[load] - committed[load])
    return committed


def free_loads(state: State, player_id: str) -> Counter[str]:
    """Loads aboard that are not locked: they may be dropped, lost or used for a new lock."""
    return Counter(state.player(player_id).loads) - committed_loads(state, player_id)


def private_load_aboard(state: State, card: PoolCard) -> bool:
    """Whether a load for a private card is on its owner's train beyond those under public locks.

    Loads of one type are interchangeable between kept cards: with one Steel aboard, either of
    two kept Steel cards can be delivered (or lost to a derailment).
    """
    owner = card.private_to
    assert owner is not None
    load = demand_load(card.id, card.locks[0].demand)
    carried = Counter(state.player(owner).loads)[load]
    public = sum(1 for c, lock in public_locks(state, owner) if demand_load(c.id, lock.demand) == load)
    return carried - public > 0


def slots_used(state: State, player_id: str) -> int:
    """Loads aboard plus the slots reserved for private cards whose load is not aboard yet."""
    player = state.player(player_id)
    carried = Counter(player.loads)
    wanted = Counter(demand_load(c.id, c.locks[0].demand) for c in private_cards(state, player_id))
    public_only = Counter(demand_load(c.id, lock.demand) for c, lock in public_locks(state, player_id))
    unfilled = sum(max(0, count - (carried[load] - public_only[load])) for load, count in wanted.items())
    return len(player.loads) + unfilled


def holds_locked_load(state: State, player_id: str) -> bool:
    return sum(committed_loads(state, player_id).values()) > 0


def chips_in_supply(state: State, load: str) -> int:
    return CHIPS_PER_LOAD - sum(p.loads.count(load) for p in state.players)


def snow_speed(speed: int) -> int:
    return math.ceil(speed / 2)
