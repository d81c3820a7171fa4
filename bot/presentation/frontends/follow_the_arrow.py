"""Follow the Arrow in Discord: menus for placing and moving, a "Call Jump!" button, and /place, /move, /jump.

Components (see bot/presentation/frontend.py), all for the one player who may use them:
- placing: a menu "which pawn goes on a1?", then b1, c1 and d1 in the chooser's private reply (the
  last pawn takes e1); tokens `place.3`, `place.3.1`, ... and the action `place.3.1.5.2.4`;
- moving: a menu of the pawns that can move (only those that can jump when Jump was called), then
  that pawn's line moves and jump paths (`pawn.3` -> `move.3.c4`, `jump.3.c4.c6`), several menus of
  25 when one pawn has more;
- `call_jump` and `decline_call` buttons for the last mover while Jump may be called.
The /jump command belongs to this game's cog, which builds its action with `jump_action(pawn, path)`.

Autocomplete (`choices`) draws on the user's legal actions. Once a pawn is chosen, `/move to:` and
`/jump path:` offer that pawn's destinations; before that they offer every pawn's, as values that
name the pawn first ("3 c4", "3 c4 c6"), which `/move` and `/jump` read as the pawn when the pawn
option is left empty (and refuse when it names another pawn).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from functools import partial
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
    chunked_select,
    display_name,
    joined,
    points_text,
)
from bot.presentation.render.canvas import SEAT_SHAPES
from bot.presentation.render.follow_the_arrow import PAWN_SHAPE, draw_follow_the_arrow
from games.core import IllegalMove
from games.follow_the_arrow_board import ARROWS

_SEPARATORS = re.compile(r"[\s,;:>\-–→]+")
_BUTTON_ACTIONS = {"call_jump": {"type": "call_jump"}, "decline_call": {"type": "decline_call"}}

RULES_TEXT = """\
**Follow the Arrow** — 2 players, five numbered pawns each. The arrows on the circles, not the \
pawns, say where a pawn may go.
• **Start:** black sits at row 1, red at row 6. Black places pawns 1–5 on their start row in any order \
(the menu under the table, or `/place order:3 1 5 2 4` = columns a–e), then red. Whoever placed first \
moves first.
• **Moving:** choose a pawn in the menu under the table, then where it goes; or type the commands below.
• **Line move** (`/move pawn:3 to:c4`): one step to an empty circle along an arrow of your circle, \
forward or sideways only.
• **Jump** (`/jump pawn:3 path:c4 c6`): over an adjacent enemy pawn to the empty circle beyond. The \
first hop must follow an arrow; later hops need none. Up to 4 hops, stop when you like. Jumped pawns \
stay. No backward hops, no sideways hops along a start row, no pawn jumped twice.
• **Call Jump!** Right after your move, if your opponent can jump, press **Call Jump!**: their next move \
must be a jump (their choice which). Silence or **No call** lets them move freely.
• A player who cannot move passes; if neither can, the game is drawn.
• **Win:** all five pawns on the opponent's start row. Score = the loser's pawn numbers not yet on \
your start row, added up, times the number of your last pawn in (1, 2, 4 out and your 3 last: 7 × 3 = 21).
• In a match (`/game rematch` after a game), who places and moves first alternates; points add up."""


def _arrows_there(circle: str) -> str:
    """Where a circle's arrows point, for a menu choice landing on it: the words name only the arrows under
    pawns, the picture shows every circle's."""
    return f"arrows there: {' '.join(ARROWS[circle])}"


def _parse_circles(text: Any, what: str) -> list[str]:
    """Circle names from "c4 c6", "c4,c6", "c4 -> c6" or a list."""
    parts = text if isinstance(text, list | tuple) else _SEPARATORS.split(str(text or ""))
    circles = [str(part).strip().lower() for part in parts if str(part).strip()]
    if not circles:
        raise IllegalMove(f"Give the {what}, e.g. c4 c6.")
    return circles


