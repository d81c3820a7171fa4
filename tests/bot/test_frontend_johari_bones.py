"""Johari Bones front end: board pictures, private pictures, narration, buttons, verbs and helpers."""

from __future__ import annotations

import io
import re

import pytest
from PIL import Image

from bot.presentation.frontend import ActionButton, Select
from bot.presentation.frontends import FRONTENDS
from bot.presentation.frontends.johari_bones import (
    FRONTEND,
    placement_choices,
    private_summary,
    score_action,
    score_preview,
    swap_action,
)
from bot.presentation.render.canvas import PHONE_WIDTH
from games.core import IllegalMove, ScriptedRandomness
from games.johari_bones import BONES, GAME, State
from games.johari_scoring import BOXES, box_score

A, B, C = "alice", "bob", "carol"
NAMES = {A: "Alice", B: "Bob", C: "Carol"}
MENTIONS = {A: "<@1>", B: "<@2>", C: "<@3>"}
HAND = ("1-1", "1-2", "1-3", "1-4", "2-2", "2-3", "2-4", "2-5", "3-3", "3-4", "3-5", "3-6")


def new(players=(A, B, C)) -> State:
    first = HAND[: 4 * len(players)]
    deal = [*first, *(bone for bone in BONES if bone not in first)]
    return GAME.new_game(list(players), ScriptedRandomness(shuffles=[deal]))


def apply(state: State, player: str, action: dict) -> tuple[State, list[dict]]:
    return GAME.apply(state, player, action, ScriptedRandomness())


def drawn_state() -> State:
    state, _ = apply(new(), A, {"type": "draw"})
    return state


def revealed_state() -> State:
    state = new()
    while state.phase == "turns":
        player = GAME.to_act(state)[0]
        state, _ = apply(state, player, swap_action("in-out", A if player != A else B))
    return state


def png_size(data: bytes) -> tuple[int, int]:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image.size


def test_registered_under_its_slug():
    assert FRONTENDS["johari-bones"] is FRONTEND


def test_board_is_a_png_of_board_width():
    width, height = png_size(FRONTEND.draw_board(GAME.view(new(), None), NAMES))
    assert width == PHONE_WIDTH and 500 < height < 1.2 * PHONE_WIDTH


def test_board_changes_when_the_view_changes():
    before = FRONTEND.draw_board(GAME.view(new(), None), NAMES)
    state, _ = apply(new(), A, swap_action("up", B))
    assert FRONTEND.draw_board(GAME.view(state, None), NAMES) != before


def test_board_shows_every_bone_once_the_hand_is_revealed():
    state = revealed_state()
    public = FRONTEND.draw_board(GAME.view(state, None), NAMES)
    masked = GAME.view(state, None)
    masked["phase"] = "turns"
    assert public != FRONTEND.draw_board(masked, NAMES)


def test_board_ignores_whatever_a_private_view_adds():
    state = drawn_state()
    public = FRONTEND.draw_board(GAME.view(state, None), NAMES)
    assert FRONTEND.draw_board(GAME.view(state, A), NAMES) == public


def test_private_picture_shows_what_the_viewer_sees():
    state = drawn_state()
    private = FRONTEND.draw_private(GAME.view(state, A), NAMES, A)
    assert png_size(private)[0] == PHONE_WIDTH
    assert private != FRONTEND.draw_board(GAME.view(state, None), NAMES)
    without_drawn = {**GAME.view(state, A), "drawn": None}
    assert private != FRONTEND.draw_private(without_drawn, NAMES, A)


def test_private_digest_holds_only_what_the_public_does_not_see():
    state = drawn_state()
    digest = FRONTEND.private_digest(GAME.view(state, A))
    assert digest == {"bones": {A: {"in": "1-3"}, B: {"out": "2-5"}, C: {"out": "3-6"}}, "drawn": state.drawn}
    assert FRONTEND.private_digest(GAME.view(state, B))["drawn"] is None


def test_private_digest_changes_when_the_players_private_view_changes():
    state = new()
    before = FRONTEND.private_digest(GAME.view(state, B))
    state, _ = apply(state, A, swap_action("in-out", C))
    assert FRONTEND.private_digest(GAME.view(state, B)) != before
    assert FRONTEND.private_digest(GAME.view(state, B))["bones"][C] == {"out": "1-3"}


