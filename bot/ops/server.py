"""`/healthz` and `/metrics` for whoever runs Parlor, on OPS_HOST:OPS_PORT (docs/operators.md).

A port of their own, not the web pages': a monitoring system scrapes it from inside the operator's network,
while the pages may face the internet. The server is told how to check each part through plain callables,
so it knows no Discord and no game; nothing it answers names a game's hidden state, a player or a token.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST

from bot.runtime.metrics import METRICS, Metrics

log = logging.getLogger(__name__)
CHECK_TIMEOUT = 3.0
"""Seconds a health check may take before its part counts as unreachable."""


@dataclass
class Checks:
    """How the server learns each part's health: `database` raises when the database cannot answer,
    `gateway` says whether Discord's gateway is connected, `games_running` counts running games by slug."""

    database: Callable[[], Awaitable[object]]
    gateway: Callable[[], bool]
    games_running: Callable[[], Awaitable[dict[str, int]]] | None = None


class OpsServer:
    """The health and metrics endpoints of one bot process."""

    def __init__(self, checks: Checks, metrics: Metrics = METRICS) -> None:
        self.checks = checks
        self.metrics = metrics
        self._runner: web.AppRunner | None = None
        self.port: int | None = None

    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_get("/healthz", self._health)
        app.router.add_get("/metrics", self._metrics)
        return app

    async def start(self, host: str, port: int) -> None:
        self._runner = web.AppRunner(self.app(), access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, host, port)
        await site.start()
        self.port = self._runner.addresses[0][1]

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def problems(self) -> list[str]:
        """What is wrong, in words: empty when the process is healthy."""
        found = []
        try:
            await asyncio.wait_for(self.checks.database(), CHECK_TIMEOUT)
        except Exception as error:  # any failure of the check is the database's unhealth, said in one line
            found.append(f"database unreachable: {type(error).__name__}: {error}".rstrip(": "))
        if not self.checks.gateway():
            found.append("Discord gateway not connected")
        return found

    async def _health(self, request: web.Request) -> web.Response:
        problems = await self.problems()
        if problems:
            return web.Response(status=503, text="unhealthy: " + "; ".join(problems) + "\n")
        return web.Response(text="ok\n")

    async def _metrics(self, request: web.Request) -> web.Response:
        if self.checks.games_running is not None:
            try:
                self.metrics.set_games_running(await asyncio.wait_for(self.checks.games_running(), CHECK_TIMEOUT))
            except Exception:  # the other series still tell something while the database is down
                log.warning("could not count the running games for /metrics", exc_info=True)
        response = web.Response(body=self.metrics.text())
        response.headers["Content-Type"] = CONTENT_TYPE_LATEST
        return response
