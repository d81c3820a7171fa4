"""Crayon Rails in Discord: the board image, narration, buttons and the /move and /place verbs.

Helpers for commands (they build actions; the engine finds the actual track):
- `move_action(to=None, path=None)`: `to` a city or milepost -> the engine follows its
  `train_route` as far as this turn allows; `path` "F7 G7 H8" -> exactly those mileposts.
- `build_action(to=None, path=None)`: `to` -> the cheapest track toward it that this turn's
  budget affords (`cheapest_build_path`); `path` -> exactly those mileposts.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.frontend import ActionButton, Frontend, Names
from bot.render.crayon_rails import draw_board
from games.core import IllegalMove
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
Use /move to:<city> or path:"F7 G7", /place to:<city> or path:"F7 G7" to build, and the buttons."""


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
    raise IllegalMove(f"Say where: to:<city or milepost> or path:\"F7 G7 ...\" for {kind}.")


def _pending(view: dict) -> list[str]:
    return next((e["pending"] for e in view["active_events"] if e.get("pending")), [])


def _name(names: Names, player: str) -> str:
    return names.get(player, player)


class CrayonRailsFrontend(Frontend):
    slug = "crayon-rails"
    rules_text = RULES
    verbs = {
        "move": "/move to:<city> (shortest route, as far as this turn allows) or path:\"F7 G7 H8\"",
        "place": "/place to:<city or milepost> (cheapest affordable track) or path:\"F7 G7 H8\" to build",
    }

    def draw_board(self, view: dict, names: Names) -> bytes:
        return draw_board(view, dict(names))

    def verb_action(self, verb: str, options: Mapping[str, Any]) -> dict:
        if verb == "move":
            return move_action(options.get("to"), options.get("path"))
        if verb == "place":
            return build_action(options.get("to") or options.get("at"), options.get("path"))
        return super().verb_action(verb, options)

    def describe_state(self, view: dict, names: Names) -> str:
        lines = [f"**{view['phase']}**, round {view['round']}; deck {view['deck']} cards"]
        for player in view["players"]:
            where = player["at"] or "not placed"
            lines.append(
                f"{_name(names, player['id'])}: {player['cash']} cash, {player['train']} at {where}, "
                f"loads {', '.join(player['loads']) or 'none'}, markers {player['markers']}, "
                f"majors joined {player['majors_joined']}"
            )
        for card in view["pool"]:
            demands = "; ".join(
                f"{i}: {d['load']} to {d['city']} ({d['payoff']})" for i, d in enumerate(card["demands"])
            )
            locks = ", ".join(f"{_name(names, lock['player'])} on {lock['demand']}" for lock in card["locks"])
            owner = f" private to {_name(names, card['private_to'])}" if card["private_to"] else ""
            lines.append(f"#{card['id']}{owner}: {demands}" + (f" [locked: {locks}]" if locks else ""))
        for event in view["active_events"]:
            lines.append(f"Event: {event['kind']} at {event['target']}")
        if view["winners"]:
            lines.append("Winner: " + ", ".join(_name(names, w) for w in view["winners"]))
        elif view["to_act"]:
            lines.append("To act: " + ", ".join(_name(names, p) for p in view["to_act"]))
        return "\n".join(lines)

    def buttons(self, view: dict) -> list[ActionButton]:
        if view["phase"] == "over" or not view["to_act"]:
            return []
        pending = _pending(view)
        players = {p["id"]: p for p in view["players"]}
        if pending:
            return self._loss_buttons(view, players[pending[0]])
        if view["phase"] == "setup":
            offered = [c for c in view["pool"] if not c["private_to"]]
            keeps = [
                ActionButton(f"Keep #{c['id']}: {d['load']} to {d['city']}", f"keep.{c['id']}={i}")
                for c in offered for i, d in enumerate(c["demands"])
            ]
            return [ActionButton("Keep none", "keep", "secondary"), *keeps[:20]]
        player = players[view["to_act"][0]]
        found: list[ActionButton] = []
        if view["phase"] == "play":
            found += self._train_buttons(view, player)
        found.append(ActionButton("End turn", "end_turn", "success"))
        return found[:25]

    @staticmethod
    def _loss_buttons(view: dict, player: dict) -> list[ActionButton]:
        found = []
        for card in view["pool"]:
            if any(lock["player"] == player["id"] for lock in card["locks"]):
                if card["private_to"]:
                    found += [ActionButton(f"Keep #{card['id']} private", f"keep_private.{card['id']}"),
                              ActionButton(f"Release #{card['id']}", f"release.{card['id']}", "secondary")]
                else:
                    found.append(ActionButton(f"Give up lock #{card['id']}", f"give_up.card.{card['id']}", "danger"))
        loads = sorted(set(player["loads"]))
        found += [ActionButton(f"Lose {load}", f"give_up.load.{load}", "danger") for load in loads]
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


def _narrate(event: dict, names: Names) -> str | None:
    who = _name(names, event["player"]) if "player" in event else ""
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
            return f"{who} pays {_name(names, event['to'])} {event['amount']} to use their track."
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
            hit = [_name(names, p) for p in event.get("players", [])]
            return f"Event: **{event['type']}** at {place}" + (f": {', '.join(hit)} derailed." if hit else ".")
        case "load_lost" | "released" | "kept_private":
            return f"{who} loses {event['load']} in the derailment."
        case "turn_lost":
            return f"{who} loses this turn to a derailment."
        case "qualified":
            return f"{who} meets the victory conditions; the round is finished."
        case "game_over":
            return "Game over: " + ", ".join(_name(names, w) for w in event["winners"]) + " wins!"
        case "play_started":
            return "Initial building is over: trains run now."
    return None


FRONTEND = CrayonRailsFrontend()
