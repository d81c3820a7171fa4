"""Crayon Rails played to its end by pressing only the components each player sees, chosen at random.

The harness (tests/e2e/random_play.py) checks every press: accepted, or refused only because the
component is someone else's; every message within Discord's limits. Random play would almost never
earn 100 cash (a random upgrade or detour spends it all), so this game is opened through the host, as
`/game start` would, with the game's options at their easiest: no cash target and one major city
joined. Everything after that is pressed: keeps, builds with their Confirm, the train, the end.
"""

from __future__ import annotations

import itertools
import random

import pytest

from bot.client import ParlorBot
from bot.storage.store import Seat
from tests.e2e.random_play import RandomPlay
from tests.fakediscord import FakeDiscord

SLUG = "crayon-rails"


@pytest.mark.parametrize("seed", [3, 4])
async def test_crayon_rails_is_played_to_the_end_by_menus_and_buttons(fake_discord: FakeDiscord, parlor: ParlorBot,
                                                                       seed: int) -> None:
    # The dice too come from the seed, so that a game that fails can be played again exactly.
    parlor.host._seed_source = itertools.count(seed * 1000).__next__
    channel = fake_discord.create_channel(f"rails-by-components-{seed}")
    alice, bob = fake_discord.create_user("alice"), fake_discord.create_user("bob")
    await parlor.host.open_lobby(guild_id=str(fake_discord.world.guild.id), channel_id=str(channel.id), slug=SLUG,
                                 creator=Seat(id=str(alice.id), name="alice"),
                                 options={"target_cash": 0, "major_cities": 1})
    joined = await fake_discord.slash(bob, "game join", channel=channel)
    assert not joined.ephemeral, joined.response.content
    game = RandomPlay(fake_discord, parlor, channel, [alice, bob], random.Random(seed))
    await game.play_to_the_end(max_presses=3000)
    session = await game.session()
    assert session.status == "finished" and session.result["winners"]
    assert game.kinds.get("select", 0) > 0 and game.kinds.get("button", 0) > 0
    moves = [move.action["type"] for move in await parlor.host.moves(session)]
    assert {"keep", "build", "end_turn"} <= set(moves), moves
