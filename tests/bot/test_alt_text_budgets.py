"""Alt text within each game's budget (issue 42): long random games of every game, with Discord's longest names,
checked at every update: the board's and each private picture's alt text stay within the game's budget (well
under Discord's 1,024) and say whose turn it is at most once; the board's never names a hidden Johari bone;
Crayon Rails' build preview reads no milepost code aloud."""

from __future__ import annotations

import random
import re

import pytest

from bot.play.host import turn_events
from bot.presentation.alt_text import ALT_TEXT_MAX, board_alt, budget, private_alt, step_alt
from bot.presentation.frontends import frontend_for
from bot.presentation.frontends.crayon_rails import FRONTEND as CRAYON
from bot.presentation.frontends.crayon_rails import build_target
from bot.storage.store import Seat, SessionRecord
from games import GAMES, get_game
from games.core import SeededRandomness

NAMES = ("Alexandria the Great Railroader", "Bartholomew von Longname-Smythe", "Cassandra Wilhelmina Fitzgerald",
         "Dorothea Maximiliana Grunwalder")
"""Display names of Discord's longest (32 characters)."""
MOVES = {"crayon-rails": 500}
"""Moves played at most (Crayon Rails' random play wanders for thousands); the other games are played out."""
TURN = re.compile(r"'s turn\.|\bto act\.|To roll:|To act:|[Ww]aiting for |\bto move\.|must jump")
"""Every way a picture's words say whose turn it is: the alt text's own ("alice's turn.") and each game's."""
BONE = re.compile(r"\b\d-\d\b")
MILEPOST = re.compile(r"\b[A-X][0-9]{1,2}\b")


def session_at(slug: str, state, players: list[str], version: int, told: list[dict]) -> SessionRecord:
    game = get_game(slug)
    return SessionRecord(id=7, guild_id="1", channel_id="2", slug=slug,
                         status="active" if game.to_act(state) else "finished", creator=players[0],
                         players=[Seat(id=p, name=NAMES[seat]) for seat, p in enumerate(players)], invited=[],
                         options={}, setup_outcomes=None, state=state.model_dump_json(), version=version,
                         result=game.result(state), end_reason=None, created_at=0.0, updated_at=0.0, turn_events=told)


def hidden_johari_bones(state) -> set[str]:
    """The bones of every hand the public may not see (all but the face-up ones, until a hand is revealed)."""
    if state.phase in ("scoring", "over"):
        return set()
    return {bone for hand in state.bones.values() for position, bone in hand.items() if position != "up" and bone}


def check(alt: str, slug: str) -> None:
    assert len(alt) <= budget(slug) < ALT_TEXT_MAX, (len(alt), alt)
    assert len(TURN.findall(alt)) <= 1, alt


def check_build_preview(session: SessionRecord, state, player: str, names: dict[str, str]) -> None:
    game = get_game("crayon-rails")
    toward = next((action for action in game.legal_actions(state, player)
                   if action["type"] == "build" and action.get("toward")), None)
    if toward is None:
        return
    _, events = game.apply(state, player, toward, SeededRandomness(0))
    public = game.view(state, None)
    target = build_target(toward["toward"])  # a city's milepost, as `/build to:` hands it
    alt = step_alt(session, public, names, CRAYON.build_preview_alt(public, events, target))
    check(alt, "crayon-rails")
    assert "Proposed track" in alt and not MILEPOST.search(alt), alt


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("slug,players", [(slug, count) for slug in sorted(GAMES)
                                          for count in sorted({GAMES[slug].min_players, GAMES[slug].max_players})])
def test_every_alt_text_of_a_long_random_game_keeps_its_budget_and_says_the_turn_once(slug, players, seed):
    game, frontend = get_game(slug), frontend_for(slug)
    seats = [str(1001 + seat) for seat in range(players)]
    names = dict(zip(seats, NAMES, strict=False))
    rng, pick = SeededRandomness(seed), random.Random(seed)
    state = game.new_game(seats, rng)
    told: list[dict] = []
    for version in range(2, MOVES.get(slug, 2000)):
        before = game.to_act(state)
        if not before:
            break
        player = pick.choice(before)
        state, events = game.apply(state, player, pick.choice(game.legal_actions(state, player)), rng)
        session = session_at(slug, state, seats, version, told)
        told = turn_events(session, before, game.to_act(state), list(events))
        alt = board_alt(session, game.view(state, None), names, told)
        check(alt, slug)
        if slug == "johari-bones":
            assert not set(BONE.findall(alt)) & hidden_johari_bones(state), alt
        if frontend.private_view:
            for seat in seats:
                check(private_alt(session, game.view(state, seat), names, seat), slug)
        if slug == "crayon-rails" and version % 5 == 0 and game.to_act(state):
            check_build_preview(session, state, game.to_act(state)[0], names)
    assert version > 10
