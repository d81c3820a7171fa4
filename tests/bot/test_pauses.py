"""Days-long games (issue 43): quiet hours in a player's zone hold his DMs and reminders and pause his clock."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import pytest

from bot.play.autoplay import Autoplay
from bot.play.away import away_notes, come_back, days_used, go_away
from bot.play.host import Host, UserError
from bot.play.pauses import Pace, PacingError, parse_quiet
from bot.runtime.shards import Shards
from bot.storage.store import Store
from tests.bot.conftest import ALICE, BOB
from tests.bot.waiting import HOUR, Outbox, start_game

CHANNEL = "900"
TOKYO = ZoneInfo("Asia/Tokyo")
pytestmark = pytest.mark.both_databases


def tokyo(day: int, hour: int, minute: int = 0) -> float:
    return dt.datetime(2026, 1, 5 + day, hour, minute, tzinfo=TOKYO).timestamp()


async def alice_sleeps_in_tokyo(store: Store) -> None:
    await store.pacing.set_player(ALICE.id, time_zone="Asia/Tokyo", quiet_from=23, quiet_to=7)
    await store.set_turn_dms(ALICE.id, True)


async def bob_moves_at(host: Host, clock, when: float) -> int:
    """Bob begins waited on, moves at `when`, and then the game waits on Alice."""
    clock.now = when - HOUR
    session_id = await start_game(host, "follow-the-arrow", CHANNEL, [ALICE, BOB], options={"first": BOB.id})
    clock.now = when
    session = await host.session(session_id)
    await host.act(session_id, BOB.id, host.legal_actions(session, BOB.id)[0])
    assert host.to_act(await host.session(session_id)) == [ALICE.id]
    return session_id


def test_quiet_hours_are_read_and_bounded():
    assert parse_quiet("22-08") == (22, 8)
    assert parse_quiet("23–7") == (23, 7)
    assert parse_quiet("off") is None
    with pytest.raises(PacingError, match="at most 12 hours"):
        parse_quiet("20-09")
    with pytest.raises(PacingError):
        parse_quiet("soon")


def test_a_clock_pauses_over_each_night():
    pace = Pace(time_zone="Asia/Tokyo", quiet=(23, 7))
    # 48 h of clock from 13:00: 10 h, then 16 h a day, then 6 h on the fourth day.
    assert pace.clock_runs_out(tokyo(0, 13), 48 * HOUR) == tokyo(3, 13)
    assert pace.held_until(tokyo(1, 2)) == tokyo(1, 7)
    assert pace.held_until(tokyo(1, 8)) is None


async def test_no_turn_dm_in_quiet_hours_and_it_comes_at_seven_his_time(host, store, clock):
    await alice_sleeps_in_tokyo(store)
    await bob_moves_at(host, clock, tokyo(0, 23, 30))
    outbox = Outbox()
    dispatcher = outbox.dispatcher(host)
    assert await dispatcher.dispatch_due() == 0
    assert outbox.notices == []
    assert await store.next_due() == tokyo(1, 7), "the notice waits for the end of his quiet hours"
    clock.now = tokyo(1, 6, 59)
    assert await dispatcher.dispatch_due() == 0
    clock.now = tokyo(1, 7)
    assert await dispatcher.dispatch_due() == 1
    assert [notice.player for notice in outbox.notices] == [ALICE.id]


async def test_a_reminder_due_at_night_pings_him_at_seven(host, store, clock):
    await alice_sleeps_in_tokyo(store)
    await bob_moves_at(host, clock, tokyo(0, 13))
    outbox = Outbox()
    dispatcher = outbox.dispatcher(host)
    await dispatcher.dispatch_due()  # the turn notice, in the afternoon
    clock.now = tokyo(1, 1)  # the 12 h reminder falls due at 01:00
    assert await dispatcher.dispatch_due() == 0
    assert outbox.reminded == []
    clock.now = tokyo(1, 7)
    assert await dispatcher.dispatch_due() == 1
    assert outbox.reminded == [ALICE.id]
    assert outbox.reminders[0].claim_in == tokyo(3, 13) - tokyo(1, 7), "the clock stood still over the night"


async def test_his_turn_clock_pauses_in_quiet_hours_and_survives_a_restart(database_url, clock):
    store = await Store.connect(database_url)
    host = Host(store, clock=clock)
    await alice_sleeps_in_tokyo(store)
    await bob_moves_at(host, clock, tokyo(0, 13))
    await store.close()

    restarted = Host(await Store.connect(database_url), clock=clock)
    clock.now = tokyo(2, 13, 0)  # 48 h of wall time: two nights of it were quiet
    with pytest.raises(UserError, match="You can claim in 24 h"):
        await restarted.claim(CHANNEL, BOB.id)
    clock.now = tokyo(3, 13)
    ended = await restarted.claim(CHANNEL, BOB.id)
    assert ended.end_reason == "timeout"
    await restarted.store.close()


async def test_an_away_player_cannot_be_claimed_and_a_move_ends_his_away(host, store, clock):
    session_id = await bob_moves_at(host, clock, tokyo(0, 13))
    await go_away(store, "1", ALICE.id, 3, "a wedding", clock())
    clock.advance(50 * HOUR)
    with pytest.raises(UserError, match=r"<@101> is away until <t:\d+:f>. Nobody can claim"):
        await host.claim(CHANNEL, BOB.id)
    session = await host.session(session_id)
    notes = await away_notes(store, session, clock())
    assert notes == [f"<@{ALICE.id}> is away until <t:{int(tokyo(0, 13) + 3 * 24 * HOUR)}:f>"], "no reason shown"
    outbox = Outbox()
    assert await outbox.dispatcher(host).dispatch_due() == 0, "no reminder while he is away"

    await host.act(session_id, ALICE.id, host.legal_actions(session, ALICE.id)[0])
    assert await away_notes(store, session, clock()) == [], "his move ended his away"
    assert await days_used(store, "1", ALICE.id, clock()) == 3, "the days begun count"


async def test_away_days_are_counted_against_the_servers_allowance(store, clock):
    await go_away(store, "1", ALICE.id, 10, None, clock())
    clock.advance(HOUR)
    assert await come_back(store, "1", ALICE.id, clock())
    assert await days_used(store, "1", ALICE.id, clock()) == 1
    with pytest.raises(UserError, match="allows 14 away days a year; you have 13 left"):
        await go_away(store, "1", ALICE.id, 14, None, clock())
    await store.pacing.set_away_days("1", 30)
    await go_away(store, "1", ALICE.id, 14, None, clock())
    assert not await come_back(store, "2", ALICE.id, clock()), "away on one server only"


async def test_an_away_day_is_used_for_him_when_his_clock_has_run_out(host, store, clock):
    await bob_moves_at(host, clock, tokyo(0, 13))
    await store.pacing.set_player(ALICE.id, auto_away=True)
    clock.advance(48 * HOUR)
    with pytest.raises(UserError, match=r"an away day was kept for this: <@101> is away until <t:\d+:f>"):
        await host.claim(CHANNEL, BOB.id)
    assert await days_used(store, "1", ALICE.id, clock()) == 1
    clock.advance(24 * HOUR)
    await store.pacing.set_away_days("1", 1)  # no day left: the claim goes through
    assert (await host.claim(CHANNEL, BOB.id)).end_reason == "timeout"


async def test_two_shard_processes_hold_and_send_once_and_autoplay_once(database_url, clock):
    """Two processes on one database, shards 0 and 1 of 2: guild 1 is shard 0's."""
    owner = Host(await Store.connect(database_url), clock=clock)
    other = Host(await Store.connect(database_url), clock=clock)
    await alice_sleeps_in_tokyo(owner.store)
    await bob_moves_at(owner, clock, tokyo(0, 23, 30))
    outboxes = [Outbox(), Outbox()]
    dispatchers = [outboxes[0].dispatcher(owner, shards=Shards(2, (0,))),
                   outboxes[1].dispatcher(other, shards=Shards(2, (1,)))]
    assert [await d.dispatch_due() for d in dispatchers] == [0, 0]
    clock.now = tokyo(1, 7)
    assert [await d.dispatch_due() for d in reversed(dispatchers)] == [0, 1]
    assert [len(outbox.notices) for outbox in outboxes] == [1, 0]

    john_henry = await start_game(owner, "john-henry", "950", [ALICE, BOB])
    session = await owner.session(john_henry)
    player = owner.to_act(session)[0]
    await owner.store.pacing.set_player(player, autoplay=True)
    played: list[str] = []

    async def post(outcome, who):
        played.append(who)

    autoplays = [Autoplay(owner, post, shards=Shards(2, (0,))), Autoplay(other, post, shards=Shards(2, (1,)))]
    await autoplays[1].schedule(session)  # written by either process: played by the owner of the shard
    clock.advance(120)
    assert [await autoplay.play_due() for autoplay in reversed(autoplays)] == [0, 1]
    assert played == [player]
    for host in (owner, other):
        await host.store.close()


async def test_back_early_his_held_reminder_comes_at_once(host, store, clock):
    await bob_moves_at(host, clock, tokyo(0, 13))
    outbox = Outbox()
    dispatcher = outbox.dispatcher(host)
    await go_away(store, "1", ALICE.id, 3, None, clock())
    clock.advance(12 * HOUR)
    assert await dispatcher.dispatch_due() == 0
    assert await store.next_due() == tokyo(0, 13) + 3 * 24 * HOUR, "held until the end of his away"
    clock.advance(HOUR)
    assert await come_back(store, "1", ALICE.id, clock())
    assert await dispatcher.dispatch_due() == 1
    assert outbox.reminded == [ALICE.id]
