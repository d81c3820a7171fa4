"""Two Fat Dudes: rollouts haggle like people do, rarely paying much and taking a fair deal."""

from __future__ import annotations

from typing import Any

from games.ai_knowledge import Knowledge, pick
from games.core import Game, Randomness

ROLLOUT_OFFERS = (0, 1, 2, 3, 5)


class TwoFatDudesKnowledge(Knowledge):
    slug = "two-fat-dudes"
    rollout_depth = 200

    def rollout_action(self, game: Game, state: Any, player: str, actions: list[dict], rng: Randomness) -> dict:
        kinds = {a["type"] for a in actions}
        if "pass" in kinds:  # nothing on the table: mostly pass, sometimes a small offer
            if rng.roll(4) > 1:
                return {"type": "pass"}
            return {"type": "offer", "points": ROLLOUT_OFFERS[rng.roll(len(ROLLOUT_OFFERS)) - 1]}
        if "accept" in kinds:
            offer = state.offer
            paid = state.players[offer.payer] != player
            if paid or offer.points <= 3:
                return {"type": "accept"} if rng.roll(5) > 1 else {"type": "decline"}
            return {"type": "decline"} if rng.roll(3) > 1 else {"type": "counter", "points": offer.points // 2}
        return pick(actions, rng)


KNOWLEDGE = TwoFatDudesKnowledge()
