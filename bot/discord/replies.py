"""Messages built from views: the board embed, the lobby card, the log; and `as_edit`, which turns
such a message into the edit that shows it in place of another.

Everything here reads views and session metadata only, never engine state, so
what reaches a channel is exactly what the public view allows.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import discord

from bot.discord.buttons import LobbyButton, TableButton, UndoButton
from bot.discord.components import LABEL_MAX, component_view
from bot.play.ai_seats import AI_NAME, ai_name, is_ai_id
from bot.play.turn_clock import format_duration
from bot.play.turn_events import dropped_earlier
from bot.presentation.alt_text import attachment, board_alt, shorten, update_label
from bot.presentation.dice_table import add_dice_field
from bot.presentation.frontend import display_name, narrate
from bot.presentation.frontends import frontend_for
from bot.presentation.user_text import MESSAGE_MAX
from bot.storage.store import MoveRecord, SessionRecord
from games import GAMES, get_game

BOARD_FILE = "board.png"
WATCH_LABEL = "Watch on the web"
EMBED_COLOUR = discord.Colour.from_rgb(160, 90, 40)
TABLE_TEXT_MAX = 4000
"""Characters of a table's words (its embed's description): Discord allows 4,096; the rest is margin."""
LOG_MESSAGES_MAX = 5
"""Private messages `/game log` may answer with (10,000 characters); a longer log comes as a file."""
EARLIER = "… (earlier moves: `/game log`)"
"""Where a table's oldest lines of what happened were, when they had to go (`fitted`)."""


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


def mention(player_id: str) -> str:
    """A person's mention; an AI seat is named in bold (it is no Discord user)."""
    if is_ai_id(player_id):
        return f"**{ai_name(player_id)}**"
    return f"<@{player_id}>"


def game_label(session: SessionRecord) -> str:
    """How a game is named in messages and lists: its title and number."""
    return f"{get_game(session.slug).title} #{session.id}"


def text_names(session: SessionRecord) -> dict[str, str]:
    """Names for text: mentions, which Discord shows as the member's name."""
    return {seat.id: mention(seat.id) for seat in session.players}


def image_names(session: SessionRecord) -> dict[str, str]:
    """Names for pictures, which cannot show a mention; a seat the AI stands in for says so."""
    return {seat.id: f"{seat.name} (AI)" if seat.stand_in else seat.name for seat in session.players}


def names_at(session: SessionRecord, seq: int) -> dict[str, str]:
    """Names as the table gave them at move `seq`: a person's seat says "(AI)" only for the moves in a stretch
    the AI played it (`Seat.stand_ins`), not for his own before the AI stood in or after he came back."""
    return {seat.id: f"{seat.name} (AI)" if seat.stood_in_at(seq) else seat.name for seat in session.players}


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


def turn_line(session: SessionRecord, public_view: dict) -> str:
    """Who must act now, with a mention, or how the game ended."""
    if session.status == "finished":
        winners = (session.result or {}).get("winners") or []
        if not winners:
            return "🏁 The game is over: nobody wins."
        names = ", ".join(mention(w) for w in winners)
        return f"🏁 The game is over. Winner{'s' if len(winners) > 1 else ''}: {names}!"
    if session.status == "abandoned":
        return "This game was abandoned."
    to_act = public_view.get("to_act") or []
    people = [p for p in to_act if p not in session.ai_played]
    frontend = frontend_for(session.slug)
    asked: dict[str, list[str]] = {}
    for player in people:
        asked.setdefault(frontend.turn_words(public_view, player), []).append(player)
    lines = [f"{', '.join(mention(p) for p in group)}: {words}." for words, group in asked.items()]
    for seat in session.players:
        if seat.id in to_act and seat.stand_in:
            lines.append(f"{AI_NAME} is playing {discord.utils.escape_markdown(seat.name)}'s turn.")
        elif seat.id in to_act and seat.ai:
            lines.append(f"{mention(seat.id)} is thinking.")
    return "\n".join(lines)


