"""The board: mileposts, terrain, rivers and cities, read from the text files in `data/`.

The map is a hex-offset grid: odd rows (2, 4, ... counting from 1) sit half a step to the
right, so every milepost touches two neighbours in its own row and two in each row next to it.
Keeping the board as data lets the renderer, the data checks and the engine share one source.
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

DATA = Path(__file__).parent / "data"
COLUMNS = "ABCDEFGHIJKLMNOPQRSTUVWX"
TERRAIN_NAMES = {".": "clear", "m": "mountain", "a": "alpine"}
TERRAIN_COST = {"clear": 1, "mountain": 2, "alpine": 5}
CITY_COST = {"small": 3, "medium": 3, "major": 5}
RIVER_COST = 2
ROW_HEIGHT = math.sqrt(3) / 2

Edge = tuple[str, str]


def edge(a: str, b: str) -> Edge:
    """The canonical (sorted) form of the section joining two mileposts."""
    return (a, b) if a <= b else (b, a)


@dataclass(frozen=True)
class City:
    name: str
    at: str
    size: str
    supplies: tuple[str, ...]


@dataclass(frozen=True)
class BoardMap:
    width: int
    height: int
    terrain: dict[str, str]
    """Milepost name -> clear, mountain or alpine; water has no milepost."""
    rivers: dict[str, tuple[Edge, ...]]
    cities: dict[str, City]
    adjacency: dict[str, tuple[str, ...]] = field(repr=False, compare=False)
    city_index: dict[str, City] = field(repr=False, compare=False)
    river_index: dict[Edge, str] = field(repr=False, compare=False)

    def cell(self, name: str) -> tuple[int, int]:
        """(column, row), both from 0."""
        return cell(name)

    def position(self, name: str) -> tuple[float, float]:
        """Where a milepost sits, in units of one milepost spacing."""
        col, row = cell(name)
        return col + 0.5 * (row % 2), row * ROW_HEIGHT

    def neighbours(self, name: str) -> tuple[str, ...]:
        return self.adjacency.get(name, ())

    def city_at(self, milepost: str) -> City | None:
        return self.city_index.get(milepost)

    def resolve(self, place: str) -> str | None:
        """A milepost name for a milepost or city name (any case), or None."""
        wanted = place.strip()
        for city in self.cities.values():
            if city.name.lower() == wanted.lower():
                return city.at
        return wanted.upper() if wanted.upper() in self.terrain else None

    def river_of(self, section: Edge) -> str | None:
        return self.river_index.get(section)

    def build_cost(self, a: str, b: str) -> int:
        """The cost of building from `a` into `b`: terrain or city, plus any river crossing."""
        city = self.city_at(b)
        cost = CITY_COST[city.size] if city else TERRAIN_COST[self.terrain[b]]
        return cost + (RIVER_COST if self.river_of(edge(a, b)) else 0)

    def distance(self, a: str, b: str) -> int:
        """Steps between two mileposts on the grid, ignoring water and track."""
        ax, ay, az = _cube(cell(a))
        bx, by, bz = _cube(cell(b))
        return max(abs(ax - bx), abs(ay - by), abs(az - bz))

    def suppliers(self, load: str) -> list[City]:
        return [city for city in self.cities.values() if load in city.supplies]

    @property
    def loads(self) -> list[str]:
        return sorted({load for city in self.cities.values() for load in city.supplies})

    @property
    def majors(self) -> list[City]:
        return [city for city in self.cities.values() if city.size == "major"]


def cell(name: str) -> tuple[int, int]:
    """(column, row) of a milepost name, both from 0."""
    return COLUMNS.index(name[0]), int(name[1:]) - 1


def _cube(at: tuple[int, int]) -> tuple[int, int, int]:
    col, row = at
    x = col - (row - (row & 1)) // 2
    return x, row, -x - row


def _adjacency(terrain: dict[str, str], width: int, height: int) -> dict[str, tuple[str, ...]]:
    table: dict[str, tuple[str, ...]] = {}
    for name in terrain:
        col, row = cell(name)
        shift = row % 2
        cells = [(col - 1, row), (col + 1, row)]
        for dr in (-1, 1):
            cells += [(col - 1 + shift, row + dr), (col + shift, row + dr)]
        names = (f"{COLUMNS[c]}{r + 1}" for c, r in cells if 0 <= c < width and 0 <= r < height)
        table[name] = tuple(n for n in names if n in terrain)
    return table


def parse_board(map_text: str, cities_toml: str, rivers_toml: str) -> BoardMap:
    rows = [line for line in map_text.splitlines() if line and not line.startswith("#")]
    terrain = {
        f"{COLUMNS[col]}{row + 1}": TERRAIN_NAMES[ch]
        for row, line in enumerate(rows)
        for col, ch in enumerate(line)
        if ch != "~"
    }
    cities = {
        name: City(name, entry["at"], entry["size"], tuple(entry["supplies"]))
        for name, entry in tomllib.loads(cities_toml).items()
    }
    rivers = {
        name: tuple(edge(a, b) for a, b in entry["crossings"])
        for name, entry in tomllib.loads(rivers_toml).items()
    }
    width, height = max(len(r) for r in rows), len(rows)
    return BoardMap(
        width, height, terrain, rivers, cities,
        adjacency=_adjacency(terrain, width, height),
        city_index={city.at: city for city in cities.values()},
        river_index={section: name for name, sections in rivers.items() for section in sections},
    )


@cache
def board() -> BoardMap:
    """The shipped map."""
    return parse_board(
        (DATA / "map.txt").read_text(), (DATA / "cities.toml").read_text(), (DATA / "rivers.toml").read_text()
    )
