"""Two Fat Dudes in Discord: a Roll button to walk, buttons and forms to haggle, /roll and /negotiate too.

Button tokens: `roll`, `pass`, `accept`, `decline`, `offer.<n>`, `counter.<n>`, `edge.retreat`,
`edge.send_back`. Two forms (see bot/presentation/frontend.py) take any amount: **Offer…** (key `offer`) next to
the quick offers, and **Counter…** (key `counter`) under an offer; `action_for_form` reads the
amount with `amount_from_text`. The game's cog builds the actions of `/negotiate` and `/edge` with
`command_action`. Every component is for the player whose decision it is.

Ruling: the forms take up to 9 digits (under a billion points); `/negotiate offer|counter`
takes any whole number Discord allows.

A deal or the squeeze that takes a dude out and ends the game at once is not told as the race
beginning ("The race to the exits is on!"): the engine's `race_started` event stays (records compare
events), the words leave it out.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from functools import partial
from typing import Any

from bot.presentation.frontend import (
    ActionButton,
    AnswerRefused,
    Component,
    Events,
    Field,
    Form,
    Frontend,
    Legal,
    Names,
    display_name,
    points_text,
)
from bot.presentation.render.two_fat_dudes import draw_hallway
from games.core import IllegalMove
from games.two_fat_dudes import COLOURS, PENALTY_PER_STEP, TRACK, edge_cost, space_points, steps_to_exit

FORM_TITLES = {"offer": "Offer points to pass", "counter": "Counter-offer"}
QUICK_OFFERS = (0, 5, 10)
_AMOUNT_TOKEN = re.compile(r"(offer|counter)\.(\d{1,9})")
_SIMPLE_TOKENS = {
    "roll": {"type": "roll"},
    "pass": {"type": "pass"},
    "accept": {"type": "accept"},
    "decline": {"type": "decline"},
    "edge.retreat": {"type": "edge", "choice": "retreat"},
    "edge.send_back": {"type": "edge", "choice": "send_back"},
}

RULES_TEXT = """\
**Two Fat Dudes in a Narrow Hallway** — 2 players, a d4.
Red starts on the left semicircle (space 0), blue on the right (14); each walks to the other's end.
• **Roll-off:** both `/roll`; higher starts, the other takes **the Edge**. Ties roll again.
• **Moving:** `/roll` and move. Ending on your colour adds its number, on the other colour subtracts it, \
green adds 10.
• **Encounter:** a roll reaching the other dude stops next to them (score that space). The mover may \
**offer** points to pass (costs 1) or **pass**; then the other may. Facing an offer: **accept**, \
**decline** or **counter** (costs 1; the first offerer still pays).
• **Deal:** points change hands, the dudes swap places, both score, and the race is on.
• **No deal:** the Edge holder **retreats** to their start or **sends back** the other; that dude loses \
5 (encounters 1–2) or 10 (3–4). The Edge then passes over.
• **5th encounter:** no haggling — a roll that would pass squeezes one space past them.
• **End:** exits need no exact roll. If the start player exits first, the other gets one last turn; \
otherwise the game ends at once. A dude still inside loses 5 per step to their exit. Most points wins; \
ties go to the one who exited, or are shared if both did.
• **Playing:** the **Roll** button; at an encounter **Pass**, **Offer 0/5/10**, **Offer…** (any amount), \
then **Accept**, **Decline** or **Counter…**; with the Edge, **Retreat** or **Send back**. Or the commands below."""


def amount_from_text(kind: str, text: str) -> dict:
    """The offer or counter-offer typed into its form: digits only, so "12", not "12 points" or "-3"."""
    typed = text.strip()
    if not typed.isdecimal() or not typed.isascii():
        raise AnswerRefused(f"“{typed}” is not a whole number of points", "type digits only, e.g. 12",
                            _form_label(kind), f"/negotiate {kind} points:")
    return {"type": kind, "points": int(typed)}


def counter_from_text(text: str) -> dict:
    """The counter-offer typed into the Counter… form."""
    return amount_from_text("counter", text)


def _form_label(kind: str) -> str:
    return f"{kind.title()}…"


def _amount_form(kind: str, players: tuple[str, ...], placeholder: str) -> Form:
    return Form(_form_label(kind), kind, FORM_TITLES[kind],
                (Field("points", "Points (a whole number, 0 or more)", placeholder, 1, 9),), players)


class TwoFatDudesFrontend(Frontend):
    slug = "two-fat-dudes"
    rules_text = RULES_TEXT
    verbs = {
        "roll": "/roll — roll the d4: for the roll-off, to walk the hallway and to race out.",
    }
    commands = {
        "negotiate": "/negotiate offer|counter points:<n>, /negotiate accept|decline|pass — haggle at an encounter.",
        "edge": "/edge choice:retreat|send_back — use the Edge after a failed negotiation.",
    }

    def draw_board(self, view: dict, names: Names, events: Events = ()) -> bytes:
        return draw_hallway(view, names, events)

    def describe_events(self, events: list[dict], names: Names) -> list[str]:
        name = partial(display_name, names)

        lines = []
        index = 0
        while index < len(events):
            event = events[index]
            if event["type"] in ("rolled", "moved"):
                line, index = _movement_line(events, index, name)
                lines.append(line)
                continue
            describe = _NARRATION.get(event["type"])
            if describe is not None and not _race_never_run(events, index):
                lines.append(describe(event, name))
            index += 1
        return lines

    def describe_state(self, view: dict, names: Names) -> str:
        """The board in words, with what the picture prints beside the track: each dude's end penalty and
        what the Edge costs at the encounter in hand or the next one."""
        name = partial(display_name, names)

        lines = []
        for player in view["players"]:
            tags = []
            if view.get("start_player") == player["id"]:
                tags.append("start player")
            if view.get("edge") == player["id"]:
                tags.append("holds the Edge")
            extra = f" ({', '.join(tags)})" if tags else ""
            lines.append(f"{player['colour'].title()} {name(player['id'])}: {_where(player)}, "
                         f"**{points_text(player['score'])}**{_penalty(view, player)}{extra}")
        lines.append(_encounters(view))
        lines.append(TRACK_WORDS)
        offer = view.get("offer")
        if offer is not None:
            payee = next(p["id"] for p in view["players"] if p["id"] != offer["payer"])
            lines.append(f"On the table: {name(offer['payer'])} pays {name(payee)} {points_text(offer['points'])} "
                         f"(proposed by {name(offer['proposed_by'])})")
        if view["phase"] == "over":
            winners = view.get("winners") or []
            lines.append("Winners: " + ", ".join(map(name, winners)))
        elif view.get("to_act"):  # an abandoned or claimed game waits on nobody
            lines.append(f"Waiting for {', '.join(map(name, view['to_act']))} {_to_do(view)}.")
        return "\n".join(lines)

    def alt_text(self, view: dict, names: Names) -> str:
        """What a player reads off the picture: each dude's place, the space he stands on and what it scored him,
        his points and end penalty, the encounters and any offer. Not the hallway's thirteen spaces (they never
        change; the rules say them), nor whose turn it is or who won (the alt text says it once)."""
        name = partial(display_name, names)
        lines = []
        for seat, player in enumerate(view["players"]):
            tags = [tag for tag, key in (("start player", "start_player"), ("holds the Edge", "edge"))
                    if view.get(key) == player["id"]]
            extra = f" ({', '.join(tags)})" if tags else ""
            lines.append(f"{player['colour'].title()} {name(player['id'])}: {_standing(seat, player)}, "
                         f"{points_text(player['score'])}{_penalty(view, player)}{extra}")
        lines.append(_encounters(view))
        offer = view.get("offer")
        if offer is not None:
            payee = next(p["id"] for p in view["players"] if p["id"] != offer["payer"])
            lines.append(f"On the table: {name(offer['payer'])} pays {name(payee)} {points_text(offer['points'])} "
                         f"(proposed by {name(offer['proposed_by'])})")
        return "\n".join(lines)

    def alt_awaited(self, view: dict, names: Names) -> str:
        """"Offer points or pass.": the table's words of what the game waits for."""
        if view["phase"] not in TO_DO and view["phase"] != "encounter":
            return ""
        return f"{_to_do(view).removeprefix('to ').capitalize()}."

    def buttons(self, view: dict) -> list[ActionButton]:
        phase = view["phase"]
        if phase in ("roll-off", "walk", "race"):
            return [ActionButton("Roll", "roll")]
        if phase == "edge":
            return [ActionButton("Retreat", "edge.retreat", "secondary"),
                    ActionButton("Send back", "edge.send_back", "danger")]
        if phase != "encounter":
            return []
        if view.get("offer") is None:
            return [ActionButton("Pass", "pass", "secondary")] + [
                ActionButton(f"Offer {points}", f"offer.{points}") for points in QUICK_OFFERS
            ]
        return [ActionButton("Accept", "accept", "success"), ActionButton("Decline", "decline", "danger")]

    def components(self, view: dict, legal: Legal) -> list[Component]:
        """The buttons, and at an encounter the form for any amount, all for the player deciding."""
        found = super().components(view, legal)
        if view["phase"] != "encounter":
            return found
        kind = "offer" if view.get("offer") is None else "counter"
        deciding = tuple(player for player, actions in legal.items()
                         if any(action["type"] == kind for action in actions))
        on_table = "e.g. 7" if kind == "offer" else f"On the table: {view['offer']['points']}"
        return [*found, _amount_form(kind, deciding, on_table)]

    def action_for_form(self, key: str, values: Mapping[str, str]) -> dict:
        if key in FORM_TITLES:
            return amount_from_text(key, values.get("points", ""))
        return super().action_for_form(key, values)

    def action_for_button(self, token: str) -> dict:
        if token in _SIMPLE_TOKENS:
            return dict(_SIMPLE_TOKENS[token])
        if token in FORM_TITLES:
            raise IllegalMove(f"Say how many points: the {token.title()}… button opens a form for the amount.")
        amount = _AMOUNT_TOKEN.fullmatch(token)
        if amount is not None:
            return {"type": amount.group(1), "points": int(amount.group(2))}
        return super().action_for_button(token)

    def command_action(self, command: str, options: Mapping[str, Any]) -> dict:
        """The action for one of the game's own commands: offer, counter, accept, decline, pass, edge."""
        if command in ("offer", "counter"):
            points = options.get("points")
            if isinstance(points, bool) or not isinstance(points, int) or points < 0:
                raise IllegalMove(f"Give the points, a whole number 0 or more: /negotiate {command} points:10.")
            return {"type": command, "points": points}
        if command in ("accept", "decline", "pass"):
            return {"type": command}
        if command == "edge":
            choice = options.get("choice")
            if choice not in ("retreat", "send_back"):
                raise IllegalMove("Choose what the Edge does: /edge choice:retreat or /edge choice:send_back.")
            return {"type": "edge", "choice": choice}
        raise IllegalMove(f"/{command} is not a Two Fat Dudes command.")

    def verb_action(self, verb: str, options: Mapping[str, Any]) -> dict:
        if verb == "roll":
            return {"type": "roll"}
        return super().verb_action(verb, options)


