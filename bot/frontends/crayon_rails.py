"""Crayon Rails in Discord: the board image, narration, buttons, autocomplete and command actions.

The game's own commands live in `cogs/crayon_rails.py`; this module turns their options into
actions (`command_action`), offers their autocomplete (`choices`, from the legal actions) and
draws the `/build to:` preview. The shared `/move` verb maps here too:
- `/move to:<city or milepost>`: the engine follows its `train_route` as far as this turn allows;
  `/move path:"F7 G7 H8"`: exactly those mileposts.
- `/build to:` asks the engine for the cheapest track toward a place that this turn's budget
  affords (previewed, then confirmed); `/build path:` builds exactly the mileposts named.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Mapping
from typing import Any

from bot.frontend import ActionButton, Events, Frontend, Names, display_name
from bot.render.crayon_rails import draw_board, draw_build_preview
from games.core import IllegalMove
from games.crayon_rails.cards import demand_card
from games.crayon_rails.mapdata import board

RULES = """**Crayon Rails** (two players, public locking)
Build track between mileposts (up to 20 a turn: clear 1, mountain 2, alpine 5, city 3, major city 5, \
river +2) from a major city or your own track. Run your train (freight: 9 mileposts, 2 loads) along \
your track; the other's track costs 4 a turn. Reverse only in cities.
Pick up loads where supplied and deliver them for the payoff on a card. All demand cards are in a public \
pool: to deliver, first **lock** one demand of a pool card with a load you carry (3 markers each); the \
other player may race you on the same demand. Cards kept at setup are your private locks.
Events: Derailment, Flood, Strike, Snow. With no locked loads you may **pitch** your turn to discard \
three random pool cards.
Win with 100 cash, track joining 3 of the 4 major cities, and no locked loads; the round is finished first.
Setup: `/keep cards:"17:0 23:2"` (card:demand, up to two; leave out to keep none). Turn: `/place city:` \
(first turn), `/move`, `/pickup`, `/drop`, `/lock`, `/deliver`, then `/build to:` (preview, Confirm) or \
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
    return _place_action("move", to, path)


def build_action(to: str | None = None, path: str | list[str] | None = None) -> dict:
    return _place_action("build", to, path)


def _place_action(kind: str, to: str | None, path: str | list[str] | None) -> dict:
    if path:
        mileposts = path.replace(",", " ").split() if isinstance(path, str) else list(path)
        return {"type": kind, "path": mileposts}
    if to:
        return {"type": kind, "to": to}
    raise IllegalMove(f"Say where: to:<city or milepost> or path:\"F7 G7 ...\" for /{kind}.")


def build_target(to: str) -> str:
    """The milepost a `/build to:` place names (a preview's Confirm button carries it)."""
    milepost = board().resolve(to)
    if milepost is None:
        raise IllegalMove(f"{to!r} is neither a milepost (like F7) nor a city: pick one from the list.")
    return milepost


def keep_action(cards: str | None) -> dict:
    """`"17:0 23:2"` -> keep card 17 on demand 0 and card 23 on demand 2; nothing keeps no card."""
    kept: dict[str, int] = {}
    for item in (cards or "").replace(",", " ").split():
        card, sep, demand = item.replace("=", ":").partition(":")
        if not (sep and card.lstrip("#").isdigit() and demand in ("0", "1", "2")):
            raise IllegalMove(f"Write each kept card as card:demand, like \"17:0 23:2\" (demand 0, 1 or 2), "
                              f"not {item!r}.")
        kept[card.lstrip("#")] = int(demand)
    return {"type": "keep", "cards": kept}


def place_name(milepost: str) -> str:
    city = board().city_at(milepost)
    return city.name if city else milepost


def demand_label(card: int, demand: int) -> str:
    wanted = demand_card(card).demands[demand]
    return f"{wanted.load} to {wanted.city} ({wanted.payoff})"


def _pending(view: dict) -> list[str]:
    return next((e["pending"] for e in view["active_events"] if e.get("pending")), [])


def _path_cost(path: list[str]) -> int:
    the_board = board()
    return sum(the_board.build_cost(a, b) for a, b in itertools.pairwise(path))


def _locked_aboard(view: dict, player: dict) -> tuple[Counter[str], list[int]]:
    """Loads aboard under a lock, and the private cards whose load is aboard (as the engine counts them)."""
    carried = Counter(player["loads"])
    committed: Counter[str] = Counter()
    private: list[tuple[int, str]] = []
    for card in view["pool"]:
        for lock in card["locks"]:
            if lock["player"] != player["id"]:
                continue
            load = card["demands"][lock["demand"]]["load"]
            if card["private_to"]:
                private.append((card["id"], load))
            else:
                committed[load] += 1
    filled = []
    for card_id, load in private:
        if carried[load] - committed[load] > 0:
            committed[load] += 1
            filled.append(card_id)
    return committed, filled


