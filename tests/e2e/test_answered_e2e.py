"""Every interaction is answered: autocompletes in a lobby, and controls whose ids Parlor cannot use (issue 42).

Autocomplete in a channel whose game is still a lobby answers an empty list (nothing to choose yet), with
no traceback in the logs: Discord would otherwise show "Loading options failed". A control whose id matches
one of Parlor's templates but not its kind, names another game, or a number beyond 2^63 (forged here: Discord
sends none today) is answered privately as out of date, changing nothing (bot.discord.control_ids).
"""

from __future__ import annotations

import logging

import pytest

from bot.discord.control_ids import OUT_OF_DATE
from tests.e2e.helpers import begun_by_buttons, table
from tests.fakediscord import FakeDiscord, interactions
from tests.fakediscord.components import BUTTON, STRING_SELECT
from tests.fakediscord.interactions import InteractionResult
from tests.fakediscord.state import FakeChannel, FakeMessage, FakeUser

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


def _row(component: dict) -> list[dict]:
    return [{"type": 1, "components": [component]}]


def _button(custom_id: str) -> dict:
    return {"type": BUTTON, "style": 1, "label": "Press", "custom_id": custom_id}


def _select(custom_id: str, *values: str) -> dict:
    return {"type": STRING_SELECT, "custom_id": custom_id, "min_values": 1, "max_values": 1,
            "options": [{"label": value, "value": value} for value in values]}


async def _forged_press(fake: FakeDiscord, user: FakeUser, channel: FakeChannel, component: dict) -> InteractionResult:
    """`user` uses `component` on a message of the bot's that carries it: an id Parlor never drew there."""
    message = fake.world.add_message(FakeMessage(id=fake.world.snowflake(), channel_id=channel.id,
                                                 author_id=fake.bot_user.id, content="forged",
                                                 components=_row(component)))
    data: dict = {"custom_id": component["custom_id"], "component_type": component["type"]}
    if component["type"] == STRING_SELECT:
        data["values"] = [component["options"][-1]["value"]]
    result = interactions.new_result(fake.world, interactions.MESSAGE_COMPONENT, user, channel, data,
                                     source_message=message)
    return await fake._run(result, None, f"forged {component['custom_id']!r}")


async def test_controls_parlor_cannot_use_are_answered_out_of_date_with_no_traceback(fake_discord, parlor, caplog):
    fake = fake_discord
    alice, bob = fake.create_user("alice"), fake.create_user("bob")
    channel = fake.channel("games")
    await begun_by_buttons(fake, channel, "john-henry", alice, [bob])
    session = await parlor.host.last_session_in(str(channel.id))
    s, v, huge = session.id, session.version, 2**63 + 5
    controls = [
        _select(f"parlor:act:{s}:{v}:roll", "roll"),  # a button's id on a select menu
        _button(f"parlor:sel:{s}:{v}:pawn"),  # a select's id on a button
        _select(f"parlor:form:{s}:{v}:offer", "x"),  # a form's button as a select menu
        _button(f"parlor:johari-hand:{s}"),  # a Johari Bones control on a John Henry game
        _button(f"parlor:crayon-build:{s}:{v}:{alice.id}:A1:go"),  # a Crayon Rails one
        _select(f"parlor:johari-pick:{alice.id}", str(s)),
        _select(f"parlor:johari-pick:{alice.id}", str(huge)),
        _button(f"parlor:act:{huge}:1:roll"),  # session numbers beyond 2^63
        _button(f"parlor:undo:{huge}:1"),
        _button(f"parlor:lobby:{huge}:join"),
        _button(f"parlor:table:{huge}:rematch"),
        _button(f"parlor:replay:{huge}"),
    ]
    caplog.set_level(logging.INFO)
    for component in controls:
        answered = await _forged_press(fake, alice, channel, component)
        assert answered.ephemeral and answered.response.content == OUT_OF_DATE, (component["custom_id"],
                                                                                answered.text)
    assert (await parlor.host.last_session_in(str(channel.id))).version == v, "nothing changed"
    errors = [r for r in caplog.records if r.levelno >= logging.WARNING and r.name.startswith(("bot", "cogs",
                                                                                                "discord"))]
    assert not errors, [r.getMessage() for r in errors]
    fake.assert_nothing_refused()
