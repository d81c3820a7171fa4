"""Per-game knowledge for the generic search in `games.ai`, used only where the search is weak.

`Knowledge` is the default: every legal action, uniformly random rollouts to the end of the
game, no estimate. A game's module here exports `KNOWLEDGE`, a subclass instance naming its slug,
overriding only what that game needs. Every hook sees a full (determinized) state, never more.
"""

from __future__ import annotations

import math
from typing import Any

from games.core import Game, Randomness
from games.discovery import discover


class Knowledge:
    slug = ""
    rollout_depth = 400
    """Actions a rollout plays at most before `evaluate` estimates the position."""

    def actor(self, game: Game, state: Any) -> str | None:
        """Who moves next in the search; simultaneous steps are taken one player at a time."""
        to_act = game.to_act(state)
        return to_act[0] if to_act else None

    def actions(self, game: Game, state: Any, player: str) -> list[dict]:
        """The actions worth considering: always a subset of `legal_actions`."""
        return game.legal_actions(state, player)

    def rollout_action(self, game: Game, state: Any, player: str, actions: list[dict], rng: Randomness) -> dict:
        return pick(actions, rng)

    def rollout_over(self, game: Game, start: Any, state: Any, depth: int) -> bool:
        """Whether a rollout that began at `start` stops here to be estimated."""
        return depth >= self.rollout_depth

    def evaluate(self, game: Game, state: Any, players: list[str]) -> dict[str, float]:
        """Each player's chance of winning, estimated, for a game not over yet."""
        return {p: 1.0 / len(players) for p in players}


def pick(actions: list[dict], rng: Randomness) -> dict:
    return actions[rng.roll(len(actions)) - 1]


def margin_values(estimates: dict[str, float], scale: float) -> dict[str, float]:
    """Win chances from estimated final scores: a logistic of each player's lead over the best other."""
    values = {}
    for player, mine in estimates.items():
        best_other = max((v for p, v in estimates.items() if p != player), default=mine)
        values[player] = 1.0 / (1.0 + math.exp(-(mine - best_other) / scale))
    return values


_DEFAULT = Knowledge()
_BY_SLUG: dict[str, Knowledge] = {k.slug: k for k in discover(__name__, __path__, "KNOWLEDGE")}


def knowledge_for(slug: str) -> Knowledge:
    return _BY_SLUG.get(slug, _DEFAULT)
