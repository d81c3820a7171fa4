"""The narrow hallway as a picture: 13 coloured spaces between two semicircles.

Laid out for a phone (720 px wide, shown about 400 px wide): both players with their scores and
tokens on top, then whose turn it is and the last roll, the hallway with each player's end
penalty (5 × steps to his exit) printed in his colour beside every space, red above the track
and blue below as on the original sheet, and at the bottom the offer on the table and the
encounter counter. The hallway and the counter's labels are drawn once and cached. The last
roll is not in the view, so it comes from the move's events.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache

from PIL import Image

from bot.presentation.frontend import display_name
from bot.presentation.render.canvas import (
    BACKGROUND,
    BANNER_HEIGHT,
    BODY,
    GAME_OVER,
    INK,
    KEY,
    MUTED,
    PHONE_WIDTH,
    PLAYER_COLOURS,
    SMALL,
    WHITE,
    Board,
    Colour,
    banner_palette_colours,
    clip,
    draw_result_banner,
    fit_size,
    game_palette,
    pts,
    text_width,
    token_labels,
)
from games.two_fat_dudes import EXIT, PENALTY_PER_STEP, TRACK, edge_cost

WIDTH = PHONE_WIDTH
MARGIN = 8
RADIUS = 42
SPACE_W = (WIDTH - 2 * MARGIN - 2 * RADIUS) // 13
TRACK_X = (WIDTH - 13 * SPACE_W) // 2
TOP_H = 166
RED_PENALTY_Y = TOP_H + 16
TRACK_Y = TOP_H + 34
SPACE_H = 92
MID_Y = TRACK_Y + SPACE_H // 2
BLUE_PENALTY_Y = TRACK_Y + SPACE_H + 18
BOTTOM_Y = BLUE_PENALTY_Y + 26
COUNTER_BOX = 44
HEIGHT = BOTTOM_Y + 176
FILLS = {"red": (222, 104, 96), "blue": (96, 136, 222), "green": (82, 170, 98)}
LIGHT = {"red": (246, 206, 200), "blue": (204, 218, 246)}
TOKEN = {"red": PLAYER_COLOURS[0], "blue": PLAYER_COLOURS[1]}
EDGE_RING = (250, 210, 60)
TURN_BAND = (255, 236, 179)
PALETTE = game_palette(
    [BACKGROUND, INK, MUTED, WHITE, *FILLS.values(), *LIGHT.values(), *TOKEN.values(), EDGE_RING, TURN_BAND,
     *banner_palette_colours()],
    inks=[INK, MUTED, WHITE, *TOKEN.values()],
    papers=[BACKGROUND, WHITE, TURN_BAND, *FILLS.values(), *LIGHT.values(), *TOKEN.values(), INK,
            banner_palette_colours()[0]],
)


def position_x(position: int) -> float:
    """The centre of a space; the semicircles sit just outside the ends of the track."""
    if position == 0:
        return TRACK_X - RADIUS / 2
    if position == 14:
        return TRACK_X + 13 * SPACE_W + RADIUS / 2
    return TRACK_X + (position - 0.5) * SPACE_W


def space_label(colour: str, number: int) -> str:
    """A space's number; the green space's as "+10", a gain for either dude: under red-green colour
    blindness its green looks like the red spaces' (which take points from blue), so colour must not be
    its only cue."""
    return f"+{number}" if colour == "green" else str(number)


@cache
def _hallway() -> Image.Image:
    """The track, both penalty rows and the counter's labels: everything that never changes."""
    board = Board.blank(WIDTH, HEIGHT)
    left, right = TRACK_X, TRACK_X + 13 * SPACE_W
    board.draw.pieslice((left - RADIUS, MID_Y - RADIUS, left + RADIUS, MID_Y + RADIUS), 90, 270,
                        fill=LIGHT["red"], outline=INK, width=2)
    board.draw.pieslice((right - RADIUS, MID_Y - RADIUS, right + RADIUS, MID_Y + RADIUS), 270, 90,
                        fill=LIGHT["blue"], outline=INK, width=2)
    for position, (colour, number) in TRACK.items():
        x0 = TRACK_X + (position - 1) * SPACE_W
        board.draw.rectangle((x0, TRACK_Y, x0 + SPACE_W, TRACK_Y + SPACE_H), fill=FILLS[colour], outline=INK, width=2)
        label = space_label(colour, number)
        board.text((x0 + SPACE_W / 2, TRACK_Y + 20), label, fit_size(label, KEY, SPACE_W - 4), WHITE, "mm", bold=True)
    for position in range(15):
        x = position_x(position)
        if position != EXIT[0]:
            board.text((x, RED_PENALTY_Y), str(PENALTY_PER_STEP * abs(EXIT[0] - position)), SMALL, TOKEN["red"], "mm")
        if position != EXIT[1]:
            board.text((x, BLUE_PENALTY_Y), str(PENALTY_PER_STEP * abs(EXIT[1] - position)), SMALL, TOKEN["blue"],
                       "mm")
    board.text((MARGIN, HEIGHT - 16), "Red above, blue below: end penalty (5 a step to your exit)", SMALL, MUTED,
               "lm")
    left = WIDTH - MARGIN - 5 * (COUNTER_BOX + 6)
    board.text((left, BOTTOM_Y + 8), "Encounters · Edge cost", SMALL, MUTED, "lm")
    for number in range(1, 6):
        x0 = left + (number - 1) * (COUNTER_BOX + 6)
        under = f"-{edge_cost(number)}" if number <= 4 else "squeeze"
        board.text((x0 + COUNTER_BOX / 2, BOTTOM_Y + 26 + COUNTER_BOX + 14), under,
                   SMALL if number <= 4 else 15, MUTED, "mm")
    board.text((left, BOTTOM_Y + 26 + COUNTER_BOX + 40), "gold ring: holds the Edge", SMALL, MUTED, "lm")
    return board.image



