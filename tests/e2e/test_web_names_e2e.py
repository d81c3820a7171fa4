"""Names with markdown in them appear as written on the web pages, in a real headless Chromium
(tests/e2e/browser.py): the page draws Discord's **bold** and `code`, so a name is escaped for it
(bot.web.page_text)."""

from __future__ import annotations

from bot.client import ParlorBot
from tests.e2e.browser import Recorder, browser  # noqa: F401
from tests.e2e.test_john_henry_e2e import start_game
from tests.e2e.test_web_e2e import links_for, parlor, press, wait_for_version  # noqa: F401
from tests.fakediscord import FakeDiscord

STARRED, STARS = "**bob**", "a*b*c`d`"


async def test_names_with_markdown_appear_as_written_in_the_narration_the_log_and_an_answer(
        fake_discord: FakeDiscord, parlor: ParlorBot, browser):  # noqa: F811
    starred, stars = fake_discord.create_user(STARRED), fake_discord.create_user(STARS)
    channel = fake_discord.channel("games")
    await start_game(fake_discord, channel, starred, stars)
    _, personal = await links_for(fake_discord, starred, channel)
    _, page = await Recorder.open(browser, personal)
    session = await parlor.host.last_session_in(str(channel.id))
    await wait_for_version(page, session.version)
    assert f"The game begins: {STARRED}, {STARS}." in await page.inner_text("#narration")

    await press(page, "Roll")  # his roll in the roll-off, from his page: the answer names him too
    await wait_for_version(page, session.version + 1)
    assert f"{STARRED} rolls" in await page.inner_text("#done")
    assert f"{STARRED} rolls" in await page.inner_text("#narration")
    assert f"{STARRED} rolls" in await page.inner_text("#log")
    assert f"(you are {STARRED})" in await page.inner_text("h1")
    assert await page.locator("strong", has_text="bob").count() == 0, "no name is drawn bold"
    assert await page.locator("strong", has_text="b").count() == 0
    assert await page.locator("code", has_text="d").count() == 0, "nor as code: the page shows `code` marks"
