"""`/game verify` in a game's own server: the record file compared with Parlor's own copy of the game.

The dice vouch for the moves a record holds, not that it holds them all: an abandoned or claimed game
cut back by a few moves replays as well as the whole, and a record naming this server's game number
with another seed may replay too (a game without dice replays under any seed). So a record of one
of this server's games must be Parlor's record of it, exactly. Rulings:

- The game is this server's when its number is one of this server's games (numbers are shared by
  every server, so another server's game, or a direct message, keeps the verifier's plain statement).
- Such a record must have the game's seed; its players' names, options, ending, result and AI seats
  must be the stored ones; and its moves must be the stored move log, move by move (player, action,
  dice and shuffles), none missing and none added. The first difference is named.
- A game of this server that has no record (still running, never begun, or begun before Parlor
  committed its dice) refuses any file that names it, comparing nothing else: a running game's moves
  and dice stay Parlor's until it ends.
"""

from __future__ import annotations

from itertools import zip_longest
from typing import Any

from bot.play.finishing import stand_ins_of
from bot.play.host import Host
from bot.storage.store import MoveRecord, SessionRecord
from games.dice import commitment
from games.record import WHO_PLAYED, GameRecord, Outcomes, RecordedMove
from games.verify import VOUCHED, Verdict, moves_words, short_json

FACT_NAMES = {"game": "the game", "players": "the players or their names", "options": "the options",
              "end": "how it ended", "result": "the result", "ai_seats": "the AI's seats",
              "stand_ins": "when the AI stood in"}


def stored_facts(session: SessionRecord) -> dict[str, Any]:
    """What a record says that no commitment fixes (the players' names, the AI's seats) and the ending,
    as the bot stored them: a record file of this server's game must say the same."""
    end = session.end_reason if session.end_reason in ("played out", "timeout") else "abandoned"
    result = None if session.result is None else {k: v for k, v in session.result.items() if k not in WHO_PLAYED}
    return {"game": session.slug, "game_id": session.id,
            "players": [{"id": seat.id, "name": seat.name} for seat in session.players],
            "options": session.options, "end": end, "result": result,
            "ai_seats": [seat.id for seat in session.players if seat.ai],
            "stand_ins": stand_ins_of(session)}


def why_no_record(session: SessionRecord) -> str | None:
    """Why a game has no record (yet), in words that follow its name; None when it has one."""
    if session.status in ("lobby", "active"):
        return "is still running"
    if session.state is None or session.setup_outcomes is None:
        return "never began"
    if session.dice_seed is None:
        return "began before Parlor committed its dice"
    return None


async def compare_with_stored(host: Host, record: GameRecord, verdict: Verdict, guild_id: str | None) -> Verdict:
    """Check a record of this server's game against the bot's own copy (see the module's rulings).

    A difference is a disagreement; a record of no game here keeps the verifier's plain statement of
    what it vouches for."""
    session = await host.store.session(record.game_id) if guild_id is not None else None
    if session is None or session.guild_id != guild_id:
        return verdict
    differences = await _differences(host, session, record)
    lines = [line for line in verdict.lines if line != VOUCHED]
    if differences:
        lines.append(f"DISAGREES with Parlor's own copy of game #{session.id} on this server: "
                     f"{'; '.join(differences)}.")
        return Verdict(ok=False, lines=lines, seq=verdict.seq)
    if not verdict.ok:
        return verdict
    lines.append(f"Every move, the players' names, the game's number and the AI's seats match Parlor's own "
                 f"copy of game #{session.id} on this server.")
    return Verdict(ok=True, lines=lines)


async def _differences(host: Host, session: SessionRecord, record: GameRecord) -> list[str]:
    """How the record differs from the stored game, in words; empty when it is Parlor's record of it."""
    if why := why_no_record(session):
        return [f"that game {why}, so Parlor has no record of it"]
    assert session.dice_seed is not None
    stored = GameRecord.model_validate({**record.model_dump(), **stored_facts(session)})
    differs = [label for key, label in FACT_NAMES.items() if getattr(stored, key) != getattr(record, key)]
    found = [f"{', '.join(differs)} differ"] if differs else []
    if record.seed.lower() != session.dice_seed.lower():
        return [f"its seed is another (the table showed the commitment {commitment(session.dice_seed)})", *found]
    if moved := moves_difference(record, await host.moves(session), session):
        found.append(moved)
    return found


def moves_difference(record: GameRecord, stored: list[MoveRecord], session: SessionRecord) -> str | None:
    """The first move in which the record and the stored move log differ, in words; None if none does."""
    for mine, theirs in zip_longest(record.moves, stored):
        if theirs is None:
            extra = len(record.moves) - len(stored)
            return (f"the file holds {moves_words(extra)} more than Parlor's copy, from move {mine.seq} "
                    f"({_said(record.names.get(mine.player, mine.player), mine.action)})")
        if mine is None:
            missing = len(stored) - len(record.moves)
            return (f"{moves_words(missing)} {'is' if missing == 1 else 'are'} missing from the file, from move "
                    f"{theirs.seq} ({_said(session.name_of(theirs.player), theirs.action)})")
        if problem := _move_difference(record, mine, theirs, session):
            return problem
    return None


def _move_difference(record: GameRecord, mine: RecordedMove, theirs: MoveRecord, session: SessionRecord
                     ) -> str | None:
    """How one move of the record differs from the stored one (its number, player, action or chance), or None."""
    outcomes = Outcomes.model_validate(theirs.outcomes)
    parts = [part for part, same in (("number", mine.seq == theirs.seq), ("player", mine.player == theirs.player),
                                     ("action", mine.action == theirs.action),
                                     ("dice and shuffles", mine.outcomes == outcomes)) if not same]
    if not parts:
        return None
    with_chance = "dice and shuffles" in parts
    filed = _said(record.names.get(mine.player, mine.player), mine.action, mine.outcomes if with_chance else None)
    kept = _said(session.name_of(theirs.player), theirs.action, outcomes if with_chance else None)
    return f"move {theirs.seq} differs in its {' and '.join(parts)}: the file has {filed}, Parlor's copy {kept}"


def _said(name: str, action: dict[str, Any], outcomes: Outcomes | None = None) -> str:
    """A move as a report quotes it: `alice: {"type": "roll"}`, with its chance when that is in question."""
    text = f"{name}: {short_json(action)}"
    return text if outcomes is None else f"{text} with {short_json(outcomes.model_dump())}"

