"""A logged error keeps its frames and type, but its message only when its type speaks of the bot's own trouble
(bot.logs): an error quoting a game's state cannot put a hidden bone in the log."""

from __future__ import annotations

import logging
import sqlite3

import discord
import pytest
from discord import app_commands
from pydantic import BaseModel

from bot.logs import WITHHELD, withheld_traceback
from bot.storage.storage_errors import StorageFull
from tests.debug_log import DebugLog

SECRET = "hand 3-5 6-6"


class Seat(BaseModel):
    seat: int


@pytest.fixture
def logged():
    """What Parlor's own handler writes, at DEBUG."""
    with DebugLog() as buffer:
        yield buffer


def refuse_the_state() -> None:
    Seat.model_validate_json(f'{{"seat": "{SECRET}"}}')


def test_a_discord_error_repeating_another_s_message_is_withheld_too(logged):
    """discord.py's CommandInvokeError puts the message of the error it wraps in its own."""
    command = app_commands.Command(name="roll", description="Roll.", callback=rolled)
    try:
        raise app_commands.CommandInvokeError(command, KeyError(SECRET))
    except app_commands.AppCommandError:
        logging.getLogger("bot.client").exception("command failed")
    assert f"CommandInvokeError: {WITHHELD}" in logged.getvalue()
    assert SECRET not in logged.getvalue()


async def rolled(interaction: discord.Interaction) -> None:
    """A command's callback, for the error above."""


def test_an_error_quoting_a_state_is_logged_by_its_frames_and_type_only(logged):
    try:
        refuse_the_state()
    except ValueError:
        logging.getLogger("bot.discord.table").exception("could not draw the table of session %s", 7)
    text = logged.getvalue()
    assert "could not draw the table of session 7" in text
    assert "in refuse_the_state" in text, "the frames are kept"
    assert f"pydantic_core._pydantic_core.ValidationError: {WITHHELD}" in text
    assert "3-5" not in text and "6-6" not in text


@pytest.mark.parametrize("error", [
    OSError(28, "No space left on device"), sqlite3.OperationalError("database is locked"),
    StorageFull("the disk is full"), AttributeError("'NoneType' object has no attribute 'id'")])
def test_the_bot_s_own_trouble_is_logged_with_its_message(logged, error):
    try:
        raise error
    except Exception:
        logging.getLogger("bot.storage.store").exception("failed")
    assert str(error) in logged.getvalue()
    assert WITHHELD not in logged.getvalue()


def test_each_error_of_a_chain_is_judged_alone():
    try:
        try:
            raise OSError("disk gone")
        except OSError as disk:
            try:
                raise KeyError(SECRET) from disk
            except KeyError:
                raise RuntimeError(f"while moving {SECRET}") from None
    except RuntimeError as error:
        plain = withheld_traceback(error)
        try:
            raise ValueError(SECRET) from OSError("disk gone")
        except ValueError as caused:
            chained = withheld_traceback(caused)
    assert SECRET not in plain and "disk gone" not in plain, "a suppressed context is not shown, as Python does"
    assert plain.endswith(f"RuntimeError: {WITHHELD}")
    cause, link, effect = "OSError: disk gone", "direct cause", f"ValueError: {WITHHELD}"
    assert chained.index(cause) < chained.index(link) < chained.index(effect)
    assert SECRET not in chained


def test_a_message_another_handler_cached_is_withheld_all_the_same(logged):
    """The default formatter caches the traceback it made on the record; Parlor's handler makes its own."""
    cached: list[str | None] = []

    class Catch(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            logging.Formatter().format(record)  # caches the default traceback, message and all
            cached.append(record.exc_text)

    catcher = Catch()
    root = logging.getLogger()
    root.handlers.insert(0, catcher)
    try:
        try:
            raise KeyError(SECRET)
        except KeyError:
            logging.getLogger("bot.play.host").exception("failed")
    finally:
        root.removeHandler(catcher)
    assert SECRET in (cached[0] or ""), "the other handler cached the message"
    assert SECRET not in logged.getvalue() and f"KeyError: {WITHHELD}" in logged.getvalue()
