"""Messages built from views: the board embed, the lobby card, the log.

Everything here reads views and session metadata only, never engine state, so
what reaches a channel is exactly what the public view allows.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence

import discord

from bot.ai_seats import ai_name, is_ai_id
from bot.buttons import LobbyButton
from bot.components import component_view
from bot.dice_table import add_dice_field
from bot.frontends import frontend_for
from bot.host import MoveOutcome
from bot.store import MoveRecord, SessionRecord
from bot.turn_clock import format_duration
from games import get_game

BOARD_FILE = "board.png"
EMBED_COLOUR = discord.Colour.from_rgb(160, 90, 40)


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
    if not to_act:
        return ""
    return f"{', '.join(mention(p) for p in to_act)}: your turn."


def waiting_line(session: SessionRecord, public_view: dict, now: float) -> str | None:
    """"⏳ Waiting on @bob for 3 h." for `/game status`; None when the game waits on nobody."""
    to_act = public_view.get("to_act") or []
    if session.status != "active" or not to_act:
        return None
    since = min((session.waiting_since or {}).get(p, session.updated_at) for p in to_act)
    return f"⏳ Waiting on {', '.join(mention(p) for p in to_act)} for {format_duration(now - since)}."


def board_message(session: SessionRecord, public_view: dict, events: Sequence[dict] = (),
                  headline: str | None = None, legal: Mapping[str, list[dict]] | None = None) -> dict:
    """Keyword arguments for `send_message`: the board embed, its picture and the next step's components.

    `legal` holds each player's legal actions, from which the frontend draws its menus; without it
    only the buttons the public view alone allows are drawn.
    """
    game = get_game(session.slug)
    frontend = frontend_for(session.slug)
    names = text_names(session)
    lines = [line for line in frontend.describe_events(list(events), names) if line]
    state_text = frontend.describe_state(public_view, names)
    description = "\n".join(filter(None, [headline, *lines, state_text]))[:4000]
    embed = discord.Embed(title=game.title, description=description or None, colour=EMBED_COLOUR)
    embed.set_image(url=f"attachment://{BOARD_FILE}")
    embed.set_footer(text=f"Game #{session.id} · move {session.version}")
    add_dice_field(embed, session)
    png = frontend.draw_board(public_view, image_names(session), list(events))
    components = frontend.components(public_view, legal or {}) if session.status == "active" else []
    view = component_view(session.slug, session.id, session.version, components, image_names(session))
    to_act = public_view.get("to_act") or []
    winners = (session.result or {}).get("winners") or []
    prompts = frontend.prompts(public_view) if session.status == "active" else {}
    content = "\n".join([turn_line(session, public_view),
                         *(f"{mention(player)}: {text}" for player, text in prompts.items())]).strip()
    return {
        "content": content or None,
        "embed": embed,
        "file": discord.File(io.BytesIO(png), filename=BOARD_FILE),
        "view": view,
        "allowed_mentions": _mentions([*to_act, *winners, *prompts]),
    }


def outcome_message(outcome: MoveOutcome) -> dict:
    return board_message(outcome.session, outcome.public_view, outcome.events, legal=outcome.legal)


def lobby_message(session: SessionRecord, note: str | None = None) -> dict:
    """The lobby card: who has joined, who is invited, and Join/Leave/Begin buttons."""
    game = get_game(session.slug)
    joined = ", ".join(mention(p) for p in session.player_ids)
    waiting = [p for p in session.invited if p not in session.player_ids]
    seats = (f"{game.min_players}" if game.min_players == game.max_players
             else f"{game.min_players}–{game.max_players}")
    lines = [f"**{game.title}** for {seats} players.", f"Joined: {joined}."]
    if waiting:
        lines.append(f"Invited: {', '.join(mention(p) for p in waiting)}: press **Join** or use `/game join`.")
    if len(session.players) < game.max_players:
        lines.append("Anyone may press **Join**." if not waiting else "")
    if game.min_players < game.max_players:
        starter = mention(session.creator) if session.creator in session.player_ids else "A player"
        lines.append(f"{starter} starts it with **Begin** once {game.min_players} "
                     f"have joined; it begins by itself when {game.max_players} have.")
    if note:
        lines.insert(0, note)
    embed = discord.Embed(title=f"Lobby: {game.title}", description="\n".join(filter(None, lines)),
                          colour=EMBED_COLOUR)
    embed.set_footer(text=f"Game #{session.id}")
    view = discord.ui.View(timeout=None)
    view.add_item(LobbyButton(session.id, "join"))
    view.add_item(LobbyButton(session.id, "leave"))
    if game.min_players < game.max_players:
        view.add_item(LobbyButton(session.id, "begin"))
    return {"content": " ".join(mention(p) for p in waiting) or None, "embed": embed, "view": view,
            "allowed_mentions": _mentions(waiting)}


def rules_embed(slug: str) -> discord.Embed:
    game = get_game(slug)
    frontend = frontend_for(slug)
    embed = discord.Embed(title=f"{game.title}: the rules in brief", description=frontend.rules_text[:4000],
                          colour=EMBED_COLOUR)
    verbs = "\n".join(f"`/{verb}`: {hint}" for verb, hint in {**frontend.verbs, **frontend.commands}.items())
    if verbs:
        embed.add_field(name="Commands", value=verbs[:1024], inline=False)
    return embed


def log_text(session: SessionRecord, moves: Sequence[tuple[MoveRecord, list[dict]]]) -> str:
    """The game so far as the table told it, with names: one numbered line per move; long logs keep the latest."""
    if not moves:
        return "No moves yet."
    frontend = frontend_for(session.slug)
    names = image_names(session)
    lines = []
    for move, events in moves:
        told = " ".join(frontend.describe_events(events, names)) or f"{session.name_of(move.player)} moved."
        lines.append(f"{move.seq}. {told}")
    text = "\n".join(lines)
    while len(text) > 1900:
        lines = lines[1:]
        text = "…\n" + "\n".join(lines)
    return text
