"""`build to:` lays the cheapest legal build (issue 21, item 4), checked against an exhaustive search.

The exhaustive search tries every simple path from every place track may start (the player's own
track and every major city), priced step by step with the engine's own `step_cost`, so it shares
no search logic with `cheapest_build_path`: only the per-section rules.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.core import IllegalMove
from games.crayon_rails.mapdata import board, edge
from games.crayon_rails.routing import cheapest_build_path, city_sections, network, owners, price_build, step_cost
from games.crayon_rails.state import State

from .situations import act, land_path, play_state, track


def cheaper_legal_build(state: State, player_id: str, target: str, below: int) -> tuple[list[str], int] | None:
    """Any legal build path ending at `target` that costs less than `below`, by trying them all.

    Each step costs at least 1, so a path whose cost plus its distance left reaches `below` is cut.
    """
    the_board = board()
    player = state.player(player_id)
    majors = {city.at for city in the_board.majors}
    own = network(player)
    starts = own if own and target in majors else own | (majors - {target})
    taken, entries = owners(state), city_sections(player)

    def extend(path: list[str], cost: int) -> tuple[list[str], int] | None:
        here = path[-1]
        if here == target:
            return list(path), cost
        for there in the_board.neighbours(here):
            if there in path:
                continue
            try:
                step = step_cost(state, player_id, here, there, taken, entries)
            except IllegalMove:
                continue
            if cost + step + the_board.distance(there, target) >= below:
                continue
            section = edge(here, there)
            taken[section] = player_id
            entries[here] += 1
            entries[there] += 1
            path.append(there)
            found = extend(path, cost + step)
            path.pop()
            del taken[section]
            entries[here] -= 1
            entries[there] -= 1
            if found:
                return found
        return None

    for start in sorted(starts - {target}):
        found = extend([start], 0)
        if found:
            return found
    return None


ALICE_ROW_8 = ["C8", "D8", "E8", "F8", "G8", "H8"]
BOB_TO_I9 = ["C8", "D9", "E9", "F9", "G9", "H9", "I9"]


def test_build_to_ironhill_starts_at_northgate_when_that_is_cheaper():
    """The reported case: Bob's track runs C8-I9 under Alice's along row 8; Ironhill costs 6 from
    Northgate (I2), not 7 from his own track."""
    state = play_state(alice={"track": track(*ALICE_ROW_8)}, bob={"track": track(*BOB_TO_I9)}, to_move="bob")
    found = cheapest_build_path(state, "bob", "J6", budget=20)
    assert found is not None and found.cost == 6 and found.path[0] == "I2" and found.path[-1] == "J6"
    assert cheaper_legal_build(state, "bob", "J6", below=6) is None
    assert cheaper_legal_build(state, "bob", "J6", below=7) is not None
    _, events = act(state, "bob", {"type": "build", "toward": "Ironhill"})
    assert events == [{"type": "built", "player": "bob", "path": found.path, "cost": 6}]


def test_the_small_cities_around_another_players_track_cost_what_the_exhaustive_search_says():
    state = play_state(alice={"track": track(*ALICE_ROW_8)}, bob={"track": track(*BOB_TO_I9)}, to_move="bob")
    for name in ("Ironhill", "Elmstead", "Brookfield", "Cedarvale", "Glenrock"):
        target = board().cities[name].at
        found = cheapest_build_path(state, "bob", target, budget=20)
        assert found is not None and price_build(state, "bob", found.path) == found.cost
        assert cheaper_legal_build(state, "bob", target, below=found.cost) is None, name


MAJOR_OR_CITY = sorted(city.at for city in board().cities.values())


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mine=st.tuples(st.sampled_from(MAJOR_OR_CITY), st.sampled_from(MAJOR_OR_CITY)),
       theirs=st.tuples(st.sampled_from(MAJOR_OR_CITY), st.sampled_from(MAJOR_OR_CITY)),
       target=st.sampled_from(sorted(board().terrain)))
def test_no_legal_build_is_cheaper_than_build_to(mine, theirs, target):
    """Random positions: Alice's and Bob's track along straight-ish lines between cities."""
    bob_track = track(*land_path(*theirs)) if theirs[0] != theirs[1] else []
    alice_track = [s for s in (track(*land_path(*mine)) if mine[0] != mine[1] else []) if s not in bob_track]
    state = play_state(alice={"track": alice_track}, bob={"track": bob_track})
    if target in network(state.player("alice")):
        return
    found = cheapest_build_path(state, "alice", target, budget=10_000)
    if found is None:
        assert cheaper_legal_build(state, "alice", target, below=9) is None
        return
    assert found.path[-1] == target and price_build(state, "alice", found.path) == found.cost
    if found.cost <= 12:
        assert cheaper_legal_build(state, "alice", target, below=found.cost) is None


def test_the_older_build_to_still_extends_the_network_so_recorded_games_replay():
    """Games recorded before `toward` hold `build to`, which built from the player's track only:
    it must still lay exactly that track, or their records would no longer verify."""
    state = play_state(alice={"track": track(*ALICE_ROW_8)}, bob={"track": track(*BOB_TO_I9)}, to_move="bob")
    _, events = act(state, "bob", {"type": "build", "to": "Ironhill"})
    assert events == [{"type": "built", "player": "bob", "path": ["G9", "G8", "H7", "H6", "I6", "J6"], "cost": 7}]
    with pytest.raises(IllegalMove):
        act(state, "bob", {"type": "build", "to": "Ironhill", "toward": "Ironhill"})
