"""Follow the Arrow: race five numbered pawns across a board whose arrows say where they may go.

Rules: /work/shared/rules/follow-the-arrow.md (the board is in `games.follow_the_arrow_board`).

Rulings where the rules file is silent, written down here so a reader finds them in one place:
- Chance: the only draw is the colour roll, `roll(2)`, made in `new_game` unless `options.black`
  names the black player. Nothing else is random.
- Match: `options.match = {"game": n, "totals": {id: points}}` (both optional; game 1, all zero).
  Without `options.first`, black places first in odd games and red in even ones. Once a game is
  over the view's `next_game_options` holds the options for the next game of the match: the same
  black player, the other player placing first, the game number plus one, and the totals with this
  game's points added. The view's `match.totals` already include this game's points once it is over.
- While placing, `to_act` is the player whose turn it is to place; `legal_actions` lists all 120 orders.
  A placement is one action and final (the original lets black rearrange only until red starts).
- View keys beyond the rules file's: `last_move` ({player, pawn, origin, path, over, kind, forced}) for
  the board's highlight, `match` ({game, placed_first, totals}) and `next_game_options` (above).
- Events: `placed`, `moved`, `jumped` (with `path`, the jumped circles `over` and `forced`),
  `jump_possible` (the opponent may now call), `jump_called`, `call_declined`, `passed`, `draw`, `won`.
- A pawn leaves its circle when it jumps, so for the rest of that jump its own starting circle counts
  as empty (no hop sequence can return there anyway without jumping a pawn twice).
- A hop may go over an opponent pawn only, never over one's own.
- A forced jump is any legal jump, of any length the player chooses (the rules file's reading).
- After the player to move has moved, it is too late to call Jump on him; the chance is gone.
- After placing, nobody may call Jump: nobody has moved yet (`last_mover` is null).
- A win is checked before anything else after a move, so the winner's opponent never passes or calls.
- There is no repetition rule. Sideways line moves on this board never form a loop, but sideways
  jumps can (a3 -> c3 -> e3 and back over the same two pawns); the host's abandon and timeout rules
  end a game that never finishes.
- The pawn that "arrived last" is the pawn whose move completed the set of five: a pawn on the goal
  row can only move sideways along it (forward leaves the board, sideways hops there are banned).
- Undo (games.undo): every move draws no chance and hides nothing, so a placement, a step, a
  jump or a call may be taken back by its player while the other has not acted since.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import permutations
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, TypeAdapter

from games.core import IllegalMove, Randomness, copied, parse_action, quoted, require_seated
from games.follow_the_arrow_board import (
    ARROWS,
    BLACK_START_ROW,
    COLUMNS,
    DIRECTIONS,
    RED_START_ROW,
    START_ROWS,
    coordinates,
    direction_between,
    step,
)

PAWNS = (1, 2, 3, 4, 5)
MAX_HOPS = 4
Colour = Literal["black", "red"]


class PlaceAction(BaseModel):
    type: Literal["place"]
    order: list[int]


class MoveAction(BaseModel):
    type: Literal["move"]
    pawn: int
    to: str


class JumpAction(BaseModel):
    type: Literal["jump"]
    pawn: int
    path: list[str]


class CallJumpAction(BaseModel):
    type: Literal["call_jump"]


class DeclineCallAction(BaseModel):
    type: Literal["decline_call"]


Action = Annotated[
    PlaceAction | MoveAction | JumpAction | CallJumpAction | DeclineCallAction,
    Field(discriminator="type"),
]
ACTIONS = TypeAdapter(Action)


class LastMove(BaseModel):
    """The most recent move, kept so the board can highlight it."""

    player: str
    pawn: int
    origin: str
    path: list[str]
    over: list[str] = []
    kind: Literal["move", "jump"]
    forced: bool = False


class ArrowState(BaseModel):
    players: list[str]
    black: str
    place_order: list[str]
    """Who places (and so moves) first, then second, in this game."""
    match_game: int = 1
    prior_totals: dict[str, int]
    """Match points before this game."""
    phase: Literal["placing", "play", "over"] = "placing"
    pawns: dict[str, list[str | None]]
    """Player id -> circle of pawn 1..5 (index 0..4), None until placed."""
    turn: str | None = None
    last_mover: str | None = None
    jump_callable: bool = False
    jump_called: bool = False
    last_move: LastMove | None = None
    winner: str | None = None
    points: int = 0


def _opponent(state: ArrowState, player: str) -> str:
    return state.players[1] if player == state.players[0] else state.players[0]


def _colour(state: ArrowState, player: str) -> Colour:
    return "black" if player == state.black else "red"


def _forward(state: ArrowState, player: str) -> int:
    """The row step that counts as forward for this player."""
    return 1 if player == state.black else -1


def _goal_row(state: ArrowState, player: str) -> int:
    return RED_START_ROW if player == state.black else BLACK_START_ROW


def _heading(state: ArrowState, player: str, direction: str) -> str:
    """'forward', 'sideways' or 'backward' for this player."""
    d_row = DIRECTIONS[direction][1] * _forward(state, player)
    return "forward" if d_row > 0 else "sideways" if d_row == 0 else "backward"


def _occupants(state: ArrowState) -> dict[str, tuple[str, int]]:
    """Circle -> (owner, pawn number) for every placed pawn."""
    return {
        circle: (player, number)
        for player, circles in state.pawns.items()
        for number, circle in zip(PAWNS, circles, strict=True)
        if circle is not None
    }


def _valid_circle(name: str) -> str:
    circle = name.strip().lower()
    if circle not in ARROWS:
        raise IllegalMove(f"{quoted(name)} is not a circle: circles run from a1 to e6.")
    return circle


def _pawn_circle(state: ArrowState, player: str, pawn: int) -> str:
    if pawn not in PAWNS:
        raise IllegalMove(f"You have no pawn {pawn}: your pawns are numbered 1 to 5.")
    circle = state.pawns[player][pawn - 1]
    assert circle is not None  # every pawn is placed before play starts
    return circle


def _midpoint(current: str, landing: str) -> str:
    """The circle a hop passes over."""
    (c1, r1), (c2, r2) = coordinates(current), coordinates(landing)
    return f"{COLUMNS[(c1 + c2) // 2]}{(r1 + r2) // 2}"


def _line_problem(state: ArrowState, player: str, origin: str, target: str,
                  occupants: Mapping[str, tuple[str, int]]) -> str | None:
    """Why a line move from origin to target is refused, or None if it is legal."""
    if target == origin:
        return f"it already stands on {origin}: name the circle it should move to."
    direction = direction_between(origin, target)
    if direction is None:
        if direction_between(origin, target, 2) is not None:
            return f"{target} is two circles from {origin}: a line move goes one circle; to jump, use /jump."
        return f"A line move goes to an adjacent circle, and {target} is not next to {origin}."
    if _heading(state, player, direction) == "backward":
        return f"No backward moves: {origin} to {target} heads toward your own start row."
    if direction not in ARROWS[origin]:
        arrows = ", ".join(ARROWS[origin])
        return f"No arrow on {origin} points to {target} (its arrows point {arrows})."
    if target in occupants:
        return f"{target} is occupied: a line move needs an empty circle."
    return None


def _hop_problem(state: ArrowState, player: str, current: str, landing: str, first: bool,
                 jumped: set[str], occupants: Mapping[str, tuple[str, int]]) -> str | None:
    """Why one hop of a jump is refused, or None if it is legal.

    `occupants` must already leave out the jumping pawn, which has left its circle.
    """
    if landing == current:
        return f"it stands on {current} already: name the circle beyond the pawn it jumps over."
    direction = direction_between(current, landing, 2)
    if direction is None:
        return f"{current} to {landing} is not a hop: a hop lands two circles away in a straight line."
    over = step(current, direction)
    assert over is not None
    heading = _heading(state, player, direction)
    if heading == "backward":
        return f"No backward jumps: the hop {current} to {landing} heads toward your own start row."
    if heading == "sideways" and coordinates(current)[1] in START_ROWS:
        return f"No sideways jumps along a start row ({current} to {landing})."
    if first and direction not in ARROWS[current]:
        return f"A jump starts along an arrow, and no arrow on {current} points at {over}."
    owner = occupants.get(over, (None, 0))[0]
    if owner is None:
        return f"There is no pawn on {over} to jump."
    if owner == player:
        return f"{over} holds your own pawn: only your opponent's pawns can be jumped."
    if over in jumped:
        return f"The pawn on {over} was already jumped in this move: no pawn may be jumped twice."
    if landing in occupants:
        return f"{landing} is occupied: a hop must land on an empty circle."
    return None


def _line_moves(state: ArrowState, player: str) -> list[dict]:
    occupants = _occupants(state)
    moves = []
    for number, origin in zip(PAWNS, state.pawns[player], strict=True):
        if origin is None:
            continue
        for direction in ARROWS[origin]:
            target = step(origin, direction)
            if target and _line_problem(state, player, origin, target, occupants) is None:
                moves.append({"type": "move", "pawn": number, "to": target})
    return moves


def _jumps(state: ArrowState, player: str) -> list[dict]:
    """Every legal jump: each chain and each of its shorter beginnings."""
    everyone = _occupants(state)
    jumps: list[dict] = []

    def extend(number: int, current: str, path: list[str], jumped: set[str],
               occupants: Mapping[str, tuple[str, int]]) -> None:
        if len(path) == MAX_HOPS:
            return
        for direction in DIRECTIONS:
            landing = step(current, direction, 2)
            if landing is None:
                continue
            if _hop_problem(state, player, current, landing, not path, jumped, occupants) is None:
                over = _midpoint(current, landing)
                jumps.append({"type": "jump", "pawn": number, "path": [*path, landing]})
                extend(number, landing, [*path, landing], jumped | {over}, occupants)

    for number, origin in zip(PAWNS, state.pawns[player], strict=True):
        if origin is not None:
            without = {circle: who for circle, who in everyone.items() if circle != origin}
            extend(number, origin, [], set(), without)
    return jumps


def _has_move(state: ArrowState, player: str) -> bool:
    return bool(_line_moves(state, player) or _jumps(state, player))


def _hand_turn_to(state: ArrowState, player: str, events: list[dict], callable_after: bool) -> None:
    """Give the turn to `player`, passing automatically or ending in a draw when nobody can move."""
    if _has_move(state, player):
        state.turn = player
        state.jump_callable = callable_after and bool(_jumps(state, player))
        if state.jump_callable:
            events.append({"type": "jump_possible", "player": player, "caller": _opponent(state, player)})
        return
    events.append({"type": "passed", "player": player, "reason": "no_legal_move"})
    other = _opponent(state, player)
    if _has_move(state, other):
        state.turn = other
        return
    state.phase, state.turn = "over", None
    events.append({"type": "draw", "reason": "no_legal_moves"})


def _finish_move(state: ArrowState, player: str, pawn: int, events: list[dict]) -> None:
    """After a line move or jump: the win check, then the turn passes on."""
    state.last_mover = player
    state.jump_callable = state.jump_called = False
    goal = _goal_row(state, player)
    if all(coordinates(circle)[1] == goal for circle in state.pawns[player] if circle):
        loser = _opponent(state, player)
        out = [n for n, circle in zip(PAWNS, state.pawns[loser], strict=True)
               if circle and coordinates(circle)[1] != _goal_row(state, loser)]
        state.phase, state.turn, state.winner = "over", None, player
        state.points = sum(out) * pawn
        events.append({"type": "won", "player": player, "loser": loser, "pawn": pawn,
                       "loser_pawns_out": out, "loser_sum": sum(out), "points": state.points})
        return
    _hand_turn_to(state, _opponent(state, player), events, callable_after=True)


def _read_options(players: Sequence[str], rng: Randomness,
                  options: Mapping[str, Any]) -> tuple[str, str, int, dict[str, int]]:
    """Colours, first placer, game number and prior totals from the options (see the rulings)."""
    black = options.get("black")
    if black is not None and black not in players:
        raise IllegalMove(f"{black} is not seated at this table, so cannot play black.")
    if black is None:
        black = players[rng.roll(2) - 1]
    match = options.get("match") or {}
    if not isinstance(match, Mapping):
        raise IllegalMove("options.match must be an object with a game number and totals.")
    game = match.get("game", 1)
    if not isinstance(game, int) or isinstance(game, bool) or game < 1:
        raise IllegalMove("options.match.game must be a whole number from 1 up.")
    totals = match.get("totals") or {}
    if not isinstance(totals, Mapping) or any(
        who not in players or not isinstance(points, int) or isinstance(points, bool)
        for who, points in totals.items()
    ):
        raise IllegalMove("options.match.totals must map seated players to whole numbers of points.")
    red = players[1] if black == players[0] else players[0]
    first = options.get("first")
    if first is not None and first not in players:
        raise IllegalMove(f"{first} is not seated at this table, so cannot place first.")
    if first is None:
        first = black if game % 2 == 1 else red
    return black, first, game, {who: int(totals.get(who, 0)) for who in players}


class FollowTheArrow:
    slug = "follow-the-arrow"
    title = "Follow the Arrow"
    min_players = 2
    max_players = 2
    actions = ACTIONS

    def new_game(self, players: Sequence[str], rng: Randomness,
                 options: Mapping[str, Any] | None = None) -> ArrowState:
        players = list(players)
        if len(players) != 2 or players[0] == players[1]:
            raise IllegalMove("Follow the Arrow is played by exactly two players.")
        black, first, game, totals = _read_options(players, rng, options or {})
        second = players[1] if first == players[0] else players[0]
        return ArrowState(
            players=players, black=black, place_order=[first, second], match_game=game,
            prior_totals=totals, pawns={who: [None] * len(PAWNS) for who in players},
        )

    def state_from_json(self, data: str) -> ArrowState:
        return ArrowState.model_validate_json(data)

    def to_act(self, state: ArrowState) -> list[str]:
        if state.phase == "placing":
            return [self._placer(state)]
        return [state.turn] if state.phase == "play" and state.turn else []

    def apply(self, state: ArrowState, player: str, action: Mapping[str, Any],
              rng: Randomness) -> tuple[ArrowState, list[dict]]:
        require_seated(state.players, player)
        parsed = parse_action(ACTIONS, action)
        if state.phase == "over":
            raise IllegalMove("The game is over.")
        new = copied(state)
        events: list[dict] = []
        if isinstance(parsed, PlaceAction):
            self._place(new, player, parsed.order, events)
        elif isinstance(parsed, CallJumpAction | DeclineCallAction):
            self._call(new, player, isinstance(parsed, CallJumpAction), events)
        else:
            self._check_mover(new, player)
            if isinstance(parsed, MoveAction):
                self._line_move(new, player, parsed, events)
            else:
                self._jump(new, player, parsed, events)
        return new, events

    def view(self, state: ArrowState, player: str | None) -> dict:
        return {
            "phase": state.phase,
            "players": [
                {"id": who, "colour": _colour(state, who),
                 "pawns": {str(n): circle for n, circle in zip(PAWNS, state.pawns[who], strict=True)}}
                for who in state.players
            ],
            "to_act": self.to_act(state),
            "last_mover": state.last_mover,
            "jump_callable": state.jump_callable,
            "jump_called": state.jump_called,
            "winner": state.winner,
            "points": state.points,
            "last_move": state.last_move.model_dump() if state.last_move else None,
            "match": {"game": state.match_game, "placed_first": state.place_order[0],
                      "totals": self._totals(state)},
            "next_game_options": self.next_game_options(state),
        }

    def determinize(self, view: dict, player: str, rng: Randomness) -> ArrowState:
        """Nothing is hidden: rebuild the state from the view alone."""
        players = [entry["id"] for entry in view["players"]]
        black = next(entry["id"] for entry in view["players"] if entry["colour"] == "black")
        first = view["match"]["placed_first"]
        winner, points = view["winner"], view["points"]
        totals = view["match"]["totals"]
        phase = view["phase"]
        last_move = view["last_move"]
        return ArrowState(
            players=players, black=black,
            place_order=[first, next(p for p in players if p != first)],
            match_game=view["match"]["game"],
            prior_totals={who: totals[who] - (points if who == winner else 0) for who in players},
            phase=phase,
            pawns={entry["id"]: [entry["pawns"][str(n)] for n in PAWNS] for entry in view["players"]},
            turn=view["to_act"][0] if phase == "play" and view["to_act"] else None,
            last_mover=view["last_mover"], jump_callable=view["jump_callable"],
            jump_called=view["jump_called"],
            last_move=None if last_move is None else LastMove.model_validate(last_move),
            winner=winner, points=points,
        )

    def result(self, state: ArrowState) -> dict | None:
        if state.phase != "over":
            return None
        scores = {who: state.points if who == state.winner else 0 for who in state.players}
        return {"winners": [state.winner] if state.winner else [], "scores": scores}

    def legal_actions(self, state: ArrowState, player: str) -> list[dict]:
        if player not in state.players or state.phase == "over":
            return []
        if state.phase == "placing":
            if player != self._placer(state):
                return []
            return [{"type": "place", "order": list(order)} for order in permutations(PAWNS)]
        if player == state.last_mover and state.jump_callable:
            return [{"type": "call_jump"}, {"type": "decline_call"}]
        if player != state.turn:
            return []
        jumps = _jumps(state, player)
        return jumps if state.jump_called else _line_moves(state, player) + jumps

    def next_game_options(self, state: ArrowState) -> dict | None:
        """Options that start the next game of this match, once this one is over."""
        if state.phase != "over":
            return None
        return {"black": state.black, "first": state.place_order[1],
                "match": {"game": state.match_game + 1, "totals": self._totals(state)}}

    @staticmethod
    def _totals(state: ArrowState) -> dict[str, int]:
        return {who: state.prior_totals.get(who, 0) + (state.points if who == state.winner else 0)
                for who in state.players}

    @staticmethod
    def _placer(state: ArrowState) -> str:
        first, second = state.place_order
        return second if state.pawns[first][0] is not None else first

    def _place(self, state: ArrowState, player: str, order: list[int], events: list[dict]) -> None:
        if state.phase != "placing":
            raise IllegalMove("The pawns are already placed: use /move or /jump.")
        placer = self._placer(state)
        if player != placer:
            raise IllegalMove(f"It is {placer}'s turn to place pawns.")
        if sorted(order) != list(PAWNS):
            raise IllegalMove("Give the pawn numbers 1 to 5, each once, for columns a to e (e.g. 3 1 5 2 4).")
        row = BLACK_START_ROW if player == state.black else RED_START_ROW
        circles = [f"{column}{row}" for column in COLUMNS]
        for number, circle in zip(order, circles, strict=True):
            state.pawns[player][number - 1] = circle
        events.append({"type": "placed", "player": player, "order": list(order),
                       "colour": _colour(state, player)})
        if player == state.place_order[1]:
            state.phase = "play"
            _hand_turn_to(state, state.place_order[0], events, callable_after=False)

    @staticmethod
    def _check_mover(state: ArrowState, player: str) -> None:
        if state.phase == "placing":
            raise IllegalMove("Both players place their pawns first: use /place.")
        if player != state.turn:
            raise IllegalMove(f"It is {state.turn}'s turn to move.")

    def _line_move(self, state: ArrowState, player: str, action: MoveAction, events: list[dict]) -> None:
        origin = _pawn_circle(state, player, action.pawn)
        target = _valid_circle(action.to)
        if state.jump_called:
            raise IllegalMove(f"{state.last_mover} called Jump: you must jump this turn (use /jump).")
        problem = _line_problem(state, player, origin, target, _occupants(state))
        if problem:
            raise IllegalMove(f"Pawn {action.pawn} cannot move: {problem}")
        state.pawns[player][action.pawn - 1] = target
        state.last_move = LastMove(player=player, pawn=action.pawn, origin=origin, path=[target], kind="move")
        events.append({"type": "moved", "player": player, "pawn": action.pawn, "from": origin, "to": target})
        _finish_move(state, player, action.pawn, events)

    def _jump(self, state: ArrowState, player: str, action: JumpAction, events: list[dict]) -> None:
        origin = _pawn_circle(state, player, action.pawn)
        if not 1 <= len(action.path) <= MAX_HOPS:
            raise IllegalMove("A jump lands 1 to 4 times: give the landing circles in order, e.g. c4 c6.")
        path = [_valid_circle(name) for name in action.path]
        occupants = {circle: who for circle, who in _occupants(state).items() if circle != origin}
        current, jumped = origin, []
        for landing in path:
            problem = _hop_problem(state, player, current, landing, not jumped, set(jumped), occupants)
            if problem:
                raise IllegalMove(f"Pawn {action.pawn} cannot jump: {problem}")
            jumped.append(_midpoint(current, landing))
            current = landing
        forced = state.jump_called
        state.pawns[player][action.pawn - 1] = current
        state.last_move = LastMove(player=player, pawn=action.pawn, origin=origin, path=path,
                                   over=jumped, kind="jump", forced=forced)
        events.append({"type": "jumped", "player": player, "pawn": action.pawn, "from": origin,
                       "path": path, "over": jumped, "forced": forced})
        _finish_move(state, player, action.pawn, events)

    @staticmethod
    def _call(state: ArrowState, player: str, calling: bool, events: list[dict]) -> None:
        if state.phase == "placing":
            raise IllegalMove("Nobody has moved yet, so there is no jump to call.")
        if state.jump_called:
            raise IllegalMove(f"Jump is already called: {state.turn} must jump.")
        if not state.jump_callable:
            raise IllegalMove("There is no jump to call now: Jump is called right after your own move, "
                              "when your opponent can jump.")
        if player != state.last_mover:
            raise IllegalMove(f"Only {state.last_mover}, who just moved, may call Jump or pass on it.")
        state.jump_callable = False
        state.jump_called = calling
        kind = "jump_called" if calling else "call_declined"
        events.append({"type": kind, "player": player, "target": state.turn})


GAME = FollowTheArrow()
