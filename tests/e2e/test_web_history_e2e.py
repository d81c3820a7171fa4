"""A finished game's step-through on its public page (issue 45, bot.web.history), in a real headless Chromium at
phone width: the ← → keys and the slider move through every update, each step's words match `/game log`, each
step's picture is the table's at that update, and a step's address opens that step."""

from __future__ import annotations

import re

import aiohttp

from bot.discord.replies import log_messages
from bot.play.ratings import PEOPLE
from bot.presentation.rating_charts import rating_chart
from bot.presentation.replays import replays_of
from bot.presentation.words import log_lines
from tests.e2e.browser import PHONE, Recorder, browser  # noqa: F401
from tests.e2e.test_replay_in_a_worker_e2e import a_finished_game
from tests.e2e.test_web_e2e import URL, links_for, parlor  # noqa: F401

LINE = re.compile(r"^\d+\. ")


async def logged_lines(fake_discord, bot, user, channel, session) -> list[str]:
    """`/game log`'s lines, as Discord shows them (markup marks dropped, as a page's text has none)."""
    told = await bot.host.narrated_moves(session)
    expected = len(log_messages(session, log_lines(session, told)))
    log = await fake_discord.slash(user, "game log", channel=channel)
    await fake_discord.wait_for(lambda: len(log.messages) == expected, what="the log's messages")
    text = "\n".join(message.content for message in log.messages)
    return [line.replace("**", "").replace("\\", "") for line in text.splitlines() if LINE.match(line)]


async def step_shown(page, index: int, count: int, line: str) -> None:
    await page.locator(f'#step-line[data-step="{index}"]').wait_for(state="attached")
    assert await page.inner_text("#step-line") == f"Step {index} of {count - 1}: {line}"
    assert (await page.get_attribute("#step-board", "src")).split("?")[0].endswith(f"/step/{index}.png")
    assert await page.get_attribute("#step-slider", "aria-valuetext") == f"Step {index} of {count - 1}"
    assert page.url.endswith(f"?step={index}")


async def test_keys_and_slider_step_through_every_update_and_say_what_game_log_says(
        fake_discord, parlor, browser):  # noqa: F811
    _, bob, channel, session = await a_finished_game(fake_discord, parlor)
    carol = fake_discord.create_user("carol")
    [watch] = await links_for(fake_discord, carol, channel)
    logged = await logged_lines(fake_discord, parlor, bob, channel, session)
    moves = await parlor.host.moves(session)
    assert len(logged) == len(moves) > 5
    lines = ["The game began.", *logged]  # step 0 is the table as the game began, then one step per move
    count = len(lines)

    recorder, page = await Recorder.open(browser, watch)
    await page.locator("#history:not([hidden])").wait_for()
    assert await page.get_attribute("#step-slider", "max") == str(count - 1)
    assert await page.inner_text("#step-line") == f"Step {count - 1} of {count - 1}: {lines[-1]}", "opens at the end"

    await page.click("#step-first")
    await step_shown(page, 0, count, lines[0])
    assert await page.is_disabled("#step-previous") and not await page.is_disabled("#step-next")
    for index in range(1, count):
        await page.keyboard.press("ArrowRight")
        await step_shown(page, index, count, lines[index])
    assert await page.is_disabled("#step-next") and await page.is_disabled("#step-last")
    for index in range(count - 2, -1, -1):
        await page.keyboard.press("ArrowLeft")
        await step_shown(page, index, count, lines[index])

    await page.focus("#step-slider")
    await page.keyboard.press("End")
    await step_shown(page, count - 1, count, lines[-1])
    await page.keyboard.press("Home")
    await step_shown(page, 0, count, lines[0])
    for index in range(1, count):
        await page.keyboard.press("ArrowRight")  # the slider's own keys
        await step_shown(page, index, count, lines[index])
    await page.click("#step-previous")
    await step_shown(page, count - 2, count, lines[-2])

    # Each step's picture is the table's at that update (bot.presentation.replays, as /game replay draws it).
    base = watch.split("?")[0]
    async with aiohttp.ClientSession() as client:
        for index in (0, count // 2, count - 1):
            async with client.get(f"{base}/step/{index}.png") as answer:
                assert answer.status == 200
                assert await answer.read() == await replays_of(parlor.host).picture(session, index)
        async with client.get(f"{base}/step/{count}.png") as answer:
            assert answer.status == 404 and f"steps 0 to {count - 1}" in (await answer.json())["error"]

    # A step's address opens that step, for whoever it is shared with.
    shared = await page.get_attribute("#step-link", "href")
    assert shared.endswith(f"?step={count - 2}")
    _, other = await Recorder.open(browser, f"{base}?step=3")
    await other.locator("#history:not([hidden])").wait_for()
    await step_shown(other, 3, count, lines[3])
    assert all(url.startswith(parlor.web.base_url) for url in recorder.urls)


async def test_a_running_games_page_has_no_step_through(fake_discord, parlor, browser):  # noqa: F811
    from tests.e2e.test_john_henry_e2e import start_game

    alice, bob, carol = (fake_discord.create_user(name) for name in ("alice", "bob", "carol"))
    channel = fake_discord.channel("games")
    await start_game(fake_discord, channel, alice, bob)
    [watch] = await links_for(fake_discord, carol, channel)
    _, page = await Recorder.open(browser, watch)
    await page.locator("body[data-version]").wait_for(state="attached")
    assert await page.locator("#history").is_hidden()
    async with aiohttp.ClientSession() as client, client.get(f"{watch}/steps") as answer:
        assert answer.status == 404
        assert "its step-through opens once it has ended" in (await answer.json())["error"]


async def test_leaderboards_answer_links_to_a_page_with_each_players_rating_chart(
        fake_discord, parlor, browser):  # noqa: F811
    alice, bob, channel, _ = await a_finished_game(fake_discord, parlor)
    asked = await fake_discord.slash(alice, "leaderboard", channel=channel, game="john-henry")
    await fake_discord.wait_for(lambda: asked.response.attachments, what="the leaderboard")
    [link] = URL.findall(asked.response.content.split("Each player's rating chart: ", 1)[1])
    assert link.startswith(parlor.web.base_url + "/leaderboard/")

    recorder, page = await Recorder.open(browser, link)
    guild = str(channel.guild_id)
    for user in (alice, bob):
        chart = await rating_chart(parlor.host.store, guild, str(user.id), user.name, "john-henry", PEOPLE)
        assert chart is not None and len(chart.points) == 1
        image = page.get_by_alt_text(chart.alt_text)
        await image.wait_for()
        assert await image.evaluate("img => img.complete && img.naturalWidth") == 720
        [body] = [body for url, body in recorder.bodies if url.endswith(f"/{user.id}.png")]
        assert body == chart.png, "the page's chart is the one /stats attaches"
    assert await page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    forged = link.replace(link.rsplit(".", 1)[1], "forged")
    async with aiohttp.ClientSession() as client, client.get(forged) as answer:
        assert answer.status == 404 and "/leaderboard" in (await answer.json())["error"]
