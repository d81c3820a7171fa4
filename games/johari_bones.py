"""Johari Bones: hold four dominoes you partly cannot see, trade and draw, then score like Yahtzee.

Rules and data: rules/johari-bones.md. The hidden information is the point of the game, so
every bone leaves this module only through `view`, which asks `_visible` bone by bone.
Rulings where that file is silent:

- Each hand is dealt by one `shuffle` of the 28 bones in sorted order; no other chance is used.
- Visibility depends only on where a bone lies now, not on who once saw it: a bone a player
  placed into another's face out stays visible to him because he sees every other face out,
  and a bone that leaves a position he sees is no longer shown to him.
- A spectator (an id not seated) gets the public view. Views hold exactly the rules file's keys;
  front ends that need to know whose view it is are told by their caller.
- Events name bones only where the public view shows them after the move: a bone placed face
  up, the two face-up bones after an up swap, and the whole hand once it is revealed. A
  replaced bone is never named, not even one that was face up.
- Refusals never name a bone at all.
- The phase is `drawn` for everyone while a drawn bone waits to be placed (that someone drew
  is public); only the drawer's view holds the bone.
- Full house needs two different numbers (a pair and three of a kind), as the original says.
- A player id shaped like a bone ("3-5") is refused at the deal, so no message naming a
  player could look like a hidden bone. `options` are ignored: the game has none.
- After the tenth hand is scored the phase is `over`, the last hand stays revealed and
  `hand` stays 10; the winners are all players with the highest total.
- Undo (games.undo): a move that shows anyone a bone he did not see before stands. So a draw
  stands (the drawer sees the pile's top bone), and so does a placing face up, a placing face
  out or an in-out swap at a table of three or four (the others see a new bone), and the
  hand's last turn (everything is revealed); an up swap, a placing face in, a placing face
  out or an in-out swap between two players, and a box chosen while others still choose may
  be taken back. The box that completes the hand's scoring deals the next hand (a shuffle),
  so it stands.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from games.core import IllegalMove, Randomness, copied, parse_action, require_seated
from games.johari_scoring import BOXES, box_score

BONES = tuple(f"{low}-{high}" for low in range(7) for high in range(low, 7))
"""The double-six set in sorted order: the input of every deal's shuffle."""
POSITIONS = ("up", "down", "in", "out")
"""Deal order within a seat, and the keys of each player's entry in a view."""
TURNS_PER_HAND = 3
HANDS = len(BOXES)
BONE_SHAPE = re.compile(r"\d+-\d+")

Phase = Literal["turns", "drawn", "scoring", "over"]


class State(BaseModel):
    players: list[str]
    hand: int = 1
    phase: Phase = "turns"
    pile: list[str]
    bones: dict[str, dict[str, str]]
    """Player -> position -> bone, for the hand in play."""
    drawn: str | None = None
    turn: int = 0
    """Seat on turn while the phase is `turns` or `drawn`."""
    turns_left: dict[str, int]
    scorecard: dict[str, dict[str, int | None]]
    scored: list[str] = Field(default_factory=list)
    """Players who have chosen a box for the hand being scored."""


