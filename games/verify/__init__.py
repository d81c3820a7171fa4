"""Check a game record: `python -m games.verify record.json`.

Needs only the standard library and this package (no bot, no Discord, no database). It checks
that the seed matches the commitment the table showed, re-derives every die and shuffle from the
seed (see `games.dice`), replays every move through the engine with them, and prints the final
result, or the first step where anything disagrees: the commitment, an outcome the record holds
that the seed does not give, a move the rules refuse (or whose action holds a field the rules do not
read), events other than the record's, or a result other than the recorded one. Exit status: 0 when
the record checks out, 1 when it does not, 2 when the file is not a readable record.

`games` is read at call time, not imported from: this package is imported while `games`
builds its registry. Rulings: a step must use exactly the outcomes it recorded (one more or one fewer is a
disagreement); a game that ended "played out" must be over by the rules after its last move with
the recorded result, while an abandoned or claimed game must still have been running (its
recorded result, for a claim, must be the turn clock's: a win for everyone but the players the game
waited on, leaving out the seats Parlor's AI played then, since the AI never idles). An undo entry
(games.undo) is a step of its own: it takes its sequence number, uses no outcome, must be one the
rules of undoing allow (else "the rules refuse it"), and restores the state from before the move
it takes back.

What a check vouches for, and what it cannot: the seed, every die and shuffle, every move and its
events, and the ending follow from the commitment the table showed and the rules. The players'
names, the game's number and which seats Parlor's AI played (`ai_seats`, `stand_ins`) are as the bot
wrote them; nothing the table showed fixes them, so the verifier checks only that they name seated
players, and says so in its report. Nor can it tell a record cut short: an abandoned or claimed game
stops anywhere. (`/game verify` in the game's own server also compares the record, moves included,
with what the bot stored: bot.play.own_copy.)
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

import games
from games.core import IllegalMove, RecordingRandomness
from games.dice import SETUP_SEQ, DiceRandomness, commitment
from games.record import GameRecord, Outcomes, RecordedMove, timeout_result, with_names
from games.undo import Timeline, is_undo

MAX_MOVES = 100_000
"""A bound on the work one record may ask for (a real game has a few hundred moves)."""


class NotARecord(ValueError):
    """The input is not a Parlor game record; the message says why."""


@dataclass
class Verdict:
    """The outcome of a check: `ok`, the report's lines, and where it first disagreed."""

    ok: bool
    lines: list[str] = field(default_factory=list)
    seq: int | None = None
    """The step that disagreed (0 is the setup, then the move's sequence number)."""

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


def parse_record(data: str | bytes) -> GameRecord:
    """A record from JSON text, or `NotARecord` saying what is wrong with it."""
    try:
        raw = json.loads(data)
    except UnicodeDecodeError:
        raise NotARecord("not JSON: not even text (a picture, or another kind of file?)") from None
    except json.JSONDecodeError as error:
        raise NotARecord(f"not JSON ({error.msg.lower()} at line {error.lineno}, column {error.colno})") from None
    try:
        record = GameRecord.model_validate(raw)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(map(str, first.get("loc", ()))) or "record"
        raise NotARecord(f"not a Parlor game record: {where}: {first.get('msg', 'invalid')}") from None
    if record.game not in games.GAMES:
        raise NotARecord(f"not a Parlor game record: there is no game called {record.game!r}")
    if len(record.moves) > MAX_MOVES:
        raise NotARecord(f"not a Parlor game record: {len(record.moves)} moves is more than any game has")
    return record


def step_name(record: GameRecord, seq: int, move: RecordedMove | None = None) -> str:
    """How a report names a step: "the setup (step 0)" or "move 7 (Alice: roll)"."""
    if move is None:
        return f"the setup (step {SETUP_SEQ})"
    name = record.names.get(move.player, move.player)
    return f"move {seq} ({name}: {move.action.get('type', '?')})"


def action_problem(game: games.Game, action: dict[str, Any]) -> str | None:
    """Why a recorded action is not exactly one the rules read, or None.

    Engines ignore a field they do not know, so `{"type": "roll", "dice": [6, 6]}` replays as a plain
    roll: a record holding it would say something that was never played. Each of the action's fields
    must be one the engine reads (an undo is `{"type": "undo"}` alone); an action the engine refuses
    outright is left to the replay, which says why.
    """
    if is_undo(action):
        known = {"type"}
    else:
        try:
            parsed = game.actions.validate_python(dict(action))
        except ValidationError:
            return None
        known = set(parsed.model_dump(by_alias=True, exclude_unset=True))
    if unread := [key for key in action if key not in known]:
        return (f"its action holds {short_json(unread[0])}, which the rules do not read: the game ignores it, so "
                "the record says something that was not played")
    return None


