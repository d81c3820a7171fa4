"""Johari Bones commands: /draw, /swap, /score and /hand, and the private buttons and menus.

Placing a drawn bone uses the shared `/place` (cogs/verbs.py). Everything a player may see but
others may not reaches him only here (ephemeral replies) or in his DM panel (`bot.discord.panels`), always
drawn from his own view: the public board never carries more than the public view.

- Drawing (`/draw`, or the table's Draw button) posts the public board, which names no bone, and
  answers the drawer alone with his private panel (bot/discord/presses.py): his view and one button per
  place the bone may go; the button labels name the target and position only.
- The board's "Show my bones" button (the frontend's `hand` token, drawn as `ShowBonesButton`)
  and `/hand` answer the presser alone with his private panel: the picture of his view and the
  choices that depend on it (where the drawn bone goes, which box to score). `/hand` also works in a
  direct message with the bot: there it finds the user's running Johari games and asks which
  one with a menu when he plays several.
- Every custom_id carries only session ids, versions, player ids and positions, so the buttons
  work after a restart and carry no bone.
"""

from __future__ import annotations

import re

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.actions import Done, game_session, host_of, perform_game_command, play, pressed_session
from bot.discord.buttons import BUTTON_ITEMS
from bot.discord.presses import private_panel
from bot.play.host import Host, MoveOutcome, UserError
from bot.presentation.frontends.johari_bones import (
    HAND_TOKEN,
    score_action,
    score_preview,
    swap_action,
)
from bot.presentation.render.johari_bones import BOX_LABELS
from bot.presentation.words import game_label
from bot.storage.store import SessionRecord
from cogs.verbs import AI_OPTION, MAX_CHOICES, named_seat

SLUG = "johari-bones"
VIEW_FILE = "your-view.png"
NOT_PLAYING = "You aren't playing in this Johari Bones game, so you have no bones: the board shows all you may see."
KINDS = [app_commands.Choice(name="up (your face up for theirs)", value="up"),
         app_commands.Choice(name="in-out (your face in for their face out)", value="in-out")]


async def private_reply(session: SessionRecord, view: dict, player: str, legal: dict[str, list[dict]], *,
                        pictures: bool = True) -> dict:
    """Keyword arguments for one player's ephemeral panel: his own view, in words and picture (words only
    if he asked for text: bot.play.text_view), and his choices."""
    panel = await private_panel(session, view, player, legal, pictures=pictures)
    assert panel is not None, "a Johari player's panel always has words"
    return panel


async def hand_of(interaction: discord.Interaction, session: SessionRecord) -> Done:
    """The user's own panel for `session`, for him alone, or a refusal when he is not playing."""
    player = str(interaction.user.id)
    if player not in session.player_ids:
        raise UserError(NOT_PLAYING)
    if session.status == "lobby":
        raise UserError("This Johari Bones game has not begun yet: nobody holds bones.")
    host = host_of(interaction)
    view, legal = host.view_for(session, player), host.legal_by_player(session)
    pictures = await host.text_view.pictures_for(session.guild_id, player)
    panel = await private_reply(session, view, player, legal, pictures=pictures)
    return Done(private=panel, note_of=session.id)


async def draw(interaction: discord.Interaction) -> Done:
    """/draw: the table names no bone; the drawer alone sees it and where it may go."""
    player = str(interaction.user.id)
    session = await game_session(interaction, SLUG, "draw")
    host = host_of(interaction)
    outcome = await host.act(session.id, player, {"type": "draw"}, from_command=True)
    pictures = await host.text_view.pictures_for(session.guild_id, player)
    return Done.of(outcome, private=await private_reply(outcome.session, outcome.views_after[player], player,
                                                         outcome.legal, pictures=pictures))


def _squeezed(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch.isalnum())


BOX_NAMES = {_squeezed(name): box for box, label in BOX_LABELS.items() for name in (box, label)} | {
    "run4": "run4", "4run": "run4", "run5": "run5", "5run": "run5"}
"""What a player may type for a box: its name as shown ("Full House", "4 Run") or its key, in any case."""


def box_action(box: str) -> dict:
    """The /score action for a box named as the player sees it, refused with the list when it is no box."""
    found = BOX_NAMES.get(_squeezed(box))
    if found is None:
        raise UserError(f"Choose a box from the list: {', '.join(BOX_LABELS.values())}.")
    return score_action(found)


class ShowBonesButton(discord.ui.DynamicItem[discord.ui.Button],
                      template=r"parlor:johari-hand:(?P<session>[0-9]+)"):
    """"Show my bones" on the public board: the presser's own view, for him alone, at any time."""

    def __init__(self, session_id: int, version: int = 0, token: str = HAND_TOKEN, *,
                 label: str = "Show my bones", style: discord.ButtonStyle = discord.ButtonStyle.secondary) -> None:
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=f"parlor:johari-hand:{session_id}"))
        self.session_id = session_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str]) -> ShowBonesButton:
        return cls(int(match["session"]), label=item.label or "Show my bones", style=item.style)

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work() -> Done:
            return await hand_of(interaction, await pressed_session(interaction, self.session_id))

        await play(interaction, work, shows_table=False)


