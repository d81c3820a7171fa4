"""Johari Bones commands below Discord: /score's box, the private reply and the buttons' custom_ids."""

from __future__ import annotations

import re

import pytest

from bot.play.host import UserError
from bot.storage.store import Seat, SessionRecord
from cogs.johari_bones import SLUG, GamePicker, ShowBonesButton, box_action, private_reply
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


@pytest.mark.parametrize(("typed", "box"), [("full_house", "full_house"), ("Full House", "full_house"),
                                            ("full house", "full_house"), ("4 Run", "run4"), ("run5", "run5"),
                                            ("CHANCE", "chance"), ("Sixes", "sixes")])
def test_score_takes_a_box_as_the_player_sees_it(typed, box):
    assert box_action(typed) == {"type": "score", "box": box}


def test_score_refuses_anything_else_with_the_list_as_shown():
    with pytest.raises(UserError, match="Full House, 4 Run, 5 Run"):
        box_action("yahtzee")


def legal(state: State) -> dict[str, list[dict]]:
    return {player: GAME.legal_actions(state, player) for player in state.players}


async def test_the_drawer_alone_gets_placement_buttons_that_name_no_bone():
    state, _ = GAME.apply(dealt(), A, {"type": "draw"}, ScriptedRandomness())
    session = session_of(state)
    reply = await private_reply(session, GAME.view(state, A), A, legal(state))
    buttons = reply["view"].children
    assert reply["ephemeral"] and reply["file"].filename == "your-view.png"
    assert [b.item.label for b in buttons] == ["My face in", "My face up", "bob's face out", "bob's face up",
                                              "carol's face out", "carol's face up"]
    assert not any(BONE.search(f"{b.item.label} {b.item.custom_id}") for b in buttons)
    assert state.drawn in reply["content"]
    other = await private_reply(session, GAME.view(state, B), B, legal(state))
    assert other["view"].children == []
    assert state.drawn not in other["content"]


async def test_at_scoring_time_the_private_reply_offers_each_open_box_with_its_score():
    state = dealt()
    for _ in range(9):
        player = GAME.to_act(state)[0]
        state, _ = GAME.apply(state, player, {"type": "swap", "kind": "up", "with": next(
            p for p in state.players if p != player)}, ScriptedRandomness())
    assert GAME.view(state, None)["phase"] == "scoring"
    reply = await private_reply(session_of(state), GAME.view(state, A), A, legal(state))
    menu = reply["view"].children[0].item
    labels = [option.label for option in menu.options]
    assert len(labels) == 10 and any(label.startswith("Full House: ") for label in labels)
    assert [option.value for option in menu.options][6] == "score.full_house"


@pytest.mark.parametrize("item", [ShowBonesButton(7), GamePicker(A)])
def test_custom_ids_match_their_own_templates(item):
    assert item.__discord_ui_compiled_template__.fullmatch(item.item.custom_id)
