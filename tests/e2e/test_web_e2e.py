"""The table in a browser, end to end: the real bot with its web pages on, the fake Discord, and a real
headless Chromium at phone width (tests/e2e/browser.py).

- A spectator's page follows a move made in Discord, and one made by another process (another shard on
  the same database), without a reload.
- Two players finish a John Henry game from their pages alone while the Discord table follows.
- A Johari player's page shows his bones; a spectator's and another player's do not: checked in each
  page's DOM and in every HTTP body and server-sent event it received.
- A forged, expired, foreign or revoked link gets a clear refusal and changes nothing.
"""

from __future__ import annotations

import logging
import re
from collections.abc import AsyncIterator

import aiohttp
import pytest
import pytest_asyncio

from bot.client import ParlorBot
from bot.play.host import Host
from bot.presentation.frontends import frontend_for
from bot.presentation.words import image_names
from bot.storage.store import Store
from bot.web.links import Pass
from games.dice import commitment
from tests.conftest import start_bot
from tests.e2e.browser import PHONE, Recorder, browser  # noqa: F401
from tests.e2e.helpers import begun_by_buttons, latest_board, table
from tests.e2e.test_john_henry_e2e import start_game
from tests.fakediscord import FakeDiscord
from tests.fakediscord.state import FakeChannel, FakeUser

URL = re.compile(r"https?://\S+")
BONE = re.compile(r"(?<![\w-])\d-\d(?![\w-])")
POSITIONS = ("up", "down", "in", "out")


@pytest_asyncio.fixture
async def parlor(fake_discord: FakeDiscord, database_url: str) -> AsyncIterator[ParlorBot]:
    """The real bot with its web pages on a free port of this machine."""
    bot, task = await start_bot(fake_discord, database_url, web_port=0)
    yield bot
    await bot.close()
    await task
    fake_discord.assert_no_unknown_routes()


async def links_for(fake: FakeDiscord, user: FakeUser, channel: FakeChannel) -> list[str]:
    """What `/game web` answers `user`, privately: the public page, then his personal link if he plays."""
    answer = await fake.slash(user, "game web", channel=channel)
    assert answer.ephemeral, "the links are given privately"
    return URL.findall(answer.response.content)


async def version_shown(page) -> int:
    """The game version the page shows (its script marks it on <body>; the pages' CSP forbids eval)."""
    await page.locator("body[data-version]").wait_for(state="attached")
    return int(await page.get_attribute("body", "data-version"))


async def wait_for_version(page, version: int) -> None:
    await page.locator(f'body[data-version="{version}"]').wait_for(state="attached")


@pytest.mark.both_databases
async def test_a_spectator_page_follows_moves_made_in_discord_and_in_another_process(
        fake_discord, parlor, browser, database_url):  # noqa: F811
    alice, bob, carol = (fake_discord.create_user(name) for name in ("alice", "bob", "carol"))
    channel = fake_discord.channel("games")
    await start_game(fake_discord, channel, alice, bob)
    board = table(fake_discord, channel)
    watch = next(button for button in board.buttons() if button.get("label") == "Watch on the web")
    links = await links_for(fake_discord, carol, channel)
    assert links == [watch["url"]], "a spectator gets the public page only, the one the table links to"

    recorder, page = await Recorder.open(browser, links[0])
    shown = await version_shown(page)
    session = await parlor.host.last_session_in(str(channel.id))
    assert shown == session.version
    turn = await page.inner_text("#turn")
    assert "alice" in turn and "your turn" not in turn, "a watcher reads whose turn it is, not the channel's ping"
    assert await page.locator("#choices").is_hidden(), "a spectator has nothing to press"
    await fits_a_phone(page)

    rolled = await fake_discord.click(alice, board, board.button(label="Roll")["custom_id"])
    assert not rolled.ephemeral
    await wait_for_version(page, shown + 1)
    assert "alice rolls" in await page.inner_text("#narration")
    assert await page.get_attribute("#board", "src") == f"{URL.sub('', '')}{_path(links[0])}/board.png?v={shown + 1}"

    # Another process on the same database (a second shard) makes the next move: the page follows it too.
    other = Host(await Store.connect(database_url))
    try:
        await other.act(session.id, str(bob.id), {"type": "roll"})
    finally:
        await other.store.close()
    await wait_for_version(page, shown + 2)
    assert "bob rolls" in await page.inner_text("#narration")
    assert all(url.startswith(parlor.web.base_url) for url in recorder.urls), "nothing comes from elsewhere"
    assert "/play/" not in recorder.text()


