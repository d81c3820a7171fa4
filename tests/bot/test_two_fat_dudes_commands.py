"""Two Fat Dudes commands below Discord: options to actions, the counter form's amount, the Counter… form button."""

from __future__ import annotations

import re

import discord
import pytest

from bot.discord.buttons import ActionButton
from bot.discord.components import FormButton
from bot.discord.replies import board_components
from bot.presentation.frontends.two_fat_dudes import FRONTEND, counter_from_text
from bot.storage.store import Seat, SessionRecord
from cogs.two_fat_dudes import SLUG
from games.core import IllegalMove, SeededRandomness
from games.two_fat_dudes import GAME, Offer, TwoFatDudesState

A, B = "1001", "1002"


def encounter(offer: Offer | None) -> TwoFatDudesState:
    return TwoFatDudesState(players=[A, B], phase="encounter", positions=[4, 5], start_player=0, edge=1,
                            turn=0, encounters=1, decider=0, offer=offer)


def session_of(state: TwoFatDudesState) -> SessionRecord:
    return SessionRecord(id=7, guild_id="1", channel_id="2", slug=SLUG, status="active", creator=A,
                         players=[Seat(id=A, name="alice"), Seat(id=B, name="bob")], invited=[], options={},
                         setup_outcomes=None, state=state.model_dump_json(), version=31, result=None,
                         end_reason=None, created_at=0.0, updated_at=0.0)


@pytest.mark.parametrize(("command", "options", "action"), [
    ("offer", {"points": 18}, {"type": "offer", "points": 18}),
    ("counter", {"points": 0}, {"type": "counter", "points": 0}),
    ("accept", {}, {"type": "accept"}),
    ("decline", {}, {"type": "decline"}),
    ("pass", {}, {"type": "pass"}),
    ("edge", {"choice": "send_back"}, {"type": "edge", "choice": "send_back"}),
])
def test_commands_become_the_engines_actions(command, options, action):
    assert FRONTEND.command_action(command, options) == action


def test_command_actions_are_accepted_by_the_engine():
    offered, _ = GAME.apply(encounter(None), A, FRONTEND.command_action("offer", {"points": 18}),
                            SeededRandomness(0))
    countered, _ = GAME.apply(offered, B, FRONTEND.command_action("counter", {"points": 23}), SeededRandomness(0))
    assert countered.offer == Offer(payer=0, points=23, proposed_by=1)


@pytest.mark.parametrize(("command", "options", "hint"), [
    ("offer", {}, "/negotiate offer points:"),
    ("counter", {"points": -2}, "whole number"),
    ("counter", {"points": True}, "whole number"),
    ("edge", {"choice": "jump"}, "/edge choice:retreat"),
    ("roll", {}, "not a Two Fat Dudes command"),
])
def test_bad_command_options_say_what_to_give(command, options, hint):
    with pytest.raises(IllegalMove, match=re.escape(hint)):
        FRONTEND.command_action(command, options)


def test_the_counter_form_takes_digits_only():
    assert counter_from_text(" 23 ") == {"type": "counter", "points": 23}
    assert counter_from_text("0") == {"type": "counter", "points": 0}
    for typed in ("", "-3", "12 points", "1.5", "١٢"):
        with pytest.raises(IllegalMove, match="not a whole number of points: press"):
            counter_from_text(typed)


def test_the_board_draws_plain_buttons_and_a_form_button_for_the_counter():
    state = encounter(Offer(payer=0, points=5, proposed_by=0))
    legal = {player: GAME.legal_actions(state, player) for player in state.players}
    view: discord.ui.View = board_components(session_of(state), GAME.view(state, None), legal)
    items = {item.item.label: item for item in view.children}  # type: ignore[attr-defined]
    assert list(items) == ["Accept", "Decline", "Counter…"]
    assert isinstance(items["Counter…"], FormButton) and items["Counter…"].version == 31
    assert items["Counter…"].item.custom_id == "parlor:form:7:31:counter"
    assert isinstance(items["Accept"], ActionButton) and items["Accept"].token == "accept"
