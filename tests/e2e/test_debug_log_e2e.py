"""At LOG_LEVEL=DEBUG a Johari Bones game leaves no bone in the log: libraries that print payloads are capped, and
an error's message, which could quote the game's state, is withheld (bot.logs)."""

from __future__ import annotations

import contextlib
import io
import logging
from collections.abc import Iterator

from pydantic import BaseModel, ConfigDict

from bot.logs import PAYLOAD_LOGGERS, configure_logging
from tests.e2e.helpers import begun_by_buttons, latest_board
from tests.e2e.test_johari_bones_e2e import BONE


@contextlib.contextmanager
def logged_at_debug() -> Iterator[io.StringIO]:
    """What the bot's log handler writes at DEBUG meanwhile; the loggers' levels put back afterwards."""
    levels = {name: logging.getLogger(name).level for name in ("", *PAYLOAD_LOGGERS)}
    buffer = io.StringIO()
    handler = configure_logging("DEBUG", buffer)
    try:
        yield buffer
    finally:
        logging.getLogger().removeHandler(handler)
        for name, level in levels.items():
            logging.getLogger(name).setLevel(level)


async def play_some_johari(fake) -> None:
    """Three players join and begin; one draws and plays a bone face out, one swaps, one looks at his hand."""
    alice, bob, carol = (fake.create_user(name) for name in ("alice", "bob", "carol"))
    channel = fake.channel("games")
    await begun_by_buttons(fake, channel, "johari-bones", alice, [bob, carol])
    board = latest_board(fake, channel)
    drew = await fake.click(alice, board, board.button(label="Draw")["custom_id"])
    offer = drew.response  # the drawer's private panel
    await fake.click(alice, offer, offer.button(label="bob's face out")["custom_id"])
    await fake.slash(bob, "swap", channel=channel, kind="up", options={"with": carol})
    await fake.slash(carol, "hand", channel=channel)


async def test_a_johari_game_at_debug_logs_no_bone(fake_discord, parlor):
    with logged_at_debug() as buffer:
        await play_some_johari(fake_discord)
    logged = buffer.getvalue()
    session = await parlor.host.last_session_in(str(fake_discord.channel("games").id))
    assert session.version >= 3 and "DEBUG bot.host: session" in logged, "the game was played at DEBUG"
    assert not BONE.findall(logged), "no log line names a bone"


class NotAState(BaseModel):
    """A model that refuses any game's state, quoting the fields it found (as pydantic does)."""

    model_config = ConfigDict(extra="forbid")


async def test_a_bug_failing_on_a_johari_state_logs_no_bone(fake_discord, parlor, monkeypatch):
    """A bug in what follows a move (here the private panels' update) that fails on the game's state: pydantic's
    error quotes the state it refused, every hidden bone in it, and the bot logs the error."""
    failures: list[str] = []

    async def failing(outcome) -> None:
        try:
            NotAState.model_validate_json(outcome.session.state)
        except ValueError as error:
            failures.append(str(error))
            raise

    monkeypatch.setattr(parlor.panels, "update", failing)
    with logged_at_debug() as buffer:
        await play_some_johari(fake_discord)
    logged = buffer.getvalue()
    assert failures and any(BONE.search(failure) for failure in failures), "the error quoted hidden bones"
    assert "ERROR bot.actions: could not update the panels of session" in logged
    assert "ValidationError: (message withheld" in logged
    assert not BONE.findall(logged), "no log line names a bone"
