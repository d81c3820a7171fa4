"""Crayon Rails played by menus and buttons alone: what the table offers the player to act.

- Setup: a menu of the offered cards and their demands; choosing one asks, for the chooser alone,
  whether to keep it alone or add a second card and its demand (so no card can be named twice);
  and **Keep none**.
- A turn: **Place the train…** (first turn) or **Move to…** (a whole leg in one choice: each city
  and milepost the train reaches this turn with its distance and any fee, and each city beyond reach,
  toward which it runs as far as it can; when they are more than a menu holds, the cities come
  first and the other mileposts by distance band, each band a menu of its own), **Load, lock or
  deliver…** (what the train can do where it stands), **Build toward…** (the suggested cities first,
  then a region, then a city in it: every menu stays within 25 options), the upgrades, **Pitch** and
  **End turn**. Choosing a city to build toward shows the track it would lay and its cost to the
  builder alone, with a **Confirm** button.
- After a derailment: what each derailed player may lose, for that player.

Every component names the players who may use it; the shared press path refuses anyone else
privately. Tokens are short (`mv.H9`, `mvb.4`, `bto.H9`, `reg.ne`, `kk.17.0.23.1`) so they fit a custom_id, and a
choice is read back from the token alone, so the menus work after a restart.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from bot.presentation.frontend import MAX_OPTIONS, ActionButton, Component, Legal, Option, Select, Step, chunked_select
from bot.presentation.render.crayon_rails import draw_build_preview
from games.core import IllegalMove, SeededRandomness
from games.crayon_rails.building import plan_build
from games.crayon_rails.cards import demand_card
from games.crayon_rails.determinize import determinize
from games.crayon_rails.engine import GAME
from games.crayon_rails.goals import goal_cities
from games.crayon_rails.mapdata import City, board
from games.crayon_rails.movement import plan_move
from games.crayon_rails.routing import network, track_pieces
from games.crayon_rails.state import UPGRADE_COST, State

REGIONS = {"nw": "north-west", "ne": "north-east", "sw": "south-west", "se": "south-east"}


def region_of(city: City) -> str:
    col, row = board().cell(city.at)
    return ("n" if row < board().height // 2 else "s") + ("w" if col < board().width // 2 else "e")


def place(milepost: str) -> str:
    """How replies name a place: "Northgate (I2)" where a city stands, else the milepost."""
    city = board().city_at(milepost)
    return f"{city.name} ({milepost})" if city else milepost


def demand_text(card: int, demand: int) -> str:
    wanted = demand_card(card).demands[demand]
    return f"{wanted.load} to {wanted.city} ({wanted.payoff})"


def build_preview_words(path: list[str], cost: int, cash: int, target: str, track: list[list[str]]) -> str:
    """A build's preview in words, the same for the menu's step and `/build to:`. `track` is the builder's:
    a path that ends on the piece of it holding `target` (a piece a Flood cut off) joins the target now."""
    if path[-1] == target:
        reach = ""
    elif any({path[-1], target} <= piece for piece in track_pieces(track)):
        reach = f", joining your track to {place(target)}"
    else:
        reach = f", toward {place(target)} (the rest on a later turn)"
    return (f"Build {len(path) - 1} section{'s' if len(path) > 2 else ''} from {place(path[0])} to "
            f"{place(path[-1])}{reach} for **{cost}** (cash {cash}, leaving {cash - cost}): {' '.join(path)}.")


def spoken_place(milepost: str) -> str:
    """A place as a screen reader should hear it, never a milepost code: a city by name, another milepost by its
    nearest city ("a milepost 2 from Ironhill")."""
    city = board().city_at(milepost)
    if city:
        return city.name
    near = min(board().cities.values(), key=lambda city: (board().distance(milepost, city.at), city.name))
    steps = board().distance(milepost, near.at)
    return f"a milepost next to {near.name}" if steps == 1 else f"a milepost {steps} from {near.name}"


def build_preview_alt(path: list[str], cost: int, cash: int, target: str, track: list[list[str]]) -> str:
    """A build preview's picture in words (`build_preview_words` without milepost codes or the path's list)."""
    if path[-1] == target:
        reach = ""
    elif any({path[-1], target} <= piece for piece in track_pieces(track)):
        reach = f", joining your track to {spoken_place(target)}"
    else:
        reach = f", toward {spoken_place(target)} (the rest on a later turn)"
    return (f"Proposed track: {len(path) - 1} section{'s' if len(path) > 2 else ''} from {spoken_place(path[0])} to "
            f"{spoken_place(path[-1])}{reach}, for {cost} (cash {cash}, leaving {cash - cost}).")


def build_preview_caption(path: list[str], cost: int) -> str:
    """The caption on a build preview's picture."""
    return f"Proposed: {len(path) - 1} section{'s' if len(path) > 2 else ''} to {place(path[-1])}, cost {cost}"


