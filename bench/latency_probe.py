"""`python -m bot` with bench instruments, for bench/bench_latency.py (never used by the bot itself).

Adds, around the unmodified bot: timers on each step of a move (how long it ran, summed per step),
and the event-loop stall meter of bench/bench_table.py. SIGUSR1 resets both; SIGUSR2 prints them as
one JSON line (milliseconds per move), and so does the exit. With PYINSTRUMENT=<file> in the
environment, pyinstrument also samples the loop's thread from SIGUSR1 to SIGUSR2 and writes its
profile there (e.g. `PYINSTRUMENT=/tmp/move.txt python bench/bench_latency.py --burst 0`).
"""

from __future__ import annotations

import asyncio
import functools
import gc
import inspect
import json
import os
import signal
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import discord.abc
import discord.http
import discord.webhook.async_
from bench_table import StallMeter
from discord.state import ConnectionState

import bot.__main__
import bot.discord.actions
import bot.discord.foresight
import bot.discord.table
import bot.presentation.render.canvas
import bot.runtime.collector
import bot.storage.db_connection
from bot.play.host import Host
from bot.play.moves import Mover
from bot.storage.store import Store
from games import get_game

spent: dict[str, float] = defaultdict(float)
moves = 0
meter: StallMeter | None = None
received = 0.0
"""When the interaction being handled arrived (the bench sends one at a time)."""
marks: dict[str, list[float]] = {}
"""This move's steps: [began, ended] of each step's first call, in ms after `received`."""
timelines: list[dict[str, list[float]]] = []
quiet_collections = 0
profiler: Any = None
"""With PYINSTRUMENT=<file>: pyinstrument samples the loop's thread from SIGUSR1 to SIGUSR2, written there."""


def timing(owner: Any, name: str, step: str | Callable[..., str]) -> None:
    """Add the time `owner.name` takes to `step` (a name, or a function of the call's arguments)."""
    original = getattr(owner, name)

    def label(args: tuple, kwargs: dict) -> str:
        return step if isinstance(step, str) else step(*args, **kwargs)

    def note(args: tuple, kwargs: dict, began: float) -> None:
        ended = time.perf_counter()
        named = label(args, kwargs)
        spent[named] += ended - began
        span = marks.setdefault(named, [(began - received) * 1000, 0.0])
        if not span[1]:
            span[1] = (ended - received) * 1000

    if inspect.iscoroutinefunction(original):
        @functools.wraps(original)
        async def timed(*args: Any, **kwargs: Any) -> Any:
            began = time.perf_counter()
            try:
                return await original(*args, **kwargs)
            finally:
                note(args, kwargs, began)
    else:
        @functools.wraps(original)
        def timed(*args: Any, **kwargs: Any) -> Any:
            began = time.perf_counter()
            try:
                return original(*args, **kwargs)
            finally:
                note(args, kwargs, began)

    setattr(owner, name, timed)


def arrival(original: Callable[..., Any]) -> Callable[..., Any]:
    """discord.py parsing an INTERACTION_CREATE: a new move's timeline begins."""

    @functools.wraps(original)
    def parsed(*args: Any, **kwargs: Any) -> Any:
        global received, marks
        if marks:
            timelines.append(marks)
        received, marks = time.perf_counter(), {}
        return original(*args, **kwargs)

    return parsed


def rest_step(_self: Any, route: Any, *args: Any, **kwargs: Any) -> str:
    path = route.path
    if path.endswith("/callback"):
        return "REST: interaction callback (the acknowledgement)"
    if path.startswith("/webhooks/"):
        return f"REST: {route.method} the interaction's own message"
    if path.startswith("/channels/{channel_id}/messages"):
        kind = {"POST": "post", "PATCH": "edit", "DELETE": "delete"}.get(route.method, route.method)
        return f"REST: {kind} a channel message (table)"
    return f"REST: {route.method} {path}"