async def fits_a_phone(page) -> None:
    """Nothing of the page is wider than a 400 px phone screen: no sideways scrolling."""
    await page.locator("#board-text:not(:empty)").wait_for()
    assert await page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    for element in await page.locator("main *:visible").all():
        box = await element.bounding_box()
        assert box is None or box["x"] + box["width"] <= PHONE["width"] + 0.5, await element.evaluate("e => e.id")


def _path(url: str) -> str:
    return "/" + url.split("/", 3)[3]


async def test_two_players_finish_a_john_henry_game_from_their_pages_while_the_discord_table_follows(
        fake_discord, parlor, browser):  # noqa: F811
    alice, bob = fake_discord.create_user("alice"), fake_discord.create_user("bob")
    channel = fake_discord.channel("games")
    await start_game(fake_discord, channel, alice, bob)
    pages = {}
    for user in (alice, bob):
        public, personal = await links_for(fake_discord, user, channel)
        assert "/watch/" in public and "/play/" in personal
        _, pages[user.name] = await Recorder.open(browser, personal)
        await fits_a_phone(pages[user.name])
        assert f"(you are {user.name})" in await pages[user.name].inner_text("h1")
    session = await parlor.host.last_session_in(str(channel.id))
    await wait_for_version(pages["alice"], session.version)
    assert f"Dice commitment: {commitment(session.dice_seed)}" in await pages["alice"].inner_text("#dice"), \
        "the page shows the table's dice commitment"
    for step in range(400):
        session = await parlor.host.session(session.id)
        if session.status != "active":
            break
        for page in pages.values():
            await wait_for_version(page, session.version)
        # (The player who kept a 6 may see "Undo my last move" on his page: the one to roll sees Roll.)
        actors = [name for name, page in pages.items()
                  if await page.get_by_role("button", name="Roll", exact=True).count()]
        assert len(actors) in (1, 2), "somebody's page offers the roll while the game runs (both in the roll-off)"
        page = pages[actors[0]]
        labels = await page.locator("#controls button").all_inner_texts()
        label = "Keep the 6" if "Keep the 6" in labels and step % 2 else "Roll"
        button = page.get_by_role("button", name=label, exact=True)
        await button.focus()
        await page.keyboard.press("Enter")  # keyboard-usable: a real <button>
        await page.locator("#done:not(:empty)").wait_for()  # the press is answered once Discord shows it
        await wait_for_version(page, session.version + 1)
        assert await page.inner_text("#error") == ""
        if await page.locator("#controls button").count():
            assert await page.locator("#controls :focus").count() == 1, "the keyboard's focus stays in the choices"
        discord_table = table(fake_discord, channel)
        assert f"update {session.version + 1}" in discord_table.embeds[0]["footer"]["text"], "Discord follows"
    assert session.status == "finished"
    final = latest_board(fake_discord, channel)
    assert "game is over" in final.content
    for page in pages.values():
        await wait_for_version(page, session.version)
        assert "game is over" in await page.inner_text("#turn")
        assert await page.locator("#controls button").count() == 0
        assert "The game is over." in await page.inner_text("#controls"), "not a flat 'not running'"
        assert f"Dice seed, revealed: {session.dice_seed}" in await page.inner_text("#dice")


