"""The rulings a newcomer relies on: building to any major city at the cheapest cost, same-load kept
cards interchangeable (deliveries and derailments), a qualification standing for its round."""

import heapq

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.core import IllegalMove
from games.crayon_rails.cards import deck
from games.crayon_rails.engine import GAME
from games.crayon_rails.hazards import resolve_event
from games.crayon_rails.mapdata import board, edge
from games.crayon_rails.routing import cheapest_build_path, majors_joined, network

from .situations import act, event_id, land_path, play_state, pool_card, track

STEEL_DUNMORE = (6, 1)
STEEL_ELMSTEAD = (9, 0)
FILLER = [1, 3, 4, 5]


def independent_cost(sources: set[str], target: str, taken: set[tuple[str, str]]) -> int:
    """A plain Dijkstra over the map's build costs, written apart from the engine's search."""
    the_board = board()
    best = {s: 0 for s in sources}
    queue = [(0, s) for s in sources]
    while queue:
        cost, here = heapq.heappop(queue)
        if here == target:
            return cost
        if cost > best[here]:
            continue
        for there in the_board.neighbours(here):
            if edge(here, there) in taken:
                continue
            total = cost + the_board.build_cost(here, there)
            if total < best.get(there, 10**9):
                best[there] = total
                heapq.heappush(queue, (total, there))
    raise AssertionError(f"{target} unreachable")


NETWORKS = [[], track(*land_path("C8", "F11")), track(*land_path("W7", "O8")), track(*land_path("M15", "J13"))]


@pytest.mark.parametrize("own", NETWORKS)
@pytest.mark.parametrize("major", [c.name for c in board().majors])
def test_build_to_every_major_succeeds_at_the_cheapest_cost(own, major):
    target = board().cities[major].at
    state = play_state(alice={"track": own, "cash": 500})
    if target in network(state.player("alice")):
        pytest.skip("this network already touches the major")
    sources = network(state.player("alice")) or {c.at for c in board().majors if c.at != target}
    cheapest = independent_cost(sources, target, set())
    found = cheapest_build_path(state, "alice", target, budget=10_000)
    assert found is not None and found.path[-1] == target and found.cost == cheapest
    new, events = act(state, "alice", {"type": "build", "toward": major})
    built = events[-1]
    assert built["type"] == "built" and len(built["path"]) >= 2
    if cheapest <= 20:
        assert built["path"][-1] == target and built["cost"] == cheapest
        assert target in network(new.player("alice"))
        if own:
            joined = majors_joined(new.player("alice"))
            assert joined == majors_joined(state.player("alice")) + 1, "the major joins her network"
    else:
        assert built["cost"] <= 20 and built["path"] == found.path[: len(built["path"])]


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(sorted(board().terrain)))
def test_build_search_matches_an_independent_search_for_any_milepost(target):
    state = play_state(alice={"track": track(*land_path("C8", "F11")), "cash": 500},
                       bob={"track": track(*land_path("W7", "O8"))})
    own = network(state.player("alice"))
    found = cheapest_build_path(state, "alice", target, budget=10_000)
    if target in own:
        assert found is not None and found.cost == 0
        return
    majors = {c.at for c in board().majors}
    sources = own if target in majors else own | majors  # track starts at a major city or on her own
    taken = set(state.player("bob").track)
    try:
        cheapest = independent_cost(sources, target, taken)
    except AssertionError:
        assert found is None
        return
    # The engine also honours the city entry limit, which can only make a path dearer or impossible.
    assert found is None or found.cost >= cheapest
    if not any(board().city_at(m) and board().city_at(m).size != "major" for m in (target,)):
        assert found is not None and found.cost == cheapest


@pytest.mark.parametrize("kept", [STEEL_DUNMORE, STEEL_ELMSTEAD])
def test_either_of_two_same_load_kept_cards_delivers_with_one_load_aboard(kept):
    cards = [pool_card(c, (("alice", d),), "alice") for c, d in (STEEL_DUNMORE, STEEL_ELMSTEAD)]
    city = {STEEL_DUNMORE: "H9", STEEL_ELMSTEAD: "J13"}[kept]
    state = play_state(alice={"at": city, "loads": ["Steel"]}, pool=[*cards, *map(pool_card, FILLER)])
    delivers = [a for a in GAME.legal_actions(state, "alice") if a["type"] == "deliver"]
    assert delivers == [{"type": "deliver", "card": kept[0], "demand": kept[1]}]
    new, events = act(state, "alice", {"type": "deliver", "card": kept[0], "demand": kept[1]})
    assert events[0]["type"] == "delivered" and new.player("alice").loads == []
    assert new.card(kept[0]) is None and new.card(({*[STEEL_DUNMORE, STEEL_ELMSTEAD]} - {kept}).pop()[0])


def test_derailment_offers_each_affected_kept_card():
    cards = [pool_card(c, (("alice", d),), "alice") for c, d in (STEEL_DUNMORE, STEEL_ELMSTEAD)]
    state = play_state(alice={"at": "J6", "loads": ["Steel"]}, pool=[*cards, *map(pool_card, FILLER)])
    resolve_event(state, deck()[event_id("derailment", "Ironhill")], [])
    offered = GAME.legal_actions(state, "alice")
    for card, _ in (STEEL_DUNMORE, STEEL_ELMSTEAD):
        assert {"type": "release", "card": card} in offered
        assert {"type": "keep_private", "card": card} in offered
    new, _ = act(state, "alice", {"type": "release", "card": STEEL_ELMSTEAD[0]})
    assert new.card(STEEL_ELMSTEAD[0]).private_to is None and new.player("alice").loads == []
    assert new.card(STEEL_DUNMORE[0]).private_to == "alice"


def test_qualification_at_the_first_players_turn_end_survives_a_flood():
    state = play_state(alice={"cash": 120})
    state.player("alice").track = track(*(land_path("C8", "M15") + land_path("M15", "W7")[1:]))
    assert ("M14", "N14") in state.player("alice").track
    state, events = act(state, "alice", {"type": "end_turn"})
    assert {"type": "qualified", "player": "alice"} in events
    flood = []
    resolve_event(state, deck()[event_id("flood", "Slate")], flood)
    assert flood[0]["erased"] and majors_joined(state.player("alice")) == 2
    state, events = act(state, "bob", {"type": "end_turn"})
    assert events[-1] == {"type": "game_over", "winners": ["alice"]}


def test_a_flood_in_the_second_turn_takes_away_a_qualification_only_before_it_is_announced():
    """The second player's own qualification is checked at his turn's end, as before."""
    state = play_state(to_move="bob", bob={"cash": 120})
    state.player("bob").track = track(*(land_path("C8", "I2") + land_path("I2", "W7")[1:]))
    state.pool = [pool_card(2, (("bob", 0),))]
    state.player("bob").loads = ["Coal"]
    state, events = act(state, "bob", {"type": "end_turn"})
    assert state.phase == "play" and not any(e["type"] == "qualified" for e in events)


def test_build_to_refusals_name_the_city_and_say_why():
    state = play_state(alice={"track": track("C8", "D8", "E8")}, built=20)
    with pytest.raises(IllegalMove, match=r"toward Northgate \(I2\) can be built now: this turn's building money"):
        act(state, "alice", {"type": "build", "toward": "Northgate"})
    with pytest.raises(IllegalMove, match=r"Westholm \(C8\) is already on your track"):
        act(play_state(alice={"track": track("C8", "D8", "E8")}), "alice", {"type": "build", "toward": "Westholm"})