def waiting_line(session: SessionRecord, public_view: dict, now: float) -> str | None:
    """"⏳ Waiting on @bob for 3 h." for `/game status`; None when the game waits on nobody."""
    to_act = public_view.get("to_act") or []
    if session.status != "active" or not to_act:
        return None
    since = min((session.waiting_since or {}).get(p, session.updated_at) for p in to_act)
    return f"⏳ Waiting on {', '.join(mention(p) for p in to_act)} for {format_duration(now - since)}."


def narration(session: SessionRecord, events: Sequence[dict], names: dict[str, str]) -> list[str]:
    """What happened since the turn last changed, one line per event worth telling."""
    frontend = frontend_for(session.slug)
    lines = [EARLIER] if dropped_earlier(events) else []
    if any(event.get("type") == "began" for event in events):
        lines.append(f"The game begins: {', '.join(mention(p) for p in session.player_ids)}.")
    told = [event for event in events if event.get("type") != "began"]
    return [*lines, *(line for line in narrate(frontend, told, names) if line)]


def ended_view(session: SessionRecord, public_view: dict) -> dict:
    """The view as words tell it: an ended game waits on nobody, though the state an abandoned or claimed
    game stopped in still names whom it waited on."""
    return public_view if session.status == "active" else {**public_view, "to_act": []}


def state_words(session: SessionRecord, public_view: dict, names: dict[str, str]) -> str:
    """The game as it stands, in its frontend's words (`ended_view`)."""
    return frontend_for(session.slug).describe_state(ended_view(session, public_view), names)


def fitted(headline: str | None, told: Sequence[str], state: str, limit: int = TABLE_TEXT_MAX) -> str:
    """A table's words within `limit` (README, "Without sight or colour"): the headline, what happened and
    the state in words. Past the limit the oldest of what happened goes first (`EARLIER` says where it is),
    since the headline and the state, which ends with whose turn it is and what for, are what a reader
    needs; the latest line of what happened stays. A state too long alone loses its middle lines."""
    def text(*lines: str | None) -> str:
        return "\n".join(line for line in lines if line)

    already_cut = bool(told) and told[0] == EARLIER  # the turn's oldest events went before (bot.play.host)
    told = told[1:] if already_cut else told
    kept = list(told)
    while len(kept) > 1 and len(text(headline, EARLIER, *kept, state)) > limit:
        kept.pop(0)
    happened = [EARLIER, *kept] if already_cut or len(kept) < len(told) else kept
    whole = text(headline, *happened, state)
    if len(whole) <= limit:
        return whole
    first, *middle, last = state.split("\n") if "\n" in state else ("", state)
    room = limit - len(text(headline, *happened, first, "…", last))
    shown = shorten("\n".join(middle), room, ("\n", " ")) if room > 0 else ""
    return shorten(text(headline, *happened, first, shown or "…", last), limit, ("\n", " "))


def board_embed(session: SessionRecord, public_view: dict, events: Sequence[dict] = (),
                headline: str | None = None, *, picture: bool = True) -> discord.Embed:
    """The board's embed: headline, narration, the state in words, and the picture as its image
    (none for a text-only table: bot.play.text_view)."""
    names = text_names(session)
    description = fitted(headline, narration(session, events, names), state_words(session, public_view, names))
    embed = discord.Embed(title=get_game(session.slug).title, description=description or None, colour=EMBED_COLOUR)
    if picture:
        embed.set_image(url=f"attachment://{BOARD_FILE}")
    embed.set_footer(text=f"Game #{session.id} · {update_label(session)}")
    add_dice_field(embed, session)
    return embed