def _status(view: dict, names: Mapping[str, str]) -> str:
    if not view.get("to_act"):  # an ended game (bot.presentation.words.ended_view): claimed, abandoned, or over
        return GAME_OVER
    to_act = [display_name(names, p) for p in view.get("to_act") or []]
    phase = view["phase"]
    if phase == "roll-off":
        return "Roll for the start: " + " and ".join(to_act)
    who = to_act[0] if to_act else ""
    if phase == "encounter":
        return f"{who}: accept, decline or counter" if view.get("offer") else f"{who}: make an offer or pass"
    if phase == "edge":
        return f"{who} holds the Edge: retreat or send back"
    return f"{who} to roll" + (" (race!)" if phase == "race" else "")


def last_roll(events: Sequence[dict]) -> tuple[str, int, str] | None:
    """(who rolled, the d4, what for) of the latest roll in the events since the turn changed;
    None when nothing was rolled."""
    latest = None
    for event in events:
        if event["type"] == "rolled":
            latest = event["player"], event["roll"], ""
        elif event["type"] == "roll_off":
            latest = event["player"], event["roll"], " for the start"
    return latest


def _draw_players(board: Board, view: dict, names: Mapping[str, str]) -> None:
    """One row per player: his token (colour and letter, as in the hallway), name, tags and score; the
    player to act on a band."""
    to_act = set(view.get("to_act") or [])
    labels = token_labels([display_name(names, player["id"]) or "?" for player in view["players"]])
    for index, player in enumerate(view["players"]):
        top = 6 + index * 44
        if player["id"] in to_act:
            board.draw.rectangle((0, top - 2, WIDTH - 1, top + 40), fill=TURN_BAND)
        colour = TOKEN[player["colour"]]
        board.draw.ellipse((MARGIN, top + 6, MARGIN + 26, top + 32), fill=colour, outline=INK)
        board.text((MARGIN + 13, top + 19), labels[index], fit_size(labels[index], BODY, 22, 12), WHITE, "mm",
                   bold=True)
        score = pts(player['score'])
        board.text((WIDTH - MARGIN, top + 19), score, KEY, INK, "rm", bold=True)
        tags = [tag for tag, on in (("start", view.get("start_player") == player["id"]),
                                    ("Edge", view.get("edge") == player["id"]),
                                    ("exited", player["exited"])) if on]
        tag_text = " · ".join(tags)
        room = WIDTH - 2 * MARGIN - 40 - text_width(score, KEY) - (text_width(tag_text, SMALL) + 16 if tags else 0)
        name = clip(display_name(names, player["id"]), KEY, room)
        board.text((MARGIN + 36, top + 19), name, KEY, colour, "lm", bold=True)
        if tags:
            board.text((MARGIN + 44 + text_width(name, KEY), top + 21), tag_text, SMALL, MUTED, "lm")


