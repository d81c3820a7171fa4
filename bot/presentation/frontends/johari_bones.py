"""Johari Bones in Discord: the public board, each player's private hand, and the controls.

Narration sees only events, which carry no hidden bone; every private helper reads one
player's view and nothing else, so what it shows is exactly what that player may see.

Components (see bot/presentation/frontend.py): the table offers the player to act **Draw** and a **Swap…** menu,
and at scoring time **Choose a box** to those who have not scored; **Show my bones** is for anyone.
A player's private reply (after his Draw, Show my bones or Choose a box) offers what depends on
his own bones: where the drawn bone goes, and a menu of his open boxes with what each would score.
Labels name players and positions only, never a bone.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.presentation.frontend import (
    ActionButton,
    Component,
    Events,
    Frontend,
    Legal,
    Names,
    Option,
    Select,
    Step,
    display_name,
    points_text,
)
from bot.presentation.render.canvas import seat_words
from bot.presentation.render.johari_bones import (
    BOX_LABELS,
    OPEN_PHASES,
    POSITION_LABELS,
    public_part,
    render_board,
    render_private,
)
from games.core import IllegalMove
from games.johari_scoring import BOXES, box_score

PLACE_POSITIONS = ("in", "up", "out")
SWAP_KINDS = ("up", "in-out")
PRIVATE_POSITIONS = ("down", "in", "out")
DRAW_TOKEN = "draw"
BOXES_TOKEN = "boxes"
"""The table's "Choose a box" button: opens the presser's own box menu (a step, not a move)."""
HAND_TOKEN = "hand"
"""The "Show my bones" button's token: not a move, so the cog draws it as its own button."""

RULES_TEXT = """**Johari Bones** — 2–4 players, one double-six set, 10 hands.
Play with the buttons and menus under the table, or the commands below.
Each hand you hold four bones: **face up** (everyone sees it), **face down** (nobody does), \
**face in** (only you) and **face out** (everyone but you).
On each of your **3 turns** per hand, either:
• **Draw** (`/draw` or the button) the top bone of the pile (only you see it), then place it with the buttons \
you get or `/place`: on your own face in or face up, or on another player's face out \
or face up (the bone it replaces leaves the hand), or
• `/swap` your face up with another's face up, or your face in with another's face out.
Then every bone is revealed and each player scores one open box (**Choose a box**, or `/score`) with \
the 8 ends of their bones:
• Ones–Sixes: the ends showing that number (their sum) • Full House: three of one number + two of another \
(their sum) • 4 Run / 5 Run: consecutive numbers, 0 counts (their sum) • Chance: all ends.
Two blank ends together may act as one wild end (1–6); the bot uses it as well as it can.
A box your hand cannot fill scores 0. After 10 hands the highest total wins; ties share.
Your own view comes by DM; `/hand` or **Show my bones** shows it to you alone at any time."""


def _position_phrase(names: Names, player: str, target: str, position: str) -> str:
    owner = "their own" if target == player else f"{display_name(names, target)}'s"
    return f"{owner} {POSITION_LABELS[position].lower()}"


def swap_action(kind: str, with_id: str) -> dict:
    """The action for /swap: `kind` is "up" or "in-out", `with_id` the other player."""
    return {"type": "swap", "kind": kind, "with": with_id}


def score_action(box: str) -> dict:
    """The action for /score."""
    return {"type": "score", "box": box}


def _own_entry(view: Mapping[str, Any], viewer: str | None) -> dict | None:
    return next((entry for entry in view["players"] if entry["id"] == viewer), None)


def score_preview(private_view: Mapping[str, Any], viewer: str | None) -> dict[str, int]:
    """What the viewer's shown bones would score in each of his open boxes.

    Only bones the view holds are counted: at scoring time that is the whole hand, before it a
    lower bound. Without a viewer (the public view) there is nothing to preview.
    """
    entry = _own_entry(private_view, viewer)
    if entry is None:
        return {}
    bones = [entry[position] for position in ("up", "down", "in", "out") if entry[position] is not None]
    card = private_view["scorecard"][viewer]
    return {box: box_score(bones, box) for box in BOXES if card[box] is None}


