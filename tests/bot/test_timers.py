"""The turn dispatcher on a real SQLite file or PostgreSQL and a fake clock: reminders, notices, restarts, the loop."""

from __future__ import annotations

import asyncio
import sqlite3

import pytest

from bot.play.host import Host
from bot.runtime.shards import Shards
from bot.storage.migrations import MIGRATIONS
from bot.storage.store import Store
from tests.bot.conftest import ALICE, BOB, CAROL
from tests.bot.waiting import HOUR, FakeWait, Outbox, play_until_over, start_game

CHANNEL = "900"
pytestmark = pytest.mark.both_databases


async def arrow_game(host: Host) -> tuple[int, str, str]:
    """A Follow the Arrow game (one player to act at a time, Alice first): its id, Alice and Bob."""
    session_id = await start_game(host, "follow-the-arrow", CHANNEL, [ALICE, BOB], options={"first": ALICE.id})
    assert host.to_act(await host.session(session_id)) == [ALICE.id]
    return session_id, ALICE.id, BOB.id


async def first_move(host: Host, session_id: int, player: str) -> None:
    session = await host.session(session_id)
    await host.act(session_id, player, host.legal_actions(session, player)[0])


async def test_a_reminder_fires_once_per_period(host, clock):
    session_id, first, _ = await arrow_game(host)
    outbox = Outbox()
    dispatcher = outbox.dispatcher(host)

    clock.advance(12 * HOUR - 1)
    assert await dispatcher.dispatch_due() == 0
    clock.advance(1)
    assert await dispatcher.dispatch_due() == 1
    assert await dispatcher.dispatch_due() == 0, "a fired reminder is not sent again"
    assert outbox.reminded == [first]
    assert outbox.reminders[0].session.id == session_id and outbox.reminders[0].waited == 12 * HOUR
    assert outbox.reminders[0].claim_in == 36 * HOUR

    clock.advance(12 * HOUR - 60)
    assert await dispatcher.dispatch_due() == 0
    clock.advance(60)
    assert await dispatcher.dispatch_due() == 1
    assert outbox.reminded == [first, first]
    assert outbox.reminders[1].waited == 24 * HOUR


async def test_no_reminder_after_the_player_acted(host, clock):
    session_id, first, other = await arrow_game(host)
    outbox = Outbox()
    dispatcher = outbox.dispatcher(host)
    clock.advance(6 * HOUR)
    await first_move(host, session_id, first)
    assert host.to_act(await host.session(session_id)) == [other]

    clock.advance(6 * HOUR)
    assert await dispatcher.dispatch_due() == 0, "the first player's reminder went with his move"
    clock.advance(6 * HOUR)
    assert await dispatcher.dispatch_due() == 1
    assert outbox.reminded == [other]


async def test_nothing_fires_for_a_finished_or_abandoned_game(host, clock):
    finished = await start_game(host, "john-henry", CHANNEL, [ALICE, BOB])
    await play_until_over(host, finished)
    await start_game(host, "follow-the-arrow", "901", [ALICE, CAROL])
    await host.abandon("901", ALICE.id, can_manage=False)
    assert await host.store.pending_timers() == []

    outbox = Outbox()
    clock.advance(100 * HOUR)
    assert await outbox.dispatcher(host).dispatch_due() == 0
    assert outbox.reminders == [] and outbox.notices == []


async def test_a_stale_timer_is_dropped_not_sent(host, store, clock):
    """Even a timer left behind (say, by an older version) never reminds a player not to act."""
    session_id, first, other = await arrow_game(host)
    await store._db.execute("INSERT INTO timers (session_id, kind, player, due_at) VALUES (?, 'reminder', ?, ?)",
                            (session_id, other, clock() + 1))
    outbox = Outbox()
    clock.advance(12 * HOUR)
    assert await outbox.dispatcher(host).dispatch_due() == 1
    assert outbox.reminded == [first]
    assert [timer.player for timer in await store.pending_timers()] == [first]


