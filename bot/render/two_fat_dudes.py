"""The narrow hallway as a picture: 13 coloured spaces between two semicircles.

Drawn from the public view only. Each player's end penalty (5 × steps to his exit) is printed in
his colour beside every space, red above the track and blue below, as on the original sheet.
"""

from __future__ import annotations

from collections.abc import Mapping

from PIL import ImageDraw

from bot.render.canvas import INK, MUTED, PLAYER_COLOURS, centered_text, font, new_canvas, to_png
from games.two_fat_dudes import EXIT, PENALTY_PER_STEP, TRACK, edge_cost

WIDTH, HEIGHT = 960, 450
SPACE_W, SPACE_H = 58, 96
RADIUS = 46
TRACK_X = (WIDTH - 13 * SPACE_W) // 2
TRACK_Y = 118
MID_Y = TRACK_Y + SPACE_H // 2
FILLS = {"red": (222, 104, 96), "blue": (96, 136, 222), "green": (82, 170, 98)}
LIGHT = {"red": (246, 206, 200), "blue": (204, 218, 246)}
TOKEN = {"red": PLAYER_COLOURS[0], "blue": PLAYER_COLOURS[1]}
WHITE = (255, 255, 255)


def position_x(position: int) -> float:
    """The centre of a space; the semicircles sit just outside the ends of the track."""
    if position == 0:
        return TRACK_X - RADIUS / 2
    if position == 14:
        return TRACK_X + 13 * SPACE_W + RADIUS / 2
    return TRACK_X + (position - 0.5) * SPACE_W


def draw_hallway(view: dict, names: Mapping[str, str]) -> bytes:
    image, draw = new_canvas(WIDTH, HEIGHT)
    centered_text(draw, (WIDTH / 2, 24), "Two Fat Dudes in a Narrow Hallway", 24)
    _draw_track(draw)
    _draw_penalties(draw)
    _draw_dudes(draw, view, names)
    _draw_panel(draw, view, names)
    return to_png(image)


def _draw_track(draw: ImageDraw.ImageDraw) -> None:
    left, right = TRACK_X, TRACK_X + 13 * SPACE_W
    draw.pieslice((left - RADIUS, MID_Y - RADIUS, left + RADIUS, MID_Y + RADIUS), 90, 270,
                  fill=LIGHT["red"], outline=INK, width=2)
    draw.pieslice((right - RADIUS, MID_Y - RADIUS, right + RADIUS, MID_Y + RADIUS), 270, 90,
                  fill=LIGHT["blue"], outline=INK, width=2)
    centered_text(draw, (left - RADIUS / 2 + 4, MID_Y - 26), "red", 11, INK)
    centered_text(draw, (right + RADIUS / 2 - 6, MID_Y - 26), "blue", 11, INK)
    centered_text(draw, (left - RADIUS / 2, MID_Y + RADIUS + 10), "0", 12, MUTED)
    centered_text(draw, (right + RADIUS / 2, MID_Y + RADIUS + 10), "14", 12, MUTED)
    for position, (colour, number) in TRACK.items():
        x0 = TRACK_X + (position - 1) * SPACE_W
        draw.rectangle((x0, TRACK_Y, x0 + SPACE_W, TRACK_Y + SPACE_H), fill=FILLS[colour], outline=INK, width=2)
        centered_text(draw, (x0 + SPACE_W / 2, TRACK_Y + 18), str(number), 22, WHITE)
        centered_text(draw, (x0 + SPACE_W / 2, TRACK_Y + SPACE_H - 10), f"#{position}", 11, WHITE)


def _draw_penalties(draw: ImageDraw.ImageDraw) -> None:
    """Red's penalty row above the track, blue's below: what staying on a space would cost."""
    red_y, blue_y = TRACK_Y - 22, TRACK_Y + SPACE_H + 22
    draw.text((TRACK_X - RADIUS, red_y - 26), "red's end penalty", font=font(12), fill=TOKEN["red"])
    draw.text((TRACK_X - RADIUS, blue_y + 14), "blue's end penalty", font=font(12), fill=TOKEN["blue"])
    for position in range(15):
        x = position_x(position)
        if position != EXIT[0]:
            centered_text(draw, (x, red_y), str(PENALTY_PER_STEP * abs(EXIT[0] - position)), 13, TOKEN["red"])
        if position != EXIT[1]:
            centered_text(draw, (x, blue_y), str(PENALTY_PER_STEP * abs(EXIT[1] - position)), 13, TOKEN["blue"])


