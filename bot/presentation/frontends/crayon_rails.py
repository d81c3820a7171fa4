"""Crayon Rails in Discord: the board image, narration, buttons, autocomplete and command actions.

The game's own commands live in `cogs/crayon_rails.py`; this module turns their options into
actions (`command_action`), offers their autocomplete (`choices`, from the legal actions) and
draws the `/build to:` preview. The shared `/move` verb maps here too:
- `/move to:<city or milepost>`: the engine's `move toward` follows its `train_route` as far as this
  turn allows;
  `/move path:"F7 G7 H8"`: exactly those mileposts.
- `/build to:` asks the engine for the cheapest track toward a place that this turn's budget
  affords (previewed, then confirmed); `/build path:` builds exactly the mileposts named.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.presentation.frontend import Component, Events, Frontend, Legal, Names, Step, display_name, joined
from bot.presentation.frontends.crayon_components import (
    acting_components,
    action_for_token,
    build_preview_alt,
    build_preview_caption,
    build_preview_words,
    demand_text,
    expand,
    move_legs,
    place,
    spoken_place,
)
from bot.presentation.render.canvas import seat_words
from bot.presentation.render.crayon_rails import draw_board, draw_build_preview, majors_progress, track_pattern
from games.core import IllegalMove, quoted
from games.crayon_rails.mapdata import board
from games.crayon_rails.routing import track_pieces

RULES = """**Crayon Rails** (two players, public locking)
Build track between mileposts (up to 20 a turn: clear 1, mountain 2, alpine 5, city 3, major city 5, \
river +2) from a major city or your own track. Run your train (freight: 9 mileposts, 2 loads) along \
your track; the other's track costs 4 a turn. Reverse only in cities.
Pick up loads where supplied and deliver them for the payoff on a card. **Which city supplies what:** \
the map labels each city's loads (legend under it), and `/cities` answers privately with every city, its \
milepost, its supplies and the open demands there (`/cities city:Northgate` for one city in detail).
All demand cards are in a public pool: to deliver, first **lock** one demand of a pool card with a load \
you carry (3 markers each); the other player may race you on the same demand. Cards kept at setup are \
your private locks. Events: Derailment, Flood, Strike, Snow. With no locked loads you may **pitch** your \
turn to discard three random pool cards.
Win with 100 cash, track joining 3 of the 4 major cities, and no locked loads; the round is finished first.
Rulings: a kept card counts as a locked load only once its load is aboard (before that it blocks neither \
a win nor a pitch); loads of one type serve any of your kept cards; the two-sections-per-city entry \
limit applies to small and medium cities, not majors; events turned up during setup are set aside and \
replaced; a qualification announced at the end of the first player's turn stands for the rest of the round.
Setup: `/keep cards:"17:0 23:2"` (card:demand, up to two; leave out to keep none). Then two building rounds \
with no trains (`/build`, `/endturn`; the second in reverse order, its last builder moves first). Turn: \
`/place city:` (first turn), `/move`, `/pickup`, `/drop`, `/lock`, `/deliver`, then `/build to:` (preview, Confirm) or \
`/build path:"F7 G7"` (at once) or `/upgrade`, then `/endturn`. `/pitch` replaces a turn."""

COMMANDS: dict[str, str] = {
    "keep": "/keep cards:\"17:0 23:2\" (card:demand)",
    "build": "/build to:<city or milepost> (preview) or path:\"F7 G7 H8\" (builds at once)",
    "pickup": "/pickup load:<load>",
    "drop": "/drop load:<load>",
    "lock": "/lock card:<id> demand:<0-2>",
    "deliver": "/deliver card:<id> demand:<0-2>",
    "upgrade": "/upgrade train:<fast, heavy or super>",
}


def move_action(to: str | None = None, path: str | list[str] | None = None) -> dict:
    """`/move to:` runs the engine's `toward` (its older `to` could pay the foreign-track fee for a
    shortcut that saved no turn, and is kept for recorded games)."""
    return _place_action("move", to, path)


def build_action(to: str | None = None, path: str | list[str] | None = None) -> dict:
    return _place_action("build", to, path)


def build_toward(place: str) -> dict:
    """The cheapest legal build toward a place (the engine's `toward`; its older `to` only extends
    the network and is kept for recorded games)."""
    return {"type": "build", "toward": place}


def _place_action(kind: str, to: str | None, path: str | list[str] | None) -> dict:
    """The action for a command's `to:` or `path:` option: a place is the engine's `toward`."""
    if path:
        mileposts = path.replace(",", " ").split() if isinstance(path, str) else list(path)
        return {"type": kind, "path": mileposts}
    if to:
        return {"type": kind, "toward": to}
    raise IllegalMove(f"Say where: to:<city or milepost> or path:\"F7 G7 ...\" for /{kind}.")


def build_target(to: str) -> str:
    """The milepost a `/build to:` place names (a preview's Confirm button carries it)."""
    milepost = board().resolve(to)
    if milepost is None:
        raise IllegalMove(f"{quoted(to)} is neither a milepost (like F7) nor a city: pick one from the list.")
    return milepost


def keep_action(cards: str | None) -> dict:
    """`"17:0 23:2"` -> keep card 17 on demand 0 and card 23 on demand 2; nothing keeps no card."""
    kept: dict[str, int] = {}
    for item in (cards or "").replace(",", " ").split():
        card, sep, demand = item.replace("=", ":").partition(":")
        if not (sep and card.lstrip("#").isdigit() and demand in ("0", "1", "2")):
            raise IllegalMove(f"Write each kept card as card:demand, like \"17:0 23:2\" (demand 0, 1 or 2), "
                              f"not {quoted(item)}.")
        if card.lstrip("#") in kept:
            raise IllegalMove(f"Card {card.lstrip('#')} is named twice: a kept card locks one demand, so name "
                              f"it once, like \"{card.lstrip('#')}:{demand}\".")
        kept[card.lstrip("#")] = int(demand)
    return {"type": "keep", "cards": kept}


def place_name(milepost: str) -> str:
    city = board().city_at(milepost)
    return city.name if city else milepost


def city_label(name: str) -> str:
    """A city name with its milepost, "Northgate (I2)"; other words pass through."""
    city = board().cities.get(name)
    return f"{city.name} ({city.at})" if city else name


def _built(events: list[dict]) -> tuple[list[str], int, str]:
    """The track a build would lay, its cost and its builder, from the events it would cause."""
    built = next(event for event in events if event["type"] == "built")
    return built["path"], built["cost"], built["player"]


class CrayonRailsFrontend(Frontend):
    slug = "crayon-rails"
    rules_text = RULES
    verbs = {"move": "/move to:<city or milepost> or path:\"F7 G7 H8\" — the whole way if in reach this "
                     "turn, else as far as it allows",
             "place": "/place city:<city> — puts your train on the map on your first operating turn"}
    move_kinds = {"start": "place your train"}
    commands = {"keep": "/keep — at setup, keep up to two offered cards privately",
                "build": "/build to:<place> or path:<mileposts> — a preview to Confirm, or at once",
                "pickup": "/pickup — a load where your train stands",
                "drop": "/drop — an unlocked load at this city",
                "lock": "/lock — a pool card's demand with a load you carry",
                "deliver": "/deliver — a locked load here, for its payoff",
                "pitch": "/pitch — give up your turn to discard three pool cards",
                "upgrade": "/upgrade — your train, for 20 instead of building",
                "endturn": "/endturn — end your turn",
                "cities": "/cities [city] — privately: each city's milepost, supplies and open demands"}

    def draw_board(self, view: dict, names: Names, events: Events = ()) -> bytes:
        return draw_board(view, dict(names))

    def verb_action(self, verb: str, options: Mapping[str, Any]) -> dict:
        if verb == "move":
            return move_action(options.get("to"), options.get("path"))
        if verb == "place":
            if not options.get("city"):
                raise IllegalMove("Name the city for your train: /place city:<city>.")
            return {"type": "start", "city": options["city"]}
        return super().verb_action(verb, options)

    def command_action(self, command: str, options: Mapping[str, Any]) -> dict:
        """The action for one of the game's own commands (see cogs/crayon_rails.py)."""
        given = {key: value for key, value in options.items() if value is not None}
        if command == "keep":
            return keep_action(given.get("cards"))
        if command == "build":
            return build_action(given.get("to"), given.get("path"))
        if command in ("pitch", "end_turn", "endturn"):
            return {"type": "end_turn" if command == "endturn" else command}  # /endturn, as typed
        needed = {"pickup": ("load",), "drop": ("load",), "upgrade": ("train",),
                  "lock": ("card", "demand"), "deliver": ("card", "demand")}.get(command)
        if needed is None:
            raise IllegalMove(f"/{command} is not a Crayon Rails command.")
        missing = [name for name in needed if name not in given]
        if missing:
            raise IllegalMove(f"Give {' and '.join(missing)}: {COMMANDS[command]}.")
        return {"type": command, **{name: given[name] for name in needed}}

    def build_preview_text(self, view: dict, events: list[dict], target: str) -> str:
        """The words of a `/build to:` preview, from the events the build would cause."""
        path, cost, builder = _built(events)
        player = next(p for p in view["players"] if p["id"] == builder)
        return build_preview_words(path, cost, player["cash"], target, player["track"])

    def build_preview_alt(self, view: dict, events: list[dict], target: str) -> str:
        """The words of a `/build to:` preview's picture, for its alt text: places by name, no milepost codes."""
        path, cost, builder = _built(events)
        player = next(p for p in view["players"] if p["id"] == builder)
        return build_preview_alt(path, cost, player["cash"], target, player["track"])

    def build_preview_picture(self, view: dict, names: Names, events: list[dict]) -> bytes:
        """The picture of a `/build to:` preview (drawn only for who gets pictures: bot.play.text_view)."""
        path, cost, _ = _built(events)
        return draw_build_preview(view, dict(names), path, build_preview_caption(path, cost))

    def choices(self, verb: str, option: str, legal: list[dict], typed: Mapping[str, Any],
                view: dict | None = None, viewer: str = "") -> list[tuple[str, str]]:
        mine = [action for action in legal if action["type"] == verb]
        if (verb, option) == ("move", "to") and view is not None:
            return _move_choices(view, viewer, mine)
        if (verb, option) == ("build", "to"):
            return _build_choices(mine)
        if (verb, option) == ("place", "city"):
            return [(action["city"], action["city"]) for action in legal if action["type"] == "start"]
        if verb in ("pickup", "drop") and option == "load":
            return [(action["load"], action["load"]) for action in mine]
        if verb in ("lock", "deliver") and option == "card":
            return _card_choices(mine)
        if verb in ("lock", "deliver") and option == "demand":
            card = str(typed.get("card", ""))
            return [(f"{a['demand']}: {demand_text(a['card'], a['demand'])}", str(a["demand"])) for a in mine
                    if not card or str(a["card"]) == card]
        if (verb, option) == ("keep", "cards"):
            return _keep_choices(mine, str(typed.get("cards") or ""))
        return []

    def turn_words(self, view: dict, player: str) -> str:
        derailed = next((e["pending"] for e in view["active_events"] if e.get("pending")), [])
        if player in derailed:
            return derailment_words(view, player)
        if view["phase"] == "setup":  # the first thing a new player meets: say what the choice is
            return ("your turn: keep up to two of the offered cards, naming one demand of each (**Keep a card**, "
                    "or **Keep none**)")
        return super().turn_words(view, player)

    def describe_state(self, view: dict, names: Names) -> str:
        lines = [f"**{_phase_words(view['phase'])}**, round {view['round']}; deck {view['deck']} cards"]
        for seat, player in enumerate(view["players"]):
            where = f"at {place(player['at'])}" if player["at"] else "not placed"
            lines.append(
                f"{display_name(names, player['id'])} ({seat_words(seat)}): {player['cash']} cash, "
                f"{player['train']} train {where}, loads {', '.join(player['loads']) or 'none'}, "
                f"markers {player['markers']}, majors joined {majors_progress(view, player)}"
            )
            lines.append(_track_line(seat, player, names))
        for card in view["pool"]:
            demands = "; ".join(
                f"{i}: {d['load']} to {d['city']} ({d['payoff']})" for i, d in enumerate(card["demands"])
            )
            locks = ", ".join(f"{display_name(names, lock['player'])} on {lock['demand']}" for lock in card["locks"])
            owner = f" private to {display_name(names, card['private_to'])}" if card["private_to"] else ""
            lines.append(f"#{card['id']}{owner}: {demands}" + (f" [locked: {locks}]" if locks else ""))
        for event in view["active_events"]:
            lines.append(f"Event: {event['kind']} at {event['target']}")
        if view["winners"]:
            lines.append("Winner: " + ", ".join(display_name(names, w) for w in view["winners"]))
        elif view["to_act"]:
            lines.append("To act: " + ", ".join(display_name(names, p) for p in view["to_act"]))
        return "\n".join(lines)

    def alt_text(self, view: dict, names: Names) -> str:
        """The essentials for a screen reader, short enough to leave room for the turn's events within the game's
        alt text budget (bot.presentation.alt_text): each player's cash, majors joined, train, place (named as
        players know it, no milepost code), loads and locked cards; the pool's size; the events in force; then
        each player's track, which is cut first. (The embed's full list of pool demands would not fit.)"""
        lines = [f"{_phase_words(view['phase'])}, round {view['round']}."]
        for seat, player in enumerate(view["players"]):
            where = f"at {spoken_place(player['at'])}" if player["at"] else "not placed"
            locked = [f"#{card['id']} {demand['load']} to {demand['city']} for {demand['payoff']}"
                      for card in view["pool"] for lock in card["locks"] if lock["player"] == player["id"]
                      for demand in [card["demands"][lock["demand"]]]]
            lines.append(f"{display_name(names, player['id'])} ({seat_words(seat)}): {player['cash']} cash, majors "
                         f"{majors_progress(view, player)}, {player['train']} train {where}, "
                         f"loads {', '.join(player['loads']) or 'none'}, locked {', '.join(locked) or 'none'}.")
        shared = [card for card in view["pool"] if card["private_to"] is None]  # a kept card is not in the pool's size
        free = sum(not card["locks"] for card in shared)
        lines.append(f"Pool: {len(shared)} cards, {free} unlocked.")
        events = [f"{event['kind']} at {event['target']}" for event in view["active_events"]]
        if events:
            lines.append(f"Events: {', '.join(events)}.")
        lines += [_track_line(seat, player, names) for seat, player in enumerate(view["players"])]  # cut first
        return "\n".join(lines)

    def alt_awaited(self, view: dict, names: Names) -> str:
        """What is awaited where it is not an ordinary turn: setup's keeps, a derailment's loss."""
        if any(event.get("pending") for event in view["active_events"]):
            return "Choose the load lost to the derailment."
        return "Keep up to two of the offered cards." if view["phase"] == "setup" else ""

    def components(self, view: dict, legal: Legal) -> list[Component]:
        """Menus and buttons for the player to act: see bot/presentation/frontends/crayon_components.py."""
        return acting_components(view, legal)

    def expand(self, token: str, view: dict, viewer: str, legal: Legal) -> Step | None:
        return expand(token, view, viewer, legal)

    def action_for_button(self, token: str) -> dict:
        menu_action = action_for_token(token)
        if menu_action is not None:
            return menu_action
        verb, _, rest = token.partition(".")
        parts = rest.split(".") if rest else []
        try:
            if verb in ("end_turn", "pitch") and not parts:
                return {"type": verb}
            if verb == "keep":
                kept = dict(item.split("=") for item in rest.split(",")) if rest else {}
                return {"type": "keep", "cards": {card: int(demand) for card, demand in kept.items()}}
            if verb in ("pickup", "drop") and len(parts) == 1:
                return {"type": verb, "load": parts[0]}
            if verb in ("lock", "deliver") and len(parts) == 2:
                return {"type": verb, "card": int(parts[0]), "demand": int(parts[1])}
            if verb == "give_up" and len(parts) == 2:
                return {"type": "give_up", "card": int(parts[1])} if parts[0] == "card" else {
                    "type": "give_up", "load": parts[1]}
            if verb in ("release", "keep_private") and len(parts) == 1:
                return {"type": verb, "card": int(parts[0])}
            if verb == "upgrade" and len(parts) == 1:
                return {"type": "upgrade", "train": parts[0]}
        except ValueError:
            pass
        return super().action_for_button(token)

    def describe_events(self, events: list[dict], names: Names) -> list[str]:
        return [line for event in events if (line := _narrate(event, names))]


def _track_line(seat: int, player: dict, names: Names) -> str:
    """"Alice's track (solid line): 9 sections joining …": the line as the picture draws it, then its extent."""
    return f"{display_name(names, player['id'])}'s track ({track_pattern(seat)} line): {track_words(player['track'])}."


def track_words(track: list[list[str]]) -> str:
    """A player's built track in a few words, standing (the narration tells it only as it is built): its
    length and the cities each separate piece joins (the piece joining most first, majors first), e.g.
    "9 sections joining Northgate (major) and Dunmore". The picture draws it; a list of its mileposts
    would be unreadable."""
    if not track:
        return "none yet"
    length = f"{len(track)} section{'' if len(track) == 1 else 's'}"
    found = sorted((_cities_on(piece) for piece in track_pieces(track)), key=len, reverse=True)
    if len(found) == 1:
        return f"{length} {_piece_words(found[0])}"
    return f"{length} in {len(found)} pieces: {'; '.join(f'one {_piece_words(cities)}' for cities in found)}"


def _cities_on(piece: set[str]) -> list[str]:
    """The cities a piece of track reaches, majors first ("Northgate (major)"), then by name."""
    cities = sorted(filter(None, map(board().city_at, piece)), key=lambda city: (city.size != "major", city.name))
    return [f"{city.name} (major)" if city.size == "major" else city.name for city in cities]


def _piece_words(cities: list[str]) -> str:
    if not cities:
        return "reaching no city"
    return f"joining {joined(cities)}" if len(cities) > 1 else f"from {cities[0]}"


def _move_choices(view: dict, viewer: str, moves: list[dict]) -> list[tuple[str, str]]:
    """The table menu's legs, with their distances and fees: cities in reach, then cities beyond
    reach, then the other mileposts in reach, nearest first."""
    return [(leg.label, leg.toward or place_name(leg.end)) for leg in move_legs(view, viewer, moves)]


def _build_choices(builds: list[dict]) -> list[tuple[str, str]]:
    """The suggested builds first (goal cities, then the cheapest others), then every other city."""
    found = [(f"{city_label(a['toward'])}: suggested", a["toward"]) for a in builds if a.get("toward")]
    named = {value for _, value in found}
    return found + [(city_label(name), name) for name in sorted(board().cities) if name not in named]


def _card_choices(actions: list[dict]) -> list[tuple[str, str]]:
    labels: dict[int, list[str]] = {}
    for action in actions:
        labels.setdefault(action["card"], []).append(demand_text(action["card"], action["demand"]))
    return [(f"#{card}: {' or '.join(demands)}", str(card)) for card, demands in labels.items()]


def _keep_choices(keeps: list[dict], typed: str) -> list[tuple[str, str]]:
    """Completions of "17:0 23:2": the cards already typed, then one more offered card and demand."""
    offered = sorted({(int(card), demand) for action in keeps for card, demand in action["cards"].items()})
    words = typed.split()
    done = words if typed.endswith(" ") or not words else words[:-1]
    chosen = {word.partition(":")[0].lstrip("#") for word in done}
    if len(done) >= 2:
        return []
    prefix = " ".join(done) + (" " if done else "")
    return [(f"{prefix}{card}:{demand}  #{card} {demand_text(card, demand)}", f"{prefix}{card}:{demand}")
            for card, demand in offered if str(card) not in chosen]


def derailment_words(view: dict, player: str) -> str:
    """What a derailed player's loss buttons mean, told beside them: for each of his kept cards whose load
    is aboard, keeping means fetching the load again and releasing puts the card in the public pool."""
    words = "your train derailed: choose the load you lose with a button below"
    loads = next(p["loads"] for p in view["players"] if p["id"] == player)
    for card in view["pool"]:
        if card["private_to"] == player and card["locks"]:
            load = card["demands"][card["locks"][0]["demand"]]["load"]
            if load in loads:
                words += (f"; for {load}, **Keep #{card['id']}** keeps the card yours (you fetch {load} again), "
                          f"**Release #{card['id']}** puts it in the public pool for anyone")
    return words


def _narrate(event: dict, names: Names) -> str | None:
    who = display_name(names, event["player"]) if "player" in event else ""
    match event["type"]:
        case "kept":
            kept = len(event["cards"])
            return (f"{who} keeps {kept} card{'s' if kept > 1 else ''} privately locked." if kept
                    else f"{who} keeps no card.")
        case "built":
            path = event["path"]
            return (f"{who} builds {len(path) - 1} section{'s' if len(path) > 2 else ''} from "
                    f"{place(path[0])} to {place(path[-1])} for {event['cost']}.")
        case "upgraded":
            return f"{who} upgrades to a {event['train']} train."
        case "started":
            return f"{who} puts a train on {city_label(event['city'])}."
        case "moved":
            return f"{who} moves to {place(event['path'][-1])}."
        case "fee_paid":
            return f"{who} pays {display_name(names, event['to'])} {event['amount']} to use their track."
        case "picked_up":
            return f"{who} picks up {event['load']} at {event['city']}."
        case "dropped":
            return f"{who} drops {event['load']} at {event['city']}."
        case "locked":
            race = " (a race!)" if event["race"] else ""
            return f"{who} locks card #{event['card']} for {event['load']}{race}."
        case "delivered":
            told = (f"{who} delivers {event['load']} to {city_label(event['city'])} for **{event['payoff']}** "
                    f"(card #{event['card']}).")
            for racer in event.get("freed", []):
                told += (f" {display_name(names, racer)}'s lock on #{event['card']} is freed: the {event['load']} "
                         "is an ordinary load again and the marker returns.")
            return told
        case "pitched":
            return f"{who} pitches cards {', '.join(f'#{c}' for c in event['cards'])}."
        case "derailment" | "flood" | "strike" | "snow":
            where = city_label(event["city"]) if event.get("city") else f"the {event.get('river')}"
            hit = [display_name(names, p) for p in event.get("players", [])]
            return f"Event: **{event['type']}** at {where}" + (f": {', '.join(hit)} derailed." if hit else ".")
        case "load_lost":
            return f"{who} loses {event['load']} in the derailment."
        case "released":
            return (f"{who} loses {event['load']} in the derailment and releases card #{event['card']} "
                    f"to the public pool: anyone may lock it now.")
        case "kept_private":
            return (f"{who} loses {event['load']} in the derailment and keeps card #{event['card']} private, "
                    f"to fetch {event['load']} again.")
        case "turn_lost":
            return f"{who} loses this turn to a derailment."
        case "turn_ended":
            return f"{who} ends the turn."
        case "event_ended":
            return _event_over(event["kind"], event["target"])
        case "qualified":
            return f"{who} meets the victory conditions: that stands, and the round is finished first."
        case "game_over":
            winners = [display_name(names, w) for w in event["winners"]]
            if len(winners) == 1:
                return f"Game over: {winners[0]} wins!"
            return f"Game over: {', '.join(winners[:-1])} and {winners[-1]} share the victory!"
        case "play_started":
            return "Initial building is over: trains run now."
    return None


def _event_over(kind: str, target: str) -> str:
    """An event card that lapsed, and what it lets players do again (the table showed it in force until now)."""
    if kind == "flood":
        return f"The flood of the {target} is over: its crossings may be built again."
    if kind == "strike":
        return f"The strike at {city_label(target)} is over: loads are picked up and delivered there again."
    if kind == "snow":
        return (f"The snow around {city_label(target)} is over: trains there run at full speed, and mountains "
                "and alpine may be built on again.")
    return f"The {kind} at {city_label(target)} is over."


FRONTEND = CrayonRailsFrontend()


def _phase_words(phase: str) -> str:
    """A phase as the table says it: "initial-build" is "Initial build"."""
    return phase.replace("-", " ").capitalize()