class CrayonRailsFrontend(Frontend):
    slug = "crayon-rails"
    rules_text = RULES
    verbs = {"move": "/move to:<city> (shortest route, as far as this turn allows) or path:\"F7 G7 H8\"",
             "place": "/place city:<city> puts your train on the map on your first operating turn"}
    commands = {"keep": "/keep — at setup, keep up to two offered cards privately",
                "build": "/build to:<place> (preview, then Confirm) or path:<mileposts>",
                "pickup": "/pickup — a load where your train stands",
                "drop": "/drop — an unlocked load at this city",
                "lock": "/lock — a pool card's demand with a load you carry",
                "deliver": "/deliver — a locked load here, for its payoff",
                "pitch": "/pitch — give up your turn to discard three pool cards",
                "upgrade": "/upgrade — your train, for 20 instead of building",
                "endturn": "/endturn — end your turn"}

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
        if command in ("pitch", "end_turn"):
            return {"type": command}
        needed = {"pickup": ("load",), "drop": ("load",), "upgrade": ("train",),
                  "lock": ("card", "demand"), "deliver": ("card", "demand")}.get(command)
        if needed is None:
            raise IllegalMove(f"/{command} is not a Crayon Rails command.")
        missing = [name for name in needed if name not in given]
        if missing:
            raise IllegalMove(f"Give {' and '.join(missing)}: {COMMANDS[command]}.")
        return {"type": command, **{name: given[name] for name in needed}}

    def build_preview(self, view: dict, names: Names, events: list[dict], target: str) -> tuple[str, bytes]:
        """Text and picture for a `/build to:` preview, from the events the build would cause."""
        built = next(event for event in events if event["type"] == "built")
        path, cost = built["path"], built["cost"]
        player = next(p for p in view["players"] if p["id"] == built["player"])
        reach = "" if path[-1] == target else f" (toward {place_name(target)}: the rest on a later turn)"
        text = (f"Build {' '.join(path)} to {place_name(path[-1])}{reach} for **{cost}**; "
                f"cash {player['cash']} -> {player['cash'] - cost}.")
        caption = f"Proposed: {' '.join(path)}  cost {cost}"
        return text, draw_build_preview(view, dict(names), path, caption)

    def choices(self, verb: str, option: str, legal: list[dict], typed: Mapping[str, Any]) -> list[tuple[str, str]]:
        mine = [action for action in legal if action["type"] == verb]
        if (verb, option) == ("move", "to"):
            return _move_choices(mine)
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
            return [(f"{a['demand']}: {demand_label(a['card'], a['demand'])}", str(a["demand"])) for a in mine
                    if not card or str(a["card"]) == card]
        if (verb, option) == ("keep", "cards"):
            return _keep_choices(mine, str(typed.get("cards") or ""))
        return []

    def describe_state(self, view: dict, names: Names) -> str:
        lines = [f"**{view['phase']}**, round {view['round']}; deck {view['deck']} cards"]
        for player in view["players"]:
            where = place_name(player["at"]) if player["at"] else "not placed"
            lines.append(
                f"{display_name(names, player['id'])}: {player['cash']} cash, {player['train']} at {where}, "
                f"loads {', '.join(player['loads']) or 'none'}, markers {player['markers']}, "
                f"majors joined {player['majors_joined']}"
            )
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

    def buttons(self, view: dict) -> list[ActionButton]:
        if view["phase"] == "over" or not view["to_act"]:
            return []
        pending = _pending(view)
        players = {p["id"]: p for p in view["players"]}
        if pending:
            found: list[ActionButton] = []
            for player_id in pending:
                found += [b for b in self._loss_buttons(view, players[player_id]) if b not in found]
            return found[:25]
        if view["phase"] == "setup":
            offered = [c for c in view["pool"] if not c["private_to"]]
            keeps = [
                ActionButton(f"Keep #{c['id']}: {d['load']} to {d['city']}", f"keep.{c['id']}={i}")
                for c in offered for i, d in enumerate(c["demands"])
            ]
            return [ActionButton("Keep none", "keep", "secondary"), *keeps[:20]]
        player = players[view["to_act"][0]]
        found = []
        if view["phase"] == "play":
            found += self._train_buttons(view, player)
        found.append(ActionButton("End turn", "end_turn", "success"))
        return found[:25]

    @staticmethod
    def _loss_buttons(view: dict, player: dict) -> list[ActionButton]:
        """What a derailed player may lose: a public lock's load, a private card's load aboard, a free load."""
        committed, filled = _locked_aboard(view, player)
        found = []
        for card in view["pool"]:
            if card["id"] in filled:
                found += [ActionButton(f"Keep #{card['id']} private", f"keep_private.{card['id']}"),
                          ActionButton(f"Release #{card['id']}", f"release.{card['id']}", "secondary")]
            elif not card["private_to"] and any(lock["player"] == player["id"] for lock in card["locks"]):
                found.append(ActionButton(f"Give up lock #{card['id']}", f"give_up.card.{card['id']}", "danger"))
        free = Counter(player["loads"]) - committed
        found += [ActionButton(f"Lose {load}", f"give_up.load.{load}", "danger") for load in sorted(free)]
        return found

    @staticmethod
    def _train_buttons(view: dict, player: dict) -> list[ActionButton]:
        city = board().city_at(player["at"]) if player["at"] else None
        found = []
        if city:
            found += [ActionButton(f"Pick up {load}", f"pickup.{load}", "secondary") for load in city.supplies]
            for card in view["pool"]:
                for lock in card["locks"]:
                    demand = card["demands"][lock["demand"]]
                    if lock["player"] == player["id"] and demand["city"] == city.name:
                        found.append(ActionButton(f"Deliver {demand['load']} (#{card['id']})",
                                                  f"deliver.{card['id']}.{lock['demand']}"))
        for card in view["pool"]:
            if card["private_to"] or any(lock["player"] == player["id"] for lock in card["locks"]):
                continue
            for index, demand in enumerate(card["demands"]):
                locked = {lock["demand"] for lock in card["locks"]}
                if demand["load"] in player["loads"] and (not locked or index in locked) and player["markers"]:
                    found.append(ActionButton(f"Lock #{card['id']} {demand['load']}", f"lock.{card['id']}.{index}"))
        if not any(lock["player"] == player["id"] for card in view["pool"] for lock in card["locks"]):
            found.append(ActionButton("Pitch", "pitch", "secondary"))
        return found

    def action_for_button(self, token: str) -> dict:
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


