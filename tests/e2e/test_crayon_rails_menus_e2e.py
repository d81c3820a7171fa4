"""Crayon Rails menus through the fake Discord: keeping by menu, a build previewed on the map for the
builder alone and confirmed there, and a press by the other player refused privately."""

from __future__ import annotations

from bot.client import ParlorBot
from games.crayon_rails.routing import network
from tests.conftest import start_bot
from tests.e2e.helpers import latest_board
from tests.e2e.test_crayon_rails_e2e import Table, open_game
from tests.fakediscord import FakeDiscord
from tests.fakediscord.components import walk


def menu(message, key: str) -> dict:
    return next(c for c in walk(message.components) if c.get("custom_id", "").endswith(f":{key}"))


async def test_keep_and_build_by_menus_with_a_preview_only_the_builder_sees(fake_discord: FakeDiscord,
                                                                          parlor: ParlorBot):
    alice, bob = fake_discord.create_user("alice"), fake_discord.create_user("bob")
    channel = fake_discord.channel("games")
    table = Table(fake_discord, parlor, channel, alice, bob)
    board_message = await open_game(fake_discord, channel, alice, bob)

    keep = menu(board_message, "keep")
    refused = await fake_discord.select(bob, board_message, keep["custom_id"], [keep["options"][0]["value"]])
    assert refused.ephemeral and "alice" in refused.response.content and "not you" in refused.response.content
    chosen = await fake_discord.select(alice, board_message, keep["custom_id"], [keep["options"][0]["value"]])
    assert chosen.ephemeral and chosen.response.visible_to == alice.id and "second card" in chosen.response.content
    second = menu(chosen.response, keep["options"][0]["value"])
    alone = second["options"][0]
    assert alone["label"].startswith("Keep only")
    kept = await fake_discord.select(alice, chosen.response, second["custom_id"], [alone["value"]])
    assert (await table.view())["players"][0]["markers"] == 2, kept
    after = latest_board(fake_discord, channel)
    none = after.button(label="Keep none")
    await fake_discord.click(bob, after, none["custom_id"])
    assert (await table.view())["phase"] == "initial-build"

    table_message = latest_board(fake_discord, channel)
    build = menu(table_message, "build")
    target = build["options"][0]
    shown = await fake_discord.select(alice, table_message, build["custom_id"], [target["value"]])
    preview = shown.response
    assert shown.ephemeral and preview.visible_to == alice.id
    assert preview.attachment("step.png").data.startswith(b"\x89PNG"), "the proposed track is drawn"
    assert "**" in preview.content and "cash 50, leaving" in preview.content
    confirm = preview.button(label="Confirm build")
    done = await fake_discord.click(alice, preview, confirm["custom_id"])
    assert not (done.ephemeral and "not" in (done.response.content or "")), done.response.content
    me = (await table.state()).player(str(alice.id))
    assert network(me) and me.cash < 50
    assert "builds" in latest_board(fake_discord, channel).embed["description"]


async def test_menus_and_a_build_preview_still_work_after_a_restart(fake_discord: FakeDiscord, tmp_path):
    alice, bob = fake_discord.create_user("alice"), fake_discord.create_user("bob")
    channel = fake_discord.channel("games")
    database = str(tmp_path / "parlor.sqlite3")
    first, _ = await start_bot(fake_discord, database)
    table = Table(fake_discord, first, channel, alice, bob)
    await open_game(fake_discord, channel, alice, bob)
    await table.ok(alice, "keep")
    await table.ok(bob, "keep")
    table_message = latest_board(fake_discord, channel)
    build = menu(table_message, "build")
    shown = await fake_discord.select(alice, table_message, build["custom_id"], [build["options"][0]["value"]])
    preview = shown.response
    await first.close()

    identified = fake_discord.gateway.identify_count
    second, _ = await start_bot(fake_discord, database)
    try:
        await fake_discord.wait_for(lambda: fake_discord.gateway.identify_count > identified
                                    and fake_discord.gateway.connected, timeout=10, what="the restarted bot")
        table.bot = second
        confirmed = await fake_discord.click(alice, preview, preview.button(label="Confirm build")["custom_id"])
        assert not (confirmed.ephemeral and "not" in (confirmed.response.content or "")), confirmed.response.content
        assert network((await table.state()).player(str(alice.id))), "the previewed track was built"
        again = latest_board(fake_discord, channel)
        end = again.button(label="End turn")
        refused = await fake_discord.click(bob, again, end["custom_id"])
        assert refused.ephemeral and "not you" in refused.response.content
        ended = await fake_discord.click(alice, again, end["custom_id"])
        assert not ended.ephemeral and (await table.state()).turn.player == str(bob.id)
    finally:
        await second.close()