def board_components(session: SessionRecord, public_view: dict,
                     legal: Mapping[str, list[dict]] | None = None, undoer: str | None = None,
                     web_url: str | None = None) -> discord.ui.View:
    """The items for the next step: the frontend's components (buttons, menus, forms) while the game
    runs, drawn from every player's `legal` actions, and Undo (named for `undoer`) while someone may
    take his move back; Rematch and New game once it has finished; New game once abandoned."""
    components = (frontend_for(session.slug).components(public_view, legal or {})
                  if session.status == "active" else [])
    view = component_view(session.slug, session.id, session.version, components, image_names(session))
    if undoer is not None and session.status == "active":
        with contextlib.suppress(ValueError):  # every row full: `/game undo` still works
            view.add_item(UndoButton(session.id, session.version,
                                     label=f"Undo ({image_names(session).get(undoer, undoer)})"[:LABEL_MAX]))
    if session.status == "finished":
        view.add_item(TableButton(session.id, "rematch"))
    if session.status in ("finished", "abandoned"):
        view.add_item(TableButton(session.id, "new"))
    if web_url is not None:
        with contextlib.suppress(ValueError):  # every row full: `/game web` still gives the link
            view.add_item(discord.ui.Button(label=WATCH_LABEL, style=discord.ButtonStyle.link, url=web_url))
    return view


def board_content(session: SessionRecord, public_view: dict) -> str | None:
    """The message text: whose turn it is (or the result) and what the others may do now."""
    prompts = frontend_for(session.slug).prompts(public_view) if session.status == "active" else {}
    content = "\n".join([turn_line(session, public_view),
                         *(f"{mention(player)}: {text}" for player, text in prompts.items())]).strip()
    return content or None


def board_message(session: SessionRecord, public_view: dict, events: Sequence[dict] = (),
                  headline: str | None = None, *, png: bytes | None, ping: Sequence[str] = (),
                  with_buttons: bool = True, legal: Mapping[str, list[dict]] | None = None,
                  undoer: str | None = None, web_url: str | None = None) -> dict:
    """Keyword arguments for sending the board: embed, picture (with its alt text), items for the next step.
    Without `png`, the same message as text only (bot.play.text_view).

    Only the players in `ping` are notified; every other mention in the text shows a name and
    pings nobody (see README: pings only when the turn changes).
    """
    message = {
        "content": board_content(session, public_view),
        "embed": board_embed(session, public_view, events, headline, picture=png is not None),
        "view": (board_components(session, public_view, legal, undoer, web_url) if with_buttons
                 else discord.ui.View(timeout=None)),
        "allowed_mentions": _mentions(ping),
    }
    if png is not None:
        alt = board_alt(session, ended_view(session, public_view), image_names(session), events)
        message["file"] = attachment(png, BOARD_FILE, description=alt)
    return message


def lobby_message(session: SessionRecord, *, ping: Sequence[str] = ()) -> dict:
    """The lobby card: who has joined, who is invited, and Join/Leave/Begin buttons. A lobby closed before
    its game began says so and nothing more: nobody is invited to a lobby that is gone."""
    game = get_game(session.slug)
    waiting = [p for p in session.invited if p not in session.player_ids] if session.status == "lobby" else []
    view = discord.ui.View(timeout=None)
    if session.status == "lobby":
        lines = _lobby_lines(session, waiting)
        view.add_item(LobbyButton(session.id, "join"))
        view.add_item(LobbyButton(session.id, "leave"))
        if game.min_players < game.max_players:
            view.add_item(LobbyButton(session.id, "begin"))
    else:
        closed = ("The lobby is empty and has been closed." if session.end_reason == "empty lobby"
                  else "The lobby was closed before its game began.")
        lines = [closed, "`/game start` opens a new game."]
    embed = discord.Embed(title=f"Lobby: {game.title}", description="\n".join(filter(None, lines)),
                          colour=EMBED_COLOUR)
    embed.set_footer(text=f"Game #{session.id}")
    return {"content": " ".join(mention(p) for p in waiting) or None, "embed": embed, "view": view,
            "allowed_mentions": _mentions(ping)}


