"""Crayon Rails with public locking: the engine behind the contract in games.core.

Rulings where the rules file is silent (see rules/crayon-rails.md for the rest):
- Every city, major ones included, is a single milepost; "major cities join every track" means
  any player may start track there and both players' track meets there. The 2-section entry
  limit applies per player to small and medium cities, not to major cities, which take track
  from all sides. `build to` a place lays the cheapest affordable track toward it, starting on
  the player's network or at any major city (whichever is cheaper, as the rules let track start
  at either); toward a major city it extends his network, so that the major joins it (a player
  with no track yet starts at another major city). `build path` may start at any major city.
- Building costs the terrain (or city) of the milepost built into, plus 2 for a river crossing.
  Several `build` actions may be made in a turn, up to 20 in all; building needs no train.
- Initial building: round 1 in seat order, round 2 reversed, no upgrades; seat 0 (the last to
  build) then moves first and play runs in seat order. A round is one turn of each seat.
- Movement: a `move` names its mileposts (or a destination `toward`, followed along `train_route`
  as far as the allowance reaches). `legal_actions` offers a whole leg per action: the route to
  every milepost the train reaches this turn (as `move toward` would take it), and `move toward`
  each city beyond reach; single steps and any path stay accepted, so recorded games replay.
  Toward a place, the route keeps to the player's own track whenever that arrives in as few turns
  as the shortest route over anyone's (later turns counted at the train's full speed; events to
  come cannot be foreseen), so the foreign-track fee is paid only to arrive a turn sooner. The
  older `move to` compared the own route with this turn's allowance only, and could pay the fee
  on a trip of several turns for a shortcut that saved none: recorded games use it, so it still
  replays exactly as it played. Loads are
  picked up or dropped only where the train stands, so a train picks up "while passing" by
  moving in two steps. The foreign-track fee (4) goes to the
  track's owner. A reversal is running straight back to the milepost just left; it is allowed
  only at a city, and the last milepost left is remembered across turns.
- Private cards: a load aboard that matches a private card fills it and is locked like a public
  locking load (no dropping, no new lock with it); a private card whose load is not aboard holds
  a slot. A kept card counts as a locked load only once its load is aboard: "locked loads"
  (pitching, victory) are loads aboard under a public lock or filling a private card, so a
  private card still waiting for its load blocks neither a win nor a pitch. Loads of one type
  are interchangeable between kept cards: with one Steel aboard, either of two kept Steel cards
  may be delivered, and a derailment offers each of them to release or keep.
- Keeping two cards at setup reserves both of a freight's slots until their loads are delivered.
- Events turned up during setup are set aside without effect and replaced. An event lasts until
  the end of the drawer's next turn, the drawer being the player whose turn it is.
- Distances for Derailment (3) and Snow (4) are grid steps, ignoring water and track. Snow
  halves the allowance of a train that begins its turn in reach (or is in reach when it falls)
  and forbids building into non-city mountain or alpine mileposts in reach. A Flood erases
  both players' crossings of its river.
- Derailment: trains not yet placed are safe; a derailed train loses its owner's next turn
  whole (no moving or building). A derailed player with loads chooses the lost one with
  `give_up {card}` (a public lock), `give_up {load}` (an unlocked load), or `release`/`keep_private
  {card}` (the load filling a private card). Several derailed players choose in any order;
  drawing resumes when all have chosen.
- Pitching must be the first thing in a turn; it discards up to three unlocked cards. Locks
  made afterwards may draw cards as usual; nothing else but `end_turn` follows.
- Victory: a player who meets the conditions at the end of his turn is announced as qualified,
  and that stands for the rest of the round, whatever happens in the other player's turn (a
  Flood erasing his track). At the end of the round's last turn (seat 1) the qualified players
  with the most cash win; so when seat 0 qualifies, seat 1 always finishes the round.
- Undo (games.undo): a build, an upgrade, a start, a move, a pickup or a drop, and a lock or a
  delivery that turned up no card, may be taken back by its player before anyone else acts. A
  step that turns up a card from the deck (a delivery or lock refilling the pool, an event)
  stands, as does anything that shuffled (a pitch, a reshuffle). The deck's order was fixed by an
  earlier shuffle, so drawing uses no chance, but the card drawn has been seen.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import games.crayon_rails.actions as act
from games.core import IllegalMove, Randomness, copied, parse_action, require_seated
from games.crayon_rails.building import build, upgrade
from games.crayon_rails.cards import deck
from games.crayon_rails.derailment import give_up, lose_private_load
from games.crayon_rails.determinize import determinize
from games.crayon_rails.legal import legal_actions
from games.crayon_rails.locking import deliver, draw_for_setup, keep_cards, lock, pitch
from games.crayon_rails.movement import drop, move, pickup, start
from games.crayon_rails.state import Options, Player, State, Turn
from games.crayon_rails.turns import end_initial_turn, finish_turn, require_turn
from games.crayon_rails.view import public_view, to_act

SETUP_OFFER = 4


class CrayonRails:
    slug = "crayon-rails"
    title = "Crayon Rails (public locking)"
    min_players = 2
    max_players = 2
    actions = act.ACTIONS

    def new_game(self, players: Sequence[str], rng: Randomness, options: Mapping[str, Any] | None = None) -> State:
        if len(players) != 2 or len(set(players)) != 2:
            raise IllegalMove("Crayon Rails is for exactly two players.")
        state = State(
            players=[Player(id=p) for p in players],
            options=Options.model_validate(dict(options or {})),
            deck=rng.shuffle(sorted(deck())),
            turn=Turn(player=players[0]),
        )
        for _ in range(SETUP_OFFER):
            draw_for_setup(state, rng, [])
        return state

    def to_act(self, state: State) -> list[str]:
        return to_act(state)

    def apply(self, state: State, player: str, action: Mapping[str, Any], rng: Randomness) -> tuple[State, list[dict]]:
        require_seated([p.id for p in state.players], player)
        parsed = parse_action(act.ACTIONS, action)
        new = copied(state)
        events: list[dict] = []
        _dispatch(new, player, parsed, rng, events)
        return new, events

    def view(self, state: State, player: str | None) -> dict:
        return public_view(state)

    def result(self, state: State) -> dict | None:
        if state.phase != "over" or state.winners is None:
            return None
        return {"winners": list(state.winners), "scores": {p.id: p.cash for p in state.players}}

    def legal_actions(self, state: State, player: str) -> list[dict]:
        return legal_actions(state, player)

    def determinize(self, view: dict, player: str, rng: Randomness) -> State:
        return determinize(view, rng)

    def state_from_json(self, data: str) -> State:
        return State.model_validate_json(data)

    @staticmethod
    def hidden_items_shown(view: dict) -> set[str]:
        """The cards turned up from the face-down deck so far, by the order they came (games.undo)."""
        return {f"card turned up {number}" for number in range(len(deck()) - view["deck"])}


def _needs_one_place(path: list[str] | None, *destinations: str | None) -> None:
    if sum(place is not None for place in (path, *destinations)) != 1:
        raise IllegalMove("Give either a path of mileposts or one destination (toward), not both.")


def _dispatch(state: State, player: str, action: Any, rng: Randomness, events: list[dict]) -> None:
    match action:
        case act.Keep(cards=cards):
            if keep_cards(state, player, cards, rng, events):
                _begin_initial_build(state, events)
        case act.Build(path=path, toward=toward, to=to):
            _needs_one_place(path, toward, to)
            build(state, player, path, toward or to, events, legacy=to is not None)
        case act.Upgrade(train=train):
            upgrade(state, player, train, events)
        case act.Start(city=city):
            start(state, player, city, events)
        case act.Move(path=path, toward=toward, to=to):
            _needs_one_place(path, toward, to)
            move(state, player, path, toward or to, events, legacy=to is not None)
        case act.Pickup(load=load):
            pickup(state, player, load, events)
        case act.Drop(load=load):
            drop(state, player, load, events)
        case act.LockCard(card=card, demand=demand):
            lock(state, player, card, demand, rng, events)
        case act.Deliver(card=card, demand=demand):
            deliver(state, player, card, demand, rng, events)
        case act.Pitch():
            pitch(state, player, rng, events)
        case act.GiveUp(card=card, load=load):
            give_up(state, player, card, load, rng, events)
        case act.Release(card=card):
            lose_private_load(state, player, card, True, rng, events)
        case act.KeepPrivate(card=card):
            lose_private_load(state, player, card, False, rng, events)
        case act.EndTurn():
            _end_turn(state, player, events)


def _begin_initial_build(state: State, events: list[dict]) -> None:
    seats = [p.id for p in state.players]
    state.phase = "initial-build"
    state.round = 1
    state.build_queue = seats + seats[::-1]
    state.turn = Turn(player=seats[0])
    events.append({"type": "initial_build_started"})


def _end_turn(state: State, player: str, events: list[dict]) -> None:
    require_turn(state, player, ("initial-build", "play"))
    events.append({"type": "turn_ended", "player": player})
    if state.phase == "initial-build":
        end_initial_turn(state, events)
    else:
        finish_turn(state, player, events)


GAME = CrayonRails()
