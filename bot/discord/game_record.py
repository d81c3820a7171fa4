"""`/game export` and `/game verify`: a finished game's record, and checking one in Discord.

Rulings (the table's dice line is `bot.presentation.dice_table`):

- `/game export [game]` sends the record of a finished game as a JSON file, privately to the
  asker (anyone on the server may export any of its finished games: they are over, so nothing in
  them is secret any more). Without a number it is the channel's latest game. A running game, a
  lobby that never began, and a game begun before dice were committed (no seed) are refused.
- `/game verify [record] [game]` checks an attached record file when one is given, otherwise the
  record of the finished game named (or the channel's latest), exactly as `python -m games.verify`
  does, and answers the asker alone. It works in a direct message with the bot too, for a file.
- In a server, a record of one of its games is also compared with Parlor's own copy (bot.play.own_copy).
- Building and checking a record replays the whole game, so both run in a worker thread.
"""

from __future__ import annotations

import asyncio

import discord

from bot.discord.attachments import attachment
from bot.play.host import Host, UserError
from bot.play.own_copy import compare_with_stored, stored_facts, why_no_record
from bot.play.replay import narrated
from bot.presentation.alt_text import ending
from bot.presentation.user_text import MESSAGE_MAX
from bot.presentation.words import game_label
from bot.storage.store import MoveRecord, SessionRecord
from games import get_game
from games.dice import commitment
from games.record import GameRecord, RecordedMove
from games.verify import NotARecord, Verdict, parse_record, verify

MAX_RECORD_BYTES = 8 * 1024 * 1024
"""The largest record file `/game verify` reads (a long Crayon Rails game is well under 1 MB)."""


def _not_over(session: SessionRecord) -> str:
    """Why a game has no record yet: a lobby is not "still running" to the player who opened it."""
    return "has not begun yet" if session.status == "lobby" else "is still running"


async def finished_session(host: Host, channel_id: str, guild_id: str | None, number: int | None) -> SessionRecord:
    """The game a user named (this server's game `number`), else the channel's latest one over.

    Without a number, a game still running in the channel stands aside for the one before it, and so
    does a lobby closed before its game began: the user asked for "the last game", and neither has a
    record. Only when the channel has no game over does its latest session answer, saying why.
    """
    if number is None:
        session = await host.last_game_in(channel_id, over=True) or await host.last_session_in(channel_id)
        if session.status in ("lobby", "active"):
            raise UserError(f"{game_label(session)} {_not_over(session)} and no earlier game of this channel has "
                            "ended. Its record holds the seed behind its dice, which stays secret until the "
                            "game ends: export or verify it once it is over.")
    else:
        found = await host.store.session(number)
        if found is None or found.guild_id != guild_id:
            raise UserError(f"There is no game #{number} on this server. `/game history` lists this channel's.")
        session = found
    label = game_label(session)
    if session.status in ("lobby", "active"):
        raise UserError(f"{label} {_not_over(session)}. Its record holds the seed behind its dice, which stays "
                        "secret until the game ends: export or verify it once it is over.")
    if why := why_no_record(session):
        raise UserError(f"{label} {why}, so it has no record.")
    return session


def build_record(session: SessionRecord, moves: list[MoveRecord]) -> GameRecord:
    """The record of a finished game, replayed from its move log to add each move's events."""
    assert session.dice_seed is not None and session.setup_outcomes is not None
    recorded = [RecordedMove(seq=move.seq, player=move.player, action=move.action, outcomes=move.outcomes,
                             events=events) for move, events in narrated(session, moves)]
    return GameRecord(commitment=commitment(session.dice_seed), seed=session.dice_seed,
                      setup=session.setup_outcomes, moves=recorded, **stored_facts(session))


async def record_of(host: Host, session: SessionRecord) -> GameRecord:
    moves = await host.moves(session)
    return await asyncio.to_thread(build_record, session, moves)


async def exported_file(host: Host, session: SessionRecord) -> discord.File:
    """`/game export`'s file: the record built and written as JSON in a worker thread, both as long as the game."""
    moves = await host.moves(session)
    return await asyncio.to_thread(lambda: record_file(build_record(session, moves)))


def record_file(record: GameRecord) -> discord.File:
    """The record as a JSON file; its description (alt text, bot.presentation.alt_text) says how the game ended."""
    data = record.model_dump_json(indent=1).encode()
    title = get_game(record.game).title
    return attachment(data, f"parlor-{record.game}-{record.game_id}.json",
                      description=f"The record of {title} #{record.game_id} as JSON, for /game verify. "
                                  f"{ending_words(record)}")


def ending_words(record: GameRecord) -> str:
    """How the recorded game ended, with the players' names."""
    if record.end == "abandoned":
        return "The game was abandoned."
    names = {player.id: player.name for player in record.players}
    return ending([names.get(winner, winner) for winner in (record.result or {}).get("winners") or []])


async def check_attachment(host: Host, attachment: discord.Attachment, guild_id: str | None) -> Verdict:
    """Read and check an uploaded record; a file that is not one is refused, saying why.

    In a server, a record of one of its games is also compared with the bot's own copy."""
    if attachment.size > MAX_RECORD_BYTES:
        raise UserError(f"That file is {attachment.size // 1024} KB; a game record is far smaller. "
                        "Attach the JSON file `/game export` sent you.")
    data = await attachment.read()
    try:
        record = await asyncio.to_thread(parse_record, data)
    except NotARecord as error:
        raise UserError(f"`{attachment.filename[:60]}` is {error}. Attach the JSON file `/game export` "
                        "sent you.") from None
    return await compare_with_stored(host, record, await asyncio.to_thread(verify, record), guild_id)


async def check_record(host: Host, record: GameRecord, guild_id: str | None) -> Verdict:
    return await compare_with_stored(host, record, await asyncio.to_thread(verify, record), guild_id)


def verdict_text(verdict: Verdict) -> str:
    """The verdict as `/game verify` answers it. The report is plain text full of what the file says (names,
    actions), so its markdown is escaped: a name like `**bob**` reads as written (docs/players.md)."""
    head = ("✅ The record checks out." if verdict.ok
            else "❌ The record does not check out.")
    text = f"{head}\n{discord.utils.escape_markdown(verdict.text)}"
    return text if len(text) <= MESSAGE_MAX else text[: MESSAGE_MAX - 1] + "…"
