"""Discord's REST answers counted by route, without touching discord.py: its HTTP client takes an aiohttp
`TraceConfig` (`http_trace`), which sees every answer, 429s retried inside discord.py included; and the
client's `request` is wrapped only to remember which route template the request in flight belongs to, so
that a series is named `POST /channels/{channel_id}/messages`, never by the URL (which carries ids and,
for an interaction's answer, its token).
"""

from __future__ import annotations

import contextvars
import re
from typing import Any

import aiohttp

from bot.runtime.metrics import METRICS, Metrics

INTERACTION_CALLBACK = "/interactions/{interaction_id}/{interaction_token}/callback"
"""The route that answers an interaction: a 404 there means the answer came after Discord's 3 seconds."""
_API_PREFIX = re.compile(r"^/api(/v[0-9]+)?")
_ROUTE: contextvars.ContextVar[tuple[str, str] | None] = contextvars.ContextVar("parlor_rest_route", default=None)


def rest_trace(metrics: Metrics = METRICS) -> aiohttp.TraceConfig:
    """The trace to give discord.py's client (`http_trace=`): counts 4xx answers by route."""

    async def ended(session: aiohttp.ClientSession, context: Any, params: aiohttp.TraceRequestEndParams) -> None:
        method, path = _ROUTE.get() or (params.method, template_of(params.url.path))
        status = params.response.status
        metrics.rest_answer(method, path, status)
        if status == 404 and path == INTERACTION_CALLBACK:
            metrics.interactions_late.inc()

    trace = aiohttp.TraceConfig()
    trace.on_request_end.append(ended)
    return trace


def template_of(path: str) -> str:
    """A URL's path as a route template, for the requests that bypass `HTTPClient.request` (discord.py sends
    an interaction's answers through its webhook adapter): ids become `{id}`, and the token after an
    interaction's or a webhook's id becomes `{token}`."""
    parts = _API_PREFIX.sub("", path).split("/")
    for index, part in enumerate(parts):
        if part.isdigit():
            parts[index] = "{id}"
            if index >= 1 and parts[index - 1] in ("interactions", "webhooks") and index + 1 < len(parts):
                parts[index + 1] = "{token}"
    template = "/".join(parts)
    return INTERACTION_CALLBACK if template == "/interactions/{id}/{token}/callback" else template


def remember_routes(http: Any) -> None:
    """Wrap `http.request` (discord.py's HTTPClient) so the trace knows each request's route template. The class's
    own `request` is looked up at each call, not kept from now: whatever else wraps it later still runs."""

    async def request_on_route(route: Any, *args: Any, **kwargs: Any) -> Any:
        token = _ROUTE.set((route.method, route.path))
        try:
            return await type(http).request(http, route, *args, **kwargs)
        finally:
            _ROUTE.reset(token)

    http.request = request_on_route
