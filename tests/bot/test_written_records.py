"""A write's session is built from what it wrote, not read back (bot.storage.sessions._as_written): it must be
exactly what a read gives, on SQLite and on PostgreSQL, whatever the game and however it is played."""

from __future__ import annotations

import asyncio
import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.discord.table import _same_session
from bot.play.host import Host, Upcoming, UserError
from bot.storage.store import SessionRecord, Store
from games import GAMES, get_game
from tests.bot.conftest import ALICE, BOB, CAROL, FakeClock

pytestmark = pytest.mark.both_databases

HOUR = 3600.0
channels = itertools.count(5000)


def assert_as_read(written: SessionRecord, read: SessionRecord | None) -> None:
    """Equal, field by field and type by type (1 and 1.0 are equal in Python, not in JSON)."""
    assert read is not None
    assert written == read
    assert written.model_dump_json() == read.model_dump_json()


async def check(host: Host, session: SessionRecord) -> None:
    assert_as_read(session, await host.store.session(session.id))
    assert_as_read(await host.current(session.id), await host.store.session(session.id))


async def play(url: str, slug: str, choices: list[int], ending: int) -> str:
    """A lobby filled and begun, moves (and take-backs) chosen by `choices`, then an abandon, a claim
    after the turn clock, or nothing: each write's session compared with a fresh read."""
    store = await Store.connect(url)
    seeds = iter(range(1, 1_000_000))
    clock = FakeClock(1_700_000_000.5)
    host = Host(store, clock=clock, seed_source=lambda: next(seeds))
    upcoming: list[Upcoming] = []
    host.committing = upcoming.append
    try:
        game, channel = get_game(slug), str(next(channels))
        lobby = await host.open_lobby(guild_id="1", channel_id=channel, slug=slug, creator=ALICE)
        await check(host, lobby)
        outcome = None
        for seat in (BOB, CAROL)[:game.min_players - 1]:
            session, outcome = await host.join(channel, seat)
            await check(host, session)
        if outcome is None:
            outcome = await host.begin(channel, ALICE.id)
        session_id = outcome.session.id
        await check(host, outcome.session)
        for choice in choices:
            clock.advance(choice / 7)
            session = await host.current(session_id)
            if session.status != "active":
                break
            to_act = host.to_act(session)
            player = to_act[choice % len(to_act)]
            if choice % 5 == 0 and (undoer := await host.undoer(session)) is not None:
                try:
                    moved = await host.undo(session_id, undoer)
                except UserError:
                    continue
            else:
                legal = host.legal_actions(session, player)
                moved = await host.act(session_id, player, legal[choice % len(legal)])
                # What the table is sent the moment the commit lands (bot.discord.table): the move's own session.
                assert upcoming[-1].committed is moved.session and _same_session(upcoming[-1].session, moved.session)
            await check(host, moved.session)
        session = await host.current(session_id)
        if session.status == "active" and ending == 1:
            await check(host, await host.abandon(channel, ALICE.id, can_manage=True))
        elif session.status == "active" and ending == 2:
            idle = host.to_act(session)
            clock.advance(1000 * HOUR)
            claimer = next((p for p in session.player_ids if p not in idle), None)
            if claimer is not None:
                await check(host, await host.claim(channel, claimer))
        return (await host.current(session_id)).status
    finally:
        await store.close()


@settings(max_examples=12, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(slug=st.sampled_from(sorted(GAMES)), choices=st.lists(st.integers(0, 10_000), max_size=60),
       ending=st.integers(0, 2))
def test_every_write_returns_the_session_a_read_gives(database_url, slug, choices, ending):
    asyncio.run(play(database_url, slug, choices, ending))


async def test_a_whole_game_to_its_end_returns_what_a_read_gives(database_url):
    """Played out: the finishing move writes the result, its end and the ratings too."""
    assert await play(database_url, "john-henry", [1] * 400, 0) == "finished"