def _lobby_lines(session: SessionRecord, waiting: list[str]) -> list[str]:
    """An open lobby's card: the game, who has joined, who is invited, and how it begins."""
    game = get_game(session.slug)
    joined = ", ".join(mention(p) for p in session.player_ids)
    seats = (f"{game.min_players}" if game.min_players == game.max_players
             else f"{game.min_players}–{game.max_players}")
    lines = [f"**{game.title}** for {seats} players.", f"Joined: {joined}."]
    if waiting:
        lines.append(f"Invited: {', '.join(mention(p) for p in waiting)}: press **Join** or use `/game join` "
                     "(**Leave** declines).")
    if len(session.players) < game.max_players:
        lines.append("Anyone may press **Join**." if not waiting else "")
    if game.min_players < game.max_players:
        starter = mention(session.creator) if session.creator in session.player_ids else "A player"
        lines.append(f"{starter} starts it with **Begin** once {game.min_players} "
                     f"have joined; it begins by itself when {game.max_players} have.")
    return lines


def command_line(verb: str, hint: str) -> str:
    """One line of a game's "Commands": "`/move pawn:3 to:c4` — a line move along an arrow."

    A frontend's hint is "<usage> — <what it does>", its usage starting with the command as typed."""
    usage, _, what = hint.partition(" — ")
    if not usage.startswith(f"/{verb}"):
        usage, what = f"/{verb}", hint
    return f"`{usage}` — {what}" if what else f"`{usage}`"


def rules_embed(slug: str) -> discord.Embed:
    game = get_game(slug)
    frontend = frontend_for(slug)
    embed = discord.Embed(title=f"{game.title}: the rules in brief", description=frontend.rules_text[:4000],
                          colour=EMBED_COLOUR)
    verbs = "\n".join(command_line(verb, hint) for verb, hint in {**frontend.verbs, **frontend.commands}.items())
    if verbs:
        embed.add_field(name="Commands", value=verbs[:1024], inline=False)
    return embed


def games_list() -> str:
    """Every game with its `game:` value, for `/game rules` and `/game start`."""
    lines = []
    for slug, game in GAMES.items():
        seats = (f"{game.min_players}" if game.min_players == game.max_players
                 else f"{game.min_players}–{game.max_players}")
        lines.append(f"• **{game.title}**: `game:{slug}` ({seats} players)")
    return "\n".join(lines)


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
    messages, so it comes as a text file, with the latest moves in the message (see the README). The
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


def paged(lines: Sequence[str], limit: int) -> list[str]:
    """`lines` gathered into pages of at most `limit` characters, cut between lines (a longer line alone is cut)."""
    pages: list[str] = []
    for line in lines:
        for start in range(0, max(len(line), 1), limit):
            piece = line[start:start + limit]
            if pages and len(pages[-1]) + 1 + len(piece) <= limit:
                pages[-1] += f"\n{piece}"
            else:
                pages.append(piece)
    return pages


def latest_lines(lines: Sequence[str], limit: int) -> str:
    """The last of `lines` that fit in `limit` characters, after a "…" line when earlier ones had to go."""
    kept: list[str] = []
    size = -1
    for line in reversed(lines):
        if kept and size + 1 + len(line) > limit - 2:
            kept.append("…")
            break
        kept.append(line)
        size += 1 + len(line)
    return "\n".join(reversed(kept))[-limit:]


def log_lines(session: SessionRecord, moves: Sequence[tuple[MoveRecord, list[dict]]], *,
              escape: Callable[[str], str] | None = discord.utils.escape_markdown) -> list[str]:
    """One numbered line per move, as the table told it, with the names it gave the players then (`names_at`):
    the whole log, names escaped for Discord's text, or for a web page (`escape=bot.web.page_text.page_escaped`),
    or as written (`escape=None`) for a file, whose text is no markup."""
    frontend = frontend_for(session.slug)
    lines = []
    for move, events in moves:
        names = names_at(session, move.seq)
        if escape is not None:
            names = {player: escape(name) for player, name in names.items()}
        told = " ".join(narrate(frontend, events, names)) or f"{display_name(names, move.player)} moved."
        lines.append(f"{move.seq}. {told}")
    return lines
