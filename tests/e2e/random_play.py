"""Players who only press what they can see: the generic harness for playing a game by components alone.

After the lobby (`/game start`, then **Join**/**Begin**), every step is a press chosen at random among
what some player can see right now: the components of the channel's latest table, of the private
replies that player got since the table last changed, and of the bot's last direct message to him.
Select menus get a random offered option (or several, for a multi-select); forms are filled by the
game's `fill` (default: a small random number in every box).

The checks, on every press:
- a press is either accepted, or refused privately *because the component is meant for someone else*
  (`bot.discord.presses.not_yours`). Any other refusal means a menu offered something the player could not use;
- every message the bot sent stays within Discord's limits (the fake Discord refuses it otherwise);
- no slash command is used once the game has begun;
- every file the bot sent has alt text (its description) naming whose turn it is now, or who won
  (`check_alt_text`), the same for everyone's picture: the table, a private panel, a step's map.

The table's Undo is left alone unless `undo_share` is set: then a step presses a shown Undo (for
whoever drew it, refused for all but its player) with that probability, so games still end.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bot.client import ParlorBot
from bot.presentation.words import image_names
from tests.e2e.helpers import table as table_in
from tests.fakediscord import FakeDiscord
from tests.fakediscord.components import BUTTON, STRING_SELECT, TEXT_INPUT, walk
from tests.fakediscord.interactions import InteractionResult
from tests.fakediscord.state import FakeChannel, FakeMessage, FakeUser

TURN = re.compile(r", update \d+\. (?:(?P<one>[^.]+?)'s turn|(?P<many>[^.]+?) to act|Game over: (?P<won>[^.]+?) won)\.")
NOT_YOURS = re.compile(r"^(That is for .+ to use, not you\.|You are not playing in this game: that is for .+)")
Fill = Callable[[random.Random, dict[str, Any]], dict[str, str]]


def fill_numbers(rng: random.Random, modal: dict[str, Any]) -> dict[str, str]:
    """Every text input of a form gets a small whole number."""
    return {c["custom_id"]: str(rng.randint(0, 12)) for c in walk(modal["components"]) if c.get("type") == TEXT_INPUT}


@dataclass
class Offer:
    """One thing a player could press now."""

    user: FakeUser
    message: FakeMessage
    component: dict[str, Any]


@dataclass
class RandomPlay:
    """Plays the channel's game to its end by random presses; counts what happened."""

    fake: FakeDiscord
    bot: ParlorBot
    channel: FakeChannel
    users: list[FakeUser]
    rng: random.Random
    fill: Fill = fill_numbers
    undo_share: float = 0.0
    panels: dict[int, list[FakeMessage]] = field(default_factory=dict)
    presses: int = 0
    refusals: int = 0
    moves_seen: int = 0
    kinds: dict[str, int] = field(default_factory=dict)
    files_checked: int = 0
    alt_texts: list[str] = field(default_factory=list)

    async def open(self, slug: str) -> None:
        """The lobby: the first user starts the game, the others join, and it begins."""
        first, *others = self.users
        await self.fake.slash(first, "game start", channel=self.channel, game=slug)
        for user in others:
            lobby = table_in(self.fake, self.channel)
            await self.fake.click(user, lobby, lobby.button(label="Join")["custom_id"])
        session = await self.session()
        if session.status == "lobby":
            lobby = table_in(self.fake, self.channel)
            begin = await self.fake.click(first, lobby, lobby.button(label="Begin")["custom_id"])
            assert not begin.ephemeral, begin.response.content
        assert (await self.session()).status == "active"
        await self.check_alt_text()

    async def check_alt_text(self) -> None:
        """Every file sent since the last check describes the game as it stands (see the module docstring);
        with the AI seated, which moves on its own, it names seated players."""
        session = await self.session()
        names = image_names(session)
        if session.status == "finished":
            expected = {names[p] for p in session.result["winners"]}
        else:
            expected = {names[p] for p in self.bot.host.public_view(session)["to_act"]}
        ours = {self.channel.id, *(self.fake.dm_channel(user).id for user in self.users)}
        for message, attachment in self.fake.world.sent_files[self.files_checked:]:
            if message.author_id != self.fake.bot_user.id or message.channel_id not in ours:
                continue
            alt = attachment.description or ""
            assert alt.strip(), f"{attachment.filename} has no alt text"
            said = TURN.search(alt)
            assert said, f"{attachment.filename}'s alt text does not say whose turn it is: {alt!r}"
            who = said["one"] or said["many"] or said["won"]
            named = set() if who == "nobody" else set(re.split(r", | and ", who))
            if session.ai_played:  # the AI may have moved on since: the file names seated players
                assert named <= set(names.values()), f"{attachment.filename} names {who}"
            else:
                assert named == expected, f"{attachment.filename} names {who}, not {expected}"
            self.alt_texts.append(alt)
        self.files_checked = len(self.fake.world.sent_files)

    async def session(self):
        return await self.bot.host.last_session_in(str(self.channel.id))

    def table(self) -> FakeMessage | None:
        """The channel's newest message carrying components or a board: what every player sees."""
        for message in reversed(self.fake.messages(self.channel)):
            if message.author_id == self.fake.bot_user.id and (
                message.components or any(a.filename == "board.png" for a in message.attachments)
            ):
                return message
        return None

    def signature(self) -> tuple:
        table = self.table()
        return (None,) if table is None else (table.id, table.edits, table.text)

    def offers(self) -> list[Offer]:
        found: list[Offer] = []
        table = self.table()
        for user in self.users:
            messages = [table] if table is not None else []
            messages += [m for m in self.panels.get(user.id, []) if not m.deleted]
            dms = [m for m in self.fake.dms(user) if m.components]
            messages += dms[-1:]
            for message in messages:
                for component in walk(message.components):
                    if component.get("disabled") or "custom_id" not in component:
                        continue
                    if component["type"] in (BUTTON, STRING_SELECT):
                        found.append(Offer(user, message, component))
        return found

    async def press(self, offer: Offer) -> InteractionResult:
        component, custom_id = offer.component, offer.component["custom_id"]
        if component["type"] == BUTTON:
            self.kinds["button"] = self.kinds.get("button", 0) + 1
            result = await self.fake.click(offer.user, offer.message, custom_id)
            if result.modal is not None:
                self.kinds["form"] = self.kinds.get("form", 0) + 1
                result = await self.fake.submit_modal(offer.user, result, self.fill(self.rng, result.modal))
            return result
        options = [option["value"] for option in component["options"]]
        low, high = component.get("min_values", 1), component.get("max_values", 1)
        chosen = self.rng.sample(options, self.rng.randint(max(low, 1), high))
        self.kinds["select"] = self.kinds.get("select", 0) + 1
        return await self.fake.select(offer.user, offer.message, custom_id, chosen)

    async def step(self) -> None:
        offers = self.offers()
        assert offers, "the game is running but nobody has anything to press"
        undos = [o for o in offers if o.component["custom_id"].startswith("parlor:undo:")]
        offers = [o for o in offers if o not in undos] or undos
        if undos and self.undo_share and self.rng.random() < self.undo_share:
            offer = self.rng.choice(undos)
            self.kinds["undo"] = self.kinds.get("undo", 0) + 1
        else:
            offer = self.rng.choice(offers)
        before = self.signature()
        result = await self.press(offer)
        self.presses += 1
        await self.check_alt_text()
        changed = self.signature() != before
        produced = result.messages
        refusal = [m for m in produced if m.ephemeral and not m.components and not m.attachments
                   and m is not offer.message]
        if not changed and refusal:
            text = refusal[0].content
            what = offer.component.get("label") or offer.component
            assert NOT_YOURS.match(text), f"{offer.user.name} pressed {what} and was refused: {text!r}"
            self.refusals += 1
            return
        if changed:
            self.moves_seen += 1
            self.panels = {}
        private = [m for m in produced if (m.ephemeral or m.visible_to) and m.components]
        if offer.message.visible_to is not None and offer.message not in private:
            self.panels[offer.user.id] = [m for m in self.panels.get(offer.user.id, []) if m is not offer.message]
        for message in private:
            mine = self.panels.setdefault(offer.user.id, [])
            if message not in mine:
                mine.append(message)

    async def play_to_the_end(self, max_presses: int = 4000) -> None:
        await self.check_alt_text()
        for _ in range(max_presses):
            if (await self.session()).status != "active":
                return
            await self.step()
        raise AssertionError(f"the game did not end within {max_presses} presses")
