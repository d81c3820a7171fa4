"""The turn clock: waits, reminder schedule, durations, and `/game claim` through the host."""

from __future__ import annotations

import pytest

from bot.play.host import UserError
from bot.play.turn_clock import Periods, format_duration, next_reminder, plan_wait
from bot.presentation.words import waiting_line
from games import get_game
from games.record import timeout_result
from tests.bot.conftest import ALICE, BOB, CAROL
from tests.bot.waiting import HOUR, Outbox, start_game

CHANNEL = "900"
pytestmark = pytest.mark.both_databases  # server periods, claims and timeouts on both databases
PERIODS = Periods(reminder_hours=12, turn_clock_hours=48)


@pytest.mark.parametrize(("seconds", "round_up", "text"), [
    (3 * HOUR + 20 * 60, False, "3 h 20 min"),
    (3 * HOUR + 19 * 60 + 1, True, "3 h 20 min"),
    (3 * HOUR + 20 * 60 + 59, False, "3 h 20 min"),
    (2 * HOUR, False, "2 h"),
    (45 * 60, False, "45 min"),
    (20, False, "less than a minute"),
    (20, True, "1 min"),
    (47 * HOUR + 59 * 60, False, "47 h 59 min"),
    (50 * HOUR + 30 * 60, False, "2 d 2 h"),
    (50 * HOUR + 30 * 60, True, "2 d 3 h"),
    (72 * HOUR, False, "3 d"),
])
def test_format_duration(seconds, round_up, text):
    assert format_duration(seconds, round_up=round_up) == text


def test_a_new_wait_gets_a_reminder_and_a_notice_the_store_writes_if_wanted():
    plan = plan_wait(None, ["b"], actor="a", now=100.0, periods=PERIODS)
    assert plan.waiting_since == {"b": 100.0}
    assert plan.timers.keep == []
    assert [(t.kind, t.player, t.due_at) for t in plan.timers.add] == [
        ("reminder", "b", 100.0 + 12 * HOUR), ("notice", "b", 100.0)]


def test_a_continuing_wait_keeps_its_start_and_timers_but_the_actor_starts_over():
    plan = plan_wait({"a": 10.0, "b": 20.0}, ["a", "b"], actor="a", now=100.0, periods=PERIODS)
    assert plan.waiting_since == {"a": 100.0, "b": 20.0}
    assert plan.timers.keep == ["b"]
    assert [(t.kind, t.player) for t in plan.timers.add] == [("reminder", "a")], "no notice: Alice just acted"


def test_nobody_to_act_means_no_wait():
    plan = plan_wait({"a": 10.0}, [], actor="a", now=100.0, periods=PERIODS)
    assert plan.waiting_since is None and plan.timers.keep == [] and plan.timers.add == []


def test_next_reminder_stays_on_schedule():
    assert next_reminder(1000.0, 1000.0, PERIODS) == 1000.0 + 12 * HOUR
    assert next_reminder(1000.0, 1000.0 + 30 * HOUR, PERIODS) == 1000.0 + 36 * HOUR


def test_timeout_result_shares_the_win_among_the_others():
    result = timeout_result(["a", "b", "c"], ["b"])
    assert result == {"winners": ["a", "c"], "scores": {"a": 1, "b": 0, "c": 1}, "idle": ["b"]}


async def test_a_claim_before_the_clock_runs_out_is_refused_with_the_time_left(host, clock):
    await start_game(host, "follow-the-arrow", CHANNEL, [ALICE, BOB], options={"first": ALICE.id})
    clock.advance(44 * HOUR + 40 * 60)
    with pytest.raises(UserError, match="You can claim in 3 h 20 min"):
        await host.claim(CHANNEL, BOB.id)
    clock.advance(3 * HOUR + 19 * 60 + 30)
    with pytest.raises(UserError, match="You can claim in 1 min"):
        await host.claim(CHANNEL, BOB.id)
    session = await host.open_session(CHANNEL)
    assert session.status == "active"