def placement_choices(
    private_view: Mapping[str, Any], viewer: str, names: Names | None = None
) -> list[tuple[str, dict]]:
    """Button labels and place actions for the bone the viewer has drawn (none if he has not)."""
    if private_view.get("drawn") is None or private_view["to_act"] != [viewer]:
        return []
    names = names or {}
    choices = [(f"My {POSITION_LABELS[position].lower()}",
                {"type": "place", "target": viewer, "position": position}) for position in ("in", "up")]
    for entry in private_view["players"]:
        if entry["id"] == viewer:
            continue
        for position in ("out", "up"):
            label = f"{display_name(names, entry['id'])}'s {POSITION_LABELS[position].lower()}"
            choices.append((label, {"type": "place", "target": entry["id"], "position": position}))
    return choices


def private_summary(private_view: Mapping[str, Any], viewer: str, names: Names | None = None) -> str:
    """The viewer's picture in words: the bones his view shows him, and nothing else."""
    names = names or {}
    lines = [_drawn_line(private_view)] if private_view.get("drawn") is not None else []
    for entry in private_view["players"]:
        who = "You" if entry["id"] == viewer else display_name(names, entry["id"])
        lines.append(f"{who}: {_shown_bones(entry)}")
    return "\n".join(lines)


def _drawn_line(private_view: Mapping[str, Any]) -> str:
    return (f"You drew **{private_view['drawn']}**: choose where it goes "
            "(the bone it replaces leaves the hand).")


def _shown_bones(entry: Mapping[str, Any]) -> str:
    """A player's bones that a view shows, by position: "face up 1-2, face in 3-4"."""
    shown = [f"{POSITION_LABELS[position].lower()} {entry[position]}"
             for position in ("up", "down", "in", "out") if entry[position] is not None]
    return ", ".join(shown) or "nothing you can see"


def _mentions(view: Mapping[str, Any]) -> dict[str, str]:
    """Names for component labels: mentions, which the layout turns into display names."""
    return {entry["id"]: f"<@{entry['id']}>" for entry in view["players"]}


def _swap_option(action: dict) -> Option:
    other = f"<@{action['with']}>"
    label = (f"Swap face-up bones with {other}" if action["kind"] == "up"
             else f"Swap your face in for {other}'s face out")
    return Option(label, f"swap.{action['kind']}.{action['with']}")


def _box_menu(view: dict, viewer: str) -> Select:
    scores = score_preview(view, viewer)
    options = tuple(Option(f"{BOX_LABELS[box]}: {points_text(amount)}", f"score.{box}")
                    for box, amount in scores.items())
    return Select("score", "Score this hand in…", options, (viewer,))



def _step(view: dict) -> str:
    """What the players to act are awaited for."""
    return {"scoring": "to choose a box", "drawn": "to place the bone drawn"}.get(view["phase"], "to play")


