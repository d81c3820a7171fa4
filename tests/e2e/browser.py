"""Headless Chromium (Debian's `chromium`) driven by Playwright's Python API, for the web pages' tests.

Missing Chromium or Playwright skips those tests with the reason, except in CI (CI=true), where it fails
the run: `.ci/run` installs both.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

CHROMIUM = os.environ.get("PARLOR_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
PHONE = {"width": 400, "height": 800}


def _missing() -> str | None:
    try:
        import playwright.async_api  # noqa: F401
    except ImportError:
        return "Playwright is not installed (pip install -e '.[test]')"
    if not (os.path.exists(CHROMIUM) or shutil.which("chromium")):
        return f"Chromium is not installed at {CHROMIUM} (apt-get install chromium)"
    return None


@pytest_asyncio.fixture
async def browser() -> AsyncIterator[object]:
    """A headless Chromium for one test."""
    async for launched in launch():
        yield launched


async def launch(*extra_args: str) -> AsyncIterator[object]:
    """A headless Chromium (started with `extra_args` too), closed when the iteration ends."""
    why = _missing()
    if why is not None:
        if os.environ.get("CI"):
            pytest.fail(f"CI needs a browser for the web pages' tests: {why}")
        pytest.skip(why)
    from playwright.async_api import async_playwright

    executable = CHROMIUM if os.path.exists(CHROMIUM) else shutil.which("chromium")
    async with async_playwright() as playwright:
        launched = await playwright.chromium.launch(executable_path=executable, args=[*CHROMIUM_ARGS, *extra_args])
        try:
            yield launched
        finally:
            await launched.close()


class Recorder:
    """Everything a page received from the server: each HTTP body and each server-sent event's data."""

    def __init__(self) -> None:
        self.bodies: list[tuple[str, bytes]] = []
        self.events: list[str] = []
        self.urls: list[str] = []
        self.console: list[str] = []
        """What the page's console reported as an error (a resource refused, a script's exception)."""

    @classmethod
    async def open(cls, browser, url: str) -> tuple[Recorder, object]:
        """A phone-sized page at `url`, recording its traffic from the first request on."""
        context = await browser.new_context(viewport=PHONE)
        page = await context.new_page()
        recorder = cls()
        cdp = await context.new_cdp_session(page)
        await cdp.send("Network.enable")
        cdp.on("Network.eventSourceMessageReceived", lambda event: recorder.events.append(event["data"]))
        page.on("response", recorder._response)
        page.on("request", lambda request: recorder.urls.append(request.url))
        page.on("console", lambda message: recorder.console.append(f"{message.text} ({message.location})")
                if message.type == "error" else None)
        page.on("pageerror", lambda error: recorder.console.append(f"uncaught: {error}"))
        await page.goto(url)
        return recorder, page

    async def _response(self, response) -> None:
        if "text/event-stream" in (response.headers.get("content-type") or ""):
            return
        try:
            self.bodies.append((response.url, await response.body()))
        except Exception:  # a response the page navigated away from has no body to read
            return

    def text(self) -> str:
        """Every payload as text (pictures excluded: they are checked by comparing their bytes)."""
        bodies = [body.decode("utf-8", "replace") for url, body in self.bodies if ".png" not in url]
        return "\n".join([*bodies, *self.events])
