"""Rating charts (issue 45): the chart's points are the ratings stored after each game, drawn where the chart
puts them, with the first, highest and current rating in its alt text; `/stats` without a game charts the game
with the most rated games."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.play.ratings import ALL, PEOPLE, shown
from bot.presentation.rating_charts import charted_game, rating_chart, rating_points
from bot.presentation.render.canvas import PHONE_WIDTH
from bot.presentation.render.rating_chart import BEST, LINE, layout
from bot.storage.store import RatedPlayer, Rating
from tests.bot.conftest import ALICE, BOB
from tests.bot.test_replay import played

GAMES = 4


@pytest.mark.both_databases
async def test_the_charts_points_are_the_ratings_stored_after_each_game(host, store):
    stored: list[dict[str, int]] = []
    for seed in range(GAMES):
        session_id, _ = await played(host, "john-henry", seed=seed)
        changes = await store.rating_changes(session_id)
        stored.append({change.player: shown(change.after) for change in changes if change.pool == PEOPLE})
    assert all(set(after) == {ALICE.id, BOB.id} for after in stored), "every game counted for both"
    for seat in (ALICE, BOB):
        points = await rating_points(store, "1", seat.id, "john-henry", PEOPLE)
        assert points == [after[seat.id] for after in stored]
        [current] = [row for row in await store.player_ratings("1", seat.id) if row.pool == PEOPLE]
        assert points[-1] == shown(current.rating), "the last point is the rating /stats and the leaderboard give"

        chart = await rating_chart(store, "1", seat.id, seat.name, "john-henry", PEOPLE)
        assert chart is not None and chart.points == points
        assert chart.alt_text == (f"{seat.name}'s rating in John Henry (games between people) over {GAMES} rated "
                                  f"games: first {points[0]:,}, highest {max(points):,}, current {points[-1]:,}.")
        with Image.open(io.BytesIO(chart.png)) as image:
            assert image.mode == "P" and image.width == PHONE_WIDTH, "a palette PNG drawn for a phone"
            drawn = image.convert("RGB")
        for index, (x, y) in enumerate(layout(points)):
            assert drawn.getpixel((round(x), round(y))) == (BEST if points[index] == max(points) and
                                                            index == points.index(max(points)) else LINE)
    assert await rating_chart(store, "1", ALICE.id, "Alice", "two-fat-dudes", PEOPLE) is None


def test_without_a_game_the_chart_is_of_the_game_with_the_most_rated_games():
    def row(slug: str, pool: str, games: int) -> RatedPlayer:
        return RatedPlayer(slug=slug, pool=pool, player="1", name="a", rating=Rating(mu=25, sigma=8, games=games))

    rows = [row("john-henry", PEOPLE, 2), row("two-fat-dudes", PEOPLE, 5), row("crayon-rails", ALL, 9)]
    assert charted_game(rows, PEOPLE) == "two-fat-dudes"
    assert charted_game(rows, ALL) == "crayon-rails"
    assert charted_game([], PEOPLE) is None
