"""Crayon Rails: a planner chooses among the legal actions; the build space is too big to search.

Random rollouts never finish a game of Crayon Rails, so the generic search cannot value its moves.
Instead the AI follows one plan, recomputed from the state at every decision:

- a *job* is a demand it can earn: its own kept cards first, then its public locks, then the best
  open demand in the pool (payoff less the track still to build to its supply and its city);
- in a turn it delivers, locks, picks up the job's load, then runs its train a whole leg toward
  the job in one action (to the city if in reach, else as far as the route runs this turn),
  and builds last: toward the job's cities,
  then, with cash to spare, toward the major cities its network has not joined;
- it ends its turn when nothing on that list is left to do.

Only actions that `legal_actions` lists are ever chosen, so the planner's choice is always legal.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.ai_knowledge import Knowledge
from games.core import Game
from games.crayon_rails.cards import demand_card
from games.crayon_rails.mapdata import board
from games.crayon_rails.routing import build_search, joined_network, majors_joined, network, train_route
from games.crayon_rails.state import State, private_cards, private_load_aboard, public_locks

MAJOR_BUILD_CASH = 60
"""Cash above which spare building goes toward unjoined major cities."""
KEEP_AT_LEAST = 8
"""Cash kept back from building for a job while no delivery is under way."""


@dataclass(frozen=True)
class Job:
    card: int
    demand: int
    load: str
    city: str
    payoff: int
    supply: str
    value: float


def _city_name(milepost: str) -> str | None:
    city = board().city_at(milepost)
    return city.name if city else None


def _jobs(state: State, player_id: str) -> list[Job]:
    """Demands worth working on, best first: kept and locked ones before open ones."""
    the_board = board()
    _, cost = build_search(state, player_id)
    here = state.player(player_id).at
    committed, open_jobs = [], []

    def job(card_id: int, demand: int, bonus: float) -> Job | None:
        wanted = demand_card(card_id).demands[demand]
        suppliers = [c for c in the_board.suppliers(wanted.load)]
        if not suppliers:
            return None
        dest = the_board.cities[wanted.city].at
        to_dest = cost.get(dest, 999)

        def route_cost(c: Any) -> float:
            travel = the_board.distance(c.at, dest) + (the_board.distance(here, c.at) if here else 0)
            return cost.get(c.at, 999) + to_dest + travel / 3

        supply = min(suppliers, key=route_cost)
        return Job(card_id, demand, wanted.load, wanted.city, wanted.payoff, supply.name,
                   wanted.payoff - route_cost(supply) + bonus)

    for card in private_cards(state, player_id):
        if (found := job(card.id, card.locks[0].demand, 1000)) is not None:
            committed.append(found)
    for card, lock in public_locks(state, player_id):
        if (found := job(card.id, lock.demand, 2000)) is not None:
            committed.append(found)
    for card in state.public_pool:
        if any(lock.player == player_id for lock in card.locks):
            continue
        demands = [card.locked_demand] if card.locks else [0, 1, 2]
        for demand in demands:
            if (found := job(card.id, demand, 0)) is not None:
                open_jobs.append(found)
    return sorted(committed, key=lambda j: -j.value) + sorted(open_jobs, key=lambda j: -j.value)[:3]


def _aboard_for(state: State, player_id: str, job: Job) -> bool:
    """Whether the job's load is on the train already (for a kept card: filling it)."""
    card = state.card(job.card)
    if card is not None and card.private_to == player_id:
        return private_load_aboard(state, card)
    return job.load in state.player(player_id).loads


def _leg_toward(state: State, player_id: str, city: str, legal: list[dict]) -> dict | None:
    """The whole leg toward `city` this turn: there if in reach, else as far along the route as it runs."""
    route = train_route(state, player_id, city)
    if route is None or not route.path:
        return None
    for action in ({"type": "move", "path": route.path}, {"type": "move", "toward": city}):
        if action in legal:
            return action
    return None


def _build_end(action: dict) -> str | None:
    """The milepost a legal build action heads for."""
    if action.get("toward"):
        return board().resolve(action["toward"])
    path = action.get("path") or []
    return board().resolve(path[-1]) if path else None


def _closer(state: State, player_id: str, builds: list[dict], target: str) -> dict | None:
    """The build that brings track nearest to `target`, if any brings it nearer than it is."""
    the_board = board()
    own = network(state.player(player_id)) or {c.at for c in the_board.majors}
    now = min(the_board.distance(at, target) for at in own)
    ends = [(the_board.distance(end, target), index) for index, a in enumerate(builds) if (end := _build_end(a))]
    if not ends:
        return None
    best, index = min(ends)
    return builds[index] if best < now else None