async def test_a_restart_between_due_time_and_dispatch_sends_it_exactly_once(database_url, clock):
    store = await Store.connect(database_url)
    host = Host(store, clock=clock)
    session_id, first, _ = await arrow_game(host)
    clock.advance(13 * HOUR)  # due, but the bot goes down before its dispatcher runs
    await store.close()

    outbox = Outbox()
    for _ in range(2):  # two restarts, each dispatching twice
        restarted = Host(await Store.connect(database_url), clock=clock)
        dispatcher = outbox.dispatcher(restarted)
        await dispatcher.dispatch_due()
        await dispatcher.dispatch_due()
        await restarted.store.close()
    assert outbox.reminded == [first]
    assert outbox.reminders[0].session.id == session_id

    clock.advance(11 * HOUR)
    again = Host(await Store.connect(database_url), clock=clock)
    assert await outbox.dispatcher(again).dispatch_due() == 1, "the next period's reminder survived the restarts"
    assert outbox.reminded == [first, first]
    await again.store.close()


async def test_two_dispatchers_on_one_database_send_once(database_url, clock):
    one = Host(await Store.connect(database_url), clock=clock)
    two = Host(await Store.connect(database_url), clock=clock)
    await arrow_game(one)
    clock.advance(12 * HOUR)
    outbox = Outbox()
    sent = await asyncio.gather(outbox.dispatcher(one).dispatch_due(), outbox.dispatcher(two).dispatch_due())
    assert sorted(sent) == [0, 1]
    assert len(outbox.reminders) == 1
    await one.store.close()
    await two.store.close()


async def test_downtime_sends_one_reminder_not_a_burst(host, store, clock):
    await arrow_game(host)
    outbox = Outbox()
    dispatcher = outbox.dispatcher(host)
    clock.advance(100 * HOUR)
    assert await dispatcher.dispatch_due() == 1
    assert await dispatcher.dispatch_due() == 0
    (pending,) = await store.pending_timers()
    assert pending.due_at == clock() - 100 * HOUR + 108 * HOUR, "back on the 12-hour schedule"
    assert outbox.reminders[0].claim_in == 0, "past the turn clock, the reminder says the others may claim"


async def test_a_player_who_opted_in_gets_a_notice_when_his_turn_comes(host, clock):
    await host.set_turn_dms(BOB.id, True)
    await host.set_turn_dms(ALICE.id, True)
    await host.set_turn_dms(ALICE.id, False)
    session_id = await start_game(host, "follow-the-arrow", CHANNEL, [ALICE, BOB], options={"first": BOB.id})
    outbox = Outbox()
    dispatcher = outbox.dispatcher(host)
    await dispatcher.dispatch_due()
    assert outbox.notices == [], "Bob's turn came when he joined (and so began the game): he is here"

    await first_move(host, session_id, BOB.id)
    await dispatcher.dispatch_due()
    assert outbox.notices == [], "Alice switched her notices off again"

    await first_move(host, session_id, ALICE.id)
    await dispatcher.dispatch_due()
    assert [(n.player, n.session.id) for n in outbox.notices] == [(BOB.id, session_id)]
    assert await dispatcher.dispatch_due() == 0, "a notice is sent once"


async def test_the_game_starting_is_a_turn_notice_for_the_others(host):
    await host.set_turn_dms(ALICE.id, True)
    await start_game(host, "follow-the-arrow", CHANNEL, [ALICE, BOB], options={"first": ALICE.id})
    outbox = Outbox()
    await outbox.dispatcher(host).dispatch_due()
    assert [n.player for n in outbox.notices] == [ALICE.id]


