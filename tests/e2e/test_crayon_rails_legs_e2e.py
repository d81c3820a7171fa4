"""A Crayon Rails train runs a whole leg in one menu choice, through the fake Discord (issue 21, item 2).

Alice builds Northgate to Lakeview, nine mileposts of clear track, places her train at Northgate, and
one choice in the table's **Move to…** menu takes it all the way; `/move to:` typed does the same.
"""

from __future__ import annotations

from bot.client import ParlorBot
from tests.e2e.helpers import latest_board
from tests.e2e.test_crayon_rails_e2e import Table, open_game
from tests.e2e.test_crayon_rails_menus_e2e import menu
from tests.fakediscord import FakeDiscord

TO_LAKEVIEW = "I2 J2 K2 L3 L4 M4 N5 N6 O7 O8"


async def at_northgate(fake: FakeDiscord, parlor: ParlorBot) -> Table:
    """Setup keeps nothing, Alice builds Northgate-Lakeview, and her train stands at Northgate."""
    alice, bob = fake.create_user("alice"), fake.create_user("bob")
    table = Table(fake, parlor, fake.channel("games"), alice, bob)
    await open_game(fake, table.channel, alice, bob)
    await table.ok(alice, "keep")
    await table.ok(bob, "keep")
    await table.ok(alice, "build", path=TO_LAKEVIEW)
    for user in (alice, bob, bob, alice):
        await table.ok(user, "endturn")
    assert (await table.state()).phase == "play"
    await table.ok(alice, "place", city="Northgate")
    return table


async def test_a_city_nine_mileposts_away_is_one_menu_choice(fake_discord: FakeDiscord, parlor: ParlorBot):
    table = await at_northgate(fake_discord, parlor)
    alice, channel = table.alice, table.channel

    board_message = latest_board(fake_discord, channel)
    assert "train at Northgate (I2)" in board_message.embed["description"], "one \"at\", where the train stands"
    move = menu(board_message, "move")
    option = next(o for o in move["options"] if o["label"].startswith("Lakeview"))
    assert option["label"] == "Lakeview (O8): 9 mileposts"
    assert len(move["options"]) == 9, "Lakeview and the eight mileposts on the way, each one choice"
    chosen = await fake_discord.select(alice, board_message, move["custom_id"], [option["value"]])
    assert not chosen.ephemeral, chosen.response.content
    me = (await table.state()).player(str(alice.id))
    assert me.at == "O8" and (await table.state()).turn.moves_left == 0
    assert "moves to Lakeview (O8)" in latest_board(fake_discord, channel).embed["description"]


async def test_move_to_typed_runs_the_same_leg(fake_discord: FakeDiscord, parlor: ParlorBot):
    table = await at_northgate(fake_discord, parlor)
    alice = table.alice
    offered = await table.choices(alice, "move", "to", to="Lake")
    assert offered and offered[0]["name"] == "Lakeview (O8): 9 mileposts" and offered[0]["value"] == "Lakeview"
    await table.ok(alice, "move", to="Lakeview")
    assert (await table.state()).player(str(alice.id)).at == "O8"
