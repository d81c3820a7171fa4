"""Each game played to its end through the fake Discord by players who only press what they see.

See tests/e2e/random_play.py for the harness and its checks. The seeds vary the random choices; the
dice are the bot's own (random), so every run is a different game.
"""

from __future__ import annotations

import random

import pytest

from bot.client import ParlorBot
from tests.e2e.random_play import RandomPlay
from tests.fakediscord import FakeDiscord


async def play(fake: FakeDiscord, bot: ParlorBot, slug: str, players: int, seed: int) -> RandomPlay:
    channel = fake.create_channel(f"{slug}-by-components")
    users = [fake.create_user(name) for name in ("alice", "bob", "carol", "dave")[:players]]
    game = RandomPlay(fake, bot, channel, users, random.Random(seed))
    await game.open(slug)
    await game.play_to_the_end()
    session = await game.session()
    assert session.status == "finished" and session.end_reason == "played out"
    assert game.moves_seen > 0 and game.kinds.get("button", 0) + game.kinds.get("select", 0) > 0
    return game


@pytest.mark.parametrize("seed", [1, 2])
async def test_john_henry_is_played_to_the_end_by_buttons(fake_discord, parlor, seed) -> None:
    game = await play(fake_discord, parlor, "john-henry", 2, seed)
    assert game.kinds["button"] > 0


@pytest.mark.parametrize("seed", [3, 4])
async def test_follow_the_arrow_is_played_to_the_end_by_menus(fake_discord, parlor, seed) -> None:
    game = await play(fake_discord, parlor, "follow-the-arrow", 2, seed)
    assert game.kinds["select"] > 0