def _draw_turn(board: Board, view: dict, names: Mapping[str, str], events: Sequence[dict], top: int) -> None:
    """Whose turn it is (key size) and the last roll."""
    if view["phase"] != "over":
        status = _status(view, names)
        board.text((MARGIN, top), status, fit_size(status, KEY, WIDTH - 2 * MARGIN), INK, "lm", bold=True)
    rolled = last_roll(events)
    if rolled is not None:
        roller, roll, why = rolled
        text = f"Last roll: {display_name(names, roller)} rolled {roll}{why}"
        board.text((MARGIN, top + 34), clip(text, BODY, WIDTH - 2 * MARGIN), BODY, INK, "lm")


def _draw_dudes(board: Board, view: dict, names: Mapping[str, str]) -> None:
    players = view["players"]
    shared = players[0]["position"] == players[1]["position"]
    labels = token_labels([display_name(names, player["id"]) or "?" for player in players])
    for index, player in enumerate(players):
        x = position_x(player["position"])
        y = MID_Y + 10 + ((index * 2 - 1) * 20 if shared else 0)
        radius = 17 if shared else 21
        ring = EDGE_RING if view.get("edge") == player["id"] else INK
        board.draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=TOKEN[player["colour"]],
                           outline=ring, width=4 if ring != INK else 2)
        label = labels[index]
        size = BODY if shared or len(label) > 1 else KEY
        board.text((x, y), label, fit_size(label, size, radius * 2 - 6, smallest=SMALL), WHITE, "mm", bold=True)


def _draw_bottom(board: Board, view: dict, names: Mapping[str, str]) -> None:
    """The offer on the table (left) and the encounter counter (right)."""
    left = WIDTH - MARGIN - 5 * (COUNTER_BOX + 6)
    for number in range(1, 6):
        x0 = left + (number - 1) * (COUNTER_BOX + 6)
        done = number <= view["encounters"]
        board.draw.rectangle((x0, BOTTOM_Y + 26, x0 + COUNTER_BOX, BOTTOM_Y + 26 + COUNTER_BOX),
                             fill=INK if done else WHITE, outline=INK, width=2)
        board.text((x0 + COUNTER_BOX / 2, BOTTOM_Y + 26 + COUNTER_BOX / 2), str(number), BODY,
                   WHITE if done else INK, "mm")
    width = left - 2 * MARGIN - 8
    offer = view.get("offer")
    board.text((MARGIN, BOTTOM_Y + 8), "On the table", SMALL, MUTED, "lm")
    if offer is None:
        board.text((MARGIN, BOTTOM_Y + 42), "no offer", BODY, MUTED, "lm")
        return
    payee = next(p["id"] for p in view["players"] if p["id"] != offer["payer"])
    lines = [f"{clip(display_name(names, offer['payer']), BODY, width - 50)} pays",
             f"{clip(display_name(names, payee), BODY, width - 110)} {offer['points']} points",
             f"(offered by {clip(display_name(names, offer['proposed_by']), SMALL, width - 110)})"]
    for index, line in enumerate(lines):
        board.text((MARGIN, BOTTOM_Y + 42 + index * 30), line, BODY if index < 2 else SMALL,
                   INK if index < 2 else MUTED, "lm", bold=index == 1)


def result_banner(view: dict, names: Mapping[str, str]) -> tuple[str, list[tuple[str, str, Colour]]]:
    """The final banner's headline and each player's final score."""
    winners = [display_name(names, p) for p in view.get("winners") or []]
    if len(winners) > 1:
        headline = "Shared victory: " + " and ".join(winners)
    elif winners:
        headline = f"{winners[0]} is the Honorary Skinny Dude!"
    else:
        headline = "Game over"
    return headline, [(display_name(names, p["id"]), pts(p['score']), TOKEN[p["colour"]]) for p in view["players"]]


def draw_hallway(view: dict, names: Mapping[str, str], events: Sequence[dict] = ()) -> bytes:
    board = Board(_hallway().copy())
    if view["phase"] == "over":
        draw_result_banner(board, 6, *result_banner(view, names))
        _draw_turn(board, view, names, events, BANNER_HEIGHT + 6 + 18 - 34)
    else:
        _draw_players(board, view, names)
        _draw_turn(board, view, names, events, 112)
    _draw_dudes(board, view, names)
    _draw_bottom(board, view, names)
    return board.png(PALETTE)
