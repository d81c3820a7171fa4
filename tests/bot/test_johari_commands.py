"""Johari Bones commands below Discord: /score's box, the private reply and the buttons' custom_ids."""

from __future__ import annotations

import re

import pytest

from bot.host import UserError
from bot.store import Seat, SessionRecord
from cogs.johari_bones import SLUG, DrawButton, GamePicker, PlaceButton, ShowBonesButton, box_action, private_reply
from games.core import ScriptedRandomness
from games.johari_bones import BONES, GAME, State

A, B, C = "1001", "1002", "1003"
BONE = re.compile(r"(?<![\w-])\d-\d(?![\w-])")


def dealt() -> State:
    return GAME.new_game([A, B, C], ScriptedRandomness(shuffles=[list(BONES)]))


def session_of(state: State) -> SessionRecord:
    return SessionRecord(id=7, guild_id="1", channel_id="2", slug=SLUG, status="active", creator=A,
                         players=[Seat(id=A, name="alice"), Seat(id=B, name="bob"), Seat(id=C, name="carol")],
                         invited=[], options={}, setup_outcomes=None, state=state.model_dump_json(), version=4,
                         result=None, end_reason=None, created_at=0.0, updated_at=0.0)


def test_score_takes_a_box_and_refuses_anything_else_with_the_list():
    assert box_action("full_house") == {"type": "score", "box": "full_house"}
    with pytest.raises(UserError, match="run5"):
        box_action("yahtzee")


async def test_the_drawer_alone_gets_placement_buttons_that_name_no_bone():
    state, _ = GAME.apply(dealt(), A, {"type": "draw"}, ScriptedRandomness())
    session = session_of(state)
    reply = await private_reply(session, GAME.view(state, A), A)
    buttons = reply["view"].children
    assert reply["ephemeral"] and reply["file"].filename == "your-view.png"
    assert [b.item.label for b in buttons] == ["My face in", "My face up", "bob's face out", "bob's face up",
                                              "carol's face out", "carol's face up"]
    assert not any(BONE.search(f"{b.item.label} {b.item.custom_id}") for b in buttons)
    assert state.drawn in reply["content"]
    other = await private_reply(session, GAME.view(state, B), B)
    assert other["view"].children == []
    assert state.drawn not in other["content"]


@pytest.mark.parametrize("item", [
    DrawButton(7, 4), ShowBonesButton(7), PlaceButton(7, 4, B, "out", label="bob's face out"), GamePicker(A),
])
def test_custom_ids_match_their_own_templates(item):
    assert item.__discord_ui_compiled_template__.fullmatch(item.item.custom_id)
