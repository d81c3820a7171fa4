"""Johari Bones: rollouts end with the hand, scoring boxes by what they are usually worth.

A rollout plays the hand in progress to its scoring (random turns, each box chosen for its points
above the box's average) and stops at the next deal; the position is then estimated from each
player's total plus the average worth of his open boxes.
"""

from __future__ import annotations

from typing import Any

from games.ai_knowledge import Knowledge, margin_values, pick
from games.core import Game, Randomness
from games.johari_scoring import box_score

BOX_AVERAGE = {"ones": 1.5, "twos": 2.9, "threes": 4.4, "fours": 6.0, "fives": 7.4, "sixes": 8.9,
               "full_house": 11.2, "run4": 8.9, "run5": 6.1, "chance": 26.0}
"""Mean box score of four random bones (3000 samples); a hand that was worked on does better."""
SCALE = 12.0


def best_box(state: Any, player: str, actions: list[dict]) -> dict:
    bones = list(state.bones[player].values())
    return max(actions, key=lambda a: box_score(bones, a["box"]) - BOX_AVERAGE[a["box"]])


class JohariKnowledge(Knowledge):
    slug = "johari-bones"

    def rollout_action(self, game: Game, state: Any, player: str, actions: list[dict], rng: Randomness) -> dict:
        if state.phase == "scoring":
            return best_box(state, player, actions)
        return pick(actions, rng)

    def rollout_over(self, game: Game, start: Any, state: Any, depth: int) -> bool:
        return state.hand > start.hand or depth >= self.rollout_depth

    def evaluate(self, game: Game, state: Any, players: list[str]) -> dict[str, float]:
        estimates = {
            p: sum(v for v in state.scorecard[p].values() if v is not None)
            + sum(BOX_AVERAGE[box] for box, v in state.scorecard[p].items() if v is None)
            for p in players
        }
        return margin_values(estimates, SCALE)


KNOWLEDGE = JohariKnowledge()
