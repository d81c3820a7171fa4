"""Setup picks, the initial building rounds, turn order, events in time, victory and the contract."""

import pytest

from games.core import IllegalMove, ScriptedRandomness
from games.crayon_rails.cards import deck
from games.crayon_rails.engine import GAME
from games.crayon_rails.hazards import resolve_event
from games.crayon_rails.routing import majors_joined

from .situations import act, event_id, land_path, play_state, pool_card, track

VIEW_KEYS = {"phase", "round", "to_act", "players", "pool", "deck", "active_events", "winners", "qualified",
             "options", "turn"}  # the last two: what determinize needs beyond the rules file's keys
PLAYER_KEYS = {"id", "cash", "train", "at", "moves_left", "loads", "markers", "track", "majors_joined",
               "came_from", "loses_next_turn"}


def new_game(order=None):
    order = order or [41, *range(1, 41), *range(42, 49)]
    return GAME.new_game(["alice", "bob"], ScriptedRandomness(shuffles=[order]))


def test_setup_offers_four_cards_setting_events_aside():
    state = new_game()
    assert [c.id for c in state.pool] == [1, 2, 3, 4] and state.discard == [41]
    view = GAME.view(state, None)
    assert set(view) == VIEW_KEYS and set(view["players"][0]) == PLAYER_KEYS
    assert view["phase"] == "setup" and view["to_act"] == ["alice"] and view["deck"] == 43


def test_setup_keeps_are_private_locks_and_the_pool_fills_to_three_n():
    state = new_game()
    with pytest.raises(IllegalMove, match="at most two"):
        act(state, "alice", {"type": "keep", "cards": {"1": 0, "2": 0, "3": 0}})
    with pytest.raises(IllegalMove, match="alice's turn"):
        act(state, "bob", {"type": "keep", "cards": {}})
    state, _ = act(state, "alice", {"type": "keep", "cards": {"2": 0}})
    assert state.card(2).private_to == "alice"
    assert [c.id for c in state.public_pool] == [1, 3, 4, 5, 6]
    with pytest.raises(IllegalMove, match="not on offer"):
        act(state, "bob", {"type": "keep", "cards": {"2": 1}})
    state, _ = act(state, "bob", {"type": "keep", "cards": {"5": 1, "6": 2}})
    assert [c.id for c in state.public_pool] == [1, 3, 4, 7, 8, 9]
    assert state.phase == "initial-build" and GAME.to_act(state) == ["alice"]
    assert [p["markers"] for p in GAME.view(state, None)["players"]] == [2, 1]


def test_two_initial_build_rounds_in_snake_order_then_seat_one_moves_first():
    state, _ = act(new_game(), "alice", {"type": "keep", "cards": {}})
    state, _ = act(state, "bob", {"type": "keep", "cards": {}})
    order = []
    for target in ["Dunmore", "Ashford", "Lakeview", "Riverton"]:
        player = GAME.to_act(state)[0]
        order.append((player, state.round))
        with pytest.raises(IllegalMove, match="Trains do not run"):
            act(state, player, {"type": "start", "city": "Westholm"})
        state, _ = act(state, player, {"type": "build", "toward": target})
        state, _ = act(state, player, {"type": "end_turn"})
    assert order == [("alice", 1), ("bob", 1), ("bob", 2), ("alice", 2)]
    assert state.phase == "play" and GAME.to_act(state) == ["alice"] and state.round == 1


def test_a_derailed_player_loses_his_next_turn():
    state = play_state(alice={"at": "W7"}, bob={"at": "J5"})
    resolve_event(state, deck()[event_id("derailment", "Ironhill")], [])
    assert state.pending_losses == []
    new, events = act(state, "alice", {"type": "end_turn"})
    assert {"type": "turn_lost", "player": "bob"} in events
    assert GAME.to_act(new) == ["alice"] and new.round == 2
    again, events = act(new, "alice", {"type": "end_turn"})
    assert GAME.to_act(again) == ["bob"]


def test_events_last_until_the_end_of_the_drawers_next_turn():
    state = play_state()
    resolve_event(state, deck()[event_id("strike", "Eastbay")], [])
    for player in ["alice", "bob"]:
        state, _ = act(state, player, {"type": "end_turn"})
    assert len(state.active_events) == 1
    state, events = act(state, "alice", {"type": "end_turn"})
    assert state.active_events == [] and events[1]["type"] == "event_ended"


