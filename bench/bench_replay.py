"""Replays (issue 45): milliseconds per frame and bytes per replay for each game, GIF against WebP.

    PYTHONPATH=. python bench/bench_replay.py [--seed N]

Each game is played to its end by Parlor's AI on both seats (Crayon Rails: a whole long game, the longest
kind), its log replayed (bot.presentation.replay) and its frames encoded both ways
(bot.presentation.render.animation).
"""

from __future__ import annotations

import argparse
import random
import time

from bot.presentation import replay
from bot.presentation.render import animation
from bot.storage.store import MoveRecord, Seat, SessionRecord
from games import get_game
from games.ai import choose_action
from games.core import RecordingRandomness, SeededRandomness

GAMES = ["john-henry", "two-fat-dudes", "follow-the-arrow", "johari-bones", "crayon-rails"]
SEATS = {"johari-bones": 3}
MAX_STEPS = 8000


def finished_game(slug: str, seed: int = 1) -> tuple[SessionRecord, list[MoveRecord]]:
    """A game of `slug` played out by the AI on every seat (one search iteration a move: quick, and a long game),
    as the store would hold it: the finished session and its move log."""
    game = get_game(slug)
    players = [str(100 + seat) for seat in range(SEATS.get(slug, 2))]
    chooser = random.Random(seed)
    setup = RecordingRandomness(SeededRandomness(seed))
    state = game.new_game(players, setup)
    moves: list[MoveRecord] = []
    for seq in range(1, MAX_STEPS + 1):
        if game.result(state) is not None:
            break
        player = game.to_act(state)[0]
        action = choose_action(game, game.view(state, player), player, SeededRandomness(chooser.getrandbits(32)),
                               iterations=1)
        rng = RecordingRandomness(SeededRandomness(chooser.getrandbits(32)))
        state, _ = game.apply(state, player, action, rng)
        moves.append(MoveRecord(session_id=1, seq=seq, player=player, action=action, outcomes=rng.outcomes,
                                created_at=float(seq)))
    result = game.result(state)
    session = SessionRecord(
        id=1, guild_id="1", channel_id="900", slug=slug, creator=players[0], status="finished",
        players=[Seat(id=player, name=f"Player {n}") for n, player in enumerate(players, start=1)],
        invited=[], options={}, version=len(moves) + 1, state=state.model_dump_json(), setup_outcomes=setup.outcomes,
        result=result,
        end_reason="played out", created_at=0.0, updated_at=0.0)
    found = replay.updates(session, moves)
    return session.model_copy(update={"turn_events": found[-1].events if found else []}), moves


def measure(slug: str, seed: int) -> str:
    session, moves = finished_game(slug, seed)
    frames = replay.frames_of(session, replay.updates(session, moves))
    started = time.perf_counter()
    images = animation.same_size([animation.framed(replay.picture(slug, update), update, n, len(frames))
              for n, update in enumerate(frames, start=1)])
    drawn = time.perf_counter() - started
    held = animation.durations(slug, frames)
    sizes, encoded = {}, {}
    for name in ("gif", "webp"):
        started = time.perf_counter()
        sizes[name] = len(animation.smallest(images, held, (name,)).data)
        encoded[name] = time.perf_counter() - started
    return (f"{slug:17} {len(moves):5} moves {len(frames):4} frames  draw {1000 * drawn / len(frames):6.1f} ms/frame"
            f"  GIF {sizes['gif'] / 1024:8.0f} KiB {1000 * encoded['gif'] / len(frames):5.1f} ms/frame"
            f"  WebP {sizes['webp'] / 1024:8.0f} KiB {1000 * encoded['webp'] / len(frames):5.1f} ms/frame")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", nargs="*", default=GAMES)
    arguments = parser.parse_args()
    for slug in arguments.games:
        print(measure(slug, arguments.seed), flush=True)


if __name__ == "__main__":
    main()
