"""An open web page keeps up with what happens around it, not only with the moves: the real bot with its
pages on, the fake Discord, and a real headless Chromium (tests/e2e/browser.py).

- The answer to a press (`#done`, `#error`) stays until the game moves past it, then goes.
- A personal link that expires while its page is open: the page says so and stops saying "Live".
- A finished game that is rematched: its open pages offer the new game's public page.
- A page refused when it comes back after the pages stopped (its link replaced meanwhile) says why.
"""

from __future__ import annotations

import asyncio
import time

from bot.client import ParlorBot
from tests.bot.conftest import FakeClock
from tests.e2e.browser import Recorder, browser  # noqa: F401
from tests.e2e.helpers import latest_board
from tests.e2e.test_john_henry_e2e import start_game
from tests.e2e.test_web_e2e import links_for, parlor, wait_for_version  # noqa: F401
from tests.fakediscord import FakeDiscord
from tests.fakediscord.state import FakeChannel, FakeUser


async def roll_in_discord(fake: FakeDiscord, channel: FakeChannel, user: FakeUser) -> None:
    board = latest_board(fake, channel)
    rolled = await fake.click(user, board, board.button(label="Roll")["custom_id"])
    assert not rolled.ephemeral, rolled.response.content


async def test_a_press_answer_stays_until_the_game_moves_past_it(
        fake_discord, parlor: ParlorBot, browser):  # noqa: F811
    alice, bob = fake_discord.create_user("alice"), fake_discord.create_user("bob")
    users = {str(alice.id): alice, str(bob.id): bob}
    channel = fake_discord.channel("games")
    await start_game(fake_discord, channel, alice, bob)
    host = parlor.host
    session = await host.last_session_in(str(channel.id))
    assert set(host.to_act(session)) == set(users), "both roll for the first turn"
    pages = {}
    for user in (alice, bob):
        _, pages[user.name] = await Recorder.open(browser, (await links_for(fake_discord, user, channel))[1])
        await wait_for_version(pages[user.name], session.version)

    # alice's roll from her page: its answer stays while the page shows her move, and goes with bob's.
    page = pages["alice"]
    await page.get_by_role("button", name="Roll", exact=True).click()
    await page.locator("#done:not(:empty)").wait_for()
    await wait_for_version(page, session.version + 1)
    assert "alice rolls" in await page.inner_text("#done"), "the answer stays with the move it speaks of"
    await roll_in_discord(fake_discord, channel, bob)
    await wait_for_version(page, session.version + 2)
    assert await page.inner_text("#done") == "", "another move came: the answer no longer describes the table"

    # A refused press: the game moved (in Discord) while it was on its way. The refusal stays on the page
    # that shows the game it was refused on, and goes with the next move.
    session = await host.session(session.id)
    mover = users[host.to_act(session)[0]]
    page = pages[mover.name]
    await wait_for_version(page, session.version)
    held: asyncio.Future = asyncio.get_running_loop().create_future()
    await page.route("**/press", lambda route: held.set_result(route))
    await page.get_by_role("button", name="Roll", exact=True).click()
    route = await held
    await roll_in_discord(fake_discord, channel, mover)
    await wait_for_version(page, session.version + 1)
    await route.continue_()
    await page.locator("#error:not(:empty)").wait_for()
    assert "The game moved on" in await page.inner_text("#error")
    assert (await host.session(session.id)).version == session.version + 1, "the refused press changed nothing"
    session = await host.session(session.id)
    await roll_in_discord(fake_discord, channel, users[host.to_act(session)[0]])
    await wait_for_version(page, session.version + 1)
    assert await page.inner_text("#error") == "", "the refusal went with the next move"


