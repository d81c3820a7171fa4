"""Building: terrain, city and river costs, the 20 limit, where track may start, city entry limits."""

import pytest

from games.core import IllegalMove
from games.crayon_rails.routing import cheapest_build_path

from .situations import act, play_state, track


@pytest.mark.parametrize(
    ("path", "cost", "own"),
    [
        (["C8", "D8"], 1, []),                      # clear, from a major city
        (["J6", "K6"], 2, track("I6", "J6")),       # mountain
        (["K6", "L6"], 5, track("J6", "K6")),       # alpine
        (["G9", "H9"], 3, track("F9", "G9")),       # small city
        (["I6", "J6"], 3, track("H6", "I6")),       # medium city
        (["D8", "C8"], 5, track("E8", "D8")),       # major city
        (["J7", "J8"], 3, track("I7", "J7")),       # clear across the Amber: 1 + 2
    ],
)
def test_build_costs_by_terrain_city_and_river(path, cost, own):
    state = play_state(alice={"track": own})
    new, events = act(state, "alice", {"type": "build", "path": path})
    assert events[-1] == {"type": "built", "player": "alice", "path": path, "cost": cost}
    assert new.player("alice").cash == 50 - cost


def test_build_limit_of_twenty_per_turn():
    row_eight = [f"{column}8" for column in "CDEFGHIJKLMNOPQRSTUVWX"]
    with pytest.raises(IllegalMove, match="you may spend only 20 more"):
        act(play_state(), "alice", {"type": "build", "path": row_eight})
    state = play_state(built=17)
    with pytest.raises(IllegalMove, match="only 3 more"):
        act(state, "alice", {"type": "build", "path": ["C8", "D8", "E8", "F8", "G8"]})
    new, _ = act(state, "alice", {"type": "build", "path": ["C8", "D8", "E8", "F8"]})
    assert new.turn.built == 20
    with pytest.raises(IllegalMove, match="only 0 more"):
        act(new, "alice", {"type": "build", "path": ["F8", "G8"]})


def test_cannot_spend_money_he_does_not_have():
    state = play_state(alice={"cash": 2})
    with pytest.raises(IllegalMove, match="you have 2"):
        act(state, "alice", {"type": "build", "path": ["C8", "D8", "E8", "F8"]})


def test_track_starts_at_a_major_city_or_own_track():
    state = play_state(bob={"track": track("E8", "F8")})
    with pytest.raises(IllegalMove, match="must start"):
        act(state, "alice", {"type": "build", "path": ["F8", "G8"]})
    new, _ = act(state, "alice", {"type": "build", "path": ["Westholm", "D8"]})
    new, _ = act(new, "alice", {"type": "build", "path": ["D8", "D9"]})
    assert ("D8", "D9") in new.player("alice").track


def test_only_one_player_may_join_two_mileposts():
    state = play_state(bob={"track": track("C8", "D8")})
    with pytest.raises(IllegalMove, match="bob's track"):
        act(state, "alice", {"type": "build", "path": ["C8", "D8"]})


def test_each_player_may_enter_a_small_city_with_two_sections():
    state = play_state(alice={"track": track("G9", "H9", "H8")}, bob={"track": track("G8", "H9")})
    with pytest.raises(IllegalMove, match="2 sections into Dunmore"):
        act(state, "alice", {"type": "build", "path": ["H9", "G10"]})
    other = state.model_copy(update={"turn": state.turn.model_copy(update={"player": "bob"})})
    new, _ = act(other, "bob", {"type": "build", "path": ["H9", "G10"]})
    assert ("G10", "H9") in new.player("bob").track


def test_building_comes_after_operating():
    state = play_state(alice={"track": track("C8", "D8"), "at": "C8"})
    new, _ = act(state, "alice", {"type": "build", "path": ["D8", "E8"]})
    with pytest.raises(IllegalMove, match="before you build"):
        act(new, "alice", {"type": "move", "path": ["D8"]})


def test_upgrade_costs_twenty_and_replaces_building():
    state = play_state()
    new, _ = act(state, "alice", {"type": "upgrade", "train": "heavy"})
    assert new.player("alice").train == "heavy" and new.player("alice").cash == 30
    with pytest.raises(IllegalMove, match="replaces building"):
        act(new, "alice", {"type": "build", "path": ["C8", "D8"]})
    built, _ = act(state, "alice", {"type": "build", "path": ["C8", "D8"]})
    with pytest.raises(IllegalMove, match="cannot upgrade now"):
        act(built, "alice", {"type": "upgrade", "train": "fast"})
    with pytest.raises(IllegalMove, match="upgrades to super"):
        act(new.model_copy(update={"turn": state.turn}), "alice", {"type": "upgrade", "train": "fast"})


def test_an_upgrade_refused_for_want_of_cash_says_what_she_has():
    """Like a build too dear, the refusal names the price and the cash, so she knows how far short she is."""
    with pytest.raises(IllegalMove, match=r"^An upgrade costs 20 and you have 15; build instead, or end your turn\.$"):
        act(play_state(alice={"cash": 15}), "alice", {"type": "upgrade", "train": "heavy"})


def test_build_toward_a_city_uses_the_cheapest_affordable_track():
    state = play_state(alice={"track": track("F9", "G9")})
    _, events = act(state, "alice", {"type": "build", "toward": "Dunmore"})
    assert events[-1]["path"] == ["G9", "H9"] and events[-1]["cost"] == 3


def test_cheapest_build_path_within_budget():
    state = play_state(alice={"track": track("F9", "G9")})
    found = cheapest_build_path(state, "alice", "H9", budget=20)
    assert found.path == ["G9", "H9"] and found.cost == 3
    assert cheapest_build_path(state, "alice", "H9", budget=2) is None
    far = cheapest_build_path(state, "alice", "W7", budget=5, partial=True)
    assert far is not None and far.cost <= 5
    assert cheapest_build_path(state, "alice", "G9", budget=0).cost == 0
