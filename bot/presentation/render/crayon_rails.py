"""The Crayon Rails table picture, laid out for a phone (shown about 400 px wide) first.

Top to bottom: once the game is over, the gold result banner every game's final picture carries
(who won, each player's final cash); the players (cash, train, loads, goals), a close-up map around the acting player's
train or network (city names with their mileposts and the loads they supply), the card pool (one
line per card, the acting player's cards marked), and the whole map with a legend of supply codes.
On both maps the city labels' letters are laid over the track, so a line of track never hides a name.

The maps' fixed layers, the shared palette and the fast text and PNG encoding are in
bot.presentation.render.crayon_map; this module draws a game's view over them.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from bot.presentation.render.canvas import (
    BACKGROUND,
    BANNER_HEIGHT,
    INK,
    MUTED,
    PLAYER_COLOURS,
    Board,
    draw_result_banner,
    seat_mark,
    token_labels,
)
from bot.presentation.render.crayon_map import (
    EVENT,
    HIGHLIGHT,
    INDEX,
    OVERVIEW,
    PAD,
    PREVIEW,
    PREVIEW_HALO,
    WHITE,
    WIDTH,
    ZOOM,
    ZOOM_HEIGHT,
    MapStyle,
    encode,
    load_codes,
    map_labels,
    map_layer,
    palette_image,
    stamp,
    to_palette,
)
from games.crayon_rails.mapdata import COLUMNS, board

POOL_NAME_MAX = 12
"""Characters of an owner's name on a pool row ("#4 Parlor (AI)'s: Steel Fernley 36"): the row has room for more,
but a long name would push the demand off a phone's screen."""


def short_name(name: str, limit: int) -> str:
    """`name` within `limit` characters, never cut inside a bracket: a trailing "(AI)" is kept whole and the name
    before it shortened ("alexandra… (AI)"), or dropped with an ellipsis when even it does not fit ("Parlor…")."""
    if len(name) <= limit:
        return name
    stem, bracket, rest = name.partition(" (")
    suffix = f" ({rest}" if bracket and rest.endswith(")") and "(" not in rest else ""
    if suffix and len(suffix) + 2 <= limit:
        return f"{stem[:limit - len(suffix) - 1].rstrip()}…{suffix}"
    cut = name[:limit - 1]
    if cut.count("(") > cut.count(")"):
        cut = cut[:cut.rindex("(")]
    return f"{cut.rstrip()}…"


def _colour(seat: int) -> tuple[int, int, int]:
    return PLAYER_COLOURS[seat % len(PLAYER_COLOURS)]


def train_mark(draw: ImageDraw.ImageDraw, centre: tuple[float, float], r: float, seat: int) -> None:
    """A player's train: his seat's shape (a circle for the first seat, a square for the second: told
    apart by shape as well as colour, whatever the names); the header shows the same mark beside each name."""
    seat_mark(draw, centre, r, seat, INDEX[_colour(seat)], INDEX[INK])


def track_mark(draw: ImageDraw.ImageDraw, a: tuple[float, float], b: tuple[float, float], seat: int,
               width: int) -> None:
    """The second seat's track carries his shape in white on the middle of each section, the first
    seat's runs solid: the two networks differ in pattern as well as colour (at phone size a dashed line
    against a solid one reads better than a small circle against a small square)."""
    if seat == 0:
        return
    seat_mark(draw, ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2), max(1.5, width * 0.45), seat, INDEX[WHITE], None, 0)


def track_pattern(seat: int) -> str:
    """How `track_mark` tells a seat's track apart, in words: "solid" or "dashed" (as its sample by the name)."""
    return "solid" if seat == 0 else "dashed"


def _place(milepost: str | None) -> str:
    if not milepost:
        return "not placed"
    city = board().city_at(milepost)
    return f"{city.name} ({milepost})" if city else milepost


