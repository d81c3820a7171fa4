"""Follow the Arrow: one test per rule and ruling of rules/follow-the-arrow.md, plus random games."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import GAMES
from games.core import IllegalMove, ScriptedRandomness, SeededRandomness
from games.follow_the_arrow import GAME, ArrowState, _occupants
from games.follow_the_arrow_board import ARROWS, CIRCLES, half_turn, opposite, step

PLAYERS = ["alice", "bob"]
NO_DICE = ScriptedRandomness()


def fresh(**options) -> ArrowState:
    """A new game with alice black unless the options say otherwise."""
    return GAME.new_game(PLAYERS, NO_DICE, {"black": "alice", **options})


def placed(black_order=(1, 2, 3, 4, 5), red_order=(1, 2, 3, 4, 5)) -> ArrowState:
    state = fresh()
    state, _ = GAME.apply(state, "alice", {"type": "place", "order": list(black_order)}, NO_DICE)
    state, _ = GAME.apply(state, "bob", {"type": "place", "order": list(red_order)}, NO_DICE)
    return state


def position(black: dict[int, str], red: dict[int, str], turn: str = "alice", **fields) -> ArrowState:
    """A mid-game position: alice is black, bob is red; unlisted pawns go nowhere useful."""
    state = placed()
    return state.model_copy(update={
        "pawns": {"alice": [black[n] for n in range(1, 6)], "bob": [red[n] for n in range(1, 6)]},
        "turn": turn, **fields,
    }, deep=True)


def play(state, player, action):
    return GAME.apply(state, player, action, NO_DICE)


def refused(state, player, action, *words):
    with pytest.raises(IllegalMove) as caught:
        play(state, player, action)
    for word in words:
        assert word in caught.value.message
    return caught.value.message


# Red pawns parked in corners and on their own start row, out of the way of the black pawns tested.
RED_PARKED = {1: "a1", 2: "e1", 3: "a6", 4: "d6", 5: "e6"}


# --- the board ---------------------------------------------------------------------------------

def test_board_is_symmetric_under_a_half_turn():
    assert len(CIRCLES) == 30
    for circle, arrows in ARROWS.items():
        assert set(ARROWS[half_turn(circle)]) == {opposite(direction) for direction in arrows}


def test_every_arrow_points_at_a_circle_of_the_board():
    for circle, arrows in ARROWS.items():
        for direction in arrows:
            assert step(circle, direction) is not None, (circle, direction)


def test_registry_finds_the_game():
    assert GAMES["follow-the-arrow"] is GAME
    assert (GAME.min_players, GAME.max_players) == (2, 2)


# --- start ----------------------------------------------------------------------------------

def test_options_black_names_the_black_player_without_rolling():
    state = GAME.new_game(PLAYERS, ScriptedRandomness(), {"black": "bob"})
    colours = {p["id"]: p["colour"] for p in GAME.view(state, None)["players"]}
    assert colours == {"alice": "red", "bob": "black"}


@pytest.mark.parametrize(("roll", "black"), [(1, "alice"), (2, "bob")])
def test_colours_by_the_fist_roll(roll, black):
    dice = ScriptedRandomness(rolls=[roll])
    state = GAME.new_game(PLAYERS, dice)
    assert state.black == black and dice.exhausted


@pytest.mark.parametrize("key", ["black", "first"])
def test_options_naming_someone_not_seated_are_refused(key):
    with pytest.raises(IllegalMove, match="carol"):
        GAME.new_game(PLAYERS, ScriptedRandomness(rolls=[1]), {key: "carol"})


def test_exactly_two_players():
    with pytest.raises(IllegalMove):
        GAME.new_game(["alice"], NO_DICE, {"black": "alice"})


def test_black_places_first_then_red_and_black_moves_first():
    state = fresh()
    assert GAME.to_act(state) == ["alice"]
    refused(state, "bob", {"type": "place", "order": [1, 2, 3, 4, 5]}, "alice's turn to place")
    state, events = play(state, "alice", {"type": "place", "order": [3, 1, 5, 2, 4]})
    assert events == [{"type": "placed", "player": "alice", "order": [3, 1, 5, 2, 4], "colour": "black"}]
    assert GAME.view(state, None)["players"][0]["pawns"] == {"1": "b1", "2": "d1", "3": "a1", "4": "e1", "5": "c1"}
    assert GAME.view(state, None)["players"][1]["pawns"] == dict.fromkeys("12345")
    assert GAME.to_act(state) == ["bob"]
    state, _ = play(state, "bob", {"type": "place", "order": [1, 2, 3, 4, 5]})
    view = GAME.view(state, None)
    assert view["phase"] == "play" and view["to_act"] == ["alice"]
    assert view["players"][1]["pawns"]["1"] == "a6"


def test_placing_order_must_be_the_five_numbers_once_each():
    for order in ([1, 2, 3, 4], [1, 1, 2, 3, 4], [0, 1, 2, 3, 4], [1, 2, 3, 4, 6]):
        refused(fresh(), "alice", {"type": "place", "order": order}, "1 to 5")


def test_no_placing_twice_and_no_moving_before_placing():
    state = placed()
    refused(state, "alice", {"type": "place", "order": [1, 2, 3, 4, 5]}, "already placed")
    refused(fresh(), "alice", {"type": "move", "pawn": 1, "to": "a2"}, "place")


def test_options_first_lets_red_place_and_move_first():
    state = fresh(first="bob")
    assert GAME.to_act(state) == ["bob"]
    state, _ = play(state, "bob", {"type": "place", "order": [1, 2, 3, 4, 5]})
    state, _ = play(state, "alice", {"type": "place", "order": [1, 2, 3, 4, 5]})
    assert GAME.to_act(state) == ["bob"]


def test_last_mover_is_null_until_the_first_move():
    state = placed()
    assert GAME.view(state, None)["last_mover"] is None
    state, _ = play(state, "alice", {"type": "move", "pawn": 1, "to": "a2"})
    assert GAME.view(state, None)["last_mover"] == "alice"


# --- a match ---------------------------------------------------------------------------------

def test_even_games_of_a_match_let_red_place_first():
    state = fresh(match={"game": 2, "totals": {"alice": 21}})
    view = GAME.view(state, None)
    assert view["to_act"] == ["bob"]
    assert view["match"] == {"game": 2, "placed_first": "bob", "totals": {"alice": 21, "bob": 0}}
    assert view["next_game_options"] is None


def test_next_game_options_alternate_first_keep_colours_and_add_points():
    state = scoring_position(prior_totals={"alice": 5, "bob": 8})
    state, _ = play(state, "alice", {"type": "move", "pawn": 3, "to": "b6"})
    view = GAME.view(state, None)
    assert view["match"]["totals"] == {"alice": 26, "bob": 8}
    following = view["next_game_options"]
    assert following == {"black": "alice", "first": "bob", "match": {"game": 2, "totals": {"alice": 26, "bob": 8}}}
    next_game = GAME.new_game(PLAYERS, NO_DICE, following)
    assert GAME.to_act(next_game) == ["bob"] and next_game.black == "alice"
    assert GAME.view(next_game, None)["match"]["totals"] == {"alice": 26, "bob": 8}


@pytest.mark.parametrize("match", [{"game": 0}, {"game": "two"}, {"totals": {"carol": 3}},
                                   {"totals": {"alice": "lots"}}, "game two"])
def test_malformed_match_options_are_refused(match):
    with pytest.raises(IllegalMove, match="match"):
        fresh(match=match)


# --- line moves -----------------------------------------------------------------------------

def test_line_move_follows_an_arrow_forward():
    state, events = play(placed(), "alice", {"type": "move", "pawn": 3, "to": "b2"})
    assert events[0] == {"type": "moved", "player": "alice", "pawn": 3, "from": "c1", "to": "b2"}
    assert GAME.view(state, None)["last_move"]["path"] == ["b2"]
    assert GAME.to_act(state) == ["bob"]


def test_line_move_needs_an_arrow():
    refused(placed(), "alice", {"type": "move", "pawn": 3, "to": "c2"}, "No arrow on c1", "NW, NE")


def test_line_move_never_goes_backward_for_black():
    state = position({1: "a2", 2: "b3", 3: "c4", 4: "d5", 5: "e3"}, RED_PARKED)
    refused(state, "alice", {"type": "move", "pawn": 1, "to": "a1"}, "backward")


def test_red_moves_toward_row_one_and_not_back():
    state = position({1: "a2", 2: "b3", 3: "c4", 4: "d5", 5: "e3"},
                     {1: "a5", 2: "c6", 3: "e1", 4: "c1", 5: "a1"}, turn="bob")
    refused(state, "bob", {"type": "move", "pawn": 1, "to": "a6"}, "backward")
    state, _ = play(state, "bob", {"type": "move", "pawn": 2, "to": "b5"})
    assert state.pawns["bob"][1] == "b5"


def test_line_move_needs_an_empty_circle():
    refused(placed(), "alice", {"type": "move", "pawn": 2, "to": "c1"}, "occupied")


def test_line_move_goes_one_circle():
    refused(placed(), "alice", {"type": "move", "pawn": 1, "to": "a3"}, "/jump")
    refused(placed(), "alice", {"type": "move", "pawn": 1, "to": "c5"}, "not next to")


def test_sideways_line_moves_are_allowed_on_the_start_row():
    state = position({1: "a2", 2: "b1", 3: "c3", 4: "d3", 5: "e3"}, RED_PARKED)
    state, _ = play(state, "alice", {"type": "move", "pawn": 2, "to": "c1"})
    assert state.pawns["alice"][1] == "c1"


def test_pawns_on_the_goal_row_may_still_move_sideways():
    state = position({1: "b6", 2: "a4", 3: "c3", 4: "d3", 5: "e3"}, RED_PARKED)
    state, _ = play(state, "alice", {"type": "move", "pawn": 1, "to": "c6"})
    assert state.pawns["alice"][0] == "c6"


def test_only_the_player_to_move_may_move():
    refused(placed(), "bob", {"type": "move", "pawn": 1, "to": "a5"}, "alice's turn")


def test_unknown_pawn_and_circle_are_refused():
    refused(placed(), "alice", {"type": "move", "pawn": 7, "to": "a2"}, "no pawn 7")
    refused(placed(), "alice", {"type": "move", "pawn": 1, "to": "z9"}, "not a circle")


# --- jumps ----------------------------------------------------------------------------------

CHAIN_RED = {1: "d2", 2: "e4", 3: "d5", 4: "b5", 5: "a1"}
CHAIN_BLACK = {1: "c1", 2: "a2", 3: "b2", 4: "a3", 5: "e6"}


def test_three_pawn_chained_jump_needs_an_arrow_only_for_the_first_hop():
    state = position(CHAIN_BLACK, CHAIN_RED)
    state, events = play(state, "alice", {"type": "jump", "pawn": 1, "path": ["e3", "e5", "c5"]})
    assert events[0] == {"type": "jumped", "player": "alice", "pawn": 1, "from": "c1",
                         "path": ["e3", "e5", "c5"], "over": ["d2", "e4", "d5"], "forced": False}
    assert state.pawns["alice"][0] == "c5"
    assert state.pawns["bob"] == [CHAIN_RED[n] for n in range(1, 6)]  # jumped pawns stay
    assert "N" not in ARROWS["e3"] and "W" not in ARROWS["e5"]


def test_a_jump_may_chain_over_four_pawns_and_stop_after_any_hop():
    state = position(CHAIN_BLACK, CHAIN_RED)
    legal = GAME.legal_actions(state, "alice")
    for path in (["e3"], ["e3", "e5"], ["e3", "e5", "c5"], ["e3", "e5", "c5", "a5"]):
        assert {"type": "jump", "pawn": 1, "path": path} in legal
    state, _ = play(state, "alice", {"type": "jump", "pawn": 1, "path": ["e3", "e5", "c5", "a5"]})
    assert state.pawns["alice"][0] == "a5"


def test_a_jump_has_one_to_four_hops():
    state = position(CHAIN_BLACK, CHAIN_RED)
    refused(state, "alice", {"type": "jump", "pawn": 1, "path": []}, "1 to 4")
    refused(state, "alice", {"type": "jump", "pawn": 1, "path": ["e3", "e5", "c5", "a5", "a3"]}, "1 to 4")


def test_first_hop_needs_an_arrow_at_the_jumped_pawn():
    state = position({1: "a2", 2: "b1", 3: "c3", 4: "d3", 5: "e3"}, {**RED_PARKED, 4: "b3"})
    refused(state, "alice", {"type": "jump", "pawn": 1, "path": ["c4"]}, "arrow")


def test_no_backward_hop_even_later_in_a_chain():
    state = position(CHAIN_BLACK, {**CHAIN_RED, 2: "e2"})
    refused(state, "alice", {"type": "jump", "pawn": 1, "path": ["e3", "e1"]}, "backward")


def test_no_sideways_hop_along_a_start_row():
    state = position({1: "b1", 2: "a2", 3: "b2", 4: "a3", 5: "e6"}, {**RED_PARKED, 2: "c1", 5: "d3"})
    assert "E" in ARROWS["b1"]
    refused(state, "alice", {"type": "jump", "pawn": 1, "path": ["d1"]}, "start row")
    goal = position({1: "a4", 2: "a2", 3: "b2", 4: "a3", 5: "e3"},
                    {1: "a5", 2: "b6", 3: "e1", 4: "c1", 5: "d2"})
    refused(goal, "alice", {"type": "jump", "pawn": 1, "path": ["a6", "c6"]}, "start row")


def test_no_pawn_is_jumped_twice():
    state = position({1: "a3", 2: "a2", 3: "b2", 4: "c2", 5: "e4"}, {**RED_PARKED, 4: "b3"})
    refused(state, "alice", {"type": "jump", "pawn": 1, "path": ["c3", "a3"]}, "twice")
    assert {"type": "jump", "pawn": 1, "path": ["c3"]} in GAME.legal_actions(state, "alice")


def test_only_opponent_pawns_are_jumped_onto_empty_circles():
    state = placed()
    refused(state, "alice", {"type": "jump", "pawn": 1, "path": ["a3"]}, "no pawn on a2")
    own = position({1: "a2", 2: "a3", 3: "b2", 4: "c2", 5: "e4"}, RED_PARKED)
    refused(own, "alice", {"type": "jump", "pawn": 1, "path": ["a4"]}, "your own pawn")
    full = position({1: "a2", 2: "a4", 3: "b2", 4: "c2", 5: "e4"}, {**RED_PARKED, 4: "a3"})
    refused(full, "alice", {"type": "jump", "pawn": 1, "path": ["a4"]}, "a4 is occupied")


def test_a_hop_lands_two_circles_away_in_a_line():
    state = position(CHAIN_BLACK, CHAIN_RED)
    refused(state, "alice", {"type": "jump", "pawn": 1, "path": ["d3"]}, "not a hop")


# --- calling Jump ---------------------------------------------------------------------------

def callable_position() -> ArrowState:
    """Bob (red) moves b4 -> b3, next to black's a3, whose E arrow then points at him."""
    state = position({1: "a3", 2: "a2", 3: "c2", 4: "d2", 5: "e2"},
                     {1: "a1", 2: "c6", 3: "b4", 4: "e1", 5: "e6"}, turn="bob")
    state, events = play(state, "bob", {"type": "move", "pawn": 3, "to": "b3"})
    assert events[-1] == {"type": "jump_possible", "player": "alice", "caller": "bob"}
    return state


