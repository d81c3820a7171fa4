"""The Discord front end and board image of Crayon Rails, driven from views only."""

import io
import time

import pytest
from PIL import Image

from bot.presentation.frontend import Select
from bot.presentation.frontends.crayon_rails import FRONTEND, build_action, move_action
from bot.presentation.render.crayon_map import INDEX, OVERVIEW, RIVER, WIDTH, ZOOM, crossing_points, map_layer
from bot.presentation.render.crayon_rails import Table
from games.core import IllegalMove, SeededRandomness
from games.crayon_rails.engine import GAME
from games.crayon_rails.mapdata import board
from games.crayon_rails.state import ActiveEvent

from .situations import act, card_with, event_id, land_path, play_state, pool_card, track
from .test_turns import new_game

NAMES = {"alice": "Alice", "bob": "Bob"}


def at_dunmore():
    return play_state(alice={"track": track("C8", "D8", "E8", "F8", "G8", "G9", "H9"), "at": "H9",
                             "loads": ["Steel"]},
                      bob={"track": track("H9", "H8", "G7"), "at": "G7"},
                      pool=[pool_card(6, (("alice", 1),)), pool_card(1), pool_card(3), pool_card(4), pool_card(5)])


def test_board_png_decodes_at_the_expected_size_and_quickly():
    view = GAME.view(at_dunmore(), None)
    FRONTEND.draw_board(view, NAMES)
    began = time.perf_counter()
    png = FRONTEND.draw_board(view, NAMES)
    assert time.perf_counter() - began < 0.5
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG" and image.mode == "P" and image.width == WIDTH <= 600


def test_picture_changes_with_the_view():
    state = at_dunmore()
    before = FRONTEND.draw_board(GAME.view(state, None), NAMES)
    built, _ = act(state, "alice", {"type": "build", "path": ["H9", "I9"]})
    assert FRONTEND.draw_board(GAME.view(built, None), NAMES) != before


def legal_of(state) -> dict:
    return {p.id: GAME.legal_actions(state, p.id) for p in state.players}


def offered_tokens(state) -> list[str]:
    """Every button token and menu option the table offers now."""
    tokens = []
    for component in FRONTEND.components(GAME.view(state, None), legal_of(state)):
        if isinstance(component, Select):
            tokens += [option.token for option in component.options]
        else:
            tokens.append(component.token)
    return tokens


def test_components_map_to_actions_the_engine_accepts():
    for state in (new_game(), at_dunmore()):
        view = GAME.view(state, None)
        player = view["to_act"][0]
        tokens = offered_tokens(state)
        assert tokens
        for token in tokens:
            if FRONTEND.expand(token, view, player, legal_of(state)) is not None:
                continue
            GAME.apply(state, player, FRONTEND.action_for_button(token), _throwaway_chance())
    tokens = offered_tokens(at_dunmore())
    assert {"end_turn", "deliver.6.1", "pickup.Iron", "pickup.Copper"} <= set(tokens)


def _throwaway_chance():
    return SeededRandomness(0)


def test_derailment_buttons_offer_the_losses():
    cards = [pool_card(c) for c in (2, 1, 3, 4)]
    derail = event_id("derailment", "Ironhill")
    state = play_state(alice={"at": "J6", "loads": ["Coal"]}, pool=cards, deck_ids=[derail, 5])
    state, _ = act(state, "alice", {"type": "lock", "card": 2, "demand": 0})
    tokens = offered_tokens(state)
    assert "give_up.card.2" in tokens
    new, _ = act(state, "alice", FRONTEND.action_for_button("give_up.card.2"))
    assert new.pending_losses == []


def test_a_card_released_after_a_derailment_is_told_as_going_to_the_pool_and_a_kept_one_as_kept():
    def told(kind: str) -> str:
        return FRONTEND.describe_events([{"type": kind, "player": "alice", "card": 32, "load": "Coal"}], NAMES)[0]

    assert told("released") == ("Alice loses Coal in the derailment and releases card #32 to the public pool: "
                                "anyone may lock it now.")
    assert told("kept_private") == "Alice loses Coal in the derailment and keeps card #32 private, to fetch Coal again."


