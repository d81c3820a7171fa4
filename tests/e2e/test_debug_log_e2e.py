"""At LOG_LEVEL=DEBUG a Johari Bones game leaves no bone in the log: libraries that print payloads are capped, and
an error's message, which could quote the game's state, is withheld (bot.logs)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from tests.debug_log import DebugLog
from tests.e2e.helpers import begun_by_buttons, latest_board
from tests.e2e.test_johari_bones_e2e import BONE


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
    with DebugLog() as buffer:
        await play_some_johari(fake_discord)
    logged = buffer.getvalue()
    session = await parlor.host.last_session_in(str(fake_discord.channel("games").id))
    assert session.version >= 3 and "DEBUG bot.play.host: session" in logged, "the game was played at DEBUG"
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
    with DebugLog() as buffer:
        await play_some_johari(fake_discord)
    logged = buffer.getvalue()
    assert failures and any(BONE.search(failure) for failure in failures), "the error quoted hidden bones"
    assert "ERROR bot.discord.actions: could not update the panels of session" in logged
    assert "ValidationError: (message withheld" in logged
    assert not BONE.findall(logged), "no log line names a bone"
