"""Crayon Rails with public locking: a compact two-player crayon-rail game (slug `crayon-rails`).

The package splits the game by concern: `mapdata` and `cards` read the shipped board and deck,
`state` holds the pydantic models, `routing` the path finders, the rule modules (`building`,
`movement`, `locking`, `derailment`, `hazards`, `turns`) one part of the rules each, and
`engine` ties them to the contract in games.core.
"""

from games.crayon_rails.engine import GAME
from games.crayon_rails.routing import cheapest_build_path, train_route

__all__ = ["GAME", "cheapest_build_path", "train_route"]