def test_jump_becomes_callable_when_the_opponent_can_now_jump():
    state = callable_position()
    view = GAME.view(state, None)
    assert view["jump_callable"] and not view["jump_called"]
    assert view["to_act"] == ["alice"]
    assert GAME.legal_actions(state, "bob") == [{"type": "call_jump"}, {"type": "decline_call"}]


def test_a_forced_jump_after_a_call():
    state = callable_position()
    state, events = play(state, "bob", {"type": "call_jump"})
    assert events == [{"type": "jump_called", "player": "bob", "target": "alice"}]
    view = GAME.view(state, None)
    assert view["jump_called"] and not view["jump_callable"]
    refused(state, "alice", {"type": "move", "pawn": 1, "to": "b4"}, "bob called Jump", "must jump")
    assert all(action["type"] == "jump" for action in GAME.legal_actions(state, "alice"))
    state, events = play(state, "alice", {"type": "jump", "pawn": 1, "path": ["c3"]})
    assert events[0]["forced"] is True
    assert not GAME.view(state, None)["jump_called"]
    assert GAME.view(state, None)["last_move"]["forced"] is True


def test_only_the_last_mover_may_call_and_only_once():
    state = callable_position()
    refused(state, "alice", {"type": "call_jump"}, "Only bob")
    called, _ = play(state, "bob", {"type": "call_jump"})
    refused(called, "bob", {"type": "call_jump"}, "already called")


