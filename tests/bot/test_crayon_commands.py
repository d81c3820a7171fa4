"""Crayon Rails commands below Discord: options to actions, autocomplete, the build preview, loss buttons."""

from __future__ import annotations

import io
import re

import pytest
from PIL import Image

from bot.frontends.crayon_rails import FRONTEND, build_target, keep_action
from cogs.crayon_rails import BuildPreviewButton
from games.core import IllegalMove, SeededRandomness
from games.crayon_rails.engine import GAME
from tests.games.crayon_rails.situations import act, card_with, demand_ids, event_id, play_state, pool_card, track
from tests.games.crayon_rails.test_turns import new_game

NAMES = {"alice": "Alice", "bob": "Bob"}


def at_westholm():
    """Alice's train at Westholm on her track to Dunmore, carrying Steel; a Steel demand in the pool."""
    steel_card, steel_demand = card_with("Steel")
    others = [pool_card(c) for c in (1, 2, 3, 4, 5) if c != steel_card][:4]
    return play_state(alice={"track": track("C8", "D8", "E8", "F8", "G8", "G9", "H9"), "at": "C8",
                             "loads": ["Steel"]},
                      pool=[pool_card(steel_card), *others]), steel_card, steel_demand


def legal(state, player="alice"):
    return GAME.legal_actions(state, player)


def test_command_options_become_actions_and_missing_ones_say_what_to_give():
    assert FRONTEND.command_action("lock", {"card": 17, "demand": 1}) == {"type": "lock", "card": 17, "demand": 1}
    assert FRONTEND.command_action("pickup", {"load": "Coal"}) == {"type": "pickup", "load": "Coal"}
    assert FRONTEND.command_action("end_turn", {}) == {"type": "end_turn"}
    assert FRONTEND.command_action("build", {"path": "C8, D8 E8"}) == {"type": "build", "path": ["C8", "D8", "E8"]}
    with pytest.raises(IllegalMove, match="Give demand: /deliver"):
        FRONTEND.command_action("deliver", {"card": 3, "demand": None})
    with pytest.raises(IllegalMove, match="not a Crayon Rails command"):
        FRONTEND.command_action("roll", {})


def test_keep_reads_card_demand_pairs():
    assert keep_action('17:0 #23=2') == {"type": "keep", "cards": {"17": 0, "23": 2}}
    assert keep_action(None) == {"type": "keep", "cards": {}}
    for wrong in ("17", "17:3", "x:1"):
        with pytest.raises(IllegalMove, match="card:demand"):
            keep_action(wrong)
    state, _ = act(new_game(), "alice", keep_action("2:1"))
    assert state.card(2).private_to == "alice"


def test_build_targets_are_mileposts_for_the_confirm_button():
    assert build_target("westholm") == "C8" and build_target("f7") == "F7"
    with pytest.raises(IllegalMove, match="neither"):
        build_target("Atlantis")
    button = BuildPreviewButton(12, 345, "1573792483186311210", "F11", "go")
    custom_id = button.item.custom_id
    assert len(custom_id) <= 100
    match = re.fullmatch(BuildPreviewButton.__discord_ui_compiled_template__, custom_id)
    assert match and match["target"] == "F11" and match["version"] == "345" and match["choice"] == "go"


def test_autocomplete_follows_the_legal_actions():
    state, steel_card, steel_demand = at_westholm()
    actions = legal(state)
    moves = FRONTEND.choices("move", "to", actions, {})
    assert ("Dunmore (6 mileposts)", "Dunmore") in moves
    builds = FRONTEND.choices("build", "to", actions, {})
    assert builds[0][0].split(":")[0] in {value for _, value in builds} and "cost" in builds[0][0]
    assert len({value for _, value in builds}) == len(builds), "each place once"
    assert ("Steel", "Steel") in FRONTEND.choices("pickup", "load", actions, {})
    assert ("Steel", "Steel") in FRONTEND.choices("drop", "load", actions, {})
    cards = FRONTEND.choices("lock", "card", actions, {})
    assert str(steel_card) in [value for _, value in cards]
    demands = FRONTEND.choices("lock", "demand", actions, {"card": steel_card})
    assert [value for _, value in demands] == [str(steel_demand)]
    assert FRONTEND.choices("deliver", "card", actions, {}) == []
    unplaced = play_state()
    assert ("Westholm", "Westholm") in FRONTEND.choices("place", "city", legal(unplaced), {})


def test_keep_autocomplete_completes_a_second_card():
    actions = legal(new_game())
    first = FRONTEND.choices("keep", "cards", actions, {"cards": ""})
    assert {value for _, value in first} == {f"{card}:{d}" for card in (1, 2, 3, 4) for d in range(3)}
    second = FRONTEND.choices("keep", "cards", actions, {"cards": "2:1 "})
    assert all(value.startswith("2:1 ") for _, value in second) and "2:1 3:0" in {v for _, v in second}
    assert not any(value.startswith("2:1 2:") for _, value in second)
    assert FRONTEND.choices("keep", "cards", actions, {"cards": "2:1 3:0 "}) == []


def test_the_preview_draws_the_proposed_track_over_the_board():
    state, *_ = at_westholm()
    state.turn.moved = 9
    events = GAME.apply(state, "alice", {"type": "build", "to": "F11"}, SeededRandomness(0))[1]
    view = GAME.view(state, None)
    text, png = FRONTEND.build_preview(view, NAMES, events, "F11")
    built = events[-1]
    assert " ".join(built["path"]) in text and f"**{built['cost']}**" in text and "Riverton" in text
    assert Image.open(io.BytesIO(png)).size == (1000, 600)
    assert png != FRONTEND.draw_board(view, NAMES)


def test_loss_buttons_offer_only_what_the_derailed_player_can_lose():
    coal_card, coal = card_with("Coal")
    iron_card, iron = card_with("Iron")
    others = [pool_card(c) for c in demand_ids(3, skip=(coal_card, iron_card))]
    state = play_state(alice={"at": "J6", "train": "heavy", "loads": ["Iron", "Cheese"]},
                       pool=[pool_card(coal_card, (("alice", coal),), "alice"), pool_card(iron_card), *others],
                       deck_ids=[event_id("derailment", "Ironhill"), 7])
    state, _ = act(state, "alice", {"type": "lock", "card": iron_card, "demand": iron})
    assert state.pending_losses == ["alice"]
    tokens = [button.token for button in FRONTEND.buttons(GAME.view(state, None))]
    assert set(tokens) == {f"give_up.card.{iron_card}", "give_up.load.Cheese"}, \
        "no private-card choice (its Coal is not aboard) and no Iron apart from its lock"
    for token in tokens:
        GAME.apply(state, "alice", FRONTEND.action_for_button(token), SeededRandomness(0))
