"""Replays (issue 45): a whole game of each of the five, rebuilt from its log, frame by frame the pictures its
table showed; nothing hidden in a Johari Bones frame; the animation's frames and size."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from bench.ai_opponents import GREEDY
from bot.play.host import Host, MoveOutcome
from bot.presentation import replay
from bot.presentation.frontends import frontend_for
from bot.presentation.render import animation
from bot.presentation.words import ended_view, image_names
from games import get_game
from games.ai import choose_action
from games.core import SeededRandomness
from tests.bot.conftest import ALICE, BOB, CAROL

GAMES = ["john-henry", "two-fat-dudes", "follow-the-arrow", "johari-bones", "crayon-rails"]


def table_picture(outcome: MoveOutcome) -> bytes:
    """The picture the table drew after `outcome` (bot.discord.table: `_picture`)."""
    session = outcome.session
    return frontend_for(session.slug).draw_board(ended_view(session, outcome.public_view), image_names(session),
                                                 session.turn_events)


async def played(host: Host, slug: str, seed: int = 7, limit: int = 3000) -> tuple[int, list[MoveOutcome]]:
    """A game of `slug` played to its end by the bench's greedy players; every committed outcome, in order."""
    seats = [ALICE, BOB, CAROL] if slug == "johari-bones" else [ALICE, BOB]
    await host.open_lobby(guild_id="1", channel_id="900", slug=slug, creator=seats[0])
    outcome = None
    for seat in seats[1:]:
        _, outcome = await host.join("900", seat)
    if outcome is None:
        outcome = await host.begin("900", seats[0].id)
    outcomes = [outcome]
    session_id, rng, game = outcome.session.id, random.Random(seed), get_game(slug)
    for _ in range(limit):
        session = await host.session(session_id)
        if session.status != "active":
            return session_id, outcomes
        player = host.to_act(session)[0]
        if slug == "crayon-rails":  # the greedy players seldom finish a Crayon Rails game: the AI does
            action = choose_action(game, host.view_for(session, player), player,
                                   SeededRandomness(rng.getrandbits(32)), iterations=1)
        else:
            action = GREEDY[slug](game, host.state_of(session), player, rng)
        outcomes.append(await host.act(session_id, player, action))
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("slug", GAMES)
async def test_each_frame_is_the_picture_the_table_showed_at_that_update(host, slug):
    session_id, outcomes = await played(host, slug)
    session = await host.session(session_id)
    found = replay.updates(session, await host.moves(session))
    assert len(found) == len(outcomes), "one update per table update: the game's beginning and each move"
    for update, outcome in zip(found, outcomes, strict=True):
        assert replay.picture(slug, update) == table_picture(outcome), f"the update after move {update.seq}"
    frames = replay.frames_of(session, found)
    if slug == "crayon-rails":
        turns = sum(1 for update in found[1:-1] if update.turn_passed)
        assert len(frames) == turns + 2 < len(found), "Crayon Rails is told per turn"
    else:
        assert frames == found


async def test_no_johari_frame_shows_a_bone_the_public_table_did_not(host):
    session_id, outcomes = await played(host, "johari-bones")
    session = await host.session(session_id)
    for update, outcome in zip(replay.updates(session, await host.moves(session)), outcomes, strict=True):
        assert update.view == ended_view(outcome.session, outcome.public_view)
        assert update.view == ended_view(outcome.session, get_game("johari-bones").view(
            get_game("johari-bones").state_from_json(outcome.session.state), None))


async def test_an_abandoned_game_ends_on_its_final_table(host):
    await host.open_lobby(guild_id="1", channel_id="900", slug="follow-the-arrow", creator=ALICE)
    _, begun = await host.join("900", BOB)
    session = begun.session
    player = host.to_act(session)[0]
    await host.act(session.id, player, host.legal_actions(session, player)[0])
    await host.abandon("900", BOB.id, can_manage=False)
    session = await host.session(session.id)
    found = replay.updates(session, await host.moves(session))
    assert [update.seq for update in found] == [0, 1, 1]
    assert replay.picture(session.slug, found[-1]) == frontend_for(session.slug).draw_board(
        ended_view(session, host.public_view(session)), image_names(session), session.turn_events)
    assert found[-1].lines == ["The game was abandoned."]


async def test_the_animation_has_a_frame_per_update_and_holds_the_last(host):
    session_id, _ = await played(host, "john-henry")
    session = await host.session(session_id)
    found = replay.frames_of(session, replay.updates(session, await host.moves(session)))
    made = animation.animated(session.slug, found)
    assert made.mime in ("image/gif", "image/webp")
    with Image.open(io.BytesIO(made.data)) as image:
        assert image.n_frames == len(found)
    held = animation.durations(session.slug, found)
    assert held[-1] == max(held) == animation.LAST_HOLD_MS, "the last frame is held"
    gif = animation.smallest(animation.same_size([animation.framed(replay.picture(session.slug, update), update, n,
                                                                   len(found))
                                                  for n, update in enumerate(found, start=1)]), held, ("gif",))
    with Image.open(io.BytesIO(gif.data)) as image:
        shown = []
        for index in range(image.n_frames):
            image.seek(index)
            shown.append(image.info["duration"])
    assert shown == held


async def test_a_crayon_rails_replay_stays_under_the_upload_limit_and_shrinks_to_fit(host, monkeypatch):
    session_id, _ = await played(host, "crayon-rails")
    session = await host.session(session_id)
    frames = replay.frames_of(session, replay.updates(session, await host.moves(session)))
    whole = animation.animated(session.slug, frames)
    assert len(whole.data) <= animation.MAX_BYTES
    monkeypatch.setattr(animation, "MAX_BYTES", len(whole.data) // 3)
    fitted = animation.animated(session.slug, frames)
    assert len(fitted.data) <= len(whole.data) // 3, "drawn smaller, or with fewer frames, to fit"