def test_decline_call_leaves_the_opponent_free():
    state, events = play(callable_position(), "bob", {"type": "decline_call"})
    assert events == [{"type": "call_declined", "player": "bob", "target": "alice"}]
    assert not GAME.view(state, None)["jump_callable"]
    refused(state, "bob", {"type": "call_jump"}, "no jump to call")
    state, _ = play(state, "alice", {"type": "move", "pawn": 1, "to": "b4"})
    assert state.pawns["alice"][0] == "b4"


def test_silence_leaves_the_opponent_free_and_ends_the_chance_to_call():
    state, _ = play(callable_position(), "alice", {"type": "move", "pawn": 1, "to": "b4"})
    assert GAME.view(state, None)["last_mover"] == "alice"
    refused(state, "bob", {"type": "call_jump"}, "Only alice")


def test_nothing_to_call_when_the_opponent_cannot_jump():
    state, events = play(placed(), "alice", {"type": "move", "pawn": 1, "to": "a2"})
    assert not GAME.view(state, None)["jump_callable"]
    assert all(event["type"] != "jump_possible" for event in events)
    refused(state, "alice", {"type": "call_jump"}, "no jump to call")
    refused(placed(), "alice", {"type": "decline_call"}, "no jump to call")


# --- passing, drawing, winning --------------------------------------------------------------

