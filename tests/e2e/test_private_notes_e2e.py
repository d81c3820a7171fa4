"""Follow the Arrow against the AI leaves no private note per move behind (issue 21, item 6).

Alice plays a whole game by the table's menus, as a person does: a pawn from the table, then where
it goes in the private reply that opens (and the Call Jump! choice the same way). Each private reply
she chose on is read once she moves: it becomes her next private choice or goes, so at the end of
the game she holds no pile of old notes.
"""

from __future__ import annotations

import random

import pytest

from tests.e2e.random_play import Offer, RandomPlay
from tests.e2e.test_ai_e2e import play_with_the_ai, quick_ai


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
