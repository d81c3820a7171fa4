"""Parlor's persistent controls read strictly: an id that matches a template but not its kind is out of date.

A component's custom_id carries everything its press needs (bot.discord.buttons, bot.discord.components), and
discord.py hands a press to the item whose template matches it. Discord sends only ids Parlor drew, on the
component Parlor drew them on; but an id that matches a template on another kind of component (a button's id
on a select menu), or a number no session can have (beyond 2^63), would otherwise raise inside discord.py and
leave the press unanswered. `strictly` answers those with `OUT_OF_DATE`, privately, with no traceback; an id
naming another game's session (a Johari Bones control on a John Henry game) is refused the same way by its
handler (`OUT_OF_DATE` as a UserError).
"""

from __future__ import annotations

import contextlib
import logging
import re
from collections.abc import Awaitable, Callable
from typing import Any

import discord

log = logging.getLogger(__name__)

OUT_OF_DATE = "That control is out of date: use the latest table's buttons."
NUMBER_MAX = 2**63 - 1
"""The largest session number or snowflake an id may name (the databases' signed 64-bit integers)."""


def fits(match: re.Match[str]) -> bool:
    """Whether every number the id names fits in a signed 64-bit integer."""
    return all(not value.isdigit() or int(value) <= NUMBER_MAX for value in match.groupdict().values() if value)


class OutOfDate(discord.ui.DynamicItem[discord.ui.Item], template=r"parlor:"):
    """Stands for a control whose id Parlor cannot use: its press is answered `OUT_OF_DATE`. Never registered."""

    async def callback(self, interaction: discord.Interaction) -> None:
        log.info("interaction %s: control %r is not one Parlor can use; answered as out of date", interaction.id,
                 self.custom_id)
        await answer_out_of_date(interaction)


async def answer_out_of_date(interaction: discord.Interaction) -> None:
    with contextlib.suppress(discord.HTTPException):
        if not interaction.response.is_done():
            await interaction.response.send_message(OUT_OF_DATE, ephemeral=True)


Reader = Callable[[Any, discord.Interaction, Any, re.Match[str]], Awaitable[Any]]


def strictly(kind: type[discord.ui.Item]) -> Callable[[Reader], Reader]:
    """Decorate a DynamicItem's `from_custom_id` (under @classmethod): an id on another `kind` of component, or
    naming a number beyond 2^63, becomes an `OutOfDate` item instead of raising."""

    def wrap(read: Reader) -> Reader:
        async def from_custom_id(cls: Any, interaction: discord.Interaction, item: Any,
                                 match: re.Match[str]) -> Any:
            if not isinstance(item, kind) or not fits(match):
                return OutOfDate(item)
            return await read(cls, interaction, item, match)

        from_custom_id.__doc__ = read.__doc__
        return from_custom_id

    return wrap