def _draw_dudes(draw: ImageDraw.ImageDraw, view: dict, names: Mapping[str, str]) -> None:
    players = view["players"]
    shared = players[0]["position"] == players[1]["position"]
    for index, player in enumerate(players):
        x = position_x(player["position"])
        y = MID_Y + 8 + ((index * 2 - 1) * 22 if shared else 0)
        radius = 17 if shared else 21
        outline = (250, 210, 60) if view.get("edge") == player["id"] else INK
        draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=TOKEN[player["colour"]],
                     outline=outline, width=4 if outline != INK else 2)
        initial = (names.get(player["id"], player["id"]) or "?")[:1].upper()
        centered_text(draw, (x, y), initial, 18, WHITE)


def _draw_panel(draw: ImageDraw.ImageDraw, view: dict, names: Mapping[str, str]) -> None:
    top = TRACK_Y + SPACE_H + 62
    for index, player in enumerate(view["players"]):
        y = top + index * 34
        colour = TOKEN[player["colour"]]
        draw.ellipse((30, y, 52, y + 22), fill=colour, outline=INK)
        name = names.get(player["id"], player["id"])
        tags = []
        if view.get("start_player") == player["id"]:
            tags.append("start player")
        if view.get("edge") == player["id"]:
            tags.append("holds the Edge")
        if player["exited"]:
            tags.append("exited")
        label = f"{name} ({player['colour']}): {player['score']} points"
        draw.text((62, y + 1), label, font=font(20), fill=INK)
        if tags:
            draw.text((62 + draw.textlength(label, font=font(20)) + 14, y + 4), " · ".join(tags),
                      font=font(16), fill=MUTED)
    _draw_encounter_counter(draw, view["encounters"], top)
    _draw_offer_and_status(draw, view, names, top + 80)


def _draw_encounter_counter(draw: ImageDraw.ImageDraw, encounters: int, top: int) -> None:
    """Five boxes like the sheet's counter; the cost of the Edge choice under boxes 1–4."""
    left = WIDTH - 5 * 44 - 30
    draw.text((left, top - 20), "encounters (Edge cost)", font=font(14), fill=MUTED)
    draw.text((left, top + 62), "gold ring: holds the Edge", font=font(13), fill=MUTED)
    for number in range(1, 6):
        x0 = left + (number - 1) * 44
        done = number <= encounters
        draw.rectangle((x0, top, x0 + 36, top + 36), fill=INK if done else WHITE, outline=INK, width=2)
        centered_text(draw, (x0 + 18, top + 18), str(number), 18, WHITE if done else INK)
        under = f"-{edge_cost(number)}" if number <= 4 else "squeeze"
        centered_text(draw, (x0 + 18, top + 48), under, 12, MUTED)


def _draw_offer_and_status(draw: ImageDraw.ImageDraw, view: dict, names: Mapping[str, str], top: int) -> None:
    def name(player_id: str) -> str:
        return names.get(player_id, player_id)

    offer = view.get("offer")
    if offer is None:
        table = "No offer on the table."
    else:
        payee = next(p["id"] for p in view["players"] if p["id"] != offer["payer"])
        table = (f"On the table: {name(offer['payer'])} pays {name(payee)} {offer['points']} points"
                 f" (proposed by {name(offer['proposed_by'])})")
    draw.text((30, top), table, font=font(18), fill=INK)
    if view["phase"] == "over":
        winners = view.get("winners") or []
        status = "Game over. " + (
            "Shared victory: " + " and ".join(map(name, winners)) if len(winners) > 1
            else f"{name(winners[0])} is the Honorary Skinny Dude!" if winners else ""
        )
    else:
        waiting = ", ".join(map(name, view.get("to_act") or []))
        status = f"Phase: {view['phase']} · waiting for {waiting}"
    draw.text((30, top + 32), status, font=font(18), fill=MUTED)
