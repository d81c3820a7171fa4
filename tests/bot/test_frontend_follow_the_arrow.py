"""The Follow the Arrow front end: board PNG, verbs, the jump parser, the Call Jump! button, narration."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.presentation.frontend import ActionButton, Frontend, Select
from bot.presentation.frontends import FRONTENDS
from bot.presentation.frontends.follow_the_arrow import FRONTEND, RULES_TEXT
from bot.presentation.render.canvas import PHONE_WIDTH
from bot.presentation.render.follow_the_arrow import HEIGHT, WIDTH, centre
from games.core import IllegalMove, ScriptedRandomness
from games.follow_the_arrow import GAME
from games.follow_the_arrow_board import ARROWS

PLAYERS = ["alice", "bob"]
NAMES = {"alice": "Alice", "bob": "Bob"}
MENTIONS = {"alice": "<@1>", "bob": "<@2>"}
NO_DICE = ScriptedRandomness()


def play(state, player, action):
    return GAME.apply(state, player, action, NO_DICE)


def started():
    state = GAME.new_game(PLAYERS, NO_DICE, {"black": "alice"})
    state, _ = play(state, "alice", FRONTEND.verb_action("place", {"order": "3 1 5 2 4"}))
    state, _ = play(state, "bob", FRONTEND.verb_action("place", {"order": [1, 2, 3, 4, 5]}))
    return state


def callable_state():
    """Bob moves b4 -> b3 beside black's a3, whose E arrow points at him: Alice can jump."""
    state = started().model_copy(update={"turn": "bob", "pawns": {
        "alice": ["a3", "a2", "c2", "d2", "e2"], "bob": ["a1", "c6", "b4", "e1", "e6"]}}, deep=True)
    return play(state, "bob", {"type": "move", "pawn": 3, "to": "b3"})


