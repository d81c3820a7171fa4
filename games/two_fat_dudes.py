"""Two Fat Dudes in a Narrow Hallway: roll a d4, score coloured spaces, haggle to squeeze past.

Rules: rules/two-fat-dudes.md (authoritative) and seeds/two-fat-dudes.txt.

Rulings where the rules file is silent:
- The roll-off asks `roll(4)` once per player, in the order the players send `roll`; after a tie
  both roll again. Roll-off rolls are told in events only (the view has no key for them).
- A squeeze or a race move that reaches or overshoots the exit semicircle exits the dude, who then
  stands on that semicircle (red at 14, blue at 0); exiting scores nothing.
- After a deal the mover's new space is scored first, then the other dude's.
- The Edge passes to the player who did not use it, whichever choice was made.
- Counters may repeat the amount already on the table (each still costs a point); an accept always
  makes the first offerer pay the current amount, whoever proposed it last.
- `legal_actions` lists offers and counters for a representative set of amounts (`AMOUNTS`);
  `apply` accepts any whole number of points ≥ 0.
- Actions are strict: `points` must be a JSON integer (not a string or boolean), and unknown extra
  fields are refused.
- If no player has exited, the game cannot end: a first exit is the only way to finish.
- `new_game` refuses the same id in both seats; `options` are ignored (the game has none).
- The view's `mover` (beyond the rules file's keys) names whose turn it is from the first move on, so
  a player (or the AI) knows who rolled into an encounter and who rolls after it.
- Events carry ids and numbers only; an `offered`/`countered` event names payer and payee so a
  front end can say who pays whom.
- Undo (games.undo): an offer, a counter, an answer to an offer, a pass or an edge choice may be
  taken back by its player before the other acts; a roll (the roll-off, a move) stands.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from games.core import IllegalMove, Randomness, copied, parse_action, require_seated

RED, BLUE = 0, 1
COLOURS = ("red", "blue")
START = (0, 14)
"""Each seat's start semicircle; the other seat's start is his exit."""
EXIT = (14, 0)
DIRECTION = (1, -1)
TRACK: dict[int, tuple[str, int]] = {
    1: ("red", 1), 2: ("red", 2), 3: ("blue", 1), 4: ("red", 3), 5: ("red", 4), 6: ("blue", 2),
    7: ("green", 10), 8: ("red", 2), 9: ("blue", 4), 10: ("blue", 3), 11: ("red", 1), 12: ("blue", 2),
    13: ("blue", 1),
}
"""Rectangular spaces 1..13: (colour, number). Positions 0 and 14 are the semicircles."""
PENALTY_PER_STEP = 5
NEGOTIATION_COST = 1
NORMAL_ENCOUNTERS = 4
SQUEEZE_ENCOUNTER = 5
AMOUNTS = (0, 1, 2, 3, 5, 8, 10, 15, 20, 30)
"""Amounts `legal_actions` proposes for offers and counters; any amount ≥ 0 is legal."""

Phase = Literal["roll-off", "walk", "encounter", "edge", "race", "over"]
Points = Annotated[int, Field(strict=True, ge=0)]


def space_points(seat: int, position: int) -> int:
    """What a dude of `seat` scores for ending a move on `position`."""
    if position not in TRACK:
        return 0
    colour, number = TRACK[position]
    if colour == "green":
        return 10
    return number if colour == COLOURS[seat] else -number


def steps_to_exit(seat: int, position: int) -> int:
    return abs(EXIT[seat] - position)


def edge_cost(encounter: int) -> int:
    """Going back to the start costs 5 in encounters 1–2 and 10 in encounters 3–4."""
    return 5 if encounter <= 2 else 10


class Offer(BaseModel):
    payer: int
    points: int
    proposed_by: int


class TwoFatDudesState(BaseModel):
    players: list[str]
    phase: Phase = "roll-off"
    positions: list[int] = Field(default_factory=lambda: list(START))
    scores: list[int] = Field(default_factory=lambda: [0, 0])
    exited: list[bool] = Field(default_factory=lambda: [False, False])
    roll_off: list[int | None] = Field(default_factory=lambda: [None, None])
    start_player: int | None = None
    edge: int | None = None
    turn: int = 0
    """The seat whose turn it is; during an encounter or Edge choice, the mover."""
    encounters: int = 0
    decider: int | None = None
    """Whose offer-or-pass decision it is while nothing is on the table."""
    offer: Offer | None = None
    final_turn: bool = False
    """The start player exited on his turn: the other's current turn is the last."""
    winners: list[str] | None = None


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Roll(_Strict):
    type: Literal["roll"]