def test_private_digest_is_none_when_nothing_is_private():
    assert FRONTEND.private_digest(GAME.view(new(), None)) is None
    assert FRONTEND.private_digest(GAME.view(revealed_state(), A)) is None
    assert FRONTEND.private_digest({}) is None


def test_a_panel_follows_its_owners_bones_face_up_included_but_not_what_is_only_public():
    """The ruling in bot.discord.panels: a player's panel is edited when a bone of his own hand that he sees changes (an
    up swap included), his drawn bone, or the hidden bones of others he sees; not for others' face-up bones,
    whose turn it is or the pile, which the table shows."""
    def digests(state):
        return {player: FRONTEND.panel_digest(GAME.view(state, player), player) for player in (A, B, C)}

    state = new()
    before = digests(state)
    state, _ = apply(state, A, swap_action("up", B))
    after = digests(state)
    assert after[A] != before[A] and after[B] != before[B], "their own face-up bones changed"
    assert after[C] == before[C], "only others' face-up bones and whose turn changed"
    state, _ = apply(state, B, {"type": "draw"})
    drew = digests(state)
    assert drew[B] != after[B] and drew[A] == after[A] and drew[C] == after[C], "the drawn bone is Bob's alone"
    assert FRONTEND.panel_digest(GAME.view(revealed_state(), A), A) is not None, "a revealed hand is still his"
    assert FRONTEND.panel_digest({}, A) is None


def table(state):
    legal = {player: GAME.legal_actions(state, player) for player in state.players}
    return FRONTEND.components(GAME.view(state, None), legal)


def test_draw_and_swap_only_during_turns_for_the_player_to_act_and_legal():
    state = new()
    show = ActionButton("Show my bones", "hand", style="secondary")
    draw, swap, shown = table(state)
    assert draw == ActionButton("Draw", "draw", players=(A,)) and shown == show
    assert FRONTEND.action_for_button("draw") in GAME.legal_actions(state, A)
    assert isinstance(swap, Select) and swap.players == (A,)
    assert sorted(str(FRONTEND.action_for_button(o.token)) for o in swap.options) == sorted(
        str(a) for a in GAME.legal_actions(state, A) if a["type"] == "swap")
    assert table(drawn_state()) == [show]
    boxes, shown = table(revealed_state())
    assert boxes.token == "boxes" and set(boxes.players) == set(GAME.to_act(revealed_state())) and shown == show
    over = GAME.view(revealed_state(), None) | {"phase": "over"}
    assert FRONTEND.components(over, {}) == []


def test_private_summary_names_only_the_bones_of_the_view():
    view = GAME.view(drawn_state(), A)
    text = private_summary(view, A, MENTIONS)
    shown = {entry[position] for entry in view["players"] for position in ("up", "down", "in", "out")}
    allowed = (shown | {view["drawn"]}) - {None}
    named = set(re.findall(r"\d-\d", text))
    assert named == allowed, "every bone Alice sees, and no other"
    assert "face down" not in text.split("\n")[1], "Alice cannot see her own face down"


@pytest.mark.parametrize(("token", "action"), [
    ("place.bob.out", {"type": "place", "target": B, "position": "out"}),
    ("swap.in-out.bob", {"type": "swap", "kind": "in-out", "with": B}),
    ("score.full_house", {"type": "score", "box": "full_house"}),
])
def test_other_tokens_decode_to_actions(token, action):
    assert FRONTEND.action_for_button(token) == action


@pytest.mark.parametrize("token", ["fly", "place.bob.down", "swap.down.bob", "score.yahtzee", "swap.up."])
def test_unknown_tokens_are_refused(token):
    with pytest.raises(IllegalMove):
        FRONTEND.action_for_button(token)


def test_place_verb_builds_a_legal_place_action():
    assert "place" in FRONTEND.verbs
    action = FRONTEND.verb_action("place", {"target": B, "position": "out"})
    assert action in GAME.legal_actions(drawn_state(), A)