class _Action(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class DrawAction(_Action):
    type: Literal["draw"]


class PlaceAction(_Action):
    type: Literal["place"]
    target: str
    position: Literal["in", "up", "out"]


class SwapAction(_Action):
    type: Literal["swap"]
    kind: Literal["up", "in-out"]
    with_: str = Field(alias="with")


class ScoreAction(_Action):
    type: Literal["score"]
    box: Literal[BOXES]  # type: ignore[valid-type]


Action = Annotated[DrawAction | PlaceAction | SwapAction | ScoreAction, Field(discriminator="type")]
ACTIONS: TypeAdapter[Any] = TypeAdapter(Action)


def _visible(state: State, owner: str, position: str, viewer: str | None) -> bool:
    """Whether `viewer` (None: the public) may see `owner`'s bone at `position` now."""
    if state.phase in ("scoring", "over") or position == "up":
        return True
    if viewer is None or position == "down":
        return False
    if position == "in":
        return viewer == owner
    return viewer != owner


def _deal(players: Sequence[str], rng: Randomness) -> tuple[dict[str, dict[str, str]], list[str]]:
    """Seat by seat, four bones each into up, down, in, out; the rest is the pile."""
    shuffled = rng.shuffle(list(BONES))
    bones = {
        player: dict(zip(POSITIONS, shuffled[4 * seat: 4 * seat + 4], strict=True))
        for seat, player in enumerate(players)
    }
    return bones, shuffled[4 * len(players):]


def _one_of(choices: Sequence[str]) -> str:
    """"bob", "bob or carol", "bob, carol or dave": the choices a refusal points to instead."""
    return choices[0] if len(choices) == 1 else f"{', '.join(choices[:-1])} or {choices[-1]}"


def _totals(state: State) -> dict[str, int]:
    return {player: sum(points or 0 for points in card.values()) for player, card in state.scorecard.items()}


class JohariBones:
    slug = "johari-bones"
    title = "Johari Bones"
    min_players = 2
    max_players = 4
    actions = ACTIONS

    def new_game(
        self, players: Sequence[str], rng: Randomness, options: Mapping[str, Any] | None = None
    ) -> State:
        players = list(players)
        if not self.min_players <= len(players) <= self.max_players:
            raise IllegalMove("Johari Bones is for 2 to 4 players.")
        if len(set(players)) != len(players):
            raise IllegalMove("Every seat needs a different player.")
        if any(BONE_SHAPE.fullmatch(player) for player in players):
            raise IllegalMove("A player id cannot look like a bone.")
        bones, pile = _deal(players, rng)
        return State(
            players=players,
            pile=pile,
            bones=bones,
            turns_left={player: TURNS_PER_HAND for player in players},
            scorecard={player: dict.fromkeys(BOXES) for player in players},
        )

    def state_from_json(self, data: str) -> State:
        return State.model_validate_json(data)

    def to_act(self, state: State) -> list[str]:
        if state.phase in ("turns", "drawn"):
            return [state.players[state.turn]]
        if state.phase == "scoring":
            return [player for player in state.players if player not in state.scored]
        return []

    def legal_actions(self, state: State, player: str) -> list[dict]:
        if player not in self.to_act(state):
            return []
        others = [other for other in state.players if other != player]
        if state.phase == "turns":
            draws = [{"type": "draw"}] if state.pile else []
            return draws + [{"type": "swap", "kind": kind, "with": other}
                            for other in others for kind in ("up", "in-out")]
        if state.phase == "drawn":
            own = [{"type": "place", "target": player, "position": position} for position in ("in", "up")]
            return own + [{"type": "place", "target": other, "position": position}
                          for other in others for position in ("out", "up")]
        card = state.scorecard[player]
        return [{"type": "score", "box": box} for box in BOXES if card[box] is None]

    def apply(
        self, state: State, player: str, action: Mapping[str, Any], rng: Randomness
    ) -> tuple[State, list[dict]]:
        require_seated(state.players, player)
        parsed = parse_action(ACTIONS, action)
        self._require_to_act(state, player)
        new = copied(state)
        events: list[dict] = []
        if isinstance(parsed, ScoreAction):
            self._score(new, player, parsed.box, rng, events)
        elif new.phase == "scoring":
            raise IllegalMove("The hand is over: choose a box with **Choose a box** on the table (or /score).")
        elif isinstance(parsed, PlaceAction):
            self._place(new, player, parsed, events)
        elif new.phase == "drawn":
            raise IllegalMove("You have drawn a bone: place it first with /place.")
        elif isinstance(parsed, DrawAction):
            self._draw(new, player, events)
        else:
            self._swap(new, player, parsed, events)
        return new, events

    def view(self, state: State, player: str | None) -> dict:
        viewer = player if player in state.players else None
        return {
            "phase": state.phase,
            "hand": state.hand,
            "pile": len(state.pile),
            "players": [
                {"id": owner, **{
                    position: bone if _visible(state, owner, position, viewer) else None
                    for position, bone in state.bones[owner].items()
                }}
                for owner in state.players
            ],
            "drawn": state.drawn if viewer is not None and viewer in self.to_act(state) else None,
            "to_act": self.to_act(state),
            "turns_left": dict(state.turns_left),
            "scorecard": {owner: dict(card) for owner, card in state.scorecard.items()},
        }

    def determinize(self, view: dict, player: str, rng: Randomness) -> State:
        """Deal the bones `player` has not seen, at random, into every hidden slot and the pile."""
        players = [entry["id"] for entry in view["players"]]
        seen = [entry[position] for entry in view["players"] for position in POSITIONS if entry[position]]
        if view["drawn"]:
            seen.append(view["drawn"])
        unseen = rng.shuffle([bone for bone in BONES if bone not in seen])
        bones = {
            entry["id"]: {position: entry[position] or unseen.pop() for position in POSITIONS}
            for entry in view["players"]
        }
        phase = view["phase"]
        drawn = view["drawn"] or (unseen.pop() if phase == "drawn" else None)
        # after the hand's last turn, the seat on turn is the one before the seat that began the hand
        on_turn = phase in ("turns", "drawn")
        turn = players.index(view["to_act"][0]) if on_turn else (view["hand"] - 2) % len(players)
        return State(
            players=players,
            hand=view["hand"],
            phase=phase,
            pile=unseen[: view["pile"]],
            bones=bones,
            drawn=drawn,
            turn=turn,
            turns_left=dict(view["turns_left"]),
            scorecard={owner: dict(card) for owner, card in view["scorecard"].items()},
            scored=[p for p in players if p not in view["to_act"]] if phase in ("scoring", "over") else [],
        )

    @staticmethod
    def hidden_items_shown(view: dict) -> set[str]:
        """The bones a view shows (games.undo: a move that shows anyone a new bone stands)."""
        shown = {entry[position] for entry in view["players"] for position in POSITIONS if entry[position]}
        return shown | ({view["drawn"]} if view["drawn"] else set())

    def result(self, state: State) -> dict | None:
        if state.phase != "over":
            return None
        totals = _totals(state)
        best = max(totals.values())
        return {"winners": [player for player in state.players if totals[player] == best], "scores": totals}

    def _require_to_act(self, state: State, player: str) -> None:
        if state.phase == "over":
            raise IllegalMove("The game is over.")
        if player in self.to_act(state):
            return
        if state.phase == "scoring":
            waiting = ", ".join(self.to_act(state))
            raise IllegalMove(f"You have chosen your box for this hand; waiting for {waiting}.")
        raise IllegalMove(f"It is {state.players[state.turn]}'s turn.")

    def _draw(self, state: State, player: str, events: list[dict]) -> None:
        if not state.pile:
            raise IllegalMove("The pile is empty: swap instead.")
        state.drawn = state.pile.pop(0)
        state.phase = "drawn"
        events.append({"type": "drew", "player": player, "pile": len(state.pile)})

    def _place(self, state: State, player: str, action: PlaceAction, events: list[dict]) -> None:
        if state.phase != "drawn" or state.drawn is None:
            raise IllegalMove("Draw a bone first: use the Draw button.")
        if action.target not in state.players:
            targets = ["your own bones"] + [f"{other}'s" for other in state.players if other != player]
            raise IllegalMove(f"That player is not at this table: place it on {_one_of(targets)}.")
        if action.target == player and action.position == "out":
            raise IllegalMove("On your own bones you may place face in or face up, not face out.")
        if action.target != player and action.position == "in":
            raise IllegalMove("On another player's bones you may place face out or face up, not face in.")
        state.bones[action.target][action.position] = state.drawn
        state.drawn = None
        state.phase = "turns"
        event: dict[str, Any] = {"type": "placed", "player": player, "target": action.target,
                                 "position": action.position}
        if action.position == "up":
            event["bone"] = state.bones[action.target]["up"]
        events.append(event)
        self._end_turn(state, player, events)

    def _swap(self, state: State, player: str, action: SwapAction, events: list[dict]) -> None:
        other = action.with_
        if other not in state.players:
            others = [seated for seated in state.players if seated != player]
            raise IllegalMove(f"That player is not at this table: swap with {_one_of(others)}.")
        if other == player:
            raise IllegalMove("Swap with another player.")
        mine, theirs = ("up", "up") if action.kind == "up" else ("in", "out")
        own, their = state.bones[player], state.bones[other]
        own[mine], their[theirs] = their[theirs], own[mine]
        event: dict[str, Any] = {"type": "swapped", "player": player, "with": other, "kind": action.kind}
        if action.kind == "up":
            event["bones"] = {player: own["up"], other: their["up"]}
        events.append(event)
        self._end_turn(state, player, events)

    def _end_turn(self, state: State, player: str, events: list[dict]) -> None:
        state.turns_left[player] -= 1
        if any(state.turns_left.values()):
            state.turn = (state.turn + 1) % len(state.players)
            return
        state.phase = "scoring"
        state.scored = []
        events.append({
            "type": "revealed",
            "hand": state.hand,
            "players": [{"id": owner, **state.bones[owner]} for owner in state.players],
        })

    def _score(self, state: State, player: str, box: str, rng: Randomness, events: list[dict]) -> None:
        if state.phase != "scoring":
            raise IllegalMove("Boxes are chosen after everyone's third turn.")
        if state.scorecard[player][box] is not None:
            raise IllegalMove(f"Your {box} box is filled already: choose an open box.")
        points = box_score(state.bones[player].values(), box)
        state.scorecard[player][box] = points
        state.scored.append(player)
        events.append({"type": "scored", "player": player, "box": box, "points": points})
        if self.to_act(state):
            return
        if state.hand == HANDS:
            state.phase = "over"
            result = self.result(state)
            events.append({"type": "game_over", **(result or {})})
            return
        self._next_hand(state, rng, events)

    def _next_hand(self, state: State, rng: Randomness, events: list[dict]) -> None:
        state.hand += 1
        state.bones, state.pile = _deal(state.players, rng)
        state.phase = "turns"
        state.scored = []
        state.drawn = None
        state.turn = (state.hand - 1) % len(state.players)
        state.turns_left = {player: TURNS_PER_HAND for player in state.players}
        events.append({"type": "dealt", "hand": state.hand, "first": state.players[state.turn]})


GAME = JohariBones()
