"""QA (qa-rails): Crayon Rails as new players meet it, through the fake Discord. Each test is a defect
found by playing, marked xfail(strict) until it is fixed."""

from __future__ import annotations

import pytest

from bot.client import ParlorBot
from tests.e2e.helpers import latest_board
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


@pytest.mark.xfail(strict=True, reason="after a Flood, /build to: a city on a cut-off piece previews the link "
                                       "that rejoins it as going 'toward' it, 'the rest on a later turn', when "
                                       "the link joins it at once")
async def test_rejoining_a_piece_cut_off_by_a_flood_is_previewed_as_joining_it(fake_discord: FakeDiscord,
                                                                             parlor: ParlorBot):
    parlor.host._seed_source = lambda: 47  # the first card drawn in play is the Flood of the Amber
    table = await both_keep_nothing(fake_discord, parlor)
    alice, bob = table.alice, table.bob
    await table.ok(alice, "build", path="I2 I3 I4 J5 J6 I6 I7 I8 H8 H9")  # Northgate, Ironhill, over the Amber, Dunmore
    for user in (alice, bob, bob, alice):
        await table.ok(user, "endturn")
    flooded = await table.ok(alice, "pitch")
    assert "flood** at the Amber" in flooded.embed["description"]
    assert "7 sections in 2 pieces: one joining Northgate (major) and Ironhill; one from Dunmore" \
        in flooded.embed["description"]
    await table.ok(alice, "endturn")
    await table.ok(bob, "endturn")
    shown = await table.preview(alice, "Dunmore")
    words = shown.response.embed["description"]
    assert words.startswith("Build 1 section from I7 to H8"), words
    assert "later turn" not in words, f"H8 is on Dunmore's piece: this one section joins Dunmore: {words}"
    await fake_discord.click(alice, shown.response, shown.response.button(label="Confirm")["custom_id"])
    joined = latest_board(fake_discord, table.channel).embed["description"]
    assert "8 sections joining Northgate (major), Dunmore and Ironhill" in joined, joined


