"""Running the train: placing it, moving, the fee on foreign track, reversals, loads."""

import pytest

from games.core import IllegalMove
from games.crayon_rails.routing import train_route

from .situations import act, card_with, play_state, pool_card, track

ALICE_LINE = track("C8", "D8", "E8", "F8", "G8", "G9", "H9")
BOB_SPUR = track("H9", "H8", "G7")


def on_line(at="C8", moved=0, **alice):
    return play_state(alice={"track": ALICE_LINE, "at": at, **alice}, bob={"track": BOB_SPUR}, moved=moved)


def test_train_starts_on_any_city_once():
    state = play_state()
    with pytest.raises(IllegalMove, match="on a city"):
        act(state, "alice", {"type": "start", "city": "F8"})
    new, events = act(state, "alice", {"type": "start", "city": "Dunmore"})
    assert new.player("alice").at == "H9" and events[-1]["city"] == "Dunmore"
    with pytest.raises(IllegalMove, match="already on the map"):
        act(new, "alice", {"type": "start", "city": "Westholm"})


def test_move_along_own_track_within_the_allowance():
    new, events = act(on_line(), "alice", {"type": "move", "path": "D8 E8 F8"})
    assert new.player("alice").at == "F8" and new.turn.moves_left == 6
    assert events[-1] == {"type": "moved", "player": "alice", "path": ["D8", "E8", "F8"]}
    with pytest.raises(IllegalMove, match="3 mileposts left"):
        act(on_line(moved=6), "alice", {"type": "move", "path": ["D8", "E8", "F8", "G8"]})
    with pytest.raises(IllegalMove, match="no track"):
        act(on_line(), "alice", {"type": "move", "path": ["C9"]})


def test_foreign_track_costs_four_once_paid_to_its_owner():
    new, events = act(on_line("H9"), "alice", {"type": "move", "path": ["H8"]})
    assert {"type": "fee_paid", "player": "alice", "to": "bob", "amount": 4} in events
    assert (new.player("alice").cash, new.player("bob").cash) == (46, 54)
    again, events = act(new, "alice", {"type": "move", "path": ["G7"]})
    assert again.player("alice").cash == 46 and not any(e["type"] == "fee_paid" for e in events)


def test_a_player_who_cannot_pay_the_fee_cannot_enter():
    with pytest.raises(IllegalMove, match="costs 4"):
        act(on_line("H9", cash=3), "alice", {"type": "move", "path": ["H8"]})


def test_move_toward_a_place_only_the_fee_bars_says_the_fee_is_what_is_missing():
    """Bob's spur runs on to G7: what Alice lacks is the 4 for his track, not track."""
    with pytest.raises(IllegalMove, match="only over bob's track, and using it costs 4, more than you have"):
        act(on_line("H9", cash=3), "alice", {"type": "move", "toward": "G7"})


def test_move_toward_a_place_no_track_reaches_says_to_build_there_first():
    """A newcomer typing `/move to:` a city off every track is told how to get there: build to it."""
    with pytest.raises(IllegalMove, match=r"^No track reaches C9 yet: build there first with /build to:C9\.$"):
        act(on_line("H9"), "alice", {"type": "move", "toward": "C9"})
    with pytest.raises(IllegalMove, match=r"^No track reaches Eastbay yet: build there first with /build to:Eastbay"):
        act(on_line("H9"), "alice", {"type": "move", "toward": "Eastbay"})


def test_move_toward_where_the_train_stands_says_it_is_there_already():
    with pytest.raises(IllegalMove, match="Your train is at Westholm already"):
        act(on_line(), "alice", {"type": "move", "toward": "Westholm"})
    with pytest.raises(IllegalMove, match="no mileposts to move this turn"):
        act(on_line(moved=9), "alice", {"type": "move", "toward": "Dunmore"})


def test_move_toward_an_unknown_place_says_it_is_not_a_place():
    with pytest.raises(IllegalMove, match="'Dunmre' is neither a milepost"):
        act(on_line(), "alice", {"type": "move", "toward": "Dunmre"})


def test_reversal_only_in_a_city():
    with pytest.raises(IllegalMove, match="reverse only in a city"):
        act(on_line("E8", came_from="D8"), "alice", {"type": "move", "path": ["D8"]})
    new, _ = act(on_line("C8", came_from="D8"), "alice", {"type": "move", "path": ["D8"]})
    assert new.player("alice").at == "D8"


def test_move_to_a_city_follows_the_shortest_route():
    route = train_route(on_line(), "alice", "Dunmore")
    assert route.path == ["D8", "E8", "F8", "G8", "G9", "H9"] and route.fee == 0
    new, _ = act(on_line(), "alice", {"type": "move", "to": "Dunmore"})
    assert new.player("alice").at == "H9"
    assert train_route(on_line("H9"), "alice", "G7").fee == 4


def test_move_to_a_far_city_goes_as_far_as_the_allowance():
    new, _ = act(on_line(moved=7), "alice", {"type": "move", "to": "Dunmore"})
    assert new.player("alice").at == "E8" and new.turn.moves_left == 0


def test_pickup_where_supplied_up_to_capacity():
    state = on_line("H9")
    with pytest.raises(IllegalMove, match="does not supply Coal"):
        act(state, "alice", {"type": "pickup", "load": "Coal"})
    new, _ = act(state, "alice", {"type": "pickup", "load": "Iron"})
    new, _ = act(new, "alice", {"type": "pickup", "load": "Copper"})
    assert new.player("alice").loads == ["Iron", "Copper"]
    with pytest.raises(IllegalMove, match="no free slot"):
        act(new, "alice", {"type": "pickup", "load": "Iron"})


def test_each_load_has_three_chips():
    state = play_state(alice={"at": "H9", "loads": ["Iron"]}, bob={"loads": ["Iron", "Iron"]})
    with pytest.raises(IllegalMove, match="All the Iron"):
        act(state, "alice", {"type": "pickup", "load": "Iron"})


def test_private_card_reserves_a_slot():
    card, demand = card_with("Coal")
    state = play_state(alice={"at": "H9", "loads": ["Iron"]}, pool=[pool_card(card, (("alice", demand),), "alice")])
    with pytest.raises(IllegalMove, match="no free slot"):
        act(state, "alice", {"type": "pickup", "load": "Copper"})


def test_drop_at_a_city_but_not_a_locked_load():
    card, demand = card_with("Iron")
    state = on_line("H9", loads=["Iron", "Copper"])
    state.pool = [pool_card(card, (("alice", demand),))]
    new, events = act(state, "alice", {"type": "drop", "load": "Copper"})
    assert new.player("alice").loads == ["Iron"] and events[-1]["city"] == "Dunmore"
    with pytest.raises(IllegalMove, match="locked"):
        act(state, "alice", {"type": "drop", "load": "Iron"})
    with pytest.raises(IllegalMove, match="only at cities"):
        act(on_line("E8", loads=["Copper"]), "alice", {"type": "drop", "load": "Copper"})