async def test_a_johari_players_page_shows_his_bones_and_nobody_elses_does(fake_discord, parlor, browser):  # noqa: F811
    alice, bob, carol, dave = (fake_discord.create_user(name) for name in ("alice", "bob", "carol", "dave"))
    channel = fake_discord.channel("games")
    await begun_by_buttons(fake_discord, channel, "johari-bones", alice, [bob, carol])
    host = parlor.host
    session = await host.last_session_in(str(channel.id))
    users = {str(user.id): user for user in (alice, bob, carol)}
    actor = users[host.to_act(session)[0]]
    watcher = next(user for user in (alice, bob, carol) if user is not actor)

    spectator_link = (await links_for(fake_discord, dave, channel))[0]
    spectator, spectator_page = await Recorder.open(browser, spectator_link)
    actor_rec, actor_page = await Recorder.open(browser, (await links_for(fake_discord, actor, channel))[1])
    watcher_rec, watcher_page = await Recorder.open(browser, (await links_for(fake_discord, watcher, channel))[1])
    allowed: dict[str, set[str]] = {"spectator": set(), str(actor.id): set(), str(watcher.id): set()}
    public_boards: set[bytes] = set()

    def allow_now(current) -> None:
        public_boards.add(_drawn(host, current))
        allowed["spectator"] |= _bones(host.public_view(current))
        for player in (str(actor.id), str(watcher.id)):
            allowed[player] |= _bones(host.view_for(current, player))

    allow_now(session)
    for page in (spectator_page, actor_page, watcher_page):
        await wait_for_version(page, session.version)
    own = host.view_for(session, str(actor.id))
    face_in = next(entry["in"] for entry in own["players"] if entry["id"] == str(actor.id))
    assert face_in in await actor_page.inner_text("#private-text"), "his page shows his face-in bone"
    for page in (watcher_page, spectator_page):
        assert face_in not in await page.inner_text("body")

    await press(actor_page, "Draw")
    session = await host.session(session.id)
    await wait_for_version(actor_page, session.version)
    drawn = host.view_for(session, str(actor.id))["drawn"]
    allow_now(session)
    assert f"You drew {drawn}" in await actor_page.inner_text("#private-text")
    for page in (spectator_page, watcher_page):
        await wait_for_version(page, session.version)
        assert drawn not in await page.inner_text("body")

    await press(actor_page, "My face in")
    session = await host.session(session.id)
    allow_now(session)
    for page in (spectator_page, actor_page, watcher_page):
        await wait_for_version(page, session.version)
    assert f"update {session.version}" in table(fake_discord, channel).embeds[0]["footer"]["text"]

    for who, recorder, page in ((str(actor.id), actor_rec, actor_page), (str(watcher.id), watcher_rec, watcher_page),
                                ("spectator", spectator, spectator_page)):
        seen = set(BONE.findall(recorder.text())) | set(BONE.findall(await page.inner_text("body")))
        assert seen <= allowed[who], f"{who} was sent bones he may not see: {seen - allowed[who]}"
    assert not any("view.png" in url for url in spectator.urls), "a spectator never asks for a private picture"
    boards = [body for url, body in spectator.bodies if "board.png" in url]
    assert boards and set(boards) <= public_boards, "the spectator's pictures are the public board's, as drawn"
    current = await host.session(session.id)
    assert _bones(host.view_for(current, str(actor.id))) - allowed["spectator"], "the test did cover hidden bones"


async def press(page, label: str) -> None:
    """Click a control and wait for the server's answer (given once the Discord table shows the move)."""
    await page.get_by_role("button", name=label).click()
    await page.locator("#done:not(:empty), #error:not(:empty)").first.wait_for()
    assert await page.inner_text("#error") == ""


def _bones(view: dict) -> set[str]:
    shown = {entry[position] for entry in view["players"] for position in POSITIONS} | {view.get("drawn")}
    return shown - {None}