class Table:
    """One picture being put together from a view, top to bottom."""

    def __init__(self, view: dict, names: dict[str, str]) -> None:
        self.view, self.names = view, names
        self.overview_top = 0
        self.zoom_origin = (0, 0)
        """The close-up's top left corner on the close-up map (ZOOM), and its top in the picture."""
        self.zoom_top = 0
        self.seat = {p["id"]: seat for seat, p in enumerate(view["players"])}
        acting = [p for p in view["players"] if p["id"] in view["to_act"]]
        self.acting = acting[0] if acting else None

    def name(self, player_id: str) -> str:
        return self.names.get(player_id, player_id)

    def compose(self, path: list[str] | None = None, caption: str | None = None) -> Image.Image:
        pool = self._pool_rows()
        banner = BANNER_HEIGHT + 4 if self.view.get("winners") else 0
        header = banner + 34 + 56 * len(self.view["players"]) + (30 if caption else 0)
        overview = map_layer(OVERVIEW)
        legend = 44
        height = header + ZOOM_HEIGHT + 8 + 30 + 26 * len(pool) + 8 + overview.height + legend
        image = Image.new("P", (WIDTH, height), 0)
        image.putpalette(palette_image().getpalette())
        if banner:
            image.paste(to_palette(self._banner()), (0, 0))
        y = self._header(image, caption, banner)
        self._zoom(image, y, path)
        y += ZOOM_HEIGHT + 8
        y = self._pool(image, y, pool)
        self.overview_top = y + 8
        self._overview(image, y + 8, overview, path)
        self._legend(image, y + 8 + overview.height)
        return image

    def _banner(self) -> Image.Image:
        """The gold band every game's final picture carries: who won, and each player's final cash."""
        board = Board.blank(WIDTH, BANNER_HEIGHT, BACKGROUND)
        draw_result_banner(board, 0, *result_banner(self.view, self.names))
        return board.image

    def _header(self, image: Image.Image, caption: str | None, top: int = 0) -> int:
        view = self.view
        draw = ImageDraw.Draw(image)
        events = "; ".join(f"{e['kind']} at {e['target']}" for e in view["active_events"])
        title = f"Round {view['round']} · {view['phase']} · deck {view['deck']}"
        stamp(image, (PAD, top + 6), title, 20, INK)
        if events:
            stamp(image, (WIDTH - PAD, top + 8), events[:40], 18, EVENT, "ra")
        y = top + 34
        for seat, player in enumerate(view["players"]):
            colour = _colour(seat)
            if self.acting is player:
                draw.rectangle((0, y - 2, WIDTH, y + 53), fill=INDEX[HIGHLIGHT])
                draw.polygon([(2, y + 4), (2, y + 22), (11, y + 13)], fill=INDEX[colour])
            train_mark(draw, (PAD + 22, y + 13), 9, seat)
            end = stamp(image, (PAD + 38, y), self.name(player["id"])[:16], 24, colour)
            end = stamp(image, (end + 12, y), f"${player['cash']}M", 24, INK)
            sample = ((end + 14, y + 13), (end + 58, y + 13))
            draw.line(sample, fill=INDEX[colour], width=5)
            track_mark(draw, *sample, seat, 5)
            goals = f"majors {majors_progress(view, player)} · markers {player['markers']}"
            stamp(image, (WIDTH - PAD, y + 2), goals,
                  18, INK, "ra")
            loads = ", ".join(player["loads"]) or "no loads"
            stamp(image, (PAD + 6, y + 29), f"{player['train']} · {_place(player['at'])} · {loads}", 19, INK)
            y += 56
        if caption:
            draw.rectangle((0, y - 2, WIDTH, y + 26), fill=INDEX[PREVIEW_HALO])
            stamp(image, (PAD, y + 1), caption[:60], 20, INK)
            y += 30
        return y

    def _focus(self, path: list[str] | None) -> tuple[float, float]:
        """Where the close-up looks: the proposed track, else the acting train, else his network."""
        places: list[str] = list(path or [])
        player = self.acting
        if not places and player:
            places = [player["at"]] if player["at"] else [m for section in player["track"] for m in section]
        if not places:
            size = ZOOM.size
            return size[0] / 2, size[1] / 2
        points = [ZOOM.point(m) for m in places]
        return sum(x for x, _ in points) / len(points), sum(y for _, y in points) / len(points)

    def _zoom(self, image: Image.Image, top: int, path: list[str] | None) -> None:
        layer = map_layer(ZOOM)
        fx, fy = self._focus(path)
        left = round(min(max(0, fx - WIDTH / 2), layer.width - WIDTH))
        upper = round(min(max(0, fy - ZOOM_HEIGHT / 2), layer.height - ZOOM_HEIGHT))
        self.zoom_origin, self.zoom_top = (left, upper), top
        close = layer.crop((left, upper, left + WIDTH, upper + ZOOM_HEIGHT))
        self._overlay(close, ZOOM, (-left, -upper), path)
        for col in range(board().width):
            x = ZOOM.point(f"{COLUMNS[col]}1")[0] - left
            if 8 < x < WIDTH - 8:
                stamp(close, (x, 2), COLUMNS[col], 15, INK, "ma")
        for row in range(board().height):
            y = ZOOM.point(f"A{row + 1}")[1] - upper
            if 20 < y < ZOOM_HEIGHT - 10:
                stamp(close, (3, y), str(row + 1), 15, INK, "lm")
        image.paste(close, (0, top))

    def _overview(self, image: Image.Image, top: int, layer: Image.Image, path: list[str] | None) -> None:
        whole = layer.copy()
        self._overlay(whole, OVERVIEW, (0, 0), path)
        image.paste(whole, (0, top))

    def _overlay(self, image: Image.Image, style: MapStyle, offset: tuple[float, float],
                 path: list[str] | None) -> None:
        """Track, event marks, trains and a proposed build, drawn on a map image shifted by `offset`."""
        draw = ImageDraw.Draw(image)
        ox, oy = offset

        def at(milepost: str) -> tuple[float, float]:
            x, y = style.point(milepost)
            return x + ox, y + oy

        for seat, player in enumerate(self.view["players"]):
            colour = INDEX[_colour(seat)]
            for a, b in player["track"]:
                draw.line([at(a), at(b)], fill=colour, width=style.track)
            for a, b in player["track"]:
                track_mark(draw, at(a), at(b), seat, style.track)
        self._event_marks(draw, at, style)
        labels, mask = map_labels(style)
        image.paste(labels, (round(ox), round(oy)), mask)
        if path:
            points = [at(m) for m in path]
            draw.line(points, fill=INDEX[PREVIEW_HALO], width=style.track + 5)
            draw.line(points, fill=INDEX[PREVIEW], width=style.track)
            r = style.track
            for x, y in points:
                draw.ellipse((x - r, y - r, x + r, y + r), fill=INDEX[PREVIEW], outline=INDEX[INK])
        labels = token_labels([self.name(player["id"]) for player in self.view["players"]])
        for seat, player in enumerate(self.view["players"]):
            if not player["at"]:
                continue
            x, y = at(player["at"])
            x += (-1 if seat == 0 else 1) * style.train * 0.6
            train_mark(draw, (x, y), style.train, seat)
            if style.detailed:
                stamp(image, (x, y), labels[seat], 15 if len(labels[seat]) < 3 else 12, WHITE, "mm")

    def _event_marks(self, draw: ImageDraw.ImageDraw, at, style: MapStyle) -> None:
        the_board = board()
        for event in self.view["active_events"]:
            if event["target"] in the_board.cities:
                x, y = at(the_board.cities[event["target"]].at)
                r = style.spacing * 0.55
                draw.ellipse((x - r, y - r, x + r, y + r), outline=INDEX[EVENT], width=3)
            elif event["target"] in the_board.rivers:
                for a, b in the_board.rivers[event["target"]]:
                    draw.line([at(a), at(b)], fill=INDEX[EVENT], width=max(2, style.track - 2))

    def _pool_rows(self) -> list[dict]:
        """The acting player's cards first (kept, locked, or matching a load aboard), then the rest."""
        mine = self.acting["id"] if self.acting else None
        loads = set(self.acting["loads"]) if self.acting else set()

        def actionable(card: dict) -> bool:
            if card["private_to"]:
                return card["private_to"] == mine
            if any(lock["player"] == mine for lock in card["locks"]):
                return True
            locked = {lock["demand"] for lock in card["locks"]}
            return any(d["load"] in loads and (not locked or i in locked) for i, d in enumerate(card["demands"]))

        cards = [c for c in self.view["pool"] if not c["private_to"] or c["private_to"] == mine] + [
            c for c in self.view["pool"] if c["private_to"] and c["private_to"] != mine]
        rows = [{"card": c, "actionable": actionable(c)} for c in cards]
        return sorted(rows, key=lambda row: not row["actionable"])

    def _pool(self, image: Image.Image, top: int, rows: list[dict]) -> int:
        draw = ImageDraw.Draw(image)
        head = "Pool: load city payoff" + (" (highlighted: yours to act on)" if any(r["actionable"] for r in rows)
                                           else "")
        stamp(image, (PAD, top + 4), head, 19, INK)
        y = top + 30
        for row in rows:
            card = row["card"]
            if row["actionable"]:
                draw.rectangle((0, y - 2, WIDTH, y + 23), fill=INDEX[HIGHLIGHT])
            x = stamp(image, (PAD, y), f"#{card['id']}", 18, MUTED) + 8
            owner = card["private_to"]
            if owner:
                x = stamp(image, (x, y), f"{short_name(self.name(owner), POOL_NAME_MAX)}'s:", 18,
                          _colour(self.seat[owner])) + 6
            lockers: dict[int, list[str]] = {}
            for lock in card["locks"]:
                lockers.setdefault(lock["demand"], []).append(lock["player"])
            for index, demand in enumerate(card["demands"]):
                if owner and index not in lockers:
                    continue
                who = [] if owner else lockers.get(index, [])
                for player in who:  # whose lock, by shape as well as colour (both, in a race)
                    train_mark(draw, (x + 7, y + 11), 6, self.seat[player])
                    x += 17
                colour = _colour(self.seat[who[0]]) if len(who) == 1 else INK
                x = stamp(image, (x, y), f"{demand['load']} {demand['city']} {demand['payoff']}", 18, colour) + 10
            y += 26
        return y

    def _legend(self, image: Image.Image, top: int) -> None:
        codes = load_codes()
        items = [f"{code} {load}" for load, code in sorted(codes.items(), key=lambda item: item[1])]
        half = (len(items) + 1) // 2
        stamp(image, (PAD, top + 2), "Supplies: " + "  ".join(items[:half]), 15, INK)
        end = stamp(image, (PAD, top + 22), "  ".join(items[half:]), 15, INK)
        draw = ImageDraw.Draw(image)
        for seat in range(len(self.view["players"])):
            train_mark(draw, (end + 20 + 14 * seat, top + 31), 5, seat)
        stamp(image, (end + 30 + 14 * (len(self.view["players"]) - 1), top + 22), "locked by that player", 15, INK)


