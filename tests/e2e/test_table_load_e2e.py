"""The table under load and trouble: many moves at once, a locked database, a crash before the table.

The fake Discord refuses any first response later than 3 s after the interaction was sent (by its
`world.clock`), as Discord does, so "acknowledged" here means acknowledged in time.
"""

from __future__ import annotations

import asyncio
import io
import random
import sqlite3
from collections.abc import Awaitable, Callable

import discord.http
from PIL import Image

from bot.client import ParlorBot
from bot.discord import table as table_module
from bot.discord import table_request
from bot.discord.actions import TABLE_BEHIND
from bot.runtime.gate import Gate
from bot.storage.store import Seat
from tests.bot.test_foresight import settle
from tests.conftest import start_bot
from tests.e2e.helpers import game_number, player_to_act, table, tables
from tests.e2e.random_play import RandomPlay
from tests.fakediscord import FakeDiscord
from tests.fakediscord.interactions import InteractionResult
from tests.fakediscord.state import FakeChannel, FakeUser

GAMES_AT_ONCE = 150


class VirtualClock:
    """The fake Discord's clock, moved by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def seated_game(bot: ParlorBot, channel: FakeChannel, alice: FakeUser, bob: FakeUser) -> int:
    """A John Henry game begun in `channel` (through the host, to keep the test short) with its table shown."""
    seats = [Seat(id=str(user.id), name=user.name) for user in (alice, bob)]
    await bot.host.open_lobby(guild_id=str(channel.guild_id), channel_id=str(channel.id),
                              slug="john-henry", creator=seats[0])
    _, began = await bot.host.join(str(channel.id), seats[1])
    assert began is not None
    await bot.tables.show(began.session.id)
    return began.session.id


async def assert_table_shows_the_game(fake: FakeDiscord, bot: ParlorBot, channel: FakeChannel) -> None:
    session = await bot.host.last_session_in(str(channel.id))
    shown = tables(fake, channel)
    assert [game_number(m) for m in shown] == [session.id], "one table for the game"
    assert shown[0].embed["footer"]["text"].endswith(f"update {session.version}"), "the table shows every move"


async def restart_and_expect_one_table_up_to_date(fake: FakeDiscord, database: str, channel: FakeChannel) -> None:
    """Start the bot again on `database`: its start-up must leave the channel one table, showing the last move."""
    bot, _ = await start_bot(fake, database)
    try:
        session = await bot.host.last_session_in(str(channel.id))

        def healed() -> bool:
            shown = tables(fake, channel)
            return len(shown) == 1 and shown[0].embed["footer"]["text"].endswith(f"update {session.version}")

        await fake.wait_for(healed, what="one table, up to date, after the restart")
        await assert_table_shows_the_game(fake, bot, channel)
    finally:
        await bot.close()
    fake.assert_no_unknown_routes()


async def test_150_moves_at_once_are_all_acknowledged_in_time_and_shown(fake_discord: FakeDiscord,
                                                                      parlor: ParlorBot):
    fake = fake_discord
    fake.deferred_timeout = 120.0
    alice, bob = fake.create_user("alice"), fake.create_user("bob")
    channels = [fake.create_channel(f"load-{n}") for n in range(GAMES_AT_ONCE)]
    for channel in channels:
        await seated_game(parlor, channel, alice, bob)

    results = await asyncio.gather(*(fake.slash(alice, "roll", channel=channel) for channel in channels))

    assert all(result.acknowledged and not result.late for result in results)
    assert not [r for r in results if r.ephemeral], "no move was refused or apologised for"
    for channel in channels:
        await assert_table_shows_the_game(fake, parlor, channel)
        session = await parlor.host.last_session_in(str(channel.id))
        assert session.version == 2 and str(alice.id) not in session.waiting_since, "alice rolled"


async def test_a_burst_of_moves_is_acknowledged_first_and_worked_a_few_at_a_time(fake_discord: FakeDiscord,
                                                                                  parlor: ParlorBot, monkeypatch):
    """Moves arriving while others are on their way are acknowledged at once and wait their turn (bot.runtime.gate): no
    more than the gate's turns are being worked at any moment, and all are shown."""
    fake = fake_discord
    fake.deferred_timeout = 60.0
    parlor.gate = Gate(working_at_once=2)
    alice, bob = fake.create_user("alice"), fake.create_user("bob")
    channels = [fake.create_channel(f"turns-{n}") for n in range(12)]
    for channel in channels:
        await seated_game(parlor, channel, alice, bob)
    act, send, working, most = parlor.host.act, table_request.sent, 0, 0

    async def moving(*args, **kwargs):
        nonlocal working, most
        working += 1  # a move worked, until its table goes out
        most = max(most, working)
        return await act(*args, **kwargs)

    def sending(*args, **kwargs):
        nonlocal working
        working -= 1
        return send(*args, **kwargs)

    monkeypatch.setattr(parlor.host, "act", moving)
    monkeypatch.setattr(table_request, "sent", sending)
    results = await asyncio.gather(*(fake.slash(alice, "roll", channel=channel) for channel in channels))
    assert most <= 2, f"{most} moves were worked at once"
    assert sum(1 for result in results if result.deferred) >= len(channels) - 1, "acknowledged before their turn"
    assert all(result.acknowledged and not result.late for result in results)
    assert not [r for r in results if r.ephemeral], "no move was refused or apologised for"
    for channel in channels:
        await assert_table_shows_the_game(fake, parlor, channel)


