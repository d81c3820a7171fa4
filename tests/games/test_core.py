"""The engine contract itself: randomness sources, action parsing, the registry."""

from __future__ import annotations

from typing import Annotated, Literal

import pytest
from pydantic import BaseModel, Field, TypeAdapter

from bot.presentation.frontends import FRONTENDS
from games import GAMES, get_game
from games.core import (
    IllegalMove,
    Randomness,
    RandomnessExhausted,
    RecordingRandomness,
    ScriptedRandomness,
    SeededRandomness,
    UnknownGame,
    copied,
    parse_action,
)
from tests.games.test_determinize import random_states

SLUGS = {"john-henry", "two-fat-dudes", "follow-the-arrow", "johari-bones", "crayon-rails"}


def test_the_registry_holds_the_five_games_each_with_a_frontend():
    assert set(GAMES) == SLUGS
    assert set(FRONTENDS) == SLUGS
    for slug, game in GAMES.items():
        assert game.slug == slug and get_game(slug) is game
        assert 1 <= game.min_players <= game.max_players


def test_an_unknown_slug_names_the_games_that_exist():
    with pytest.raises(UnknownGame) as error:
        get_game("chess")
    assert "chess" in str(error.value) and "john-henry" in str(error.value)


def test_seeded_randomness_is_repeatable_and_in_range():
    first, second = SeededRandomness(42), SeededRandomness(42)
    rolls = [first.roll(6) for _ in range(200)]
    assert rolls == [second.roll(6) for _ in range(200)]
    assert set(rolls) == {1, 2, 3, 4, 5, 6}
    items = list(range(10))
    shuffled = first.shuffle(items)
    assert sorted(shuffled) == items and items == list(range(10)), "shuffle returns a new list"
    assert isinstance(first, Randomness)


def test_scripted_randomness_returns_its_script_in_order_and_then_refuses():
    rng = ScriptedRandomness(rolls=[5, 3], shuffles=[["b", "a"]])
    assert rng.roll(6) == 5
    assert rng.shuffle(["a", "b"]) == ["b", "a"]
    assert not rng.exhausted
    assert rng.roll(4) == 3
    assert rng.exhausted
    with pytest.raises(RandomnessExhausted):
        rng.roll(6)
    with pytest.raises(RandomnessExhausted):
        rng.shuffle(["a"])


def test_scripted_randomness_refuses_impossible_outcomes():
    with pytest.raises(RandomnessExhausted):
        ScriptedRandomness(rolls=[5]).roll(4)
    with pytest.raises(RandomnessExhausted):
        ScriptedRandomness(shuffles=[["a", "c"]]).shuffle(["a", "b"])


def test_recorded_outcomes_replay_exactly():
    recorder = RecordingRandomness(SeededRandomness(9))
    first = ([recorder.roll(6) for _ in range(5)], recorder.shuffle(list("abcdef")), recorder.roll(20))
    replay = ScriptedRandomness(**recorder.outcomes)
    again = ([replay.roll(6) for _ in range(5)], replay.shuffle(list("abcdef")), replay.roll(20))
    assert again == first and replay.exhausted


class Roll(BaseModel):
    type: Literal["roll"]


class Offer(BaseModel):
    type: Literal["offer"]
    points: int


ACTIONS = TypeAdapter(Annotated[Roll | Offer, Field(discriminator="type")])


@pytest.mark.parametrize("action, fragment", [
    ("roll", "JSON object"),
    ({"points": 3}, "JSON object"),
    ({"type": "fly"}, "Unknown action 'fly'"),
    ({"type": "offer", "points": "lots"}, "points"),
])
def test_parse_action_turns_bad_input_into_a_readable_refusal(action, fragment):
    with pytest.raises(IllegalMove) as refusal:
        parse_action(ACTIONS, action)
    assert fragment in refusal.value.message


def test_parse_action_accepts_good_input():
    assert parse_action(ACTIONS, {"type": "offer", "points": 3}) == Offer(type="offer", points=3)


@pytest.mark.parametrize("slug", sorted(SLUGS))
def test_a_copied_state_is_equal_and_shares_nothing_that_changes(slug):
    """`copied` is what every engine's apply changes instead of its input (games.core)."""
    players = ["ann", "ben"]
    for state in list(random_states(slug, 3, players, 40))[::4]:
        copy, before = copied(state), state.model_dump_json()
        assert copy == state and type(copy) is type(state) and copy is not state
        for name, value in copy:
            if isinstance(value, (list, dict, BaseModel)):
                assert value is not getattr(state, name), f"{name} is shared"
        if isinstance(copy.players, list):
            copy.players.append(copy.players[0])
        assert state.model_dump_json() == before
