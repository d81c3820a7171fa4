"""John Henry: one test per rule and ruling of rules/john-henry.md, the seed examples, random games."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import GAMES
from games.core import IllegalMove, ScriptedRandomness, SeededRandomness
from games.john_henry import GAME, SPACE_NAMES, State, Track

A, B = "alice", "bob"
ROLL = {"type": "roll"}
STOP = {"type": "stop"}


def new() -> State:
    return GAME.new_game([A, B], ScriptedRandomness())


def play(state: State, player: str, action: dict, rolls: list[int]) -> tuple[State, list[dict]]:
    """Apply with exactly these dice; fails if the engine uses more or fewer."""
    rng = ScriptedRandomness(rolls=rolls)
    result = GAME.apply(state, player, action, rng)
    assert rng.exhausted, "the engine did not use every scripted die"
    return result


def in_play(turn: str = A, alice: tuple[int, int] = (1, 1), bob: tuple[int, int] = (13, 1),
            john_henry: int | None = None, dead: bool = False) -> State:
    """A state in the play phase with the given (space, dots), skipping the roll-off."""
    return State(
        players=[A, B], tracks=[Track(space=alice[0], dots=alice[1]), Track(space=bob[0], dots=bob[1])],
        phase="play", turn=[A, B].index(turn), john_henry=john_henry, john_henry_dead=dead,
    )


def positions(state: State) -> list[tuple[int, int]]:
    return [(p["space"], p["dots"]) for p in GAME.view(state, None)["players"]]


def types(events: list[dict]) -> list[str]:
    return [event["type"] for event in events]


def view_of(state: State, key: str):
    return GAME.view(state, None)[key]


# Setup ---------------------------------------------------------------------------------------------

def test_registered_under_its_slug():
    assert GAMES["john-henry"] is GAME
    assert (GAME.min_players, GAME.max_players) == (2, 2)


def test_new_game_starts_both_railroads_on_their_start_space_with_one_dot():
    assert GAME.view(new(), None) == {
        "phase": "roll-off",
        "players": [
            {"id": A, "railroad": "union-pacific", "space": 1, "dots": 1},
            {"id": B, "railroad": "central-pacific", "space": 13, "dots": 1},
        ],
        "john_henry": None, "to_act": [A, B], "awaiting_bonus": False, "winner": None,
    }


def test_new_game_uses_no_randomness():
    rng = ScriptedRandomness(rolls=[3])
    GAME.new_game([A, B], rng)
    assert not rng.exhausted


@pytest.mark.parametrize("players", [[A], [A, B, "carol"], [], [A, A], [A, "dead"]])
def test_new_game_refuses_anything_but_two_distinct_players(players):
    with pytest.raises(IllegalMove):
        GAME.new_game(players, ScriptedRandomness())


def test_thirteen_named_spaces_with_promontory_point_at_the_center():
    assert len(SPACE_NAMES) == 13
    assert (SPACE_NAMES[0], SPACE_NAMES[6], SPACE_NAMES[12]) == ("Omaha", "Promontory Point", "Sacramento")


def test_private_view_equals_public_view():
    state, _ = play(new(), A, ROLL, [4])
    assert GAME.view(state, A) == GAME.view(state, B) == GAME.view(state, None)


# Roll-off ------------------------------------------------------------------------------------------

def test_roll_off_either_order_and_to_act_lists_who_has_not_rolled():
    state, events = play(new(), B, ROLL, [2])
    assert events == [{"type": "roll-off", "player": B, "die": 2}]
    assert GAME.to_act(state) == [A]
    assert GAME.legal_actions(state, B) == []
    assert GAME.legal_actions(state, A) == [ROLL]
    with pytest.raises(IllegalMove, match="alice"):
        play(state, B, ROLL, [])


def test_roll_off_higher_die_is_the_first_players_whole_first_turn():
    state, _ = play(new(), A, ROLL, [2])
    state, events = play(state, B, ROLL, [4])
    assert types(events) == ["roll-off", "first-player", "moved"]
    assert events[1] == {"type": "first-player", "player": B, "die": 4}
    assert positions(state) == [(1, 1), (13, 5)]
    assert view_of(state, "phase") == "play"
    assert GAME.to_act(state) == [A]  # the second player rolls next


def test_roll_off_lower_die_is_discarded():
    state, _ = play(new(), A, ROLL, [5])
    state, _ = play(state, B, ROLL, [3])
    assert positions(state) == [(2, 0), (13, 1)]
    assert GAME.to_act(state) == [B]


def test_roll_off_tie_makes_both_roll_again():
    state, _ = play(new(), A, ROLL, [3])
    state, events = play(state, B, ROLL, [3])
    assert events[-1] == {"type": "roll-off-tie", "die": 3}
    assert view_of(state, "phase") == "roll-off"
    assert GAME.to_act(state) == [A, B]
    assert positions(state) == [(1, 1), (13, 1)]
    state, _ = play(state, B, ROLL, [1])
    state, events = play(state, A, ROLL, [2])
    assert events[1] == {"type": "first-player", "player": A, "die": 2}
    assert positions(state) == [(1, 3), (13, 1)]


def test_roll_off_six_takes_john_henry_and_offers_the_bonus():
    state, _ = play(new(), A, ROLL, [6])
    state, events = play(state, B, ROLL, [2])
    assert types(events) == ["roll-off", "first-player", "john-henry-taken"]
    assert events[-1] == {"type": "john-henry-taken", "player": A, "from": None}
    view = GAME.view(state, None)
    assert (view["phase"], view["john_henry"], view["awaiting_bonus"], view["to_act"]) == ("play", A, True, [A])
    assert positions(state) == [(1, 1), (13, 1)]  # the pawn has not moved yet
    assert GAME.legal_actions(state, A) == [ROLL, STOP]
    state, _ = play(state, A, STOP, [])
    assert positions(state) == [(2, 1), (13, 1)]
    assert GAME.to_act(state) == [B]


def test_stop_is_refused_during_the_roll_off():
    with pytest.raises(IllegalMove, match="roll"):
        play(new(), A, STOP, [])


# Movement ------------------------------------------------------------------------------------------

def test_seed_example_dots_three_roll_five_advances_with_two():
    state, events = play(in_play(B, bob=(13, 3)), B, ROLL, [5])
    assert positions(state)[1] == (12, 2)
    assert events[-1] == {"type": "moved", "player": B, "steps": 5, "from_space": 13,
                          "space": 12, "dots": 2, "spaces_advanced": 1}


def test_union_pacific_moves_up_and_central_pacific_moves_down():
    state, _ = play(in_play(A, alice=(3, 4)), A, ROLL, [3])
    assert positions(state)[0] == (4, 1)
    state, _ = play(state, B, ROLL, [5])
    assert positions(state)[1] == (12, 0)


def test_a_roll_short_of_six_stays_on_the_space():
    state, _ = play(in_play(A, alice=(2, 1)), A, ROLL, [4])
    assert positions(state)[0] == (2, 5)


def test_a_big_roll_crosses_several_spaces():
    state, events = play(in_play(A, alice=(2, 5), john_henry=0), A, ROLL, [5, 4])
    assert positions(state)[0] == (4, 2)  # 5 + 9 = 14: two spaces done, 2 left over
    assert events[-1]["spaces_advanced"] == 2


def test_players_alternate_turns():
    state, _ = play(in_play(A), A, ROLL, [2])
    assert GAME.to_act(state) == [B]
    with pytest.raises(IllegalMove, match="bob's turn"):
        play(state, A, ROLL, [])
    assert GAME.legal_actions(state, A) == []
    state, _ = play(state, B, ROLL, [2])
    assert GAME.to_act(state) == [A]


def test_leftover_dots_carry_onto_the_center():
    state, _ = play(in_play(A, alice=(6, 4)), A, ROLL, [4])
    assert positions(state)[0] == (7, 2)
    assert view_of(state, "phase") == "play"


def test_the_center_does_not_advance_past_six():
    state, _ = play(in_play(A, alice=(7, 1), bob=(9, 0), john_henry=0), A, ROLL, [2, 3])
    assert positions(state)[0] == (7, 6)


# The golden spike ----------------------------------------------------------------------------------

def test_seed_example_combined_center_count_wins():
    state, events = play(in_play(A, alice=(7, 3), bob=(7, 2)), A, ROLL, [3])
    assert events[-1] == {"type": "won", "player": A, "center": 8}
    view = GAME.view(state, None)
    assert (view["phase"], view["winner"], view["to_act"]) == ("over", A, [])
    assert GAME.result(state) == {"winners": [A], "scores": {A: 1, B: 0}}


def test_winning_roll_is_counted_in_full():
    state, _ = play(in_play(B, alice=(7, 2), bob=(7, 3)), B, ROLL, [3])
    assert positions(state) == [(7, 2), (7, 6)]
    assert view_of(state, "winner") == B


def test_center_below_seven_does_not_win():
    state, _ = play(in_play(A, alice=(7, 3), bob=(7, 2)), A, ROLL, [1])
    assert view_of(state, "phase") == "play"
    assert GAME.result(state) is None


def test_arriving_on_the_center_with_enough_leftover_wins():
    state, events = play(in_play(B, alice=(7, 2), bob=(8, 5), john_henry=1), B, ROLL, [5, 5])
    assert types(events) == ["rolled", "john-henry-died", "moved", "won"]
    assert positions(state)[1] == (7, 9)
    assert events[-1]["center"] == 11


def test_arriving_on_the_center_alone_needs_seven_of_its_own():
    state, _ = play(in_play(A, alice=(6, 5), john_henry=0), A, ROLL, [4, 3])
    assert positions(state)[0] == (7, 6)
    assert view_of(state, "phase") == "play"


def test_nothing_is_legal_once_the_game_is_over():
    state, _ = play(in_play(A, alice=(7, 3), bob=(7, 2)), A, ROLL, [3])
    assert GAME.to_act(state) == []
    assert GAME.legal_actions(state, A) == GAME.legal_actions(state, B) == []
    with pytest.raises(IllegalMove, match="over"):
        play(state, B, ROLL, [])


# John Henry ----------------------------------------------------------------------------------------

def test_a_six_takes_john_henry_from_the_box_without_moving():
    state, events = play(in_play(A, alice=(3, 2)), A, ROLL, [6])
    assert types(events) == ["rolled", "john-henry-taken"]
    assert events[-1] == {"type": "john-henry-taken", "player": A, "from": None}
    assert positions(state)[0] == (3, 2)
    view = GAME.view(state, None)
    assert (view["john_henry"], view["awaiting_bonus"], view["phase"], view["to_act"]) == (A, True, "play", [A])


def test_a_six_takes_john_henry_from_the_other_player():
    state, events = play(in_play(A, john_henry=1), A, ROLL, [6])
    assert events[-1] == {"type": "john-henry-taken", "player": A, "from": B}
    assert view_of(state, "john_henry") == A


def test_stop_keeps_the_six_and_ends_the_turn():
    state, _ = play(in_play(A, alice=(3, 2)), A, ROLL, [6])
    state, events = play(state, A, STOP, [])
    assert types(events) == ["kept-six", "moved"]
    assert positions(state)[0] == (4, 2)
    view = GAME.view(state, None)
    assert (view["john_henry"], view["awaiting_bonus"], view["to_act"]) == (A, False, [B])


def test_bonus_die_adds_to_the_six():
    state, _ = play(in_play(A, alice=(3, 2)), A, ROLL, [6])
    state, events = play(state, A, ROLL, [4])
    assert types(events) == ["bonus-rolled", "moved"]
    assert events[0] == {"type": "bonus-rolled", "player": A, "die": 4}
    assert positions(state)[0] == (5, 0)  # 2 + 10 = 12: two spaces
    assert view_of(state, "john_henry") == A
    assert GAME.to_act(state) == [B]


def test_bonus_one_moves_one_and_passes_john_henry():
    state, _ = play(in_play(A, alice=(3, 2)), A, ROLL, [6])
    state, events = play(state, A, ROLL, [1])
    assert types(events) == ["bonus-rolled", "john-henry-passed", "moved"]
    assert events[1] == {"type": "john-henry-passed", "from": A, "to": B}
    assert positions(state)[0] == (3, 3)
    assert view_of(state, "john_henry") == B


def test_bonus_six_is_doubles_and_kills_john_henry():
    state, _ = play(in_play(A, alice=(3, 2)), A, ROLL, [6])
    state, events = play(state, A, ROLL, [6])
    assert types(events) == ["bonus-rolled", "john-henry-died", "moved"]
    assert positions(state)[0] == (5, 2)  # 2 + 12 = 14
    assert view_of(state, "john_henry") == "dead"


def test_stop_without_a_six_to_keep_is_refused():
    with pytest.raises(IllegalMove, match="no 6"):
        play(in_play(A), A, STOP, [])


def test_holder_rolls_two_dice_and_moves_the_sum():
    state, events = play(in_play(A, alice=(2, 0), john_henry=0), A, ROLL, [3, 5])
    assert events[0] == {"type": "rolled", "player": A, "dice": [3, 5]}
    assert positions(state)[0] == (3, 2)
    assert view_of(state, "john_henry") == A


def test_holder_rolling_a_one_moves_one_and_passes_him():
    state, events = play(in_play(A, alice=(2, 0), john_henry=0), A, ROLL, [5, 1])
    assert types(events) == ["rolled", "john-henry-passed", "moved"]
    assert positions(state)[0] == (2, 1)
    assert view_of(state, "john_henry") == B
    assert GAME.to_act(state) == [B]


@pytest.mark.parametrize(("die", "steps"), [(1, 2), (3, 6), (6, 12)])
def test_holder_doubles_kill_john_henry_and_move_the_sum(die, steps):
    state, events = play(in_play(A, alice=(1, 0), john_henry=0), A, ROLL, [die, die])
    assert types(events) == ["rolled", "john-henry-died", "moved"]
    assert events[-1]["steps"] == steps
    assert view_of(state, "john_henry") == "dead"


def test_holder_sixes_without_doubles_are_just_counted():
    state, events = play(in_play(A, alice=(1, 0), john_henry=0), A, ROLL, [6, 4])
    assert types(events) == ["rolled", "moved"]
    assert view_of(state, "awaiting_bonus") is False


def test_a_six_after_john_henry_died_is_a_plain_move():
    state, events = play(in_play(A, alice=(1, 0), dead=True), A, ROLL, [6])
    assert types(events) == ["rolled", "moved"]
    assert positions(state)[0] == (2, 0)
    assert view_of(state, "john_henry") == "dead"
    assert GAME.to_act(state) == [B]


def test_the_winning_roll_still_passes_john_henry():
    state, events = play(in_play(A, alice=(7, 3), bob=(7, 3), john_henry=0), A, ROLL, [4, 1])
    assert types(events) == ["rolled", "john-henry-passed", "moved", "won"]
    assert view_of(state, "john_henry") == B
    assert positions(state)[0] == (7, 4)


def test_the_winning_roll_still_kills_john_henry():
    state, events = play(in_play(A, alice=(7, 3), john_henry=0), A, ROLL, [2, 2])
    assert types(events) == ["rolled", "john-henry-died", "moved", "won"]
    assert view_of(state, "john_henry") == "dead"
    assert positions(state)[0] == (7, 7)


def test_the_winning_bonus_roll_counts_the_pair():
    state, _ = play(in_play(A, alice=(7, 2)), A, ROLL, [6])
    state, events = play(state, A, ROLL, [3])
    assert events[-1] == {"type": "won", "player": A, "center": 11}


# Refusals and purity -------------------------------------------------------------------------------

@pytest.mark.parametrize("action", [{}, {"type": "move"}, {"type": 3}, "roll", None, ["roll"]])
def test_malformed_actions_are_illegal_moves(action):
    with pytest.raises(IllegalMove):
        GAME.apply(in_play(A), A, action, ScriptedRandomness())


def test_unseated_players_are_refused():
    with pytest.raises(IllegalMove, match="not playing"):
        GAME.apply(in_play(A), "carol", ROLL, ScriptedRandomness())
    assert GAME.legal_actions(in_play(A), "carol") == []


def test_apply_does_not_mutate_its_input():
    state, _ = play(in_play(A, alice=(6, 5), bob=(7, 3)), A, ROLL, [6])
    before = state.model_dump_json()
    play(state, A, ROLL, [3])
    assert state.model_dump_json() == before


def test_state_round_trips_through_json():
    state, _ = play(in_play(A, john_henry=1), A, ROLL, [6])
    assert GAME.state_from_json(state.model_dump_json()) == state


# Random games --------------------------------------------------------------------------------------

@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32), choices=st.data())
def test_random_games_end_with_one_winner(seed, choices):
    rng = SeededRandomness(seed)
    state = GAME.new_game([A, B], rng)
    for _ in range(500):
        if GAME.result(state) is not None:
            break
        player = choices.draw(st.sampled_from(GAME.to_act(state)))
        legal = GAME.legal_actions(state, player)
        assert legal
        for other in {A, B} - set(GAME.to_act(state)):
            assert GAME.legal_actions(state, other) == []
        for action in legal:
            GAME.apply(state, player, action, SeededRandomness(seed))
        before = state.model_copy(deep=True)
        state, events = GAME.apply(state, player, choices.draw(st.sampled_from(legal)), rng)
        assert events and all("type" in event for event in events)
        assert state != before
        assert GAME.state_from_json(state.model_dump_json()) == state
        view = GAME.view(state, None)
        assert set(view) == {"phase", "players", "john_henry", "to_act", "awaiting_bonus", "winner"}
        assert view["john_henry"] in (None, A, B, "dead")
        for railroad in view["players"]:
            assert 1 <= railroad["space"] <= 13
            assert railroad["space"] == 7 or 0 <= railroad["dots"] < 6
    result = GAME.result(state)
    assert result is not None
    assert len(result["winners"]) == 1
    assert sorted(result["scores"].values()) == [0, 1]
    view = GAME.view(state, None)
    assert view["winner"] == result["winners"][0]
    assert view["to_act"] == [] and view["phase"] == "over"
    assert sum(p["dots"] for p in view["players"] if p["space"] == 7) >= 7