STUCK_RED = {1: "c1", 2: "c2", 3: "d1", 4: "e1", 5: "b1"}


def test_a_player_with_no_legal_move_passes_automatically():
    state = position({1: "c5", 2: "b6", 3: "c6", 4: "d6", 5: "a4"}, STUCK_RED)
    state, events = play(state, "alice", {"type": "move", "pawn": 5, "to": "a5"})
    assert events[1:] == [{"type": "passed", "player": "bob", "reason": "no_legal_move"}]
    view = GAME.view(state, None)
    assert view["to_act"] == ["alice"] and view["last_mover"] == "alice" and not view["jump_callable"]


def test_the_game_is_drawn_when_neither_player_can_move():
    state = position({1: "c5", 2: "b6", 3: "c6", 4: "d6", 5: "a5"}, STUCK_RED)
    state, events = play(state, "alice", {"type": "move", "pawn": 5, "to": "a6"})
    assert [event["type"] for event in events] == ["moved", "passed", "draw"]
    assert GAME.result(state) == {"winners": [], "scores": {"alice": 0, "bob": 0}}
    assert GAME.to_act(state) == [] and GAME.view(state, None)["points"] == 0


def scoring_position(**fields) -> ArrowState:
    """Black's 1, 2, 4, 5 are home; the 3 is one step away; red's 1, 2 and 4 are still out."""
    return position({1: "a6", 2: "c6", 3: "c5", 4: "d6", 5: "e6"},
                    {1: "c3", 2: "d3", 3: "a1", 4: "e3", 5: "b1"}, **fields)


