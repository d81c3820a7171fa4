"""The Crayon Rails table picture: the result banner at the end (issue 21, item 3) and city names a
phone can read on the whole map (item 8)."""

import io
import itertools

from PIL import Image, ImageDraw

from bot.presentation.frontends.crayon_rails import FRONTEND
from bot.presentation.render.canvas import BANNER, PLAYER_COLOURS, font
from bot.presentation.render.crayon_map import OVERVIEW, WIDTH, ZOOM, ZOOM_HEIGHT, label_places, overview_label_places
from bot.presentation.render.crayon_rails import Table, result_banner
from games.crayon_rails.engine import GAME
from games.crayon_rails.mapdata import board

from .situations import act
from .test_turns import qualified_state

NAMES = {"alice": "Alice", "bob": "Bob"}
PHONE = 400


def picture(view: dict) -> Image.Image:
    image = Image.open(io.BytesIO(FRONTEND.draw_board(view, NAMES)))
    image.load()
    return image


def gold(image: Image.Image) -> int:
    return sum(count for count, colour in image.convert("RGB").getcolors(1 << 20) if colour == BANNER)


def test_the_final_picture_names_the_winner_on_the_gold_banner():
    state, _ = act(qualified_state(), "alice", {"type": "end_turn"})
    assert gold(picture(GAME.view(state, None))) == 0, "no banner while the round is finished"
    over, _ = act(state, "bob", {"type": "end_turn"})
    view = GAME.view(over, None)
    assert gold(picture(view)) > 0.5 * WIDTH * 80, "a gold band across the picture"
    headline, scores = result_banner(view, NAMES)
    assert headline == "Alice wins with $120M!"
    assert scores == [("Alice", "$120M", scores[0][2]), ("Bob", "$50M", scores[1][2])]
    assert scores[0][2] != scores[1][2], "each player's score in his colour"


def test_a_shared_victory_names_both_players():
    state = qualified_state()
    state.player("bob").track = list(state.player("alice").track)
    state.player("bob").cash = 120
    state, _ = act(state, "alice", {"type": "end_turn"})
    over, _ = act(state, "bob", {"type": "end_turn"})
    headline, _ = result_banner(GAME.view(over, None), NAMES)
    assert "Alice" in headline and "Bob" in headline and "$120M" in headline


def test_overview_city_names_are_phone_sized_and_never_overlap():
    labels = overview_label_places(OVERVIEW)
    names = [label for label in labels if label.text in board().cities]
    assert sorted(label.text for label in names) == sorted(board().cities)
    for label in names:
        height = label.box[3] - label.box[1]
        assert height * PHONE / WIDTH >= 10, f"{label.text} is {height * PHONE / WIDTH:.1f} px high on a phone"
    width, height = OVERVIEW.size
    for label in labels:
        left, top, right, bottom = label.box
        assert min(left, top) >= 0 and right <= width and bottom <= height, label.text
    for first, second in itertools.combinations(labels, 2):
        a, b = first.box, second.box
        assert not (a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]), (first.text, second.text)



def test_close_up_city_names_stay_legible_where_track_runs_over_them():
    """Bob's track runs along row 5, through Hollowmere's supplies: every letter of the close-up's labels still
    shows in its own colour (track between the letters, never over them), at a size a phone reads."""
    state = qualified_state()
    state.player("bob").track = [["M5", "N5"], ["N5", "O5"], ["O5", "P5"], ["P5", "Q5"]]
    table = Table(GAME.view(state, None), NAMES)
    image = table.compose().convert("RGB")
    left, upper = table.zoom_origin
    track = set(PLAYER_COLOURS)
    for label in (label for label in label_places(ZOOM) if label.text in ("Hollowmere O4", "Oil")):
        assert label.size * PHONE / WIDTH >= 10, f"{label.text} is phone-sized"
        letters = Image.new("1", ZOOM.size, 0)
        ImageDraw.Draw(letters).text(label.xy, label.text, font=font(label.size), fill=1, anchor=label.anchor)
        inked = [(x, y) for x in range(ZOOM.size[0]) for y in range(upper, upper + ZOOM_HEIGHT)
                 if letters.getpixel((x, y))]
        assert len(inked) > 50, label.text
        shown = [image.getpixel((x - left, table.zoom_top + y - upper)) for x, y in inked]
        assert not track & set(shown), f"track over {label.text!r}"


def test_the_pool_marks_each_lock_with_its_players_shape_not_by_colour_alone(monkeypatch):
    """A locked demand in the pool carries its player's mark (the shape of his train), one per player
    when both race for it, so a colour-blind player can tell whose lock it is; it was a "*" in the
    locker's colour, and a race showed one colour only."""
    from bot.presentation.render import crayon_rails

    from .situations import play_state, pool_card

    marks: list[tuple[int, float]] = []
    real = crayon_rails.train_mark

    def recorded(draw, centre, r, seat):
        marks.append((seat, centre[1]))
        real(draw, centre, r, seat)

    monkeypatch.setattr(crayon_rails, "train_mark", recorded)
    state = play_state(pool=[pool_card(6, (("alice", 1), ("bob", 1))), pool_card(2, (("bob", 0),)),
                             pool_card(1), pool_card(3), pool_card(4)])
    table = Table(GAME.view(state, None), NAMES)
    image = table.compose()
    pool_top = table.overview_top - 8 - 26 * 5 - 30
    in_pool = sorted(seat for seat, y in marks if pool_top < y < table.overview_top)
    assert in_pool == [0, 1, 1], "Alice's mark and Bob's on the race, Bob's on his own lock"
    assert image.size[0] == WIDTH


def test_a_pool_row_never_cuts_a_name_inside_its_brackets(monkeypatch):
    """Issue 42, item 5: a privately locked card's row read "#4 Parlor ('s: Steel Fernley 36" for a seat the AI stands
    in for ("Parlor (AI)"): a name is cut before its bracket, or keeps it whole with its stem shortened."""
    from bot.presentation.render import crayon_rails

    from .situations import play_state, pool_card

    said: list[str] = []
    real = crayon_rails.stamp

    def recorded(image, xy, text, *args, **kwargs):
        said.append(text)
        return real(image, xy, text, *args, **kwargs)

    monkeypatch.setattr(crayon_rails, "stamp", recorded)
    state = play_state(pool=[pool_card(4, (("alice", 0),), private_to="alice"),
                             pool_card(2, (("bob", 1),), private_to="bob"), pool_card(1)])
    Table(GAME.view(state, None), {"alice": "Parlor (AI)", "bob": "alexandra the great (AI)"}).compose()
    owners = [text for text in said if text.endswith("'s:")]
    assert owners == ["Parlor (AI)'s:", "alexan… (AI)'s:"]
    assert crayon_rails.short_name("Bob (the builder) x", 12) == "Bob…"
    assert crayon_rails.short_name("a very long name here", 12) == "a very long…"
