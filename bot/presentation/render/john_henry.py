"""The John Henry board: thirteen stations, two railroads' dice, John Henry, and the last roll.

Laid out for a phone (720 px wide, shown about 400 px wide): the railroads and whose turn it is
on top, the track in the middle with Union Pacific's die above it and Central Pacific's below,
John Henry's pawn beside his employer's die, and at the bottom the dice just rolled and a legend
saying what the pips on a railroad's die mean. Station names are printed upright, since thirteen
of them side by side do not fit a phone's width. The track and the legend are drawn once and
cached, and so is each die (pasted where it goes, the very same pixels: issue 24).

The dice just rolled are not part of the view (its keys are fixed by the rules), so they come
from the move's events; a picture drawn without events (a re-drawn table) leaves that panel at
"no roll yet".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache, lru_cache

from PIL import Image, ImageDraw

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
    seat_mark,
    text_width,
)
from games.john_henry import CENTER, DOTS_PER_SPACE, SPACE_NAMES, SPIKE_DOTS

WIDTH = PHONE_WIDTH
MARGIN, COLUMN, GAP = 8, 52, 2
HEADER_H = 130
DIE = 42
UP_DICE_TOP = HEADER_H + 4
TRACK_TOP = UP_DICE_TOP + DIE + 10
TRACK_BOTTOM = TRACK_TOP + 150
DOWN_DICE_TOP = TRACK_BOTTOM + 10
PANEL_TOP = DOWN_DICE_TOP + DIE + 14
HEIGHT = PANEL_TOP + 176
GOLD = (232, 190, 60)
SPIKE = (150, 110, 20)
TRACK_FILL = (255, 252, 244)
JOHN_HENRY = (70, 45, 25)
STONE = (150, 150, 150)
HAMMER = (90, 90, 90)
GRASS = (90, 120, 60)
RAILROAD_NAMES = {"union-pacific": "Union Pacific", "central-pacific": "Central Pacific"}
PALETTE = game_palette(
    [BACKGROUND, INK, MUTED, WHITE, *PLAYER_COLOURS[:2], GOLD, SPIKE, TRACK_FILL, JOHN_HENRY, STONE, HAMMER, GRASS,
     *banner_palette_colours()],
    inks=[INK, MUTED, *PLAYER_COLOURS[:2], WHITE, SPIKE, JOHN_HENRY],
    papers=[BACKGROUND, TRACK_FILL, GOLD, *PLAYER_COLOURS[:2], banner_palette_colours()[0]],
)

PIPS = {
    0: [], 1: [(1, 1)], 2: [(0, 0), (2, 2)], 3: [(0, 0), (1, 1), (2, 2)],
    4: [(0, 0), (2, 0), (0, 2), (2, 2)], 5: [(0, 0), (2, 0), (1, 1), (0, 2), (2, 2)],
    6: [(0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)],
}


def column_centre(space: int) -> int:
    return MARGIN + (space - 1) * (COLUMN + GAP) + COLUMN // 2


def draw_die(board: Board, centre: tuple[float, float], dots: int, colour: Colour, size: int = DIE) -> None:
    """A die in the railroad's colour; pips up to 6, the number itself beyond (the winning roll).

    A die with pips at a whole-pixel centre is pasted from `_die_stamp`, drawn once (the same pixels)."""
    x, y = centre
    if dots <= 6 and x == int(x) and y == int(y) and size % 2 == 0:
        picture, mask = _die_stamp(dots, colour, size)
        corner = STAMP_MARGIN + size // 2
        board.image.paste(picture, (int(x) - corner, int(y) - corner), mask)
        return
    _draw_die(board.draw, centre, dots, colour, size)
    if dots > 6:
        board.text(centre, str(dots), BODY, WHITE, "mm", bold=True)


STAMP_MARGIN = 3


@lru_cache(maxsize=64)
def _die_stamp(dots: int, colour: Colour, size: int) -> tuple[Image.Image, Image.Image]:
    """A die drawn once, on a transparent square, with the mask of the pixels it covers."""
    span = size + 2 * STAMP_MARGIN + 1
    centre = (STAMP_MARGIN + size // 2, STAMP_MARGIN + size // 2)
    picture, mask = Image.new("RGB", (span, span)), Image.new("L", (span, span), 0)
    _draw_die(ImageDraw.Draw(picture), centre, dots, colour, size)
    _draw_die(ImageDraw.Draw(mask), centre, dots, 255, size, ink=255, pips=255)
    return picture, mask


def _draw_die(draw: ImageDraw.ImageDraw, centre: tuple[float, float], dots: int, colour: Colour | int, size: int,
              ink: Colour | int = INK, pips: Colour | int = WHITE) -> None:
    x, y = centre
    half = size / 2
    draw.rounded_rectangle((x - half, y - half, x + half, y + half), radius=size // 6, fill=colour, outline=ink,
                           width=2)
    step, pip = size / 4, max(3.5, size / 11)
    for col, row in PIPS[dots] if dots <= 6 else ():
        px, py = x - step + col * step, y - step + row * step
        draw.ellipse((px - pip, py - pip, px + pip, py + pip), fill=pips)


def draw_pawn(board: Board, centre: tuple[float, float], scale: float = 1.2) -> None:
    """John Henry: a standing figure with his hammer over his shoulder."""
    x, y = centre

    def at(dx: float, dy: float) -> tuple[float, float]:
        return x + dx * scale, y + dy * scale

    board.draw.polygon([at(-9, 16), at(9, 16), at(4, -4), at(-4, -4)], fill=JOHN_HENRY)
    board.draw.ellipse((*at(-6, -17), *at(6, -5)), fill=JOHN_HENRY)
    board.draw.line((*at(4, 0), *at(15, -14)), fill=JOHN_HENRY, width=3)
    board.draw.rectangle((*at(11, -20), *at(20, -14)), fill=HAMMER)


def draw_grave(board: Board, centre: tuple[float, float]) -> None:
    x, y = centre
    board.draw.rounded_rectangle((x - 20, y - 26, x + 20, y + 20), radius=12, fill=STONE, outline=INK, width=2)
    board.text((x, y - 6), "RIP", SMALL, INK, "mm")
    board.draw.line((x - 28, y + 21, x + 28, y + 21), fill=GRASS, width=3)


def _draw_spike(board: Board, x: int, top: int) -> None:
    """The golden spike, small, beside the center's name."""
    board.draw.rectangle((x + 6, top, x + 20, top + 4), fill=SPIKE)
    board.draw.polygon([(x + 10, top + 4), (x + 16, top + 4), (x + 13, top + 24)], fill=SPIKE)


