"""What a table says, in Discord text (bold, code, mentions): built from views and session metadata only,
once, for every window. The Discord message shows it as it is; a web page turns its mentions into names
(bot.web.page_text). A wording fix here lands in both.

Where a player's name is escaped for markdown, the window passes its escape (`escape=`): the Discord window
discord.py's own, the web the same patterns without `discord` (bot.presentation.markdown).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from bot.play.ai_seats import AI_NAME, ai_name, is_ai_id
from bot.play.turn_clock import format_duration
from bot.play.turn_events import dropped_earlier
from bot.presentation.alt_text import shorten
from bot.presentation.frontend import display_name, joined, narrate
from bot.presentation.frontends import frontend_for
from bot.presentation.markdown import Escape, markdown_escaped
from bot.storage.store import MoveRecord, SessionRecord
from games import GAMES, get_game

TABLE_TEXT_MAX = 4000
"""Characters of a table's words (its embed's description): Discord allows 4,096; the rest is margin."""
EARLIER = "… (earlier moves: `/game log`)"
"""Where a table's oldest lines of what happened were, when they had to go (`fitted`)."""
APOLOGY = ("Sorry, something went wrong on my side. Nothing you did was lost: `/game status` shows where "
           "the game stands, and you can try again.")
MENTION = re.compile(r"<@!?([0-9]+)>")
LABEL_MAX = 80
"""A button's label; select options and placeholders allow 100 (`bot.presentation.frontend.MAX_TEXT`)."""


def named(text: str, names: Mapping[str, str], limit: int) -> str:
    """A label with each player mention (`<@id>`, which components cannot show) as that player's name."""
    return MENTION.sub(lambda match: names.get(match[1], "a player"), text)[:limit]


def headline(session: SessionRecord, escape: Escape = markdown_escaped) -> str | None:
    """The line above what happened: who the AI stands in for, who let a claimed game's clock run out,
    or how an abandoned table's game goes on."""
    standing = [escape(seat.name) for seat in session.players if seat.stand_in]
    if session.status == "active" and standing:
        return f"{AI_NAME} plays for {', '.join(standing)} until they take the seat back with `/game return`."
    if session.status == "finished" and session.end_reason == "timeout":
        idle = ", ".join(mention(p) for p in (session.result or {}).get("idle", []))
        return f"The game was claimed: {idle} let the turn clock run out."
    if session.status == "abandoned":
        return "**New game** (or `/game start`) opens a new one."  # "This game was abandoned." is said above
    return None


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


def turn_line(session: SessionRecord, public_view: dict, escape: Escape = markdown_escaped) -> str:
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
    return "\n".join([*lines, *ai_turn_lines(session, to_act, escape)])


def ai_turn_lines(session: SessionRecord, to_act: list[str], escape: Escape) -> list[str]:
    """What the AI is doing among those to act: playing a person's turn for him, or thinking in its own seat."""
    lines = []
    for seat in session.players:
        if seat.id in to_act and seat.stand_in:
            lines.append(f"{AI_NAME} is playing {escape(seat.name)}'s turn.")
        elif seat.id in to_act and seat.ai:
            lines.append(f"{mention(seat.id)} is thinking.")
    return lines


def watch_line(session: SessionRecord, public_view: dict, escape: Escape = markdown_escaped) -> str:
    """Whose turn it is as someone watching reads it (a web page): "@alice's turn. Roll the bonus die or keep the 6."
    where the table's message, which pings, says "@alice: your turn."; what is awaited is the game's own words
    (`Frontend.alt_awaited`: "@bob may call Jump!"), and the end of a game is said as the table says it."""
    if session.status != "active":
        return turn_line(session, public_view, escape)
    to_act = public_view.get("to_act") or []
    people = [p for p in to_act if p not in session.ai_played]
    lines = []
    if people:
        who = joined([mention(p) for p in people])
        turn = f"{who}'s turn." if len(people) == 1 else f"{who} to act."
        awaited = frontend_for(session.slug).alt_awaited(public_view, text_names(session))
        lines.append(f"{turn} {awaited}".strip())
    return "\n".join([*lines, *ai_turn_lines(session, to_act, escape)])


def move_prompt(session: SessionRecord, public_view: dict, own_view: dict, player: str) -> str:
    """What `player`'s move box asks of him (a web page), from his own view: his game's words for what he holds
    (`Frontend.choice_prompt`: "Place the 5-5 on…"), else what the table asks of him ("Your opponent can jump:
    press **Call Jump!**…", "Your turn. Roll the bonus die or keep the 6."); "" when the game awaits nothing of him."""
    if session.status != "active":
        return ""
    frontend = frontend_for(session.slug)
    names = text_names(session)
    own = frontend.choice_prompt(own_view, names, player)
    if own:
        return own
    asked = frontend.prompts(public_view).get(player)
    if asked:
        return asked[:1].upper() + asked[1:]
    if player not in (public_view.get("to_act") or []) or player in session.ai_played:
        return ""
    words = frontend.turn_words(public_view, player)
    awaited = frontend.alt_awaited(public_view, names) if words == "your turn" else ""
    return f"{words[:1].upper()}{words[1:]}. {awaited}".strip()


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
    """A table's words within `limit` (docs/players.md, "Without sight or colour"): the headline, what happened and
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


def board_content(session: SessionRecord, public_view: dict, escape: Escape = markdown_escaped) -> str | None:
    """The message text: whose turn it is (or the result) and what the others may do now."""
    prompts = frontend_for(session.slug).prompts(public_view) if session.status == "active" else {}
    content = "\n".join([turn_line(session, public_view, escape),
                         *(f"{mention(player)}: {text}" for player, text in prompts.items())]).strip()
    return content or None


def lobby_waiting(session: SessionRecord) -> list[str]:
    """Who is invited to an open lobby and has not joined: the card mentions them."""
    return [p for p in session.invited if p not in session.player_ids] if session.status == "lobby" else []


def lobby_lines(session: SessionRecord) -> list[str]:
    """The lobby card's words. A lobby closed before its game began says so and nothing more: nobody is
    invited to a lobby that is gone."""
    if session.status != "lobby":
        closed = ("The lobby is empty and has been closed." if session.end_reason == "empty lobby"
                  else "The lobby was closed before its game began.")
        return [closed, "`/game start` opens a new game."]
    return _open_lobby_lines(session, lobby_waiting(session))


def _open_lobby_lines(session: SessionRecord, waiting: list[str]) -> list[str]:
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


def games_list() -> str:
    """Every game with its `game:` value, for `/game rules` and `/game start`."""
    lines = []
    for slug, game in GAMES.items():
        seats = (f"{game.min_players}" if game.min_players == game.max_players
                 else f"{game.min_players}–{game.max_players}")
        lines.append(f"• **{game.title}**: `game:{slug}` ({seats} players)")
    return "\n".join(lines)


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
              escape: Escape | None = markdown_escaped) -> list[str]:
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

