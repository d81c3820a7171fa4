"""The process's counters and gauges, in Prometheus' format (docs/operators.md lists every series).

One registry per process (`METRICS`), so an instrumented place is one line: `METRICS.moves.labels(slug).inc()`.
No label ever carries a game's state, a player or a token: games are named by slug, Discord's routes by their
template (`/webhooks/{webhook_id}/{webhook_token}`), never by the URL they were sent to.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable

from prometheus_client import CollectorRegistry, Counter, Gauge, generate_latest

from bot.runtime.background import Background

NAMESPACE = "parlor"
LAG_INTERVAL = 1.0
"""Seconds between two wake-ups of the event-loop lag probe."""


class Metrics:
    """Every series Parlor exports, in a registry of its own (not the library's global one)."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.moves = Counter("moves", "Moves committed, by game.", ["game"], namespace=NAMESPACE,
                             registry=self.registry)
        self.refusals = Counter("refusals", "Refusals told to a user (an illegal move, a stale button, ...).",
                                namespace=NAMESPACE, registry=self.registry)
        self.interactions_late = Counter("interactions_late", "Interactions Discord no longer accepted an answer "
                                         "to (answered after its 3 seconds).", namespace=NAMESPACE,
                                         registry=self.registry)
        self.table_retries = Counter("table_retries", "Game tables scheduled to be tried again after Discord "
                                     "failed to take them.", namespace=NAMESPACE, registry=self.registry)
        self.rest_errors = Counter("discord_rest_errors", "Discord REST answers with a 4xx status (429: rate "
                                   "limited), by route template and status.", ["route", "status"],
                                   namespace=NAMESPACE, registry=self.registry)
        self.loop_lag = Gauge("event_loop_lag_seconds", "How late the last scheduled wake-up of the event loop "
                              "fired.", namespace=NAMESPACE, registry=self.registry)
        self.loop_lag_max = Gauge("event_loop_lag_max_seconds", "The latest wake-up seen since the probe "
                                  "started.", namespace=NAMESPACE, registry=self.registry)
        self.web_pages_open = Gauge("web_pages_open", "Web pages following a game live now.",
                                    namespace=NAMESPACE, registry=self.registry)
        self.games_running = Gauge("games_running", "Games begun and not yet over, by game (read at each "
                                   "scrape).", ["game"], namespace=NAMESPACE, registry=self.registry)

    def rest_answer(self, method: str, route: str, status: int) -> None:
        """Count a Discord REST answer when it is an error of the caller's (4xx, including 429)."""
        if 400 <= status < 500:
            self.rest_errors.labels(f"{method} {route}", str(status)).inc()

    def set_games_running(self, counts: dict[str, int]) -> None:
        """The running games by slug, every game named (0 when none), so the series stays continuous."""
        for game, count in counts.items():
            self.games_running.labels(game).set(count)

    def text(self) -> bytes:
        """The registry in Prometheus' text format."""
        return generate_latest(self.registry)


METRICS = Metrics()


class LoopLag:
    """Measures how late a scheduled wake-up fires: a busy event loop (a long computation on it, a blocking
    call) shows as lag. The clock and the sleep are injectable, so a test drives time itself."""

    def __init__(self, metrics: Metrics = METRICS, *, interval: float = LAG_INTERVAL,
                 clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], Awaitable[object]] = asyncio.sleep) -> None:
        self.metrics = metrics
        self.interval = interval
        self.clock = clock
        self.sleep = sleep
        self.worst = 0.0
        self._task = Background("loop lag", self.run)

    async def measure_once(self) -> float:
        """Sleep one interval and record how much later than asked it woke."""
        asked = self.clock() + self.interval
        await self.sleep(self.interval)
        lag = max(0.0, self.clock() - asked)
        self.metrics.loop_lag.set(lag)
        self.worst = max(self.worst, lag)
        self.metrics.loop_lag_max.set(self.worst)
        return lag

    async def run(self) -> None:
        while True:
            await self.measure_once()

    def start(self) -> None:
        self._task.start()

    async def stop(self) -> None:
        await self._task.stop()