def test_scoring_example_seven_times_three():
    state, events = play(scoring_position(), "alice", {"type": "move", "pawn": 3, "to": "b6"})
    assert events[-1] == {"type": "won", "player": "alice", "loser": "bob", "pawn": 3,
                          "loser_pawns_out": [1, 2, 4], "loser_sum": 7, "points": 21}
    assert GAME.result(state) == {"winners": ["alice"], "scores": {"alice": 21, "bob": 0}}
    view = GAME.view(state, None)
    assert (view["phase"], view["winner"], view["points"], view["to_act"]) == ("over", "alice", 21, [])
    refused(state, "bob", {"type": "move", "pawn": 1, "to": "c2"}, "over")
    assert GAME.legal_actions(state, "alice") == []


# --- contract -------------------------------------------------------------------------------

@pytest.mark.parametrize("action", [
    {}, "jump", {"type": "fly"}, {"type": "move", "pawn": "three", "to": "a2"}, {"type": "move", "pawn": 1},
    {"type": "jump", "pawn": 1, "path": "c4"}, {"type": "place", "order": "12345"},
])
def test_malformed_actions_are_illegal_moves(action):
    with pytest.raises(IllegalMove):
        play(placed(), "alice", action)


def test_unseated_players_are_refused():
    refused(placed(), "carol", {"type": "move", "pawn": 1, "to": "a2"}, "not playing")