def _drawn(host: Host, session) -> bytes:
    return frontend_for(session.slug).draw_board(host.public_view(session), image_names(session), session.turn_events)


async def test_a_forged_expired_foreign_or_revoked_link_is_refused_and_changes_nothing(
        fake_discord, parlor, browser):  # noqa: F811
    alice, bob = fake_discord.create_user("alice"), fake_discord.create_user("bob")
    channel = fake_discord.channel("games")
    await start_game(fake_discord, channel, alice, bob)
    host, links = parlor.host, parlor.web.links
    session = await host.last_session_in(str(channel.id))
    public, personal = await links_for(fake_discord, alice, channel)
    token = personal.rsplit("/", 1)[1]
    granted = await links.check(token, now=host.clock())
    base = parlor.web.base_url
    forged = token[:-2] + ("AA" if not token.endswith("AA") else "BB")
    expired = links.token_for(Pass(session.id, str(alice.id), granted.generation, int(host.clock()) - 1))
    stranger = links.token_for(Pass(session.id, "4242", 0, int(host.clock()) + 3600))
    cases = {forged: "not a valid Parlor link", expired: "has expired", stranger: "You are not playing"}

    _, open_page = await Recorder.open(browser, personal)
    await wait_for_version(open_page, session.version)
    _, newer = await links_for(fake_discord, alice, channel)  # asking again revokes the first link
    cases[token] = "replaced by a newer one"
    refusal = open_page.locator("#refusal")
    await refusal.wait_for(state="visible")
    assert "replaced by a newer one" in await refusal.inner_text(), "an open page is told its link was revoked"
    assert await open_page.locator("#controls button").count() == 0 or await open_page.locator("#choices").is_hidden()

    async with aiohttp.ClientSession() as http:
        for bad, why in cases.items():
            _, page = await Recorder.open(browser, f"{base}/play/{bad}")
            assert why in await page.locator("#refusal").inner_text()
            assert await page.locator("#controls button").count() == 0
            async with http.post(f"{base}/play/{bad}/press",
                                 json={"version": session.version, "kind": "button", "key": "roll"}) as answer:
                assert answer.status == 403 and why in (await answer.json())["error"]
            for path in ("state", "events"):
                async with http.get(f"{base}/play/{bad}/{path}") as answer:
                    assert answer.status == 403
        bad_address = public.replace("/watch/", "/watch/9").rsplit(".", 1)[0] + ".forged"
        async with http.get(bad_address) as answer:
            assert answer.status == 404 and answer.content_type == "text/html", "an error page, not raw JSON"
        async with http.get(f"{bad_address}/state") as answer:
            assert answer.status == 404 and "not a Parlor game page" in (await answer.json())["error"]
        _, page = await Recorder.open(browser, bad_address)
        assert "not a Parlor game page" in await page.locator("#refusal").inner_text()
        assert (await host.session(session.id)).version == session.version, "no refused link moved the game"

        # The newest link works, and a stale or foreign press through it is refused in a page's words.
        async with http.post(f"{newer}/press", json={"version": session.version - 1, "kind": "button",
                                                     "key": "roll"}) as answer:
            said = (await answer.json())["error"]
            assert answer.status == 409 and "this page showed that choice" in said and "slash" not in said
        async with http.post(f"{newer}/press", json={"version": session.version, "kind": "button",
                                                     "key": "stop"}) as answer:
            assert answer.status == 409
        assert (await host.session(session.id)).version == session.version


