"""`determinize` rebuilds a state its player cannot tell from the true one, and never peeks."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import GAMES
from games.core import SeededRandomness
from games.johari_bones import BONES, POSITIONS

PLAYERS = {"johari-bones": [["ann", "ben"], ["ann", "ben", "cat"], ["ann", "ben", "cat", "dan"]]}
STEPS = {"crayon-rails": 60}


def random_states(slug: str, seed: int, players: list[str], steps: int):
    """Every state along a game played by uniformly random legal actions."""
    game, rng, chooser = GAMES[slug], SeededRandomness(seed), random.Random(seed)
    state = game.new_game(players, rng)
    yield state
    for _ in range(steps):
        moves = [(p, a) for p in players for a in game.legal_actions(state, p)]
        if not moves:
            return
        player, action = chooser.choice(moves)
        state, _ = game.apply(state, player, action, rng)
        yield state


def check_states(slug: str, seed: int, players: list[str], every: int = 1) -> None:
    game = GAMES[slug]
    for index, state in enumerate(random_states(slug, seed, players, STEPS.get(slug, 150))):
        if index % every:
            continue
        for player in players:
            view = game.view(state, player)
            sample = game.determinize(view, player, SeededRandomness(seed + index))
            assert game.view(sample, player) == view
            assert game.to_act(sample) == game.to_act(state)
            assert game.legal_actions(sample, player) == game.legal_actions(state, player)
            assert type(sample).model_validate_json(sample.model_dump_json()) == sample


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), slug=st.sampled_from(["john-henry", "two-fat-dudes", "follow-the-arrow"]))
def test_small_games_rebuild_a_state_with_the_same_view(seed, slug):
    check_states(slug, seed, ["ann", "ben"])


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), seats=st.integers(0, 2))
def test_johari_bones_samples_a_state_with_the_same_view(seed, seats):
    check_states("johari-bones", seed, PLAYERS["johari-bones"][seats])


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6))
def test_crayon_rails_rebuilds_a_state_with_the_same_view(seed):
    check_states("crayon-rails", seed, ["ann", "ben"], every=5)


def test_determinizing_a_finished_game_gives_the_same_result():
    for slug, game in GAMES.items():
        players = PLAYERS.get(slug, [["ann", "ben"]])[0]
        *_, last = random_states(slug, 3, players, 3000)
        if game.result(last) is None:
            continue
        sample = game.determinize(game.view(last, players[0]), players[0], SeededRandomness(1))
        assert game.result(sample) == game.result(last), slug


def _johari_mid_hand(seed: int, players: list[str]):
    """A Johari Bones state with hidden bones: partway through a hand."""
    for index, state in enumerate(random_states("johari-bones", seed, players, 200)):
        if index >= 4 and state.phase in ("turns", "drawn"):
            return state
    raise AssertionError("no state with hidden bones")


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6), seats=st.integers(0, 2))
def test_johari_hidden_slots_never_hold_a_bone_the_player_sees(seed, seats):
    game = GAMES["johari-bones"]
    players = PLAYERS["johari-bones"][seats]
    state = _johari_mid_hand(seed, players)
    for player in players:
        view = game.view(state, player)
        seen = {entry[p] for entry in view["players"] for p in POSITIONS if entry[p]} | {view["drawn"]} - {None}
        sample = game.determinize(view, player, SeededRandomness(seed))
        hidden = [sample.bones[entry["id"]][p] for entry in view["players"] for p in POSITIONS if entry[p] is None]
        assert not seen & set(hidden)
        assert not seen & set(sample.pile)
        everything = [b for hand in sample.bones.values() for b in hand.values()] + sample.pile
        everything += [sample.drawn] if sample.drawn else []
        assert len(everything) == len(set(everything)), "a bone lies in two places"


def test_johari_every_unseen_bone_turns_up_over_many_samples():
    game = GAMES["johari-bones"]
    state = _johari_mid_hand(11, ["ann", "ben", "cat"])
    view = game.view(state, "ann")
    seen = {entry[p] for entry in view["players"] for p in POSITIONS if entry[p]} | {view["drawn"]} - {None}
    hidden_slots = [(entry["id"], p) for entry in view["players"] for p in POSITIONS if entry[p] is None]
    in_slots: Counter[str] = Counter()
    in_pile: Counter[str] = Counter()
    for seed in range(600):
        sample = game.determinize(view, "ann", SeededRandomness(seed))
        in_slots.update(sample.bones[owner][p] for owner, p in hidden_slots)
        in_pile.update(sample.pile)
    unseen = set(BONES) - seen
    assert hidden_slots and set(in_slots) == unseen
    assert set(in_pile) == unseen
    assert min(in_slots.values()) > 0.3 * max(in_slots.values()), "some unseen bones are far too rare"
