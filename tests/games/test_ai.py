"""The AI: a legal action from the player's view alone, the same one whatever it cannot see."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import GAMES
from games.ai import NoLegalAction, choose_action
from games.core import SeededRandomness
from tests.games.test_determinize import PLAYERS, random_states

SMALL = ["john-henry", "two-fat-dudes", "follow-the-arrow", "johari-bones"]


def deciders(game, state, players):
    return [p for p in players if game.legal_actions(state, p)]


def check_legal(slug: str, seed: int, players: list[str], every: int, iterations: int) -> None:
    game = GAMES[slug]
    for index, state in enumerate(random_states(slug, seed, players, 120)):
        if index % every:
            continue
        for player in deciders(game, state, players):
            action = choose_action(game, game.view(state, player), player, SeededRandomness(index),
                                   iterations=iterations)
            assert action in game.legal_actions(state, player)
            game.apply(state, player, action, SeededRandomness(0))  # accepted by the true state


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), slug=st.sampled_from(SMALL))
def test_the_ai_always_chooses_a_legal_action(seed, slug):
    players = random.Random(seed).choice(PLAYERS.get(slug, [["ann", "ben"]]))
    check_legal(slug, seed, players, every=7, iterations=12)


@settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6))
def test_the_ai_always_chooses_a_legal_action_in_crayon_rails(seed):
    check_legal("crayon-rails", seed, ["ann", "ben"], every=11, iterations=5)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), seats=st.integers(0, 2))
def test_the_same_view_and_seed_give_the_same_action_whatever_is_hidden(seed, seats):
    game = GAMES["johari-bones"]
    players = PLAYERS["johari-bones"][seats]
    for index, state in enumerate(random_states("johari-bones", seed, players, 40)):
        player = game.to_act(state)[0] if game.to_act(state) else None
        if player is None or state.phase not in ("turns", "drawn") or index % 3:
            continue
        view = game.view(state, player)
        other = game.determinize(view, player, SeededRandomness(seed + 1))
        assert game.view(other, player) == view
        hidden = [p for entry in view["players"] for p in ("down", "in", "out") if entry[p] is None]
        if hidden:
            assert other.bones != state.bones or other.pile != state.pile or len(state.pile) < 2
        first = choose_action(game, view, player, SeededRandomness(index), iterations=25)
        again = choose_action(game, game.view(other, player), player, SeededRandomness(index), iterations=25)
        assert first == again
        assert first in game.legal_actions(state, player) and again in game.legal_actions(other, player)


def test_the_ai_takes_an_obvious_win_and_an_obvious_box():
    from games.follow_the_arrow import GAME as ARROW
    from games.johari_bones import GAME as JOHARI

    state = ARROW.new_game(["ann", "ben"], SeededRandomness(0), {"black": "ann", "first": "ann"})
    state = state.model_copy(update={
        "phase": "play", "turn": "ann",
        "pawns": {"ann": ["a6", "b6", "c6", "d6", "e5"], "ben": ["a1", "b1", "c1", "d1", "e1"]},
    })
    action = choose_action(ARROW, ARROW.view(state, "ann"), "ann", SeededRandomness(1), iterations=60)
    assert action == {"type": "move", "pawn": 5, "to": "e6"}

    state = JOHARI.new_game(["ann", "ben"], SeededRandomness(0))
    hand = {"up": "6-6", "down": "5-6", "in": "3-6", "out": "4-6"}
    state = state.model_copy(update={"phase": "scoring", "bones": {"ann": hand, "ben": dict(state.bones["ben"])}})
    action = choose_action(JOHARI, JOHARI.view(state, "ann"), "ann", SeededRandomness(1), iterations=80)
    assert action == {"type": "score", "box": "sixes"}


def test_a_player_with_nothing_to_do_is_told_so():
    game = GAMES["john-henry"]
    state = game.new_game(["ann", "ben"], SeededRandomness(0))
    state, _ = game.apply(state, "ann", {"type": "roll"}, SeededRandomness(0))
    with pytest.raises(NoLegalAction):
        choose_action(game, game.view(state, "ann"), "ann", SeededRandomness(0), iterations=5)
