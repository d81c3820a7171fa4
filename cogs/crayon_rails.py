"""Crayon Rails commands: /keep, /build, /pickup, /drop, /lock, /deliver, /pitch, /upgrade, /endturn,
and /cities (a private list of cities, their supplies and open demands, to plan routes).

Moving uses the shared `/move` (cogs/verbs.py); a derailed player chooses his lost load with the
buttons under the board. `/build to:` first shows the builder alone (an ephemeral message) the proposed
track on the map with Confirm and Cancel buttons; `/build path:` names the exact mileposts and builds at once.
The Confirm button carries the session, the version it was drawn for, the builder and the target
milepost, so it still works after a restart: the engine recomputes the same track from the same
state (the host refuses it once anything else has moved) and validates it again.
"""

from __future__ import annotations

import contextlib
import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.actions import Done, game_session, guarded, host_of, perform_game_command, play, pressed_session
from bot.discord.attachments import attachment
from bot.discord.replies import EMBED_COLOUR
from bot.play.host import UserError
from bot.presentation.alt_text import step_alt, update_label
from bot.presentation.frontends.crayon_cities import cities_text, city_choices
from bot.presentation.frontends.crayon_rails import FRONTEND, build_target, build_toward
from bot.presentation.words import image_names, mention
from bot.runtime.drawing import draw_off_loop
from cogs.verbs import autocomplete_number, autocomplete_verb

SLUG = "crayon-rails"
PREVIEW_FILE = "build-preview.png"
Choices = list[app_commands.Choice[str]]


async def act(interaction: discord.Interaction, command: str, **options: Any) -> None:
    """Run one of the game's commands on the channel's game and post the board."""
    await perform_game_command(interaction, SLUG, command, lambda: FRONTEND.command_action(command, options))


async def preview_build(interaction: discord.Interaction, to: str) -> None:
    """Show the builder alone where `/build to:` would lay track, with Confirm and Cancel."""

    async def work() -> Done:
        host = host_of(interaction)
        session = await game_session(interaction, SLUG, "build")
        player = str(interaction.user.id)
        target = build_target(to)
        events = host.preview(session, player, build_toward(target))
        public, names = host.public_view(session), image_names(session)
        text = FRONTEND.build_preview_text(public, events, target)
        embed = discord.Embed(title="Build preview", description=text, colour=EMBED_COLOUR)
        private: dict[str, Any] = {}
        if await host.text_view.pictures_for(session.guild_id, player):  # else the words alone: bot.play.text_view
            png = await draw_off_loop(FRONTEND.build_preview_picture, public, names, events)
            alt = step_alt(session, public, names, FRONTEND.build_preview_alt(public, events, target))
            private["file"] = attachment(png, PREVIEW_FILE, description=alt)
            embed.set_image(url=f"attachment://{PREVIEW_FILE}")
        embed.set_footer(text=f"Game #{session.id} · {update_label(session)} · only you see this")
        view = discord.ui.View(timeout=None)
        view.add_item(BuildPreviewButton(session.id, session.version, player, target, "go"))
        view.add_item(BuildPreviewButton(session.id, session.version, player, target, "no"))
        return Done(private={**private, "content": "Confirm to build, or cancel.", "embed": embed, "view": view,
                             "allowed_mentions": discord.AllowedMentions.none()})

    await play(interaction, work)


class BuildPreviewButton(discord.ui.DynamicItem[discord.ui.Button],
                         template=r"parlor:crayon-build:(?P<session>[0-9]+):(?P<version>[0-9]+):(?P<player>[0-9]+)"
                                  r":(?P<target>[A-X][0-9]{1,2}):(?P<choice>go|no)"):
    """Confirm (`go`) or Cancel (`no`) a previewed `/build to:` on the builder's private preview."""

    def __init__(self, session_id: int, version: int, player: str, target: str, choice: str) -> None:
        label, style = ("Confirm", discord.ButtonStyle.success) if choice == "go" else (
            "Cancel", discord.ButtonStyle.secondary)
        super().__init__(discord.ui.Button(
            label=label, style=style,
            custom_id=f"parlor:crayon-build:{session_id}:{version}:{player}:{target}:{choice}"))
        self.session_id, self.version, self.player, self.target, self.choice = (
            session_id, version, player, target, choice)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str]) -> BuildPreviewButton:
        return cls(int(match["session"]), int(match["version"]), match["player"], match["target"], match["choice"])

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work() -> Done:
            if str(interaction.user.id) != self.player:
                raise UserError(f"Only {mention(self.player)} can confirm or cancel this build; "
                                "use /build to plan your own.")
            session = await pressed_session(interaction, self.session_id)
            if session.version != self.version:
                # A refusal, left there unless this preview's Confirm, pressed at the same moment (a double
                # click), built it: then it shows that (bot.discord.private_presses).
                raise UserError("The game has changed since this preview, so it was not built: use `/build` again.")
            if self.choice == "no":
                return Done(update={"content": "Build cancelled: nothing was built."})
            host = host_of(interaction)
            outcome = await host.act(self.session_id, self.player, build_toward(self.target),
                                     expected_version=self.version)
            return Done.of(outcome, update={"content": "Built: see the table."})

        await play(interaction, work)


async def show_cities(interaction: discord.Interaction, city: str | None) -> None:
    """Answer privately with the cities, their supplies and the asker's open demands."""

    async def work() -> None:
        view, names = None, {}
        with contextlib.suppress(UserError):
            session = await game_session(interaction, SLUG, "cities")
            view, names = host_of(interaction).public_view(session), image_names(session)
        text = cities_text(view, str(interaction.user.id), names, city)
        embed = discord.Embed(title="Crayon Rails cities", description=text[:4000], colour=EMBED_COLOUR)
        await interaction.response.send_message(embed=embed, ephemeral=True)

    await guarded(interaction, work)