async def test_a_waiting_player_keeps_his_reminder_while_another_acts(host, clock):
    """John Henry opens with a roll-off: both to act. Alice rolls; Bob's wait and reminder stand."""
    session_id = await start_game(host, "john-henry", CHANNEL, [ALICE, BOB])
    outbox = Outbox()
    dispatcher = outbox.dispatcher(host)
    clock.advance(6 * HOUR)
    await host.act(session_id, ALICE.id, {"type": "roll"})
    session = await host.session(session_id)
    assert host.to_act(session) == [BOB.id], "with these seeds Alice's roll stands; Bob still has to roll"
    assert session.waiting_since == {BOB.id: clock() - 6 * HOUR}
    clock.advance(6 * HOUR)
    assert await dispatcher.dispatch_due() == 1
    assert outbox.reminded == [BOB.id]


async def test_a_failed_send_is_not_retried_and_does_not_stop_the_others(host, clock):
    await arrow_game(host)
    await start_game(host, "follow-the-arrow", "901", [CAROL, BOB])
    sent = []

    async def flaky(reminder):
        if reminder.session.channel_id == CHANNEL:
            raise RuntimeError("Discord is down")
        sent.append(reminder)

    outbox = Outbox()
    dispatcher = outbox.dispatcher(host)
    dispatcher._send_reminder = flaky
    clock.advance(12 * HOUR)
    assert await dispatcher.dispatch_due() == 2
    assert [r.session.channel_id for r in sent] == ["901"]
    assert await dispatcher.dispatch_due() == 0


async def test_the_loop_sleeps_until_the_earliest_timer_and_wakes_for_a_sooner_one(host, clock):
    session_id, first, other = await arrow_game(host)
    await host.set_turn_dms(other, True)
    outbox = Outbox()
    wait = FakeWait(clock, horizon=12 * HOUR)
    dispatcher = outbox.dispatcher(host, wait=wait)
    host.timers_added = dispatcher.wake
    dispatcher.start()
    try:
        await wait.until(2)
        assert wait.timeouts[0] == 12 * HOUR, "it slept exactly until the reminder was due"
        assert outbox.reminded == [first]
        assert wait.timeouts[1] == 12 * HOUR, "then until the next one; past the horizon it waits to be woken"

        await first_move(host, session_id, first)  # the other player's notice is due now: wake up
        await wait.until(3)
        assert [n.player for n in outbox.notices] == [other]
        assert wait.timeouts[2] == 12 * HOUR, "then asleep until the other player's first reminder"
    finally:
        await dispatcher.stop()


async def test_a_later_timer_does_not_wake_the_loop(host, clock):
    await arrow_game(host)
    wait = FakeWait(clock, horizon=0)
    dispatcher = Outbox().dispatcher(host, wait=wait)
    dispatcher.start()
    try:
        await wait.until(1)
        assert wait.timeouts == [12 * HOUR]
        dispatcher.wake(clock() + 13 * HOUR)
        assert not dispatcher._wakeup.is_set(), "it sleeps until 12 h anyway"
        dispatcher.wake(clock() + HOUR)
        assert dispatcher._wakeup.is_set()
        await wait.until(2)
        assert wait.timeouts[1] == 12 * HOUR, "woken, it found nothing new and went back to sleep"
    finally:
        await dispatcher.stop()


async def test_a_database_from_before_timers_is_brought_up_to_date(tmp_path, clock):
    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as old:
        old.executescript(MIGRATIONS[0] + "; PRAGMA user_version = 1;")
        old.execute("INSERT INTO sessions (guild_id, channel_id, slug, status, creator, players, version, created_at,"
                    " updated_at) VALUES ('1', '900', 'john-henry', 'lobby', '101', '[]', 0, 1.0, 1.0)")
    store = await Store.open(path)
    assert await store.schema_version() == len(MIGRATIONS)
    session = await store.session(1)
    assert session.status == "lobby" and session.waiting_since is None
    assert await store.pending_timers() == [] and await store.turn_dm_users(["101"]) == set()
    await store.close()


def guild_on_shard(shard_id: int, shard_count: int = 2, base: int = 1_574_115_793_170_333_710) -> str:
    """A Discord-shaped guild id whose events Discord sends to `shard_id`."""
    for offset in range(shard_count):
        candidate = base + (offset << 22)
        if (candidate >> 22) % shard_count == shard_id:
            return str(candidate)
    raise AssertionError("unreachable")


