"""Follow the Arrow against the AI leaves no private note per move behind (issue 21, item 6).

Alice plays a whole game by the table's menus, as a person does: a pawn from the table, then where
it goes in the private reply that opens (and the Call Jump! choice the same way). Each private reply
she chose on is read once she moves: it becomes her next private choice or goes, so at the end of
the game she holds no pile of old notes.
"""

from __future__ import annotations

import asyncio
import logging
import random

import pytest

from tests.e2e.helpers import table as table_in
from tests.e2e.random_play import Offer, RandomPlay
from tests.e2e.test_ai_e2e import play_with_the_ai, quick_ai
from tests.e2e.test_panel_endings_e2e import two_players


class FinishesWhatSheOpens(RandomPlay):
    """Random play that, once a private reply offers her a choice, makes it there (not on the table)."""

    def offers(self) -> list[Offer]:
        found = super().offers()
        private = [offer for offer in found if offer.message.visible_to is not None]
        return private or found


@pytest.mark.parametrize("player", [FinishesWhatSheOpens, RandomPlay])
async def test_follow_the_arrow_against_the_ai_leaves_no_note_per_move(fake_discord, parlor, player):
    """Also when she leaves a private choice unmade and opens another (random presses): it replaces the old."""
    quick_ai(parlor)
    channel = fake_discord.create_channel("arrows")
    alice = fake_discord.create_user("alice")
    await fake_discord.slash(alice, "game start", channel=channel, game="follow-the-arrow",
                             opponent=fake_discord.bot_user)
    game = player(fake_discord, parlor, channel, [alice], random.Random(4))
    await play_with_the_ai(fake_discord, parlor, game, 2000)
    session = await game.session()
    assert session.status == "finished"
    mine = [move for move in await parlor.host.moves(session) if move.player == str(alice.id)]
    assert len(mine) > 10, "she made many moves"
    left = fake_discord.ephemeral_messages(alice, channel)
    assert len(left) <= 1, f"{len(left)} private notes left after {len(mine)} moves: {[m.content for m in left]}"


async def test_show_my_bones_pressed_twice_at_once_leaves_one_reply_and_no_error(fake_discord, parlor, caplog):
    """Alice double-clicks **Show my bones** while she holds a drawn bone: each press's reply (with the places for
    the bone) replaces her note before it, so the second deletes the first's "thinking…" before the first has
    shown itself there. The first then finds its message gone: the newer reply stands, and nothing failed (it
    was logged as a failed interaction, with its traceback, and apologised for)."""
    fake = fake_discord
    alice, bob, channel = await two_players(fake, parlor)
    drawer = alice if str(alice.id) in parlor.host.to_act(await parlor.host.last_session_in(str(channel.id))) else bob
    await fake.slash(drawer, "draw", channel=channel)
    board = table_in(fake, channel)
    pressed = board.button(label="Show my bones")["custom_id"]
    edits = rf"/webhooks/{fake.application_id}/[^/]+/messages/@original"
    answered = sum(1 for method, path, _ in fake.world.requests if method == "PATCH" and "@original" in path)
    release = fake.hold("PATCH", edits)
    with parlor.gate.urgent():  # another interaction on its way: each press is acknowledged ("thinking…") first
        presses = [asyncio.create_task(fake.click(drawer, board, pressed)) for _ in range(2)]
        await fake.wait_for(lambda: sum(1 for method, path, _ in fake.world.requests
                                        if method == "PATCH" and "@original" in path) == answered + 2,
                            what="both replies on their way, the first one's placeholder deleted by the second")
    release.set()
    await asyncio.gather(*presses)
    replies = [m for m in fake.ephemeral_messages(drawer, channel) if "You drew" in m.content]
    assert len(replies) == 1 and replies[0].buttons(), "one reply, with the places for the bone"
    assert not [m for m in fake.ephemeral_messages(drawer, channel) if "Sorry" in m.content]
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], [r.getMessage() for r in caplog.records]