class MakeOffer(_Strict):
    type: Literal["offer"]
    points: Points


class Counter(_Strict):
    type: Literal["counter"]
    points: Points


class Accept(_Strict):
    type: Literal["accept"]


class Decline(_Strict):
    type: Literal["decline"]


class Pass(_Strict):
    type: Literal["pass"]


class EdgeChoice(_Strict):
    type: Literal["edge"]
    choice: Literal["retreat", "send_back"]


Action = Annotated[
    Roll | MakeOffer | Counter | Accept | Decline | Pass | EdgeChoice, Field(discriminator="type")
]
ACTION_ADAPTER: TypeAdapter[Any] = TypeAdapter(Action)


def _other(seat: int) -> int:
    return 1 - seat


class TwoFatDudes:
    slug = "two-fat-dudes"
    title = "Two Fat Dudes in a Narrow Hallway"
    min_players = 2
    max_players = 2
    actions = ACTION_ADAPTER

    def new_game(
        self, players: Sequence[str], rng: Randomness, options: Mapping[str, Any] | None = None
    ) -> TwoFatDudesState:
        if len(players) != 2 or players[0] == players[1]:
            raise IllegalMove("Two Fat Dudes needs exactly two different players.")
        return TwoFatDudesState(players=list(players))

    def state_from_json(self, data: str) -> TwoFatDudesState:
        return TwoFatDudesState.model_validate_json(data)

    def to_act(self, state: TwoFatDudesState) -> list[str]:
        return [state.players[seat] for seat in self._acting_seats(state)]

    def _acting_seats(self, state: TwoFatDudesState) -> list[int]:
        if state.phase == "over":
            return []
        if state.phase == "roll-off":
            return [seat for seat in (RED, BLUE) if state.roll_off[seat] is None]
        if state.phase == "encounter":
            if state.offer is None:
                return [state.decider] if state.decider is not None else []
            return [_other(state.offer.proposed_by)]
        if state.phase == "edge":
            return [state.edge] if state.edge is not None else []
        return [state.turn]

    # ----- applying actions -------------------------------------------------------------------

    def apply(
        self, state: TwoFatDudesState, player: str, action: Mapping[str, Any], rng: Randomness
    ) -> tuple[TwoFatDudesState, list[dict]]:
        require_seated(state.players, player)
        parsed = parse_action(ACTION_ADAPTER, action)
        if state.phase == "over":
            raise IllegalMove("The game is over.")
        seat = state.players.index(player)
        self._check_turn(state, seat, parsed)
        new = copied(state)
        events: list[dict] = []
        if isinstance(parsed, Roll):
            if new.phase == "roll-off":
                self._roll_off(new, seat, rng, events)
            else:
                self._move(new, seat, rng.roll(4), events)
        elif isinstance(parsed, MakeOffer):
            self._pay_cost(new, seat, events, "offered", parsed.points)
            new.offer = Offer(payer=seat, points=parsed.points, proposed_by=seat)
        elif isinstance(parsed, Counter):
            assert new.offer is not None
            self._pay_cost(new, seat, events, "countered", parsed.points)
            new.offer = Offer(payer=new.offer.payer, points=parsed.points, proposed_by=seat)
        elif isinstance(parsed, Pass):
            self._pass(new, seat, events)
        elif isinstance(parsed, Decline):
            events.append({"type": "declined", "player": player})
            self._no_deal(new, events)
        elif isinstance(parsed, Accept):
            self._accept(new, seat, events)
        else:
            self._edge(new, seat, parsed.choice, events)
        return new, events

    def _check_turn(self, state: TwoFatDudesState, seat: int, action: BaseModel) -> None:
        """Refuse an action from the wrong player or of the wrong kind, saying what fits now."""
        acting = self._acting_seats(state)
        names = state.players
        if seat not in acting:
            if state.phase == "roll-off":
                raise IllegalMove(f"You have rolled already; waiting for {names[acting[0]]} to roll.")
            if state.phase == "encounter":
                raise IllegalMove(f"It is {names[acting[0]]}'s decision in this encounter.")
            if state.phase == "edge":
                raise IllegalMove(f"{names[acting[0]]} holds the Edge and must choose: retreat or send back.")
            raise IllegalMove(f"It is {names[acting[0]]}'s turn.")
        kind = action.type  # type: ignore[attr-defined]
        if state.phase in ("roll-off", "walk", "race"):
            if kind != "roll":
                raise IllegalMove("Roll the die: use /roll.")
        elif state.phase == "encounter":
            if state.offer is None and kind not in ("offer", "pass"):
                raise IllegalMove("Nothing is on the table: make an offer (it costs 1 point) or pass.")
            if state.offer is not None and kind not in ("accept", "decline", "counter"):
                raise IllegalMove("An offer is on the table: accept, decline or counter (it costs 1 point).")
        elif kind != "edge":
            raise IllegalMove("You hold the Edge: choose retreat or send back.")

    def _roll_off(self, state: TwoFatDudesState, seat: int, rng: Randomness, events: list[dict]) -> None:
        value = rng.roll(4)
        state.roll_off[seat] = value
        events.append({"type": "roll_off", "player": state.players[seat], "roll": value})
        red, blue = state.roll_off
        if red is None or blue is None:
            return
        rolls = {state.players[RED]: red, state.players[BLUE]: blue}
        if red == blue:
            state.roll_off = [None, None]
            events.append({"type": "roll_off_tied", "rolls": rolls})
            return
        start = RED if red > blue else BLUE
        state.start_player, state.edge, state.turn = start, _other(start), start
        state.phase = "walk"
        events.append({"type": "start_player", "player": state.players[start],
                       "edge": state.players[_other(start)], "rolls": rolls})

    def _move(self, state: TwoFatDudesState, seat: int, roll: int, events: list[dict]) -> None:
        player = state.players[seat]
        events.append({"type": "rolled", "player": player, "roll": roll})
        here, there = state.positions[seat], state.positions[_other(seat)]
        step = DIRECTION[seat]
        if state.phase == "race":
            self._land(state, seat, here + step * roll, events)
            self._end_turn(state, events)
            return
        gap = (there - here) * step
        if roll < gap:
            self._land(state, seat, here + step * roll, events)
        elif state.encounters < NORMAL_ENCOUNTERS:
            self._land(state, seat, there - step, events, blocked=True)
            state.encounters += 1
            state.phase, state.decider, state.offer = "encounter", seat, None
            events.append({"type": "encounter", "number": state.encounters, "mover": player,
                           "other": state.players[_other(seat)]})
            return
        elif roll == gap:
            self._land(state, seat, there - step, events, blocked=True)
        else:
            state.encounters = SQUEEZE_ENCOUNTER
            events.append({"type": "squeezed", "player": player, "past": state.players[_other(seat)],
                           "number": SQUEEZE_ENCOUNTER})
            self._land(state, seat, there + step, events)
            self._start_race(state, events)
        self._end_turn(state, events)

    def _land(self, state: TwoFatDudesState, seat: int, target: int, events: list[dict],
              blocked: bool = False) -> None:
        """Put a dude on `target` (or out through his exit) and score the space."""
        player = state.players[seat]
        origin = state.positions[seat]
        if (target - EXIT[seat]) * DIRECTION[seat] >= 0:
            state.positions[seat], state.exited[seat] = EXIT[seat], True
            events.append({"type": "moved", "player": player, "from": origin, "to": EXIT[seat],
                           "blocked": False})
            events.append({"type": "exited", "player": player})
            return
        state.positions[seat] = target
        events.append({"type": "moved", "player": player, "from": origin, "to": target, "blocked": blocked})
        self._score_space(state, seat, events)

    def _score_space(self, state: TwoFatDudesState, seat: int, events: list[dict]) -> None:
        points = space_points(seat, state.positions[seat])
        state.scores[seat] += points
        events.append({"type": "scored", "player": state.players[seat], "position": state.positions[seat],
                       "points": points, "score": state.scores[seat]})

    def _start_race(self, state: TwoFatDudesState, events: list[dict]) -> None:
        state.phase = "race"
        events.append({"type": "race_started"})

    def _pay_cost(self, state: TwoFatDudesState, seat: int, events: list[dict], kind: str,
                  points: int) -> None:
        state.scores[seat] -= NEGOTIATION_COST
        payer = seat if state.offer is None else state.offer.payer
        events.append({"type": kind, "player": state.players[seat], "payer": state.players[payer],
                       "payee": state.players[_other(payer)], "points": points, "cost": NEGOTIATION_COST,
                       "score": state.scores[seat]})

    def _pass(self, state: TwoFatDudesState, seat: int, events: list[dict]) -> None:
        events.append({"type": "passed", "player": state.players[seat]})
        if seat == state.turn:
            state.decider = _other(seat)
        else:
            self._no_deal(state, events)

    def _no_deal(self, state: TwoFatDudesState, events: list[dict]) -> None:
        assert state.edge is not None
        state.phase, state.offer, state.decider = "edge", None, None
        events.append({"type": "no_deal", "edge": state.players[state.edge],
                       "cost": edge_cost(state.encounters)})

    def _accept(self, state: TwoFatDudesState, seat: int, events: list[dict]) -> None:
        assert state.offer is not None
        payer, points = state.offer.payer, state.offer.points
        payee = _other(payer)
        state.scores[payer] -= points
        state.scores[payee] += points
        state.offer, state.decider = None, None
        events.append({"type": "accepted", "player": state.players[seat], "payer": state.players[payer],
                       "payee": state.players[payee], "points": points,
                       "scores": dict(zip(state.players, state.scores, strict=True))})
        mover = state.turn
        red_at, blue_at = state.positions
        events.append({"type": "swapped", "positions": {state.players[RED]: blue_at,
                                                        state.players[BLUE]: red_at}})
        targets = {RED: blue_at, BLUE: red_at}
        self._land(state, mover, targets[mover], events)
        self._land(state, _other(mover), targets[_other(mover)], events)
        self._start_race(state, events)
        self._end_turn(state, events)

    def _edge(self, state: TwoFatDudesState, seat: int, choice: str, events: list[dict]) -> None:
        cost = edge_cost(state.encounters)
        goes_back = seat if choice == "retreat" else _other(seat)
        state.positions[goes_back] = START[goes_back]
        state.scores[goes_back] -= cost
        state.edge = _other(seat)
        state.phase = "walk"
        events.append({"type": "edge", "player": state.players[seat], "choice": choice,
                       "sent_back": state.players[goes_back], "cost": cost,
                       "score": state.scores[goes_back], "edge_to": state.players[state.edge]})
        self._end_turn(state, events)

    def _end_turn(self, state: TwoFatDudesState, events: list[dict]) -> None:
        """Pass the turn, or end the game when the first exit (or the last turn) says so."""
        mover = state.turn
        if state.final_turn:
            self._finish(state, events)
            return
        if any(state.exited):
            if state.exited == [seat == mover for seat in (RED, BLUE)] and mover == state.start_player:
                state.final_turn = True
                state.turn = _other(mover)
                events.append({"type": "last_turn", "player": state.players[state.turn]})
                return
            self._finish(state, events)
            return
        state.turn = _other(mover)

    def _finish(self, state: TwoFatDudesState, events: list[dict]) -> None:
        for seat in (RED, BLUE):
            if not state.exited[seat]:
                steps = steps_to_exit(seat, state.positions[seat])
                penalty = PENALTY_PER_STEP * steps
                state.scores[seat] -= penalty
                events.append({"type": "penalty", "player": state.players[seat], "steps": steps,
                               "points": penalty, "score": state.scores[seat]})
        best = max(state.scores)
        leaders = [seat for seat in (RED, BLUE) if state.scores[seat] == best]
        if len(leaders) > 1 and not all(state.exited):
            leaders = [seat for seat in leaders if state.exited[seat]]
        state.winners = [state.players[seat] for seat in leaders]
        state.phase, state.offer, state.decider = "over", None, None
        events.append({"type": "game_over", "winners": list(state.winners),
                       "scores": dict(zip(state.players, state.scores, strict=True))})

    # ----- reading the state ------------------------------------------------------------------

    def view(self, state: TwoFatDudesState, player: str | None) -> dict:
        names = state.players
        offer = state.offer
        return {
            "phase": state.phase,
            "players": [
                {"id": names[seat], "colour": COLOURS[seat], "position": state.positions[seat],
                 "score": state.scores[seat], "exited": state.exited[seat]}
                for seat in (RED, BLUE)
            ],
            "start_player": None if state.start_player is None else names[state.start_player],
            "edge": None if state.edge is None else names[state.edge],
            "encounters": state.encounters,
            "offer": None if offer is None else {"payer": names[offer.payer], "points": offer.points,
                                                 "proposed_by": names[offer.proposed_by]},
            "to_act": self.to_act(state),
            "mover": names[state.turn] if state.phase in ("walk", "encounter", "edge", "race") else None,
            "winners": None if state.winners is None else list(state.winners),
        }

    def determinize(self, view: dict, player: str, rng: Randomness) -> TwoFatDudesState:
        """Rebuild the state from a view: only roll-off dice are not shown, so they are sampled."""
        names = [entry["id"] for entry in view["players"]]

        def seat(name: str | None) -> int | None:
            return None if name is None else names.index(name)

        phase = view["phase"]
        acting = [names.index(name) for name in view["to_act"]]
        offer = view["offer"]
        start = seat(view["start_player"])
        if phase == "roll-off":
            roll_off: list[int | None] = [None if s in acting else rng.roll(4) for s in (RED, BLUE)]
        else:  # the roll-off is decided: the start player rolled higher
            high = 1 + rng.roll(3)
            low = rng.roll(high - 1)
            roll_off = [high, low] if start == RED else [low, high]
        return TwoFatDudesState(
            players=names,
            phase=phase,
            positions=[entry["position"] for entry in view["players"]],
            scores=[entry["score"] for entry in view["players"]],
            exited=[entry["exited"] for entry in view["players"]],
            roll_off=roll_off,
            start_player=start,
            edge=seat(view["edge"]),
            turn=seat(view["mover"]) or 0,
            encounters=view["encounters"],
            decider=acting[0] if phase == "encounter" and offer is None else None,
            offer=None if offer is None else Offer(payer=names.index(offer["payer"]), points=offer["points"],
                                                   proposed_by=names.index(offer["proposed_by"])),
            final_turn=phase != "over" and any(view_entry["exited"] for view_entry in view["players"]),
            winners=None if view["winners"] is None else list(view["winners"]),
        )

    def result(self, state: TwoFatDudesState) -> dict | None:
        if state.phase != "over" or state.winners is None:
            return None
        return {"winners": list(state.winners), "scores": dict(zip(state.players, state.scores, strict=True))}

    def legal_actions(self, state: TwoFatDudesState, player: str) -> list[dict]:
        if player not in state.players or state.players.index(player) not in self._acting_seats(state):
            return []
        if state.phase in ("roll-off", "walk", "race"):
            return [{"type": "roll"}]
        if state.phase == "edge":
            return [{"type": "edge", "choice": "retreat"}, {"type": "edge", "choice": "send_back"}]
        if state.offer is None:
            return [{"type": "pass"}] + [{"type": "offer", "points": n} for n in AMOUNTS]
        return [{"type": "accept"}, {"type": "decline"}] + [{"type": "counter", "points": n} for n in AMOUNTS]


GAME = TwoFatDudes()