class JohariBonesFrontend(Frontend):
    slug = "johari-bones"
    private_view = True
    private_title = "Your bones"
    rules_text = RULES_TEXT
    verbs = {"place": "/place target:<player> position:in|up|out — put the bone you drew"}
    commands = {
        "draw": "/draw — draw the top bone of the pile (only you see it)",
        "swap": "/swap kind:up|in-out with:<player> — swap a bone with another player",
        "score": "/score box:<box> — score this hand in an open box (Full House, 4 Run, …)",
        "hand": "/hand — a picture of every bone you may see, for you alone",
    }

    def draw_board(self, view: dict, names: Names, events: Events = ()) -> bytes:
        return render_board(view, names)

    def draw_private(self, view: dict, names: Names, viewer: str) -> bytes:
        return render_private(view, names, viewer)

    def private_digest(self, view: dict) -> Any:
        """The bones this view shows that the public view hides, and the drawn bone.

        None when nothing is private (the public view, a revealed hand, or no view at all:
        the host passes `{}` for a player who had no view before), so no DM is due.
        """
        if not view.get("players"):
            return None
        public = public_part(view)
        hidden = {
            entry["id"]: {position: entry[position] for position in PRIVATE_POSITIONS
                          if entry[position] is not None and shown[position] is None}
            for entry, shown in zip(view["players"], public["players"], strict=True)
        }
        hidden = {player: bones for player, bones in hidden.items() if bones}
        if not hidden and view.get("drawn") is None:
            return None
        return {"bones": hidden, "drawn": view.get("drawn")}

    def panel_digest(self, view: dict, viewer: str) -> Any:
        """What a player's panel follows: the bones of his own hand his view shows, face up included (an up
        swap changes his hand), the bone he drew, and the hidden bones of others he sees (`private_digest`).
        Not what is only public and not his (others' face-up bones, whose turn, the pile, totals): the table
        shows that live, and editing every player's DM at every move would cost a call per player per move."""
        own = _own_entry(view, viewer) if view.get("players") else None
        if own is None:
            return None
        return {"own": {position: own[position] for position in ("up", "down", "in", "out")},
                "private": self.private_digest(view)}

    def describe_events(self, events: list[dict], names: Names) -> list[str]:
        lines = []
        for event in events:
            line = self._describe(event, names)
            if line:
                lines.append(line)
        return lines

    def _describe(self, event: dict, names: Names) -> str | None:
        kind = event["type"]
        if kind == "drew":
            return f"{display_name(names, event['player'])} drew a bone ({event['pile']} left in the pile)."
        if kind == "placed":
            where = _position_phrase(names, event["player"], event["target"], event["position"])
            shown = f" **{event['bone']}**" if event.get("bone") else " the drawn bone"
            return f"{display_name(names, event['player'])} placed{shown} on {where}."
        if kind == "swapped":
            player, other = display_name(names, event["player"]), display_name(names, event["with"])
            if event["kind"] == "up":
                bones = event["bones"]
                return (f"{player} swapped face-up bones with {other}: {player} now shows "
                        f"**{bones[event['player']]}**, {other} **{bones[event['with']]}**.")
            return f"{player} swapped their face-in bone for {other}'s face-out bone."
        if kind == "revealed":
            return (f"Hand {event['hand']} is over: every bone is revealed. Choose a box with **Choose a box** "
                    "(or /score).")
        if kind == "scored":
            box = BOX_LABELS[event["box"]]
            return f"{display_name(names, event['player'])} scored {event['points']} in {box}."
        if kind == "dealt":
            return f"Hand {event['hand']} is dealt; {display_name(names, event['first'])} plays first."
        if kind == "game_over":
            winners = " and ".join(display_name(names, player) for player in event["winners"])
            best = max(event["scores"].values())
            verb = "wins" if len(event["winners"]) == 1 else "share the win"
            return f"Game over: {winners} {verb} with {points_text(best)}."
        return None

    def describe_state(self, view: dict, names: Names) -> str:
        """The board in words, each player's score sheet (the boxes he filled) on his line."""
        return self._state(view, names, sheets_apart=False)

    def alt_text(self, view: dict, names: Names) -> str:
        """As `describe_state`, but the score sheets last: alt text past Discord's limit loses its end
        (bot.presentation.alt_text), and every player's bones and total matter more than the boxes filled."""
        return self._state(view, names, sheets_apart=True)

    def private_alt_text(self, view: dict, names: Names, viewer: str) -> str:
        """All the viewer's own picture shows him: the table's words (pile, turns left, totals, score
        sheets), with the bones his view holds and the bone he drew."""
        return self._state(view, names, sheets_apart=True, viewer=viewer)

    def alt_awaited(self, view: dict, names: Names) -> str:
        return {"scoring": "Choose a box.", "drawn": "Place the bone drawn."}.get(view["phase"], "")

    def _state(self, view: dict, names: Names, *, sheets_apart: bool, viewer: str | None = None) -> str:
        """The board in words: from the public view (a private view handed here is masked first), or,
        with `viewer`, from his own view, as his picture shows it."""
        if viewer is None:
            view = public_part(view)
        lines = [f"Hand {view['hand']} of {len(BOXES)} · pile {view['pile']}"]
        if viewer is not None and view.get("drawn") is not None:
            lines.append(_drawn_line(view))
        sheets = []
        revealed = view["phase"] in OPEN_PHASES
        for seat, entry in enumerate(view["players"]):
            player = entry["id"]
            card = view["scorecard"][player]
            total = sum(points or 0 for points in card.values())
            shown = _shown_bones(entry)  # revealed: every bone where it lay, as the picture heads them
            if not revealed:
                turns = view["turns_left"][player]
                shown = f"{shown} · {turns} turn{'' if turns == 1 else 's'} left"
            filled = ", ".join(f"{BOX_LABELS[box]} {card[box]}" for box in BOXES if card.get(box) is not None)
            if filled and sheets_apart:
                sheets.append(f"{display_name(names, player)}: {filled}")
            boxes = f" (boxes: {filled})" if filled and not sheets_apart else ""
            seat_name = f"{display_name(names, player)} ({seat_words(seat)}{', you' if player == viewer else ''})"
            lines.append(f"{seat_name}: {shown} · total {total}{boxes}")
        if view["phase"] == "over":
            lines.append("Game over.")
        elif view["to_act"]:
            waiting = ", ".join(display_name(names, player) for player in view["to_act"])
            lines.append(f"Waiting for {waiting} {_step(view)}.")
        if sheets:
            lines.append(f"Boxes filled: {'; '.join(sheets)}.")
        return "\n".join(lines)

    def components(self, view: dict, legal: Legal) -> list[Component]:
        """Draw and Swap… for the player to act, Choose a box at scoring time, Show my bones for anyone."""
        if view["phase"] == "over":
            return []
        acting = tuple(view["to_act"])
        found: list[Component] = []
        if view["phase"] == "turns":
            if any({"type": "draw"} in legal.get(player, []) for player in acting):
                found.append(ActionButton("Draw", DRAW_TOKEN, players=acting))
            swaps = [action for player in acting for action in legal.get(player, []) if action["type"] == "swap"]
            if swaps:
                found.append(Select("swap", "Swap a bone with another player…",
                                    tuple(_swap_option(action) for action in swaps), acting))
        if view["phase"] == "scoring":
            found.append(ActionButton("Choose a box", BOXES_TOKEN, players=acting))
        found.append(ActionButton("Show my bones", HAND_TOKEN, style="secondary"))
        return found

    def private_components(self, view: dict, viewer: str, legal: Legal) -> list[Component]:
        """Where the drawn bone goes, or which box to score: each depends on the viewer's own bones."""
        places = placement_choices(view, viewer, _mentions(view))
        if places:
            return [ActionButton(label, f"place.{action['target']}.{action['position']}", players=(viewer,))
                    for label, action in places]
        if view["phase"] == "scoring" and viewer in view["to_act"]:
            return [_box_menu(view, viewer)]
        return []

    def expand(self, token: str, view: dict, viewer: str, legal: Legal) -> Step | None:
        if token != BOXES_TOKEN:
            return None
        if view["phase"] != "scoring" or viewer not in view["to_act"]:
            return Step("You have no box to choose now.", ())
        return Step("Which box does this hand go in? Each shows what your bones score there.",
                    (_box_menu(view, viewer),))

    def private_text(self, view: dict, names: Names, viewer: str) -> str:
        return f"**Your bones** (hand {view['hand']}, only you see this):\n{private_summary(view, viewer, names)}"

    def private_part(self, view: dict, names: Names, viewer: str) -> str:
        """The bones his view shows him, without the panel's heading: his page's part says whose they are."""
        return private_summary(view, viewer, names)

    def choice_prompt(self, view: dict, names: Names, viewer: str) -> str:
        if placement_choices(view, viewer):
            return f"Place the {view['drawn']} on…"
        return ""

    def action_for_button(self, token: str) -> dict:
        """`draw`, `place.<target>.<position>`, `swap.<kind>.<with>` or `score.<box>`."""
        verb, _, rest = token.partition(".")
        if token == "draw":
            return {"type": "draw"}
        if verb == "place":
            target, _, position = rest.rpartition(".")
            if target and position in PLACE_POSITIONS:
                return {"type": "place", "target": target, "position": position}
        if verb == "swap":
            kind, _, other = rest.partition(".")
            if kind in SWAP_KINDS and other:
                return swap_action(kind, other)
        if verb == "score" and rest in BOXES:
            return score_action(rest)
        return super().action_for_button(token)

    def verb_action(self, verb: str, options: Mapping[str, Any]) -> dict:
        if verb != "place":
            return super().verb_action(verb, options)
        target, position = options.get("target"), options.get("position")
        if not target or position not in PLACE_POSITIONS:
            raise IllegalMove(f"Use {self.verbs['place']}.")
        return {"type": "place", "target": str(target), "position": position}


FRONTEND = JohariBonesFrontend()