def test_strike_stops_pickup_and_delivery():
    state = play_state(alice={"at": "W7", "loads": ["Copper"]}, pool=[pool_card(3, (("alice", 1),))])
    resolve_event(state, deck()[event_id("strike", "Eastbay")], [])
    with pytest.raises(IllegalMove, match="strike"):
        act(state, "alice", {"type": "pickup", "load": "Fish"})
    with pytest.raises(IllegalMove, match="strike"):
        act(state, "alice", {"type": "deliver", "card": 3, "demand": 1})


def test_flood_erases_crossings_and_stops_bridges():
    state = play_state(alice={"track": track("I7", "J7", "J8")}, bob={"track": track("H8", "I8")})
    resolve_event(state, deck()[event_id("flood", "Amber")], [])
    assert state.player("alice").track == [("I7", "J7")] and state.player("bob").track == []
    with pytest.raises(IllegalMove, match="flood"):
        act(state, "alice", {"type": "build", "path": ["J7", "J8"]})


def test_snow_halves_speed_and_stops_mountain_building():
    state = play_state(alice={"at": "I2", "track": track("I2", "I3", "I4", "J5", "J6", "K6")})
    resolve_event(state, deck()[event_id("snow")], [])
    assert state.turn.allowance == 5
    with pytest.raises(IllegalMove, match="Snow"):
        act(state, "alice", {"type": "build", "path": ["K6", "L5"]})


def qualified_state():
    """Alice with 120 and track joining Westholm, Northgate and Eastbay."""
    state = play_state(alice={"cash": 120})
    state.player("alice").track = track(*land_path("C8", "I2")) + track(*land_path("I2", "W7"))
    return state


def test_majors_joined_counts_one_continuous_network():
    state = qualified_state()
    assert majors_joined(state.player("alice")) == 3
    state.player("alice").track.pop()
    assert majors_joined(state.player("alice")) == 2


def test_victory_waits_for_the_round_to_finish():
    state, events = act(qualified_state(), "alice", {"type": "end_turn"})
    assert {"type": "qualified", "player": "alice"} in events and state.phase == "play"
    assert GAME.result(state) is None
    state, events = act(state, "bob", {"type": "end_turn"})
    assert events[-1] == {"type": "game_over", "winners": ["alice"]}
    assert GAME.result(state) == {"winners": ["alice"], "scores": {"alice": 120, "bob": 50}}
    assert GAME.to_act(state) == [] and GAME.legal_actions(state, "alice") == []


def test_no_win_while_holding_a_locked_load():
    state = qualified_state()
    state.player("alice").loads = ["Coal"]
    state.pool = [pool_card(2, (("alice", 0),))]
    state, events = act(state, "alice", {"type": "end_turn"})
    state, events = act(state, "bob", {"type": "end_turn"})
    assert state.phase == "play" and not any(e["type"] == "qualified" for e in events)


def test_both_qualify_more_cash_wins_and_equal_cash_shares():
    state = qualified_state()
    state.player("bob").track = list(state.player("alice").track)
    state.player("bob").cash = 130
    state, _ = act(state, "alice", {"type": "end_turn"})
    over, _ = act(state, "bob", {"type": "end_turn"})
    assert over.winners == ["bob"]
    state.player("bob").cash = 120
    tied, _ = act(state, "bob", {"type": "end_turn"})
    assert tied.winners == ["alice", "bob"]


def test_malformed_actions_are_refused():
    state = play_state()
    for action in [{}, {"type": "fly"}, {"type": "lock", "card": "x"}, {"type": "move"},
                   {"type": "build", "path": ["C8", "D8"], "to": "Dunmore"}, {"type": "keep"}]:
        with pytest.raises(IllegalMove):
            act(state, "alice", action)
    with pytest.raises(IllegalMove, match="not playing"):
        act(state, "carol", {"type": "end_turn"})


def test_apply_does_not_mutate_and_state_round_trips():
    state = play_state(alice={"track": track("C8", "D8")})
    before = state.model_dump_json()
    new, _ = act(state, "alice", {"type": "build", "path": ["D8", "E8"]})
    assert state.model_dump_json() == before
    assert GAME.state_from_json(new.model_dump_json()) == new
