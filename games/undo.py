"""Taking back a move: which moves may be undone, and replaying a move log that holds undos.

An undo is an entry of the move log like any move (`{"type": "undo"}`), so the log stays
append-only; replaying it restores the state from before the move it takes back, exactly. The
rules engines never see it: `Timeline` answers it from the states it kept while replaying.

Ruling (the same for every game; the per-game consequences are in each engine's docstring and
docs/players.md). A player may take back the latest move still standing when all of these hold:

1. It is his own, and nobody else has made an entry of the log since it (a move taken back,
   or an undo, counts: once another player has acted, the moves before stand for good).
2. It drew no chance: no die, no shuffle (its recorded outcomes are empty). Chance once seen
   is never drawn again, so a move after an undo takes the next step's dice, never the same ones.
3. It showed nobody anything hidden: for every seat and for the public, each hidden item (a
   bone, a card from a face-down deck) that the view after the move shows, the same viewer's
   view before the move showed already. Drawing from a pile shuffled earlier draws no chance
   but reveals the top of it, so it stands. Each engine with hidden information names the
   items a view shows in `hidden_items_shown(view)`; an engine without that method hides nothing.

4. It did not end the game.
5. He made it himself: a move Parlor's AI made for his seat while it stood in for him (`stand_ins`,
   the stretches of moves recorded with the game) stands, and so do his moves before it, as after
   anyone else's move.

He may undo again as long as the next move standing is also one of these (his own earlier
steps of the same turn). Undone moves are gone for the rules but stay in the log.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.core import Game, IllegalMove, Randomness, RecordingRandomness

UNDO_TYPE = "undo"
UNDO_ACTION = {"type": UNDO_TYPE}
NOTHING_TO_UNDO = "There is no move of yours to take back."
CHANCE_SEEN = ("That move drew by chance (a die, a draw or a shuffle), and chance once seen stays: "
               "it cannot be taken back.")
GAME_OVER = "That move ended the game, and the result stands."
SECRET_SEEN = "That move showed someone something that was hidden, so it stands: it cannot be taken back."
STOOD_IN = ("That move was made for you by Parlor's AI while it stood in for you, so it stands: only a move "
            "you made yourself can be taken back.")

StandIns = Mapping[str, Sequence[Sequence[int]]]
"""Player -> the [first, last] move numbers in which the AI stood in for him (last -1 while it still does)."""


def is_undo(action: Mapping[str, Any]) -> bool:
    return isinstance(action, Mapping) and action.get("type") == UNDO_TYPE


def stood_in_at(periods: Sequence[Sequence[int]], seq: int) -> bool:
    """Whether move `seq` fell in one of a seat's stand-in `periods` ([first, last]; last -1 while still on)."""
    return any(first <= seq and (last == -1 or seq <= last) for first, last in periods)


def not_yours(other: str) -> str:
    return f"Only your own last move can be taken back, and only before anyone else acts: {other} has since."


def shows_new_secret(game: Game, players: Sequence[str], before: Any, after: Any) -> bool:
    """Whether any seat (or the public) sees in `after` a hidden item it did not see in `before`."""
    shown = getattr(game, "hidden_items_shown", None)
    if shown is None:
        return False
    return any(not set(shown(game.view(after, viewer))) <= set(shown(game.view(before, viewer)))
               for viewer in [*players, None])


def why_it_stands(game: Game, players: Sequence[str], before: Any, after: Any, drew_chance: bool) -> str | None:
    """Why a move from `before` to `after` may never be taken back (rules 2 to 4), or None."""
    if game.result(after) is not None:
        return GAME_OVER
    if drew_chance:
        return CHANCE_SEEN
    if shows_new_secret(game, players, before, after):
        return SECRET_SEEN
    return None


@dataclass
class Standing:
    """A move that may still be taken back, with what was so before it."""

    seq: int
    player: str
    action_type: str
    before: Any
    top_before: str | None
    why_not_before: str


class Timeline:
    """A game replayed entry by entry, keeping what an undo needs.

    `undoable` holds the moves that a chain of undos could still take back (the latest last);
    `top` is the player of the latest move still standing, `last_actor` the player of the
    latest entry, and `why_not` says why the latest move standing cannot be taken back.
    """

    def __init__(self, game: Game, players: Sequence[str], state: Any, stand_ins: StandIns | None = None) -> None:
        self.game = game
        self.players = list(players)
        self.stand_ins = dict(stand_ins or {})
        self.state = state
        self.seq = 0
        self.undoable: list[Standing] = []
        self.top: str | None = None
        self.last_actor: str | None = None
        self.why_not = NOTHING_TO_UNDO

    def step(self, player: str, action: Mapping[str, Any], rng: Randomness) -> list[dict]:
        """Apply the log's next entry (a move or an undo); illegal ones raise `IllegalMove`."""
        if is_undo(action):
            return self.undo(player)
        before = self.state
        recording = RecordingRandomness(rng)
        after, events = self.game.apply(before, player, dict(action), recording)
        self.seq += 1
        if self.undoable and self.undoable[-1].player != player:
            self.undoable = []
        standing = Standing(self.seq, player, str(action.get("type")), before, self.top, self.why_not)
        stands = why_it_stands(self.game, self.players, before, after, bool(recording.rolls or recording.shuffles))
        if stood_in_at(self.stand_ins.get(player, ()), self.seq):
            stands = STOOD_IN
        if stands:
            self.undoable, self.why_not = [], stands
        else:
            self.undoable.append(standing)
        self.state, self.top, self.last_actor = after, player, player
        return events

    def undo_refusal(self, player: str) -> str | None:
        """Why `player` may not take back the latest move now, or None when he may."""
        if self.undoable and self.undoable[-1].player == player == self.last_actor:
            return None
        if self.top is None:
            return NOTHING_TO_UNDO
        if self.top != player:
            return f"The last move is {self.top}'s, and only your own last move can be taken back."
        if self.last_actor != player:
            return not_yours(self.last_actor or "someone")
        return self.why_not

    @property
    def undoer(self) -> str | None:
        """The player who may take back the latest move now, if anyone."""
        top = self.undoable[-1].player if self.undoable else None
        return top if top is not None and top == self.last_actor else None

    def undo(self, player: str) -> list[dict]:
        """Take back the latest move for `player`: the state is the one from before it again."""
        if refusal := self.undo_refusal(player):
            raise IllegalMove(refusal)
        taken = self.undoable.pop()
        self.seq += 1
        self.state, self.top, self.why_not = taken.before, taken.top_before, taken.why_not_before
        self.last_actor = player
        return [{"type": "undone", "player": player, "move": taken.seq, "action": taken.action_type}]
