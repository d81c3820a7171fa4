"""The verbs several games share: `/roll`, `/move`, `/place`.

One command per verb, with options covering every game that uses it; the
channel's game turns them into its action (through its frontend) and explains
when an option is missing or the verb does not fit.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.actions import host_of, perform_in_channel
from bot.play.ai_seats import AI_PREFIX
from bot.play.host import UserError
from bot.presentation.frontends import frontend_for
from bot.storage.store import SessionRecord

MAX_CHOICES = 25


AI_OPTION = "Johari Bones: which of Parlor's AI seats you name with @Parlor (1, 2 or 3) when it has several"


def named_seat(interaction: discord.Interaction, session: SessionRecord, user: discord.abc.User,
               ai: int | None = None) -> str:
    """The seat a typed user option names: a person's own, or an AI seat when he names @Parlor.

    Ruling: `ai:` picks among several AI seats ("Parlor (AI 2)" is `ai:2`); with one AI seat it
    may be left out. A seat the AI stands in for is named by its person, as on the table.
    """
    bot = interaction.client.user
    if bot is None or user.id != bot.id:
        if ai is not None:
            raise UserError("`ai:` goes with @Parlor, to say which of its seats you mean.")
        return str(user.id)
    seats = [seat for seat in session.players if seat.ai]
    if not seats:
        raise UserError("Parlor's AI has no seat of its own in this game: name one of the players.")
    if ai is None and len(seats) == 1:
        return seats[0].id
    chosen = next((seat for seat in seats if seat.id == f"{AI_PREFIX}{ai}"), None)
    if chosen is None:
        listed = ", ".join(f"`ai:{seat.id.removeprefix(AI_PREFIX)}` for {seat.name}" for seat in seats)
        raise UserError(f"Parlor's AI plays several seats here: say which with {listed}.")
    return chosen.id


async def act_on_verb(interaction: discord.Interaction, verb: str, *, ai: int | None = None,
                      target: discord.abc.User | None = None, **options: Any) -> None:
    """The channel's game turns the verb and its options into its action (or explains why not).

    `target` names a seat (bot.named_seat: a person, or @Parlor for an AI seat, `ai:` picking one)."""
    given = {key: value for key, value in options.items() if value is not None}

    def build(session: SessionRecord) -> dict:
        if target is not None:
            given["target"] = named_seat(interaction, session, target, ai)
        elif ai is not None:
            raise UserError("`ai:` goes with `target:@Parlor`, to say which of its seats you mean.")
        return frontend_for(session.slug).verb_action(verb, given)

    await perform_in_channel(interaction, build)


async def autocomplete_verb(interaction: discord.Interaction, verb: str, option: str,
                            current: str) -> list[app_commands.Choice[str]]:
    """Choices for `option` of `verb` from the user's legal actions in this channel's game.

    Ruling: with no game running here (none, or still a lobby) there is nothing to choose yet: an empty list,
    which Discord shows as no options (an error would show "Loading options failed")."""
    host = host_of(interaction)
    try:
        session = await host.open_session(str(interaction.channel_id))
    except UserError:
        return []
    if session.status != "active":
        return []
    legal = host.legal_actions(session, str(interaction.user.id))
    typed = {key: value for key, value in vars(interaction.namespace).items() if value is not None}
    pairs = frontend_for(session.slug).choices(verb, option, legal, typed, host.public_view(session),
                                               str(interaction.user.id))
    needle = current.lower()
    return [app_commands.Choice(name=label[:100], value=str(value)[:100])
            for label, value in pairs if needle in label.lower() or needle in str(value).lower()][:MAX_CHOICES]


async def autocomplete_number(interaction: discord.Interaction, verb: str, option: str,
                              current: Any) -> list[app_commands.Choice[int]]:
    """`autocomplete_verb` for an integer option: the frontend's values must be whole numbers."""
    found = await autocomplete_verb(interaction, verb, option, "" if current is None else str(current))
    return [app_commands.Choice(name=choice.name, value=int(choice.value)) for choice in found]


class Verbs(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="roll", description="Roll the dice in this channel's game")
    @app_commands.guild_only()
    async def roll(self, interaction: discord.Interaction) -> None:
        await act_on_verb(interaction, "roll")

    @app_commands.command(name="move", description="Move a pawn or a train in this channel's game")
    @app_commands.describe(pawn="Follow the Arrow: the pawn's number", to="Where to: a circle (c4) or a city",
                           path="Crayon Rails: mileposts to move along, e.g. F7 G7 H8")
    @app_commands.guild_only()
    async def move(self, interaction: discord.Interaction, to: str | None = None,
                   pawn: app_commands.Range[int, 1, 5] | None = None, path: str | None = None) -> None:
        await act_on_verb(interaction, "move", to=to, pawn=pawn, path=path)

    @move.autocomplete("to")
    async def move_to(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await autocomplete_verb(interaction, "move", "to", current)

    @move.autocomplete("pawn")
    async def move_pawn(self, interaction: discord.Interaction, current: Any) -> list[app_commands.Choice[int]]:
        return await autocomplete_number(interaction, "move", "pawn", current)

    @app_commands.command(name="place", description="Place pawns or a drawn bone in this channel's game")
    @app_commands.describe(order="Follow the Arrow: pawn numbers for columns a..e, e.g. 3 1 5 2 4",
                           target="Johari Bones: whose bone to replace (@Parlor for an AI seat)",
                           position="Johari Bones: which position",
                           city="Crayon Rails: the city to put your train on", ai=AI_OPTION)
    @app_commands.choices(position=[app_commands.Choice(name=p, value=p) for p in ("up", "in", "out")])
    @app_commands.guild_only()
    async def place(self, interaction: discord.Interaction, order: str | None = None,
                    target: discord.User | None = None,
                    position: app_commands.Choice[str] | None = None, city: str | None = None,
                    ai: app_commands.Range[int, 1, 3] | None = None) -> None:
        await act_on_verb(interaction, "place", order=order, target=target, ai=ai,
                          position=position.value if position else None, city=city)

    @place.autocomplete("city")
    async def place_city(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await autocomplete_verb(interaction, "place", "city", current)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Verbs(bot))
