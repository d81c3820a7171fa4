"""Parlor's AI: one information-set Monte Carlo tree search for every game.

The search (SO-ISMCTS, Cowling, Powley and Whitehouse 2012) sees only the player's view. Each
iteration samples a full state with `game.determinize(view, player, rng)`, walks one shared tree
whose edges are actions (so what the player cannot see is averaged over, never peeked at), picks
among the actions legal in that sample by UCB with availability counts, plays on with a rollout
policy and backs up every player's reward. Chance is open-loop: `apply` draws it from the search's
own `Randomness`, so a node stands for the actions taken, whatever the dice said.

Per-game knowledge (`games.ai_knowledge`) is used only where the generic search is weak: which
actions to consider, how to play rollouts, and how to value a position where a rollout stops early.

Determinism: with `iterations` the answer depends only on the view and the `rng` seed. With
`seconds` the search stops on the clock (production), so the number of iterations may vary.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Mapping
from typing import Any

from games.ai_knowledge import Knowledge, knowledge_for
from games.core import Game, Randomness, SeededRandomness

DEFAULT_SECONDS = 0.5
EXPLORATION = 0.7


class NoLegalAction(ValueError):
    """The player has nothing to do in this view."""


def action_key(action: Mapping[str, Any]) -> str:
    return json.dumps(action, sort_keys=True)


class _Node:
    """An edge of the tree: `action` taken by `player`, with the rewards seen through it for him."""

    __slots__ = ("action", "availability", "children", "player", "reward", "visits")

    def __init__(self, player: str | None, action: dict | None) -> None:
        self.player = player
        self.action = action
        self.children: dict[str, _Node] = {}
        self.visits = 0
        self.availability = 0
        self.reward = 0.0

    def ucb(self) -> float:
        if self.visits == 0:
            return math.inf
        return self.reward / self.visits + EXPLORATION * math.sqrt(math.log(max(self.availability, 1)) / self.visits)


def rewards(game: Game, state: Any, players: list[str], knowledge: Knowledge) -> dict[str, float]:
    """Each player's reward in [0, 1]: a share of the win once the game is over, else the estimate."""
    result = game.result(state)
    if result is None:
        return knowledge.evaluate(game, state, players)
    winners = result["winners"]
    return {p: (1.0 / len(winners) if p in winners else 0.0) for p in players}


def choose_action(
    game: Game,
    view: dict,
    player: str,
    rng: Randomness,
    *,
    seconds: float | None = None,
    iterations: int | None = None,
) -> dict:
    """The AI's action for `player` from his `view` alone; one that `legal_actions` lists for him."""
    knowledge = knowledge_for(game.slug)
    sample = game.determinize(view, player, rng)
    legal = game.legal_actions(sample, player)
    if not legal:
        raise NoLegalAction(f"{player} has nothing to do now.")
    candidates = [a for a in knowledge.actions(game, sample, player) if a in legal] or legal
    if len(candidates) == 1:
        return candidates[0]
    if seconds is None and iterations is None:
        seconds = DEFAULT_SECONDS
    search_rng = SeededRandomness(rng.roll(2**62))
    players = [entry["id"] for entry in view["players"]]
    root = _Node(None, None)
    allowed = {action_key(a) for a in candidates}
    deadline = None if seconds is None else time.perf_counter() + seconds
    done = 0
    while True:
        if iterations is not None and done >= iterations:
            break
        if deadline is not None and done and time.perf_counter() >= deadline:
            break
        state = sample if done == 0 else game.determinize(view, player, search_rng)
        _iterate(game, knowledge, state, player, root, allowed, players, search_rng)
        done += 1
    by_key = {action_key(a): a for a in candidates}
    best = max(
        (child for key, child in root.children.items() if key in by_key),
        key=lambda child: (child.visits, child.reward),
        default=None,
    )
    return by_key[action_key(best.action)] if best else candidates[0]


def _iterate(
    game: Game,
    knowledge: Knowledge,
    state: Any,
    root_player: str,
    root: _Node,
    allowed: set[str],
    players: list[str],
    rng: Randomness,
) -> None:
    start = state
    path = [root]
    node = root
    actor: str | None = root_player
    depth = 0
    # selection and expansion
    while actor is not None:
        actions = knowledge.actions(game, state, actor)
        if node is root:
            actions = [a for a in actions if action_key(a) in allowed]
        if not actions:
            break
        keyed = [(action_key(a), a) for a in actions]
        untried = [(k, a) for k, a in keyed if k not in node.children]
        for key, _ in keyed:
            if key in node.children:
                node.children[key].availability += 1
        if untried:
            key, action = untried[rng.roll(len(untried)) - 1]
            child = _Node(actor, action)
            child.availability = 1
            node.children[key] = child
        else:
            child = max((node.children[k] for k, _ in keyed), key=_Node.ucb)
            action = child.action
        state, _ = game.apply(state, actor, action, rng)
        path.append(child)
        node = child
        depth += 1
        actor = knowledge.actor(game, state)
        if untried:
            break
    # rollout
    while actor is not None and not knowledge.rollout_over(game, start, state, depth):
        actions = knowledge.actions(game, state, actor)
        if not actions:
            break
        action = knowledge.rollout_action(game, state, actor, actions, rng)
        state, _ = game.apply(state, actor, action, rng)
        depth += 1
        actor = knowledge.actor(game, state)
    values = rewards(game, state, players, knowledge)
    for visited in path:
        visited.visits += 1
        if visited.player is not None:
            visited.reward += values.get(visited.player, 0.0)