async def test_a_player_places_his_pawns_step_by_step_on_his_page(fake_discord, parlor, browser):  # noqa: F811
    """Follow the Arrow's placing is a chain of steps: each choice opens the next one on the page alone
    (with a Back button), and the last makes the move, which the Discord table then shows."""
    alice, bob = fake_discord.create_user("alice"), fake_discord.create_user("bob")
    channel = fake_discord.channel("games")
    await fake_discord.slash(alice, "game start", channel=channel, game="follow-the-arrow", opponent=bob)
    lobby = table(fake_discord, channel)
    await fake_discord.click(bob, lobby, lobby.button(label="Join")["custom_id"])
    session = await parlor.host.last_session_in(str(channel.id))
    placer = alice if parlor.host.to_act(session) == [str(alice.id)] else bob
    _, page = await Recorder.open(browser, (await links_for(fake_discord, placer, channel))[1])
    await wait_for_version(page, session.version)

    first = page.get_by_role("button", name=re.compile(r"^Pawn 3 on a\d$"))
    await first.click()
    await page.get_by_text("So far: pawn 3 on").wait_for()
    assert await page.locator("body").get_attribute("data-version") == str(session.version), "a step moves nothing"
    await page.get_by_role("button", name="Back").click()
    await first.wait_for()
    await first.click()
    for pawn in ("1", "5"):
        await page.get_by_role("button", name=re.compile(rf"^Pawn {pawn} on [b-e]\d")).first.click()
        await page.get_by_text(re.compile(rf"So far: .*pawn {pawn} on")).wait_for()
    await page.get_by_role("button", name=re.compile(r"^Pawn 2 on d\d, pawn 4 on e\d")).click()
    await page.locator("#done:not(:empty)").wait_for()
    assert await page.inner_text("#error") == ""
    await wait_for_version(page, session.version + 1)
    assert f"update {session.version + 1}" in table(fake_discord, channel).embeds[0]["footer"]["text"]
    placed = parlor.host.public_view(await parlor.host.session(session.id))
    pawns = next(player["pawns"] for player in placed["players"] if player["id"] == str(placer.id))
    assert [pawns[n][0] for n in ("3", "1", "5", "2", "4")] == list("abcde"), "placed in the order chosen"


async def test_without_web_port_there_are_no_pages_and_game_web_says_so(fake_discord, database_url, caplog):
    """The player is told in his words (no setting he cannot change); the operator's WEB_PORT is in the log."""
    bot, task = await start_bot(fake_discord, database_url)
    try:
        assert bot.web is None
        alice, bob = fake_discord.create_user("alice"), fake_discord.create_user("bob")
        channel = fake_discord.channel("games")
        await start_game(fake_discord, channel, alice, bob)
        assert "Watch on the web" not in [b.get("label") for b in table(fake_discord, channel).buttons()]
        with caplog.at_level(logging.INFO, logger="cogs.web"):
            answer = await fake_discord.slash(alice, "game web", channel=channel)
        assert answer.ephemeral and answer.response.content == (
            "This bot does not serve web pages, so the table here is the whole game. If you would like them, "
            "ask whoever runs the bot.")
        assert [r.getMessage() for r in caplog.records if r.name == "cogs.web"] == [
            "/game web was asked for, but the web pages are off: set WEB_PORT to serve them"]
    finally:
        await bot.close()
        await task
    fake_discord.assert_no_unknown_routes()


async def test_a_menu_options_description_is_shown_under_its_label(fake_discord, parlor, browser):  # noqa: F811
    """A phone has no tooltip: what a pawn's moves are ("2 moves") is written under its label, while the
    button's name, what a screen reader announces first, stays the label."""
    alice, bob = fake_discord.create_user("alice"), fake_discord.create_user("bob")
    users = {str(alice.id): alice, str(bob.id): bob}
    channel = fake_discord.channel("games")
    await fake_discord.slash(alice, "game start", channel=channel, game="follow-the-arrow", opponent=bob)
    lobby = table(fake_discord, channel)
    await fake_discord.click(bob, lobby, lobby.button(label="Join")["custom_id"])
    for _ in range(2):
        placer = parlor.host.to_act(await parlor.host.last_session_in(str(channel.id)))[0]
        assert not (await fake_discord.slash(users[placer], "place", channel=channel, order="1 2 3 4 5")).ephemeral
    session = await parlor.host.last_session_in(str(channel.id))
    mover = users[parlor.host.to_act(session)[0]]
    _, page = await Recorder.open(browser, (await links_for(fake_discord, mover, channel))[1])
    await wait_for_version(page, session.version)
    pawn = page.get_by_role("button", name=re.compile(r"^Pawn \d on [a-f]\d$")).first
    hint = await pawn.locator(".hint").inner_text()
    assert re.search(r"\d (move|jump)", hint) and hint == await pawn.get_attribute("title")


