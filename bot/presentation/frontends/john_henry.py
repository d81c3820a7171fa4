"""John Henry in Discord: one Roll button (plus "Keep the 6" after calling John Henry) and a race told in dots."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import partial
from typing import Any

from bot.presentation.frontend import ActionButton, Events, Frontend, Names, display_name
from bot.presentation.render.canvas import seat_words
from bot.presentation.render.john_henry import RAILROAD_NAMES, render
from games.john_henry import CENTER, SPACE_NAMES, SPIKE_DOTS

BUTTON_ACTIONS = {"roll": {"type": "roll"}, "stop": {"type": "stop"}}

RULES = """\
**John Henry**: the Union Pacific (from Omaha) and the Central Pacific (from Sacramento) race \
to drive the golden spike at **Promontory Point**, the center of 13 spaces.
• Both roll for first player (ties roll again); the high die is the first player's first move.
• On your turn roll one die and add it to your dots. Each space takes 6 dots: complete it and \
move on, carrying the leftover (a big roll can cross several spaces). You start with 1 dot.
• The center is shared: both railroads' dots there add up. Whoever brings the count to **7** or more wins.
• **John Henry**: roll a 6 and he joins you (from the box or your rival); once he is dead, a 6 is \
just a 6. Then keep the 6 (move 6), or roll a bonus die: the bonus die and the 6 are your two dice \
as his holder. While you hold him you roll two dice and move the sum, but **doubles** kill him \
(you still move the sum; 1 and 1 are doubles too), and otherwise a **1** on either die moves just \
1 and sends him to your rival.
Play with the **Roll** button (and **Keep the 6** after a 6 calls John Henry), or type `/roll`."""


def _dice(dice: list[int]) -> str:
    return " and ".join(str(die) for die in dice)


def _station(space: int) -> str:
    return f"{SPACE_NAMES[space - 1]} ({space})"


def _board_lines(view: dict, names: Names) -> list[str]:
    """The railroads, the golden spike and John Henry, as the picture shows them."""
    name = partial(display_name, names)
    lines = [
        f"**{RAILROAD_NAMES[player['railroad']]}** ({name(player['id'])}, {seat_words(seat)}): "
        f"{_station(player['space'])}, {_count(player['dots'], 'dot')}"
        for seat, player in enumerate(view["players"])
    ]
    center = sum(player["dots"] for player in view["players"] if player["space"] == CENTER)
    lines.append(f"Golden spike: {center} of {SPIKE_DOTS} dots at Promontory Point" if center < SPIKE_DOTS
                 else f"Golden spike: driven at Promontory Point ({center} dots, {SPIKE_DOTS} needed)")
    holder = view["john_henry"]
    if holder == "dead":
        lines.append("John Henry: dead, with his hammer in his hand")
    elif holder is None:
        lines.append("John Henry: in the box")
    else:
        lines.append(f"John Henry: working for {name(holder)}")
    return lines


class JohnHenryFrontend(Frontend):
    slug = "john-henry"
    rules_text = RULES
    verbs = {"roll": "/roll — roll for first player, take your turn, or roll the bonus die after a 6."}
    move_kinds = {"stop": "keep the 6"}

    def draw_board(self, view: dict, names: Names, events: Events = ()) -> bytes:
        return render(view, names, events)

    def describe_events(self, events: list[dict], names: Names) -> list[str]:
        lines: list[str] = []
        for event in events:
            describe = _NARRATION.get(event["type"])
            if describe is not None:
                lines.append(describe(event, partial(display_name, names)))
        return lines

    def describe_state(self, view: dict, names: Names) -> str:
        """Each railroad with its player's colour and mark as the picture draws them beside his name."""
        name = partial(display_name, names)
        lines = _board_lines(view, names)
        if view["phase"] == "over":
            lines.append(f"Winner: {name(view['winner'])}")
        elif not view["to_act"]:
            pass  # an abandoned or claimed game waits on nobody
        elif view["phase"] == "roll-off":
            lines.append("Roll-off for first player, waiting for " + " and ".join(map(name, view["to_act"])))
        elif view["awaiting_bonus"]:
            lines.append(f"{name(view['to_act'][0])}: roll the bonus die or keep the 6")
        else:
            lines.append(f"To roll: {name(view['to_act'][0])}")
        return "\n".join(lines)

    def alt_text(self, view: dict, names: Names) -> str:
        """The board without whose turn it is or who won: the alt text says that once (`alt_turn`)."""
        return "\n".join(_board_lines(view, names))

    def alt_awaited(self, view: dict, names: Names) -> str:
        if view["phase"] == "roll-off":
            return "Roll-off for first player."
        return "Roll the bonus die or keep the 6." if view["awaiting_bonus"] else ""

    def buttons(self, view: dict) -> list[ActionButton]:
        if view["phase"] == "over" or not view["to_act"]:
            return []
        buttons = [ActionButton("Roll", "roll")]
        if view["awaiting_bonus"]:
            buttons.append(ActionButton("Keep the 6", "stop", style="secondary"))
        return buttons

    def action_for_button(self, token: str) -> dict:
        if token not in BUTTON_ACTIONS:
            return super().action_for_button(token)
        return dict(BUTTON_ACTIONS[token])

    def verb_action(self, verb: str, options: Mapping[str, Any]) -> dict:
        if verb == "roll":
            return {"type": "roll"}
        return super().verb_action(verb, options)


Namer = Callable[[str], str]


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def _moved(event: dict, name: Namer) -> str:
    laid = f"{name(event['player'])} lays {_count(event['steps'], 'dot')} of track"
    where = _station(event["space"])
    if event["spaces_advanced"] == 0:
        return f"{laid} at {where}: {_count(event['dots'], 'dot')} done."
    return (f"{laid} and advances {_count(event['spaces_advanced'], 'space')} to {where} "
            f"with {_count(event['dots'], 'dot')}.")


def _taken(event: dict, name: Namer) -> str:
    """What happened only: the state line asks for the bonus die or the kept 6 while that is still to choose."""
    source = "steps out of legend" if event["from"] is None else f"leaves {name(event['from'])}"
    return f"🔨 John Henry {source} to work for {name(event['player'])}!"


_NARRATION: dict[str, Callable[[dict, Namer], str]] = {
    "roll-off": lambda e, name: f"{name(e['player'])} rolls {e['die']} for first player.",
    "roll-off-tie": lambda e, name: f"Both rolled {e['die']}: roll again.",
    "first-player": lambda e, name: f"{name(e['player'])} goes first, and the {e['die']} is the first move.",
    "rolled": lambda e, name: f"{name(e['player'])} rolls {_dice(e['dice'])}.",
    "bonus-rolled": lambda e, name: f"{name(e['player'])} rolls a bonus {e['die']} with the 6.",
    "kept-six": lambda e, name: f"{name(e['player'])} keeps the 6.",
    "john-henry-taken": _taken,
    "john-henry-passed": lambda e, name: (
        f"A 1! John Henry leaves {name(e['from'])} in disgust and goes to work for {name(e['to'])}."
    ),
    "john-henry-died": lambda e, name: (
        f"Doubles! John Henry dies with his hammer in his hand, after one heroic roll for {name(e['player'])}."
    ),
    "moved": _moved,
    # The name stays outside the bold: an AI seat's name is bold already ("**Parlor (AI)**",
    # bot.presentation.words.mention).
    "won": lambda e, name: (
        f"🏆 {name(e['player'])} **drives the golden spike at Promontory Point!** "
        f"({_count(e['center'], 'dot')} at the center)"
    ),
}

FRONTEND = JohnHenryFrontend()
