"""A finished game's step-through (bot.web.history), from the host alone: each step says what the public page said
at that update (so a Johari Bones step names no bone the public table did not), its line is the move's line in the
page's log, and a running game has no steps."""

from __future__ import annotations

import pytest

from bot.web.history import BEGAN, History, NoHistory
from bot.web.move_log import MoveLogs
from bot.web.pages import Pages
from tests.bot.conftest import ALICE, BOB
from tests.bot.test_replay import played


@pytest.mark.parametrize("slug", ["john-henry", "johari-bones", "follow-the-arrow"])
async def test_each_step_says_what_the_public_page_said_at_that_update(host, slug):
    session_id, outcomes = await played(host, slug)
    session = await host.session(session_id)
    pages = Pages(host)
    history = History(host, MoveLogs(host))
    found = await history.steps(session, "/w/step")
    steps = found["steps"]
    assert len(steps) == len(outcomes) == len(await host.moves(session)) + 1
    log = await pages.logs.lines(session)
    assert [step["line"] for step in steps] == [BEGAN, *log], "each move's line as the log tells it"
    moves = [None, *await host.moves(session)]
    for index, (step, outcome, move) in enumerate(zip(steps, outcomes, moves, strict=True)):
        page = await pages.public(outcome.session, "/b")
        assert (step["text"], step["narration"]) == (page["text"], page["narration"]), index
        assert step["picture"] == f"/w/step/{index}.png?v={session.version}"
        rolled = move.outcomes.get("rolls", []) if move else []
        assert step["dice"] == (f"Dice rolled: {', '.join(map(str, rolled[:-1]))} and {rolled[-1]}." if
                                len(rolled) > 1 else f"Dice rolled: {rolled[0]}." if rolled else "")


async def test_a_running_game_has_no_steps(host):
    await host.open_lobby(guild_id="1", channel_id="30", slug="john-henry", creator=ALICE)
    _, began = await host.join("30", BOB)
    history = History(host, MoveLogs(host))
    with pytest.raises(NoHistory, match=r"is still being played.*opens once it has ended"):
        await history.steps(began.session, "/w/step")
    with pytest.raises(NoHistory):
        await history.picture(began.session, 0)
