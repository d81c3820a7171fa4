"""Johari Bones: one test per rule and ruling of rules/johari-bones.md, the seed examples, random games."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import GAMES
from games.core import IllegalMove, ScriptedRandomness, SeededRandomness
from games.johari_bones import BONES, GAME, State
from games.johari_scoring import BOXES, all_box_scores, box_score, hand_ends

A, B, C, D = "alice", "bob", "carol", "dave"
DRAW = {"type": "draw"}


def order(*first: str) -> list[str]:
    """A shuffle outcome: these bones first, then the rest of the set in sorted order."""
    return [*first, *(bone for bone in BONES if bone not in first)]


def new(players=(A, B), *first: str) -> State:
    rng = ScriptedRandomness(shuffles=[order(*first)])
    state = GAME.new_game(list(players), rng)
    assert rng.exhausted
    return state


def play(state: State, player: str, action: dict, shuffles=()) -> tuple[State, list[dict]]:
    """Apply with exactly these shuffles; fails if the engine uses chance it should not."""
    rng = ScriptedRandomness(shuffles=shuffles)
    result = GAME.apply(state, player, action, rng)
    assert rng.exhausted, "the engine did not use every scripted shuffle"
    return result


def place(target: str, position: str) -> dict:
    return {"type": "place", "target": target, "position": position}


def swap(kind: str, other: str) -> dict:
    return {"type": "swap", "kind": kind, "with": other}


def score(box: str) -> dict:
    return {"type": "score", "box": box}


def hand_of(view: dict, player: str) -> dict:
    return next(entry for entry in view["players"] if entry["id"] == player)


def finish_turns(state: State) -> State:
    """Every remaining turn as an up swap with the next seat, until the hand is revealed."""
    while state.phase == "turns":
        player = GAME.to_act(state)[0]
        other = state.players[(state.players.index(player) + 1) % len(state.players)]
        state, _ = play(state, player, swap("up", other))
    return state


def score_all(state: State, box: str = "chance", shuffle: list[str] | None = None) -> State:
    """Every player scores `box`; the last choice deals the next hand with `shuffle`."""
    players = GAME.to_act(state)
    for index, player in enumerate(players):
        last = index == len(players) - 1 and state.hand < len(BOXES)
        state, _ = play(state, player, score(box), [shuffle or order()] if last else [])
    return state


def scoring_state(hands: dict[str, list[str]], **changes) -> State:
    """A two-player state at scoring time holding exactly these bones."""
    players = list(hands)
    fields = dict(
        players=players, phase="scoring", pile=[],
        bones={player: dict(zip(("up", "down", "in", "out"), bones, strict=True))
               for player, bones in hands.items()},
        turns_left=dict.fromkeys(players, 0), scorecard={player: dict.fromkeys(BOXES) for player in players},
    )
    fields.update(changes)
    return State(**fields)


# Setup and deal -------------------------------------------------------------------------------------

def test_registered_under_its_slug_for_two_to_four_players():
    assert GAMES["johari-bones"] is GAME
    assert (GAME.min_players, GAME.max_players) == (2, 4)


@pytest.mark.parametrize("players", [[A], [A, B, C, D, "eve"]])
def test_player_count_outside_two_to_four_is_refused(players):
    with pytest.raises(IllegalMove, match="2 to 4"):
        GAME.new_game(players, SeededRandomness(1))


def test_duplicate_players_are_refused():
    with pytest.raises(IllegalMove):
        GAME.new_game([A, A], SeededRandomness(1))


def test_ruling_a_player_id_shaped_like_a_bone_is_refused():
    with pytest.raises(IllegalMove, match="look like a bone"):
        GAME.new_game([A, "3-5"], SeededRandomness(1))


def test_the_set_is_the_28_bones_of_a_double_six_in_sorted_order():
    assert len(BONES) == 28 and BONES[0] == "0-0" and BONES[-1] == "6-6"
    assert list(BONES) == sorted(BONES)
    assert all(int(bone[0]) <= int(bone[2]) for bone in BONES)


def test_the_deal_shuffles_the_sorted_set_once():
    seen: list[list[str]] = []

    class Spy:
        def roll(self, sides):
            raise AssertionError("Johari Bones rolls no dice")

        def shuffle(self, items):
            seen.append(list(items))
            return list(items)

    GAME.new_game([A, B, C], Spy())
    assert seen == [list(BONES)]


def test_deal_gives_each_seat_four_bones_in_order_up_down_in_out_and_the_rest_is_the_pile():
    first = ["6-6", "5-6", "4-6", "3-6", "0-0", "0-1", "0-2", "0-3", "1-1", "1-2", "1-3", "1-4"]
    state = new((A, B, C), *first)
    assert state.bones == {
        A: {"up": "6-6", "down": "5-6", "in": "4-6", "out": "3-6"},
        B: {"up": "0-0", "down": "0-1", "in": "0-2", "out": "0-3"},
        C: {"up": "1-1", "down": "1-2", "in": "1-3", "out": "1-4"},
    }
    assert state.pile == order(*first)[12:]
    view = GAME.view(state, None)
    assert view["pile"] == 16 and view["hand"] == 1 and view["phase"] == "turns"
    assert view["turns_left"] == {A: 3, B: 3, C: 3}


def test_hand_one_starts_with_seat_one():
    assert GAME.to_act(new((A, B, C))) == [A]


def test_first_player_of_hand_k_is_seat_k_minus_one_mod_players_plus_one():
    state = new((A, B, C))
    firsts = []
    for _ in range(4):
        firsts.append(GAME.to_act(state)[0])
        state = score_all(finish_turns(state), box=BOXES[state.hand - 1])
    assert firsts == [A, B, C, A]


# Turns ----------------------------------------------------------------------------------------------

def test_draw_takes_the_pile_top_and_only_the_drawer_sees_it():
    state = new((A, B, C))
    top = state.pile[0]
    state, events = play(state, A, DRAW)
    assert state.drawn == top and state.pile[0] != top
    assert GAME.view(state, A)["drawn"] == top
    assert GAME.view(state, B)["drawn"] is None
    assert GAME.view(state, None)["drawn"] is None
    assert GAME.view(state, None)["phase"] == "drawn" and GAME.view(state, None)["pile"] == 15
    assert events == [{"type": "drew", "player": A, "pile": 15}]


def test_turns_left_drops_at_the_end_of_the_turn_not_at_the_draw():
    state, _ = play(new(), A, DRAW)
    assert GAME.view(state, None)["turns_left"] == {A: 3, B: 3}
    state, _ = play(state, A, place(A, "in"))
    assert GAME.view(state, None)["turns_left"] == {A: 2, B: 3}
    assert GAME.to_act(state) == [B]


@pytest.mark.parametrize(("target", "position"), [(A, "in"), (A, "up"), (B, "out"), (B, "up")])
def test_drawn_bone_goes_to_own_in_or_up_or_another_players_out_or_up(target, position):
    state, _ = play(new(), A, DRAW)
    drawn, replaced = state.drawn, state.bones[target][position]
    state, _ = play(state, A, place(target, position))
    assert state.bones[target][position] == drawn and state.drawn is None
    everywhere = [bone for hand in state.bones.values() for bone in hand.values()] + state.pile
    assert replaced not in everywhere, "the replaced bone leaves play for the hand"


def test_replaced_bone_is_never_shown_again():
    state, _ = play(new(), A, DRAW)
    replaced = state.bones[A]["up"]
    state, events = play(state, A, place(A, "up"))
    state = finish_turns(state)
    assert replaced not in str(GAME.view(state, None)) and replaced not in str(events)


@pytest.mark.parametrize(("target", "position", "message"), [
    (A, "out", "not face out"), (B, "in", "not face in"), ("zed", "up", "not at this table"),
])
def test_placing_elsewhere_is_refused(target, position, message):
    state, _ = play(new(), A, DRAW)
    with pytest.raises(IllegalMove, match=message):
        play(state, A, place(target, position))


def test_placing_face_down_is_not_an_action():
    state, _ = play(new(), A, DRAW)
    with pytest.raises(IllegalMove):
        play(state, A, place(A, "down"))


def test_place_before_drawing_is_refused():
    with pytest.raises(IllegalMove, match="Draw a bone first"):
        play(new(), A, place(A, "in"))


@pytest.mark.parametrize("action", [DRAW, swap("up", "bob")])
def test_after_drawing_only_placing_is_allowed(action):
    state, _ = play(new(), A, DRAW)
    with pytest.raises(IllegalMove, match="place it first"):
        play(state, A, action)


def test_draw_is_not_allowed_when_the_pile_is_empty():
    state = new().model_copy(update={"pile": []})
    assert {"type": "draw"} not in GAME.legal_actions(state, A)
    with pytest.raises(IllegalMove, match="pile is empty"):
        play(state, A, DRAW)


def test_the_pile_never_runs_out_even_with_four_players():
    state = new((A, B, C, D))
    while state.phase != "scoring":
        player = GAME.to_act(state)[0]
        state, _ = play(state, player, DRAW)
        state, _ = play(state, player, place(player, "in"))
    assert state.pile == []


def test_up_swap_exchanges_face_up_bones_and_events_show_them():
    state = new((A, B), "1-1", "1-2", "1-3", "1-4", "2-2", "2-3", "2-4", "2-5")
    state, events = play(state, A, swap("up", B))
    assert state.bones[A]["up"] == "2-2" and state.bones[B]["up"] == "1-1"
    assert events == [
        {"type": "swapped", "player": A, "with": B, "kind": "up", "bones": {A: "2-2", B: "1-1"}},
    ]


def test_in_out_swap_exchanges_own_in_with_anothers_out_and_events_show_no_bone():
    state = new((A, B), "1-1", "1-2", "1-3", "1-4", "2-2", "2-3", "2-4", "2-5")
    state, events = play(state, A, swap("in-out", B))
    assert state.bones[A]["in"] == "2-5" and state.bones[B]["out"] == "1-3"
    assert events == [{"type": "swapped", "player": A, "with": B, "kind": "in-out"}]


@pytest.mark.parametrize(("other", "message"), [(A, "another player"), ("zed", "not at this table")])
def test_swap_needs_another_seated_player(other, message):
    with pytest.raises(IllegalMove, match=message):
        play(new(), A, swap("up", other))


def test_a_bone_for_someone_not_at_the_table_is_refused_naming_who_is():
    """The refusal says what to do instead: the players at the table, the one acting left out."""
    three = new((A, B, C))
    with pytest.raises(IllegalMove, match=f"That player is not at this table: swap with {B} or {C}\\."):
        play(three, A, swap("up", D))
    drawn, _ = play(three, A, DRAW)
    placed_elsewhere = f"That player is not at this table: place it on your own bones, {B}'s or {C}'s\\."
    with pytest.raises(IllegalMove, match=placed_elsewhere):
        play(drawn, A, place(D, "up"))


def test_turns_go_in_seat_order_three_each_then_every_bone_is_revealed():
    state = new((A, B, C))
    seen = []
    while state.phase == "turns":
        player = GAME.to_act(state)[0]
        seen.append(player)
        state, events = play(state, player, swap("in-out", A if player != A else B))
    assert seen == [A, B, C] * 3
    assert state.phase == "scoring"
    assert events[-1]["type"] == "revealed" and events[-1]["hand"] == 1
    public = GAME.view(state, None)
    assert all(None not in entry.values() for entry in public["players"])
    assert events[-1]["players"] == public["players"]


def test_acting_out_of_turn_is_refused_with_whose_turn_it_is():
    with pytest.raises(IllegalMove, match="It is alice's turn"):
        play(new(), B, DRAW)


def test_unseated_player_is_refused():
    with pytest.raises(IllegalMove, match="not playing"):
        play(new(), "zed", DRAW)


def test_score_before_the_hand_ends_is_refused():
    with pytest.raises(IllegalMove, match="after everyone's third turn"):
        play(new(), A, score("chance"))


# Scoring --------------------------------------------------------------------------------------------

def test_scoring_is_simultaneous_in_any_order_and_to_act_lists_who_has_not_chosen():
    state = finish_turns(new((A, B, C)))
    assert GAME.to_act(state) == [A, B, C]
    state, events = play(state, C, score("sixes"))
    assert GAME.to_act(state) == [A, B]
    points = box_score(state.bones[C].values(), "sixes")
    assert events == [{"type": "scored", "player": C, "box": "sixes", "points": points}]
    assert GAME.view(state, None)["scorecard"][C]["sixes"] == points, "shows on the public card at once"
    state, _ = play(state, A, score("ones"))
    assert GAME.to_act(state) == [B]


def test_choosing_twice_in_a_hand_is_refused():
    state, _ = play(finish_turns(new()), A, score("ones"))
    with pytest.raises(IllegalMove, match="waiting for bob"):
        play(state, A, score("twos"))


def test_a_filled_box_cannot_be_chosen_again():
    state = score_all(finish_turns(new()), "chance")
    state = finish_turns(state)
    assert {"type": "score", "box": "chance"} not in GAME.legal_actions(state, A)
    with pytest.raises(IllegalMove, match="filled already"):
        play(state, A, score("chance"))


def test_a_box_the_hand_cannot_fill_scores_zero_but_may_be_chosen():
    state = scoring_state({A: ["1-1", "1-2", "1-3", "1-4"], B: ["2-2", "2-3", "2-4", "2-5"]})
    state, events = play(state, A, score("sixes"))
    assert events[0]["points"] == 0 and state.scorecard[A]["sixes"] == 0


def test_when_everyone_has_chosen_the_next_hand_is_dealt():
    state = finish_turns(new())
    state, _ = play(state, A, score("ones"))
    nxt = order("6-6", "5-5", "4-4", "3-3", "2-2", "1-1", "0-0", "0-6")
    state, events = play(state, B, score("twos"), [nxt])
    assert events[-1] == {"type": "dealt", "hand": 2, "first": B}
    assert state.bones[A] == {"up": "6-6", "down": "5-5", "in": "4-4", "out": "3-3"}
    view = GAME.view(state, None)
    assert (view["phase"], view["hand"], view["pile"], view["drawn"]) == ("turns", 2, 20, None)
    assert view["turns_left"] == {A: 3, B: 3}


def test_the_game_lasts_ten_hands_and_the_last_hand_stays_revealed():
    state = new()
    for box in BOXES:
        state = score_all(finish_turns(state), box)
    view = GAME.view(state, None)
    assert view["phase"] == "over" and view["hand"] == 10 and view["to_act"] == []
    assert all(None not in entry.values() for entry in view["players"])
    assert all(points is not None for card in view["scorecard"].values() for points in card.values())
    assert GAME.legal_actions(state, A) == []
    with pytest.raises(IllegalMove, match="over"):
        play(state, A, score("ones"))


def test_highest_total_wins():
    state = scoring_state({A: ["6-6", "5-6", "4-4", "3-3"], B: ["1-1", "1-2", "1-3", "0-1"]}, hand=10)
    state, _ = play(state, A, score("chance"))
    state, events = play(state, B, score("chance"))
    assert GAME.result(state) == {"winners": [A], "scores": {A: 37, B: 10}}
    assert events[-1] == {"type": "game_over", "winners": [A], "scores": {A: 37, B: 10}}


def test_ties_share_the_win():
    state = scoring_state({A: ["1-6", "2-5", "3-4", "0-1"], B: ["1-6", "2-5", "3-4", "0-1"]}, hand=10)
    for player in (A, B):
        state, _ = play(state, player, score("chance"))
    assert GAME.result(state) == {"winners": [A, B], "scores": {A: 22, B: 22}}


def test_result_is_none_while_the_game_runs():
    assert GAME.result(new()) is None
    assert GAME.result(finish_turns(new())) is None


# The scorecard -------------------------------------------------------------------------------------

def test_there_are_ten_boxes():
    assert BOXES == ("ones", "twos", "threes", "fours", "fives", "sixes", "full_house", "run4", "run5",
                     "chance")


def test_seed_example_three_twos_score_six_in_twos():
    assert box_score(["2-2", "2-5", "1-3", "4-6"], "twos") == 6


def test_seed_example_two_fours_and_three_fives_score_23_in_full_house():
    assert box_score(["4-4", "5-5", "1-5", "3-6"], "full_house") == 23


def test_seed_example_two_to_six_scores_20_in_run5():
    assert box_score(["2-3", "4-5", "6-6", "1-1"], "run5") == 20


@pytest.mark.parametrize(("box", "number"), list(zip(BOXES[:6], range(1, 7), strict=True)))
def test_number_boxes_sum_the_ends_showing_that_number(box, number):
    bones = [f"{number}-{number}", "3-4" if number not in (3, 4) else "1-2", "5-6" if number < 5 else "1-2"]
    bones.append("1-3" if number not in (1, 3) else "2-4")
    expected = number * hand_ends(bones).count(number)
    assert box_score(bones, box) == expected > 0


def test_full_house_needs_two_different_numbers():
    assert box_score(["5-5", "5-5", "5-6", "1-2"], "full_house") == 0


def test_full_house_takes_the_best_of_several():
    assert box_score(["6-6", "6-5", "5-3", "3-3"], "full_house") == 3 * 6 + 2 * 5


def test_blanks_count_as_zero_in_a_full_house():
    assert box_score(["0-0", "0-5", "5-1", "2-3"], "full_house") == 10


def test_runs_allow_zero_as_a_number():
    assert box_score(["0-1", "2-3", "5-5", "6-6"], "run4") == 6
    assert box_score(["0-1", "2-3", "4-6", "6-6"], "run5") == 10


def test_run4_and_run5_take_the_highest_run():
    assert box_score(["1-2", "3-4", "5-6", "0-0"], "run4") == 18
    assert box_score(["1-2", "3-4", "5-6", "0-0"], "run5") == 20


def test_chance_sums_all_eight_ends():
    assert box_score(["1-2", "3-4", "5-6", "1-1"], "chance") == 23


def test_two_blank_ends_act_as_one_wild():
    assert box_score(["0-0", "6-6", "1-2", "3-4"], "sixes") == 18
    assert box_score(["0-0", "4-4", "5-5", "5-1"], "full_house") == 23
    assert box_score(["0-2", "0-3", "4-6", "1-1"], "run5") == 20


def test_a_single_blank_end_is_no_wild():
    assert box_score(["0-6", "6-1", "1-2", "3-4"], "sixes") == 12


def test_a_pair_of_blanks_is_one_wild_and_four_blanks_are_two():
    assert box_score(["0-0", "1-1", "1-2", "3-4"], "ones") == 4
    assert box_score(["0-0", "0-0", "6-1", "1-2"], "sixes") == 18


def test_in_chance_a_pair_of_blank_ends_is_worth_six():
    assert box_score(["0-0", "1-1", "1-2", "3-4"], "chance") == 18
    assert box_score(["0-1", "0-1", "0-2", "3-4"], "chance") == 6 + 11


def test_all_box_scores_covers_every_box():
    assert set(all_box_scores(["1-1", "2-2", "3-3", "4-4"])) == set(BOXES)


def test_engine_scores_with_the_best_wild_for_the_chosen_box():
    state = scoring_state({A: ["0-0", "6-6", "6-1", "2-3"], B: ["1-1", "2-2", "3-3", "4-4"]})
    _, events = play(state, A, score("sixes"))
    assert events[0]["points"] == 24


# Views ----------------------------------------------------------------------------------------------

HAND = ("1-1", "1-2", "1-3", "1-4", "2-2", "2-3", "2-4", "2-5", "3-3", "3-4", "3-5", "3-6")


def test_private_view_follows_the_visibility_table():
    state = new((A, B, C), *HAND)
    view = GAME.view(state, A)
    assert view["players"] == [
        {"id": A, "up": "1-1", "down": None, "in": "1-3", "out": None},
        {"id": B, "up": "2-2", "down": None, "in": None, "out": "2-5"},
        {"id": C, "up": "3-3", "down": None, "in": None, "out": "3-6"},
    ]


def test_public_view_shows_face_up_bones_only():
    view = GAME.view(new((A, B, C), *HAND), None)
    assert view["players"] == [
        {"id": A, "up": "1-1", "down": None, "in": None, "out": None},
        {"id": B, "up": "2-2", "down": None, "in": None, "out": None},
        {"id": C, "up": "3-3", "down": None, "in": None, "out": None},
    ]


def test_ruling_a_spectator_gets_the_public_view():
    state = new((A, B, C), *HAND)
    assert GAME.view(state, "zed") == GAME.view(state, None)


def test_view_has_the_keys_of_the_rules_file():
    view = GAME.view(new(), A)
    assert set(view) == {"phase", "hand", "pile", "players", "drawn", "to_act", "turns_left", "scorecard"}
    assert set(view["scorecard"][A]) == set(BOXES)


def test_ruling_visibility_follows_the_bone_not_who_saw_it():
    state = new((A, B), *HAND[:8])
    state, _ = play(state, A, swap("in-out", B))
    assert hand_of(GAME.view(state, A), A)["in"] == "2-5"
    assert hand_of(GAME.view(state, A), B)["out"] == "1-3"
    assert hand_of(GAME.view(state, B), B)["out"] is None
    assert hand_of(GAME.view(state, B), A)["in"] is None


def test_a_bone_placed_in_anothers_face_out_is_seen_by_the_placer_not_the_owner():
    state, _ = play(new((A, B, C), *HAND), A, DRAW)
    drawn = state.drawn
    state, events = play(state, A, place(B, "out"))
    assert hand_of(GAME.view(state, A), B)["out"] == drawn
    assert hand_of(GAME.view(state, C), B)["out"] == drawn
    assert hand_of(GAME.view(state, B), B)["out"] is None
    assert drawn not in str(events)


def test_every_view_shows_all_bones_at_scoring_time():
    state = finish_turns(new((A, B, C)))
    for viewer in (None, A, B):
        assert all(None not in entry.values() for entry in GAME.view(state, viewer)["players"])


# Contract -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("action", [
    {}, {"type": "fly"}, {"type": "place"}, {"type": "place", "target": B, "position": "down"},
    {"type": "swap", "kind": "down", "with": B}, {"type": "swap", "kind": "up"},
    {"type": "score", "box": "yahtzee"}, {"type": "draw", "extra": 1}, "draw", None, [1, 2],
])
def test_malformed_actions_raise_illegal_move(action):
    with pytest.raises(IllegalMove):
        play(new(), A, action)


def test_apply_does_not_mutate_its_input():
    state = new((A, B, C))
    before = state.model_dump_json()
    drawn, _ = play(state, A, DRAW)
    play(drawn, A, place(B, "out"))
    play(state, A, swap("in-out", B))
    assert state.model_dump_json() == before
    assert drawn.drawn is not None and drawn.phase == "drawn"


def test_state_round_trips_through_json():
    state, _ = play(new((A, B, C)), A, DRAW)
    assert GAME.state_from_json(state.model_dump_json()) == state


def test_legal_actions_are_empty_for_players_not_to_act():
    state = new((A, B, C))
    assert GAME.legal_actions(state, B) == [] and GAME.legal_actions(state, "zed") == []


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), seats=st.integers(2, 4))
def test_random_legal_games_end_soundly(seed, seats):
    rng, chooser = SeededRandomness(seed), random.Random(seed)
    players = [A, B, C, D][:seats]
    state = GAME.new_game(players, rng)
    moves = 0
    while GAME.result(state) is None:
        acting = GAME.to_act(state)
        assert acting
        player = chooser.choice(acting)
        legal = GAME.legal_actions(state, player)
        if moves % 7 == 0:
            for action in legal:
                GAME.apply(state, player, action, SeededRandomness(seed))
        state, _ = GAME.apply(state, player, chooser.choice(legal), rng)
        assert GAME.state_from_json(state.model_dump_json()) == state
        moves += 1
    assert len(BOXES) * seats * 4 <= moves <= len(BOXES) * seats * 7
    result = GAME.result(state)
    assert GAME.to_act(state) == []
    assert set(result["scores"]) == set(players)
    assert result["winners"] and all(result["scores"][w] == max(result["scores"].values())
                                     for w in result["winners"])
    assert all(points is not None for card in state.scorecard.values() for points in card.values())
    assert state.hand == len(BOXES)