def _parse_order(order: Any) -> list[int]:
    """Pawn numbers for columns a..e from "3 1 5 2 4", "3,1,5,2,4", "31524" or a list."""
    if isinstance(order, list | tuple):
        parts = [str(part) for part in order]
    else:
        text = str(order or "").strip()
        parts = list(text) if text.isdigit() else [part for part in _SEPARATORS.split(text) if part]
    if not parts or not all(part.strip().isdigit() for part in parts):
        raise IllegalMove("Give the pawn numbers for columns a to e, e.g. /place order:3 1 5 2 4.")
    return [int(part) for part in parts]


def _pawn(value: Any) -> int:
    if isinstance(value, bool) or value is None or not str(value).strip().isdigit():
        raise IllegalMove("Say which pawn: a number from 1 to 5.")
    return int(str(value).strip())


def _pawn_and_circles(pawn: Any, text: Any, what: str) -> tuple[int, list[str]]:
    """The pawn and circles of a /move or /jump, where the circles may start with the pawn ("3 c4 c6")."""
    parts = _parse_circles(text, what)
    if parts[0] == "pawn":
        parts = parts[1:]
    named = parts.pop(0) if parts and parts[0].isdigit() else None
    if not parts:
        raise IllegalMove(f"Give the {what}, e.g. c4 c6.")
    if named is not None and pawn is not None and int(named) != _pawn(pawn):
        raise IllegalMove(f"You chose pawn {pawn}, but {' '.join(parts)} was offered for pawn {named}: "
                          "pick one pawn and its own destinations.")
    return _pawn(pawn if pawn is not None else named), parts


def _pawn_choices(actions: list[dict], where: Callable[[dict], str]) -> list[tuple[str, str]]:
    """One choice per pawn that has any of `actions`, listing where it can go."""
    by_pawn: dict[int, list[str]] = {}
    for action in actions:
        by_pawn.setdefault(action["pawn"], []).append(where(action))
    return [(f"pawn {pawn}: {', '.join(places)}", str(pawn)) for pawn, places in sorted(by_pawn.items())]


def _destination_choices(actions: list[dict], typed: Mapping[str, Any],
                         where: Callable[[dict], str]) -> list[tuple[str, str]]:
    """Destinations of the chosen pawn, or of every pawn (named in the value) while none is chosen."""
    chosen = typed.get("pawn")
    if chosen is not None and str(chosen).isdigit():
        return [(_label(a, where), where(a)) for a in actions if a["pawn"] == int(chosen)]
    return [(_label(a, where), f"{a['pawn']} {where(a)}") for a in actions]


def _label(action: dict, where: Callable[[dict], str]) -> str:
    return f"pawn {action['pawn']} → {where(action).replace(' ', ' → ')}"


def _landing(action: dict) -> str:
    return " ".join(action["path"])


def _target(action: dict) -> str:
    return action["to"]


