"""John Henry's front end: the board PNG, buttons and verbs, narration and the state summary."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.presentation.frontends import FRONTENDS
from bot.presentation.frontends.john_henry import FRONTEND
from bot.presentation.render.canvas import PHONE_WIDTH
from bot.presentation.render.john_henry import HEIGHT, WIDTH
from games.core import IllegalMove, ScriptedRandomness, SeededRandomness
from games.john_henry import GAME, State, Track

A, B = "alice", "bob"
NAMES = {A: "Alice", B: "Bob"}
MENTIONS = {A: "<@1>", B: "<@2>"}


def in_play(turn: str = A, alice: tuple[int, int] = (1, 1), bob: tuple[int, int] = (13, 1),
            john_henry: int | None = None, dead: bool = False, **extra) -> State:
    return State(
        players=[A, B], tracks=[Track(space=alice[0], dots=alice[1]), Track(space=bob[0], dots=bob[1])],
        phase="play", turn=[A, B].index(turn), john_henry=john_henry, john_henry_dead=dead, **extra,
    )


def view(state: State) -> dict:
    return GAME.view(state, None)


def picture(state: State, names: dict[str, str] = NAMES) -> Image.Image:
    return Image.open(io.BytesIO(FRONTEND.draw_board(view(state), names)))


def apply(state: State, player: str, action: dict, rolls: list[int]) -> tuple[State, list[dict]]:
    return GAME.apply(state, player, action, ScriptedRandomness(rolls=rolls))


# The board -----------------------------------------------------------------------------------------

def test_registered_under_its_slug():
    assert FRONTENDS["john-henry"] is FRONTEND


def test_board_is_a_png_of_the_expected_size():
    image = picture(GAME.new_game([A, B], ScriptedRandomness()))
    assert image.format == "PNG"
    assert image.size == (WIDTH, HEIGHT) and WIDTH == PHONE_WIDTH and HEIGHT < WIDTH


@pytest.mark.parametrize("changed", [
    in_play(alice=(2, 1)),
    in_play(alice=(1, 4)),
    in_play(bob=(12, 1)),
    in_play(john_henry=0),
    in_play(john_henry=1),
    in_play(dead=True),
    in_play(turn=B),
])
def test_picture_changes_with_the_view(changed):
    assert picture(in_play()).tobytes() != picture(changed).tobytes()


def test_john_henry_beside_each_holder_is_drawn_differently():
    assert picture(in_play(john_henry=0)).tobytes() != picture(in_play(john_henry=1)).tobytes()


def test_center_count_and_a_winning_die_beyond_six_are_drawn():
    both = in_play(alice=(7, 3), bob=(7, 2))
    won, _ = apply(in_play(alice=(7, 3), bob=(7, 2), john_henry=0), A, {"type": "roll"}, [5, 5])
    assert view(won)["players"][0]["dots"] == 13
    assert picture(both).tobytes() != picture(won).tobytes()


def test_display_names_appear_in_the_picture():
    state = in_play()
    assert picture(state).tobytes() != picture(state, {A: "Zebulon Pike", B: "Bob"}).tobytes()
    assert picture(state, {}).size == (WIDTH, HEIGHT)  # unknown names fall back to ids


# Buttons and verbs ---------------------------------------------------------------------------------

def test_roll_button_whenever_a_roll_is_possible():
    for state in (GAME.new_game([A, B], ScriptedRandomness()), in_play()):
        assert [(b.label, b.token) for b in FRONTEND.buttons(view(state))] == [("Roll", "roll")]


def test_keep_the_six_button_while_awaiting_the_bonus():
    state, _ = apply(in_play(), A, {"type": "roll"}, [6])
    buttons = FRONTEND.buttons(view(state))
    assert [(b.label, b.token) for b in buttons] == [("Roll", "roll"), ("Keep the 6", "stop")]
    for button in buttons:
        action = FRONTEND.action_for_button(button.token)
        assert action in GAME.legal_actions(state, A)
        GAME.apply(state, A, action, ScriptedRandomness(rolls=[3]))


def test_no_buttons_once_the_game_is_over():
    won, _ = apply(in_play(alice=(7, 3), bob=(7, 2)), A, {"type": "roll"}, [4])
    assert FRONTEND.buttons(view(won)) == []


def test_unknown_button_token_is_refused():
    with pytest.raises(IllegalMove):
        FRONTEND.action_for_button("move")


def test_roll_verb_is_the_roll_action_and_other_verbs_are_refused():
    assert set(FRONTEND.verbs) == {"roll"}
    assert FRONTEND.verb_action("roll", {}) == {"type": "roll"}
    with pytest.raises(IllegalMove, match="/roll"):
        FRONTEND.verb_action("move", {"pawn": 3})


def test_buttons_are_accepted_throughout_random_games():
    for seed in range(5):
        rng = SeededRandomness(seed)
        state = GAME.new_game([A, B], rng)
        while GAME.result(state) is None:
            player = GAME.to_act(state)[0]
            button = FRONTEND.buttons(view(state))[-1]
            state, events = GAME.apply(state, player, FRONTEND.action_for_button(button.token), rng)
            assert FRONTEND.describe_events(events, MENTIONS)
        assert FRONTEND.buttons(view(state)) == []


# Narration -----------------------------------------------------------------------------------------

def test_roll_off_narration_names_the_players():
    state = GAME.new_game([A, B], ScriptedRandomness())
    state, first = apply(state, A, {"type": "roll"}, [5])
    _, second = apply(state, B, {"type": "roll"}, [2])
    lines = FRONTEND.describe_events(first + second, MENTIONS)
    assert lines[0] == "<@1> rolls 5 for first player."
    assert "<@2> rolls 2" in lines[1]
    assert "<@1> goes first" in lines[2]
    assert "North Platte" in lines[3] and "advances 1 space" in lines[3]


def test_roll_off_tie_narration():
    state, _ = apply(GAME.new_game([A, B], ScriptedRandomness()), A, {"type": "roll"}, [4])
    _, events = apply(state, B, {"type": "roll"}, [4])
    assert "roll again" in FRONTEND.describe_events(events, MENTIONS)[-1]


def test_taking_john_henry_is_narrated_and_the_state_asks_for_the_choice():
    state, events = apply(in_play(john_henry=1), A, {"type": "roll"}, [6])
    lines = FRONTEND.describe_events(events, MENTIONS)
    assert lines == ["<@1> rolls 6.", "🔨 John Henry leaves <@2> to work for <@1>!"]
    assert FRONTEND.describe_state(view(state), MENTIONS).endswith("<@1>: roll the bonus die or keep the 6")


def test_passing_john_henry_is_narrated():
    _, events = apply(in_play(john_henry=0), A, {"type": "roll"}, [1, 4])
    lines = FRONTEND.describe_events(events, MENTIONS)
    assert lines[0] == "<@1> rolls 1 and 4."
    assert "leaves <@1>" in lines[1] and "<@2>" in lines[1]
    assert "lays 1 dot of track" in lines[2] and "Omaha" in lines[2]


def test_death_and_the_win_are_narrated():
    _, events = apply(in_play(alice=(7, 3), john_henry=0), A, {"type": "roll"}, [2, 2])
    lines = FRONTEND.describe_events(events, MENTIONS)
    assert "dies with his hammer" in lines[1] and "<@1>" in lines[1]
    assert "<@1> **drives the golden spike" in lines[-1]


def test_bonus_and_kept_six_are_narrated():
    state, _ = apply(in_play(), A, {"type": "roll"}, [6])
    _, bonus = apply(state, A, {"type": "roll"}, [3])
    _, kept = apply(state, A, {"type": "stop"}, [])
    assert FRONTEND.describe_events(bonus, MENTIONS)[0] == "<@1> rolls a bonus 3 with the 6."
    assert FRONTEND.describe_events(kept, MENTIONS)[0] == "<@1> keeps the 6."


# State summary and rules ---------------------------------------------------------------------------

def test_state_summary_gives_positions_center_and_john_henry():
    text = FRONTEND.describe_state(view(in_play(B, alice=(7, 3), bob=(7, 2), john_henry=0)), NAMES)
    assert "Union Pacific** (Alice, orange circle): Promontory Point (7), 3 dots" in text
    assert "Central Pacific** (Bob, blue square)" in text
    assert "5 of 7" in text
    assert "working for Alice" in text
    assert "To roll: Bob" in text
    assert "dead" in FRONTEND.describe_state(view(in_play(dead=True)), NAMES)
    assert "in the box" in FRONTEND.describe_state(view(in_play()), NAMES)


def test_state_summary_names_each_seats_colour_and_mark_as_the_picture_draws_them():
    """The picture marks Alice with an orange circle and Bob with a blue square beside their names; the
    words say so where the players are listed, so a player told which mark is his can find it."""
    text = FRONTEND.describe_state(view(in_play()), NAMES)
    assert "**Union Pacific** (Alice, orange circle): " in text
    assert "**Central Pacific** (Bob, blue square): " in text


def test_state_summary_after_the_win_names_the_winner():
    won, _ = apply(in_play(alice=(7, 3), bob=(7, 2)), A, {"type": "roll"}, [4])
    assert "Winner: Alice" in FRONTEND.describe_state(view(won), NAMES)


def test_rules_text_is_short_and_mentions_the_key_rules():
    assert len(FRONTEND.rules_text) <= 1500
    for phrase in ("golden spike", "Promontory Point", "doubles", "6 dots", "7"):
        assert phrase in FRONTEND.rules_text


def test_rules_text_says_the_spike_needs_7_or_more_not_exactly_7():
    """Rules file: the roll that brings the shared count to 7 *or more* wins; "to 7" reads as an exact roll."""
    assert "**7** or more" in FRONTEND.rules_text


def test_a_driven_spike_is_said_so_not_counted_past_its_dots():
    running = FRONTEND.describe_state(view(in_play(alice=(7, 3), bob=(7, 2))), NAMES)
    assert "Golden spike: 5 of 7 dots at Promontory Point" in running
    won, _ = apply(in_play(alice=(7, 3), bob=(7, 2), john_henry=0), A, {"type": "roll"}, [5, 5])
    over = FRONTEND.describe_state(view(won), NAMES)
    assert "Golden spike: driven at Promontory Point (15 dots, 7 needed)" in over and "of 7 dots" not in over
