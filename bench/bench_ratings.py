"""Which rating system suits 2–4 player games: OpenSkill (Plackett–Luce, what bot.play.ratings uses) or Glicko-2.

Simulated players of known skill (normal, sd 1) play games of 2, 3 or 4 seats drawn at random; each
game's finishing order is by skill plus luck (normal noise, sd LUCK). Every system rates one game at a
time, as the bot does. Glicko-2 (Glickman's 2012 algorithm, written out below: no maintained package
fits) rates a game of n players as n-1 pairwise results per player in a one-game rating period.
Printed, averaged over SEEDS populations: how well the final ratings order the players by true skill
(Spearman's rho), how often the best-rated player of a game won it over the second half of the games
(next to how often the truly best player did: the ceiling luck allows), and the time per game update.

Run: python -m bench.bench_ratings [games-per-player]   (from the repo root, PYTHONPATH on it)

Last measured (2026-11-25, 40 players, 40 populations, luck sd 1.0; ms per game well under 0.2 for both):
  games each  players  rho openskill / glicko-2   best-rated won openskill / glicko-2   (truly best won)
   5          2        0.685 / 0.679              65.4% / 65.0%                         (75.4%)
   5          3        0.755 / 0.746              54.1% / 55.5%                         (67.5%)
   5          4        0.775 / 0.775              46.8% / 48.1%                         (60.1%)
  10          2        0.796 / 0.792              67.0% / 67.3%                         (74.7%)
  10          3        0.847 / 0.850              58.1% / 57.4%                         (64.2%)
  10          4        0.875 / 0.886              52.6% / 53.6%                         (60.9%)
  30          2        0.906 / 0.912              72.3% / 72.3%                         (75.1%)
  30          3        0.936 / 0.942              62.6% / 62.6%                         (65.6%)
  30          4        0.944 / 0.953              57.0% / 57.9%                         (60.0%)
Reading: a tie on accuracy. Over the few games a server's player plays (5-10) neither is ahead; after
30 games pairwise Glicko-2 orders players about 0.006-0.009 rho better (the standard error of these means
is about 0.005). The choice is made on the other grounds given in bot.play.ratings.
"""

from __future__ import annotations

import math
import random
import statistics
import sys
import time
from collections.abc import Sequence

from openskill.models import PlackettLuce

PLAYERS = 40
GAMES_PER_PLAYER = 30
SEEDS = 40
LUCK = 1.0

GLICKO_SCALE = 173.7178
TAU = 0.5


class Glicko2:
    """One player's Glicko-2 rating on the internal scale (mu, phi) with volatility sigma."""

    def __init__(self) -> None:
        self.mu, self.phi, self.sigma = 0.0, 350 / GLICKO_SCALE, 0.06

    @property
    def rating(self) -> float:
        return 1500 + GLICKO_SCALE * self.mu

    def updated(self, results: Sequence[tuple[Glicko2, float]]) -> tuple[float, float, float]:
        """(mu, phi, sigma) after one rating period of `results`: (opponent, score 1/0.5/0)."""
        def g(phi: float) -> float:
            return 1 / math.sqrt(1 + 3 * phi * phi / math.pi ** 2)

        terms = [(g(o.phi), 1 / (1 + math.exp(-g(o.phi) * (self.mu - o.mu))), score) for o, score in results]
        v = 1 / sum(gj * gj * e * (1 - e) for gj, e, _ in terms)
        delta = v * sum(gj * (score - e) for gj, e, score in terms)
        a = math.log(self.sigma ** 2)
        phi2 = self.phi ** 2

        def f(x: float) -> float:
            ex = math.exp(x)
            return ex * (delta * delta - phi2 - v - ex) / (2 * (phi2 + v + ex) ** 2) - (x - a) / TAU ** 2

        low = a
        if delta * delta > phi2 + v:
            high = math.log(delta * delta - phi2 - v)
        else:
            k = 1
            while f(a - k * TAU) < 0:
                k += 1
            high = a - k * TAU
        f_low, f_high = f(low), f(high)
        while abs(high - low) > 1e-6:
            mid = low + (low - high) * f_low / (f_high - f_low)
            f_mid = f(mid)
            if f_mid * f_high <= 0:
                low, f_low = high, f_high
            else:
                f_low /= 2
            high, f_high = mid, f_mid
        sigma = math.exp(low / 2)
        phi_star = math.sqrt(phi2 + sigma * sigma)
        phi = 1 / math.sqrt(1 / phi_star ** 2 + 1 / v)
        mu = self.mu + phi * phi * sum(gj * (score - e) for gj, e, score in terms)
        return mu, phi, sigma


