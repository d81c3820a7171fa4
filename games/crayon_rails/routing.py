"""Track networks, legal building steps, and the two path finders a front end needs.

`cheapest_build_path` finds where new track should go (cheapest by build cost within a
budget); `train_route` finds how the train gets to a city along existing track (fewest
mileposts, avoiding the foreign-track fee when that costs no extra turn: the player's own track
is taken whenever it arrives in the same turn as the shortest route, later turns counted at the
train's full speed). Its `legacy` form, the route of the older `move to` that recorded games
replay, took the own track only when it arrived this turn or was no longer.
"""

from __future__ import annotations

import heapq
import itertools
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from games.core import IllegalMove
from games.crayon_rails.hazards import flooded, snowed_in
from games.crayon_rails.mapdata import Edge, board, edge
from games.crayon_rails.state import FOREIGN_TRACK_FEE, Player, State

CITY_ENTRY_LIMIT = 2
"""Sections one player may run into a small or medium city."""


@dataclass(frozen=True)
class BuildPath:
    path: list[str]
    cost: int


@dataclass(frozen=True)
class Route:
    path: list[str]
    """Mileposts after the train's position, ending at the destination."""
    fee: int


def owners(state: State) -> dict[Edge, str]:
    return {section: p.id for p in state.players for section in p.track}


def network(player: Player) -> set[str]:
    return {milepost for section in player.track for milepost in section}


def city_sections(player: Player) -> Counter[str]:
    """How many of the player's sections touch each milepost."""
    return Counter(milepost for section in player.track for milepost in section)


def pieces(player: Player) -> list[set[str]]:
    """The separate pieces of the player's track (a Flood can cut one network in two), as milepost sets."""
    return track_pieces(player.track)


def track_pieces(track: Iterable[Sequence[str]]) -> list[set[str]]:
    """The separate pieces of a track given as sections (a player's, or a view's lists), as milepost sets."""
    links: dict[str, set[str]] = {}
    for a, b in track:
        links.setdefault(a, set()).add(b)
        links.setdefault(b, set()).add(a)
    seen: set[str] = set()
    found = []
    for start in sorted(links):
        if start in seen:
            continue
        stack, piece = [start], set()
        while stack:
            here = stack.pop()
            if here in piece:
                continue
            piece.add(here)
            stack.extend(links[here] - piece)
        seen |= piece
        found.append(piece)
    return found


def joined_network(player: Player) -> set[str]:
    """The piece of the player's track that joins the most major cities (the largest on a tie).

    This is the network the win counts; a city on another piece is not joined to it.
    """
    majors = {city.at for city in board().majors}
    return max(pieces(player), key=lambda piece: (len(piece & majors), len(piece)), default=set())


def majors_joined(player: Player) -> int:
    """The most major cities joined by one continuous network of the player's own track."""
    return len(joined_network(player) & {city.at for city in board().majors})


def _limited(milepost: str) -> bool:
    city = board().city_at(milepost)
    return city is not None and city.size != "major"


def step_cost(state: State, player_id: str, a: str, b: str, taken: dict[Edge, str], entries: Counter[str]) -> int:
    """The cost of building the section a-b now, or IllegalMove saying why it cannot be built."""
    the_board = board()
    if b not in the_board.terrain:
        raise IllegalMove(f"{b} is not a milepost on the map.")
    if b not in the_board.neighbours(a):
        raise IllegalMove(f"{a} and {b} are not next to each other.")
    section = edge(a, b)
    if section in taken:
        raise IllegalMove(f"{a}-{b} already carries {taken[section]}'s track.")
    river = the_board.river_of(section)
    if river and flooded(state, river):
        raise IllegalMove(f"The {river} is in flood: no bridges until the flood ends.")
    if the_board.city_at(b) is None and the_board.terrain[b] != "clear" and snowed_in(state, b):
        raise IllegalMove(f"Snow: no building on mountain or alpine near {b} for now.")
    for milepost in (a, b):
        if _limited(milepost) and entries[milepost] >= CITY_ENTRY_LIMIT:
            name = the_board.city_at(milepost).name
            raise IllegalMove(f"You already have {CITY_ENTRY_LIMIT} sections into {name}.")
    return the_board.build_cost(a, b)


def price_build(state: State, player_id: str, path: list[str]) -> int:
    """Total cost of building along `path`, or IllegalMove naming the first problem."""
    the_board = board()
    if len(path) < 2:
        raise IllegalMove("A build path names at least two mileposts.")
    player = state.player(player_id)
    start_city = the_board.city_at(path[0])
    if path[0] not in network(player) and not (start_city and start_city.size == "major"):
        raise IllegalMove(f"Track must start at a major city or on your own track, not at {path[0]}.")
    taken = owners(state)
    entries = city_sections(player)
    total = 0
    for a, b in itertools.pairwise(path):
        total += step_cost(state, player_id, a, b, taken, entries)
        taken[edge(a, b)] = player_id
        entries[a] += 1
        entries[b] += 1
    return total