async def test_discords_code_marks_show_as_code_not_as_backticks(fake_discord, parlor, browser):  # noqa: F811
    """A finished Follow the Arrow game's words end "`/game rematch` starts the next game of the match": the page
    shows the command as code, as Discord does, not with its backticks."""
    alice, bob = fake_discord.create_user("alice"), fake_discord.create_user("bob")
    channel = fake_discord.channel("games")
    await fake_discord.slash(alice, "game start", channel=channel, game="follow-the-arrow", opponent=bob)
    lobby = table(fake_discord, channel)
    await fake_discord.click(bob, lobby, lobby.button(label="Join")["custom_id"])
    host = parlor.host
    session = await host.last_session_in(str(channel.id))
    for _ in range(400):
        if session.status != "active":
            break
        player = host.to_act(session)[0]
        outcome = await host.act(session.id, player, host.legal_actions(session, player)[-1])
        session = outcome.session
    assert session.status == "finished"
    _, page = await Recorder.open(browser, (await links_for(fake_discord, alice, channel))[0])
    await wait_for_version(page, session.version)
    words = page.locator("#board-text")
    assert "`" not in await words.inner_text()
    assert await words.locator("code").all_inner_texts() == ["/game rematch"]


async def test_an_offer_typed_wrong_on_a_page_is_refused_in_the_pages_words(fake_discord, parlor, browser):  # noqa: F811
    """Discord's Offer… form closes when sent, so its refusal says to press Offer… again; a page's form stays open
    with the answer in it and has no Offer… button: its refusal says to correct the answer and send it again."""
    alice, bob = fake_discord.create_user("alice"), fake_discord.create_user("bob")
    users = {str(alice.id): alice, str(bob.id): bob}
    channel = fake_discord.channel("games")
    await fake_discord.slash(alice, "game start", channel=channel, game="two-fat-dudes", opponent=bob)
    lobby = table(fake_discord, channel)
    await fake_discord.click(bob, lobby, lobby.button(label="Join")["custom_id"])
    host = parlor.host
    session = await host.last_session_in(str(channel.id))
    for _ in range(200):
        view = host.public_view(session)
        if view["phase"] == "encounter":
            break
        action = {"type": "edge", "choice": "retreat"} if view["phase"] == "edge" else {"type": "roll"}
        session = (await host.act(session.id, view["to_act"][0], action)).session
    assert view["phase"] == "encounter"
    offerer = users[view["to_act"][0]]
    _, page = await Recorder.open(browser, (await links_for(fake_discord, offerer, channel))[1])
    await wait_for_version(page, session.version)
    points = page.get_by_role("textbox", name="Points")
    await points.fill("12 points")
    await page.get_by_role("button", name="Send").click()
    await page.locator("#error:not(:empty)").wait_for()
    assert await page.inner_text("#error") == (
        "“12 points” is not a whole number of points: type digits only, e.g. 12, and press Send again.")
    assert (await host.session(session.id)).version == session.version
    await points.fill("12")
    await page.get_by_role("button", name="Send").click()
    await wait_for_version(page, session.version + 1)
    assert "offers" in await page.inner_text("#narration")