def rate_glicko(players: list[Glicko2], order: list[int]) -> None:
    """One game: each player's pairwise results against the others, from the ratings before it."""
    place = {seat: index for index, seat in enumerate(order)}
    new = []
    for seat, player in enumerate(players):
        results = [(other, 1.0 if place[seat] < place[j] else 0.0) for j, other in enumerate(players) if j != seat]
        new.append(player.updated(results))
    for player, (mu, phi, sigma) in zip(players, new, strict=True):
        player.mu, player.phi, player.sigma = mu, phi, sigma


def spearman(xs: Sequence[float], ys: Sequence[float]) -> float:
    def ranks(values: Sequence[float]) -> list[int]:
        order = sorted(range(len(values)), key=values.__getitem__)
        out = [0] * len(values)
        for rank, index in enumerate(order):
            out[index] = rank
        return out

    rx, ry = ranks(xs), ranks(ys)
    n = len(xs)
    return 1 - 6 * sum((a - b) ** 2 for a, b in zip(rx, ry, strict=True)) / (n * (n * n - 1))


def simulate(seats: int, seed: int, games_per_player: int) -> dict[str, tuple[float, float, float, float]]:
    """Per system: (rho, best-rated won, truly best won, ms per update) for one population."""
    chance = random.Random(seed)
    skill = [chance.gauss(0, 1) for _ in range(PLAYERS)]
    model = PlackettLuce()
    skills = {"openskill": [model.rating() for _ in range(PLAYERS)], "glicko-2": [Glicko2() for _ in range(PLAYERS)]}
    games = games_per_player * PLAYERS // seats
    hits = {name: 0 for name in skills}
    truly, scored = 0, 0
    spent = {name: 0.0 for name in skills}
    for number in range(games):
        table = chance.sample(range(PLAYERS), seats)
        order = sorted(range(seats), key=lambda s: -(skill[table[s]] + chance.gauss(0, LUCK)))
        if number >= games // 2:
            scored += 1
            truly += max(range(seats), key=lambda s: skill[table[s]]) == order[0]
            hits["openskill"] += max(range(seats), key=lambda s: skills["openskill"][table[s]].mu) == order[0]
            hits["glicko-2"] += max(range(seats), key=lambda s: skills["glicko-2"][table[s]].mu) == order[0]
        started = time.perf_counter()
        ranks = [order.index(s) + 1 for s in range(seats)]
        rated = model.rate([[skills["openskill"][p]] for p in table], ranks=ranks)
        for p, [after] in zip(table, rated, strict=True):
            skills["openskill"][p] = after
        spent["openskill"] += time.perf_counter() - started
        started = time.perf_counter()
        rate_glicko([skills["glicko-2"][p] for p in table], order)
        spent["glicko-2"] += time.perf_counter() - started
    return {name: (spearman([r.mu for r in ratings], skill), hits[name] / scored, truly / scored,
                   1000 * spent[name] / games) for name, ratings in skills.items()}


def main(argv: list[str]) -> None:
    games_per_player = int(argv[0]) if argv else GAMES_PER_PLAYER
    print(f"{PLAYERS} players, {games_per_player} games each on average, {SEEDS} populations, luck sd {LUCK}")
    print("players  system     rho    best-rated won  (truly best won)  ms per game")
    for seats in (2, 3, 4):
        runs = [simulate(seats, 1000 * seats + seed, games_per_player) for seed in range(SEEDS)]
        for name in ("openskill", "glicko-2"):
            rho, hit, truly, ms = (statistics.fmean(run[name][k] for run in runs) for k in range(4))
            print(f"{seats:<8} {name:<10} {rho:.3f}  {100 * hit:.1f}%{'':11}({100 * truly:.1f}%){'':11}{ms:.2f}")


if __name__ == "__main__":
    main(sys.argv[1:])
