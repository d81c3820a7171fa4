"""QA (qa-rails): Crayon Rails as new players meet it, through the fake Discord. Each test is a defect
found by playing, marked xfail(strict) until it is fixed."""

from __future__ import annotations

import pytest

from bot.client import ParlorBot
from tests.e2e.test_crayon_rails_e2e import Table, open_game
from tests.fakediscord import FakeDiscord

AROUND = "I2 I1 J1 K1 K2 L3 L4 M4 N5 N6 O7 O8"
"""Alice's track from Northgate (I2) to Lakeview (O8): eleven mileposts, by a detour at the start."""
SHORTCUT = "I2 J2 K2"
"""Bob's track: over it Lakeview is nine mileposts from Northgate."""


async def both_keep_nothing(fake: FakeDiscord, parlor: ParlorBot) -> Table:
    alice, bob = fake.create_user("alice"), fake.create_user("bob")
    table = Table(fake, parlor, fake.channel("games"), alice, bob)
    await open_game(fake, table.channel, alice, bob)
    await table.ok(alice, "keep")
    await table.ok(bob, "keep")
    return table


@pytest.mark.xfail(strict=True, reason="the table keeps only the last 40 events of a turn and drops the "
                                       "rest silently, with no '… (earlier moves: /game log)' line")
async def test_a_long_turn_on_the_table_says_where_its_first_moves_went(fake_discord: FakeDiscord,
                                                                     parlor: ParlorBot):
    table = await both_keep_nothing(fake_discord, parlor)
    alice, bob = table.alice, table.bob
    await table.ok(alice, "build", path="I2 J2 K2")
    for user in (alice, bob, bob, alice):
        await table.ok(user, "endturn")
    await table.ok(alice, "place", city="Northgate")
    for _ in range(21):  # a player trying loads out: pick up, think again, drop
        await table.ok(alice, "pickup", load="Steel")
        board = await table.ok(alice, "drop", load="Steel")
    words = board.embed["description"]
    assert len(words) < 4000, "well within Discord's limit"
    assert "puts a train on Northgate" in words or "earlier moves: `/game log`" in words, words