def acting_components(view: dict, legal: Legal) -> list[Component]:
    """The menus and buttons of the player to act (setup keeps, a turn, or derailment losses)."""
    if view["phase"] == "over" or not view["to_act"]:
        return []
    pending = next((e["pending"] for e in view["active_events"] if e.get("pending")), None)
    if pending:
        return _losses(pending, legal)
    player = view["to_act"][0]
    mine = legal.get(player, [])
    if view["phase"] == "setup":
        return _keeps(player, mine)
    return _turn(view, player, mine)


def _keeps(player: str, actions: list[dict]) -> list[Component]:
    """A menu of every offered card and demand; choosing one asks whether to keep a second card too."""
    offered = _offered_keeps(actions)
    found: list[Component] = []
    if offered:
        options = tuple(Option(f"#{card} {demand_text(card, demand)}"[:100], f"k.{card}.{demand}")
                        for card, demand in offered)
        found.append(Select("keep", "Keep a card: choose it and its demand…", options, (player,)))
    found.append(ActionButton("Keep none", "keep", "secondary", (player,)))
    return found


def _offered_keeps(actions: list[dict]) -> list[tuple[int, int]]:
    return sorted({(int(card), demand) for a in actions if a["type"] == "keep" for card, demand in a["cards"].items()})


def _second_keep_step(view: dict, viewer: str, card: int, demand: int, legal: Mapping[str, list[dict]]) -> Step | None:
    """After the first kept card: keep it alone, or add one other card and its demand."""
    offered = _offered_keeps(legal.get(viewer, []))
    if (card, demand) not in offered:
        return None
    options = [Option(f"Keep only #{card}", f"kk.{card}.{demand}")]
    options += [Option(f"Also #{other} {demand_text(other, index)}"[:100], f"kk.{card}.{demand}.{other}.{index}")
                for other, index in offered if other != card]
    return Step(f"Keep #{card} for {demand_text(card, demand)}. Keep a second card as well?",
                (Select(f"k.{card}.{demand}", "Keep only this card, or add one…", tuple(options), (viewer,)),))


def _losses(pending: list[str], legal: Legal) -> list[Component]:
    found: list[Component] = []
    for player in pending:
        for action in legal.get(player, []):
            if action["type"] == "give_up" and action.get("card") is not None:
                found.append(ActionButton(f"Give up lock #{action['card']}", f"give_up.card.{action['card']}",
                                          "danger", (player,)))
            elif action["type"] == "give_up":
                found.append(ActionButton(f"Lose {action['load']}", f"give_up.load.{action['load']}", "danger",
                                          (player,)))
            elif action["type"] in ("keep_private", "release"):
                verb = "Keep" if action["type"] == "keep_private" else "Release"
                found.append(ActionButton(f"{verb} #{action['card']}", f"{action['type']}.{action['card']}",
                                          "primary" if verb == "Keep" else "secondary", (player,)))
    return found[:25]


def _turn(view: dict, player: str, actions: list[dict]) -> list[Component]:
    who = (player,)
    found: list[Component] = []
    starts = [Option(place(board().cities[a["city"]].at), f"st.{a['city']}") for a in actions
              if a["type"] == "start"]
    if starts:
        found += chunked_select("place", "Place your train on a city…", starts, who)
    moves = _move_options(view, player, actions)
    if moves:
        found += chunked_select("move", "Move to…", moves, who)
    cargo = _cargo_options(actions)
    if cargo:
        found += chunked_select("cargo", "Load, lock or deliver here…", cargo, who)
    builds = _build_options(view, player, actions)
    if builds:
        found.append(Select("build", "Build toward…", tuple(builds), who))
    buttons = [ActionButton(f"Upgrade to {a['train']} (costs {UPGRADE_COST})", f"upgrade.{a['train']}", "secondary",
                            who) for a in actions if a["type"] == "upgrade"]
    if {"type": "pitch"} in actions:
        buttons.append(ActionButton("Pitch", "pitch", "secondary", who))
    if {"type": "end_turn"} in actions:
        buttons.append(ActionButton("End turn", "end_turn", "success", who))
    return found + buttons


