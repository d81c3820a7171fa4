"""Johari Bones must never let a bone out to anyone not allowed to see it.

Random games are played with legal moves and peppered with refused ones; after every step
the bones each audience may see are worked out from the raw state (not from `view`), and
everything that audience receives — its view, the move's events, refusal messages, the
channel's narration, text and picture, each alt text (the board's and his own) — may name no
other bone.
"""

from __future__ import annotations

import json
import random
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.presentation.frontends.johari_bones import FRONTEND
from games.core import IllegalMove, SeededRandomness
from games.johari_bones import GAME, State
from games.johari_scoring import BOXES

PLAYERS = ["alice", "bob", "carol", "dave"]
BONE = re.compile(r"\d-\d")
NAMES = {player: player.title() for player in PLAYERS}


def bones_in(thing: object) -> set[str]:
    """Every bone string written anywhere in a JSON-able value or text."""
    text = thing if isinstance(thing, str) else json.dumps(thing)
    return set(BONE.findall(text))


def revealed(state: State) -> bool:
    return state.phase in ("scoring", "over")


def all_hand_bones(state: State) -> set[str]:
    return {bone for hand in state.bones.values() for bone in hand.values()}


def public_may_see(state: State) -> set[str]:
    if revealed(state):
        return all_hand_bones(state)
    return {hand["up"] for hand in state.bones.values()}


def player_may_see(state: State, player: str) -> set[str]:
    if revealed(state):
        return all_hand_bones(state)
    seen = {state.bones[player]["up"], state.bones[player]["in"]}
    for other, hand in state.bones.items():
        if other != player:
            seen |= {hand["up"], hand["out"]}
    if state.phase == "drawn" and GAME.to_act(state) == [player] and state.drawn:
        seen.add(state.drawn)
    return seen


def check_views(state: State) -> None:
    public = GAME.view(state, None)
    assert bones_in(public) <= public_may_see(state)
    for player in state.players:
        view = GAME.view(state, player)
        shown = bones_in(view)
        assert shown <= player_may_see(state, player)
        if not revealed(state):
            own = state.bones[player]
            assert own["down"] not in shown and own["out"] not in shown
            for other in state.players:
                if other != player:
                    assert state.bones[other]["down"] not in shown and state.bones[other]["in"] not in shown
        if state.drawn and view["drawn"] is None:
            assert state.drawn not in shown
        digest = FRONTEND.private_digest(view)
        if digest is not None:
            assert bones_in(digest) <= player_may_see(state, player) - public_may_see(state)
        assert bones_in(FRONTEND.private_alt_text(view, NAMES, player)) <= player_may_see(state, player)
    for words in (FRONTEND.describe_state, FRONTEND.alt_text):
        assert words(public, NAMES) == words(GAME.view(state, "alice"), NAMES), "the public words mask a private view"
        assert bones_in(words(public, NAMES)) <= public_may_see(state)


def check_pictures(state: State) -> None:
    """The public board is the same picture whichever view it is handed."""
    public_png = FRONTEND.draw_board(GAME.view(state, None), NAMES)
    for player in state.players:
        assert FRONTEND.draw_board(GAME.view(state, player), NAMES) == public_png


def attempts(state: State) -> list[tuple[str, dict]]:
    """Actions by anyone, many of them refused: wrong player, wrong phase, wrong target."""
    tries: list[tuple[str, dict]] = []
    for player in state.players:
        tries.append((player, {"type": "draw"}))
        tries += [(player, {"type": "score", "box": box}) for box in BOXES[::3]]
        for other in state.players:
            tries += [(player, {"type": "place", "target": other, "position": position})
                      for position in ("in", "up", "out")]
            tries += [(player, {"type": "swap", "kind": kind, "with": other}) for kind in ("up", "in-out")]
    tries.append((state.players[0], {"type": "place", "target": "zed", "position": "down"}))
    return tries


def check_refusals(state: State, chooser: random.Random) -> None:
    for player, action in chooser.sample(attempts(state), 4):
        try:
            GAME.apply(state, player, action, SeededRandomness(0))
        except IllegalMove as refusal:
            assert bones_in(refusal.message) <= player_may_see(state, player)
            assert bones_in(refusal.message) <= public_may_see(state) | player_may_see(state, player)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), seats=st.integers(2, 4))
def test_no_audience_ever_receives_a_bone_hidden_from_it(seed, seats):
    rng, chooser = SeededRandomness(seed), random.Random(seed)
    state = GAME.new_game(PLAYERS[:seats], rng)
    picture_step = chooser.randrange(3 * seats)
    step = 0
    check_views(state)
    while GAME.result(state) is None:
        check_refusals(state, chooser)
        player = chooser.choice(GAME.to_act(state))
        state, events = GAME.apply(state, player, chooser.choice(GAME.legal_actions(state, player)), rng)
        assert bones_in(events) <= public_may_see(state)
        assert bones_in(FRONTEND.describe_events(events, NAMES)) <= public_may_see(state)
        check_views(state)
        if step == picture_step:
            check_pictures(state)
        step += 1


def test_the_drawn_bone_reaches_only_the_drawer():
    rng = SeededRandomness(7)
    state = GAME.new_game(PLAYERS[:3], rng)
    state, events = GAME.apply(state, "alice", {"type": "draw"}, rng)
    drawn = state.drawn
    assert drawn and drawn not in json.dumps(events)
    assert GAME.view(state, "alice")["drawn"] == drawn
    assert drawn not in json.dumps(GAME.view(state, "bob")) + json.dumps(GAME.view(state, None))
    assert FRONTEND.private_digest(GAME.view(state, "alice"))["drawn"] == drawn
    assert drawn not in json.dumps(FRONTEND.private_digest(GAME.view(state, "bob")))
    state, events = GAME.apply(state, "alice", {"type": "place", "target": "bob", "position": "out"}, rng)
    assert drawn not in json.dumps(events) and drawn not in " ".join(FRONTEND.describe_events(events, NAMES))
    assert drawn not in json.dumps(GAME.view(state, "bob")) + json.dumps(GAME.view(state, None))
    check_pictures(state)


def test_refusals_while_a_bone_is_drawn_do_not_name_it():
    rng = SeededRandomness(11)
    state = GAME.new_game(PLAYERS[:2], rng)
    state, _ = GAME.apply(state, "alice", {"type": "draw"}, rng)
    for player, action in attempts(state):
        try:
            GAME.apply(state, player, action, rng)
        except IllegalMove as refusal:
            assert state.drawn not in refusal.message or player == "alice"
            assert bones_in(refusal.message) <= player_may_see(state, player)