class FollowTheArrowFrontend(Frontend):
    slug = "follow-the-arrow"
    rules_text = RULES_TEXT
    verbs = {
        "place": "/place order:3 1 5 2 4 — your pawn numbers for columns a to e of your start row.",
        "move": "/move pawn:3 to:c4 — a line move along an arrow.",
    }
    commands = {
        "jump": "/jump pawn:3 path:c4 c6 — a jump, naming each circle it lands on.",
    }
    move_kinds = {"decline_call": "no call"}

    def draw_board(self, view: dict, names: Names, events: Events = ()) -> bytes:
        return draw_follow_the_arrow(view, names)

    def verb_action(self, verb: str, options: Mapping[str, Any]) -> dict:
        if verb == "place":
            return {"type": "place", "order": _parse_order(options.get("order"))}
        if verb == "move":
            pawn, target = _pawn_and_circles(options.get("pawn"), options.get("to"), "circle to move to")
            if len(target) != 1:
                raise IllegalMove("A line move goes to one circle; to jump, use /jump pawn:3 path:c4 c6.")
            return {"type": "move", "pawn": pawn, "to": target[0]}
        return super().verb_action(verb, options)

    def jump_action(self, pawn: int | None, path: str) -> dict:
        """The jump action for /jump: `path` lists the landing circles, "c4 c6" or "c4,c6"."""
        number, landings = _pawn_and_circles(pawn, path, "landing circles in order")
        return {"type": "jump", "pawn": number, "path": landings}

    def choices(self, verb: str, option: str, legal: list[dict], typed: Mapping[str, Any],
                view: dict | None = None, viewer: str = "") -> list[tuple[str, str]]:
        """`/move pawn:`/`to:` from the line moves, `/jump pawn:`/`path:` from the jumps, longest first."""
        if verb == "move":
            actions, where = [a for a in legal if a["type"] == "move"], _target
        elif verb == "jump":
            jumps = [a for a in legal if a["type"] == "jump"]
            actions, where = sorted(jumps, key=lambda a: -len(a["path"])), _landing
        else:
            return []
        if option == "pawn":
            return _pawn_choices(actions, where)
        if option in ("to", "path"):
            return _destination_choices(actions, typed, where)
        return []

    def components(self, view: dict, legal: Legal) -> list[Component]:
        found: list[Component] = []
        if view.get("phase") == "placing" and view["to_act"]:
            placer = view["to_act"][0]
            row = _start_row(view, placer)
            found.append(Select("place", f"Place your pawns: which pawn goes on a{row}?",
                                tuple(Option(f"Pawn {n} on a{row}", f"place.{n}") for n in range(1, 6)), (placer,)))
        if view.get("phase") != "play":
            return found
        for mover in view["to_act"]:
            moves = [a for a in legal.get(mover, []) if a["type"] in ("move", "jump")]
            if moves:
                found.append(self._pawn_menu(view, mover, moves))
        caller = view.get("last_mover")
        if caller and {"type": "call_jump"} in legal.get(caller, []):
            found += [ActionButton("Call Jump!", "call_jump", "danger", (caller,)),
                      ActionButton("No call", "decline_call", "secondary", (caller,))]
        return found

    @staticmethod
    def _pawn_menu(view: dict, mover: str, moves: list[dict]) -> Select:
        where = next(player["pawns"] for player in view["players"] if player["id"] == mover)
        options = []
        for pawn in sorted({action["pawn"] for action in moves}):
            mine = [action for action in moves if action["pawn"] == pawn]
            jumps = sum(1 for action in mine if action["type"] == "jump")
            kinds = ", ".join(filter(None, [_count(len(mine) - jumps, "move"), _count(jumps, "jump")]))
            options.append(Option(f"Pawn {pawn} on {where[str(pawn)]}", f"pawn.{pawn}", kinds))
        placeholder = "Jump was called: choose the pawn that jumps…" if view.get("jump_called") \
            else "Move: choose a pawn…"
        return Select("pawn", placeholder, tuple(options), (mover,))

    def expand(self, token: str, view: dict, viewer: str, legal: Legal) -> Step | None:
        verb, _, rest = token.partition(".")
        numbers = rest.split(".") if rest else []
        if not all(part in "12345" and len(part) == 1 for part in numbers):
            return None
        if verb == "place" and 1 <= len(numbers) <= 3 and len(set(numbers)) == len(numbers):
            return self._placing_step(view, viewer, [int(n) for n in numbers])
        if verb == "pawn" and len(numbers) == 1:
            return self._destination_step(view, viewer, int(numbers[0]), legal)
        return None

    @staticmethod
    def _placing_step(view: dict, viewer: str, chosen: list[int]) -> Step:
        row = _start_row(view, viewer)
        column = "abcde"[len(chosen)]
        left = [n for n in range(1, 6) if n not in chosen]
        prefix = "place." + ".".join(map(str, chosen))
        if len(left) == 2:
            options = tuple(Option(f"Pawn {n} on {column}{row}, pawn {other} on e{row}", f"{prefix}.{n}.{other}")
                            for n in left for other in left if other != n)
        else:
            options = tuple(Option(f"Pawn {n} on {column}{row}", f"{prefix}.{n}") for n in left)
        so_far = ", ".join(f"pawn {n} on {col}{row}" for n, col in zip(chosen, "abcde", strict=False))
        return Step(f"So far: {so_far}. Which pawn goes on {column}{row}?",
                    (Select(prefix, f"Which pawn goes on {column}{row}?", options, (viewer,)),))

    @staticmethod
    def _destination_step(view: dict, viewer: str, pawn: int, legal: Legal) -> Step:
        mine = [a for a in legal.get(viewer, []) if a["type"] in ("move", "jump") and a["pawn"] == pawn]
        options = [Option(f"Move to {a['to']}", f"move.{pawn}.{a['to']}", _arrows_there(a["to"]))
                   for a in mine if a["type"] == "move"]
        jumps = sorted((a for a in mine if a["type"] == "jump"), key=lambda a: (len(a["path"]), a["path"]))
        options += [Option(f"Jump: {' → '.join(a['path'])}", "jump.{}.{}".format(pawn, ".".join(a["path"])),
                           _arrows_there(a["path"][-1])) for a in jumps]
        if not options:
            return Step(f"Pawn {pawn} cannot move now: choose another pawn on the table.", ())
        where = next((p["pawns"][str(pawn)] for p in view["players"] if p["id"] == viewer), None)
        return Step(f"Pawn {pawn} on {where}: where to?",
                    tuple(chunked_select(f"pawn.{pawn}", f"Pawn {pawn}: where to?", options, (viewer,))))

    def prompts(self, view: dict) -> dict[str, str]:
        if view.get("phase") != "play" or not view.get("jump_callable") or not view.get("last_mover"):
            return {}
        return {view["last_mover"]: "your opponent can jump: press **Call Jump!** to make them jump, "
                                    "before they move."}

    def action_for_button(self, token: str) -> dict:
        if token in _BUTTON_ACTIONS:
            return dict(_BUTTON_ACTIONS[token])
        verb, _, rest = token.partition(".")
        parts = rest.split(".")
        if verb == "place" and len(parts) == 5 and all(p.isdigit() for p in parts):
            return {"type": "place", "order": [int(p) for p in parts]}
        if verb == "move" and len(parts) == 2 and parts[0].isdigit():
            return {"type": "move", "pawn": int(parts[0]), "to": parts[1]}
        if verb == "jump" and len(parts) >= 2 and parts[0].isdigit():
            return {"type": "jump", "pawn": int(parts[0]), "path": parts[1:]}
        return super().action_for_button(token)

    def describe_events(self, events: list[dict], names: Names) -> list[str]:
        name = partial(display_name, names)

        lines = []
        for event in events:
            describe = _NARRATION.get(event["type"])
            if describe is not None:
                lines.append(describe(event, name))
        return lines

    def describe_state(self, view: dict, names: Names) -> str:
        lines = _sides(view, names)
        if view["phase"] == "over" or view["to_act"]:  # an abandoned or claimed game waits on nobody
            lines.insert(len(view["players"]), _turn_line(view, partial(display_name, names)))
        return "\n".join(lines)

    def alt_text(self, view: dict, names: Names) -> str:
        """The sides and the match, without whose turn it is or who won (the alt text says it once)."""
        return "\n".join(_sides(view, names))

    def alt_awaited(self, view: dict, names: Names) -> str:
        """The table's turn line, its names aside (the alt text says whose turn it is once)."""
        if view["phase"] == "placing":
            return "Place pawns."
        if view["jump_called"]:
            return "Jump was called: a jump is a must."
        if view["jump_callable"]:
            return f"{display_name(names, view['last_mover'])} may call Jump!"
        return ""


