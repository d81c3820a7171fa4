"""At LOG_LEVEL=DEBUG a Johari Bones game leaves no bone in the log: libraries that print payloads are capped."""

from __future__ import annotations

import io
import logging

from bot.logs import PAYLOAD_LOGGERS, configure_logging
from tests.e2e.helpers import latest_board
from tests.e2e.test_johari_bones_e2e import BONE


async def test_a_johari_game_at_debug_logs_no_bone(fake_discord, parlor):
    fake = fake_discord
    levels = {name: logging.getLogger(name).level for name in ("", *PAYLOAD_LOGGERS)}
    buffer = io.StringIO()
    handler = configure_logging("DEBUG", buffer)
    try:
        alice, bob, carol = (fake.create_user(name) for name in ("alice", "bob", "carol"))
        channel = fake.channel("games")
        lobby = (await fake.slash(alice, "game start", channel=channel, game="johari-bones")).response
        for user in (bob, carol):
            await fake.click(user, lobby, lobby.button(label="Join")["custom_id"])
        await fake.slash(alice, "game begin", channel=channel)
        board = latest_board(fake, channel)
        drew = await fake.click(alice, board, board.button(label="Draw")["custom_id"])
        offer = drew.response  # the drawer's private panel
        await fake.click(alice, offer, offer.button(label="bob's face out")["custom_id"])
        await fake.slash(bob, "swap", channel=channel, kind="up", options={"with": carol})
        await fake.slash(carol, "hand", channel=channel)
    finally:
        logging.getLogger().removeHandler(handler)
        for name, level in levels.items():
            logging.getLogger(name).setLevel(level)
    logged = buffer.getvalue()
    session = await parlor.host.last_session_in(str(channel.id))
    assert session.version >= 3 and "DEBUG bot.host: session" in logged, "the game was played at DEBUG"
    assert not BONE.findall(logged), "no log line names a bone"
