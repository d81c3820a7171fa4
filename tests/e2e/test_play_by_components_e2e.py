"""Each game played to its end through the fake Discord by players who only press what they see.

See tests/e2e/random_play.py for the harness and its checks. The seeds vary the random choices; the
dice are the bot's own (random), so every run is a different game.
"""

from __future__ import annotations

import random

import pytest

from bot.client import ParlorBot
from tests.conftest import start_bot
from tests.e2e.random_play import RandomPlay
from tests.fakediscord import FakeDiscord


async def play(fake: FakeDiscord, bot: ParlorBot, slug: str, players: int, seed: int) -> RandomPlay:
    channel = fake.create_channel(f"{slug}-by-components")
    users = [fake.create_user(name) for name in ("alice", "bob", "carol", "dave")[:players]]
    game = RandomPlay(fake, bot, channel, users, random.Random(seed), undo_share=0.05)
    await game.open(slug)
    await game.play_to_the_end()
    session = await game.session()
    assert session.status == "finished" and session.end_reason == "played out"
    assert game.moves_seen > 0 and game.kinds.get("button", 0) + game.kinds.get("select", 0) > 0
    assert slug not in ("follow-the-arrow", "johari-bones") or game.kinds.get("undo", 0) > 0, "Undo was pressed"
    return game


@pytest.mark.parametrize("seed", [1, 2])
async def test_john_henry_is_played_to_the_end_by_buttons(fake_discord, parlor, seed) -> None:
    game = await play(fake_discord, parlor, "john-henry", 2, seed)
    assert game.kinds["button"] > 0


@pytest.mark.parametrize("seed", [3, 4])
async def test_follow_the_arrow_is_played_to_the_end_by_menus(fake_discord, parlor, seed) -> None:
    game = await play(fake_discord, parlor, "follow-the-arrow", 2, seed)
    assert game.kinds["select"] > 0


@pytest.mark.parametrize("seed", [5, 6])
async def test_two_fat_dudes_is_played_to_the_end_by_buttons_and_forms(fake_discord, parlor, seed) -> None:
    await play(fake_discord, parlor, "two-fat-dudes", 2, seed)


async def test_a_form_opened_before_a_restart_is_answered_after_it(fake_discord, tmp_path) -> None:
    database = str(tmp_path / "parlor.sqlite3")
    first, _ = await start_bot(fake_discord, database)
    channel = fake_discord.create_channel("restart")
    users = [fake_discord.create_user(name) for name in ("alice", "bob")]
    try:
        game = RandomPlay(fake_discord, first, channel, users, random.Random(7))
        await game.open("two-fat-dudes")
        while (view := first.host.public_view(await game.session()))["phase"] != "encounter":
            assert view["phase"] != "over", "the dudes always meet"
            roller = next(u for u in users if str(u.id) == view["to_act"][0])
            table = game.table()
            await fake_discord.click(roller, table, table.button(label="Roll")["custom_id"])
        decider = next(u for u in users if str(u.id) == view["to_act"][0])
        table = game.table()
        opened = await fake_discord.click(decider, table, table.button(label="Offer…")["custom_id"])
        assert opened.modal is not None and opened.modal["title"] == "Offer points to pass"
    finally:
        await first.close()

    second, _ = await start_bot(fake_discord, database)
    try:
        offered = await fake_discord.submit_modal(decider, opened, {"points": "13"})
        assert not offered.ephemeral, offered.response.content
        session = await second.host.last_session_in(str(channel.id))
        assert second.host.public_view(session)["offer"]["points"] == 13
        assert "offers" in game.table().embed["description"]
    finally:
        await second.close()
    fake_discord.assert_no_unknown_routes()


@pytest.mark.parametrize(("players", "seed"), [(2, 8), (3, 9)])
async def test_johari_bones_is_played_to_the_end_by_buttons_and_menus(fake_discord, parlor, players, seed) -> None:
    game = await play(fake_discord, parlor, "johari-bones", players, seed)
    assert game.kinds["select"] > 0