@dataclass(frozen=True)
class Leg:
    """One move the menu offers: where the train stops, after how many mileposts, for what fee;
    `toward` is the city beyond reach that the leg heads for (the train stops short of it)."""

    end: str
    steps: int
    fee: int
    toward: str | None = None

    @property
    def token(self) -> str:
        return f"mv.{self.toward or self.end}"

    @property
    def label(self) -> str:
        count = f"{self.steps} milepost{'s' if self.steps > 1 else ''}" + (f", fee {self.fee}" if self.fee else "")
        if self.toward:
            return f"Toward {place(self.toward)}: to {place(self.end)} this turn ({count})"
        return f"{place(self.end)}: {count}"


BAND = 3
"""Mileposts per distance band when the destinations are too many for one menu."""


def move_legs(view: dict, player: str, actions: list[dict]) -> list[Leg]:
    """The legs of the legal moves, worked out by the engine on the same game: cities in reach
    (nearest first), then the cities beyond reach, then the other mileposts in reach."""
    moves = [action for action in actions if action["type"] == "move"]
    if not moves:
        return []
    state = _state(view)
    legs = []
    for action in moves:
        path, fee = plan_move(state, player, action.get("path"), action.get("toward"))
        toward = board().resolve(action["toward"]) if action.get("toward") else None
        legs.append(Leg(path[-1], len(path), fee, toward))
    return sorted(legs, key=lambda leg: (2 if board().city_at(leg.end) is None and not leg.toward else
                                          1 if leg.toward else 0, leg.steps, leg.toward or leg.end))


def _move_options(view: dict, player: str, actions: list[dict]) -> list[Option]:
    """Every leg in one menu when they fit; else the cities, then the other mileposts by distance band
    ("Other mileposts 1-3 away…"), each band opening a menu of its own."""
    legs = move_legs(view, player, actions)
    if len(legs) <= MAX_OPTIONS:
        return [Option(leg.label[:100], leg.token) for leg in legs]
    cities = [leg for leg in legs if leg.toward or board().city_at(leg.end)]
    options = [Option(leg.label[:100], leg.token) for leg in cities]
    bands: dict[int, int] = {}
    for leg in legs:
        if leg not in cities:
            low = (leg.steps - 1) // BAND * BAND + 1
            bands[low] = bands.get(low, 0) + 1
    options += [Option(f"Other mileposts {low}-{low + BAND - 1} away ({count})…", f"mvb.{low}")
                for low, count in sorted(bands.items())]
    return options


def _band_step(view: dict, viewer: str, low: int, legal: Mapping[str, list[dict]]) -> Step:
    """The mileposts (not cities) the train reaches in `low`..`low + BAND - 1` mileposts."""
    legs = [leg for leg in move_legs(view, viewer, legal.get(viewer, []))
            if not leg.toward and board().city_at(leg.end) is None and low <= leg.steps < low + BAND]
    options = [Option(leg.label[:100], leg.token) for leg in legs]
    if not options:
        return Step(f"The train reaches no other milepost {low}-{low + BAND - 1} away now.", ())
    return Step(f"Move to which milepost, {low}-{low + BAND - 1} away?",
                tuple(chunked_select(f"mvb.{low}", "Move to…", options, (viewer,))[:4]))


def _cargo_options(actions: list[dict]) -> list[Option]:
    found = []
    for action in actions:
        match action["type"]:
            case "pickup":
                found.append(Option(f"Pick up {action['load']}", f"pickup.{action['load']}"))
            case "drop":
                found.append(Option(f"Drop {action['load']}", f"drop.{action['load']}"))
            case "lock" | "deliver":
                verb = "Lock" if action["type"] == "lock" else "Deliver"
                found.append(Option(f"{verb} #{action['card']}: {demand_text(action['card'], action['demand'])}",
                                    f"{action['type']}.{action['card']}.{action['demand']}"))
    return found