async def test_moves_while_another_connection_holds_the_write_lock(fake_discord: FakeDiscord, tmp_path):
    fake = fake_discord
    fake.world.clock = clock = VirtualClock()
    fake.deferred_timeout = 30.0
    database = tmp_path / "parlor.sqlite3"
    bot, _ = await start_bot(fake, str(database))
    try:
        alice, bob = fake.create_user("alice"), fake.create_user("bob")
        channels = [fake.create_channel(f"locked-{n}") for n in range(5)]
        for channel in channels:
            await seated_game(bot, channel, alice, bob)
        before = len(fake.interactions.by_id)

        blocker = sqlite3.connect(database, isolation_level=None, timeout=1)
        blocker.execute("BEGIN IMMEDIATE")
        moves = [asyncio.create_task(fake.slash(alice, "roll", channel=channel)) for channel in channels]

        def sent() -> list[InteractionResult]:
            return list(fake.interactions.by_id.values())[before:]

        await fake.wait_for(lambda: len(sent()) == len(channels) and all(r.acknowledged for r in sent()),
                            what="every move to be acknowledged while the database is locked")
        assert all(r.thinking for r in sent()), "acknowledged, and still waiting for the database"
        clock.now += 4.0  # the lock has been held 4 s: an answer only now would have been too late
        blocker.execute("ROLLBACK")
        blocker.close()

        results = await asyncio.gather(*moves)
        assert not [r for r in results if r.late or r.ephemeral]
        for channel in channels:
            await assert_table_shows_the_game(fake, bot, channel)
    finally:
        await bot.close()


async def test_a_crash_between_the_commit_and_the_table_is_healed_at_start_up(fake_discord: FakeDiscord, tmp_path):
    fake = fake_discord
    database = str(tmp_path / "parlor.sqlite3")
    first, _ = await start_bot(fake, database)
    alice, bob = fake.create_user("alice"), fake.create_user("bob")
    channel = fake.channel("games")
    try:
        await seated_game(first, channel, alice, bob)

        async def crash(*args, **kwargs) -> None:
            raise ConnectionResetError("the process died before Discord heard of the move")

        first.tables._put = crash  # type: ignore[method-assign]  # as the commit lands, or later
        rolled = await fake.slash(alice, "roll", channel=channel)
        assert "Your move is saved" in rolled.response.content
        session = await first.host.last_session_in(str(channel.id))
        [table] = tables(fake, channel)
        assert table.embed["footer"]["text"].endswith(f"update {session.version - 1}"), "the table is behind"
    finally:
        await first.close()

    await restart_and_expect_one_table_up_to_date(fake, database, channel)


