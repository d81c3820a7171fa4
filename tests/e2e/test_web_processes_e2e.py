"""The web pages of two bot processes (`python -m bot`, shards 0 and 1 of 2) on one PostgreSQL database.

Each process serves the pages of any game, whichever process runs its guild: a page served by the other
process follows a move made in Discord, and a move made on such a page reaches the Discord table. Links
given by one process work on the other (they share the signing secret through the database). Both
processes start their web server with the bot and stop it on SIGTERM with a clean exit.
"""

from __future__ import annotations

import re

from tests.e2e.browser import Recorder, browser  # noqa: F401
from tests.e2e.helpers import player_to_act, table, tables
from tests.e2e.processes import bot_process, stop
from tests.e2e.test_john_henry_e2e import start_game
from tests.e2e.test_web_e2e import wait_for_version
from tests.fakediscord import FakeDiscord
from tests.postgres_server import free_port

URL = re.compile(r"https?://\S+")


def footer_update(fake: FakeDiscord, channel) -> int:
    return int(table(fake, channel).embeds[0]["footer"]["text"].rsplit(" ", 1)[1])


async def test_each_shard_process_serves_the_web_pages_of_any_game(fake_discord: FakeDiscord, postgres_url, tmp_path,
                                                                   browser):  # noqa: F811
    fake = fake_discord
    east = fake.create_guild("East", shard=(0, 2))
    alice, bob = fake.create_user("alice"), fake.create_user("bob")
    games = fake.channel("games", east)
    ports = {0: free_port(), 1: free_port()}
    processes = {shard: await bot_process(fake, tmp_path, postgres_url, SHARD_COUNT="2", SHARD_IDS=str(shard),
                                          WEB_PORT=str(port), WEB_BASE_URL=f"http://127.0.0.1:{port}")
                 for shard, port in ports.items()}
    try:
        await fake.wait_until_ready(timeout=30, shards=(0, 1))
        await start_game(fake, games, alice, bob)
        answer = await fake.slash(alice, "game web", channel=games)  # answered by shard 0's process
        public, personal = URL.findall(answer.response.content)
        assert public.startswith(f"http://127.0.0.1:{ports[0]}/watch/")
        elsewhere = f"http://127.0.0.1:{ports[1]}"

        _, watching = await Recorder.open(browser, elsewhere + public.split(str(ports[0]), 1)[1])
        _, playing = await Recorder.open(browser, elsewhere + personal.split(str(ports[0]), 1)[1])
        version = footer_update(fake, games)
        await wait_for_version(watching, version)

        board = table(fake, games)
        await fake.click(bob, board, board.button(label="Roll")["custom_id"])  # in Discord, shard 0's process
        await wait_for_version(watching, version + 1)
        await wait_for_version(playing, version + 1)

        await playing.get_by_role("button", name="Roll").click()  # on the page, shard 1's process
        await playing.locator("#done:not(:empty)").wait_for()
        await wait_for_version(watching, version + 2)
        assert footer_update(fake, games) == version + 2, "the Discord table follows a move made on the other process"

        board = table(fake, games)  # then Discord again, on shard 0's process, whose table record is older
        mover = player_to_act(board, [alice, bob])
        move = next(b for b in board.buttons() if b.get("custom_id", "").startswith("parlor:act:"))
        await fake.click(mover, board, move["custom_id"])  # Roll, or Keep after a six
        await wait_for_version(watching, version + 3)
        await fake.wait_for(lambda: footer_update(fake, games) == version + 3, timeout=10)
        assert len(tables(fake, games)) == 1, "one table for the game, whichever process updated it last"
    finally:
        for process in processes.values():
            await stop(process)
    fake.assert_no_unknown_routes()