def test_apply_does_not_mutate_its_input():
    state = callable_position()
    before = state.model_dump_json()
    play(state, "bob", {"type": "call_jump"})
    play(state, "alice", {"type": "jump", "pawn": 1, "path": ["c3"]})
    assert state.model_dump_json() == before


def test_placing_offers_every_order():
    assert len(GAME.legal_actions(fresh(), "alice")) == 120
    assert GAME.legal_actions(fresh(), "bob") == []


# --- random games ---------------------------------------------------------------------------

@settings(max_examples=40, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_random_legal_games_end_in_a_win_or_the_no_move_draw(seed):
    rng, choose = SeededRandomness(seed), random.Random(seed)
    state = GAME.new_game(PLAYERS, rng)
    for _ in range(1000):
        if GAME.result(state) is not None:
            break
        actor = GAME.to_act(state)[0]
        if state.jump_callable and choose.random() < 0.5:
            actor = state.last_mover
        legal = GAME.legal_actions(state, actor)
        assert legal
        for action in choose.sample(legal, min(3, len(legal))):
            play(state, actor, action)
        state, _ = play(state, actor, choose.choice(legal))
        assert GAME.state_from_json(state.model_dump_json()) == state
        occupied = [c for pawns in state.pawns.values() for c in pawns if c]
        assert len(occupied) == len(set(occupied))
    result = GAME.result(state)
    assert result is not None
    assert len(result["winners"]) <= 1
    loser_score = [score for who, score in result["scores"].items() if who not in result["winners"]]
    assert loser_score and all(score == 0 for score in loser_score)
    if result["winners"]:
        assert 1 <= result["scores"][result["winners"][0]] <= 15 * 5


def test_a_move_or_jump_to_the_pawns_own_circle_says_so_plainly():
    """Never "a1 is not next to a1" (issue 21)."""
    rng = SeededRandomness(1)
    state = GAME.new_game(["a", "b"], rng)
    for _ in range(2):
        state, _ = GAME.apply(state, GAME.to_act(state)[0], {"type": "place", "order": [1, 2, 3, 4, 5]}, rng)
    player = GAME.to_act(state)[0]
    home = next(circle for circle, (owner, pawn) in _occupants(state).items() if owner == player and pawn == 1)
    for action in ({"type": "move", "pawn": 1, "to": home}, {"type": "jump", "pawn": 1, "path": [home]}):
        with pytest.raises(IllegalMove) as refused:
            GAME.apply(state, player, action, rng)
        assert f"{home} is not next to {home}" not in refused.value.message
        assert f"{home} to {home}" not in refused.value.message and f"on {home}" in refused.value.message
