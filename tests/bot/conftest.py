from __future__ import annotations

import pytest

from bot.play.host import Host
from bot.storage.store import Seat, Store

ALICE = Seat(id="101", name="Alice")
BOB = Seat(id="202", name="Bob")
CAROL = Seat(id="303", name="Carol")


class FakeClock:
    """A clock the tests move by hand."""

    def __init__(self, now: float = 1_700_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def store(database_url):
    store = await Store.connect(database_url)
    yield store
    await store.close()


@pytest.fixture
def host(store, clock) -> Host:
    seeds = iter(range(1, 1_000_000))
    return Host(store, clock=clock, seed_source=lambda: next(seeds))
