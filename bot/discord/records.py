"""A player's games and a channel's past ones: `/game list`, `/game history` and `/stats`.

Plain queries over the store, and the short texts the cogs send. Rulings: history shows games
that began (finished, or abandoned after the start), newest first; stats count finished games
only (an abandoned game has no result), per game, on the server asked about; games in which the AI
played a seat (its own, or standing in for an idle player) are counted apart from games between people,
except in the AI's own stats, which count only games with it.
"""

from __future__ import annotations

import contextlib
from collections import Counter
from dataclasses import dataclass, replace

import discord

from bot.discord.notices import channel_link
from bot.play.ai_seats import AI_NAME, is_ai_id
from bot.play.host import Host
from bot.play.turn_clock import format_duration
from bot.presentation.user_text import MESSAGE_MAX
from bot.presentation.words import game_label
from bot.storage.store import SessionRecord
from games import get_game

HISTORY_LIMIT = 15
END_REASONS = {"played out": "played to the end", "timeout": "claimed on the turn clock", "abandoned": "abandoned",
               "channel deleted": "abandoned: its channel was deleted"}


@dataclass(frozen=True)
class GameStats:
    slug: str
    played: int
    won: int
    against_ai: bool = False
    """Games in which Parlor's AI played a seat (its own, or standing in) are counted apart."""


async def games_of(host: Host, player: str, guild_id: str | None) -> list[SessionRecord]:
    """The lobbies and running games `player` sits in: on one server, or everywhere (None)."""
    return await host.store.sessions_with_player(player, ("lobby", "active"), guild_id)


async def history(host: Host, channel_id: str, limit: int = HISTORY_LIMIT) -> list[SessionRecord]:
    return await host.store.sessions_where(
        "channel_id = ? AND (status = 'finished' OR (status = 'abandoned' AND state IS NOT NULL))"
        " ORDER BY id DESC LIMIT ?", (channel_id, limit))


async def stats(host: Host, player: str, guild_id: str) -> list[GameStats]:
    finished = await host.store.sessions_with_player(player, ("finished",), guild_id)
    rows = []
    for against_ai in (False, True):
        games = [session for session in finished if session.against_ai == against_ai]
        played = Counter(session.slug for session in games)
        won = Counter(session.slug for session in games if _won(session, player))
        rows += [GameStats(slug, played[slug], won[slug], against_ai) for slug in sorted(played)]
    return rows


async def player_name(host: Host, player: str, guild_id: str, interaction: discord.Interaction) -> str:
    """How to call `player`: the user the command named, or the server's member (asked of Discord: the bot
    keeps no member list), else his seat's name in his latest game here."""
    if player.isdigit():
        for user in (getattr(interaction.namespace, "user", None), interaction.user):
            if isinstance(user, discord.abc.User) and user.id == int(player):
                return getattr(user, "display_name", None) or user.name
        if interaction.guild is not None:
            with contextlib.suppress(discord.HTTPException):
                member = await interaction.guild.fetch_member(int(player))
                return member.display_name
    for session in await host.store.sessions_with_player(player, ("finished", "active", "abandoned"), guild_id):
        return session.name_of(player)
    return "That player"


def _won(session: SessionRecord, player: str) -> bool:
    """Whether `player` won; asked about the AI (its first seat's id), a win by any AI seat counts."""
    winners = (session.result or {}).get("winners", [])
    return player in winners or (is_ai_id(player) and any(is_ai_id(winner) for winner in winners))


def game_list_text(host: Host, player: str, sessions: list[SessionRecord], *, everywhere: bool) -> str:
    if not sessions:
        where = "anywhere" if everywhere else "on this server"
        return f"You are not in any game {where}. `/game start` opens one."
    lines = [f"**Your games{'' if everywhere else ' on this server'}:**"]
    now = host.clock()
    for session in sessions:
        lines.append(f"• {game_label(session)} in {channel_link(session)}: "
                     f"{_turn_summary(host, session, player, now)}")
    return "\n".join(lines)[:MESSAGE_MAX]


def _turn_summary(host: Host, session: SessionRecord, player: str, now: float) -> str:
    if session.status == "lobby":
        return f"lobby, {len(session.players)} joined"
    to_act = host.to_act(session)
    if not to_act:
        return "in progress"
    since = min((session.waiting_since or {}).get(p, session.updated_at) for p in to_act)
    waited = format_duration(now - since)
    if player in to_act:
        others = [discord.utils.escape_markdown(session.name_of(p)) for p in to_act if p != player]
        return f"**your turn**{' (with ' + ', '.join(others) + ')' if others else ''}, for {waited}"
    return f"waiting on {', '.join(discord.utils.escape_markdown(session.name_of(p)) for p in to_act)} for {waited}"


def history_text(sessions: list[SessionRecord]) -> str:
    if not sessions:
        return "No game has finished in this channel yet."
    lines = ["**Past games in this channel:**"]
    for session in sessions:
        lines.append(f"• {game_label(session)}, <t:{int(session.updated_at)}:d>: "
                     f"{result_summary(session)}")
    return "\n".join(lines)[:MESSAGE_MAX]


def result_summary(session: SessionRecord) -> str:
    reason = END_REASONS.get(session.end_reason or "", session.end_reason or "ended")
    if session.status == "abandoned":
        return reason
    winners = [discord.utils.escape_markdown(session.name_of(p)) for p in (session.result or {}).get("winners", [])]
    won = f"won by {', '.join(winners)}" if winners else "nobody won"
    return f"{won} ({reason})"


def stats_text(name: str, rows: list[GameStats], *, of_ai: bool = False) -> str:
    """`/stats`' counts. Asked about Parlor's AI itself (`of_ai`), every game counted is one with the AI: they
    are not set apart from games between people it never plays, and a line says which games these are."""
    name = discord.utils.escape_markdown(name)  # a display name, shown as written (Share posts it)
    if not rows:
        return f"{name} has not finished a game on this server yet."
    lines = [f"**{name} on this server:**"]
    if of_ai:
        lines.append("The games in which it had a seat of its own (a win by any of its seats is its win):")
        rows = [replace(row, against_ai=False) for row in rows]
    for row in rows:
        against = f" with {AI_NAME}" if row.against_ai else ""
        lines.append(f"• {get_game(row.slug).title}{against}: {row.played} played, {row.won} won")
    people = [row for row in rows if not row.against_ai]
    if people:  # with none, "All games: 0 played" would deny the games with the AI just listed
        lines.append(f"All games: {sum(r.played for r in people)} played, {sum(r.won for r in people)} won"
                     f"{' (between people)' if len(people) < len(rows) else ''}")
    if len(people) < len(rows):
        with_ai = [row for row in rows if row.against_ai]
        lines.append(f"All games with {AI_NAME}: {sum(r.played for r in with_ai)} played, "
                     f"{sum(r.won for r in with_ai)} won")
    return "\n".join(lines)