TRACK_WORDS = "Track: " + ", ".join(f"{space} {colour} {number}" for space, (colour, number) in TRACK.items()) + "."
"""The hallway's spaces in words (what the picture's colours and numbers say): where a roll would score."""
TO_DO = {"roll-off": "to roll for the start", "walk": "to roll", "race": "to roll",
         "edge": "to retreat or send back (the Edge)"}
"""What the game waits for in each phase, in words (an encounter's depends on the offer: `_to_do`)."""


def _to_do(view: dict) -> str:
    if view["phase"] == "encounter":
        return "to accept, decline or counter the offer" if view.get("offer") else "to offer points or pass"
    return TO_DO.get(view["phase"], f"({view['phase']})")


def _penalty(view: dict, player: dict) -> str:
    """", end penalty 40": what the dude would lose were the game to end with him still in the hallway."""
    if player["exited"] or view["phase"] == "over":
        return ""
    steps = steps_to_exit(COLOURS.index(player["colour"]), player["position"])
    return f", end penalty {PENALTY_PER_STEP * steps}"


def _encounters(view: dict) -> str:
    """The encounter counter, and what the Edge costs at the encounter in hand or the next one."""
    count, phase = view["encounters"], view["phase"]
    line = f"Encounters: {count} of 5"
    if phase in ("encounter", "edge") and count <= 4:
        return f"{line} (this one's Edge costs {edge_cost(count)})"
    if phase in ("roll-off", "walk"):
        return f"{line} (the next one's Edge costs {edge_cost(count + 1)})" if count < 4 else \
            f"{line} (the next one is the squeeze)"
    return line


