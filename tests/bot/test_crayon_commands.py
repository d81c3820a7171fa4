"""Crayon Rails commands below Discord: options to actions, autocomplete, the build preview, loss buttons."""

from __future__ import annotations

import io
import re

import pytest
from PIL import Image

from bot.presentation.frontends.crayon_components import _preview_step
from bot.presentation.frontends.crayon_rails import FRONTEND, build_target, keep_action
from cogs.crayon_rails import BuildPreviewButton
from games.core import IllegalMove, SeededRandomness
from games.crayon_rails.engine import GAME
from tests.games.crayon_rails.situations import act, card_with, demand_ids, event_id, play_state, pool_card, track
from tests.games.crayon_rails.test_frontend import offered_tokens
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
    moves = FRONTEND.choices("move", "to", actions, {}, GAME.view(state, None), "alice")
    assert ("Dunmore (H9): 6 mileposts", "Dunmore") in moves
    builds = FRONTEND.choices("build", "to", actions, {})
    assert builds[0][1] in {"Northgate", "Eastbay", "Southport"} and "suggested" in builds[0][0], \
        "the majors Alice has not joined come first"
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
    events = GAME.apply(state, "alice", {"type": "build", "toward": "F11"}, SeededRandomness(0))[1]
    view = GAME.view(state, None)
    text, png = FRONTEND.build_preview_text(view, events, "F11"), FRONTEND.build_preview_picture(view, NAMES, events)
    built = events[-1]
    assert " ".join(built["path"]) in text and f"**{built['cost']}**" in text and "Riverton" in text
    assert _preview_step(view, "alice", "F11").text == text, "the menu's preview says the same in the same words"
    assert Image.open(io.BytesIO(png)).width == 600
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
    tokens = offered_tokens(state)
    assert set(tokens) == {f"give_up.card.{iron_card}", "give_up.load.Cheese"}, \
        "no private-card choice (its Coal is not aboard) and no Iron apart from its lock"
    for token in tokens:
        GAME.apply(state, "alice", FRONTEND.action_for_button(token), SeededRandomness(0))


def test_keep_refuses_a_card_named_twice():
    with pytest.raises(IllegalMove, match="Card 7 is named twice"):
        keep_action("7:0 7:2")
    assert keep_action("7:0 8:2") == {"type": "keep", "cards": {"7": 0, "8": 2}}


def test_narration_names_cities_with_their_mileposts():
    state, *_ = at_westholm()
    _, events = act(state, "alice", {"type": "move", "toward": "Dunmore"})
    assert "moves to Dunmore (H9)" in " ".join(FRONTEND.describe_events(events, NAMES))
    _, events = act(state, "alice", {"type": "move", "path": ["D8"]})
    assert "moves to D8." in " ".join(FRONTEND.describe_events(events, NAMES))
    _, events = act(state, "alice", {"type": "build", "toward": "Riverton"})
    line = " ".join(FRONTEND.describe_events(events, NAMES))
    assert "to Riverton (F11)" in line and "from " in line


def test_cities_lists_each_city_with_milepost_supplies_and_open_demands():
    from bot.presentation.frontends.crayon_cities import cities_text, city_choices
    from games.crayon_rails.cards import demand_card
    from games.crayon_rails.mapdata import board

    state, steel_card, steel_demand = at_westholm()
    kept_card = demand_ids(8)[-1]
    state.pool.append(pool_card(kept_card, (("alice", 0),), "alice"))
    bobs = demand_ids(9)[-1]
    state.pool.append(pool_card(bobs, (("bob", 1),), "bob"))
    view = GAME.view(state, None)
    text = cities_text(view, "alice", NAMES)
    for city in board().cities.values():
        line = next(line for line in text.splitlines() if line.startswith(f"**{city.name}**"))
        assert city.at in line and all(load in line for load in city.supplies)
    wanted = demand_card(steel_card).demands[steel_demand]
    city_line = next(line for line in text.splitlines() if line.startswith(f"**{wanted.city}**"))
    assert f"{wanted.load} {wanted.payoff} (#{steel_card} pool" in city_line
    kept = demand_card(kept_card).demands[0]
    assert f"#{kept_card} your card" in text and f"{kept.load} {kept.payoff}" in text
    assert f"#{bobs} " not in text, "the other player's kept card is not an open demand for Alice"
    northgate_line = next(line for line in text.splitlines() if line.startswith("**Northgate**"))
    assert "your goal**: a major city you have not joined" in northgate_line
    one = cities_text(view, "alice", NAMES, wanted.city)
    assert one.startswith(f"**{wanted.city}**") and "supplied by" in one
    northgate = cities_text(view, "alice", NAMES, "Northgate")
    assert "Your goal: a major city you have not joined." in northgate and "of track from your network" in northgate
    dunmore = cities_text(view, "alice", NAMES, "dunmore")
    assert "On your track." in dunmore and "Your train is 6 mileposts away" in dunmore
    assert "There is no city" in cities_text(view, "alice", NAMES, "Atlantis")
    assert ("Northgate (I2): Steel", "Northgate") in city_choices("steel")


def test_cities_tells_the_other_player_his_own_way_not_one_worked_out_with_the_turn_of_the_player_to_act():
    """Bob's way home from Lakeview runs over Alice's track; that Alice paid a fee and ran her train this
    turn changes neither his fee nor his route."""
    from bot.presentation.frontends.crayon_cities import cities_text

    around = ("I2", "I1", "J1", "K1", "K2", "L3", "L4", "M4", "N5", "N6", "O7", "O8")
    state = play_state(alice={"track": track(*around), "at": "O8"}, bob={"track": track("I2", "J2", "K2"), "at": "O8"},
                       fee_paid=True, moved=9)
    answer = cities_text(GAME.view(state, "bob"), "bob", NAMES, "Northgate")
    assert "Your train is 9 mileposts away along track (with a fee of 4)." in answer, answer