async def test_a_table_posted_but_not_recorded_before_a_crash_is_retired_at_start_up(fake_discord: FakeDiscord,
                                                                                  tmp_path):
    fake = fake_discord
    database = str(tmp_path / "parlor.sqlite3")
    first, _ = await start_bot(fake, database)
    alice, bob = fake.create_user("alice"), fake.create_user("bob")
    channel = fake.channel("games")
    try:
        await seated_game(first, channel, alice, bob)

        async def crash(*args, **kwargs) -> None:
            raise ConnectionResetError("the process died between posting the new table and recording it")

        first.host.store.save_table = crash  # type: ignore[method-assign]
        await fake.slash(alice, "roll", channel=channel)
        assert len(tables(fake, channel)) == 2, "the new table was posted, the old one not yet retired"
    finally:
        await first.close()

    await restart_and_expect_one_table_up_to_date(fake, database, channel)


async def test_new_game_on_a_finished_table_opens_a_lobby_and_spends_the_old_buttons(fake_discord: FakeDiscord,
                                                                                    parlor: ParlorBot):
    fake = fake_discord
    alice, bob, carol = fake.create_user("alice"), fake.create_user("bob"), fake.create_user("carol")
    channel = fake.channel("games")
    session_id = await seated_game(parlor, channel, alice, bob)
    session = await parlor.host.session(session_id)
    await parlor.host.store.update_session(session, now=parlor.host.clock(), status="finished",
                                           end_reason="played out", result={"winners": [str(bob.id)]})
    parlor.host.sessions.forget(session_id)
    await parlor.tables.show(session_id)
    [final] = tables(fake, channel)
    assert [b["label"] for b in final.buttons()] == ["Rematch", "New game", "Replay"] and final.pinged == []

    opened = await fake.click(carol, final, final.button(label="New game")["custom_id"])
    assert not opened.ephemeral
    lobby = await parlor.host.last_session_in(str(channel.id))
    assert lobby.status == "lobby" and lobby.slug == "john-henry" and lobby.player_ids == [str(carol.id)]
    assert final.buttons() == [], "the finished table's Rematch and New game are spent"
    assert game_number(tables(fake, channel)[-1]) == lobby.id


async def test_a_table_deleted_by_someone_else_is_posted_again_when_it_would_be_edited(fake_discord: FakeDiscord,
                                                                                       parlor: ParlorBot):
    """A moderator deleted the table: the next update, an edit in place (same players to act), finds it gone
    and posts a new table instead, pinging nobody it pinged before."""
    fake = fake_discord
    alice, bob = fake.create_user("alice"), fake.create_user("bob")
    channel = fake.create_channel("deleted-table")
    session_id = await seated_game(parlor, channel, alice, bob)
    [deleted] = tables(fake, channel)
    deleted.deleted = True  # as Discord does when a moderator deletes it
    session = await parlor.host.session(session_id)
    await parlor.host.store.update_session(session, now=parlor.host.clock() + 1, waiting_since=session.waiting_since)
    parlor.host.sessions.forget(session_id)
    await parlor.tables.show(session_id)
    [posted] = tables(fake, channel)
    assert posted.id != deleted.id and posted.pinged == [], "posted anew, pinging nobody again"
    assert posted.embed["footer"]["text"].endswith(f"update {session.version + 1}")