@pytest.mark.parametrize("options", [{}, {"target": B}, {"target": B, "position": "down"}])
def test_place_verb_without_a_good_position_explains_itself(options):
    with pytest.raises(IllegalMove, match="/place"):
        FRONTEND.verb_action("place", options)


def test_other_verbs_fall_back_to_the_shared_refusal():
    with pytest.raises(IllegalMove, match="/roll is not used"):
        FRONTEND.verb_action("roll", {})


def test_swap_and_score_helpers_build_legal_actions():
    state = new()
    assert swap_action("up", B) in GAME.legal_actions(state, A)
    assert swap_action("in-out", C) in GAME.legal_actions(state, A)
    assert score_action("run4") in GAME.legal_actions(revealed_state(), B)


def test_placement_choices_are_the_legal_places_for_the_drawer_only():
    state = drawn_state()
    choices = placement_choices(GAME.view(state, A), A, NAMES)
    offered = sorted(map(str, (action for _, action in choices)))
    assert offered == sorted(map(str, GAME.legal_actions(state, A)))
    labels = [label for label, _ in choices]
    assert "My face in" in labels and "Bob's face out" in labels
    assert all(state.drawn not in label for label in labels)
    assert placement_choices(GAME.view(state, B), B) == []
    assert placement_choices(GAME.view(new(), A), A) == []


def test_score_preview_matches_the_engine_for_open_boxes():
    state = revealed_state()
    state, _ = apply(state, B, score_action("chance"))
    preview = score_preview(GAME.view(state, B), B)
    assert set(preview) == set(BOXES) - {"chance"}
    assert preview == {box: box_score(state.bones[B].values(), box) for box in preview}
    assert score_preview(GAME.view(state, None), None) == {}


def test_score_preview_before_the_reveal_counts_only_the_bones_the_viewer_sees():
    view = GAME.view(new(), A)
    assert score_preview(view, A) == {box: box_score(["1-1", "1-3"], box) for box in BOXES}


def test_narration_of_a_turn_names_the_players_and_only_public_bones():
    state = drawn_state()
    drawn = state.drawn
    state, events = apply(state, A, {"type": "place", "target": B, "position": "out"})
    lines = FRONTEND.describe_events(events, MENTIONS)
    assert lines == ["<@1> placed the drawn bone on <@2>'s face out."]
    assert drawn not in " ".join(lines)
    _, events = apply(state, B, swap_action("up", C))
    assert FRONTEND.describe_events(events, MENTIONS) == [
        "<@2> swapped face-up bones with <@3>: <@2> now shows **3-3**, <@3> **2-2**."
    ]


def test_narration_of_draw_reveal_score_and_deal():
    state = new((A, B))
    state, events = apply(state, A, {"type": "draw"})
    assert FRONTEND.describe_events(events, MENTIONS) == ["<@1> drew a bone (19 left in the pile)."]
    state, events = apply(state, A, {"type": "place", "target": A, "position": "up"})
    placed = state.bones[A]["up"]
    assert FRONTEND.describe_events(events, MENTIONS) == [f"<@1> placed **{placed}** on their own face up."]
    while state.phase == "turns":
        player = GAME.to_act(state)[0]
        state, events = apply(state, player, swap_action("up", A if player != A else B))
    revealed = FRONTEND.describe_events(events, MENTIONS)[-1]
    assert revealed.startswith("Hand 1 is over") and "with **Choose a box** (or /score)" in revealed, \
        "the table's button is named, not only the command"
    state, events = apply(state, A, score_action("chance"))
    points = state.scorecard[A]["chance"]
    assert FRONTEND.describe_events(events, MENTIONS) == [f"<@1> scored {points} in Chance."]
    shuffle = ScriptedRandomness(shuffles=[list(BONES)])
    _, events = GAME.apply(state, B, score_action("ones"), shuffle)
    assert FRONTEND.describe_events(events, MENTIONS)[-1] == "Hand 2 is dealt; <@2> plays first."


def test_narration_of_the_end_names_all_winners():
    events = [{"type": "game_over", "winners": [A, B], "scores": {A: 90, B: 90, C: 40}}]
    lines = FRONTEND.describe_events(events, MENTIONS)
    assert lines == ["Game over: <@1> and <@2> share the win with 90 points."]


