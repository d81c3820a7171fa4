"""A game's story told again: each update of its table, rebuilt from the move log.

The table drew `draw_board(ended_view(session, view), image_names(session), session.turn_events)` after every
committed move; a replay draws the same call for each move replayed from the log, so each frame is the very
picture the table showed then (tests/bot/test_replay.py compares the bytes). Only the public view is ever drawn:
a Johari Bones replay holds no bone the public table did not show.

Rulings (where nothing asked said otherwise):
- The first update is the table as the game began (its setup, the "began" narration), then one per logged
  move, undo entries included (the table showed those too). A game that ended without a move of its own
  (abandoned, or claimed on the turn clock) gets one more update: its final table, exactly as it stands.
- Crayon Rails is told per turn: the update at which the turn passed (its narration then holds the whole
  turn's steps), plus the first and the last.
- Names are the picture names of the seats, "(AI)" on a person's seat only for the moves the AI made for him
  (`Seat.stood_in_at`); the final update uses the names the final table uses.
- The move line under a frame is what the move did, told as the table narrates it (`narrate`), in words.
- Only finished games are replayed (a running game has its table); nothing private is ever offered.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from bot.play.turn_events import turn_events
from bot.presentation.frontend import narrate
from bot.presentation.frontends import frontend_for
from bot.presentation.words import ended_view, image_names, names_at
from bot.storage.store import MoveRecord, SessionRecord
from games import get_game
from games.record import replay_log

PER_TURN = frozenset({"crayon-rails"})
"""Games told one frame per turn, not per move: their turns hold many small steps (building track)."""


@dataclass(frozen=True)
class Update:
    """One update of the table: what it drew and what the move that made it did."""

    seq: int
    """The move that made it (0: the table as the game began)."""
    view: dict
    """The public view, as the table drew it (an ended game's waits on nobody)."""
    events: list[dict]
    """The table's narrated events then (bot.play.host.turn_events)."""
    names: dict[str, str]
    lines: list[str] = field(default_factory=list)
    """What the move did, in words: the table's narration of its own events."""
    player: str | None = None
    dice: list[int] = field(default_factory=list)
    """The dice the move rolled, as logged."""
    turn_passed: bool = False
    """Whether the players to act changed with this move (a turn change: a frame may hold longer)."""


def updates(session: SessionRecord, moves: Sequence[MoveRecord]) -> list[Update]:
    """Every update of the table from the game's setup and `moves` (its whole log). Pure: it replays the game,
    so it runs in a worker thread."""
    if session.setup_outcomes is None:
        return []
    game = get_game(session.slug)
    frontend = frontend_for(session.slug)
    steps = replay_log(game, session.player_ids, session.options, session.setup_outcomes,
                       ((move.player, move.action, move.outcomes) for move in moves))
    state, _ = next(steps)
    told: list[dict] = [{"type": "began"}]
    found = [Update(0, game.view(state, None), told, names_at(session, 0))]
    for move, (after, events) in zip(moves, steps, strict=True):
        finished = game.result(after) is not None
        before_to_act, after_to_act = game.to_act(state), [] if finished else game.to_act(after)
        told = turn_events(session.model_copy(update={"turn_events": told}), before_to_act, after_to_act, events)
        names = names_at(session, move.seq)
        found.append(Update(move.seq, game.view(after, None), told, names, narrate(frontend, events, names),
                            move.player, list(move.outcomes.get("rolls", [])),
                            set(before_to_act) != set(after_to_act)))
        state = after
    last = found[-1]
    final = Update(last.seq, ended_view(session, last.view), session.turn_events, image_names(session),
                   last.lines, last.player, last.dice, True)
    if session.status == "active" or session.end_reason == "played out":
        found[-1] = final
    else:
        found.append(Update(last.seq, final.view, final.events, final.names, [ending_line(session)]))
    return found


def ending_line(session: SessionRecord) -> str:
    """What ended a game that its last move did not end."""
    return {"abandoned": "The game was abandoned.", "timeout": "The game was claimed on the turn clock."}.get(
        session.end_reason or "", "The game ended.")


def frames_of(session: SessionRecord, found: Sequence[Update]) -> list[Update]:
    """The updates a replay shows: all of them, or for a game told per turn (`PER_TURN`), the first, each at
    which the turn passed, and the last."""
    if session.slug not in PER_TURN or len(found) < 3:
        return list(found)
    return [found[0], *(update for update in found[1:-1] if update.turn_passed), found[-1]]


def picture(slug: str, update: Update) -> bytes:
    """The table's picture at `update`: the game's own `draw_board`, as the table called it."""
    return frontend_for(slug).draw_board(update.view, update.names, update.events)
