"""Random but legal play never breaks an invariant, and every listed action is accepted."""

from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.core import SeededRandomness
from games.crayon_rails.engine import GAME
from games.crayon_rails.state import CHIPS_PER_LOAD, MARKERS, State, markers_left, slots_used


def check_invariants(state: State) -> None:
    seats = len(state.players)
    public = state.public_pool
    for player in state.players:
        assert player.cash >= 0
        assert slots_used(state, player.id) <= player.capacity
        assert 0 <= markers_left(state, player.id) <= MARKERS
    for load, count in Counter(load for p in state.players for load in p.loads).items():
        assert count <= CHIPS_PER_LOAD, load
    cards = [c.id for c in state.pool] + state.deck + state.discard
    assert sorted(cards) == list(range(1, 49)), "a card is lost or counted twice"
    if state.phase == "play" and not state.pending_losses:
        assert len(state.unlocked_pool) >= 2 * seats or len(public) >= 3 * seats or not (state.deck or state.discard)
    sections = [section for p in state.players for section in p.track]
    assert len(sections) == len(set(sections)), "two tracks join the same mileposts"
    for card in state.pool:
        assert len({lock.demand for lock in card.locks}) <= 1
        assert len({lock.player for lock in card.locks}) == len(card.locks)


def pick(actions: list[tuple[str, dict]], choice: int) -> tuple[str, dict]:
    """Mostly anything but end_turn, so trains run and loads move."""
    busy = [a for a in actions if a[1]["type"] != "end_turn"]
    pool = busy if busy and choice % 6 else actions
    return pool[choice % len(pool)]


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), choices=st.lists(st.integers(0, 10_000), min_size=150, max_size=150))
def test_random_legal_play_keeps_invariants(seed, choices):
    rng = SeededRandomness(seed)
    state = GAME.new_game(["alice", "bob"], rng)
    for choice in choices:
        check_invariants(state)
        if GAME.result(state) is not None:
            break
        actions = [(p, a) for p in GAME.to_act(state) for a in GAME.legal_actions(state, p)]
        assert actions, "the game waits for someone who can do nothing"
        player, action = pick(actions, choice)
        state, events = GAME.apply(state, player, action, rng)
        assert all("type" in e for e in events)
        assert GAME.view(state, None)["to_act"] == GAME.to_act(state)
    assert GAME.state_from_json(state.model_dump_json()) == state


def test_every_listed_action_is_accepted_along_a_game():
    rng = SeededRandomness(5)
    state = GAME.new_game(["alice", "bob"], rng)
    for step in range(80):
        for player in GAME.to_act(state):
            for action in GAME.legal_actions(state, player):
                GAME.apply(state, player, action, SeededRandomness(step))
        actions = [(p, a) for p in GAME.to_act(state) for a in GAME.legal_actions(state, p)]
        state, _ = GAME.apply(state, *pick(actions, step * 7 + 1), rng)
