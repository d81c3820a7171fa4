"""The daily digest (issue 43): at his hour in his zone, one DM listing exactly the games waiting on him."""

from __future__ import annotations

import pytest

from bot.play.digest import Digest, DigestSender, next_digest, set_digest
from bot.play.host import Host
from bot.storage.store import Store
from tests.bot.conftest import ALICE, BOB, CAROL
from tests.bot.test_pauses import tokyo
from tests.bot.waiting import HOUR, start_game

pytestmark = pytest.mark.both_databases


class Sent:
    def __init__(self) -> None:
        self.digests: list[Digest] = []

    async def __call__(self, digest: Digest) -> None:
        self.digests.append(digest)


async def three_games(host: Host) -> tuple[int, int, int]:
    """Two waiting on Alice, one waiting on Bob."""
    waiting_on_alice = [await start_game(host, "follow-the-arrow", channel, [ALICE, seat], options={"first": ALICE.id})
                        for channel, seat in (("901", BOB), ("902", CAROL))]
    on_bob = await start_game(host, "follow-the-arrow", "903", [ALICE, BOB], options={"first": BOB.id})
    return waiting_on_alice[0], waiting_on_alice[1], on_bob


def test_the_digest_comes_at_his_hour_in_his_zone():
    assert next_digest(tokyo(0, 7, 59), 8, "Asia/Tokyo") == tokyo(0, 8)
    assert next_digest(tokyo(0, 8), 8, "Asia/Tokyo") == tokyo(1, 8)


async def test_the_digest_lists_exactly_the_games_waiting_on_him_once_a_day(database_url, clock):
    store = await Store.connect(database_url)
    host = Host(store, clock=clock)
    clock.now = tokyo(0, 6)
    await store.pacing.set_player(ALICE.id, time_zone="Asia/Tokyo")
    await store.set_turn_dms(ALICE.id, True)
    assert await set_digest(host, ALICE.id, 8) == tokyo(0, 8)
    assert await store.turn_dm_users([ALICE.id]) == set(), "the digest replaces the DM per turn"
    first, second, _ = await three_games(host)
    await store.close()

    sent = Sent()
    one, two = [Host(await Store.connect(database_url), clock=clock) for _ in range(2)]  # two processes
    senders = [DigestSender(one, sent), DigestSender(two, sent)]
    clock.now = tokyo(0, 7, 59)
    assert [await sender.send_due() for sender in senders] == [0, 0]
    clock.now = tokyo(0, 8)
    assert sum([await sender.send_due() for sender in senders]) == 1, "sent once, by one process"
    [digest] = sent.digests
    assert digest.player == ALICE.id
    assert sorted(session.id for session, _ in digest.games) == sorted([first, second])
    assert all(waited == 2 * HOUR for _, waited in digest.games)
    clock.now = tokyo(1, 8)
    assert await senders[1].send_due() == 1, "and again the next day"
    for host_ in (one, two):
        await host_.store.close()