def compare_outcomes(recorded: Outcomes, derived: dict[str, list[Any]]) -> str | None:
    """The first difference between what a step recorded and what the seed gives, in words."""
    for kind, noun in (("rolls", "die"), ("shuffles", "shuffle")):
        mine, true = getattr(recorded, kind), derived[kind]
        for index, (said, truth) in enumerate(zip(mine, true, strict=False), start=1):
            if said != truth:
                return f"{noun} {index} is recorded as {short_json(said)}, but the seed gives {short_json(truth)}"
        if len(mine) != len(true):
            return (f"the record holds {len(mine)} {kind}, but replaying the step uses {len(true)}")
    return None


def short_json(value: Any, limit: int = 120) -> str:
    text = json.dumps(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def verify(record: GameRecord) -> Verdict:
    """Check `record` from the commitment to the result; stop at the first disagreement."""
    game = games.GAMES[record.game]
    names = record.names
    title = f"{game.title} #{record.game_id}"
    lines = [f"{title}: {', '.join(names.values())}."]

    def fail(seq: int, where: str, problem: str) -> Verdict:
        lines.append(f"DISAGREES at {where}: {with_names(problem, names)}")
        return Verdict(ok=False, lines=lines, seq=seq)

    setup_name = step_name(record, SETUP_SEQ)
    try:
        committed = commitment(record.seed)
    except ValueError as error:
        return fail(SETUP_SEQ, setup_name, f"the seed is unreadable: {error}")
    if committed != record.commitment.lower():
        return fail(SETUP_SEQ, setup_name, f"the seed does not match the commitment: its SHA-256 is "
                    f"{committed}, the table showed {record.commitment}")
    if problem := seat_problem(record):
        return fail(SETUP_SEQ, setup_name, problem)
    lines.append(f"The seed matches the commitment {record.commitment}.")

    rng = RecordingRandomness(DiceRandomness(record.seed, SETUP_SEQ))
    try:
        timeline = Timeline(game, record.player_ids, game.new_game(record.player_ids, rng, record.options or None),
                            record.stand_ins)
    except IllegalMove as refusal:
        return fail(SETUP_SEQ, setup_name, f"the engine refuses the setup: {refusal.message}")
    if problem := compare_outcomes(record.setup, rng.outcomes):
        return fail(SETUP_SEQ, setup_name, problem)

    for expected_seq, move in enumerate(record.moves, start=1):
        where = step_name(record, move.seq, move)
        if move.seq != expected_seq:
            return fail(move.seq, where, f"its sequence number should be {expected_seq}")
        if problem := action_problem(game, move.action):
            return fail(move.seq, where, problem)
        rng = RecordingRandomness(DiceRandomness(record.seed, move.seq))
        try:
            events = timeline.step(move.player, move.action, rng)
        except IllegalMove as refusal:
            return fail(move.seq, where, f"the rules refuse it: {refusal.message}")
        except (RuntimeError, ValueError) as error:
            return fail(move.seq, where, f"replaying it fails: {error}")
        if problem := compare_outcomes(move.outcomes, rng.outcomes):
            return fail(move.seq, where, problem)
        if events != move.events:
            return fail(move.seq, where, f"the record says it did {_first_difference(move.events, events)}")

    final = game.result(timeline.state)
    last = step_name(record, len(record.moves), record.moves[-1]) if record.moves else setup_name
    if record.end == "played out":
        if final is None:
            return fail(len(record.moves), last, "the record says the game was played out, but by the rules "
                        "it was still running after this move")
        if final != record.result:
            return fail(len(record.moves), last, f"the rules give the result {short_json(final)}, the record says "
                        f"{short_json(record.result)}")
    elif final is not None:
        return fail(len(record.moves), last, f"the record says the game ended by {record.end}, but the rules "
                    "had already ended it here")
    elif record.end == "timeout":
        idle = [p for p in game.to_act(timeline.state) if p not in record.ai_played_at_end()]
        if not idle:
            return fail(len(record.moves), last, "the record says the game was claimed on the turn clock, but "
                        "it waited on nobody who could be idle")
        if record.result != (due := timeout_result(record.player_ids, idle)):
            return fail(len(record.moves), last, f"a claim here gives the result {short_json(due)}, the record "
                        f"says {short_json(record.result)}")
    elif record.result is not None:
        return fail(len(record.moves), last, "the record gives an abandoned game a result")
    lines.append(f"{replayed_words(len(record.moves))}, and every die and shuffle comes from the seed.")
    lines.append(result_line(record))
    lines += seat_lines(record)
    lines.append(VOUCHED)
    return Verdict(ok=True, lines=lines)


VOUCHED = ("Checked against the commitment and the rules: the seed, every die and shuffle, every move and "
           "the result. Not checked, as Parlor wrote them: the players' names, the game's number and which "
           "seats its AI played.")
"""What a check that passes vouches for (docs/players.md: "Dice anyone can check")."""


def seat_problem(record: GameRecord) -> str | None:
    """Whether the record's seats hang together: unique players, AI seats and stand-ins among them."""
    ids = record.player_ids
    if len(set(ids)) != len(ids):
        return "a player is seated twice"
    if unknown := [p for p in (*record.ai_seats, *record.stand_ins) if p not in ids]:
        return f"{unknown[0]} is said to be played by the AI but has no seat"
    if both := [p for p in record.stand_ins if p in record.ai_seats]:
        return f"{both[0]} is both an AI seat and a person's seat the AI stood in for"
    for player, periods in record.stand_ins.items():
        if any(len(period) != 2 for period in periods) or any(p[1] == -1 for p in periods[:-1]):
            return f"the stretches in which the AI stood in for {player} are not readable"
    return None


def seat_lines(record: GameRecord) -> list[str]:
    """Who Parlor's AI played for, in words (as recorded; see VOUCHED)."""
    names = record.names
    lines = [f"{names.get(p, p)} is Parlor's AI." for p in record.ai_seats]
    for player, periods in record.stand_ins.items():
        spans = ", ".join(f"moves {first}–{'the end' if last == -1 else last}" if last == -1 or last > first
                          else (f"move {first}" if last == first else f"no move (from move {first})")
                          for first, last in periods)
        lines.append(f"Parlor's AI stood in for {names.get(player, player)}: {spans}.")
    return lines


def _first_difference(recorded: list[dict], replayed: list[dict]) -> str:
    for index, (said, truth) in enumerate(zip(recorded, replayed, strict=False)):
        if said != truth:
            return f"{short_json(said)} where the engine answers {short_json(truth)} (event {index + 1})"
    return f"{len(recorded)} events where the engine answers {len(replayed)}"


def moves_words(count: int) -> str:
    """A number of moves in words: "1 move", "7 moves"."""
    return f"{count} move{'' if count == 1 else 's'}"


def replayed_words(count: int) -> str:
    """That every move replayed, in words that fit their number."""
    if count == 0:
        return "No move was made"
    return "The one move replays" if count == 1 else f"All {count} moves replay"


def result_line(record: GameRecord) -> str:
    """The recorded ending in words, with names."""
    names = record.names
    if record.end == "abandoned":
        return f"Result: abandoned after {moves_words(len(record.moves))}, without a winner."
    result = record.result or {}
    winners = ", ".join(names.get(p, p) for p in result.get("winners", [])) or "nobody"
    scores = result.get("scores") or {}
    score_text = ", ".join(f"{names.get(p, p)} {points}" for p, points in scores.items())
    how = "claimed on the turn clock" if record.end == "timeout" else "played to the end"
    return f"Result ({how}): won by {winners}" + (f"; scores: {score_text}." if score_text else ".")


def main(argv: Sequence[str] | None = None) -> int:
    """The command line: check one record file and print the report."""
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 1 or args[0] in ("-h", "--help"):
        print("usage: python -m games.verify record.json", file=sys.stderr)
        return 2
    try:
        record = parse_record(Path(args[0]).read_bytes())
    except OSError as error:
        print(f"cannot read {args[0]}: {error.strerror or error}", file=sys.stderr)
        return 2
    except NotARecord as error:
        print(f"{args[0]}: {error}", file=sys.stderr)
        return 2
    verdict = verify(record)
    print(verdict.text)
    print("OK: the record checks out." if verdict.ok else "NOT OK: the record does not check out.")
    return 0 if verdict.ok else 1
