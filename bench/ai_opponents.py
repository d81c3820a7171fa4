"""The players the AI is measured against in bench/bench_ai.py: uniform random, and simple greedy ones.

Each is `play(game, state, player, rng) -> action`. The greedy players look one step ahead with
plain rules a beginner would use, and see nothing their seat may not (Johari Bones' greedy player
reads its own view).
"""

from __future__ import annotations

import random
from typing import Any

from games.ai_knowledge.crayon_rails import planned_action
from games.ai_knowledge.follow_the_arrow import remaining
from games.ai_knowledge.johari_bones import BOX_AVERAGE, best_box
from games.core import SeededRandomness
from games.johari_scoring import BOXES, box_score


def uniform(game: Any, state: Any, player: str, rng: random.Random) -> dict:
    return rng.choice(game.legal_actions(state, player))


def _john_henry(game: Any, state: Any, player: str, rng: random.Random) -> dict:
    """Always roll the bonus die: more dots on average."""
    return game.legal_actions(state, player)[0]


def _two_fat_dudes(game: Any, state: Any, player: str, rng: random.Random) -> dict:
    """Never offer; take any deal that pays him or costs at most 3; send the other back."""
    legal = game.legal_actions(state, player)
    kinds = {a["type"] for a in legal}
    if "pass" in kinds:
        return {"type": "pass"}
    if "accept" in kinds:
        offer = state.offer
        paid = state.players[offer.payer] != player
        return {"type": "accept"} if paid or offer.points <= 3 else {"type": "decline"}
    if "edge" in kinds:
        return {"type": "edge", "choice": "send_back"}
    return legal[0]


def _follow_the_arrow(game: Any, state: Any, player: str, rng: random.Random) -> dict:
    """The move that leaves his pawns the fewest line moves from home; never calls Jump."""
    legal = game.legal_actions(state, player)
    if legal[0]["type"] in ("place", "call_jump"):
        return rng.choice(legal) if legal[0]["type"] == "place" else {"type": "decline_call"}
    scored = [(remaining(game.apply(state, player, a, SeededRandomness(0))[0], player), i) for i, a in enumerate(legal)]
    best = min(score for score, _ in scored)
    return legal[rng.choice([i for score, i in scored if score == best])]


def _johari_bones(game: Any, state: Any, player: str, rng: random.Random) -> dict:
    """Draw, keep the bone if it betters his best box, else give it away face out; score the best box."""
    legal = game.legal_actions(state, player)
    if state.phase == "scoring":
        return best_box(state, player, legal)
    view = game.view(state, player)
    mine = next(entry for entry in view["players"] if entry["id"] == player)
    open_boxes = [box for box in BOXES if state.scorecard[player][box] is None]

    def worth(bones: list[str]) -> float:
        return max(box_score(bones, box) - BOX_AVERAGE[box] for box in open_boxes)

    if state.phase == "turns":
        return {"type": "draw"} if {"type": "draw"} in legal else rng.choice(legal)
    drawn = view["drawn"]
    known = {pos: mine[pos] for pos in ("up", "in") if mine[pos]}
    base = worth(list(known.values())) if known else -99
    for position in ("in", "up"):
        trial = dict(known, **{position: drawn})
        if worth(list(trial.values())) > base:
            return {"type": "place", "target": player, "position": position}
    others = [a for a in legal if a["target"] != player and a["position"] == "out"]
    return rng.choice(others or legal)


def _crayon_rails(game: Any, state: Any, player: str, rng: random.Random) -> dict:
    """Deliver, lock or pick up whenever he can, build the first track offered, else follow the plan's moves."""
    legal = game.legal_actions(state, player)
    for kind in ("deliver", "lock", "pickup", "build"):
        for action in legal:
            if action["type"] == kind:
                return action
    return planned_action(state, player, legal)


GREEDY = {
    "john-henry": _john_henry,
    "two-fat-dudes": _two_fat_dudes,
    "follow-the-arrow": _follow_the_arrow,
    "johari-bones": _johari_bones,
    "crayon-rails": _crayon_rails,
}
