"""Signed web addresses: the public page of a game, and a player's personal link to play it.

Both are signed with one secret (HMAC-SHA256): `WEB_SECRET` when set, else a random one the first
process stores in the database (`bot_meta`), so every process of the bot accepts the others' links.

- A game's public address, `/watch/<game>.<signature>`, names the game and never expires: game numbers
  are consecutive, and the signature keeps a stranger from watching every server's games by counting.
- A server's leaderboard, `/leaderboard/<server>.<signature>` (bot.web.leaderboard), likewise never expires.
- A player's personal address, `/play/<token>`, names the game, his Discord id, a generation and an
  expiry time, all signed. Asking `/game web` again stores a new generation (`web_links`), so every
  older link of his for that game stops working. A forged, expired, revoked or foreign token is refused
  with a `BadLink` that says what to do, and nothing is changed.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from dataclasses import dataclass

from bot.storage.store import Store

SECRET_KEY = "web_secret"
"""The `bot_meta` key of the generated secret."""
ASK_AGAIN = "Ask for a new one with `/game web` in the game's channel."


class BadLink(Exception):
    """A link that does not open a page; the message says why and what to do."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class Pass:
    """What a valid personal token grants: `player` plays game `session_id`."""

    session_id: int
    player: str
    generation: int
    expires: int


def b64(data: bytes) -> str:
    """Bytes as unpadded URL-safe base64: the part of a signed address that carries its facts."""
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Links:
    """Makes and checks the signed addresses; the store keeps the generations."""

    def __init__(self, store: Store, secret: bytes) -> None:
        self.store = store
        self._secret = secret

    @classmethod
    async def open(cls, store: Store, configured: str | None = None) -> Links:
        """The links of this bot: the configured secret, else the one stored (made by the first process)."""
        secret = configured or await store.meta_or_set(SECRET_KEY, secrets.token_urlsafe(32))
        return cls(store, secret.encode())

    def sign(self, kind: str, message: str) -> str:
        """A signature of `message` for one kind of address (`kind` keeps one kind's from opening another); the
        Activity signs its passes with it too (bot.activity.identity)."""
        return b64(hmac.new(self._secret, f"{kind}:{message}".encode(), hashlib.sha256).digest()[:18])

    # -- the public page -------------------------------------------------------

    def watch_key(self, session_id: int) -> str:
        return f"{session_id}.{self.sign('watch', str(session_id))}"

    def watched_session(self, key: str) -> int:
        """The game a public address names, or `BadLink`."""
        number, _, signature = key.partition(".")
        if not number.isdigit() or not hmac.compare_digest(signature, self.sign("watch", number)):
            raise BadLink("This is not a Parlor game page: check the link, or ask for it with `/game web` "
                          "in the game's channel.")
        return int(number)

    # -- a server's leaderboard ----------------------------------------------------

    def leaderboard_key(self, guild_id: str) -> str:
        return f"{guild_id}.{self.sign('leaderboard', guild_id)}"

    def leaderboard_guild(self, key: str) -> str:
        """The server a leaderboard's address names, or `BadLink`."""
        guild, _, signature = key.partition(".")
        if not guild.isdigit() or not hmac.compare_digest(signature, self.sign("leaderboard", guild)):
            raise BadLink("This is not a Parlor leaderboard: check the link, or ask for it with `/leaderboard`.")
        return guild

    # -- a player's personal page ------------------------------------------------

    async def issue(self, session_id: int, player: str, *, now: float, hours: float) -> tuple[str, Pass]:
        """A new personal token for `player` in the game; his older ones stop working."""
        generation = await self.store.next_web_generation(session_id, player)
        granted = Pass(session_id, player, generation, int(now + hours * 3600))
        return self.token_for(granted), granted

    def token_for(self, granted: Pass) -> str:
        body = f"{granted.session_id}.{granted.player}.{granted.generation}.{granted.expires}"
        return f"{b64(body.encode())}.{self.sign('play', body)}"

    async def check(self, token: str, *, now: float) -> Pass:
        """What `token` grants now, or `BadLink` (forged, expired, or replaced by a newer link)."""
        encoded, _, signature = token.partition(".")
        try:
            body = unb64(encoded).decode()
            session, player, generation, expires = body.split(".")
            granted = Pass(int(session), player, int(generation), int(expires))
        except (ValueError, UnicodeDecodeError):
            raise BadLink(f"This link is not a valid Parlor link. {ASK_AGAIN}") from None
        if not hmac.compare_digest(signature, self.sign("play", body)):
            raise BadLink(f"This link is not a valid Parlor link. {ASK_AGAIN}")
        if now >= granted.expires:
            raise BadLink(f"This link has expired. {ASK_AGAIN}")
        if await self.store.web_generation(granted.session_id, granted.player) != granted.generation:
            raise BadLink(f"This link was replaced by a newer one and no longer works. {ASK_AGAIN}")
        return granted