def _sides(view: dict, names: Names) -> list[str]:
    """Each side's pawns with the arrows under them, then the match's totals."""
    name = partial(display_name, names)
    lines = []
    for player in view["players"]:
        goal = "6" if player["colour"] == "black" else "1"
        pawns = player["pawns"]
        home = sum(1 for circle in pawns.values() if circle and circle.endswith(goal))
        where = ", ".join(f"pawn {n} on {circle} (arrows {' '.join(ARROWS[circle])})"
                          for n, circle in sorted(pawns.items()) if circle) or "not placed"
        shape = f"{SEAT_SHAPES[PAWN_SHAPE[player['colour']]]}s"  # as the picture draws this side's pawns
        lines.append(f"{player['colour'].title()} {name(player['id'])} ({shape}): {where} ({home}/5 across)")
    match = view.get("match") or {}
    if match.get("game", 1) > 1 or any((match.get("totals") or {}).values()):
        totals = ", ".join(f"{name(who)} {points}" for who, points in match["totals"].items())
        lines.append(f"Match game {match['game']}: {totals}")
    return lines


def _count(number: int, noun: str) -> str:
    if number == 0:
        return ""
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def _start_row(view: dict, player: str) -> str:
    colour = next((p["colour"] for p in view["players"] if p["id"] == player), "black")
    return "1" if colour == "black" else "6"


