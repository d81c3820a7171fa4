"""Run board drawing off the event loop, so one picture never delays another channel.

Every picture the bot sends goes through `draw_off_loop`. Drawing runs in a small
pool of worker threads of its own (not asyncio's default pool, which DNS lookups
and `asyncio.to_thread` calls share), sized to the machine's cores.

Why threads rather than processes (measured with `python bench/bench_drawing.py --pools` on
this 2-core machine shared with other work, two workers each, 444 boards of the four small
games at once): threads 3.7-4.3 ms a board with event-loop gaps p99 8 ms and at most 23 ms;
processes 3.2-3.4 ms a board, gaps p99 5 ms and at most 16 ms; the idle loop alone shows gaps
up to 10 ms on this machine. With Crayon Rails boards mixed in, threads were as fast or faster
(10.6 against 12.5 ms a board in one run, the reverse in another). Both keep the loop far under
the 50 ms limit, and the small gain of processes does not pay for what they cost: every
function and argument must pickle (a closure or a bound method with state would fail only at
run time), workers start cold (fonts and cached board layers per process), a crashed worker
breaks the whole pool, and forking a process that runs discord.py and aiosqlite threads is
unsafe. Most of a board's time is in Pillow's C code (zlib, palette mapping, pasting), and
Python holds the GIL only in short stretches, so a thread pool does not starve the loop.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any

_WORKERS = max(2, min(4, os.cpu_count() or 2))
_pool: ThreadPoolExecutor | None = None


def _executor() -> ThreadPoolExecutor:
    """The drawing pool, made on first use so importing this module starts no threads."""
    global _pool
    if _pool is None:
        _pool = ThreadPoolExecutor(max_workers=_WORKERS, thread_name_prefix="parlor-draw")
    return _pool


async def draw_off_loop(func: Callable[..., bytes], *args: Any) -> bytes:
    """`func(*args)` (a drawing function returning PNG bytes) run in the drawing pool."""
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(_executor(), partial(func, *args))

