"""What every game's frontend shares (bot.presentation.frontend): here, that the narration tells every move."""

from __future__ import annotations

import pytest

from bench.positions import random_states
from bot.presentation.frontend import narrate
from bot.presentation.frontends import frontend_for
from games import GAMES

NAMES = {"p1": "alice", "p2": "bob"}


@pytest.mark.parametrize("slug", sorted(GAMES))
@pytest.mark.parametrize("seed", [1, 2])
def test_every_move_of_a_random_game_is_told_in_words(slug, seed):
    """A move whose events the frontend tells in no line reads only "alice moved." in `/game log` (Crayon
    Rails' ended turn did), and says nothing on the table."""
    frontend = frontend_for(slug)
    untold = {tuple(event["type"] for event in events)
              for _, events in random_states(slug, list(NAMES), seed=seed)[1:]
              if not [line for line in narrate(frontend, events, NAMES) if line]}
    assert not untold, f"moves told in no words: {sorted(untold)}"