def cheapest_build_path(
    state: State, player_id: str, target: str, budget: int, partial: bool = False, from_majors: bool = True
) -> BuildPath | None:
    """The cheapest legal new track to `target`, from the player's network or any major city.

    Returns None when `target` cannot be reached or costs more than `budget`; with
    `partial`, the affordable start of the cheapest path instead. Toward a major city the path
    extends the player's network (so the major joins it); a player without track starts at a
    major city. Without `from_majors` (the legacy `build to`, kept so recorded games replay)
    track extends the network only. A target already on the network gives a path of one milepost
    and cost 0, unless a Flood
    has cut the network in pieces: then the path rejoins the target's piece, from the rest of the
    track to whichever milepost of that piece is cheapest to reach.
    """
    player = state.player(player_id)
    own = network(player)
    if target in own:
        piece = next(piece for piece in pieces(player) if target in piece)
        if piece == own:
            return BuildPath([target], 0)
        previous, best, reached = _search(state, player_id, own - piece, piece)
    else:
        previous, best = build_search(state, player_id, target, from_majors)
        reached = target if target in best else None
    if reached is None:
        return None
    return within_budget(state, player_id, unwind_build(previous, reached), budget, partial)


def build_search(
    state: State, player_id: str, target: str | None = None, from_majors: bool = True
) -> tuple[dict[str, str], dict[str, int]]:
    """Dijkstra over buildable sections from every place track may start (stops at `target`).

    Returns (previous milepost, cost) for every milepost reached; sources have cost 0. Track
    starts from the player's own network or from any major city, as the rules allow: a cheaper
    start at a major city beats a dearer extension of the network. Track toward a major city
    `target` extends the network (from a major city only while there is none), so that it joins
    the network as the win needs. Without `from_majors` track extends the network only (a player
    with none yet starts at a major city): the legacy `build to`.
    """
    own = network(state.player(player_id))
    majors = {city.at for city in board().majors}
    extends_only = own and (target in majors or not from_majors)
    sources = own if extends_only else own | (majors - {target})
    previous, best, _ = _search(state, player_id, sources, {target} if target else set())
    return previous, best


def _search(
    state: State, player_id: str, sources: set[str], goal: set[str]
) -> tuple[dict[str, str], dict[str, int], str | None]:
    """Dijkstra from `sources` until a milepost of `goal` is reached: (previous, cost, that milepost)."""
    the_board = board()
    taken = owners(state)
    entries = city_sections(state.player(player_id))
    best: dict[str, int] = dict.fromkeys(sources, 0)
    previous: dict[str, str] = {}
    queue = [(0, s) for s in sorted(sources)]
    while queue:
        cost, here = heapq.heappop(queue)
        if here in goal:
            return previous, best, here
        if cost > best[here]:
            continue
        for there in the_board.neighbours(here):
            if there in sources:
                continue
            try:
                total = cost + step_cost(state, player_id, here, there, taken, entries)
            except IllegalMove:
                continue
            if total < best.get(there, total + 1):
                best[there] = total
                previous[there] = here
                heapq.heappush(queue, (total, there))
    return previous, best, None


def unwind_build(previous: dict[str, str], target: str) -> list[str]:
    path = [target]
    while path[-1] in previous:
        path.append(previous[path[-1]])
    return path[::-1]


def within_budget(state: State, player_id: str, path: list[str], budget: int, partial: bool) -> BuildPath | None:
    if len(path) == 1:
        return BuildPath(path, 0)
    the_board = board()
    spent, end = 0, 1
    for a, b in itertools.pairwise(path):
        if spent + the_board.build_cost(a, b) > budget:
            break
        spent += the_board.build_cost(a, b)
        end += 1
    if (end < len(path) and not partial) or end < 2:
        return None
    found = path[:end]
    try:
        return BuildPath(found, price_build(state, player_id, found))
    except IllegalMove:
        return None


def check_route(state: State, player_id: str, path: list[str]) -> int:
    """The fee owed for running along `path` this turn, or IllegalMove naming the problem."""
    the_board = board()
    player = state.player(player_id)
    turn = state.turn
    assert turn is not None and player.at is not None
    taken = owners(state)
    here, came_from, fee = player.at, player.came_from, 0
    if len(path) > turn.moves_left:
        raise IllegalMove(f"Your train has {turn.moves_left} mileposts left this turn, not {len(path)}.")
    for there in path:
        section = edge(here, there)
        owner = taken.get(section)
        if owner is None:
            raise IllegalMove(f"There is no track between {here} and {there}.")
        if there == came_from and the_board.city_at(here) is None:
            raise IllegalMove(f"A train may reverse only in a city, not at {here}.")
        if owner != player_id and not turn.fee_paid and fee == 0:
            fee = FOREIGN_TRACK_FEE
            if player.cash < fee:
                raise IllegalMove(f"Using {owner}'s track costs {fee}, more than you have.")
        came_from, here = here, there
    return fee