def _where(player: dict) -> str:
    if player["exited"]:
        return "out of the hallway"
    start = 0 if player["colour"] == "red" else 14
    if player["position"] == start:
        return "on their start semicircle"
    colour, number = TRACK[player["position"]]
    return f"on space {player['position']} ({colour} {number})"


def _standing(seat: int, player: dict) -> str:
    """"on space 8 (red 2, +2 to them)": where a dude stands and what that space scored him."""
    where = _where(player)
    if player["position"] not in TRACK or player["exited"]:
        return where
    return f"{where.removesuffix(')')}, {space_points(seat, player['position']):+d} to them)"


def _edge_line(event: dict, name: Callable[[str], str]) -> str:
    who, cost = name(event["player"]), event["cost"]
    if event["choice"] == "retreat":
        done = f"{who} uses the Edge and retreats to their start (-{cost}, now {event['score']})."
    else:
        done = (f"{who} uses the Edge and sends {name(event['sent_back'])} back to their start "
                f"(-{cost}, now {event['score']}).")
    return f"{done} The Edge passes to {name(event['edge_to'])}."


def _game_over_line(event: dict, name: Callable[[str], str]) -> str:
    scores = ", ".join(f"{name(player)} {score}" for player, score in event["scores"].items())
    winners = event["winners"]
    if len(winners) > 1:
        return f"**Game over** — shared victory for {' and '.join(map(name, winners))}! Final scores: {scores}."
    tied = len(set(event["scores"].values())) == 1 and len(event["scores"]) > 1
    why = f" Tied on points: {name(winners[0])} left the hallway, so wins the tie." if tied else ""
    return f"**Game over** — {name(winners[0])} is the Honorary Skinny Dude! Final scores: {scores}.{why}"


