"""A test page that plays the Discord client around Parlor's Activity, in a real headless Chromium.

It is served (by Playwright's routing: nothing listens there) at `http://localhost:3333`, an origin the Embedded App
SDK accepts messages from (its development origin), frames the Activity with the query parameters Discord adds
(`instance_id`, `channel_id`, `guild_id`, `frame_id`, `platform`), and answers the SDK's postMessage protocol as
Discord's client does: the HANDSHAKE with READY, AUTHORIZE with a one-time code of the fake Discord for the user
this client is signed in as, AUTHENTICATE with that user when the fake Discord says the access token is his (else
Discord's ERROR), and any other command with an empty answer. Every frame it got is kept in `window.received`.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from urllib.parse import urlencode

import pytest_asyncio

from tests.e2e.browser import PHONE, launch
from tests.fakediscord import FakeDiscord
from tests.fakediscord.state import FakeChannel, FakeUser

CLIENT_ORIGIN = "http://localhost:3333"

CLIENT_PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<style>html, body { margin: 0; } iframe { border: 0; width: 100vw; height: 100vh; }</style></head>
<body><iframe id="activity" title="Parlor" src="%(src)s"></iframe>
<script>
const frame = document.getElementById("activity");
const target = new URL(frame.src).origin;
const me = %(user)s;
window.received = [];
function reply(message) { frame.contentWindow.postMessage(message, target); }
window.addEventListener("message", async (event) => {
  if (event.source !== frame.contentWindow || !Array.isArray(event.data)) return;
  const [opcode, data] = event.data;
  window.received.push([opcode, data && data.cmd || null]);
  if (opcode === 0) {
    reply([1, { cmd: "DISPATCH", evt: "READY", nonce: null, data: { v: 1, user: me,
      config: { api_endpoint: "//discord.com/api", environment: "production" } } }]);
  } else if (opcode === 1 && data.cmd === "AUTHORIZE") {
    const code = await window.discordAuthorize(JSON.stringify(data.args));
    reply([1, { cmd: "AUTHORIZE", evt: null, nonce: data.nonce, data: { code } }]);
  } else if (opcode === 1 && data.cmd === "AUTHENTICATE") {
    const user = await window.discordAuthenticate(data.args.access_token || "");
    if (user) {
      reply([1, { cmd: "AUTHENTICATE", evt: null, nonce: data.nonce, data: { access_token: data.args.access_token,
        user: JSON.parse(user), scopes: ["identify"], expires: "2099-01-01T00:00:00.000Z",
        application: { id: "%(client_id)s", name: "Parlor", description: "" } } }]);
    } else {
      reply([1, { cmd: "AUTHENTICATE", evt: "ERROR", nonce: data.nonce,
                  data: { code: 4009, message: "Invalid token" } }]);
    }
  } else if (opcode === 1) {
    reply([1, { cmd: data.cmd, evt: null, nonce: data.nonce, data: null }]);
  }
});
</script></body></html>
"""


LOCAL_FRAMES = "--disable-features=LocalNetworkAccessChecks,BlockInsecurePrivateNetworkRequests"
"""The test client's page is made up by Playwright (it has no address), so Chromium takes it for a public site
framing a machine of the local network: Discord's client is a public site too, but the Activity it frames is not
on the user's network. Only the check that tells the two apart is turned off."""


@pytest_asyncio.fixture
async def discord_browser() -> AsyncIterator[object]:
    """A headless Chromium for one test, as `tests.e2e.browser.browser`, that lets the test client frame the
    Activity on this machine."""
    async for launched in launch(LOCAL_FRAMES):
        yield launched


RECORD_EVENTS = """(() => {
  const Original = window.EventSource;
  if (!Original) return;
  window.__events = [];
  window.EventSource = class extends Original {
    constructor(...args) {
      super(...args);
      for (const name of ["state", "refused"]) this.addEventListener(name, (event) => window.__events.push(event.data));
    }
  };
})();"""
"""Every server-sent event a frame got (a Playwright init script: it runs before the page's own, beside its CSP)."""


@dataclass
class Client:
    page: object
    frame: object
    codes: list[str]
    bodies: list[tuple[str, bytes]] = field(default_factory=list)
    urls: list[str] = field(default_factory=list)

    async def _response(self, response) -> None:
        if "text/event-stream" in (response.headers.get("content-type") or ""):
            return
        try:
            self.bodies.append((response.url, await response.body()))
        except Exception:  # a response the page navigated away from has no body to read
            return

    async def text(self) -> str:
        """Every payload the Activity received, as text (pictures excluded)."""
        bodies = [body.decode("utf-8", "replace") for url, body in self.bodies
                  if ".png" not in url and not url.startswith(CLIENT_ORIGIN) and "embedded-app-sdk" not in url]
        return "\n".join([*bodies, *await self.frame.evaluate("window.__events || []")])


def activity_url(base_url: str, instance_id: str, channel: FakeChannel, frame_id: str = "f-1") -> str:
    """Where Discord loads the Activity: its URL mapping's root, with the query parameters it adds."""
    query = {"instance_id": instance_id, "channel_id": str(channel.id), "guild_id": str(channel.guild_id or ""),
             "frame_id": frame_id, "platform": "desktop"}
    return f"{base_url}/?{urlencode(query)}"


async def open_client(browser, fake: FakeDiscord, user: FakeUser, src: str, *, code_for: FakeUser | None = None,
                      ) -> Client:
    """A phone-sized Discord client signed in as `user`, showing the Activity at `src`; AUTHORIZE answers a code
    for `code_for` (another user's, to test the refusals) when given."""
    context = await browser.new_context(viewport=PHONE)
    page = await context.new_page()
    codes: list[str] = []
    me = {"id": str(user.id), "username": user.name, "discriminator": "0", "public_flags": 0}

    async def serve(route) -> None:
        html = CLIENT_PAGE % {"src": src, "user": json.dumps(me), "client_id": fake.oauth.client_id}
        await route.fulfill(status=200, content_type="text/html", body=html)

    def authorize(args: str) -> str:
        code = fake.oauth.authorize(code_for or user, tuple(json.loads(args).get("scope") or ()))
        codes.append(code)
        return code

    def authenticate(token: str) -> str | None:
        owner = fake.oauth.tokens.get(token)
        return json.dumps(me) if owner == user.id else None

    await page.route(f"{CLIENT_ORIGIN}/**", serve)
    await page.expose_function("discordAuthorize", authorize)
    await page.expose_function("discordAuthenticate", authenticate)
    await context.add_init_script(RECORD_EVENTS)
    client = Client(page, None, codes)
    page.on("response", client._response)
    page.on("request", lambda request: client.urls.append(request.url))
    await page.goto(f"{CLIENT_ORIGIN}/client.html")
    client.frame = await (await page.wait_for_selector("#activity")).content_frame()
    return client