async def test_a_table_rate_limited_by_discord_is_sent_again_whole_and_shows_the_move_once(fake_discord: FakeDiscord,
                                                                                         parlor: ParlorBot):
    """Discord answers 429 when a route's bucket is spent (a busy channel's table is changed often), and
    discord.py sends the request again. A table's request is built whole before it is sent
    (bot.discord.table_request): sent again, it still shows the game once, picture and all, whether the table is
    posted anew (a move that asks someone else to act) or edited in place (the same players to act)."""
    fake = fake_discord
    alice, bob = fake.create_user("alice"), fake.create_user("bob")
    channel = fake.create_channel("rate-limited")
    session_id = await seated_game(parlor, channel, alice, bob)

    async def limited_once(method: str, path: str, change: Callable[[], Awaitable[object]]) -> None:
        fake.rate_limit(method, path)
        errors_before = len(fake.http_errors)
        await change()
        await parlor.tables.show(session_id)  # the change's own table is on its way: wait for it
        session = await parlor.host.current(session_id)
        [shown] = tables(fake, channel)
        assert shown.embed["footer"]["text"].endswith(f"update {session.version}"), "the table shows the game"
        Image.open(io.BytesIO(shown.attachments[0].data)).verify()  # the whole picture, sent again
        assert [(m, status) for m, _, status, _ in fake.http_errors[errors_before:]] == [(method, 429)]
        assert fake.world.refusals == [], "the table's own request was the one refused"

    shown = table(fake, channel)
    roll = shown.button(label="Roll")["custom_id"]
    await limited_once("POST", rf"/channels/{channel.id}/messages",
                       lambda: fake.click(player_to_act(shown, [alice, bob]), shown, roll))

    async def same_players_to_act() -> None:
        session = await parlor.host.session(session_id)
        await parlor.host.store.update_session(session, now=parlor.host.clock() + 1,
                                               waiting_since=session.waiting_since)
        parlor.host.sessions.forget(session_id)

    await limited_once("PATCH", rf"/channels/{channel.id}/messages/\d+", same_players_to_act)


async def test_moves_made_while_discord_holds_the_tables_request_are_shown_by_one_more_update(
        fake_discord: FakeDiscord, parlor: ParlorBot, monkeypatch):
    """Discord slow to answer a table's request (or a rate limit waited out): the moves made meanwhile all
    commit and are answered, and once Discord answers, one more update shows the latest of them, not one
    update per move."""
    monkeypatch.setattr("bot.discord.actions.ACK_WITHIN", 0.0)  # answered with "thinking…" at once, not after 1 s
    fake = fake_discord
    alice, bob = fake.create_user("alice"), fake.create_user("bob")
    channel = fake.create_channel("slow-discord")
    session_id = await seated_game(parlor, channel, alice, bob)
    committed: asyncio.Queue[int] = asyncio.Queue()
    told = parlor.host.changed
    monkeypatch.setattr(parlor.host, "changed", lambda session: (told(session), committed.put_nowait(session.version)))
    table_calls = rf"/channels/{channel.id}/messages(/\d+)?"
    answer = fake.hold("POST", table_calls)
    fake.hold("PATCH", table_calls).set()  # an edit would not wait: only the first table's request does
    already = len(fake.world.requests)
    rolls = []
    for _ in range(3):
        session = await parlor.host.current(session_id)
        roller = alice if str(alice.id) in parlor.host.to_act(session) else bob
        rolls.append(asyncio.create_task(fake.slash(roller, "roll", channel=channel)))
        while await asyncio.wait_for(committed.get(), timeout=10) <= session.version:
            pass
    assert (await parlor.host.current(session_id)).version == session.version + 1 == 4, "every move committed"
    answer.set()
    for result in await asyncio.gather(*rolls):
        assert not result.late and not result.thinking and not result.ephemeral
    await parlor.tables.show(session_id)
    [shown] = tables(fake, channel)
    assert shown.embed["footer"]["text"].endswith("update 4"), "the table shows the last move"
    updates = [(method, path) for method, path, _ in fake.world.requests[already:]
               if method in ("POST", "PATCH") and path.startswith(f"/api/v10/channels/{channel.id}/messages")]
    assert len(updates) == 2, f"the held table, then one update for the moves made meanwhile: {updates}"