async def test_a_refused_links_words_show_the_command_as_code(fake_discord, parlor, browser):  # noqa: F811
    """"Ask for a new one with `/game web`": a page refused on opening, and an open page refused when its link is
    replaced, show the command as code, not with Discord's backticks."""
    alice, bob = fake_discord.create_user("alice"), fake_discord.create_user("bob")
    channel = fake_discord.channel("games")
    await start_game(fake_discord, channel, alice, bob)
    session = await parlor.host.last_session_in(str(channel.id))
    _, personal = await links_for(fake_discord, alice, channel)
    _, open_page = await Recorder.open(browser, personal)
    await wait_for_version(open_page, session.version)
    await links_for(fake_discord, alice, channel)  # replaces the first link
    _, opened = await Recorder.open(browser, personal)
    for page in (open_page, opened):
        refusal = page.locator("#refusal")
        await refusal.wait_for(state="visible")
        assert "replaced by a newer one" in await refusal.inner_text()
        assert "`" not in await refusal.inner_text()
        assert await refusal.locator("code").all_inner_texts() == ["/game web"]


async def test_no_page_of_any_kind_reports_a_console_error(fake_discord, parlor, browser):  # noqa: F811
    """Issue 42, item 4: every page asked for /favicon.ico and got a 404, which Chromium reports as a console error;
    a bad public address showed raw JSON. Each kind of page (public, personal, a lobby's, a finished game's, a bad
    personal link, a bad public address) opens with no console error, and a bad address reads as a bad link does."""
    alice, bob, carol = (fake_discord.create_user(name) for name in ("alice", "bob", "carol"))
    lobby_channel, channel = fake_discord.channel("lounge"), fake_discord.channel("games")
    await fake_discord.slash(alice, "game start", channel=lobby_channel, game="john-henry", opponent=bob)
    await start_game(fake_discord, channel, alice, bob)
    host = parlor.host
    session = await host.last_session_in(str(channel.id))
    public, personal = await links_for(fake_discord, alice, channel)
    lobby_page = (await links_for(fake_discord, carol, lobby_channel))[0]
    base = parlor.web.base_url
    kinds = {"public": public, "personal": personal, "lobby": lobby_page,
             "bad link": f"{base}/play/{personal.rsplit('/', 1)[1][:-2]}AA",
             "bad address": public.replace("/watch/", "/watch/9").rsplit(".", 1)[0] + ".forged"}
    for kind, url in kinds.items():
        recorder, page = await Recorder.open(browser, url)
        if kind.startswith("bad"):
            refusal = page.locator("#refusal")
            await refusal.wait_for(state="visible")
            assert "`" not in await refusal.inner_text() and await refusal.locator("code").count(), kind
            assert await page.title() == "Parlor: this link does not work", "one error page for both"
        else:
            await page.locator("#connection", has_text="Live").wait_for()
        await page.wait_for_load_state("networkidle")
        assert any(url.endswith("/static/favicon.png") for url in recorder.urls), f"{kind}: the icon is declared"
        # A refused address keeps its status (403, 404: bot.web.server), which Chromium logs for the page itself;
        # that line, and nothing else, is expected.
        refused = {f"Failed to load resource: the server responded with a status of {status}" for status in (
            "403 (Forbidden)", "404 (Not Found)")} if kind.startswith("bad") else set()
        errors = [line for line in recorder.console
                  if not (line.split(" ({")[0] in refused and f"'url': '{url}'" in line)]
        assert errors == [], f"{kind}: {errors}"
    for _ in range(400):
        if session.status != "active":
            break
        player = host.to_act(session)[0]
        session = (await host.act(session.id, player, host.legal_actions(session, player)[0])).session
    assert session.status == "finished"
    for url in (public, personal):
        recorder, page = await Recorder.open(browser, url)
        await wait_for_version(page, session.version)
        await page.wait_for_load_state("networkidle")
        assert recorder.console == [], f"finished: {recorder.console}"
    async with aiohttp.ClientSession() as http, http.get(f"{base}/favicon.ico") as icon:
        assert icon.status == 200 and icon.content_type == "image/png", "a browser's default icon address answers"
