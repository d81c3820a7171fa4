"""John Henry: the only choice is keeping a 6 or rolling the bonus die, and its stakes are tiny.

Simulation shows the whole edge over a coin flip is about two points of win rate (always rolling
wins 51.5 % against a random chooser over 6000 games), far below what a search of a few hundred
playouts can tell apart from noise. So the knowledge decides it: keep the 6 when it drives the
spike now, otherwise roll (more dots on average).
"""

from __future__ import annotations

from typing import Any

from games.ai_knowledge import Knowledge
from games.core import Game, ScriptedRandomness

KEEP = {"type": "stop"}
ROLL = {"type": "roll"}


class JohnHenryKnowledge(Knowledge):
    slug = "john-henry"

    def actions(self, game: Game, state: Any, player: str) -> list[dict]:
        legal = game.legal_actions(state, player)
        if KEEP not in legal:
            return legal
        kept, _ = game.apply(state, player, KEEP, ScriptedRandomness())
        return [KEEP] if game.result(kept) is not None else [ROLL]


KNOWLEDGE = JohnHenryKnowledge()