def png_image(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


def test_frontend_is_registered():
    assert FRONTENDS["follow-the-arrow"] is FRONTEND
    assert 0 < len(RULES_TEXT) <= 1500 and "Call Jump!" in RULES_TEXT


def test_board_png_decodes_at_the_expected_size():
    image = png_image(FRONTEND.draw_board(GAME.view(started(), None), NAMES))
    assert image.format == "PNG" and image.size == (WIDTH, HEIGHT)
    assert WIDTH == PHONE_WIDTH and HEIGHT < 1.2 * WIDTH


def test_pawns_show_in_their_colours_on_their_circles():
    image = png_image(FRONTEND.draw_board(GAME.view(started(), None), NAMES)).convert("RGB")
    x, y = centre("a1")
    black_pixel = image.getpixel((int(x) - 15, int(y)))
    x, y = centre("a6")
    red_pixel = image.getpixel((int(x) - 15, int(y)))
    assert max(black_pixel) < 80
    assert red_pixel[0] > 150 and red_pixel[1] < 100


def test_the_sides_pawns_differ_in_shape_too():
    """Issue 25: black's pawns are circles and red's squares, so colour is not the only cue. Just inside a
    pawn's corner (outside its circle, inside its square) red's pawn is inked, black's not."""
    image = png_image(FRONTEND.draw_board(GAME.view(started(), None), NAMES)).convert("RGB")
    corner = 19  # 26.9 px from the centre: past a pawn's round edge (25), inside its square (22.5)
    x, y = centre("a1")
    assert max(image.getpixel((int(x) + corner, int(y) + corner))) > 200, "black's pawn is round"
    x, y = centre("a6")
    red = image.getpixel((int(x) + corner, int(y) + corner))
    assert red[0] > 150 and red[1] < 100, "red's pawn is square"


def test_the_picture_changes_with_the_view():
    before = started()
    after, _ = play(before, "alice", {"type": "move", "pawn": 3, "to": "a2"})
    first = FRONTEND.draw_board(GAME.view(before, None), NAMES)
    second = FRONTEND.draw_board(GAME.view(after, None), NAMES)
    assert first != second


def test_board_draws_before_placing():
    state = GAME.new_game(PLAYERS, NO_DICE, {"black": "alice"})
    assert png_image(FRONTEND.draw_board(GAME.view(state, None), NAMES)).size == (WIDTH, HEIGHT)


@pytest.mark.parametrize("order", ["3 1 5 2 4", "3,1,5,2,4", "31524", [3, 1, 5, 2, 4], ["3", "1", "5", "2", "4"]])
def test_place_verb_accepts_strings_and_lists(order):
    assert FRONTEND.verb_action("place", {"order": order}) == {"type": "place", "order": [3, 1, 5, 2, 4]}


def test_place_verb_refuses_gibberish():
    with pytest.raises(IllegalMove, match="columns a to e"):
        FRONTEND.verb_action("place", {"order": "three one"})
    with pytest.raises(IllegalMove):
        FRONTEND.verb_action("place", {})


def test_move_verb_builds_a_legal_line_move():
    action = FRONTEND.verb_action("move", {"pawn": 3, "to": " A2 "})
    assert action == {"type": "move", "pawn": 3, "to": "a2"}
    assert action in GAME.legal_actions(started(), "alice")
    with pytest.raises(IllegalMove, match="/jump"):
        FRONTEND.verb_action("move", {"pawn": 3, "to": "c4 c6"})
    with pytest.raises(IllegalMove, match="pawn"):
        FRONTEND.verb_action("move", {"to": "c4"})


def test_unused_verbs_fall_back_to_the_shared_refusal():
    with pytest.raises(IllegalMove, match="/place, /move"):
        FRONTEND.verb_action("roll", {})


@pytest.mark.parametrize("path", ["e3 e5 c5", "e3,e5,c5", "E3, e5 -> c5"])
def test_jump_action_parses_the_path(path):
    assert FRONTEND.jump_action(1, path) == {"type": "jump", "pawn": 1, "path": ["e3", "e5", "c5"]}


def test_jump_action_is_accepted_by_the_engine():
    state, _ = callable_state()
    action = FRONTEND.jump_action(1, "c3")
    assert action in GAME.legal_actions(state, "alice")
    _, events = play(state, "alice", action)
    assert events[0]["type"] == "jumped"
    with pytest.raises(IllegalMove):
        FRONTEND.jump_action(1, "  ")


def legal(state):
    return {player: GAME.legal_actions(state, player) for player in PLAYERS}


def table_buttons(state):
    return [c for c in FRONTEND.components(GAME.view(state, None), legal(state)) if isinstance(c, ActionButton)]


def test_call_jump_button_only_while_jump_is_callable_and_only_for_the_last_mover():
    assert table_buttons(started()) == []
    state, _ = callable_state()
    buttons = table_buttons(state)
    assert buttons[0].label == "Call Jump!"
    for button in buttons:
        assert button.players == ("bob",)
        action = FRONTEND.action_for_button(button.token)
        assert action in GAME.legal_actions(state, "bob")
        with pytest.raises(IllegalMove):
            play(state, "alice", action)
    called, _ = play(state, "bob", FRONTEND.action_for_button("call_jump"))
    assert table_buttons(called) == []


def reachable_actions(state, player):
    """Every action the menus lead `player` to, following each step the frontend opens."""
    view, own, moves = GAME.view(state, None), GAME.view(state, player), legal(state)
    tokens = [o.token for c in FRONTEND.components(view, moves) if isinstance(c, Select) and player in c.players
              for o in c.options]
    found = []
    while tokens:
        token = tokens.pop()
        step = FRONTEND.expand(token, own, player, moves)
        if step is None:
            found.append(FRONTEND.action_for_button(token))
            continue
        for menu in step.components:
            assert isinstance(menu, Select) and menu.players == (player,) and len(menu.options) <= 25
            tokens += [o.token for o in menu.options]
    return found


def test_the_placement_menus_lead_to_every_placement_and_nothing_else():
    state = GAME.new_game(PLAYERS, NO_DICE, {"black": "alice"})
    found = reachable_actions(state, "alice")
    assert sorted(map(str, found)) == sorted(map(str, GAME.legal_actions(state, "alice")))
    assert reachable_actions(state, "bob") == []


@pytest.mark.parametrize("state", [started(), callable_state()[0], play(callable_state()[0], "bob",
                                                                        {"type": "call_jump"})[0]])
def test_the_move_menus_offer_exactly_the_legal_moves_and_jumps(state):
    mover = GAME.to_act(state)[0]
    wanted = [a for a in GAME.legal_actions(state, mover) if a["type"] in ("move", "jump")]
    assert sorted(map(str, reachable_actions(state, mover))) == sorted(map(str, wanted))
    for action in reachable_actions(state, mover):
        play(state, mover, action)


@pytest.mark.parametrize("state", [started(), play(callable_state()[0], "bob", {"type": "call_jump"})[0]])
def test_each_destination_says_the_arrows_on_its_circle(state):
    """The picture shows the arrows on every circle, the words only those under pawns: each place a pawn
    may go says where its arrows point, so a player who cannot see the board knows where it leads next."""
    mover = GAME.to_act(state)[0]
    own, moves = GAME.view(state, mover), legal(state)
    pawns = {a["pawn"] for a in moves[mover] if a["type"] in ("move", "jump")}
    options = [o for pawn in pawns for menu in FRONTEND.expand(f"pawn.{pawn}", own, mover, moves).components
               for o in menu.options]
    assert options
    for option in options:
        landing = option.label.split()[-1]
        assert option.description == f"arrows there: {' '.join(ARROWS[landing])}", option


def test_unknown_button_tokens_are_refused():
    with pytest.raises(IllegalMove):
        FRONTEND.action_for_button("roll")


def test_narration_of_placing_moving_and_calling_names_the_players():
    state = GAME.new_game(PLAYERS, NO_DICE, {"black": "alice"})
    _, events = play(state, "alice", {"type": "place", "order": [3, 1, 5, 2, 4]})
    assert FRONTEND.describe_events(events, MENTIONS) == [
        "<@1> places the black pawns: pawn 3 on a1, pawn 1 on b1, pawn 5 on c1, pawn 2 on d1, pawn 4 on e1."]
    state, events = callable_state()
    lines = FRONTEND.describe_events(events, MENTIONS)
    assert lines[0] == "<@2> moves pawn 3: b4 → b3."
    assert "<@1> can jump" in lines[1] and "<@2> may call" in lines[1]
    state, events = play(state, "bob", {"type": "call_jump"})
    assert FRONTEND.describe_events(events, MENTIONS) == ["📣 <@2> calls **Jump!** <@1> must jump."]
    _, events = play(state, "alice", {"type": "jump", "pawn": 1, "path": ["c3"]})
    assert FRONTEND.describe_events(events, MENTIONS)[0] == "<@1> jumps pawn 1 (forced): a3 → c3, over 1 pawn."
    _, events = play(callable_state()[0], "bob", {"type": "decline_call"})
    assert "<@2> lets it go" in FRONTEND.describe_events(events, MENTIONS)[0]


def test_narration_of_a_chain_pass_draw_and_win():
    lines = FRONTEND.describe_events([
        {"type": "jumped", "player": "alice", "pawn": 1, "from": "c1", "path": ["e3", "e5", "c5"],
         "over": ["d2", "e4", "d5"], "forced": False},
        {"type": "passed", "player": "bob", "reason": "no_legal_move"},
        {"type": "draw", "reason": "no_legal_moves"},
        {"type": "won", "player": "alice", "loser": "bob", "pawn": 3, "loser_pawns_out": [1, 2, 4],
         "loser_sum": 7, "points": 21},
    ], MENTIONS)
    assert lines[0] == "<@1> jumps pawn 1: c1 → e3 → e5 → c5, over 3 pawns."
    assert lines[1] == "<@2> has no legal move and passes."
    assert "drawn" in lines[2]
    assert "<@1>" in lines[3] and "<@2>" in lines[3] and "7 × 3 = **21**" in lines[3]


@pytest.mark.parametrize(("out", "words"), [([4], "<@2>'s pawn 4 is still out, 4 × 3"),
                                            ([1, 2, 4], "<@2>'s pawns 1, 2 and 4 are still out, 7 × 3")])
def test_the_win_names_the_losers_pawns_still_out_in_good_english(out, words):
    (line,) = FRONTEND.describe_events([{"type": "won", "player": "alice", "loser": "bob", "pawn": 3,
                                         "loser_pawns_out": out, "loser_sum": sum(out), "points": sum(out) * 3}],
                                       MENTIONS)
    assert words in line, line


def test_describe_state_lists_pawns_turn_and_calls():
    text = FRONTEND.describe_state(GAME.view(started(), None), MENTIONS)
    assert ("Black <@1> (circles): pawn 1 on b1 (arrows N E), pawn 2 on d1 (arrows N W), pawn 3 on a1 (arrows N NE), "
            "pawn 4 on e1 (arrows N") in text, "each circle's arrows, as the picture shows them"
    assert "<@1> to move." in text
    state, _ = callable_state()
    assert "<@2> may call Jump!" in FRONTEND.describe_state(GAME.view(state, None), MENTIONS)
    match_view = GAME.view(GAME.new_game(PLAYERS, NO_DICE, {"black": "alice", "match": {
        "game": 2, "totals": {"alice": 21}}}), None)
    text = FRONTEND.describe_state(match_view, MENTIONS)
    assert "Match game 2: <@1> 21, <@2> 0" in text and "<@2> to place" in text


def test_describe_state_names_each_sides_pawn_shape_as_the_picture_draws_them():
    """Black's pawns are drawn as circles and red's as squares, so that the sides differ in shape as well as
    colour; the words say so where the players are listed."""
    text = FRONTEND.describe_state(GAME.view(started(), None), MENTIONS)
    assert "Black <@1> (circles): pawn 1 on b1" in text
    assert "Red <@2> (squares): " in text


def test_frontend_is_a_frontend():
    assert isinstance(FRONTEND, Frontend)
    assert set(FRONTEND.verbs) == {"place", "move"} and set(FRONTEND.commands) == {"jump"}
