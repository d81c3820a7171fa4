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


def game_number(message: FakeMessage) -> int | None:
    """The game a table shows, from its footer ("Game #12 · update 3"); None for any other message."""
    for embed in message.embeds:
        footer = embed.get("footer", {}).get("text", "")
        if match := re.match(r"Game #(\d+)", footer):
            return int(match.group(1))
    return None


def tables(fake: FakeDiscord, channel: FakeChannel) -> list[FakeMessage]:
    """The public messages showing a game (its board or its lobby card), oldest first."""
    return [m for m in fake.messages(channel) if m.author_id == fake.bot_user.id and game_number(m) is not None]


def table(fake: FakeDiscord, channel: FakeChannel) -> FakeMessage:
    """The channel's newest table, checking that no game shows more than one."""
    found = tables(fake, channel)
    assert found, "no table has been posted in this channel"
    games = [game_number(m) for m in found]
    assert len(games) == len(set(games)), f"a game shows more than one table: {games}"
    return found[-1]


def pings(fake: FakeDiscord, channels: list[FakeChannel]) -> list[tuple[int, list[int]]]:
    """(message id, users notified) for every message in `channels` that notified anyone."""
    found = [m for channel in channels for m in fake.world.channel_messages(channel.id)]
    found += [m for m in fake.world.messages.values() if m.deleted and m.channel_id in {c.id for c in channels}]
    return sorted((m.id, m.pinged) for m in found if m.pinged)


async def begun_by_buttons(fake: FakeDiscord, channel: FakeChannel, slug: str, creator: FakeUser,
                           joiners: list[FakeUser]) -> None:
    """`creator` starts a game of `slug` in `channel`, `joiners` press its lobby's Join, and `creator` begins it."""
    await fake.slash(creator, "game start", channel=channel, game=slug)
    lobby = table(fake, channel)
    for user in joiners:
        await fake.click(user, lobby, lobby.button(label="Join")["custom_id"])
    await fake.slash(creator, "game begin", channel=channel)