def _uprightdisplay_name(board: Board, centre: tuple[float, float], name: str, height: int) -> None:
    """A station name turned a quarter so it reads bottom to top inside a narrow box."""
    size = fit_size(name, 19, height, smallest=14)
    label = Board.blank(int(text_width(name, size)) + 4, size + 8, (0, 0, 0))
    label.text((2, 2), name, size, WHITE)
    mask = label.image.convert("L").transpose(Image.Transpose.ROTATE_90)
    x, y = centre
    board.image.paste(INK, (round(x - mask.width / 2), round(y - mask.height / 2)), mask)


@cache
def _track() -> Image.Image:
    """Stations, numbers and names: everything on the board that never changes."""
    board = Board.blank(WIDTH, HEIGHT)
    for space, name in enumerate(SPACE_NAMES, start=1):
        x = column_centre(space)
        box = (x - COLUMN // 2, TRACK_TOP, x + COLUMN // 2, TRACK_BOTTOM)
        if space == CENTER:
            board.draw.rectangle(box, fill=GOLD, outline=SPIKE, width=3)
            board.text((x - 9, TRACK_TOP + 16), str(space), BODY, INK, "mm", bold=True)
            _draw_spike(board, x, TRACK_TOP + 5)
            _uprightdisplay_name(board, (x, TRACK_TOP + 80), "Promontory", 84)
        else:
            board.draw.rectangle(box, fill=TRACK_FILL, outline=INK, width=1)
            board.text((x, TRACK_TOP + 16), str(space), BODY, MUTED, "mm")
            _uprightdisplay_name(board, (x, TRACK_TOP + 88), name, 110)
    board.draw.line((MARGIN, TRACK_BOTTOM + 4, WIDTH - MARGIN, TRACK_BOTTOM + 4), fill=MUTED, width=2)
    _draw_legend(board)
    return board.image



def _status(view: dict, names: Mapping[str, str]) -> str:
    if not view["to_act"]:  # an ended game (bot.presentation.words.ended_view): claimed or abandoned
        return GAME_OVER
    if view["phase"] == "roll-off":
        return "Roll for first player: " + " and ".join(display_name(names, p) for p in view["to_act"])
    player = display_name(names, view["to_act"][0])
    if view["awaiting_bonus"]:
        return f"{player}: roll the bonus die or keep the 6"
    return f"{player} to roll"


def _draw_header(board: Board, view: dict, names: Mapping[str, str]) -> None:
    """Both railroads with their players, then whose turn it is."""
    half = WIDTH / 2 - MARGIN - 6
    for seat, player in enumerate(view["players"]):
        colour = PLAYER_COLOURS[seat]
        x, anchor = (MARGIN, "la") if seat == 0 else (WIDTH - MARGIN, "ra")
        seat_mark(board.draw, (x + 10 if seat == 0 else x - 10, 22), 9, seat, colour, INK)
        name_x = x + 26 if seat == 0 else x - 26
        board.text((name_x, 8), clip(display_name(names, player["id"]), KEY, half - 26), KEY, colour, anchor, bold=True)
        road = f"{RAILROAD_NAMES[player['railroad']]} " + ("from Omaha »" if seat == 0 else "« from Sacramento")
        board.text((x, 42), road, SMALL, colour, anchor)
    to_act = set(view["to_act"])
    for seat, player in enumerate(view["players"]):
        if player["id"] in to_act:
            x0 = MARGIN if seat == 0 else WIDTH / 2 + 6
            board.draw.rectangle((x0, 66, x0 + half, 70), fill=PLAYER_COLOURS[seat])
    status = _status(view, names)
    board.text((WIDTH / 2, 100), status, fit_size(status, KEY, WIDTH - 2 * MARGIN), INK, "mm", bold=True)


def _draw_railroads(board: Board, view: dict) -> None:
    """Each railroad's die on its station (Union Pacific above the track), John Henry beside his holder's."""
    centre_count = sum(p["dots"] for p in view["players"] if p["space"] == CENTER)
    for seat, player in enumerate(view["players"]):
        x = column_centre(player["space"])
        y = UP_DICE_TOP + DIE / 2 if seat == 0 else DOWN_DICE_TOP + DIE / 2
        draw_die(board, (x, y), player["dots"], PLAYER_COLOURS[seat])
        if view["john_henry"] == player["id"]:
            side = 1 if player["space"] < 13 else -1
            draw_pawn(board, (x + side * (COLUMN + GAP), y + 2), scale=1.1)
    x = column_centre(CENTER)
    board.text((x, TRACK_BOTTOM - 14), f"{centre_count}/{SPIKE_DOTS}", SMALL, INK, "mm", bold=True)


def last_roll(events: Sequence[dict]) -> tuple[str, list[int], str] | None:
    """(who rolled, the dice, what came of it) from the events since the turn changed (one move or
    a few); the latest roll wins. None when nothing was rolled."""
    roller, dice, outcome = None, [], []
    for event in events:
        kind = event["type"]
        if kind == "roll-off":
            roller, dice = event["player"], [event["die"]]
            outcome = ["rolled for first player"]
        elif kind == "roll-off-tie":
            outcome = ["a tie: both roll again"]
        elif kind == "first-player":
            outcome = ["wins the roll-off"] if event["player"] == roller else ["loses the roll-off"]
        elif kind == "rolled":
            roller, dice, outcome = event["player"], list(event["dice"]), []
        elif kind == "bonus-rolled":
            roller, dice = event["player"], [6, event["die"]]
        elif kind == "kept-six":
            roller, dice = event["player"], [6]
            outcome.append("keeps the 6")
        elif kind == "john-henry-taken" and event["player"] == roller:  # not a roll-off winner's 6
            outcome.append("calls John Henry")
        elif kind == "john-henry-died":
            outcome.append("doubles: John Henry dies")
        elif kind == "john-henry-passed":
            outcome.append("a 1: John Henry changes sides")
        elif kind == "moved" and event["player"] == roller:
            outcome.append(f"moves {event['steps']}")
    if roller is None:
        return None
    return roller, dice, ", ".join(outcome)


def _draw_last_roll(board: Board, view: dict, names: Mapping[str, str], events: Sequence[dict]) -> None:
    """The dice just rolled, big, with who rolled them and what they did."""
    left, top = MARGIN + 4, PANEL_TOP
    board.text((left, top), "Last roll", SMALL, MUTED)
    rolled = last_roll(events)
    if rolled is None:
        at_start = view["phase"] == "roll-off" and all(p["dots"] == 1 for p in view["players"])
        board.text((left, top + 40), "no roll yet" if at_start else "see the last move above", BODY, MUTED)
        return
    roller, dice, outcome = rolled
    seat = next((i for i, p in enumerate(view["players"]) if p["id"] == roller), 0)
    for index, die in enumerate(dice):
        draw_die(board, (left + 28 + index * 62, top + 56), die, PLAYER_COLOURS[seat], size=52)
    text_left, width = last_roll_words_box(len(dice))
    board.text((text_left, top + 34), clip(display_name(names, roller), KEY, width), KEY, PLAYER_COLOURS[seat],
               bold=True)
    lines, size = outcome_lines(outcome or "rolls", width)
    for index, line in enumerate(lines):  # two lines start higher, to end above the legend's rule
        board.text((text_left, top + 66 - 4 * (len(lines) - 1) + index * (size + 2)), line, size, INK)


def last_roll_words_box(dice: int) -> tuple[float, float]:
    """Where the words beside `dice` dice begin, and how wide they may be: the panel's left half."""
    text_left = MARGIN + 4 + 12 + 62 * dice
    return text_left, WIDTH / 2 + 40 - text_left


def outcome_lines(outcome: str, width: float) -> tuple[list[str], int]:
    """What came of a roll, as drawn beside its dice: one line at the body size if it fits, else its parts
    ("doubles: John Henry dies", "moves 8") over two smaller lines, so none is cut where it matters."""
    if text_width(outcome, BODY) <= width:
        return [outcome], BODY
    lines: list[str] = []
    for part in outcome.split(", "):
        if lines and text_width(f"{lines[-1]}, {part}", SMALL) <= width:
            lines[-1] = f"{lines[-1]}, {part}"
        else:
            lines.append(part)
    if len(lines) > 2:
        lines = [lines[0], ", ".join(lines[1:])]
    return [clip(line, SMALL, width) for line in lines], SMALL


def _draw_john_henry(board: Board, view: dict, names: Mapping[str, str]) -> None:
    """Where John Henry is: in his box, working for a railroad, or in his grave."""
    left = WIDTH / 2 + 60
    top = PANEL_TOP
    board.text((left, top), "John Henry", SMALL, MUTED)
    holder = view["john_henry"]
    if holder == "dead":
        draw_grave(board, (left + 28, top + 58))
        board.text((left + 62, top + 56), "died", BODY, INK, "lm")
    elif holder is None:
        board.draw.rectangle((left, top + 28, left + 56, top + 88), outline=INK, width=2)
        draw_pawn(board, (left + 28, top + 60))
        board.text((left + 66, top + 44), "in the box:", BODY, INK, "lm")
        board.text((left + 66, top + 74), "roll a 6", BODY, INK, "lm")
    else:
        draw_pawn(board, (left + 24, top + 60))
        width = WIDTH - MARGIN - left - 56
        board.text((left + 56, top + 44), "works for", BODY, INK, "lm")
        board.text((left + 56, top + 74), clip(display_name(names, holder), BODY, width), BODY, INK, "lm", bold=True)


def _draw_legend(board: Board) -> None:
    """What the pips on a railroad's die mean."""
    top = PANEL_TOP + 112
    board.draw.line((MARGIN, top - 6, WIDTH - MARGIN, top - 6), fill=MUTED, width=1)
    draw_die(board, (MARGIN + 20, top + 28), 3, MUTED, size=36)
    board.text((MARGIN + 48, top + 14),
               f"Pips on a railroad's die = dots done on its station: {DOTS_PER_SPACE} move it on.", SMALL, INK, "lm")
    board.text((MARGIN + 48, top + 42),
               f"At Promontory (7) both add up: {SPIKE_DOTS} dots drive the golden spike.", SMALL, INK, "lm")


def result_banner(view: dict, names: Mapping[str, str]) -> tuple[str, list[tuple[str, str, Colour]]]:
    """The final banner's headline and each railroad's line."""
    scores = []
    for seat, player in enumerate(view["players"]):
        where = "drove the spike" if player["id"] == view["winner"] else f"at station {player['space']}"
        scores.append((display_name(names, player["id"]), f"· {where}", PLAYER_COLOURS[seat]))
    return f"{display_name(names, view['winner'])} drives the golden spike!", scores


def render(view: dict, names: Mapping[str, str], events: Sequence[dict] = ()) -> bytes:
    board = Board(_track().copy())
    if view["phase"] == "over":
        draw_result_banner(board, (HEADER_H - BANNER_HEIGHT) // 2, *result_banner(view, names))
    else:
        _draw_header(board, view, names)
    _draw_railroads(board, view)
    _draw_last_roll(board, view, names, events)
    _draw_john_henry(board, view, names)
    return board.png(PALETTE)