def _pawns_on(order: list[int], colour: str) -> str:
    """"pawn 3 on a1, pawn 1 on b1, ..." for a placement."""
    row = "1" if colour == "black" else "6"
    return ", ".join(f"pawn {pawn} on {column}{row}" for column, pawn in zip("abcde", order, strict=True))


def _turn_line(view: dict, name: Callable[[str], str]) -> str:
    if view["phase"] == "over":
        rematch = " `/game rematch` starts the next game of the match." if view.get("next_game_options") else ""
        if view["winner"]:
            # The name stays outside the bold: an AI seat's name is bold already (bot.presentation.words.mention).
            return f"{name(view['winner'])} wins {points_text(view['points'], bold=True)}.{rematch}"
        return f"Drawn: neither player can move.{rematch}"
    waiting = ", ".join(name(who) for who in view["to_act"])
    if view["phase"] == "placing":
        return f"{waiting} to place pawns (the menu below, or /place)."
    if view["jump_called"]:
        return f"Jump was called: {waiting} must jump (the menu below, or /jump)."
    if view["jump_callable"]:
        return f"{waiting} to move; {name(view['last_mover'])} may call Jump!"
    return f"{waiting} to move."


def _won(event: dict, name: Callable[[str], str]) -> str:
    numbers = [str(n) for n in event["loser_pawns_out"]]
    out = f"pawn {numbers[0]} is" if len(numbers) == 1 else f"pawns {joined(numbers)} are"
    return (f"🏁 {name(event['player'])} brings pawn {event['pawn']} home and wins: "
            f"{name(event['loser'])}'s {out} still out, {event['loser_sum']} × {event['pawn']} = "
            f"{points_text(event['points'], bold=True)}.")


def _jumped(event: dict, name: Callable[[str], str]) -> str:
    hops = " → ".join([event["from"], *event["path"]])
    count = len(event["over"])
    forced = " (forced)" if event.get("forced") else ""
    return (f"{name(event['player'])} jumps pawn {event['pawn']}{forced}: {hops}, "
            f"over {count} pawn{'s' if count > 1 else ''}.")


_NARRATION: dict[str, Callable[[dict, Callable[[str], str]], str]] = {
    "placed": lambda e, name: (f"{name(e['player'])} places the {e['colour']} pawns: "
                               f"{_pawns_on(e['order'], e['colour'])}."),
    "moved": lambda e, name: f"{name(e['player'])} moves pawn {e['pawn']}: {e['from']} → {e['to']}.",
    "jumped": _jumped,
    "jump_possible": lambda e, name: f"{name(e['player'])} can jump now — {name(e['caller'])} may call **Jump!**",
    "jump_called": lambda e, name: f"📣 {name(e['player'])} calls **Jump!** {name(e['target'])} must jump.",
    "call_declined": lambda e, name: f"{name(e['player'])} lets it go: {name(e['target'])} may move freely.",
    "passed": lambda e, name: f"{name(e['player'])} has no legal move and passes.",
    "draw": lambda e, name: "Neither player can move: the game is drawn, no points.",
    "won": _won,
}

FRONTEND = FollowTheArrowFrontend()
