"""A train moves a whole leg per action (issue 21, item 2): to any milepost or city it reaches this turn
(on its own track, or on the other's for the fee), or toward a city beyond reach as far as it runs;
the AI moves the same way. Older `move` actions (a path, a single step, `to`) are still accepted;
`move toward` is the older `to` with the foreign-track fee paid only to arrive a turn sooner
(test_move_toward)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench.positions import random_states
from games.ai import choose_action
from games.core import IllegalMove, SeededRandomness
from games.crayon_rails.engine import GAME
from games.crayon_rails.mapdata import board, edge
from games.crayon_rails.routing import owners, train_route
from games.crayon_rails.state import FOREIGN_TRACK_FEE, State

from .situations import act, land_path, play_state, track

TO_LAKEVIEW = land_path("I2", "O8")
"""Northgate (I2) to Lakeview (O8): nine mileposts of clear track."""


def moves(state: State, player: str = "alice") -> list[dict]:
    return [action for action in GAME.legal_actions(state, player) if action["type"] == "move"]


def ends(state: State, player: str = "alice") -> set[str]:
    return {action["path"][-1] for action in moves(state, player) if "path" in action}


def test_a_city_nine_mileposts_away_is_one_action():
    state = play_state(alice={"track": track(*TO_LAKEVIEW), "at": "I2"})
    assert len(TO_LAKEVIEW) == 10
    leg = {"type": "move", "path": TO_LAKEVIEW[1:]}
    assert leg in moves(state)
    new, events = act(state, "alice", leg)
    assert new.player("alice").at == "O8" and new.turn.moves_left == 0
    assert events == [{"type": "moved", "player": "alice", "path": TO_LAKEVIEW[1:]}]


def test_every_milepost_in_reach_is_offered_and_nothing_beyond():
    state = play_state(alice={"track": track(*TO_LAKEVIEW), "at": "I2"}, allowance=5)
    assert ends(state) == set(TO_LAKEVIEW[1:6])
    assert {"type": "move", "toward": "Lakeview"} in moves(state), "the city beyond reach, as far as it runs"
    new, _ = act(state, "alice", {"type": "move", "toward": "Lakeview"})
    assert new.player("alice").at == TO_LAKEVIEW[5] and new.turn.moves_left == 0


def test_the_other_players_track_is_offered_for_the_fee_and_paid_once():
    state = play_state(alice={"track": track("I2", "I3", "H4"), "at": "I2"},
                       bob={"track": track("H4", "H5", "G6", "G7")})
    assert {"G6", "G7"} <= ends(state)
    new, events = act(state, "alice", {"type": "move", "path": ["I3", "H4", "H5", "G6"]})
    assert {"type": "fee_paid", "player": "alice", "to": "bob", "amount": FOREIGN_TRACK_FEE} in events
    assert new.player("alice").cash == 50 - FOREIGN_TRACK_FEE and new.player("bob").cash == 50 + FOREIGN_TRACK_FEE
    _, events = act(new, "alice", {"type": "move", "path": ["G7"]})
    assert not any(event["type"] == "fee_paid" for event in events)
    broke = play_state(alice={"track": track("I2", "I3", "H4"), "at": "I2", "cash": 3},
                       bob={"track": track("H4", "H5", "G6", "G7")})
    assert ends(broke) == {"I3", "H4"}, "who cannot pay the fee is offered only his own track"


def test_older_move_actions_still_replay():
    state = play_state(alice={"track": track(*TO_LAKEVIEW), "at": "I2"})
    one, _ = act(state, "alice", {"type": "move", "path": ["J2"]})
    assert one.player("alice").at == "J2"
    two, _ = act(state, "alice", {"type": "move", "path": "I2 J2 K2"})
    assert two.player("alice").at == "K2"
    far, _ = act(state, "alice", {"type": "move", "to": "Lakeview"})
    assert far.player("alice").at == "O8"


def reachable(state: State, player: str) -> set[str]:
    """Every milepost a train can stop at this turn, found by trying single steps one after another."""
    found, frontier = set(), [state]
    while frontier:
        following = []
        for here in frontier:
            at = here.player(player).at
            for there in board().neighbours(at):
                if edge(at, there) not in owners(here):
                    continue
                try:
                    after, _ = GAME.apply(here, player, {"type": "move", "path": [there]}, SeededRandomness(0))
                except IllegalMove:
                    continue
                key = (there, at, after.turn.fee_paid)
                if key not in {(s.player(player).at, s.player(player).came_from, s.turn.fee_paid) for s in following}:
                    following.append(after)
                found.add(there)
        frontier = following
    return found - {state.player(player).at}


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000))
def test_the_legs_offered_reach_exactly_where_single_steps_can(seed):
    """On random positions: a leg to every milepost single steps reach (and no other), each along
    the route `move toward` takes, and `toward` only cities beyond this turn's reach."""
    for state, _ in random_states("crayon-rails", ["ann", "ben"], seed=seed, max_steps=500)[::9]:
        player = state.turn.player if state.turn else None
        if state.phase != "play" or not player or state.player(player).at is None or state.pending_losses:
            continue
        assert ends(state, player) == reachable(state, player)
        for action in moves(state, player):
            if "path" in action:
                assert action["path"] == train_route(state, player, action["path"][-1]).path
            else:
                route = train_route(state, player, action["toward"])
                assert board().cities[action["toward"]] and len(route.path) > state.turn.moves_left


def test_the_ai_moves_a_whole_leg_per_action_and_finishes_its_games():
    for seed in (1, 2):
        rng = SeededRandomness(seed)
        state = GAME.new_game(["ann", "ben"], rng, {"target_cash": 80})
        single_steps = legs = 0
        for _ in range(3000):
            if not GAME.to_act(state):
                break
            player = GAME.to_act(state)[0]
            action = choose_action(GAME, GAME.view(state, player), player, SeededRandomness(seed), iterations=1)
            if action["type"] == "move":
                legs += 1
                path, left = action.get("path"), state.turn.moves_left
                if path is not None and len(path) < left:
                    route = train_route(state, player, path[-1])
                    single_steps += len(path) == 1 and route is not None
            state, _ = GAME.apply(state, player, action, rng)
        assert GAME.result(state) is not None, f"game {seed} did not finish"
        assert legs and single_steps <= legs // 10, f"{single_steps} of {legs} moves were single steps"