def _build(state: State, player_id: str, jobs: list[Job], legal: list[dict]) -> dict | None:
    builds = [a for a in legal if a["type"] == "build"]
    if not builds:
        return None
    player = state.player(player_id)
    own = joined_network(player)  # after a Flood, a city on a cut-off piece is wanted again: building rejoins it
    cities: list[str] = []
    for job in jobs[:2]:
        cities += [job.supply, job.city]
    majors = [c.name for c in board().majors]
    if player.cash >= min(MAJOR_BUILD_CASH, state.options.target_cash):
        wanted = majors + cities  # rich enough: join the majors the win needs first
    else:
        wanted = cities + (majors if majors_joined(player) < 1 else [])
    wanted = [name for name in wanted if board().cities[name].at not in own]
    committed = bool(jobs and jobs[0].value > 500)
    if not committed and player.cash < KEEP_AT_LEAST + 10 and player.cash < MAJOR_BUILD_CASH:
        return None
    for name in wanted:
        at = board().cities[name].at
        for action in builds:
            if _build_end(action) == at:
                return action
        nearer = _closer(state, player_id, builds, at)
        if nearer is not None:
            return nearer
    return None


def planned_action(state: State, player_id: str, legal: list[dict]) -> dict:
    """The plan's next action: one of `legal`."""
    kinds: dict[str, list[dict]] = {}
    for action in legal:
        kinds.setdefault(action["type"], []).append(action)
    for kind in ("give_up", "keep_private", "release"):
        if kind in kinds:
            loads = [a for a in kinds.get("give_up", []) if "load" in a]
            return loads[0] if loads else kinds[kind][0]
    if "keep" in kinds:
        return _keep(state, player_id, kinds["keep"])
    if "deliver" in kinds:
        return max(kinds["deliver"], key=lambda a: demand_card(a["card"]).demands[a["demand"]].payoff)
    jobs = _jobs(state, player_id)
    if "lock" in kinds:
        return max(kinds["lock"], key=lambda a: demand_card(a["card"]).demands[a["demand"]].payoff)
    player = state.player(player_id)
    if "start" in kinds and jobs:
        own = network(player)
        for name in [jobs[0].supply, jobs[0].city, *(c.name for c in board().cities.values()
                                                       if c.at in own)]:
            if {"type": "start", "city": name} in kinds["start"]:
                return {"type": "start", "city": name}
        return kinds["start"][0]
    for job in jobs[:2]:
        if not _aboard_for(state, player_id, job):
            pickup = {"type": "pickup", "load": job.load}
            if pickup in kinds.get("pickup", []) and _city_name(player.at or "") == job.supply:
                return pickup
    for job in jobs[:2]:
        target = job.city if _aboard_for(state, player_id, job) else job.supply
        leg = _leg_toward(state, player_id, target, kinds.get("move", []))
        if leg is not None:
            return leg
    build = _build(state, player_id, jobs, legal)
    if build is not None:
        return build
    return kinds.get("end_turn", legal)[0]


def _keep(state: State, player_id: str, keeps: list[dict]) -> dict:
    """Keep the one offered demand that looks cheapest to earn, if it is worth anything."""
    _, cost = build_search(state, player_id)
    the_board = board()

    def value(action: dict) -> float:
        total = 0.0
        for card_id, demand in action["cards"].items():
            wanted = demand_card(int(card_id)).demands[demand]
            dest = the_board.cities[wanted.city].at
            supply = min((cost.get(c.at, 999) + the_board.distance(c.at, dest)
                          for c in the_board.suppliers(wanted.load)), default=999)
            total += wanted.payoff - supply / 2 - cost.get(dest, 999) / 2
        return total if len(action["cards"]) <= 1 else total - 1000

    return max(keeps, key=value)


class CrayonRailsKnowledge(Knowledge):
    slug = "crayon-rails"
    rollout_depth = 0

    def actions(self, game: Game, state: Any, player: str) -> list[dict]:
        legal = game.legal_actions(state, player)
        return [planned_action(state, player, legal)] if legal else []

    def evaluate(self, game: Game, state: Any, players: list[str]) -> dict[str, float]:
        cash = {p.id: p.cash + 20 * majors_joined(p) for p in state.players}
        total = sum(cash.values()) or 1
        return {p: cash[p] / total for p in players}


KNOWLEDGE = CrayonRailsKnowledge()