def count_move(original: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(original)
    async def counted(*args: Any, **kwargs: Any) -> Any:
        global moves
        moves += 1
        return await original(*args, **kwargs)

    return counted


def instrument() -> None:
    timing(bot.discord.actions, "acknowledge", "acknowledge (defer; until Discord answered)")
    timing(bot.discord.actions, "guarded", "Parlor's handler (after discord.py's dispatch)")
    timing(Host, "open_session", "read: the channel's open game (kept in memory)")
    timing(Mover, "_act_locked", "host: engine, views and commit")
    timing(Store, "record_move", "  of which: the commit (record_move)")
    timing(bot.storage.db_connection, "_run_group", "    of which: on the database thread (statements, sync)")
    timing(bot.discord.table.Tables, "_show_as_it_lands",
           "table: sent as the commit lands (waits from before the commit)")
    timing(bot.discord.table.Tables, "_put", "table: sent and recorded")
    timing(bot.discord.table.Tables, "show", "table: show (whole, from commit to saved)")
    timing(bot.discord.table.Tables, "compose", "  of which: compose (view, draw, message)")
    timing(bot.discord.table.Tables, "_picture", "    of which: the picture (drawn ahead, or now)")
    timing(bot.discord.table, "draw_off_loop", "    of which: drawing pool (draw + encode)")
    timing(bot.discord.foresight, "draw_off_loop", "foresight: the next moves' boards (at idle moments)")
    timing(Host, "legal_by_player", "    of which: legal moves")
    timing(Host, "undoer", "    of which: who may undo")
    timing(bot.presentation.render.canvas, "to_png", "      of which: encode (to_png)")
    timing(Store, "table", "  of which: read the table record")
    timing(Store, "save_table", "  of which: save the table record")
    timing(bot.discord.actions, "show_done", "show_done (table, panels, private note)")
    timing(Store, "open_session_in", "read: the channel's session")
    timing(type(get_game("john-henry")), "apply", "engine: apply the action")
    timing(bot.discord.table, "board_message", "  of which: the message (embed, buttons)")
    timing(discord.abc.Messageable, "send", "discord.py: send the table (until answered)")
    timing(discord.http.HTTPClient, "request", rest_step)
    timing(discord.webhook.async_.AsyncWebhookAdapter, "request", rest_step)
    Host.act = count_move(Host.act)  # type: ignore[method-assign]
    if hasattr(bot.runtime.collector, "QuietCollector"):
        original_step = bot.runtime.collector.QuietCollector.step

        def counted_step(self: Any) -> bool:
            global quiet_collections
            collected = original_step(self)
            quiet_collections += collected
            return collected

        bot.runtime.collector.QuietCollector.step = counted_step  # type: ignore[method-assign]

    ConnectionState.parse_interaction_create = arrival(ConnectionState.parse_interaction_create)


def dump() -> None:
    if profiler is not None and profiler.is_running:
        profiler.stop()
        with open(os.environ["PYINSTRUMENT"], "w") as out:
            out.write(profiler.output_text(unicode=False, color=False, show_all=False))
    count = max(moves, 1)
    steps = {name: seconds * 1000 / count for name, seconds in sorted(spent.items())}
    stalls = {"longest_step": 0.0, "longest_own_step": 0.0, "longest_cpu_step": 0.0, "longest_collection": 0.0}
    if meter is not None:
        stalls = {"longest_step": meter.longest_step * 1000, "longest_own_step": meter.longest_own_step * 1000,
                  "longest_cpu_step": meter.longest_cpu_step * 1000,
                  "longest_collection": meter.longest_collection * 1000, "generation": meter.longest_generation}
    timeline = {}
    for name in {name for marked in timelines for name in marked}:
        spans = [marked[name] for marked in timelines if name in marked]
        if len(spans) * 2 >= len(timelines):
            timeline[name] = [statistics.median(s[0] for s in spans), statistics.median(s[1] for s in spans)]
    collector = {"threshold": gc.get_threshold(), "collections": [g["collections"] for g in gc.get_stats()],
                 "tracked": len(gc.get_objects()), "frozen": gc.get_freeze_count(),
                 "quiet_collections": quiet_collections}
    print(json.dumps({"moves": moves, "steps": steps, "timeline": timeline, **stalls, **collector}), flush=True)


def reset() -> None:
    global moves, meter, quiet_collections, profiler
    if os.environ.get("PYINSTRUMENT"):
        from pyinstrument import Profiler

        if profiler is not None and profiler.is_running:
            profiler.stop()
        profiler = Profiler(interval=0.0002, async_mode="disabled")
        profiler.start()
    quiet_collections = 0
    spent.clear()
    timelines.clear()
    moves = 0
    if meter is not None:
        meter.__exit__()
    meter = StallMeter().__enter__()


original_run = bot.__main__._run


async def probed_run(*args: Any) -> None:
    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGUSR1, reset)
    loop.add_signal_handler(signal.SIGUSR2, dump)
    try:
        await original_run(*args)
    finally:
        dump()


if __name__ == "__main__":
    instrument()
    bot.__main__._run = probed_run
    sys.exit(bot.__main__.main([]))