async def test_a_table_discord_failed_to_show_catches_up_by_itself(fake_discord: FakeDiscord, parlor: ParlorBot):
    """Discord unavailable for a moment (503) as a move's table goes out, three times: the move stands, and
    the table catches up by itself (`Tables.retries`, here without waiting), as the mover is told, with
    nobody touching the game again; one table, showing the move."""
    fake = fake_discord
    parlor.tables.retries.delays = (0.0, 0.0, 0.0)
    alice, bob = fake.create_user("alice"), fake.create_user("bob")
    channel = fake.create_channel("discord-hiccup")
    session_id = await seated_game(parlor, channel, alice, bob)
    fake.unavailable("POST", rf"/channels/{channel.id}/messages", times=3)  # more than the move's own two tries
    rolled = await fake.slash(alice, "roll", channel=channel)
    if rolled.ephemeral:
        assert rolled.response.content == TABLE_BEHIND

    def caught_up() -> bool:
        shown = tables(fake, channel)
        return len(shown) == 1 and shown[0].embed["footer"]["text"].endswith("update 2")

    await fake.wait_for(caught_up, what="the table to catch up with the roll by itself")
    assert fake.world.refusals == [] and [error[2] for error in fake.http_errors] == [503] * 3
    assert (await parlor.host.current(session_id)).version == 2


async def test_tries_still_waiting_are_given_up_at_shutdown(fake_discord: FakeDiscord, parlor: ParlorBot):
    fake = fake_discord
    parlor.tables.retries.delays = (3600.0,)  # never reached: the bot stops first
    alice, bob = fake.create_user("alice"), fake.create_user("bob")
    channel = fake.create_channel("closing-time")
    session_id = await seated_game(parlor, channel, alice, bob)
    fake.unavailable("POST", rf"/channels/{channel.id}/messages", times=2)
    await fake.slash(alice, "roll", channel=channel)
    [waiting] = parlor.tables.retries.waiting.values()
    await parlor.tables.stop()
    assert waiting.cancelled() and parlor.tables.retries.waiting == {}
    assert (await parlor.host.current(session_id)).version == 2, "the move stands; the next start-up shows it"


async def test_a_form_opens_at_once_while_moves_wait_for_the_database(fake_discord: FakeDiscord, tmp_path):
    """A modal must be the first answer to its button: reading the game never waits for moves being saved."""
    fake = fake_discord
    fake.world.clock = VirtualClock()
    fake.deferred_timeout = 30.0
    database = tmp_path / "parlor.sqlite3"
    bot, _ = await start_bot(fake, str(database))
    try:
        alice, bob = fake.create_user("alice"), fake.create_user("bob")
        hallway = fake.create_channel("hallway")
        game = RandomPlay(fake, bot, hallway, [alice, bob], random.Random(7))
        await game.open("two-fat-dudes")
        while (view := bot.host.public_view(await game.session()))["phase"] != "encounter":
            roller = alice if str(alice.id) == view["to_act"][0] else bob
            table = game.table()
            await fake.click(roller, table, table.button(label="Roll")["custom_id"])
        decider = alice if str(alice.id) == view["to_act"][0] else bob
        race = fake.create_channel("race")
        await seated_game(bot, race, alice, bob)
        bot.host.sessions.forget((await game.session()).id)  # the form's game must be read from the database

        blocker = sqlite3.connect(database, isolation_level=None, timeout=1)
        blocker.execute("BEGIN IMMEDIATE")
        stuck = asyncio.create_task(fake.slash(alice, "roll", channel=race))
        await fake.wait_for(lambda: any(r.thinking for r in fake.interactions.by_id.values()),
                            what="the roll to wait for the locked database")
        table = game.table()
        opened = await fake.click(decider, table, table.button(label="Offer…")["custom_id"])
        assert opened.modal is not None and not opened.late
        assert not stuck.done(), "the form waited for the database lock"
        blocker.execute("ROLLBACK")
        blocker.close()
        rolled = await stuck
        assert not rolled.ephemeral and not rolled.late
    finally:
        await bot.close()


