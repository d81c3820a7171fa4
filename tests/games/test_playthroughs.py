"""Each engine still plays its recorded game exactly: same actions, events, public views and result."""

from __future__ import annotations

import json

import pytest

from games import GAMES
from tests.games.playthrough import path_for, play


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_the_recorded_playthrough_is_reproduced(slug):
    recorded = [json.loads(line) for line in path_for(slug).read_text().splitlines()]
    replayed = json.loads(json.dumps(play(slug)))
    assert len(replayed) == len(recorded), "the game took a different number of steps"
    for step, (now, then) in enumerate(zip(replayed, recorded, strict=True)):
        assert now == then, f"{slug} differs from its playthrough at step {step}"
