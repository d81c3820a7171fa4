"""Every interaction is answered: autocompletes in a lobby, and controls whose ids Parlor cannot use (issue 42).

Autocomplete in a channel whose game is still a lobby answers an empty list (nothing to choose yet), with
no traceback in the logs: Discord would otherwise show "Loading options failed".
"""

from __future__ import annotations

import logging

import pytest

from tests.e2e.helpers import table

LOBBY_OPTIONS = [
    ("move", "to"), ("move", "pawn"), ("place", "city"), ("keep", "cards"), ("build", "to"), ("pickup", "load"),
    ("drop", "load"), ("lock", "card"), ("lock", "demand"), ("deliver", "card"), ("deliver", "demand"),
    ("jump", "pawn"), ("jump", "path"), ("score", "box"),
]


@pytest.mark.parametrize("slug", ["crayon-rails", "follow-the-arrow"])
async def test_every_autocomplete_in_a_lobby_answers_nothing_to_choose_yet(fake_discord, parlor, caplog, slug):
    fake = fake_discord
    alice = fake.create_user("alice")
    channel = fake.channel("games")
    await fake.slash(alice, "game start", channel=channel, game=slug)
    assert (await parlor.host.last_session_in(str(channel.id))).status == "lobby"
    table(fake, channel)
    caplog.set_level(logging.INFO)
    for command, option in LOBBY_OPTIONS:
        choices = await fake.autocomplete(alice, command, channel=channel, focused=option)
        assert choices == [], f"/{command} {option} offered {choices} in a lobby"
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, [r.getMessage() for r in errors]
    fake.assert_nothing_refused()