def test_describe_state_shows_face_up_bones_totals_and_whose_turn():
    text = FRONTEND.describe_state(GAME.view(new(), None), NAMES)
    assert "Hand 1 of 10" in text and "Alice (orange circle): face up 1-1" in text
    assert "Waiting for Alice to play" in text
    assert "1-3" not in text
    drawn = FRONTEND.describe_state(GAME.view(drawn_state(), None), NAMES)
    assert "Waiting for Alice to place the bone drawn." in drawn, "what the picture says: a drawn bone is placed"


def test_describe_state_counts_one_turn_left_in_the_singular():
    state = new()
    for _ in range(4):  # Alice, Bob, Carol, then Alice again: Alice has one turn left, the others two
        player = GAME.to_act(state)[0]
        state, _ = apply(state, player, swap_action("in-out", A if player != A else B))
    text = FRONTEND.describe_state(GAME.view(state, None), NAMES)
    assert "Alice (orange circle): face up 1-1 · 1 turn left · total 0" in text, text
    assert "Bob (blue square): face up 2-2 · 2 turns left" in text and "1 turns" not in text, text


def test_the_words_name_each_seats_colour_and_shape_once_as_the_picture_draws_them():
    """A player told "you are the green triangle" finds his row on the picture: the table's words, its alt
    text and a player's own alt text name each seat's colour and mark once, where the players are listed."""
    texts = (FRONTEND.describe_state(GAME.view(new(), None), NAMES), FRONTEND.alt_text(GAME.view(new(), None), NAMES),
             FRONTEND.private_alt_text(GAME.view(drawn_state(), A), NAMES, A))
    for text in texts:
        for name, seat in (("Alice", "orange circle"), ("Bob", "blue square"), ("Carol", "green triangle")):
            assert text.count(seat) == 1 and re.search(rf"^{name} \({seat}(, you)?\): ", text, re.MULTILINE), text


def test_describe_state_at_scoring_lists_every_bone_and_who_still_chooses():
    text = FRONTEND.describe_state(GAME.view(revealed_state(), None), NAMES)
    assert "Waiting for Alice, Bob, Carol to choose a box" in text
    assert all(bone in text for bone in HAND)


def test_a_revealed_hand_in_words_says_where_each_bone_lay():
    """The revealed hand's picture heads each bone Face up, Face down, Face in, Face out; its words (the table's,
    the alt text's) say the same, since which bone the others saw is the game's point."""
    view = GAME.view(revealed_state(), None)
    bob = next(entry for entry in view["players"] if entry["id"] == B)
    words = (f"Bob (blue square): face up {bob['up']}, face down {bob['down']}, face in {bob['in']}, "
             f"face out {bob['out']} · total 0")
    assert words in FRONTEND.describe_state(view, NAMES) and words in FRONTEND.alt_text(view, NAMES)
    assert words.replace("Bob (blue square)", "Bob (blue square, you)") in FRONTEND.private_alt_text(view, NAMES, B)


def test_describe_state_gives_every_scorecard_in_words():
    """The board's score sheet, for a text-only table and alt text (issue 25): the boxes each player filled."""
    state, _ = apply(revealed_state(), A, score_action("chance"))
    state, _ = apply(state, B, score_action("ones"))
    text = FRONTEND.describe_state(GAME.view(state, None), NAMES)
    chance, ones = state.scorecard[A]["chance"], state.scorecard[B]["ones"]
    assert "Alice (orange circle): face up " in text and f"total {chance} (boxes: Chance {chance})" in text
    assert f"total {ones} (boxes: Ones {ones})" in text
    assert re.search(r"Carol \(green triangle\): [^\n]*total 0$", text, re.MULTILINE), "Carol has filled no box yet"


def test_rules_text_says_ones_to_sixes_score_the_sum_not_the_count():
    """Rules file: `twos` with three 2-ends scores 6; "the ends showing that number" alone reads as a count."""
    assert "Ones–Sixes: the ends showing that number (their sum)" in FRONTEND.rules_text


def test_rules_text_is_short():
    assert 0 < len(FRONTEND.rules_text) <= 1500
    assert "face out" in FRONTEND.rules_text and "/score" in FRONTEND.rules_text
