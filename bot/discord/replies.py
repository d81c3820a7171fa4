"""The table's words (bot.presentation.words) as Discord messages: the board embed, the lobby card, the log;
and `as_edit`, which turns such a message into the edit that shows it in place of another.

Everything here reads views and session metadata only, never engine state, so
what reaches a channel is exactly what the public view allows.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from typing import Any

import discord

from bot.discord.activity_launch import PlayInDiscordButton
from bot.discord.attachments import attachment
from bot.discord.buttons import LobbyButton, ReplayButton, TableButton, UndoButton
from bot.discord.components import component_view
from bot.presentation.dice_table import FIELD_NAME
from bot.presentation.frontends import frontend_for
from bot.presentation.table_model import TableModel, lobby_model, table_model
from bot.presentation.user_text import MESSAGE_MAX
from bot.presentation.words import (
    command_line,
    game_label,
    games_list,
    image_names,
    latest_lines,
    paged,
)
from bot.storage.store import SessionRecord
from games import get_game

BOARD_FILE = "board.png"
WATCH_LABEL = "Watch on the web"
EMBED_COLOUR = discord.Colour.from_rgb(160, 90, 40)
LOG_MESSAGES_MAX = 5
"""Private messages `/game log` may answer with (10,000 characters); a longer log comes as a file."""


def as_edit(message: Mapping[str, Any]) -> dict[str, Any]:
    """`send` keyword arguments turned into an edit that shows exactly that message, whatever was there before.

    Discord keeps what an edit does not mention: an edit without a file would keep the old picture,
    one without an embed the old embed (e.g. a build preview's, with its picture). So the text, the
    attachments, the embed and the items are always replaced: a message without a file edits to no
    picture, without an embed to none, without a view to no buttons. `ephemeral` is only for sending.
    Both the tables (bot.discord.table) and the private replies (bot.discord.actions) edit through here.
    """
    edit = {key: value for key, value in message.items() if key not in ("ephemeral", "file", "files")}
    if "attachments" not in edit:
        file = message.get("file")
        edit["attachments"] = [file] if file is not None else list(message.get("files") or [])
    if "embeds" not in edit:
        edit.setdefault("embed", None)
    edit.setdefault("content", None)
    edit.setdefault("view", None)
    return edit


def escaped(names: Mapping[str, str]) -> dict[str, str]:
    """Names for words that name players without mentioning them (a player's private words, `/game log`),
    escaped so that Discord shows each as written, never its markdown."""
    return {player: discord.utils.escape_markdown(name) for player, name in names.items()}


def escaped_names(session: SessionRecord) -> dict[str, str]:
    """`escaped` names as pictures name the players now."""
    return escaped(image_names(session))


def _mentions(player_ids: Sequence[str]) -> discord.AllowedMentions:
    return discord.AllowedMentions(users=[discord.Object(int(p)) for p in player_ids if p.isdigit()],
                                   roles=False, everyone=False)


def board_embed(session: SessionRecord, public_view: dict, events: Sequence[dict] = (),
                headline: str | None = None, *, picture: bool = True) -> discord.Embed:
    """The board's embed (`table_embed`) of the table at `public_view`."""
    return table_embed(table_model(session, public_view, events, headline, picture=picture,
                                   escape=discord.utils.escape_markdown))


def table_embed(model: TableModel) -> discord.Embed:
    """The table's embed: headline, narration, the state in words, the picture as its image (none for a
    text-only table: bot.play.text_view), and the dice line in its own field so a long description never cuts it."""
    embed = discord.Embed(title=model.title, description=model.words or None, colour=EMBED_COLOUR)
    if model.alt is not None:
        embed.set_image(url=f"attachment://{BOARD_FILE}")
    embed.set_footer(text=model.footer)
    if model.dice is not None:
        embed.add_field(name=FIELD_NAME, value=model.dice, inline=False)
    return embed


def board_components(session: SessionRecord, public_view: dict,
                     legal: Mapping[str, list[dict]] | None = None, undoer: str | None = None,
                     web_url: str | None = None) -> discord.ui.View:
    """The items for the next step (`table_items`) of the table at `public_view`."""
    return table_items(table_model(session, public_view, legal=legal, undoer=undoer, picture=False,
                                   escape=discord.utils.escape_markdown), web_url)


def table_items(model: TableModel, web_url: str | None = None, activity: bool = False) -> discord.ui.View:
    """The items for the next step: the frontend's components (buttons, menus, forms) while the game
    runs, and Undo while someone may take his move back; Rematch and New game once it has finished;
    New game once abandoned; and a link to the web page."""
    view = component_view(model.slug, model.session_id, model.version, list(model.components), model.names)
    if model.undo_label is not None:
        with contextlib.suppress(ValueError):  # every row full: `/game undo` still works
            view.add_item(UndoButton(model.session_id, model.version, label=model.undo_label))
    for verb in model.end_offers:
        view.add_item(ReplayButton(model.session_id) if verb == "replay" else TableButton(model.session_id, verb))
    if activity and model.status == "active":
        with contextlib.suppress(ValueError):  # every row full: `/game activity` still opens it
            view.add_item(PlayInDiscordButton(model.session_id))
    if web_url is not None:
        with contextlib.suppress(ValueError):  # every row full: `/game web` still gives the link
            view.add_item(discord.ui.Button(label=WATCH_LABEL, style=discord.ButtonStyle.link, url=web_url))
    return view


def board_message(session: SessionRecord, public_view: dict, events: Sequence[dict] = (),
                  headline: str | None = None, *, png: bytes | None, ping: Sequence[str] = (),
                  with_buttons: bool = True, legal: Mapping[str, list[dict]] | None = None,
                  undoer: str | None = None, web_url: str | None = None, activity: bool = False) -> dict:
    """Keyword arguments for sending the board (`table_message`): the table at `public_view` with what happened
    (`events`) under the `headline`, its items drawn from `legal`, Undo named for `undoer`."""
    model = table_model(session, public_view, events, headline, legal=legal, undoer=undoer, ping=ping,
                        picture=png is not None, escape=discord.utils.escape_markdown)
    return table_message(model, png=png, with_buttons=with_buttons, web_url=web_url, activity=activity)


def table_message(model: TableModel, *, png: bytes | None, with_buttons: bool = True,
                  web_url: str | None = None, activity: bool = False) -> dict:
    """Keyword arguments for sending a table: embed, picture (with its alt text), items for the next step.
    Without `png`, the same message as text only (bot.play.text_view).

    Only the players the model pings are notified; every other mention in the text shows a name and
    pings nobody (docs/players.md: pings only when the turn changes).
    """
    message = {
        "content": model.content,
        "embed": table_embed(model),
        "view": table_items(model, web_url, activity) if with_buttons else discord.ui.View(timeout=None),
        "allowed_mentions": _mentions(model.ping),
    }
    if png is not None:
        message["file"] = attachment(png, BOARD_FILE, description=model.alt or "")
    return message


def lobby_message(session: SessionRecord, *, ping: Sequence[str] = ()) -> dict:
    """The lobby card (bot.presentation.table_model.lobby_model): who has joined, who is invited, and
    Join/Leave/Begin buttons."""
    card = lobby_model(session, ping=ping)
    view = discord.ui.View(timeout=None)
    for verb in card.verbs:
        view.add_item(LobbyButton(card.session_id, verb))
    embed = discord.Embed(title=card.title, description=card.text, colour=EMBED_COLOUR)
    embed.set_footer(text=card.footer)
    return {"content": card.content, "embed": embed, "view": view, "allowed_mentions": _mentions(card.ping)}


def rules_embed(slug: str) -> discord.Embed:
    game = get_game(slug)
    frontend = frontend_for(slug)
    embed = discord.Embed(title=f"{game.title}: the rules in brief", description=frontend.rules_text[:4000],
                          colour=EMBED_COLOUR)
    verbs = "\n".join(command_line(verb, hint) for verb, hint in {**frontend.verbs, **frontend.commands}.items())
    if verbs:
        embed.add_field(name="Commands", value=verbs[:1024], inline=False)
    return embed


def games_embed() -> discord.Embed:
    """`/game rules` with no game named and none in the channel: the games there are."""
    return discord.Embed(title="Parlor's games", colour=EMBED_COLOUR,
                         description=f"{games_list()}\n\n`/game rules game:<value>` gives one game's rules; "
                                     "`/game start game:<value>` opens a lobby for it.")


def log_messages(session: SessionRecord, lines: Sequence[str],
                 written: Sequence[str] | None = None) -> list[dict[str, Any]]:
    """`/game log`'s private answer (`send` keyword arguments, in order): the game so far told whole, from move 1.

    The log comes as messages of up to Discord's 2,000 characters, cut between moves, as many as
    `LOG_MESSAGES_MAX`; a longer one (a long Crayon Rails game) would flood its asker with private
    messages, so it comes as a text file, with the latest moves in the message (docs/players.md). The
    messages tell `lines` (names escaped: `log_lines`); the file, which is no Discord text, tells `written`
    (the same lines with names as written, `log_lines(escape=None)`) when given."""
    title = f"**{game_label(session)}**"
    if not lines:
        return [{"content": f"{title}\nNo moves yet."}]
    pages = paged([title, *lines], MESSAGE_MAX)
    if len(pages) <= LOG_MESSAGES_MAX:
        return [{"content": page} for page in pages]
    head = f"{title}\nThe whole log, {len(lines)} moves, is in the file below. The latest moves:"
    whole = "\n".join([game_label(session), *(lines if written is None else written)]) + "\n"
    log_file = attachment(whole.encode(), f"parlor-{session.slug}-{session.id}-log.txt",
                          description=f"The whole log of {game_label(session)}, {len(lines)} moves, as text.")
    return [{"content": f"{head}\n{latest_lines(lines, MESSAGE_MAX - len(head) - 1)}", "file": log_file}]