def test_a_derailed_player_is_told_what_her_loss_buttons_mean_and_not_that_it_is_her_turn():
    coal, demand = card_with("Coal")
    state = play_state(alice={"at": "J6", "loads": ["Coal"]}, pool=[pool_card(coal, (("alice", demand),), "alice")],
                       to_move="bob")
    state.pending_losses = ["alice"]
    state.derailment = ActiveEvent(card=event_id("derailment", "Ironhill"), kind="derailment", target="Ironhill",
                                   drawer="bob")
    view = GAME.view(state, None)
    assert FRONTEND.turn_words(view, "alice") == (
        f"your train derailed: choose the load you lose with a button below; for Coal, **Keep #{coal}** keeps the "
        f"card yours (you fetch Coal again), **Release #{coal}** puts it in the public pool for anyone")
    assert FRONTEND.turn_words(view, "bob") == "your turn"


def test_the_setup_turn_says_what_to_choose():
    """A new player's first table read only "@alice: your turn." while she was offered cards to keep: the
    turn line says what the choice is, and names the menu and the button."""
    view = GAME.view(new_game(), None)
    assert view["phase"] == "setup"
    words = FRONTEND.turn_words(view, view["to_act"][0])
    assert words.startswith("your turn: keep up to two of the offered cards, naming one demand of each")
    assert "**Keep a card**" in words and "**Keep none**" in words


def test_move_and_place_verbs():
    state = at_dunmore()
    state.player("alice").at = "C8"
    new, _ = act(state, "alice", FRONTEND.verb_action("move", {"to": "Dunmore"}))
    assert new.player("alice").at == "H9"
    new, _ = act(state, "alice", FRONTEND.verb_action("move", {"path": "D8 E8"}))
    assert new.player("alice").at == "E8"
    new, events = act(state, "alice", FRONTEND.command_action("build", {"to": "Riverton"}))
    assert events[-1]["type"] == "built"
    assert build_action(path="F7 G7") == {"type": "build", "path": ["F7", "G7"]}
    assert move_action(to="Eastbay") == {"type": "move", "toward": "Eastbay"}
    assert build_action(to="Eastbay") == {"type": "build", "toward": "Eastbay"}
    for unused in ("roll", "place"):
        with pytest.raises(IllegalMove):
            FRONTEND.verb_action(unused, {})
    with pytest.raises(IllegalMove):
        FRONTEND.verb_action("move", {})
    with pytest.raises(IllegalMove):
        FRONTEND.action_for_button("lock.x.y")


def test_narration_and_state_name_the_players():
    state = at_dunmore()
    _, events = act(state, "alice", {"type": "deliver", "card": 6, "demand": 1})
    lines = FRONTEND.describe_events(events, {"alice": "<@1>", "bob": "<@2>"})
    assert any("<@1>" in line and "Steel" in line for line in lines)
    text = FRONTEND.describe_state(GAME.view(state, None), NAMES)
    assert "Alice" in text and "Bob" in text and "#6" in text
    assert text.startswith("**Play**, round") and "freight train at Dunmore" in text.replace("Freight", "freight")
    building = play_state(alice={}, bob={})
    building.phase = "initial-build"
    view = GAME.view(building, None)
    assert FRONTEND.describe_state(view, NAMES).startswith("**Initial build**, round")
    assert FRONTEND.alt_text(view, NAMES).startswith("Initial build, round"), "words, not the engine's code"
    assert len(FRONTEND.rules_text) <= 2000  # one embed, read on a phone


def test_the_rules_in_brief_say_the_first_turns_after_setup_only_build():
    """Rules file: two building rounds with no trains follow setup. A newcomer who read only "`/place city:`
    (first turn)" would try to place his train on his first turn, which the engine refuses."""
    rules = " ".join(FRONTEND.rules_text.split())
    assert "two building rounds" in rules and "no trains" in rules


def test_the_words_name_each_seat_as_drawn_and_say_what_each_track_joins():
    """A player told "your train is the blue square" finds it on the picture, and each player's built track
    stands in words (the narration tells it only as it is built): its line, length and the cities it joins."""
    view = GAME.view(at_dunmore(), None)
    for text in (FRONTEND.describe_state(view, NAMES), FRONTEND.alt_text(view, NAMES)):
        assert text.count("orange circle") == 1 and "Alice (orange circle): 50 cash" in text, text
        assert text.count("blue square") == 1 and "Bob (blue square): 50 cash" in text, text
        assert "Alice's track (solid line): 6 sections joining Westholm (major) and Dunmore." in text, text
        assert "Bob's track (dashed line): 2 sections from Dunmore." in text, text