async def test_a_move_reaches_the_table_before_its_interaction_is_answered(fake_discord: FakeDiscord,
                                                                           parlor: ParlorBot):
    """A move that takes less than ACK_WITHIN is not acknowledged first: the table's new message is the
    move's first REST call, then "thinking…" comes and goes (bot.discord.actions)."""
    fake = fake_discord
    alice, bob = fake.create_user("alice"), fake.create_user("bob")
    channel = fake.create_channel("quick-move")
    session_id = await seated_game(parlor, channel, alice, bob)
    already = len(fake.world.requests)
    result = await fake.slash(alice, "roll", channel=channel)
    calls = [(method, path) for method, path, _ in fake.world.requests[already:]]
    assert calls[0] == ("POST", f"/api/v10/channels/{channel.id}/messages"), calls
    callbacks = [index for index, (_, path) in enumerate(calls) if path.endswith("/callback")]
    assert len(callbacks) == 1 and callbacks[0] > 0, calls
    assert not result.ephemeral and not result.thinking
    assert (await parlor.host.current(session_id)).version == 2


async def test_a_slow_move_is_acknowledged_and_reaches_the_table_before_discord_answers(
        fake_discord: FakeDiscord, parlor: ParlorBot, monkeypatch):
    """Work that outlasts ACK_WITHIN (here 0 s) is acknowledged then, but the move does not wait for
    Discord's answer to the acknowledgement; the "thinking…" is removed only once it has come."""
    monkeypatch.setattr("bot.discord.actions.ACK_WITHIN", 0.0)
    fake = fake_discord
    alice, bob = fake.create_user("alice"), fake.create_user("bob")
    channel = fake.create_channel("slow-network")
    session_id = await seated_game(parlor, channel, alice, bob)
    fake.world.callback_answers = answers = asyncio.Event()
    roll = asyncio.create_task(fake.slash(alice, "roll", channel=channel))

    def shown() -> bool:
        found = tables(fake, channel)
        return len(found) == 1 and found[0].embed["footer"]["text"].endswith("update 2")

    await fake.wait_for(shown, what="the table to show the roll while the acknowledgement's answer is held")
    thinking = [r for r in fake.interactions.by_id.values() if r.thinking]
    assert len(thinking) == 1, "acknowledged, and still thinking: nothing answered the interaction yet"
    answers.set()
    result = await roll
    assert not result.ephemeral and not result.thinking
    assert (await parlor.host.current(session_id)).version == 2


async def test_a_moves_table_is_written_while_its_commit_is_in_flight(fake_discord: FakeDiscord, parlor: ParlorBot,
                                                                      monkeypatch):
    """Once a table is up, each roll's new table was written during the roll's commit (bot.discord.table
    `draw_ahead`), not composed after it, and shows the roll."""
    fake = fake_discord
    alice, bob = fake.create_user("alice"), fake.create_user("bob")
    channel = fake.create_channel("written-ahead")
    session_id = await seated_game(parlor, channel, alice, bob)
    composed = []
    compose = parlor.tables.compose

    async def counted(session, ping):
        composed.append(session.version)
        return await compose(session, ping)

    monkeypatch.setattr(parlor.tables, "compose", counted)
    users = {str(alice.id): alice, str(bob.id): bob}
    for _ in range(6):
        session = await parlor.host.current(session_id)
        if session.status != "active":
            break
        player = users[parlor.host.to_act(session)[0]]
        result = await fake.slash(player, "roll", channel=channel)
        assert not result.ephemeral
        shown = tables(fake, channel)
        assert len(shown) == 1
        assert shown[0].embed["footer"]["text"].endswith(f"update {session.version + 1}")
    assert composed == []


