"""The rules-engine contract shared by every game (see ENGINE.md).

Engines are pure: state in, state and events out. All chance goes through a
`Randomness` passed in by the caller, so the host can record every outcome with
the move and replay any game exactly, and tests can script the dice.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, Protocol, TypeVar, runtime_checkable

from pydantic import BaseModel, TypeAdapter, ValidationError

T = TypeVar("T")
S = TypeVar("S", bound=BaseModel)


class IllegalMove(Exception):
    """An action the rules refuse. The message is written for the player."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


QUOTE_LIMIT = 32
"""Characters of a user's own text that a refusal quotes back at most."""


def quoted(value: Any, limit: int = QUOTE_LIMIT) -> str:
    """The user's text as a refusal quotes it: a short prefix, cut with "…", with invisible and
    direction-changing characters shown as escapes, so a reply stays short and reads as written."""
    text = str(value)
    return repr(text if len(text) <= limit else text[: limit - 1] + "…")


class UnknownGame(LookupError):
    """A slug that names no game; the message lists the ones that exist."""

    def __str__(self) -> str:  # LookupError would quote the message otherwise
        return str(self.args[0]) if self.args else "unknown game"


class RandomnessExhausted(RuntimeError):
    """A scripted randomness was asked for an outcome it does not hold."""


@runtime_checkable
class Randomness(Protocol):
    def roll(self, sides: int) -> int:
        """A uniform integer in 1..sides."""
        ...

    def shuffle(self, items: Sequence[T]) -> list[T]:
        """A new, uniformly permuted list of `items`."""
        ...


class SeededRandomness:
    """Production chance: a `random.Random` seeded once per move or game."""

    def __init__(self, seed: int | str | None = None) -> None:
        self._random = random.Random(seed)

    def roll(self, sides: int) -> int:
        if sides < 1:
            raise ValueError("a die needs at least one side")
        return self._random.randint(1, sides)

    def shuffle(self, items: Sequence[T]) -> list[T]:
        shuffled = list(items)
        self._random.shuffle(shuffled)
        return shuffled


class ScriptedRandomness:
    """Chance read from a script, for tests and for replaying a move log.

    `rolls` are returned in order by `roll`, `shuffles` (each the permuted list
    to return) in order by `shuffle`. Asking for more than the script holds, a
    roll outside 1..sides or a "shuffle" that is not a permutation of the items
    raises `RandomnessExhausted`, so a test notices when an engine consumes
    chance it should not.
    """

    def __init__(
        self,
        rolls: Sequence[int] = (),
        shuffles: Sequence[Sequence[Any]] = (),
    ) -> None:
        self._rolls = list(rolls)
        self._shuffles = [list(s) for s in shuffles]

    def roll(self, sides: int) -> int:
        if not self._rolls:
            raise RandomnessExhausted(f"the script holds no more rolls (asked for a d{sides})")
        value = self._rolls.pop(0)
        if not 1 <= value <= sides:
            raise RandomnessExhausted(f"scripted roll {value} does not fit a d{sides}")
        return value

    def shuffle(self, items: Sequence[T]) -> list[T]:
        if not self._shuffles:
            raise RandomnessExhausted(f"the script holds no more shuffles (asked to shuffle {len(items)} items)")
        outcome = self._shuffles.pop(0)
        if sorted(map(repr, outcome)) != sorted(map(repr, items)):
            raise RandomnessExhausted("the scripted shuffle is not a permutation of the items")
        return outcome

    @property
    def exhausted(self) -> bool:
        """True when every scripted outcome has been used."""
        return not self._rolls and not self._shuffles


class RecordingRandomness:
    """Wraps another randomness and records every outcome it hands out.

    `outcomes` is JSON-able and feeds `ScriptedRandomness(**outcomes)` to
    replay exactly the same chance.
    """

    def __init__(self, inner: Randomness) -> None:
        self._inner = inner
        self.rolls: list[int] = []
        self.shuffles: list[list[Any]] = []

    def roll(self, sides: int) -> int:
        value = self._inner.roll(sides)
        self.rolls.append(value)
        return value

    def shuffle(self, items: Sequence[T]) -> list[T]:
        outcome = self._inner.shuffle(items)
        self.shuffles.append(list(outcome))
        return outcome

    @property
    def outcomes(self) -> dict[str, list[Any]]:
        return {"rolls": list(self.rolls), "shuffles": [list(s) for s in self.shuffles]}


class Game(Protocol[S]):
    """What every engine offers; see ENGINE.md for the meaning of each method."""

    slug: str
    title: str
    min_players: int
    max_players: int
    actions: TypeAdapter[Any]
    """The pydantic TypeAdapter of the game's actions (a union discriminated on `type`): `apply` reads an
    action through it, and `games.verify` uses it to refuse a recorded action with a field the rules ignore."""

    def new_game(
        self, players: Sequence[str], rng: Randomness, options: Mapping[str, Any] | None = None
    ) -> S: ...

    def to_act(self, state: S) -> list[str]: ...

    def apply(
        self, state: S, player: str, action: Mapping[str, Any], rng: Randomness
    ) -> tuple[S, list[dict]]: ...

    def view(self, state: S, player: str | None) -> dict: ...

    def result(self, state: S) -> dict | None: ...

    def legal_actions(self, state: S, player: str) -> list[dict]: ...

    def determinize(self, view: dict, player: str, rng: Randomness) -> S:
        """A full state whose `view(state, player)` equals `view`, the unseen parts sampled with `rng`.

        Search players (games.ai) reason over such samples, so they never see what `player` may not.
        """
        ...

    def state_from_json(self, data: str) -> S: ...


def parse_action(adapter: Any, action: Any) -> Any:
    """Validate an action with a pydantic TypeAdapter, refusing bad input as `IllegalMove`.

    Engines accept actions from users; a malformed one is a refusal the player can
    read, never a validation traceback.
    """
    if not isinstance(action, Mapping) or "type" not in action:
        raise IllegalMove('An action is a JSON object with a "type".')
    try:
        return adapter.validate_python(dict(action))
    except ValidationError as error:
        first = error.errors()[0]
        if first.get("type") == "union_tag_invalid":
            raise IllegalMove(f"Unknown action {quoted(action.get('type'))}.") from None
        where = ".".join(str(part) for part in first.get("loc", ()) if part != action.get("type"))
        detail = first.get("msg", "is not valid")
        raise IllegalMove(f"Bad action {quoted(action.get('type'))}: {where or 'value'} {detail.lower()}.") from None


def copied(state: S) -> S:
    """A deep copy of a state, for `apply` to change while the state it was given stays as it was.

    Made by the JSON round trip every state keeps exactly (ENGINE.md), which is about three times
    faster than pydantic's own deep copy (`model_copy(deep=True)`): every move and every step of an
    AI's search copies a state."""
    return type(state).model_validate_json(state.model_dump_json())


def require_seated(players: Sequence[str], player: str) -> None:
    """Refuse any player id that has no seat at this table."""
    if player not in players:
        raise IllegalMove("You are not playing in this game.")