def result_banner(view: dict, names: dict[str, str]) -> tuple[str, list[tuple[str, str, tuple[int, int, int]]]]:
    """The banner's headline (the winner, or the players sharing the victory) and each player's final cash."""
    winners = [names.get(player, player) for player in view.get("winners") or []]
    cash = {player["id"]: player["cash"] for player in view["players"]}
    best = max((cash[player] for player in view.get("winners") or []), default=0)
    headline = (f"{winners[0]} wins with ${best}M!" if len(winners) == 1
                else "Shared victory: " + " and ".join(winners) + f" at ${best}M")
    scores = [(names.get(player["id"], player["id"]), f"${player['cash']}M", _colour(seat))
              for seat, player in enumerate(view["players"])]
    return headline, scores


def draw_board(view: dict, names: dict[str, str]) -> bytes:
    return encode(Table(view, names).compose())


def draw_build_preview(view: dict, names: dict[str, str], path: list[str], caption: str) -> bytes:
    """The table with `path` drawn in a highlight colour, the close-up centred on it, and a caption."""
    return encode(Table(view, names).compose(path, caption))


def board_image(view: dict, names: dict[str, str]) -> Image.Image:
    """The decoded picture (for tests and benches that look at pixels)."""
    return Table(view, names).compose()




def majors_needed(view: dict) -> int:
    """How many major cities a player must join to win (the game's option; 3 in games recorded before it)."""
    return view.get("options", {}).get("major_cities", 3)


def majors_progress(view: dict, player: dict) -> str:
    """A player's majors toward the goal, as the picture, the table's words and the alt text all say it:
    "2/3", and "3/3" once the goal is met, even with all four joined ("4/3" read as a miscount)."""
    needed = majors_needed(view)
    return f"{min(player['majors_joined'], needed)}/{needed}"