async def test_a_moves_table_is_sent_as_its_commit_lands_before_the_hosts_work_after_it(
        fake_discord: FakeDiscord, parlor: ParlorBot, monkeypatch):
    """Issue 24: the moment a roll's commit is done, its table (written during the commit) is on its way to
    Discord, before the host's own work after the commit; the table shows the roll, there is one table,
    and the next roll's picture is still drawn ahead (bot.discord.foresight), not after that roll."""
    fake = fake_discord
    alice, bob = fake.create_user("alice"), fake.create_user("bob")
    channel = fake.create_channel("as-it-lands")
    session_id = await seated_game(parlor, channel, alice, bob)
    order: list[str] = []
    changed = parlor.host.changed

    def host_after_the_commit(session) -> None:
        order.append(f"host after the commit of move {session.version}")
        changed(session)

    request = discord.http.HTTPClient.request

    async def noted(self, route, **kwargs):
        if route.path.startswith("/channels/{channel_id}/messages") and route.method in ("POST", "PATCH"):
            order.append("table request")
        return await request(self, route, **kwargs)

    monkeypatch.setattr(parlor.host, "changed", host_after_the_commit)
    monkeypatch.setattr(discord.http.HTTPClient, "request", noted)
    drawn_after_moves = []
    draw = table_module.draw_off_loop

    async def counted(*args):
        drawn_after_moves.append(args)
        return await draw(*args)

    users = {str(alice.id): alice, str(bob.id): bob}
    await fake.slash(alice, "roll", channel=channel)  # the first roll tells the host how many moves the dice made
    monkeypatch.setattr(table_module, "draw_off_loop", counted)
    for _ in range(4):
        session = await parlor.host.current(session_id)
        if session.status != "active":
            break
        await settle(parlor.foresight, session_id)
        order.clear()
        result = await fake.slash(users[parlor.host.to_act(session)[0]], "roll", channel=channel)
        assert not result.ephemeral
        moved = session.version + 1
        assert order[:2] == ["table request", f"host after the commit of move {moved}"]
        await assert_table_shows_the_game(fake, parlor, channel)
    assert drawn_after_moves == [], "a picture was drawn after its move"


async def test_a_move_that_arrives_while_another_is_on_its_way_is_acknowledged_first(
        fake_discord: FakeDiscord, parlor: ParlorBot, monkeypatch):
    """In a burst the REST calls queue, so an answer left for last could miss Discord's deadline: a move
    arriving while another is still on its way to its table is acknowledged before anything else."""
    fake = fake_discord
    alice, bob = fake.create_user("alice"), fake.create_user("bob")
    first, second = fake.create_channel("held"), fake.create_channel("second")
    await seated_game(parlor, first, alice, bob)
    await seated_game(parlor, second, alice, bob)
    held, release = asyncio.Event(), asyncio.Event()
    act = parlor.host.act

    async def held_in(channel_id: str):
        async def acting(session_id, *args, **kwargs):
            if (await parlor.host.current(session_id)).channel_id == channel_id:
                held.set()
                await release.wait()
            return await act(session_id, *args, **kwargs)
        return acting

    monkeypatch.setattr(parlor.host, "act", await held_in(str(first.id)))
    holding = asyncio.create_task(fake.slash(alice, "roll", channel=first))
    await held.wait()
    already = len(fake.world.requests)
    result = await fake.slash(alice, "roll", channel=second)
    calls = [path for _, path, _ in fake.world.requests[already:]]
    callback = next(index for index, path in enumerate(calls) if path.endswith("/callback"))
    table_post = calls.index(f"/api/v10/channels/{second.id}/messages")
    assert callback < table_post, calls
    assert not result.ephemeral and not result.thinking
    release.set()
    await holding
