"""Games recorded before whole-leg moves and `build toward` (issue 21) replay exactly.

The file is the golden playthrough as recorded before those changes: 13 `build to` and 28 `move`
actions among others. Replayed with the same seed, every action must give the same events and the
same public view, or no record made before would still verify.
"""

from __future__ import annotations

import json
from pathlib import Path

from games.core import SeededRandomness
from games.crayon_rails.engine import GAME
from tests.games.playthrough import digest

RECORD = Path(__file__).parent / "records" / "played-before-issue-21.jsonl"
SEED = 2026


def test_a_game_recorded_before_issue_21_replays_event_for_event():
    lines = [json.loads(line) for line in RECORD.read_text().splitlines()]
    rng = SeededRandomness(SEED)
    state = GAME.new_game(lines[0]["start"], rng)
    assert digest(GAME.view(state, None)) == lines[0]["view"]
    kinds = set()
    for step, line in enumerate(lines[1:-1], start=1):
        state, events = GAME.apply(state, line["player"], line["action"], rng)
        assert json.loads(json.dumps(events)) == line["events"], f"step {step}: {line['action']}"
        assert digest(GAME.view(state, None)) == line["view"], f"step {step}"
        kinds.add((line["action"]["type"], "to" in line["action"]))
    assert {("build", True), ("move", False)} <= kinds
    assert json.loads(json.dumps(GAME.view(state, None))) == lines[-1]["final_view"]