def test_a_track_in_pieces_is_told_piece_by_piece_and_no_track_is_said_so():
    """A Flood can cut a network in two: each piece says what it joins, not a list of its mileposts."""
    pieces = [*track(*land_path("C8", "D4")), *track(*land_path("I2", "J6")), *track("F8", "G8")]
    view = GAME.view(play_state(alice={"track": pieces}, bob={}), None)
    text = FRONTEND.describe_state(view, NAMES)
    assert ("Alice's track (solid line): 9 sections in 3 pieces: one joining Westholm (major) and Ashford; "
            "one joining Northgate (major) and Ironhill; one reaching no city.") in text, text
    assert "Bob's track (dashed line): none yet." in text


@pytest.mark.parametrize("style", [OVERVIEW, ZOOM])
def test_every_river_crossing_is_drawn_on_both_maps(style):
    layer = map_layer(style)
    points = list(crossing_points(style))
    assert len(points) == sum(len(sections) for sections in board().rivers.values())
    assert ("Slate", ("M14", "N14")) in [(river, crossing) for river, crossing, _ in points]
    for river, crossing, xy in points:
        assert layer.getpixel(xy) == INDEX[RIVER], f"the {river} crossing {crossing} is not drawn"


def test_every_river_crossing_is_drawn_on_the_table_picture():
    table = Table(GAME.view(new_game(), None), NAMES)
    image = table.compose()
    for river, crossing, (x, y) in crossing_points(OVERVIEW):
        assert image.getpixel((x, y + table.overview_top)) == INDEX[RIVER], f"{river} {crossing}"


def test_the_close_up_follows_the_acting_train():
    state = at_dunmore()
    table = Table(GAME.view(state, None), NAMES)
    table.compose()
    x, y = ZOOM.point("H9")
    left, upper = table.zoom_origin
    assert 0 < x - left < WIDTH and 0 < y - upper < 330
    state.player("alice").at = "W7"
    far = Table(GAME.view(state, None), NAMES)
    far.compose()
    assert far.zoom_origin[0] > left


def test_a_kept_card_is_not_counted_in_the_pool_and_a_shared_victory_is_said_so():
    state = play_state(pool=[pool_card(1), pool_card(3, (("bob", 0),)), pool_card(6, private_to="alice")])
    alt = FRONTEND.alt_text(GAME.view(state, None), NAMES)
    assert "Pool: 2 cards, 1 unlocked." in alt, "a card kept privately is not in the pool (rules: pool size)"
    assert FRONTEND.describe_events([{"type": "game_over", "winners": ["alice", "bob"]}], NAMES) == [
        "Game over: Alice and Bob share the victory!"]
    assert FRONTEND.describe_events([{"type": "game_over", "winners": ["bob"]}], NAMES) == ["Game over: Bob wins!"]


def test_the_cards_kept_are_counted_in_words():
    told = [FRONTEND.describe_events([{"type": "kept", "player": "bob", "cards": cards}], NAMES)[0]
            for cards in ([], [7], [7, 9])]
    assert told == ["Bob keeps no card.", "Bob keeps 1 card privately locked.", "Bob keeps 2 cards privately locked."]


def test_an_ended_turn_is_told_as_such():
    assert FRONTEND.describe_events([{"type": "turn_ended", "player": "alice"}], NAMES) == ["Alice ends the turn."]


def test_an_event_that_lapses_is_told_with_what_it_frees():
    """The table shows events in force; one that lapses at the end of its drawer's next turn is told, not silent."""
    ended = [{"type": "event_ended", "card": 1, "kind": kind, "target": target}
             for kind, target in (("flood", "Amber"), ("strike", "Northgate"), ("snow", "Northgate"))]
    assert FRONTEND.describe_events(ended, NAMES) == [
        "The flood of the Amber is over: its crossings may be built again.",
        "The strike at Northgate (I2) is over: loads are picked up and delivered there again.",
        "The snow around Northgate (I2) is over: trains there run at full speed, and mountains and alpine may be "
        "built on again."]


def test_a_delivery_tells_whose_lock_it_freed_and_on_which_card():
    """Rules: delivering on a locked card frees every other lock on it; the racer who lost is told so."""
    delivered = {"type": "delivered", "player": "alice", "card": 29, "demand": 1, "load": "Fish",
                 "city": "Northgate", "payoff": 30, "freed": ["bob"]}
    assert FRONTEND.describe_events([delivered], NAMES) == [
        "Alice delivers Fish to Northgate (I2) for **30** (card #29). Bob's lock on #29 is freed: "
        "the Fish is an ordinary load again and the marker returns."]
    alone = {**delivered, "freed": []}
    assert FRONTEND.describe_events([alone], NAMES) == ["Alice delivers Fish to Northgate (I2) for **30** (card #29)."]
