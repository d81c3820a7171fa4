"""John Henry: two railroads race dot by dot to drive the golden spike at Promontory Point.

Rules and data: rules/john-henry.md. Rulings where that file is silent:

- Dots left over when a railroad completes the space before the center carry onto the center,
  and that arrival is "the roll that brings the combined center count to 7 or more".
- The center has no cap: the winner's share shows the whole winning roll (it may exceed 6).
- A roll-off 6 that wins the roll-off takes John Henry from the box at once; the first player then
  chooses `roll` or `stop` before the second player's first turn.
- Roll-off ties are rolled again as often as they happen; roll-off dice appear in events only
  (the view's keys are fixed), so a player sees who still has to roll through `to_act`.
- A player not holding John Henry who rolls a 6 after John Henry died simply moves 6.
- A holder always rolls both dice (two `roll(6)` calls) before anything is decided.
- John Henry's fate is settled before the move is applied, so the winning roll still passes or
  kills him and the final view shows it.
- A player id may not be "dead", which the view reserves for John Henry's grave, and the two
  ids must differ. `options` are ignored: the game has none.
- Events, in order: the dice, what happened to John Henry, the move, the win.
- Undo (games.undo): only `stop` may be taken back (by its player, before anyone else acts);
  every `roll` rolls dice, so it stands.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, TypeAdapter

from games.core import IllegalMove, Randomness, copied, parse_action, require_seated

SPACE_NAMES = (
    "Omaha", "North Platte", "Cheyenne", "Laramie", "Green River", "Ogden", "Promontory Point",
    "Elko", "Winnemucca", "Reno", "Donner Pass", "Colfax", "Sacramento",
)
CENTER = 7
DOTS_PER_SPACE = 6
SPIKE_DOTS = 7
RAILROADS = ("union-pacific", "central-pacific")
START_SPACES = (1, 13)
DIRECTIONS = (1, -1)
DEAD = "dead"


class Track(BaseModel):
    """Where one railroad's die stands and how many dots it shows."""

    space: int
    dots: int


class State(BaseModel):
    players: list[str]
    tracks: list[Track]
    phase: Literal["roll-off", "play", "over"] = "roll-off"
    rolloff: dict[str, int] = Field(default_factory=dict)
    """Roll-off dice of the current round, by player; cleared on a tie."""
    turn: int = 0
    """Seat whose turn it is during play."""
    john_henry: int | None = None
    """Seat holding John Henry, None while he is in the box (or dead)."""
    john_henry_dead: bool = False
    awaiting_bonus: bool = False
    winner: int | None = None


class RollAction(BaseModel):
    type: Literal["roll"]


class StopAction(BaseModel):
    type: Literal["stop"]


Action = Annotated[RollAction | StopAction, Field(discriminator="type")]
ACTIONS: TypeAdapter[Any] = TypeAdapter(Action)


def _other(seat: int) -> int:
    return 1 - seat


def _center_count(tracks: Sequence[Track]) -> int:
    return sum(track.dots for track in tracks if track.space == CENTER)


