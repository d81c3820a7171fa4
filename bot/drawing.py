"""Run board drawing off the event loop, so one picture never delays another channel.

Every picture the bot sends goes through `draw_off_loop`. Drawing runs in a small
pool of worker threads of its own (not asyncio's default pool, which DNS lookups
and aiosqlite-free `to_thread` calls share), sized to the machine's cores.

Why threads rather than processes: a board is drawn and encoded in a few
milliseconds, most of it in Pillow's C code (text rasterising, zlib), which
releases the GIL; a process pool would add pickling of the view and the PNG
bytes and a second interpreter per core for no gain at this size. The numbers
behind this choice are printed by `bench/bench_drawing.py --pools`.
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


def shutdown_drawing() -> None:
    """Stop the pool's threads (at bot shutdown); a later draw makes a fresh pool."""
    global _pool
    pool, _pool = _pool, None
    if pool is not None:
        pool.shutdown(wait=True, cancel_futures=False)
