"""The Follow the Arrow AI's estimate and the moves it leads to where the AI used to end up stuck.

Black moves toward row 6; only b6 and d6 lead into c6 (sideways), and the centre lane (c5) ends at b6
and d6, so a last pawn in the centre with b6, c6 and d6 taken can never arrive: the game is drawn.
"""

from __future__ import annotations

import pytest

from games.ai import choose_action
from games.ai_knowledge.follow_the_arrow import STUCK, remaining
from games.core import SeededRandomness
from games.follow_the_arrow import GAME, ArrowState

RED = {1: "a1", 2: "b1", 3: "d1", 4: "e1", 5: "c4"}
"""Red's pawns out of black's way: four home, one still out in the centre, racing for c1."""


def position(black: dict[int, str], red: dict[int, str]) -> ArrowState:
    """Ann (black) to move, Ben red, both sets of pawns where given."""
    state = GAME.new_game(["ann", "ben"], SeededRandomness(0), {"black": "ann", "first": "ann"})
    return state.model_copy(update={
        "phase": "play", "turn": "ann", "last_mover": "ben",
        "pawns": {"ann": [black[n] for n in range(1, 6)], "ben": [red[n] for n in range(1, 6)]},
    })


def test_a_pawn_home_on_b6_may_still_step_aside_to_make_room():
    # c6 is free and only b6's sideways arrow leads there: the a5 pawn follows into b6
    state = position({1: "a6", 2: "b6", 3: "d6", 4: "e6", 5: "a5"}, RED)
    assert remaining(state, "ann") < STUCK


def test_a_centre_pawn_with_b6_c6_and_d6_taken_is_stuck():
    state = position({1: "a6", 2: "b6", 3: "c6", 4: "d6", 5: "c5"}, RED)
    assert remaining(state, "ann") >= STUCK


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_ai_makes_room_on_the_goal_row_the_way_its_last_pawn_can_use(seed):
    # d6 -> c6 would leave the a5 pawn nowhere to go (a6 and b6 taken); b6 -> c6 frees b6 for it
    state = position({1: "a6", 2: "b6", 3: "d6", 4: "e6", 5: "a5"}, RED)
    action = choose_action(GAME, GAME.view(state, "ann"), "ann", SeededRandomness(seed), iterations=60)
    assert action == {"type": "move", "pawn": 2, "to": "c6"}


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_ai_brings_on_a_pawn_left_behind_before_the_lanes_clog(seed):
    # the e5 pawn is one step from home; the e2 pawn still has the whole right lane to run
    state = position({1: "a6", 2: "b6", 3: "c6", 4: "e5", 5: "e2"}, RED)
    action = choose_action(GAME, GAME.view(state, "ann"), "ann", SeededRandomness(seed), iterations=60)
    assert action == {"type": "move", "pawn": 5, "to": "e3"}