class JohnHenry:
    slug = "john-henry"
    title = "John Henry"
    min_players = 2
    max_players = 2
    actions = ACTIONS

    def new_game(
        self, players: Sequence[str], rng: Randomness, options: Mapping[str, Any] | None = None
    ) -> State:
        players = list(players)
        if len(players) != 2:
            raise IllegalMove("John Henry is a race for exactly two players.")
        if players[0] == players[1]:
            raise IllegalMove("The two railroads need two different players.")
        if DEAD in players:
            raise IllegalMove(f"A player cannot be called {DEAD!r} in John Henry.")
        return State(players=players, tracks=[Track(space=start, dots=1) for start in START_SPACES])

    def state_from_json(self, data: str) -> State:
        return State.model_validate_json(data)

    def to_act(self, state: State) -> list[str]:
        if state.phase == "roll-off":
            return [player for player in state.players if player not in state.rolloff]
        if state.phase == "play":
            return [state.players[state.turn]]
        return []

    def legal_actions(self, state: State, player: str) -> list[dict]:
        if player not in self.to_act(state):
            return []
        if state.awaiting_bonus:
            return [{"type": "roll"}, {"type": "stop"}]
        return [{"type": "roll"}]

    def apply(
        self, state: State, player: str, action: Mapping[str, Any], rng: Randomness
    ) -> tuple[State, list[dict]]:
        require_seated(state.players, player)
        parsed = parse_action(ACTIONS, action)
        self._require_turn(state, player)
        new = copied(state)
        events: list[dict] = []
        seat = new.players.index(player)
        if new.phase == "roll-off":
            if isinstance(parsed, StopAction):
                raise IllegalMove("There is no 6 to keep yet: use /roll for first player.")
            self._roll_off(new, seat, rng, events)
        elif new.awaiting_bonus:
            self._resolve_bonus(new, seat, isinstance(parsed, RollAction), rng, events)
        elif isinstance(parsed, StopAction):
            raise IllegalMove("There is no 6 to keep: use /roll.")
        elif new.john_henry == seat:
            dice = [rng.roll(6), rng.roll(6)]
            events.append({"type": "rolled", "player": player, "dice": dice})
            self._holder_move(new, seat, dice, events)
        else:
            die = rng.roll(6)
            events.append({"type": "rolled", "player": player, "dice": [die]})
            self._single_die(new, seat, die, events)
        return new, events

    def determinize(self, view: dict, player: str, rng: Randomness) -> State:
        """Rebuild the state from a view; only a roll-off die already rolled is not shown, so it is sampled."""
        players = [entry["id"] for entry in view["players"]]
        holder = view["john_henry"]
        winner = None if view["winner"] is None else players.index(view["winner"])
        phase = view["phase"]
        turn = 0
        if phase == "play":
            turn = players.index(view["to_act"][0])
        elif winner is not None:
            turn = winner
        return State(
            players=players,
            tracks=[Track(space=entry["space"], dots=entry["dots"]) for entry in view["players"]],
            phase=phase,
            rolloff={pid: rng.roll(6) for pid in players if phase == "roll-off" and pid not in view["to_act"]},
            turn=turn,
            john_henry=None if holder in (None, DEAD) else players.index(holder),
            john_henry_dead=holder == DEAD,
            awaiting_bonus=view["awaiting_bonus"],
            winner=winner,
        )

    def view(self, state: State, player: str | None) -> dict:
        if state.john_henry_dead:
            john_henry: str | None = DEAD
        elif state.john_henry is None:
            john_henry = None
        else:
            john_henry = state.players[state.john_henry]
        return {
            "phase": state.phase,
            "players": [
                {"id": pid, "railroad": railroad, "space": track.space, "dots": track.dots}
                for pid, railroad, track in zip(state.players, RAILROADS, state.tracks, strict=True)
            ],
            "john_henry": john_henry,
            "to_act": self.to_act(state),
            "awaiting_bonus": state.awaiting_bonus,
            "winner": None if state.winner is None else state.players[state.winner],
        }

    def result(self, state: State) -> dict | None:
        if state.winner is None:
            return None
        winner = state.players[state.winner]
        return {"winners": [winner], "scores": {pid: int(pid == winner) for pid in state.players}}

    def _require_turn(self, state: State, player: str) -> None:
        if state.phase == "over":
            raise IllegalMove("The game is over.")
        if player in self.to_act(state):
            return
        if state.phase == "roll-off":
            waiting = " and ".join(self.to_act(state))
            raise IllegalMove(f"You have rolled for first player already; waiting for {waiting}.")
        raise IllegalMove(f"It is {state.players[state.turn]}'s turn.")

    def _roll_off(self, state: State, seat: int, rng: Randomness, events: list[dict]) -> None:
        """Both roll; the higher die becomes the first player's whole first turn."""
        player = state.players[seat]
        state.rolloff[player] = rng.roll(6)
        events.append({"type": "roll-off", "player": player, "die": state.rolloff[player]})
        if len(state.rolloff) < 2:
            return
        dice = [state.rolloff[pid] for pid in state.players]
        state.rolloff = {}
        if dice[0] == dice[1]:
            events.append({"type": "roll-off-tie", "die": dice[0]})
            return
        first = 0 if dice[0] > dice[1] else 1
        state.phase = "play"
        state.turn = first
        events.append({"type": "first-player", "player": state.players[first], "die": dice[first]})
        self._single_die(state, first, dice[first], events)

    def _single_die(self, state: State, seat: int, die: int, events: list[dict]) -> None:
        """A player without John Henry: a 6 calls him over while he lives."""
        if die == 6 and not state.john_henry_dead:
            giver = state.john_henry
            state.john_henry = seat
            state.awaiting_bonus = True
            events.append({
                "type": "john-henry-taken",
                "player": state.players[seat],
                "from": None if giver is None else state.players[giver],
            })
            return
        self._move(state, seat, die, events)

    def _resolve_bonus(
        self, state: State, seat: int, rolls: bool, rng: Randomness, events: list[dict]
    ) -> None:
        """After taking John Henry on a 6: keep the 6, or pair it with a bonus die as his holder."""
        state.awaiting_bonus = False
        player = state.players[seat]
        if not rolls:
            events.append({"type": "kept-six", "player": player})
            self._move(state, seat, 6, events)
            return
        die = rng.roll(6)
        events.append({"type": "bonus-rolled", "player": player, "die": die})
        self._holder_move(state, seat, [6, die], events)

    def _holder_move(self, state: State, seat: int, dice: list[int], events: list[dict]) -> None:
        """Doubles kill John Henry (moving the sum); a 1 moves 1 and sends him across."""
        player = state.players[seat]
        if dice[0] == dice[1]:
            state.john_henry = None
            state.john_henry_dead = True
            events.append({"type": "john-henry-died", "player": player})
            steps = sum(dice)
        elif 1 in dice:
            state.john_henry = _other(seat)
            events.append({"type": "john-henry-passed", "from": player, "to": state.players[_other(seat)]})
            steps = 1
        else:
            steps = sum(dice)
        self._move(state, seat, steps, events)

    def _move(self, state: State, seat: int, steps: int, events: list[dict]) -> None:
        """Add the dots, advancing over every completed space; the spike ends the game."""
        track = state.tracks[seat]
        start = track.space
        dots = track.dots + steps
        space = start
        while space != CENTER and dots >= DOTS_PER_SPACE:
            dots -= DOTS_PER_SPACE
            space += DIRECTIONS[seat]
        state.tracks[seat] = Track(space=space, dots=dots)
        player = state.players[seat]
        events.append({
            "type": "moved", "player": player, "steps": steps, "from_space": start,
            "space": space, "dots": dots, "spaces_advanced": abs(space - start),
        })
        combined = _center_count(state.tracks)
        if space == CENTER and combined >= SPIKE_DOTS:
            state.phase = "over"
            state.winner = seat
            events.append({"type": "won", "player": player, "center": combined})
            return
        state.turn = _other(seat)


GAME = JohnHenry()
