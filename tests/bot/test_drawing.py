"""Drawing runs in the worker pool, never on the event loop's thread."""

from __future__ import annotations

import asyncio
import threading

from bench.positions import random_states
from bot.presentation.frontends import frontend_for
from bot.runtime.drawing import draw_off_loop
from games import get_game


def _thread_name_png(marker: str) -> bytes:
    return f"{marker}:{threading.current_thread().name}".encode()


async def test_draw_off_loop_runs_off_the_loop_thread() -> None:
    loop_thread = threading.current_thread().name
    result = (await draw_off_loop(_thread_name_png, "board")).decode()
    marker, worker = result.split(":", 1)
    assert marker == "board"
    assert worker != loop_thread
    assert worker.startswith("parlor-draw")


async def test_draw_off_loop_passes_errors_back() -> None:
    def broken() -> bytes:
        raise ValueError("no such board")

    try:
        await draw_off_loop(broken)
    except ValueError as error:
        assert "no such board" in str(error)
    else:
        raise AssertionError("the drawing error was swallowed")


async def test_boards_drawn_at_once_in_the_pool_match_boards_drawn_one_by_one() -> None:
    jobs = []
    for slug in ("john-henry", "two-fat-dudes", "follow-the-arrow", "johari-bones"):
        game = get_game(slug)
        for state, events in random_states(slug, ["a", "b", "c"][: 3 if slug == "johari-bones" else 2], seed=2)[:6]:
            jobs.append((frontend_for(slug).draw_board, game.view(state, None), {"a": "Ann"}, events))
    together = await asyncio.gather(*(draw_off_loop(*job) for job in jobs))
    assert list(together) == [func(view, names, events) for func, view, names, events in jobs]