def _movement_line(events: list[dict], index: int, name: Callable[[str], str]) -> tuple[str, int]:
    """One sentence for a roll, the move it makes and what it scores; returns the next index."""
    player = events[index]["player"]

    def next_is(kind: str) -> bool:
        return index < len(events) and events[index]["type"] == kind and events[index]["player"] == player

    parts, joiner, suffix = [], " and ", "."
    if next_is("rolled"):
        parts.append(f"rolls a {events[index]['roll']}")
        index += 1
    if next_is("moved"):
        moved = events[index]
        index += 1
        place = "their start semicircle" if moved["to"] in (0, 14) else f"space {moved['to']}"
        if next_is("exited"):
            parts.append("leaves the hallway")
            suffix = "!"
            index += 1
        elif moved["blocked"]:
            stays = "stays" if moved["from"] == moved["to"] else "stops"
            parts.append(f"is blocked and {stays} on {place}")
            joiner = " but "
        else:
            parts.append(f"moves to {place}")
    if next_is("scored"):
        suffix = f" ({events[index]['points']:+d}, now {events[index]['score']})."
        index += 1
    return f"{name(player)} {joiner.join(parts)}{suffix}", index



def _offer_line(event: dict, name: Callable[[str], str]) -> str:
    who, payee, points = name(event["player"]), name(event["payee"]), points_text(event["points"])
    cost = f"(-{event['cost']}, now {event['score']})"
    if event["type"] == "offered":
        return f"{who} offers {payee} {points} to let them pass {cost}."
    if event["player"] == event["payer"]:
        return f"{who} counters: they will pay {payee} {points} {cost}."
    return f"{who} counters: they want {points} from {name(event['payer'])} {cost}."


def _race_never_run(events: list[dict], index: int) -> bool:
    """True for a `race_started` after which the game ends before anyone rolls: a deal or the squeeze took a
    dude out through his exit and the game ended at once, so there is no race to announce. The engine still
    tells `race_started` there (recorded games and /game verify compare its events), so the words leave it out."""
    if events[index]["type"] != "race_started":
        return False
    after = (event["type"] for event in events[index + 1:] if event["type"] in ("rolled", "game_over"))
    return next(after, None) == "game_over"


def _penalty_line(event: dict, name: Callable[[str], str]) -> str:
    steps = f"{event['steps']} step{'s' if event['steps'] != 1 else ''}"
    return f"{name(event['player'])} is still {steps} from the exit: -{event['points']} (now {event['score']})."


_NARRATION: dict[str, Callable[[dict, Callable[[str], str]], str]] = {
    "roll_off": lambda e, n: f"{n(e['player'])} rolls {e['roll']} for the start.",
    "roll_off_tied": lambda e, n: "The roll-off is a tie: roll again.",
    "start_player": lambda e, n: f"{n(e['player'])} starts; {n(e['edge'])} takes the Edge.",
    "encounter": lambda e, n: (f"**Encounter {e['number']}!** {n(e['mover'])} and {n(e['other'])} are belly to "
                               f"belly. {n(e['mover'])} may make an offer or pass."),
    "squeezed": lambda e, n: f"**Encounter 5:** sweaty and slippery, {n(e['player'])} squeezes past {n(e['past'])}!",
    "offered": _offer_line,
    "countered": _offer_line,
    "passed": lambda e, n: f"{n(e['player'])} passes.",
    "declined": lambda e, n: f"{n(e['player'])} declines.",
    "no_deal": lambda e, n: (f"No deal. {n(e['edge'])} holds the Edge: retreat or send back "
                             f"(costs {e['cost']})."),
    "accepted": lambda e, n: (f"{n(e['player'])} accepts: {n(e['payer'])} pays {n(e['payee'])} "
                              f"{points_text(e['points'])}."),
    "swapped": lambda e, n: "The dudes squeeze past each other and swap places.",
    "edge": _edge_line,
    "race_started": lambda e, n: "The race to the exits is on!",
    "exited": lambda e, n: f"{n(e['player'])} leaves the hallway!",
    "last_turn": lambda e, n: f"{n(e['player'])} gets one last turn to finish the round.",
    "penalty": _penalty_line,
    "game_over": _game_over_line,
}

FRONTEND = TwoFatDudesFrontend()
