"""Drawing runs in the worker pool, never on the event loop's thread."""

from __future__ import annotations

import threading

from bot.drawing import draw_off_loop


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