async def test_a_page_whose_link_expires_says_it_is_no_longer_live(
        fake_discord, parlor: ParlorBot, browser):  # noqa: F811
    """No move comes after the expiry: the page learns it from the host's clock (moved by the test)."""
    alice, bob = fake_discord.create_user("alice"), fake_discord.create_user("bob")
    channel = fake_discord.channel("games")
    await start_game(fake_discord, channel, alice, bob)
    clock = FakeClock(time.time())
    parlor.host.clock = clock
    public, personal = await links_for(fake_discord, alice, channel)
    session = await parlor.host.last_session_in(str(channel.id))
    pages = {}
    for link in (public, personal):
        _, pages[link] = await Recorder.open(browser, link)
        await wait_for_version(pages[link], session.version)
        assert (await pages[link].inner_text("#connection")).startswith("Live")
    page = pages[personal]
    assert await page.get_by_role("button", name="Roll", exact=True).count()

    clock.advance(parlor.web.link_hours * 3600)
    await page.locator("#refusal").wait_for(state="visible")
    assert "This link has expired" in await page.inner_text("#refusal")
    assert (await page.inner_text("#connection")).startswith("Not live")
    assert await page.locator("#choices").is_hidden() and await page.locator("#you").is_hidden()
    assert (await parlor.host.session(session.id)).version == session.version, "the expiry alone moved nothing"
    await roll_in_discord(fake_discord, channel, alice)
    await wait_for_version(pages[public], session.version + 1)
    assert (await pages[public].inner_text("#connection")).startswith("Live"), "a public page does not expire"


async def test_a_finished_games_pages_offer_its_rematch_and_only_its_public_page(
        fake_discord, parlor: ParlorBot, browser):  # noqa: F811
    alice, bob, carol = (fake_discord.create_user(name) for name in ("alice", "bob", "carol"))
    channel = fake_discord.channel("games")
    await start_game(fake_discord, channel, alice, bob)
    host = parlor.host
    session = await host.last_session_in(str(channel.id))
    _, spectator = await Recorder.open(browser, (await links_for(fake_discord, carol, channel))[0])
    _, player = await Recorder.open(browser, (await links_for(fake_discord, alice, channel))[1])
    while session.status == "active":
        mover = host.to_act(session)[0]
        session = (await host.act(session.id, mover, host.legal_actions(session, mover)[0])).session
    for page in (spectator, player):
        await wait_for_version(page, session.version)
        assert await page.locator("#rematch").is_hidden(), "no rematch yet"

    assert not (await fake_discord.slash(bob, "game rematch", channel=channel)).ephemeral
    rematch = await host.last_session_in(str(channel.id))
    assert rematch.id != session.id and rematch.status == "active"
    for page in (spectator, player):
        line = page.locator("#rematch")
        await line.wait_for(state="visible")  # no move of the old game: the page learns it from the feed
        assert (await line.inner_text()).startswith(f"Rematch started: watch John Henry #{rematch.id}")
        assert await line.locator("a").get_attribute("href") == parlor.web.watch_path(rematch.id), \
            "the new game's public page, on a player's page too"
    assert "/game web" in await player.inner_text("#rematch"), "a player is told how to get his own page of it"
    assert await line.get_attribute("role") == "status", "a screen reader hears it"
    assert await host.store.web_generation(rematch.id, str(alice.id)) == 0, "no personal link of it was made"

    await spectator.locator("#rematch a").click()
    await wait_for_version(spectator, rematch.version)
    assert f"John Henry #{rematch.id}" in await spectator.inner_text("h1"), "the link leads to the new game"
    assert (await spectator.inner_text("#connection")).startswith("Live")


async def test_a_page_refused_on_its_return_says_why_instead_of_reconnecting_forever(
        fake_discord, parlor: ParlorBot, browser):  # noqa: F811
    """The pages stop (the bot restarting) while alice asks for a new link, which replaces the one her open page
    uses: when the pages are back, the browser is refused and gives up; the page says why, and stops saying Live."""
    alice, bob = fake_discord.create_user("alice"), fake_discord.create_user("bob")
    channel = fake_discord.channel("games")
    await start_game(fake_discord, channel, alice, bob)
    session = await parlor.host.last_session_in(str(channel.id))
    _, page = await Recorder.open(browser, (await links_for(fake_discord, alice, channel))[1])
    await wait_for_version(page, session.version)
    assert (await page.inner_text("#connection")).startswith("Live")

    web = parlor.web
    where = (parlor.settings.web_host, web.port, parlor.settings.web_base_url)
    await web.stop()
    await page.locator("#connection", has_text="reconnecting").wait_for()
    await links_for(fake_discord, alice, channel)  # a new link: the page's own stops working
    await web.start(*where)
    await page.locator("#refusal").wait_for(state="visible", timeout=10_000)
    assert "This link was replaced by a newer one" in await page.inner_text("#refusal")
    assert (await page.inner_text("#connection")).startswith("Not live")
    assert await page.locator("#choices").is_hidden() and await page.locator("#you").is_hidden()