async def test_a_claim_after_the_clock_ends_the_game_as_a_win_for_the_claimer(host, store, clock):
    session_id = await start_game(host, "follow-the-arrow", CHANNEL, [ALICE, BOB], options={"first": ALICE.id})
    clock.advance(48 * HOUR)
    with pytest.raises(UserError, match="waiting on you"):
        await host.claim(CHANNEL, ALICE.id)
    with pytest.raises(UserError, match="Only the game's players"):
        await host.claim(CHANNEL, CAROL.id)
    session = await host.claim(CHANNEL, BOB.id)
    assert session.status == "finished" and session.end_reason == "timeout"
    assert session.result["winners"] == [BOB.id] and session.result["idle"] == [ALICE.id]
    assert session.waiting_since is None
    assert await store.pending_timers() == []
    with pytest.raises(UserError, match="is over"):
        await host.act(session_id, ALICE.id, {"type": "place", "order": [1, 2, 3, 4, 5]})
    replayed = await host.replay(session_id)
    assert replayed.model_dump_json() == session.state, "the claim is not a move: the log still replays"


async def test_a_move_restarts_the_clock(host, clock):
    session_id = await start_game(host, "follow-the-arrow", CHANNEL, [ALICE, BOB], options={"first": ALICE.id})
    clock.advance(47 * HOUR)
    await host.act(session_id, ALICE.id, {"type": "place", "order": [1, 2, 3, 4, 5]})
    clock.advance(47 * HOUR)
    with pytest.raises(UserError, match="waiting on you"):
        await host.claim(CHANNEL, BOB.id)
    with pytest.raises(UserError, match="You can claim in 1 h"):
        await host.claim(CHANNEL, ALICE.id)


async def test_nothing_to_claim_in_a_lobby_or_a_finished_game(host, clock):
    await host.open_lobby(guild_id="1", channel_id=CHANNEL, slug="johari-bones", creator=ALICE)
    clock.advance(100 * HOUR)
    with pytest.raises(UserError, match="not begun"):
        await host.claim(CHANNEL, ALICE.id)
    with pytest.raises(UserError, match="no game in this channel"):
        await host.claim("901", ALICE.id)


async def test_johari_bones_claim_makes_the_active_players_share_the_win(host, clock):
    await start_game(host, "johari-bones", CHANNEL, [ALICE, BOB, CAROL])
    idle = host.to_act(await host.open_session(CHANNEL))
    assert len(idle) == 1
    claimer = next(p for p in (ALICE.id, BOB.id, CAROL.id) if p not in idle)
    clock.advance(48 * HOUR)
    session = await host.claim(CHANNEL, claimer)
    assert session.result["idle"] == idle
    assert sorted(session.result["winners"]) == sorted(p for p in session.player_ids if p not in idle)


async def test_a_servers_own_periods_apply_to_the_next_wait(host, store, clock):
    periods = await host.set_periods("1", reminder_hours=2)
    assert periods == Periods(reminder_hours=2, turn_clock_hours=48)
    assert await host.set_periods("1", turn_clock_hours=6) == Periods(reminder_hours=2, turn_clock_hours=6)
    assert await host.periods_for("2") == Periods(), "another server keeps the defaults"

    await start_game(host, "follow-the-arrow", CHANNEL, [ALICE, BOB], options={"first": ALICE.id})
    (timer,) = await store.pending_timers()
    assert timer.due_at == clock() + 2 * HOUR
    outbox = Outbox()
    clock.advance(2 * HOUR)
    await outbox.dispatcher(host).dispatch_due()
    assert outbox.reminders[0].claim_in == 4 * HOUR
    clock.advance(4 * HOUR)
    assert (await host.claim(CHANNEL, BOB.id)).end_reason == "timeout"


async def test_status_says_how_long_the_game_has_waited(host, clock):
    await start_game(host, "follow-the-arrow", CHANNEL, [ALICE, BOB], options={"first": ALICE.id})
    clock.advance(3 * HOUR + 5 * 60)
    session = await host.open_session(CHANNEL)
    view = get_game(session.slug).view(host.state_of(session), None)
    assert waiting_line(session, view, clock()) == f"⏳ Waiting on <@{ALICE.id}> for 3 h 5 min."
    await host.abandon(CHANNEL, ALICE.id, can_manage=False)
    abandoned = await host.last_session_in(CHANNEL)
    assert waiting_line(abandoned, view, clock()) is None
