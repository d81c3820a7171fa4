"""The Follow the Arrow board as data: 30 circles and the arrows printed on them.

Kept apart from the rules so the engine, the renderer and the board check read
one copy. The original drawing is lost; this layout is the rules file's design,
symmetric under a half turn so that black and red face the same board.
"""

from __future__ import annotations

from functools import lru_cache

COLUMNS = "abcde"
ROWS = range(1, 7)
BLACK_START_ROW = 1
RED_START_ROW = 6
START_ROWS = (BLACK_START_ROW, RED_START_ROW)

DIRECTIONS: dict[str, tuple[int, int]] = {
    "N": (0, 1), "NE": (1, 1), "E": (1, 0), "SE": (1, -1),
    "S": (0, -1), "SW": (-1, -1), "W": (-1, 0), "NW": (-1, 1),
}
"""Compass name -> (column step, row step); N points toward row 6, E toward column e."""

ARROWS: dict[str, tuple[str, ...]] = {
    "a6": ("S", "SE"), "b6": ("S", "E"), "c6": ("SE", "SW"), "d6": ("S", "W"), "e6": ("S", "SW"),
    "a5": ("S", "NE", "N"), "b5": ("SE", "N", "W"), "c5": ("S", "NE", "NW"),
    "d5": ("SW", "N", "E"), "e5": ("S", "NW", "N"),
    "a4": ("SE", "E", "N"), "b4": ("S", "SW", "NE"), "c4": ("SE", "SW", "N"),
    "d4": ("SE", "NW"), "e4": ("SW", "W", "N"),
    "a3": ("NE", "E", "S"), "b3": ("NW", "SE"), "c3": ("NW", "NE", "S"),
    "d3": ("N", "NE", "SW"), "e3": ("NW", "W", "S"),
    "a2": ("N", "SE", "S"), "b2": ("NE", "S", "W"), "c2": ("N", "SW", "SE"),
    "d2": ("NW", "S", "E"), "e2": ("N", "SW", "S"),
    "a1": ("N", "NE"), "b1": ("N", "E"), "c1": ("NW", "NE"), "d1": ("N", "W"), "e1": ("N", "NW"),
}
"""Circle name -> the compass directions its arrows point in."""

CIRCLES: tuple[str, ...] = tuple(f"{column}{row}" for row in ROWS for column in COLUMNS)


@lru_cache(maxsize=4096)  # hot in search: pure, and only ever asked about a few circles
def coordinates(circle: str) -> tuple[int, int]:
    """Circle name -> (column index 0..4, row 1..6)."""
    return COLUMNS.index(circle[0]), int(circle[1:])


def circle_at(column: int, row: int) -> str | None:
    """The circle at (column index, row), or None off the board."""
    if 0 <= column < len(COLUMNS) and row in ROWS:
        return f"{COLUMNS[column]}{row}"
    return None


@lru_cache(maxsize=4096)  # hot in search: pure, and only ever asked about a few circles
def step(circle: str, direction: str, distance: int = 1) -> str | None:
    """The circle `distance` steps from `circle` in a compass direction, or None off the board."""
    column, row = coordinates(circle)
    d_column, d_row = DIRECTIONS[direction]
    return circle_at(column + d_column * distance, row + d_row * distance)


@lru_cache(maxsize=4096)  # hot in search: pure, and only ever asked about a few circles
def direction_between(origin: str, target: str, distance: int = 1) -> str | None:
    """The compass direction that leads from `origin` to `target` in exactly `distance` steps."""
    for name in DIRECTIONS:
        if step(origin, name, distance) == target:
            return name
    return None


def half_turn(circle: str) -> str:
    """Where a circle lands when the board is turned 180 degrees."""
    column, row = coordinates(circle)
    return f"{COLUMNS[len(COLUMNS) - 1 - column]}{len(ROWS) + 1 - row}"


def opposite(direction: str) -> str:
    d_column, d_row = DIRECTIONS[direction]
    return next(name for name, delta in DIRECTIONS.items() if delta == (-d_column, -d_row))
