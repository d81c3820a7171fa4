"""Short garbage-collector pauses: what start-up built is set aside before the bot takes moves.

A full collection of CPython's cyclic collector visits every tracked object, and pauses the event
loop meanwhile. Once the bot is set up, some 70,000 long-lived objects (discord.py, pydantic's
schemas, the boards' static data) would be visited by every full collection, about 35 ms each on
this machine, on top of the games' own objects. `set_aside_start_up` collects once, then freezes the
survivors (`gc.freeze`): later collections skip them. They are still freed by reference counting;
only a reference cycle among them would never be collected, and start-up objects live as long as
the process anyway. Done once per process (a test run sets up many bots in one process, and
freezing the earlier ones' leftovers would keep them for good). Measured by bench/bench_table.py
(longest garbage-collector pause).
"""

from __future__ import annotations

import gc

_set_aside = False


def set_aside_start_up() -> None:
    """Collect once, then keep everything alive now out of every later collection (first call only)."""
    global _set_aside
    if _set_aside:
        return
    _set_aside = True
    gc.collect()
    gc.freeze()
