"""The web pages' signed links (bot.web.links) and their change feed (bot.web.feed), on both databases."""

from __future__ import annotations

import pytest

from bot.storage.store import Seat, Store
from bot.web.feed import Feed
from bot.web.links import BadLink, Links, Pass

pytestmark = pytest.mark.both_databases
NOW = 1_700_000_000.0


async def a_game(store: Store, channel: str = "1") -> int:
    lobby = await store.create_lobby(guild_id="9", channel_id=channel, slug="john-henry",
                                     creator=Seat(id="101", name="Alice"), invited=[], options={}, now=NOW)
    return lobby.id


async def test_a_personal_link_works_until_it_expires_or_is_replaced(store, database_url):
    links = await Links.open(store)
    game = await a_game(store)
    token, granted = await links.issue(game, "101", now=NOW, hours=2)
    assert granted == Pass(game, "101", 1, int(NOW + 7200))
    assert await links.check(token, now=NOW + 7199) == granted
    with pytest.raises(BadLink, match="expired"):
        await links.check(token, now=NOW + 7200)

    # Another process of the bot on the same database signs with the same stored secret.
    other_store = await Store.connect(database_url)
    try:
        other = await Links.open(other_store)
        assert await other.check(token, now=NOW) == granted
        newer, _ = await other.issue(game, "101", now=NOW, hours=2)
    finally:
        await other_store.close()
    with pytest.raises(BadLink, match="replaced by a newer one"):
        await links.check(token, now=NOW)
    assert (await links.check(newer, now=NOW)).generation == 2
    assert (await links.issue(game, "202", now=NOW, hours=2))[1].generation == 1, "each player has his own links"
    assert (await links.check(newer, now=NOW)).generation == 2, "another player's new link revokes nothing of his"


async def test_forged_links_are_refused(store):
    links = await Links.open(store)
    game = await a_game(store)
    token, granted = await links.issue(game, "101", now=NOW, hours=2)
    body, _, signature = token.partition(".")
    someone_else = links.token_for(Pass(game, "202", 1, granted.expires)).partition(".")[0]
    other_end = "y" if signature.endswith("x") else "x"
    for forged in (f"{someone_else}.{signature}", f"{body}.{signature[:-1]}{other_end}", body, "", "....",
                   "%%%.abc"):
        with pytest.raises(BadLink, match="not a valid Parlor link"):
            await links.check(forged, now=NOW)
    elsewhere = await Links.open(store, configured="another bot's secret")
    with pytest.raises(BadLink, match="not a valid Parlor link"):
        await elsewhere.check(token, now=NOW)


async def test_a_public_page_address_cannot_be_guessed_from_the_game_number(store):
    links = await Links.open(store)
    key = links.watch_key(12)
    assert links.watched_session(key) == 12
    for guessed in ("12", "13." + key.partition(".")[2], "12.x", "abc"):
        with pytest.raises(BadLink, match="not a Parlor game page"):
            links.watched_session(guessed)


async def test_a_finished_games_marks_move_when_the_next_game_begins_in_its_channel(store):
    """The poll's marks: a finished game's pages learn of its rematch, begun by any process."""
    first = await a_game(store)
    played = await store.update_session(await store.session(first), now=NOW, status="active", state="{}")
    elsewhere = await a_game(store, channel="2")
    await store.update_session(await store.session(elsewhere), now=NOW, status="active", state="{}")
    assert (await store.watched([first]))[first][2] == 0, "a running game has no next game to offer"
    finished = await store.update_session(played, now=NOW, status="finished")
    marks = (await store.watched([first]))[first]
    assert marks == (finished.version, 0, 0), "another channel's game is not its next one"
    lobby = await store.session(await a_game(store))
    assert (await store.watched([first]))[first] == marks, "a lobby is not a game yet"
    await store.update_session(lobby, now=NOW, status="active", state="{}")
    assert (await store.watched([first]))[first] == (finished.version, 0, lobby.id)

async def test_the_feed_wakes_a_games_pages_on_a_poke_and_when_its_marks_move_in_the_store():
    marks = {1: (3, 0), 2: (5, 0)}
    reads: list[list[int]] = []

    async def read(ids: list[int]) -> dict[int, tuple[int, int]]:
        reads.append(sorted(ids))
        return {i: marks[i] for i in ids}

    feed = Feed(read)
    first, second = feed.listen(1), feed.listen(2)
    await feed.check()
    assert reads == [[1, 2]]
    assert await first.wait(0) and await second.wait(0), "the first look wakes them (a change may just have come)"
    feed.poke(1)
    assert await first.wait(0) and not await second.wait(0)
    await feed.check()
    assert not await first.wait(0), "nothing moved"
    marks[2] = (5, 1)  # a player of game 2 asked for a new link (in another process)
    await feed.check()
    assert await second.wait(0) and not await first.wait(0)
    feed.leave(first)
    feed.leave(second)
    assert feed.open_pages == 0
    await feed.check()
    assert len(reads) == 3, "no page open: nothing is read"


async def test_the_feed_wakes_a_page_once_when_its_link_expires_by_the_hosts_clock(clock):
    async def read(ids: list[int]) -> dict[int, tuple[int, int]]:
        return {i: (3, 0) for i in ids}

    feed = Feed(read, clock=clock)
    personal, public = feed.listen(1, expires=clock() + 60), feed.listen(1)
    await feed.check()
    assert await personal.wait(0) and await public.wait(0)  # the first look
    await feed.check()
    assert not await personal.wait(0), "nothing moved and the link still works"
    clock.advance(60)
    await feed.check()
    assert await personal.wait(0), "its link expired: the page is woken to find it refused"
    assert not await public.wait(0), "a public page's link never expires"
    await feed.check()
    assert not await personal.wait(0), "woken once"
