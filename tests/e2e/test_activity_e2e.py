"""The table as a Discord Activity, end to end: the real bot with its web server and Activity on, the fake Discord
(with its OAuth2 and Activity instances), and a real headless Chromium where a test page plays the Discord client
around the Activity (tests/e2e/activity_client.py).

- Two players finish a John Henry game, one in the Activity and one in the channel: one table, the same end.
- A Johari player's Activity shows his bones and nobody else's, in the DOM and in every payload.
- A code of another user, a replayed or forged code, an instance of another channel, a forged pass: refused
  clearly, and nothing changes.
- **Play in Discord** on the table and `/game activity` answer with LAUNCH_ACTIVITY, or say plainly why not.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import aiohttp
import pytest_asyncio

from bot.client import ParlorBot
from bot.discord.activity_launch import ACTIVITY_OFF, LAUNCH_REFUSED, PLAY_IN_DISCORD
from tests.conftest import start_bot
from tests.e2e.activity_client import CLIENT_ORIGIN, activity_url, open_client
from tests.e2e.activity_client import discord_browser as browser  # noqa: F401
from tests.e2e.browser import PHONE
from tests.e2e.helpers import begun_by_buttons, latest_board, table
from tests.e2e.test_john_henry_e2e import start_game
from tests.e2e.test_web_e2e import BONE, _bones, fits_a_phone, version_shown, wait_for_version
from tests.fakediscord import FakeDiscord
from tests.fakediscord.interactions import LAUNCH_ACTIVITY

FRAME_ANCESTOR = CLIENT_ORIGIN


@pytest_asyncio.fixture
async def parlor(fake_discord: FakeDiscord, database_url: str) -> AsyncIterator[ParlorBot]:
    """The real bot with its web pages and its Activity on a free port of this machine."""
    bot, task = await start_bot(fake_discord, database_url, web_port=0,
                                activity_client_secret=fake_discord.oauth.client_secret,
                                activity_frame_ancestors=FRAME_ANCESTOR)
    yield bot
    await bot.close()
    await task
    fake_discord.assert_no_unknown_routes()


async def test_two_players_finish_a_john_henry_game_one_in_the_activity_one_in_the_channel(
        fake_discord, parlor, browser):  # noqa: F811
    alice, bob = fake_discord.create_user("alice"), fake_discord.create_user("bob")
    channel = fake_discord.channel("games")
    await start_game(fake_discord, channel, alice, bob)
    instance = fake_discord.oauth.open_activity(channel, alice)
    client = await open_client(browser, fake_discord, alice, activity_url(parlor.web.base_url, instance, channel))
    frame = client.frame
    session = await parlor.host.last_session_in(str(channel.id))
    assert await version_shown(frame) == session.version
    assert "(you are alice)" in await frame.inner_text("h1")
    await fits_a_phone(frame)
    received = await client.page.evaluate("window.received")
    assert [opcode for opcode, _ in received[:1]] == [0], "the SDK's handshake came first"
    assert [cmd for _, cmd in received if cmd in ("AUTHORIZE", "AUTHENTICATE")] == ["AUTHORIZE", "AUTHENTICATE"]

    for step in range(400):
        session = await parlor.host.session(session.id)
        if session.status != "active":
            break
        await wait_for_version(frame, session.version)
        if str(bob.id) in parlor.host.to_act(session):
            board = latest_board(fake_discord, channel)
            labels = [button["label"] for button in board.buttons()]
            label = "Keep the 6" if "Keep the 6" in labels and step % 2 else "Roll"
            result = await fake_discord.click(bob, board, board.button(label=label)["custom_id"])
            assert not result.ephemeral, result.response.content
            continue
        labels = await frame.locator("#controls button").all_inner_texts()
        label = "Keep the 6" if "Keep the 6" in labels and step % 2 else "Roll"
        button = frame.get_by_role("button", name=label, exact=True)
        await button.focus()
        await client.page.keyboard.press("Enter")  # keyboard-usable, inside Discord's frame too
        await frame.locator("#done:not(:empty), #error:not(:empty)").first.wait_for()
        assert await frame.inner_text("#error") == ""
        await wait_for_version(frame, session.version + 1)
        assert f"update {session.version + 1}" in table(fake_discord, channel).embeds[0]["footer"]["text"], \
            "the Discord table follows the Activity's press"
    assert session.status == "finished"
    assert "game is over" in latest_board(fake_discord, channel).content
    await wait_for_version(frame, session.version)
    assert "game is over" in await frame.inner_text("#turn")
    assert all(url.startswith((parlor.web.base_url, CLIENT_ORIGIN)) for url in client.urls), \
        "the Activity loads nothing from anywhere but its own origin"


async def test_a_johari_players_activity_shows_his_bones_and_nobody_elses(fake_discord, parlor, browser):  # noqa: F811
    alice, bob, carol, dave = (fake_discord.create_user(name) for name in ("alice", "bob", "carol", "dave"))
    channel = fake_discord.channel("games")
    await begun_by_buttons(fake_discord, channel, "johari-bones", alice, [bob, carol])
    host = parlor.host
    session = await host.last_session_in(str(channel.id))
    players = {str(user.id): user for user in (alice, bob, carol)}
    actor = players[host.to_act(session)[0]]
    watcher = next(user for user in (alice, bob, carol) if user is not actor)
    instance = fake_discord.oauth.open_activity(channel, actor, watcher, dave)
    url = activity_url(parlor.web.base_url, instance, channel)
    clients = {who: await open_client(browser, fake_discord, user, url)
               for who, user in ((str(actor.id), actor), (str(watcher.id), watcher), ("spectator", dave))}
    allowed: dict[str, set[str]] = {who: set() for who in clients}

    def allow_now(current) -> None:
        allowed["spectator"] |= _bones(host.public_view(current))
        for player in (str(actor.id), str(watcher.id)):
            allowed[player] |= _bones(host.view_for(current, player))

    allow_now(session)
    for client in clients.values():
        await wait_for_version(client.frame, session.version)
    actor_frame = clients[str(actor.id)].frame
    face_in = next(entry["in"] for entry in host.view_for(session, str(actor.id))["players"]
                   if entry["id"] == str(actor.id))
    assert face_in in await actor_frame.inner_text("#private-text"), "his Activity shows his face-in bone"
    assert await clients["spectator"].frame.locator("#choices").is_hidden(), "a spectator has nothing to press"

    await actor_frame.get_by_role("button", name="Draw").click()
    await actor_frame.locator("#done:not(:empty), #error:not(:empty)").first.wait_for()
    assert await actor_frame.inner_text("#error") == ""
    session = await host.session(session.id)
    allow_now(session)
    drawn = host.view_for(session, str(actor.id))["drawn"]
    for client in clients.values():
        await wait_for_version(client.frame, session.version)
    assert f"You drew {drawn}" in await actor_frame.inner_text("#private-text")
    for who in (str(watcher.id), "spectator"):
        assert drawn not in await clients[who].frame.inner_text("body")

    for who, client in clients.items():
        seen = set(BONE.findall(await client.text())) | set(BONE.findall(await client.frame.inner_text("body")))
        assert seen <= allowed[who], f"{who} was sent bones he may not see: {seen - allowed[who]}"
    assert not any("view.png" in url for url in clients["spectator"].urls), "a spectator never asks for a view"
    current = await host.session(session.id)
    assert _bones(host.view_for(current, str(actor.id))) - allowed["spectator"], "the test did cover hidden bones"


async def sign_in(parlor, body: dict) -> tuple[int, dict]:
    async with aiohttp.ClientSession() as http, http.post(f"{parlor.web.base_url}/activity/api/session",
                                                          json=body) as response:
        return response.status, await response.json()


async def test_another_users_code_a_replayed_or_forged_code_and_another_channels_instance_are_refused(
        fake_discord, parlor, browser):  # noqa: F811
    alice, bob, carol = (fake_discord.create_user(name) for name in ("alice", "bob", "carol"))
    channel, lounge = fake_discord.channel("games"), fake_discord.channel("lounge")
    await start_game(fake_discord, channel, alice, bob)
    session = await parlor.host.last_session_in(str(channel.id))
    instance = fake_discord.oauth.open_activity(channel, alice)
    elsewhere = fake_discord.oauth.open_activity(lounge, alice)

    # In the browser: alice's Discord client hands her Activity a code of carol's (who is not in it).
    client = await open_client(browser, fake_discord, alice, activity_url(parlor.web.base_url, instance, channel),
                               code_for=carol)
    await client.frame.locator("#refusal:not([hidden])").wait_for()
    assert "does not list you in this Activity" in await client.frame.inner_text("#refusal")
    assert await client.frame.locator("#choices").is_hidden()

    code = fake_discord.oauth.authorize(alice)
    good = {"code": code, "instance_id": instance, "channel_id": str(channel.id)}
    status, answer = await sign_in(parlor, good)
    assert status == 200 and answer["user"] == str(alice.id) and answer["playing"] is True
    assert fake_discord.oauth.client_secret not in str(answer), "the client secret never reaches the page"
    status, replayed = await sign_in(parlor, good)
    assert status == 403 and "already used" in replayed["error"]
    status, forged = await sign_in(parlor, {**good, "code": "forged-code"})
    assert status == 403 and "not valid" in forged["error"]
    status, other = await sign_in(parlor, {**good, "code": fake_discord.oauth.authorize(alice),
                                           "instance_id": elsewhere})
    assert status == 403 and "another channel" in other["error"]
    status, unknown = await sign_in(parlor, {**good, "code": fake_discord.oauth.authorize(alice),
                                             "instance_id": "i-nothing"})
    assert status == 403 and "does not know this Activity" in unknown["error"]

    token = answer["pass"]
    forged_pass = token[:-2] + ("AA" if not token.endswith("AA") else "BB")
    async with aiohttp.ClientSession() as http:
        async with http.post(f"{parlor.web.base_url}/activity/api/{forged_pass}/press",
                             json={"version": session.version, "kind": "button", "key": "roll"}) as response:
            assert response.status == 403 and "not valid" in (await response.json())["error"]
        async with http.get(f"{parlor.web.base_url}/.proxy/activity/api/{token}/state") as response:
            assert response.status == 200, "the /.proxy/ prefix of Discord's proxy is served too"
            assert "frame-ancestors https://discord.com" in response.headers["Content-Security-Policy"]
    assert (await parlor.host.session(session.id)).version == session.version, "nothing changed"


async def test_the_activity_outside_discord_says_to_open_it_in_discord(fake_discord, parlor, browser):  # noqa: F811
    page = await (await browser.new_context(viewport=PHONE)).new_page()
    response = await page.goto(f"{parlor.web.base_url}/activity")
    assert "frame-ancestors https://discord.com" in response.headers["content-security-policy"]
    await page.locator("#refusal:not([hidden])").wait_for()
    assert "open it in Discord" in await page.inner_text("#refusal")
    home = await page.request.get(f"{parlor.web.base_url}/")
    assert "frame-ancestors 'none'" in home.headers["content-security-policy"], "the web pages stay unframeable"


async def test_play_in_discord_and_game_activity_launch_the_activity_or_say_why_not(fake_discord, parlor):
    alice, bob = fake_discord.create_user("alice"), fake_discord.create_user("bob")
    channel = fake_discord.channel("games")
    await start_game(fake_discord, channel, alice, bob)
    board = table(fake_discord, channel)
    button = board.button(label=PLAY_IN_DISCORD)
    launched = await fake_discord.click(bob, board, button["custom_id"])
    assert launched.callback_type == LAUNCH_ACTIVITY and not launched.messages, "Discord is asked to open it"
    commanded = await fake_discord.slash(alice, "game activity", channel=channel)
    assert commanded.callback_type == LAUNCH_ACTIVITY

    fake_discord.world.activities = False  # Discord will not launch it here
    refused = await fake_discord.slash(alice, "game activity", channel=channel)
    assert refused.ephemeral and refused.response.content == LAUNCH_REFUSED
    refused = await fake_discord.click(bob, board, button["custom_id"])
    assert refused.ephemeral and refused.response.content == LAUNCH_REFUSED


async def test_game_activity_says_so_when_the_bot_has_no_activity(fake_discord, database_url):
    bot, task = await start_bot(fake_discord, database_url, web_port=0)
    try:
        alice, bob = fake_discord.create_user("alice"), fake_discord.create_user("bob")
        channel = fake_discord.channel("games")
        await start_game(fake_discord, channel, alice, bob)
        assert all(button.get("label") != PLAY_IN_DISCORD for button in table(fake_discord, channel).buttons())
        answer = await fake_discord.slash(alice, "game activity", channel=channel)
        assert answer.ephemeral and answer.response.content == ACTIVITY_OFF
    finally:
        await bot.close()
        await task
