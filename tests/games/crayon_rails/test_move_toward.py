"""`move toward` a city beyond this turn's reach keeps to the player's own track whenever that arrives
as soon (in turns) as any route: the foreign-track fee is paid only to arrive a turn sooner.

The older `move to` compared the own route with this turn's allowance only, so on a trip of two or
more turns it could pay the fee for a shortcut that saved no turn. Recorded games use it, so it
still replays exactly as it played.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench.positions import random_states
from games.core import SeededRandomness
from games.crayon_rails.engine import GAME
from games.crayon_rails.mapdata import board, edge
from games.crayon_rails.routing import owners, train_route, train_routes, turns_to_run
from games.crayon_rails.state import FOREIGN_TRACK_FEE, State
from tests.games.playthrough import digest

from .situations import act, play_state, track

AROUND = ["I2", "I1", "J1", "K1", "K2", "L3", "L4", "M4", "N5", "N6", "O7", "O8"]
"""Alice's own track from Northgate (I2) to Lakeview (O8): eleven mileposts, by a detour at the start."""
SHORTCUT = ["I2", "J2", "K2"]
"""Bob's track, two mileposts where Alice's detour takes four: over it Lakeview is nine mileposts away."""
RECORD = Path(__file__).parent / "records" / "played-before-move-toward.jsonl"


def northgate(moved: int) -> State:
    """Alice at Northgate with `moved` of her nine mileposts used; Lakeview lies beyond Bob's shortcut."""
    return play_state(alice={"track": track(*AROUND), "at": "I2"}, bob={"track": track(*SHORTCUT)}, moved=moved)


def test_a_trip_of_two_turns_either_way_keeps_to_own_track_and_pays_no_fee():
    state = northgate(moved=4)  # 5 left: 11 mileposts on her own track and 9 over Bob's both end next turn
    route = train_route(state, "alice", "Lakeview")
    assert route.path == AROUND[1:] and route.fee == 0
    new, events = act(state, "alice", {"type": "move", "toward": "Lakeview"})
    assert events == [{"type": "moved", "player": "alice", "path": AROUND[1:6]}]
    assert (new.player("alice").cash, new.player("bob").cash) == (50, 50)


def test_the_shortcut_is_taken_for_the_fee_when_it_arrives_a_turn_sooner():
    state = northgate(moved=0)  # 9 left: over Bob's track Lakeview is reached this turn, on her own next turn
    assert train_route(state, "alice", "Lakeview").path == [*SHORTCUT[1:], *AROUND[5:]]
    new, events = act(state, "alice", {"type": "move", "toward": "Lakeview"})
    assert {"type": "fee_paid", "player": "alice", "to": "bob", "amount": FOREIGN_TRACK_FEE} in events
    assert new.player("alice").at == "O8"


def test_the_older_move_to_keeps_its_route_so_recorded_games_replay():
    state = northgate(moved=4)
    assert train_route(state, "alice", "Lakeview", legacy=True).path == [*SHORTCUT[1:], *AROUND[5:]]
    new, events = act(state, "alice", {"type": "move", "to": "Lakeview"})
    assert {"type": "fee_paid", "player": "alice", "to": "bob", "amount": FOREIGN_TRACK_FEE} in events
    assert new.player("alice").at == "M4"


def test_a_game_recorded_with_move_to_replays_event_for_event():
    """The record was played with the older routing, steered into three `move to` actions whose route
    differs from `move toward`'s (two of them paid the fee for nothing): each replays as it played."""
    lines = [json.loads(line) for line in RECORD.read_text().splitlines()]
    rng = SeededRandomness(5)
    state = GAME.new_game(lines[0]["start"], rng)
    assert digest(GAME.view(state, None)) == lines[0]["view"]
    differing = 0
    for step, line in enumerate(lines[1:-1], start=1):
        action = line["action"]
        if action["type"] == "move" and "to" in action:
            legacy = train_route(state, line["player"], action["to"], legacy=True)
            differing += legacy != train_route(state, line["player"], action["to"])
        state, events = GAME.apply(state, line["player"], action, rng)
        assert json.loads(json.dumps(events)) == line["events"], f"step {step}: {action}"
        assert digest(GAME.view(state, None)) == line["view"], f"step {step}"
    assert differing == 3, "the record exercises the older routing where it differs"
    assert json.loads(json.dumps(GAME.view(state, None))) == lines[-1]["final_view"]


@pytest.mark.parametrize("seed", [4, 5])
def test_no_leg_offered_pays_for_foreign_track_that_saves_no_turn(seed):
    """Through two seeded random games (where the older routing paid for nothing within 40 moves): each
    `move toward` offered is accepted, and runs on foreign track only when no route on the player's own
    track arrives as soon."""
    offered = 0
    for state, _ in random_states("crayon-rails", ["ann", "ben"], seed=seed, max_steps=120):
        player = state.turn.player if state.turn else None
        if state.phase != "play" or not player or state.player(player).at is None or state.pending_losses:
            continue
        taken, at = owners(state), state.player(player).at
        own_only = train_routes(state.model_copy(update={"players": [
            p if p.id == player else p.model_copy(update={"track": []}) for p in state.players]}), player)
        for action in GAME.legal_actions(state, player):
            if action["type"] != "move" or "toward" not in action:
                continue
            GAME.apply(state, player, action, SeededRandomness(0))
            offered += 1
            target = board().resolve(action["toward"])
            route = train_route(state, player, action["toward"])
            foreign = any(taken[edge(a, b)] != player for a, b in zip([at, *route.path], route.path, strict=False))
            if foreign and target in own_only:
                train = state.player(player)
                own_turns = turns_to_run(state, train, len(own_only[target].path))
                assert own_turns > turns_to_run(state, train, len(route.path))
    assert offered, "the game offered legs toward cities beyond reach"
