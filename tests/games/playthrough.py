"""Golden playthroughs: one recorded game per engine, replayed to catch any change of behaviour.

A playthrough is a seeded game played by choosing legal actions with a seeded chooser; the file
holds every action with the events it produced in full, a digest of the public view after it (a
whole rail map at every step would make the file huge), and the final public view in full.
Re-record after an intended change of rules with `python -m tests.games.playthrough` and review the diff.
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

from games import GAMES
from games.core import SeededRandomness

FOLDER = Path(__file__).parent / "playthroughs"
PLAYERS = {"johari-bones": ["ann", "ben", "cat"]}
MAX_STEPS = 400


def play(slug: str, seed: int = 2026) -> list[dict]:
    """The playthrough of `slug` as a list of JSON records: the start, then one per action."""
    game = GAMES[slug]
    rng, chooser = SeededRandomness(seed), random.Random(seed)
    players = PLAYERS.get(slug, ["ann", "ben"])
    state = game.new_game(players, rng)
    records = [{"start": players, "view": digest(game.view(state, None))}]
    for _ in range(MAX_STEPS):
        to_act = game.to_act(state)
        if not to_act:
            break
        player = to_act[0]
        action = chooser.choice(game.legal_actions(state, player))
        state, events = game.apply(state, player, action, rng)
        records.append({"player": player, "action": action, "events": events,
                        "view": digest(game.view(state, None))})
    records.append({"result": game.result(state), "final_view": game.view(state, None)})
    return records


def digest(view: dict) -> str:
    return hashlib.sha256(json.dumps(view, sort_keys=True).encode()).hexdigest()[:16]


def path_for(slug: str) -> Path:
    return FOLDER / f"{slug}.jsonl"


def record_all() -> None:
    FOLDER.mkdir(exist_ok=True)
    for slug in GAMES:
        lines = (json.dumps(record, sort_keys=True) for record in play(slug))
        path_for(slug).write_text("\n".join(lines) + "\n")
        print(f"recorded {path_for(slug)}")


if __name__ == "__main__":
    record_all()
