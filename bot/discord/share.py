"""Private answers their reader may show everyone: a **Share** button that posts the answer in the channel.

Lists and pictures about people (`/leaderboard`, `/stats`, `/game history`) answer privately, so the
channel stays quiet; the one who asked may then post it for all with one press. How to use it:

    @shareable("leaderboard")                    # once, at import: how to build that answer
    async def leaderboard_message(interaction, argument: str) -> dict: ...   # send() keyword arguments

    await answer_privately(interaction, "leaderboard", slug)   # in the command

The button's custom_id names the kind of answer and its one argument (`parlor:share:<kind>:<argument>`),
and the answer is built afresh when it is pressed: nothing is kept in memory, so a Share pressed after a
restart still works (it shows the answer as it is then). Pressing it posts once, with "Shared by <name>"
and no pings, and takes the button off the private answer. Two presses at once (a double click, two
devices) post once: the private answer's id is taken before anything is awaited, so the second press is
told it was shared (the ids are kept in memory, a bounded few; after a restart the button is gone anyway).
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.discord.actions import acknowledge, guarded
from bot.discord.replies import as_edit
from bot.play.host import UserError
from bot.presentation.user_text import MESSAGE_MAX

Sharer = Callable[[discord.Interaction, str], Awaitable[dict[str, Any]]]
SHARERS: dict[str, Sharer] = {}
ARGUMENT_MAX = 64
UNKNOWN_KIND = "That Share button belongs to an older version of the bot: ask again, then share."
ALREADY_SHARED = "That answer is already shared in the channel."
SHARED_KEPT = 1000
SHARED: OrderedDict[int, None] = OrderedDict()
"""Private answers shared (or being shared) by this process, newest last: a second press posts nothing."""


def _claim_share(message: discord.Message | None) -> bool:
    """Take the private answer for one posting; False when a press already took it (no await in here)."""
    if message is None:
        return True
    if message.id in SHARED:
        return False
    SHARED[message.id] = None
    while len(SHARED) > SHARED_KEPT:
        SHARED.popitem(last=False)
    return True


def shareable(kind: str) -> Callable[[Sharer], Sharer]:
    """Register how to build the answer of `kind` (a lower-case word) from the interaction and one argument."""
    if not re.fullmatch(r"[a-z][a-z-]{0,19}", kind):
        raise ValueError(f"share kind {kind!r} must be a short lower-case word")

    def register(sharer: Sharer) -> Sharer:
        SHARERS[kind] = sharer
        return sharer

    return register


class ShareButton(discord.ui.DynamicItem[discord.ui.Button],
                  template=r"parlor:share:(?P<kind>[a-z][a-z-]{0,19}):(?P<argument>[^:]{0,64})"):
    """Share on a private answer: builds the answer again and posts it in the channel."""

    def __init__(self, kind: str, argument: str = "") -> None:
        if len(argument) > ARGUMENT_MAX or ":" in argument:
            raise ValueError(f"share argument {argument!r} is longer than {ARGUMENT_MAX} or holds ':'")
        super().__init__(discord.ui.Button(label="Share", style=discord.ButtonStyle.secondary, emoji="📣",
                                           custom_id=f"parlor:share:{kind}:{argument}"))
        self.kind = kind
        self.argument = argument

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str]) -> ShareButton:
        return cls(match["kind"], match["argument"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await share(interaction, self.kind, self.argument)


def share_view(kind: str, argument: str = "") -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(ShareButton(kind, argument))
    return view


async def answer_privately(interaction: discord.Interaction, kind: str, argument: str = "") -> None:
    """Answer with the `kind` answer for the user alone, with a Share button (refusals stay private too)."""
    async def work() -> None:
        await acknowledge(interaction)
        message = await SHARERS[kind](interaction, argument)
        await interaction.edit_original_response(**as_edit({**message, "view": share_view(kind, argument)}))

    await guarded(interaction, work)


async def share(interaction: discord.Interaction, kind: str, argument: str) -> None:
    """The Share press: post the answer publicly (no pings), then take the button off the private one."""
    async def work() -> None:
        sharer = SHARERS.get(kind)
        if sharer is None:
            raise UserError(UNKNOWN_KIND)
        if not _claim_share(interaction.message):
            raise UserError(ALREADY_SHARED)
        try:
            await interaction.response.defer()
            message = await sharer(interaction, argument)
            name = getattr(interaction.user, "display_name", None) or interaction.user.name
            content = f"Shared by {discord.utils.escape_markdown(name)}:\n{message.get('content') or ''}".strip()
            await interaction.followup.send(**{**message, "content": content[:MESSAGE_MAX],
                                               "allowed_mentions": discord.AllowedMentions.none()})
        except BaseException:
            if interaction.message is not None:
                SHARED.pop(interaction.message.id, None)  # nothing was posted: a press may try again
            raise
        await interaction.edit_original_response(view=None)

    await guarded(interaction, work)