TRAINS = [app_commands.Choice(name=f"{name} (20)", value=name) for name in ("fast", "heavy", "super")]


class CrayonRails(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="keep", description="Crayon Rails setup: keep up to two offered cards privately")
    @app_commands.describe(cards='Card:demand pairs, e.g. "17:0 23:2"; leave out to keep none')
    @app_commands.guild_only()
    async def keep(self, interaction: discord.Interaction, cards: str | None = None) -> None:
        await act(interaction, "keep", cards=cards)

    @keep.autocomplete("cards")
    async def keep_cards(self, interaction: discord.Interaction, current: str) -> Choices:
        return await autocomplete_verb(interaction, "keep", "cards", current)

    @app_commands.command(name="build", description="Crayon Rails: build track toward a place or along a path")
    @app_commands.describe(to="A city or milepost: shows the cheapest affordable track to confirm",
                           path='Exact mileposts, e.g. "C8 D8 E9": built at once')
    @app_commands.guild_only()
    async def build(self, interaction: discord.Interaction, to: str | None = None, path: str | None = None) -> None:
        if to and not path:
            await preview_build(interaction, to)
        else:
            await act(interaction, "build", to=to, path=path)

    @build.autocomplete("to")
    async def build_to(self, interaction: discord.Interaction, current: str) -> Choices:
        return await autocomplete_verb(interaction, "build", "to", current)

    @app_commands.command(name="pickup", description="Crayon Rails: pick up a load where your train stands")
    @app_commands.describe(load="A load this city supplies")
    @app_commands.guild_only()
    async def pickup(self, interaction: discord.Interaction, load: str) -> None:
        await act(interaction, "pickup", load=load)

    @pickup.autocomplete("load")
    async def pickup_load(self, interaction: discord.Interaction, current: str) -> Choices:
        return await autocomplete_verb(interaction, "pickup", "load", current)

    @app_commands.command(name="drop", description="Crayon Rails: drop an unlocked load at this city")
    @app_commands.describe(load="A load aboard")
    @app_commands.guild_only()
    async def drop(self, interaction: discord.Interaction, load: str) -> None:
        await act(interaction, "drop", load=load)

    @drop.autocomplete("load")
    async def drop_load(self, interaction: discord.Interaction, current: str) -> Choices:
        return await autocomplete_verb(interaction, "drop", "load", current)

    @app_commands.command(name="lock", description="Crayon Rails: lock a pool card's demand with a load you carry")
    @app_commands.describe(card="The pool card's number", demand="Which demand of it: 0, 1 or 2")
    @app_commands.guild_only()
    async def lock(self, interaction: discord.Interaction, card: int, demand: app_commands.Range[int, 0, 2]) -> None:
        await act(interaction, "lock", card=card, demand=demand)

    @lock.autocomplete("card")
    async def lock_card(self, interaction: discord.Interaction, current: Any) -> list[app_commands.Choice[int]]:
        return await autocomplete_number(interaction, "lock", "card", current)

    @lock.autocomplete("demand")
    async def lock_demand(self, interaction: discord.Interaction, current: Any) -> list[app_commands.Choice[int]]:
        return await autocomplete_number(interaction, "lock", "demand", current)

    @app_commands.command(name="deliver", description="Crayon Rails: deliver a locked load here for its payoff")
    @app_commands.describe(card="The card's number", demand="Its locked demand: 0, 1 or 2")
    @app_commands.guild_only()
    async def deliver(self, interaction: discord.Interaction, card: int,
                      demand: app_commands.Range[int, 0, 2]) -> None:
        await act(interaction, "deliver", card=card, demand=demand)

    @deliver.autocomplete("card")
    async def deliver_card(self, interaction: discord.Interaction, current: Any) -> list[app_commands.Choice[int]]:
        return await autocomplete_number(interaction, "deliver", "card", current)

    @deliver.autocomplete("demand")
    async def deliver_demand(self, interaction: discord.Interaction,
                             current: Any) -> list[app_commands.Choice[int]]:
        return await autocomplete_number(interaction, "deliver", "demand", current)

    @app_commands.command(name="pitch", description="Crayon Rails: give up your turn to discard three pool cards")
    @app_commands.guild_only()
    async def pitch(self, interaction: discord.Interaction) -> None:
        await act(interaction, "pitch")

    @app_commands.command(name="upgrade", description="Crayon Rails: upgrade your train for 20 instead of building")
    @app_commands.describe(train="fast (12/2) or heavy (9/3) from freight; super (12/3) from fast or heavy")
    @app_commands.choices(train=TRAINS)
    @app_commands.guild_only()
    async def upgrade(self, interaction: discord.Interaction, train: app_commands.Choice[str]) -> None:
        await act(interaction, "upgrade", train=train.value)

    @app_commands.command(name="cities", description="Crayon Rails: cities, their supplies and open demands (private)")
    @app_commands.describe(city="One city in detail: who supplies what it wants, where its loads are wanted")
    async def cities(self, interaction: discord.Interaction, city: str | None = None) -> None:
        await show_cities(interaction, city)

    @cities.autocomplete("city")
    async def cities_city(self, interaction: discord.Interaction, current: str) -> Choices:
        return [app_commands.Choice(name=label[:100], value=value) for label, value in city_choices(current)][:25]

    @app_commands.command(name="endturn", description="Crayon Rails: end your turn")
    @app_commands.guild_only()
    async def endturn(self, interaction: discord.Interaction) -> None:
        await act(interaction, "endturn")


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(BuildPreviewButton)
    await bot.add_cog(CrayonRails(bot))
