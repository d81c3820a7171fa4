"""Ratings: each finished game moves its players' skill estimates, per game and per server.

Why OpenSkill (the `openskill` package, Weng-Lin Plackett-Luce model) and not Glicko-2: measured by
`python -m bench.bench_ratings` (simulated players of known skill, 2-, 3- and 4-player games, rated one game
at a time as the bot does), the two are equally accurate: neither orders players or predicts winners
better over the 5-10 games most players play, and after 30 games Glicko-2 is ahead by less than 0.01 of
rank correlation (figures in that module). So the choice rests on fit: Glicko-2 rates two-player results
in rating periods, so a 3- or 4-player Johari Bones game has to be cut into pairwise results that are not
independent (one game counted as n-1 matches), while Plackett-Luce rates a whole finishing order, ties
included, in one update; and `openskill` is a maintained, typed multiplayer library (6.2, released this
year), while the Python Glicko-2 packages implement the two-player algorithm only.

Rulings (the issue is silent on these):

- Only finished games played on a server count: an abandoned game never does, and neither does a game in
  a direct message. A claimed game (`/game claim`) counts as a win shared by those who stayed, ahead of the
  idle player(s).
- The finishing order: the result's winners share first place; the others follow by their score (equal
  scores share a place).
- Two pools per game and server. *people*: games between people only. *all*: every rated game, those with
  Parlor's AI too. A game in which the AI took part (its own seat, or standing in for an idle player)
  moves the *all* pool only, so games against it count apart; `/settings leaderboard` decides which pool a
  server's leaderboard shows (*people* by default; with *all* the AI is listed too).
- The AI has one rating per game and server, whatever its seat numbers: with several AI seats in one game,
  each seat is rated from the AI's rating and the AI keeps the mean of its seats' new estimates. A seat it
  only stood in for is rated as its person's (the result is his seat's).
- The rating shown is conservative, mu - 3 sigma (OpenSkill's ordinal), on a chess-like scale:
  `1000 + 20 * (mu - 3 sigma)`, so a newcomer shows 1000 and climbs as his results and their number grow.
  Leaderboards are ordered by it.
- The update is written in the same transaction as the move (or the claim) that finishes the game, and
  each rating row is checked against the number of games it had when read, so two games finishing at once
  for the same player cannot lose one update; a crash leaves either both or neither.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping

from openskill.models import PlackettLuce

from bot.play.ai_seats import AI_NAME, AI_PREFIX, is_ai_id
from bot.storage.store import Rating, RatingChange, SessionRecord

MODEL = PlackettLuce()
PEOPLE, ALL = "people", "all"
POOLS = (PEOPLE, ALL)
AI_RATED = f"{AI_PREFIX}1"
"""The AI's rating key, whichever seat it played (its first seat's id, as `/stats` names it)."""
DISPLAY_BASE, DISPLAY_SCALE = 1000, 20


def new_rating() -> Rating:
    fresh = MODEL.rating()
    return Rating(mu=fresh.mu, sigma=fresh.sigma, games=0)


def shown(rating: Rating) -> int:
    """The rating as players see it: conservative (mu - 3 sigma), 1000 for a newcomer."""
    return round(DISPLAY_BASE + DISPLAY_SCALE * (rating.mu - 3 * rating.sigma))


def rated_key(session: SessionRecord, player: str) -> str:
    """Whose rating a seat moves: its person's, or the AI's one rating for any of its own seats."""
    seat = next((seat for seat in session.players if seat.id == player), None)
    return AI_RATED if (seat is not None and seat.ai) or is_ai_id(player) else player


def pools_of(session: SessionRecord) -> list[str]:
    """The pools a finished game counts in: none when abandoned or off any server."""
    if session.status != "finished" or not session.result or session.guild_id is None:
        return []
    return [ALL] if session.against_ai else [PEOPLE, ALL]


def places(result: Mapping) -> dict[str, int]:
    """Each player's place (1 = first; ties share one): winners first, then the others by score."""
    winners = set(result.get("winners") or [])
    scores = result.get("scores") or {}
    players = list(scores) or list(winners)
    order = sorted(players, key=lambda p: (p not in winners, -scores.get(p, 0)))
    ranks: dict[str, int] = {}
    for index, player in enumerate(order):
        before = order[index - 1] if index else None
        tied = before is not None and (before in winners) == (player in winners) and \
            (player in winners or scores.get(before, 0) == scores.get(player, 0))
        ranks[player] = ranks[before] if tied and before is not None else index + 1
    return ranks


def rating_keys(session: SessionRecord) -> list[tuple[str, str]]:
    """The (pool, player) ratings a finished game moves, to read before `updated_ratings`."""
    keys = dict.fromkeys(rated_key(session, player) for player in places(session.result or {}))
    return [(pool, key) for pool in pools_of(session) for key in keys]


def updated_ratings(session: SessionRecord, current: Mapping[tuple[str, str], Rating]) -> list[RatingChange]:
    """The new ratings after the finished game `session`, from the `current` ones (missing: a newcomer's)."""
    ranks = places(session.result or {})
    seats = list(ranks)
    changes: list[RatingChange] = []
    for pool in pools_of(session):
        before = {seat: current.get((pool, rated_key(session, seat))) for seat in seats}
        teams = [[MODEL.rating(mu=(before[seat] or new_rating()).mu, sigma=(before[seat] or new_rating()).sigma)]
                 for seat in seats]
        rated = MODEL.rate(teams, ranks=[ranks[seat] for seat in seats])
        estimates: dict[str, list[tuple[float, float]]] = defaultdict(list)
        for seat, [after] in zip(seats, rated, strict=True):
            estimates[rated_key(session, seat)].append((after.mu, after.sigma))
        for key, values in estimates.items():
            old = current.get((pool, key))
            mu = sum(value[0] for value in values) / len(values)
            sigma = sum(value[1] for value in values) / len(values)
            name = AI_NAME if key == AI_RATED else session.name_of(key)
            changes.append(RatingChange(pool=pool, player=key, name=name, before=old,
                                        after=Rating(mu=mu, sigma=sigma, games=(old.games if old else 0) + 1)))
    return changes


def change_text(change: RatingChange) -> str:
    """"1,072 (+72)": the rating after a game and what that game changed."""
    after = shown(change.after)
    delta = after - shown(change.before or new_rating())
    return f"{after:,} ({'+' if delta >= 0 else '−'}{abs(delta)})"
