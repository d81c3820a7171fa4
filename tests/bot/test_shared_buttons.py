"""A button drawn for an earlier version still acts for a player whose own action it offered."""

from __future__ import annotations

import pytest

from bot.play.host import STALE_BUTTON, UserError
from tests.bot.conftest import ALICE, BOB
from tests.bot.waiting import start_game

CHANNEL = "900"


async def test_both_players_of_a_roll_off_may_press_the_same_roll(host):
    session_id = await start_game(host, "john-henry", CHANNEL, [ALICE, BOB])
    drawn = (await host.session(session_id)).version
    assert set(host.to_act(await host.session(session_id))) == {ALICE.id, BOB.id}

    await host.act(session_id, ALICE.id, {"type": "roll"}, expected_version=drawn)
    second = await host.act(session_id, BOB.id, {"type": "roll"}, expected_version=drawn)
    assert second.session.version == drawn + 2, "Bob's press of the same Roll was his own roll"

    with pytest.raises(UserError) as refused:
        await host.act(session_id, ALICE.id, {"type": "roll"}, expected_version=drawn)
    assert refused.value.message == STALE_BUTTON, "Alice has used that button's roll already"


async def test_an_old_button_does_not_act_for_a_player_it_was_not_offered_to(host):
    session_id = await start_game(host, "follow-the-arrow", CHANNEL, [ALICE, BOB], options={"first": ALICE.id})
    session = await host.session(session_id)
    drawn = session.version
    while ALICE.id in host.to_act(session):
        await host.act(session_id, ALICE.id, host.legal_actions(session, ALICE.id)[0])
        session = await host.session(session_id)
    assert BOB.id in host.to_act(session)

    with pytest.raises(UserError) as refused:
        await host.act(session_id, BOB.id, host.legal_actions(session, BOB.id)[0], expected_version=drawn)
    assert refused.value.message == STALE_BUTTON, "when it was drawn, that button was Alice's"
    assert (await host.session(session_id)).version == session.version


async def test_a_button_from_the_future_or_before_the_game_began_is_stale(host):
    session_id = await start_game(host, "john-henry", CHANNEL, [ALICE, BOB])
    session = await host.session(session_id)
    for version in (session.version + 1, 0):
        with pytest.raises(UserError, match="earlier turn"):
            await host.act(session_id, ALICE.id, {"type": "roll"}, expected_version=version)