def _move_choices(moves: list[dict]) -> list[tuple[str, str]]:
    """Each place the train reaches this turn, nearest first."""
    found: dict[str, int] = {}
    for action in moves:
        place = place_name(action["path"][-1])
        found[place] = min(found.get(place, len(action["path"])), len(action["path"]))
    return [(f"{place} ({steps} milepost{'s' if steps > 1 else ''})", place)
            for place, steps in sorted(found.items(), key=lambda item: (item[1], item[0]))]


def _build_choices(builds: list[dict]) -> list[tuple[str, str]]:
    """The cheapest affordable builds first (with their cost), then every other city."""
    found = [(f"{place_name(a['path'][-1])}: {len(a['path']) - 1} sections, cost {_path_cost(a['path'])}",
              place_name(a["path"][-1])) for a in builds]
    named = {value for _, value in found}
    return found + [(name, name) for name in sorted(board().cities) if name not in named]


def _card_choices(actions: list[dict]) -> list[tuple[str, str]]:
    labels: dict[int, list[str]] = {}
    for action in actions:
        labels.setdefault(action["card"], []).append(demand_label(action["card"], action["demand"]))
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
    return [(f"{prefix}{card}:{demand}  #{card} {demand_label(card, demand)}", f"{prefix}{card}:{demand}")
            for card, demand in offered if str(card) not in chosen]


def _narrate(event: dict, names: Names) -> str | None:
    who = display_name(names, event["player"]) if "player" in event else ""
    match event["type"]:
        case "kept":
            return f"{who} keeps {len(event['cards'])} card(s) privately locked."
        case "built":
            return f"{who} builds {' '.join(event['path'])} for {event['cost']}."
        case "upgraded":
            return f"{who} upgrades to a {event['train']} train."
        case "started":
            return f"{who} puts a train on {event['city']}."
        case "moved":
            return f"{who} moves to {event['path'][-1]}."
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
            return f"{who} delivers {event['load']} to {event['city']} for **{event['payoff']}**."
        case "pitched":
            return f"{who} pitches cards {', '.join(f'#{c}' for c in event['cards'])}."
        case "derailment" | "flood" | "strike" | "snow":
            place = event.get("city") or event.get("river")
            hit = [display_name(names, p) for p in event.get("players", [])]
            return f"Event: **{event['type']}** at {place}" + (f": {', '.join(hit)} derailed." if hit else ".")
        case "load_lost" | "released" | "kept_private":
            return f"{who} loses {event['load']} in the derailment."
        case "turn_lost":
            return f"{who} loses this turn to a derailment."
        case "qualified":
            return f"{who} meets the victory conditions; the round is finished."
        case "game_over":
            return "Game over: " + ", ".join(display_name(names, w) for w in event["winners"]) + " wins!"
        case "play_started":
            return "Initial building is over: trains run now."
    return None


FRONTEND = CrayonRailsFrontend()
