"""Reading the bot's public messages the way a player does: whose turn, which buttons, is it over."""

from __future__ import annotations

import re

from tests.fakediscord import FakeDiscord
from tests.fakediscord.state import FakeChannel, FakeMessage, FakeUser

MENTION = re.compile(r"<@!?(\d+)>")


def mentioned(message: FakeMessage) -> list[int]:
    """User ids mentioned in a message's content, in order."""
    return [int(m) for m in MENTION.findall(message.content or "")]


def latest_board(fake: FakeDiscord, channel: FakeChannel) -> FakeMessage:
    """The newest public message that carries a board picture."""
    for message in reversed(fake.messages(channel)):
        if any(a.filename == "board.png" for a in message.attachments):
            return message
    raise AssertionError("no board has been posted in this channel")


def is_over(message: FakeMessage) -> bool:
    return "game is over" in (message.content or "")


def player_to_act(message: FakeMessage, players: list[FakeUser]) -> FakeUser:
    ids = mentioned(message)
    for player in players:
        if player.id in ids:
            return player
    raise AssertionError(f"nobody's turn in {message.content!r}")
