"""After a Flood cuts a network in two, the cut-off piece is a goal again and building rejoins it."""

from bot.presentation.frontends.crayon_components import build_preview_words
from bot.presentation.frontends.crayon_rails import FRONTEND
from games.ai import choose_action
from games.core import SeededRandomness
from games.crayon_rails.cards import deck
from games.crayon_rails.engine import GAME
from games.crayon_rails.goals import goal_cities
from games.crayon_rails.hazards import resolve_event
from games.crayon_rails.routing import cheapest_build_path, majors_joined, pieces

from .situations import act, event_id, land_path, play_state, track


def flooded_network():
    """Alice's track joins all four majors until the Slate floods and cuts Eastbay (W7) off; the flood is over."""
    state = play_state(alice={"cash": 120, "at": "M15"})
    state.player("alice").track = track(*(land_path("C8", "I2") + land_path("I2", "M15")[1:]
                                          + land_path("M15", "W7")[1:]))
    assert majors_joined(state.player("alice")) == 4
    flood: list[dict] = []
    resolve_event(state, deck()[event_id("flood", "Slate")], flood)
    state.active_events = []
    assert flood[0]["erased"] and len(pieces(state.player("alice"))) == 2
    return state


def test_the_cut_off_major_is_a_goal_and_building_to_it_rejoins_the_pieces():
    state = flooded_network()
    assert majors_joined(state.player("alice")) == 3
    assert "Eastbay" in goal_cities(state, "alice")
    found = cheapest_build_path(state, "alice", "W7", budget=20)
    assert found is not None and len(found.path) >= 2 and found.cost > 0
    assert {"type": "build", "toward": "Eastbay"} in GAME.legal_actions(state, "alice")
    new, events = act(state, "alice", {"type": "build", "toward": "Eastbay"})
    assert events[-1]["type"] == "built"
    assert len(pieces(new.player("alice"))) == 1 and majors_joined(new.player("alice")) == 4


def test_the_ai_plans_to_rejoin_its_cut_off_track():
    state = flooded_network()
    action = choose_action(GAME, GAME.view(state, "alice"), "alice", SeededRandomness(3), iterations=1)
    assert action == {"type": "build", "toward": "Eastbay"}
    new, _ = act(state, "alice", action)
    assert majors_joined(new.player("alice")) == 4


def test_a_city_on_an_unbroken_network_needs_no_track():
    state = play_state(alice={"track": track(*land_path("C8", "M15"))})
    assert cheapest_build_path(state, "alice", "M15", budget=20).cost == 0
    assert "Southport" not in goal_cities(state, "alice")


def test_the_preview_of_the_link_rejoining_a_cut_off_piece_says_it_joins_it():
    """Dunmore (H9) is on the piece the Flood cut off: one section to H8 joins it, nothing is left for later."""
    state = play_state(alice={"track": track("I2", "I3", "I4", "J5", "J6", "I6", "I7") + track("H8", "H9")})
    view = GAME.view(state, "alice")
    words = FRONTEND.build_preview_text(view, act(state, "alice", {"type": "build", "toward": "H9"})[1], "H9")
    assert words.startswith("Build 1 section from I7 to H8, joining your track to Dunmore (H9) for"), words
    assert "later turn" not in words
    cut_short = build_preview_words(["I7", "H8"], 2, 50, "H9", [["I6", "I7"]])
    assert "toward Dunmore (H9) (the rest on a later turn)" in cut_short, "H8 alone is not Dunmore's piece"
