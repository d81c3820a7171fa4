"""One user action, one commit: a crash after any commit of any action leaves a consistent game.

Each scenario prepares a database, then runs one action while counting the store's commits. Every
action must commit exactly once; and for every commit it makes, a run that "dies" right after that
commit (the rest of the action never runs, the store is reopened from its file by a fresh host) must
leave every game consistent and playable with no manual step: no full lobby that never began, every
running game's state equal to the replay of its log and waiting on someone, timers only for players
a running game waits on.
"""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable

import pytest

from bot.play.host import Host
from bot.storage.store import Store, TimerPlan
from games import get_game
from tests.bot.conftest import ALICE, BOB, CAROL, FakeClock
from tests.bot.test_follow_the_arrow_commands import placed
from tests.bot.waiting import HOUR, Outbox, start_game

CHANNEL = "900"


class Crash(BaseException):
    """The process dies: nothing after this point of the action runs."""


def count_commits(store: Store, crash_at: int | None = None) -> list[int]:
    """Count the store's commits from now on; raise Crash right after commit number `crash_at`."""
    commits = [0]
    original = store._db.transaction

    @contextlib.asynccontextmanager
    async def transaction():
        async with original():
            yield
        commits[0] += 1
        if commits[0] == crash_at:
            raise Crash

    store._db.transaction = transaction
    batch = getattr(store._db, "write_batch", None)
    if batch is not None:
        # A move's transaction may run as one batch (bot.storage.db_connection.write_batch): a commit all the same.
        async def write_batch(*args, **kwargs):
            results = await batch(*args, **kwargs)
            commits[0] += 1
            if commits[0] == crash_at:
                raise Crash
            return results

        store._db.write_batch = write_batch
    return commits


async def john_henry(host: Host) -> None:
    await start_game(host, "john-henry", CHANNEL, [ALICE, BOB])


async def arrow_game(host: Host) -> None:
    """Follow the Arrow waits on one player at a time: Alice first."""
    await start_game(host, "follow-the-arrow", CHANNEL, [ALICE, BOB], options={"first": ALICE.id})


async def johari_lobby(host: Host) -> None:
    await host.open_lobby(guild_id="1", channel_id=CHANNEL, slug="johari-bones", creator=ALICE)
    await host.join(CHANNEL, BOB)


async def finished_arrow_game(host: Host) -> None:
    session_id = await start_game(host, "follow-the-arrow", CHANNEL, [ALICE, BOB], options={"black": BOB.id})
    state = placed(black=BOB.id, red=ALICE.id).model_copy(
        update={"phase": "over", "turn": None, "winner": BOB.id, "points": 8})
    await host.store.update_session(await host.session(session_id), now=host.clock(), status="finished",
                                    end_reason="played out", state=state.model_dump_json(),
                                    result={"winners": [BOB.id], "scores": {}}, timers=TimerPlan())


async def first_legal_move(host: Host) -> None:
    session = await host.open_session(CHANNEL)
    player = host.to_act(session)[0]
    await host.act(session.id, player, host.legal_actions(session, player)[0])


async def claim_after_the_clock(host: Host) -> None:
    session = await host.open_session(CHANNEL)
    idle = host.to_act(session)
    host.clock.advance(100 * HOUR)
    await host.claim(CHANNEL, next(p for p in session.player_ids if p not in idle))


async def fire_a_reminder(host: Host) -> None:
    host.clock.advance(13 * HOUR)
    assert await Outbox().dispatcher(host).dispatch_due() == 1


async def nothing(host: Host) -> None:
    return None


Step = Callable[[Host], Awaitable[object]]
SCENARIOS: dict[str, tuple[Step, Step]] = {
    "open a lobby": (nothing, lambda h: h.open_lobby(guild_id="1", channel_id=CHANNEL, slug="john-henry",
                                                     creator=ALICE)),
    "join a lobby": (lambda h: h.open_lobby(guild_id="1", channel_id=CHANNEL, slug="johari-bones", creator=ALICE),
                     lambda h: h.join(CHANNEL, BOB)),
    "join and so begin a full lobby": (
        lambda h: h.open_lobby(guild_id="1", channel_id=CHANNEL, slug="john-henry", creator=ALICE),
        lambda h: h.join(CHANNEL, BOB)),
    "leave a lobby": (johari_lobby, lambda h: h.leave(CHANNEL, BOB.id)),
    "begin a lobby": (johari_lobby, lambda h: h.begin(CHANNEL, ALICE.id)),
    "move": (arrow_game, first_legal_move),
    "rematch": (finished_arrow_game, lambda h: h.rematch(CHANNEL, ALICE.id)),
    "abandon": (john_henry, lambda h: h.abandon(CHANNEL, CAROL.id, can_manage=True)),
    "move in a roll-off": (john_henry, first_legal_move),
    "claim": (arrow_game, claim_after_the_clock),
    "fire a reminder": (arrow_game, fire_a_reminder),
}


async def fresh_host(path) -> Host:
    seeds = iter(range(1, 1_000_000))
    return Host(await Store.open(path), clock=FakeClock(), seed_source=lambda: next(seeds))


async def assert_consistent(host: Host) -> None:
    """Every game is as a finished action leaves it; nothing needs a manual step to go on."""
    pending = await host.store.pending_timers()
    for session in await host.store.sessions_where("1 ORDER BY id"):
        game = get_game(session.slug)
        waited_on = set(host.to_act(session))
        if session.status == "lobby":
            assert len(session.players) < game.max_players, "a full lobby that never began"
            assert session.state is None
        if session.status == "active":
            assert (await host.replay(session.id)).model_dump_json() == session.state
        if session.status == "active":
            assert waited_on, "a running game waits on someone"
        stray = {t.player for t in pending if t.session_id == session.id} - waited_on
        assert not stray, f"timers for players session {session.id} does not wait on: {stray}"


@pytest.mark.parametrize("scenario", list(SCENARIOS))
async def test_every_action_commits_once_and_a_crash_after_it_leaves_a_consistent_game(tmp_path, scenario):
    prepare, action = SCENARIOS[scenario]
    host = await fresh_host(tmp_path / "counted.sqlite3")
    await prepare(host)
    commits = count_commits(host.store)
    await action(host)
    assert commits[0] == 1, f"{scenario} commits {commits[0]} times, not once"
    await host.store.close()

    for crash_at in range(1, commits[0] + 1):
        path = tmp_path / f"crash-{crash_at}.sqlite3"
        host = await fresh_host(path)
        await prepare(host)
        count_commits(host.store, crash_at)
        with pytest.raises(Crash):
            await action(host)
        await host.store.close()
        restarted = await fresh_host(path)
        try:
            await assert_consistent(restarted)
        finally:
            await restarted.store.close()
