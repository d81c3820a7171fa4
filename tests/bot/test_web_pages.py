"""What the web pages are sent (bot.web.pages, bot.web.move_log), built from the host alone."""

from __future__ import annotations

import json
import re

from bot.replies import log_lines
from bot.web.move_log import IN_A_WORKER_FROM, MoveLogs
from bot.web.pages import Pages
from tests.bot.conftest import ALICE, BOB, CAROL

BONE = re.compile(r"(?<![\w-])\d-\d(?![\w-])")
POSITIONS = ("up", "down", "in", "out")


def bones(view: dict) -> set[str]:
    return {entry[p] for entry in view["players"] for p in POSITIONS} - {None} | ({view["drawn"]} - {None})


async def john_henry(host) -> int:
    await host.open_lobby(guild_id="1", channel_id="10", slug="john-henry", creator=ALICE)
    _, began = await host.join("10", BOB)
    return began.session.id


async def play(host, session_id: int, moves: int) -> None:
    for _ in range(moves):
        session = await host.session(session_id)
        if session.status != "active":
            return
        player = host.to_act(session)[0]
        await host.act(session_id, player, host.legal_actions(session, player)[0])


async def test_the_pages_log_grows_move_by_move_and_says_what_game_log_says(host):
    session_id = await john_henry(host)
    logs = MoveLogs(host)
    for _ in range(IN_A_WORKER_FROM + 5):
        await play(host, session_id, 1)
        session = await host.session(session_id)
        assert await logs.lines(session) == log_lines(session, await host.narrated_moves(session))
    late = MoveLogs(host)  # a page opened on a long game: the whole log replayed at once, in a worker
    assert await late.lines(session) == await logs.lines(session)
    assert len(await late.lines(session)) == len(await host.moves(session)) > IN_A_WORKER_FROM


async def test_a_players_page_offers_his_moves_only_and_a_spectators_nothing(host):
    session_id = await john_henry(host)
    await play(host, session_id, 2)  # the roll-off is decided: one player to act
    session = await host.session(session_id)
    pages = Pages(host)
    (actor,) = host.to_act(session)
    other = next(p for p in session.player_ids if p != actor)
    public = await pages.public(session, "/watch/x/board.png")
    assert public["board"] == f"/watch/x/board.png?v={session.version}" and "choices" not in public
    assert public["turn"].endswith("your turn.") and "<@" not in json.dumps(public), "names, not mentions"
    mine = await pages.personal(session, actor, "/b", "/v")
    theirs = await pages.personal(session, other, "/b", "/v")
    assert [c["label"] for c in mine["choices"]] == ["Roll"] and theirs["choices"] == []
    assert mine["private_picture"] is None, "John Henry has no private view"


async def test_a_johari_page_holds_its_players_bones_and_nobody_elses(host):
    await host.open_lobby(guild_id="1", channel_id="20", slug="johari-bones", creator=ALICE)
    await host.join("20", BOB)
    await host.join("20", CAROL)
    session = (await host.begin("20", ALICE.id)).session
    pages = Pages(host)
    public = json.dumps(await pages.public(session, "/b"))
    shown = bones(host.public_view(session))
    assert set(BONE.findall(public)) <= shown
    for player in session.player_ids:
        page = json.dumps(await pages.personal(session, player, "/b", "/v"))
        own = bones(host.view_for(session, player))
        assert set(BONE.findall(page)) <= own, "a page holds only bones its player may see"
        assert own - shown, "and he sees some the others don't"
        assert own - shown <= set(BONE.findall(page))