class GamePicker(discord.ui.DynamicItem[discord.ui.Select],
                 template=r"parlor:johari-pick:(?P<player>[0-9]+)"):
    """/hand in a DM for a player in several games: which game's bones to show."""

    def __init__(self, player: str, options: list[discord.SelectOption] | None = None) -> None:
        super().__init__(discord.ui.Select(custom_id=f"parlor:johari-pick:{player}", placeholder="Which game?",
                                           options=options or [discord.SelectOption(label="-")]))
        self.player = player

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Select,
                             match: re.Match[str]) -> GamePicker:
        return cls(match["player"], list(item.options))

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work() -> Done:
            values = (interaction.data or {}).get("values") or []
            if not values or not str(values[0]).isdigit():
                raise UserError("Choose one of the games in the menu.")
            hand = await hand_of(interaction, await host_of(interaction).session(int(values[0])))
            return Done(update=hand.private)

        await play(interaction, work)


def picker_option(client: discord.Client, host: Host, session: SessionRecord, player: str) -> discord.SelectOption:
    channel = client.get_channel(int(session.channel_id))
    where = f"in #{channel.name}" if channel is not None and hasattr(channel, "name") else "in its channel"
    turn = " · your turn" if player in host.to_act(session) else ""
    return discord.SelectOption(label=game_label(session)[:100], value=str(session.id),
                                description=f"{where}{turn}"[:100])


async def hand_anywhere(interaction: discord.Interaction) -> Done:
    """/hand: in a channel its Johari game; in a DM the user's game, or a menu when he plays several."""
    host = host_of(interaction)
    if interaction.guild_id is not None:
        return await hand_of(interaction, await game_session(interaction, SLUG, "hand"))
    player = str(interaction.user.id)
    sessions = [session for session in await host.store.sessions_with_player(player, ("active",))
                if session.slug == SLUG]
    if not sessions:
        raise UserError("You are not playing a Johari Bones game right now; `/game start` opens one in a channel.")
    if len(sessions) == 1:
        return await hand_of(interaction, sessions[0])
    options = [picker_option(interaction.client, host, session, player) for session in sessions[:MAX_CHOICES]]
    menu = discord.ui.View(timeout=None)
    menu.add_item(GamePicker(player, options))
    return Done(private={"content": "You play several Johari Bones games: which one?", "view": menu})


async def score_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Each open box with what the user's hand would score there, from his own view only."""
    host = host_of(interaction)
    player = str(interaction.user.id)
    try:
        session = await host.open_session(str(interaction.channel_id))
    except UserError:
        return []
    if session.slug != SLUG or session.status != "active" or player not in session.player_ids:
        return []
    view = host.view_for(session, player)
    partial = "" if view["phase"] in ("scoring", "over") else " (the bones you see so far)"
    needle = current.lower()
    return [app_commands.Choice(name=f"{BOX_LABELS[box]}: {points}{partial}", value=box)
            for box, points in score_preview(view, player).items()
            if needle in box or needle in BOX_LABELS[box].lower()][:MAX_CHOICES]


class JohariBones(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="draw", description="Johari Bones: draw the top bone of the pile (only you see it)")
    @app_commands.guild_only()
    async def draw(self, interaction: discord.Interaction) -> None:
        await play(interaction, lambda: draw(interaction))

    @app_commands.command(name="swap", description="Johari Bones: swap a bone with another player")
    @app_commands.describe(kind="up: face up for face up; in-out: your face in for their face out",
                           with_="The other player (@Parlor for an AI seat)", ai=AI_OPTION)
    @app_commands.rename(with_="with")
    @app_commands.choices(kind=KINDS)
    @app_commands.guild_only()
    async def swap(self, interaction: discord.Interaction, kind: app_commands.Choice[str],
                   with_: discord.User, ai: app_commands.Range[int, 1, 3] | None = None) -> None:
        async def work() -> MoveOutcome:
            session = await game_session(interaction, SLUG, "swap")
            other = named_seat(interaction, session, with_, ai)
            return await host_of(interaction).act(session.id, str(interaction.user.id), swap_action(kind.value, other),
                                                  from_command=True)

        await play(interaction, work)

    @app_commands.command(name="score", description="Johari Bones: score this hand in one of your open boxes")
    @app_commands.describe(box="An open box; the list shows what your hand scores in each")
    @app_commands.guild_only()
    async def score(self, interaction: discord.Interaction, box: str) -> None:
        await perform_game_command(interaction, SLUG, "score", lambda: box_action(box))

    @score.autocomplete("box")
    async def score_box(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await score_choices(interaction, current)

    @app_commands.command(name="hand", description="Johari Bones: a picture of every bone you may see (only you)")
    async def hand(self, interaction: discord.Interaction) -> None:
        await play(interaction, lambda: hand_anywhere(interaction), shows_table=False)


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(ShowBonesButton, GamePicker)
    BUTTON_ITEMS[(SLUG, HAND_TOKEN)] = ShowBonesButton
    await bot.add_cog(JohariBones(bot))
