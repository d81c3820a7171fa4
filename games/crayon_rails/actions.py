"""The action vocabulary, validated as a pydantic union discriminated on `type`."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, BeforeValidator, Field, TypeAdapter


def _split_path(value: object) -> object:
    """Accept "F7 G7 H8" (or comma separated) as well as a list of mileposts."""
    if isinstance(value, str):
        return value.replace(",", " ").split()
    return value


Path = Annotated[list[str], BeforeValidator(_split_path)]


class Keep(BaseModel):
    type: Literal["keep"]
    cards: dict[int, int] = Field(default_factory=dict)


class Build(BaseModel):
    """`path` names mileposts (or cities); `toward` asks for the cheapest affordable legal track toward
    a place, starting on the player's track or at any major city. `to` is the older form that only
    extends the player's network: recorded games use it, so it still replays exactly as it played."""

    type: Literal["build"]
    path: Path | None = None
    toward: str | None = None
    to: str | None = None


class Upgrade(BaseModel):
    type: Literal["upgrade"]
    train: Literal["fast", "heavy", "super"]


class Start(BaseModel):
    type: Literal["start"]
    city: str


class Move(BaseModel):
    """`path` lists the mileposts to run through; `toward` follows `train_route` to a place as far as
    this turn allows. `to` is the older form, whose route could pay the foreign-track fee for a
    shortcut that saved no turn: recorded games use it, so it still replays exactly as it played."""

    type: Literal["move"]
    path: Path | None = None
    toward: str | None = None
    to: str | None = None


class Pickup(BaseModel):
    type: Literal["pickup"]
    load: str


class Drop(BaseModel):
    type: Literal["drop"]
    load: str


class LockCard(BaseModel):
    type: Literal["lock"]
    card: int
    demand: int


class Deliver(BaseModel):
    type: Literal["deliver"]
    card: int
    demand: int


class Pitch(BaseModel):
    type: Literal["pitch"]


class GiveUp(BaseModel):
    """After a derailment: give up a public lock's load (`card`) or an unlocked load (`load`)."""

    type: Literal["give_up"]
    card: int | None = None
    load: str | None = None


class Release(BaseModel):
    type: Literal["release"]
    card: int


class KeepPrivate(BaseModel):
    type: Literal["keep_private"]
    card: int


class EndTurn(BaseModel):
    type: Literal["end_turn"]


Action = Annotated[
    Keep | Build | Upgrade | Start | Move | Pickup | Drop | LockCard | Deliver | Pitch | GiveUp | Release
    | KeepPrivate | EndTurn,
    Field(discriminator="type"),
]
ACTIONS: TypeAdapter[Action] = TypeAdapter(Action)