def train_route(state: State, player_id: str, city: str, legacy: bool = False) -> Route | None:
    """The shortest legal route for the player's train to `city` (a city or milepost name).

    Ignores this turn's allowance (the route may take several turns); prefers a route without the
    foreign-track fee when it arrives in the same turn (with `legacy`: when it is no longer, or
    within the allowance left).
    """
    target = board().resolve(city)
    if target is None or state.turn is None or state.player(player_id).at is None:
        return None
    return train_routes(state, player_id, legacy).get(target)


def train_routes(state: State, player_id: str, legacy: bool = False) -> dict[str, Route]:
    """`train_route` to every milepost the train can reach along track, from two breadth-first searches."""
    player = state.player(player_id)
    if player.at is None or state.turn is None:
        return {}
    can_pay = state.turn.fee_paid or player.cash >= FOREIGN_TRACK_FEE
    taken = owners(state)
    own_paths = _shortest_paths(state, player_id, foreign=False)
    any_paths = _shortest_paths(state, player_id, foreign=can_pay)
    own_is_as_good = _legacy_own_is_as_good if legacy else _arrives_as_soon
    routes = {player.at: Route([], 0)}
    for target in any_paths.keys() | own_paths.keys():
        own_only, anywhere = own_paths.get(target), any_paths.get(target)
        if own_only and (anywhere is None or own_is_as_good(state, player, own_only, anywhere)):
            routes[target] = Route(own_only, 0)
        elif anywhere is not None:
            uses_foreign = foreign_owner(taken, player_id, player.at, anywhere) is not None
            routes[target] = Route(anywhere, FOREIGN_TRACK_FEE if uses_foreign and not state.turn.fee_paid else 0)
    return routes


def owner_past_the_fee(state: State, player_id: str, target: str) -> str | None:
    """Whose track would take the train to `target` were the fee no bar (None when no track does, or the
    player's own does): what a refused `move to` names when the player cannot pay the fee."""
    player = state.player(player_id)
    path = _shortest_paths(state, player_id, foreign=True).get(target) if player.at else None
    return foreign_owner(owners(state), player_id, player.at, path) if path and player.at else None


def foreign_owner(taken: dict[Edge, str], player_id: str, start: str, path: Sequence[str]) -> str | None:
    """The first owner other than the player of the track `path` runs along from `start` (None: all his own)."""
    return next((owner for a, b in zip([start, *path], path, strict=False)
                 if (owner := taken[edge(a, b)]) != player_id), None)


def turns_to_run(state: State, player: Player, steps: int) -> int:
    """The turns after this one a train needs for `steps` mileposts: none within the allowance left,
    then one per full speed (events to come, such as Snow, cannot be foreseen)."""
    assert state.turn is not None
    beyond = steps - state.turn.moves_left
    return 0 if beyond <= 0 else -(-beyond // player.speed)


def _arrives_as_soon(state: State, player: Player, own_only: list[str], anywhere: list[str]) -> bool:
    return turns_to_run(state, player, len(own_only)) <= turns_to_run(state, player, len(anywhere))


def _legacy_own_is_as_good(state: State, player: Player, own_only: list[str], anywhere: list[str]) -> bool:
    """The older `move to`: own track only when no longer, or in reach this turn (kept for recorded games)."""
    assert state.turn is not None
    return len(own_only) <= max(len(anywhere), state.turn.moves_left)


def _shortest_paths(state: State, player_id: str, foreign: bool) -> dict[str, list[str]]:
    """Breadth-first search over (milepost, came from) so reversals outside cities are refused: the
    first (shortest) path found to each milepost, neighbours taken in name order."""
    the_board = board()
    player = state.player(player_id)
    links: dict[str, list[str]] = {}
    for (a, b), owner in owners(state).items():
        if foreign or owner == player_id:
            links.setdefault(a, []).append(b)
            links.setdefault(b, []).append(a)
    assert player.at is not None
    start = (player.at, player.came_from)
    previous: dict[tuple[str, str | None], tuple[str, str | None] | None] = {start: None}
    found: dict[str, list[str]] = {}
    frontier = [start]
    while frontier:
        following = []
        for here, came_from in frontier:
            for there in sorted(links.get(here, [])):
                if there == came_from and the_board.city_at(here) is None:
                    continue
                node = (there, here)
                if node in previous:
                    continue
                previous[node] = (here, came_from)
                if there != player.at and there not in found:
                    found[there] = _unwind(previous, node)
                following.append(node)
        frontier = following
    return found


def _unwind(previous: dict, node: tuple[str, str | None]) -> list[str]:
    path = []
    while previous[node] is not None:
        path.append(node[0])
        node = previous[node]
    return path[::-1]
