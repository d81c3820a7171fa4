"""The Two Fat Dudes front end: board picture, buttons, verbs and narration, from views only."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.presentation.frontend import ActionButton, Form, narrate
from bot.presentation.frontends import FRONTENDS
from bot.presentation.frontends.two_fat_dudes import FRONTEND
from bot.presentation.render.canvas import PHONE_WIDTH
from bot.presentation.render.two_fat_dudes import HEIGHT, WIDTH
from games.core import IllegalMove, ScriptedRandomness
from games.two_fat_dudes import GAME, Offer, TwoFatDudesState

A, B = "alice", "bob"
NAMES = {A: "Alice", B: "Bob"}
MENTIONS = {A: "<@1>", B: "<@2>"}


def state(**fields) -> TwoFatDudesState:
    base = {"players": [A, B], "phase": "walk", "start_player": 0, "edge": 1, "turn": 0}
    base.update(fields)
    return TwoFatDudesState(**base)


def view_of(**fields) -> dict:
    return GAME.view(state(**fields), None)


def picture(view: dict) -> Image.Image:
    return Image.open(io.BytesIO(FRONTEND.draw_board(view, NAMES)))


def test_frontend_is_registered():
    assert FRONTENDS["two-fat-dudes"] is FRONTEND
    assert len(FRONTEND.rules_text) <= 1500


def test_board_is_a_png_of_the_expected_size():
    image = picture(view_of())
    assert image.format == "PNG" and image.size == (WIDTH, HEIGHT)
    assert WIDTH == PHONE_WIDTH and HEIGHT < WIDTH


@pytest.mark.parametrize("change", [
    {"positions": [5, 14]},
    {"scores": [7, 0]},
    {"edge": 0},
    {"encounters": 2},
    {"phase": "encounter", "encounters": 1, "decider": 0, "offer": Offer(payer=0, points=18, proposed_by=0)},
])
def test_the_picture_changes_with_the_view(change):
    before = picture(view_of()).tobytes()
    assert picture(view_of(**change)).tobytes() != before


def test_the_green_space_is_told_from_the_red_ones_by_more_than_colour(monkeypatch):
    """Under red-green colour blindness the green 10 looks like a red space (CIEDE2000 2.4 apart under
    deuteranopia), and a red space takes points from blue: the green one says "+10", a gain for either dude."""
    from bot.presentation.render import two_fat_dudes as render
    from bot.presentation.render.canvas import Board

    drawn: list[str] = []
    real = Board.text

    def recorded(self, xy, text, *args, **kwargs):
        if xy[1] == render.TRACK_Y + 20:  # the numbers on the spaces
            drawn.append(text)
        return real(self, xy, text, *args, **kwargs)

    monkeypatch.setattr(Board, "text", recorded)
    render._hallway.cache_clear()
    try:
        picture(view_of())
    finally:
        render._hallway.cache_clear()
    assert drawn == ["1", "2", "1", "3", "4", "2", "+10", "2", "4", "3", "1", "2", "1"]


def test_finished_and_roll_off_boards_draw():
    over = view_of(phase="over", positions=[14, 14], exited=[True, False], winners=[A], scores=[3, -70])
    assert picture(over).size == (WIDTH, HEIGHT)
    roll_off = GAME.view(GAME.new_game([A, B], ScriptedRandomness()), None)
    assert picture(roll_off).size == (WIDTH, HEIGHT)


def tokens(view: dict) -> list[str]:
    buttons = FRONTEND.buttons(view)
    assert all(isinstance(button, ActionButton) for button in buttons)
    return [button.token for button in buttons]


@pytest.mark.parametrize("fields", [
    {"phase": "roll-off", "start_player": None, "edge": None},
    {},
    {"phase": "race", "positions": [9, 4]},
])
def test_roll_button_where_a_roll_is_due(fields):
    assert tokens(view_of(**fields)) == ["roll"]
    assert FRONTEND.action_for_button("roll") == {"type": "roll"}


def test_buttons_decode_to_actions_the_engine_accepts():
    situations = [
        state(phase="encounter", positions=[6, 7], encounters=1, decider=0),
        state(phase="encounter", positions=[6, 7], encounters=1, offer=Offer(payer=0, points=3, proposed_by=0)),
        state(phase="edge", positions=[6, 7], encounters=3),
        state(),
    ]
    for situation in situations:
        view = GAME.view(situation, None)
        player = view["to_act"][0]
        for token in tokens(view):
            action = FRONTEND.action_for_button(token)
            assert action in GAME.legal_actions(situation, player) or action["type"] in ("offer", "counter")
            GAME.apply(situation, player, action, ScriptedRandomness(rolls=[1]))


def test_encounter_buttons_with_nothing_on_the_table():
    view = view_of(phase="encounter", positions=[6, 7], encounters=1, decider=0)
    buttons = FRONTEND.buttons(view)
    assert [b.token for b in buttons] == ["pass", "offer.0", "offer.5", "offer.10"]
    assert [b.label for b in buttons][1:] == ["Offer 0", "Offer 5", "Offer 10"]
    assert FRONTEND.action_for_button("offer.5") == {"type": "offer", "points": 5}


def test_facing_an_offer_buttons_and_the_counter_form_for_the_decider_alone():
    situation = state(phase="encounter", positions=[6, 7], encounters=1, offer=Offer(payer=0, points=3, proposed_by=0))
    view = GAME.view(situation, None)
    assert tokens(view) == ["accept", "decline"]
    legal = {player: GAME.legal_actions(situation, player) for player in situation.players}
    components = FRONTEND.components(view, legal)
    form = components[-1]
    assert isinstance(form, Form) and form.key == "counter" and form.label == "Counter…"
    assert all(c.players == tuple(view["to_act"]) for c in components)
    assert "3" in form.fields[0].placeholder
    with pytest.raises(IllegalMove, match="form"):
        FRONTEND.action_for_button("counter")
    assert FRONTEND.action_for_form("counter", {"points": " 23 "}) == {"type": "counter", "points": 23}
    assert FRONTEND.action_for_button("counter.23") == {"type": "counter", "points": 23}
    for bad in ("-1", "", "5 points", "1.5"):
        with pytest.raises(IllegalMove, match="Counter…"):
            FRONTEND.action_for_form("counter", {"points": bad})


def test_with_nothing_on_the_table_an_offer_form_takes_any_amount():
    situation = state(phase="encounter", positions=[6, 7], encounters=1, decider=0)
    view = GAME.view(situation, None)
    legal = {player: GAME.legal_actions(situation, player) for player in situation.players}
    form = FRONTEND.components(view, legal)[-1]
    assert isinstance(form, Form) and form.key == "offer" and form.players == tuple(view["to_act"])
    action = FRONTEND.action_for_form("offer", {"points": "17"})
    assert action == {"type": "offer", "points": 17}
    GAME.apply(situation, view["to_act"][0], action, ScriptedRandomness())


def test_edge_buttons():
    view = view_of(phase="edge", positions=[6, 7], encounters=1)
    assert tokens(view) == ["edge.retreat", "edge.send_back"]
    assert FRONTEND.action_for_button("edge.send_back") == {"type": "edge", "choice": "send_back"}


def test_no_buttons_when_over_and_unknown_tokens_are_refused():
    assert FRONTEND.buttons(view_of(phase="over", exited=[True, False], positions=[14, 3], winners=[A])) == []
    for token in ("fly", "offer.", "offer.x", "edge.dance"):
        with pytest.raises(IllegalMove):
            FRONTEND.action_for_button(token)


def test_roll_verb_and_unused_verbs():
    assert FRONTEND.verbs.keys() == {"roll"}
    assert FRONTEND.verb_action("roll", {}) == {"type": "roll"}
    with pytest.raises(IllegalMove, match="/roll"):
        FRONTEND.verb_action("move", {"to": 3})


def told(before: TwoFatDudesState, player: str, action: dict, rolls=()) -> tuple[TwoFatDudesState, str]:
    """The move played, and what the table says of it (through `narrate`, as the bot tells it)."""
    after, events = GAME.apply(before, player, action, ScriptedRandomness(rolls=rolls))
    lines = narrate(FRONTEND, events, MENTIONS)
    assert all(isinstance(line, str) and line for line in lines)
    return after, "\n".join(lines)


def test_a_move_is_one_sentence_with_its_score():
    _, text = told(state(), A, {"type": "roll"}, [4])
    assert text == "<@1> rolls a 4 and moves to space 4 (+3, now 3)."
    _, text = told(state(turn=1), B, {"type": "roll"}, [2])
    assert text == "<@2> rolls a 2 and moves to space 12 (+2, now 2)."


def test_an_undo_between_moves_leaves_each_move_whole():
    _, move = GAME.apply(state(), A, {"type": "roll"}, ScriptedRandomness(rolls=[4]))
    undo = {"type": "undone", "player": B, "move": 4, "action": "offer"}
    line = "<@1> rolls a 4 and moves to space 4 (+3, now 3)."
    assert narrate(FRONTEND, [*move, undo, *move], MENTIONS) == [line, "<@2> took back move 4 (offer).", line]


def test_narration_of_the_roll_off():
    game = GAME.new_game([A, B], ScriptedRandomness())
    game, text = told(game, A, {"type": "roll"}, [2])
    assert "<@1> rolls 2" in text
    game, text = told(game, B, {"type": "roll"}, [2])
    assert "tie" in text
    game, _ = told(game, A, {"type": "roll"}, [1])
    game, text = told(game, B, {"type": "roll"}, [4])
    assert "<@2> starts; <@1> takes the Edge" in text


def test_narration_of_a_move_and_an_encounter_and_a_deal():
    game, text = told(state(positions=[3, 5]), A, {"type": "roll"}, [4])
    assert "<@1> rolls a 4 but is blocked and stops on space 4 (+3, now 3)." in text
    assert "Encounter 1" in text and "<@2>" in text
    game, text = told(game, A, {"type": "offer", "points": 18})
    assert "<@1> offers <@2> 18 points to let them pass (-1, now 2)." in text
    game, text = told(game, B, {"type": "counter", "points": 23})
    assert "<@2> counters: they want 23 points from <@1> (-1, now -1)." in text
    game, text = told(game, A, {"type": "accept"})
    assert "<@1> accepts: <@1> pays <@2> 23 points" in text
    assert "swap" in text and "race" in text


def test_narration_of_passing_declining_and_the_edge():
    encounter = state(phase="encounter", positions=[6, 7], encounters=3, decider=0)
    game, text = told(encounter, A, {"type": "pass"})
    assert "<@1> passes" in text
    game, text = told(game, B, {"type": "pass"})
    assert "<@2> holds the Edge" in text and "10" in text
    _, text = told(game, B, {"type": "edge", "choice": "send_back"})
    assert "sends <@1> back to their start (-10, now -10)" in text
    assert "The Edge passes to <@1>" in text
    game, _ = told(encounter, A, {"type": "offer", "points": 2})
    game, text = told(game, B, {"type": "decline"})
    assert "<@2> declines" in text
    _, text = told(game, B, {"type": "edge", "choice": "retreat"})
    assert "<@2> uses the Edge and retreats" in text


def test_narration_of_the_squeeze_exit_last_turn_and_final_scores():
    game, text = told(state(positions=[6, 7], encounters=4), A, {"type": "roll"}, [3])
    assert "squeezes past <@2>" in text
    game, text = told(state(phase="race", positions=[12, 5], scores=[10, 10]), A, {"type": "roll"}, [3])
    assert "<@1> rolls a 3 and leaves the hallway!" in text and "<@2> gets one last turn" in text
    _, text = told(game, B, {"type": "roll"}, [1])
    assert "<@2> is still 4 steps from the exit: -20 (now -13)" in text
    assert "<@1> is the Honorary Skinny Dude" in text and "<@2> -13" in text



def test_a_deal_or_a_squeeze_that_ends_the_game_at_once_announces_no_race():
    """Rules: a deal or the squeeze that takes a dude out through his exit (the second player's, or in his
    turn) ends the game at once: the table tells the exit and "Game over", not that a race begins."""
    offer = Offer(payer=1, points=3, proposed_by=1)
    deal = state(phase="encounter", positions=[0, 1], encounters=1, turn=1, decider=0, offer=offer)
    game, text = told(deal, A, {"type": "accept"})
    assert game.phase == "over" and "<@2> leaves the hallway!" in text and "Game over" in text
    assert "race" not in text, text
    squeeze = state(positions=[13, 14], encounters=4, start_player=1, edge=0)
    game, text = told(squeeze, A, {"type": "roll"}, [2])
    assert game.phase == "over" and "<@1> leaves the hallway!" in text and "Game over" in text
    assert "race" not in text, text


def test_a_race_told_with_its_end_at_the_table_is_still_announced():
    """The table tells everything since the turn last changed: a race begun there and ended by a later roll
    was run, and is told."""
    after, began = GAME.apply(state(positions=[6, 7], encounters=4), A, {"type": "roll"},
                              ScriptedRandomness(rolls=[3]))
    _, ended = GAME.apply(after.model_copy(update={"positions": [13, 2]}), B, {"type": "roll"},
                          ScriptedRandomness(rolls=[4]))
    text = "\n".join(narrate(FRONTEND, [*began, *ended], MENTIONS))
    assert "The race to the exits is on!" in text and "Game over" in text, text


def test_narration_of_a_shared_victory():
    game, _ = told(state(phase="race", positions=[12, 3], scores=[5, 5]), A, {"type": "roll"}, [2])
    _, text = told(game, B, {"type": "roll"}, [3])
    assert "shared victory for <@1> and <@2>" in text


def test_describe_state_tells_positions_scores_edge_and_offer():
    view = view_of(phase="encounter", positions=[6, 7], scores=[22, 6], encounters=2,
                   offer=Offer(payer=0, points=18, proposed_by=1))
    text = FRONTEND.describe_state(view, NAMES)
    assert "Alice: on space 6 (blue 2), **22 points**, end penalty 40 (start player)" in text, "as pictured"
    assert "Track: 1 red 1, 2 red 2, 3 blue 1," in text and "7 green 10" in text, "where a roll would score"
    assert "Waiting for Alice to accept, decline or counter the offer." in text, "what is awaited, in words"
    assert "Bob: on space 7 (green 10), **6 points**, end penalty 35 (holds the Edge)" in text
    assert "Encounters: 2 of 5" in text
    assert "Alice pays Bob 18 points (proposed by Bob)" in text
    assert "Waiting for Alice" in text
    over = view_of(phase="over", positions=[14, 3], exited=[True, False], winners=[A])
    assert "Winners: Alice" in FRONTEND.describe_state(over, NAMES)
    assert "out of the hallway" in FRONTEND.describe_state(over, NAMES)


@pytest.mark.parametrize(("fields", "encounters"), [
    ({"phase": "walk", "encounters": 0}, "Encounters: 0 of 5 (the next one's Edge costs 5)"),
    ({"phase": "encounter", "encounters": 3, "decider": 0}, "Encounters: 3 of 5 (this one's Edge costs 10)"),
    ({"phase": "walk", "encounters": 4}, "Encounters: 4 of 5 (the next one is the squeeze)"),
    ({"phase": "race", "encounters": 5}, "Encounters: 5 of 5"),
])
def test_describe_state_tells_what_the_picture_prints_beside_the_track(fields, encounters):
    """The picture prints each dude's end penalty (5 a step to his exit) beside every space and the Edge's cost
    under each encounter: what a negotiation is weighed against, so the words say them too."""
    text = FRONTEND.describe_state(view_of(positions=[6, 9], **fields), NAMES)
    assert "Alice: on space 6 (blue 2), **0 points**, end penalty 40 (start player)" in text, text
    assert "Bob: on space 9 (blue 4), **0 points**, end penalty 45 (holds the Edge)" in text, text
    assert f"\n{encounters}\n" in text, text


def test_two_players_whose_names_start_alike_get_tokens_told_apart():
    from bot.presentation.render.canvas import token_labels

    assert token_labels(["Bob", "Brian"]) == ["Bo", "Br"]
    assert token_labels(["alice", "bob"]) == ["A", "B"]
    assert token_labels(["Bob", "bob"]) == ["1", "2"]
    view = view_of(phase="walk", positions=[3, 9])
    assert FRONTEND.draw_board(view, {A: "Bob", B: "Brian"}).startswith(b"\x89PNG")


def test_a_tie_won_by_the_dude_who_left_says_why():
    """The rules: on a tie, the one who exited wins; the last line says so, since the scores alone look equal."""
    tied = {"type": "game_over", "winners": [A], "scores": {A: 7, B: 7}}
    [line] = narrate(FRONTEND, [tied], NAMES)
    assert "Alice is the Honorary Skinny Dude" in line and "Tied on points: Alice left the hallway" in line
    clear = {"type": "game_over", "winners": [A], "scores": {A: 9, B: 7}}
    assert "Tied" not in narrate(FRONTEND, [clear], NAMES)[0]
    shared = {"type": "game_over", "winners": [A, B], "scores": {A: 7, B: 7}}
    assert "shared victory" in narrate(FRONTEND, [shared], NAMES)[0]