def _build_options(view: dict, player: str, actions: list[dict]) -> list[Option]:
    """The suggested cities (with why), then one entry per region leading to its cities."""
    suggested = [a["toward"] for a in actions if a["type"] == "build" and a.get("toward")]
    if not suggested:
        return []
    why = goal_cities(_state(view), player)
    options = [Option(f"{place(board().cities[name].at)}: {why.get(name, 'cheap to reach')}"[:100],
                      f"bto.{board().cities[name].at}") for name in suggested]
    options += [Option(f"Other cities in the {label}…", f"reg.{key}") for key, label in REGIONS.items()]
    return options


def _state(view: dict) -> State:
    """The game rebuilt from the public view (nothing is hidden in this game; the deck order is moot)."""
    return determinize(view, SeededRandomness(0))


def expand(token: str, view: dict, viewer: str, legal: Mapping[str, list[dict]]) -> Step | None:
    """A region's cities, or a build's preview with Confirm; None for tokens that are actions."""
    kind, _, rest = token.partition(".")
    parts = rest.split(".")
    if kind == "k" and len(parts) == 2 and all(part.isdigit() for part in parts):
        return _second_keep_step(view, viewer, int(parts[0]), int(parts[1]), legal)
    if kind == "reg" and rest in REGIONS:
        return _region_step(view, viewer, rest)
    if kind == "mvb" and rest.isdigit():
        return _band_step(view, viewer, int(rest), legal)
    if kind == "bto" and "=" not in rest and board().city_at(rest.upper()):
        return _preview_step(view, viewer, rest.upper())
    return None


def _region_step(view: dict, viewer: str, region: str) -> Step:
    """The region's cities that a build can head for now; if none, the suggested ones instead."""
    state = _state(view)
    cities = [c for c in sorted(board().cities.values(), key=lambda c: c.name)
              if region_of(c) == region and _buildable(state, viewer, c.at)]
    if cities:
        options = tuple(Option(f"{c.name} ({c.at}): {', '.join(c.supplies)}", f"bto.{c.at}") for c in cities)
        return Step(f"Build toward which city in the {REGIONS[region]}?",
                    (Select(f"reg.{region}", "Build toward…", options, (viewer,)),))
    suggested = [a["toward"] for a in GAME.legal_actions(state, viewer) if a["type"] == "build"]
    options = tuple(Option(place(board().cities[name].at), f"bto.{board().cities[name].at}") for name in suggested)
    text = f"No city in the {REGIONS[region]} can be built toward now (on your track already, or out of reach)."
    if not options:
        return Step(text, ())
    return Step(text + " These can:", (Select(f"reg.{region}", "Build toward…", options, (viewer,)),))


def _buildable(state: State, player: str, milepost: str) -> bool:
    try:
        plan_build(state, player, None, milepost)
    except IllegalMove:
        return False
    return milepost not in network(state.player(player))


def _preview_step(view: dict, viewer: str, target: str) -> Step:
    """What building toward `target` would lay, worked out by the engine on the same game, to confirm."""
    try:
        _, events = GAME.apply(_state(view), viewer, {"type": "build", "toward": target}, SeededRandomness(0))
    except IllegalMove as refusal:
        return Step(f"No track toward {place(target)} now: {refusal.message}", ())
    built = next(event for event in events if event["type"] == "built")
    path, cost = built["path"], built["cost"]
    builder = next(p for p in view["players"] if p["id"] == viewer)
    text = build_preview_words(path, cost, builder["cash"], target, builder["track"])
    caption = build_preview_caption(path, cost)
    return Step(text, (ActionButton("Confirm build", f"bto.{target}=go", "success", (viewer,)),),
                lambda names: draw_build_preview(view, dict(names), path, caption),
                alt=build_preview_alt(path, cost, builder["cash"], target, builder["track"]))


def action_for_token(token: str) -> dict | None:
    """The action of a menu token of this module, or None when the token is not one of them."""
    kind, _, rest = token.partition(".")
    if kind == "mv" and rest:
        return {"type": "move", "toward": rest}
    if kind == "st" and rest:
        return {"type": "start", "city": rest}
    if kind == "bto" and rest.endswith("=go"):
        return {"type": "build", "toward": rest.removesuffix("=go")}
    if kind == "kk" and rest:
        numbers = rest.split(".")
        return {"type": "keep", "cards": {numbers[i]: int(numbers[i + 1]) for i in range(0, len(numbers) - 1, 2)}}
    return None
