"""A player's rating over his games of one game: `/stats` attaches it, the leaderboard's web page shows
one per player.

A palette PNG 720 px wide (about 400 px on a phone, where its labels read at the boards' key size), drawn off the
event loop like every picture (bot.runtime.drawing). One point per rated game, in the order they counted, at the
rating shown after it (bot.play.ratings.shown); the first, the highest and the current rating are written on it
and told in its alt text (`chart_alt_text`).

Rulings (where nothing asked said otherwise):
- One game alone is drawn as one point (a line needs two), with the same labels.
- The vertical scale spans the ratings drawn, padded by 10 and at least 40 wide, so a small change reads as small;
  its three labelled lines are the lowest, the middle and the highest of that span, rounded.
- Points are evenly spaced by game, not by date: a month without games is not a gap in a player's story.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.presentation.render.canvas import (
    BACKGROUND,
    INK,
    KEY,
    MUTED,
    PHONE_WIDTH,
    PLAYER_COLOURS,
    SMALL,
    TITLE,
    Board,
    clip,
    fit_size,
    game_palette,
)

HEIGHT = 400
MARGIN, LEFT, TOP, BOTTOM = 20, 96, 92, 56
LINE = PLAYER_COLOURS[1]
BEST = PLAYER_COLOURS[0]
GRID = (222, 214, 198)
PALETTE = game_palette([BACKGROUND, INK, MUTED, LINE, BEST, GRID], [INK, MUTED, LINE, BEST, GRID], [BACKGROUND])
MARK = 7
"""A point's radius in px at 720 wide (about 4 px on a phone)."""


def span(points: Sequence[int]) -> tuple[int, int]:
    """The ratings the vertical axis spans (see the module's rulings)."""
    low, high = min(points) - 10, max(points) + 10
    if high - low < 40:
        middle = (high + low) // 2
        low, high = middle - 20, middle + 20
    return low, high


def layout(points: Sequence[int], width: int = PHONE_WIDTH, height: int = HEIGHT) -> list[tuple[float, float]]:
    """Where each rating is drawn: x by game, y by rating (higher is up)."""
    low, high = span(points)
    left, right, top, bottom = LEFT, width - MARGIN - 24, TOP, height - BOTTOM
    step = (right - left) / (len(points) - 1) if len(points) > 1 else 0
    x0 = left if len(points) > 1 else (left + right) / 2
    return [(x0 + index * step, bottom - (point - low) / (high - low) * (bottom - top))
            for index, point in enumerate(points)]


def draw_rating_chart(points: Sequence[int], title: str, subtitle: str) -> bytes:
    """The chart of `points` (the shown rating after each game, in order), titled (the player and the game)."""
    if not points:
        raise ValueError("a rating chart needs at least one rated game")
    board = Board.blank(PHONE_WIDTH, HEIGHT, BACKGROUND)
    board.text((MARGIN, MARGIN), clip(title, TITLE, PHONE_WIDTH - 2 * MARGIN), TITLE, INK, bold=True)
    board.text((MARGIN, MARGIN + 40), subtitle, fit_size(subtitle, SMALL, PHONE_WIDTH - 2 * MARGIN), MUTED)
    low, high = span(points)
    bottom, right = HEIGHT - BOTTOM, PHONE_WIDTH - MARGIN - 24
    for value in (low, (low + high) // 2, high):
        y = bottom - (value - low) / (high - low) * (bottom - TOP)
        board.draw.line((LEFT, y, right, y), fill=GRID, width=2)
        board.text((LEFT - 10, y), f"{value:,}", SMALL, MUTED, "rm")
    where = layout(points)
    if len(where) > 1:
        board.draw.line(where, fill=LINE, width=4, joint="curve")
    best = points.index(max(points))
    for index, (x, y) in enumerate(where):
        colour = BEST if index == best else LINE
        board.draw.ellipse((x - MARK, y - MARK, x + MARK, y + MARK), fill=colour)
    games = len(points)
    board.text((LEFT, HEIGHT - BOTTOM / 2), "game 1", SMALL, MUTED, "lm")
    board.text((right, HEIGHT - BOTTOM / 2), f"game {games}" if games > 1 else "", SMALL, MUTED, "rm")
    label = f"first {points[0]:,}   highest {max(points):,}   now {points[-1]:,}"
    board.text(((LEFT + right) / 2, HEIGHT - BOTTOM / 2), label, fit_size(label, KEY, right - LEFT - 180), INK,
               "mm", bold=True)
    return board.png(PALETTE)


def chart_alt_text(name: str, game: str, pool_words: str, points: Sequence[int]) -> str:
    """What the chart shows, for screen readers: the first, highest and current rating, over how many games."""
    games = len(points)
    return (f"{name}'s rating in {game} ({pool_words}) over {games} rated game{'s' if games != 1 else ''}: "
            f"first {points[0]:,}, highest {max(points):,}, current {points[-1]:,}.")