async def test_each_process_sends_only_the_reminders_of_its_own_shards(host, clock):
    east, west = guild_on_shard(0), guild_on_shard(1)
    await start_game(host, "follow-the-arrow", "910", [ALICE, BOB], guild=east, options={"first": ALICE.id})
    await start_game(host, "follow-the-arrow", "911", [CAROL, BOB], guild=west, options={"first": CAROL.id})
    clock.advance(12 * HOUR)
    first_shard, second_shard = Outbox(), Outbox()
    one = first_shard.dispatcher(host, shards=Shards(2, (0,)))
    two = second_shard.dispatcher(host, shards=Shards(2, (1,)))

    assert await host.store.next_due(Shards(2, (0,))) == clock()
    assert await one.dispatch_due() == 1
    assert [r.session.guild_id for r in first_shard.reminders] == [east]
    assert await host.store.next_due(Shards(2, (0,))) == clock() + 12 * HOUR, "only its own next reminder"
    assert await host.store.next_due(Shards(2, (1,))) == clock(), "the other shard's is still due"

    clock.advance(HOUR)  # the shard-1 process was down; its replacement starts and sends what is due
    assert await two.dispatch_due() == 1
    assert [(r.session.guild_id, r.player) for r in second_shard.reminders] == [(west, CAROL.id)]
    assert await one.dispatch_due() == 0 and await two.dispatch_due() == 0, "each reminder once"
    assert len(first_shard.reminders) == 1


async def test_a_notify_choice_made_in_another_process_applies_from_the_next_move(host, store, clock):
    """Whether a player gets a turn notice is decided inside the move's own transaction (bot.play.turn_clock), so a
    choice made through another process counts at once, however recently this one saw the player."""
    session_id = await start_game(host, "follow-the-arrow", CHANNEL, [ALICE, BOB], options={"first": BOB.id})
    outbox = Outbox()
    dispatcher = outbox.dispatcher(host)
    await first_move(host, session_id, BOB.id)
    await first_move(host, session_id, ALICE.id)
    other_process = Host(store, clock=clock)
    await other_process.set_turn_dms(ALICE.id, True)

    await first_move(host, session_id, BOB.id)
    await dispatcher.dispatch_due()
    assert [n.player for n in outbox.notices] == [ALICE.id]

    await other_process.set_turn_dms(ALICE.id, False)
    await first_move(host, session_id, ALICE.id)
    await first_move(host, session_id, BOB.id)
    await dispatcher.dispatch_due()
    assert [n.player for n in outbox.notices] == [ALICE.id], "switched off elsewhere: no second notice"


async def test_a_move_reads_nothing_before_its_commit_to_decide_a_notice(host, store, monkeypatch):
    """The /notify choice is not looked up before the move (a read, then the write): the write decides."""
    session_id, first, other = await arrow_game(host)
    await host.set_turn_dms(other, True)

    async def no_read(user_ids):
        raise AssertionError("a move read the players' /notify choices before its commit")

    monkeypatch.setattr(store, "turn_dm_users", no_read)
    await first_move(host, session_id, first)
    assert [(t.kind, t.player) for t in await store.pending_timers()] == [("notice", other), ("reminder", other)]


async def test_the_dispatcher_wakes_for_a_notice_only_when_one_was_written(host, clock):
    """A notice nobody asked for is not written, and nothing wakes for it: the earliest timer written is
    then the next player's reminder."""
    session_id, first, other = await arrow_game(host)
    woken: list[float] = []
    host.timers_added = woken.append
    await first_move(host, session_id, first)
    assert woken == [clock() + 12 * HOUR], "Bob asked for no notices: only his reminder"

    await host.set_turn_dms(first, True)
    await first_move(host, session_id, other)
    assert woken[1:] == [clock()], "Alice's notice is due at once"
