"""From a move to the table that shows it, next to a bare ping, through the project's fake Discord.

Two bots run as processes of their own, each connected with the real discord.py client to its own
fake Discord (tests/fakediscord) served by this process: Parlor (`python -m bot` on a SQLite file; in
a second run wrapped by bench/latency_probe.py, which adds the step timers and the loop-lag probe) and a minimal
discord.py bot whose `/ping` answers at once (bench/ping_bot.py). Samples alternate: a `/ping`, then
a John Henry move by the player to act, as a `/roll` or as a press of the table's Roll button (new
games by `/game rematch`, not timed). Each is timed in the fake, from the moment it sends the
INTERACTION_CREATE to the arrival of the REST call that shows the result: for `/ping` its interaction
callback; for a move the table's write in the game's channel (the new table's POST, or the PATCH
that edits it in place). Prints median, p95 and p99 of each and their ratios to the ping's.

Then the steps of a move, from Parlor's own timers (bench/latency_probe.py): milliseconds per move
in each step, and its share of the probed run's median interaction-to-table time. Steps overlap (drawing runs in
a worker thread while the loop goes on), so the shares need not add up to 100 %.

Last, `--burst` moves at once (one `/roll` in each of as many channels), with the longest
event-loop stall measured inside Parlor (one callback or task step; garbage collection included,
and the longest collection alone).

Run: python bench/bench_latency.py [--samples 300] [--burst 1000] [--pause 0.02]

Parlor runs twice: as it is (`python -m bot`) for the figures, then wrapped by the probe for the steps
and the burst (its timers cost about 0.1 ms a move).

Figures (this 2-core machine, shared with other work; docs/performance.md has the steps).
Median / p95 / p99 ms of a move to its table, and the median as so many pings:

    before issue 24, quiet machine   5.2 / 6.0 / 7.0-8.2     x8.9-9.1   (ping 0.57 ms)
    first cuts, quiet machine        3.8-4.1 / 4.8-5.4 / 5.8-7.2   x6.0-6.6   (ping 0.58-0.66 ms)
    foresight, message written during the commit's sync, answer after the table, quiet machine
                                     2.0-2.5 / 3.4-5.9 / 4.3-8.0   x3.2-3.6   (ping 0.61-0.74 ms)
    now (the table sent as the commit lands, its request built whole during the sync), quiet machine
                                     1.66-1.88 / 2.4-2.7 / 3.1-3.9  x2.9-3.1, /roll x2.7-3.0  (ping 0.58-0.63)
    now, --pause 0.02 (every process wakes from idle for each sample)
                                     3.0-3.4                        x3.0-3.4, /roll x3.0-3.3  (ping 0.88-1.04)

    1,000 /roll at once, longest event-loop step: before 110-200 ms (full garbage collections),
    first cuts 19 ms, then 17-41 ms, now 30 ms (19.5 ms of it the loop's own CPU time); all tables
    shown in 4.8 s (first cuts 6.6-6.7 s). On a slower machine (2026-11-26) 43.8 ms, of which one step
    settled a whole group of commits; settled in slices of 50 (bot.storage.db_connection): 21.6 ms

    1,000 /roll at once, acknowledgements (2026-11-27): 2.43-3.52 s median, up to 902 past Discord's 3 s, the
    move of every interaction that had arrived being worked turn about; worked 16 at a time (bot.runtime.gate), each
    acknowledged first, 1.39-1.70 s median, none past 3 s; all tables shown in 8.5-10.1 s (9.8-12.0 before)
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import json
import os
import re
import signal
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.e2e.helpers import is_over, latest_board, player_to_act, table  # noqa: E402
from tests.fakediscord import FakeDiscord, FakeUser  # noqa: E402
from tests.fakediscord.interactions import InteractionResult  # noqa: E402
from tests.fakediscord.state import RESPONSE_DEADLINE, FakeChannel  # noqa: E402

WARM_UP = 30
"""Samples of each kind thrown away first (caches, the first pictures, the first commits)."""
STOP_WITHIN = 30.0
"""Seconds a bot has to exit after SIGTERM before the bench kills it."""
BURST_DEADLINE = 60.0
"""Seconds the burst's rolls may wait for their acknowledgements (see `burst`)."""
PAUSE = 0.0
"""Seconds between samples (`--pause`). Back to back by default, as the figures below were measured. Moves
in a channel come seconds apart, and after a pause of 20 ms or more every process and thread wakes from
idle: a ping takes about 0.9 ms then, a move about 3.3 ms, and no sample overlaps another's tail (Parlor
drawing the next moves' pictures, bot.discord.foresight)."""
TABLE_WRITE = re.compile(r"/api/v10/channels/(?P<channel>[0-9]+)/messages(/[0-9]+)?$")
CALLBACK = re.compile(r"/api/v10/interactions/[0-9]+/[^/]+/callback$")


class Timeline:
    """When the fake sent each INTERACTION_CREATE and received each REST request (perf_counter)."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.sent = 0.0
        self.requests: list[tuple[float, str, str]] = []
        dispatch, requests, timeline = fake.gateway.dispatch, fake.world.requests, self

        def timed_dispatch(event: str, *args: object, **kwargs: object) -> None:
            if event == "INTERACTION_CREATE":
                timeline.sent = time.perf_counter()
            dispatch(event, *args, **kwargs)  # type: ignore[arg-type]

        class TimedRequests(list):
            def append(self, request: tuple[str, str, bytearray]) -> None:
                timeline.requests.append((time.perf_counter(), request[0], request[1]))
                super().append(request)

        fake.gateway.dispatch = timed_dispatch  # type: ignore[method-assign]
        fake.world.requests = TimedRequests(requests)

    def first(self, since: float, method: tuple[str, ...], path: re.Pattern[str], channel: int | None = None) -> float:
        for at, verb, where in self.requests:
            match = path.search(where) if at >= since and verb in method else None
            if match and (channel is None or match.group("channel") == str(channel)):
                return at - since
        raise AssertionError(f"no {method} {path.pattern} after the interaction")


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def summary(values: list[float]) -> tuple[float, float, float]:
    return statistics.median(values), percentile(values, 0.95), percentile(values, 0.99)


async def process(fake: FakeDiscord, folder: Path, *argv: str, **env: str) -> asyncio.subprocess.Process:
    settings = {**os.environ, "DISCORD_TOKEN": fake.token, "DISCORD_API_BASE": fake.api_base,
                "DISCORD_GATEWAY_URL": fake.gateway_url, "DISCORD_GUILD_ID": "", "PYTHONPATH": str(ROOT),
                "LOG_LEVEL": "WARNING", **env}
    return await asyncio.create_subprocess_exec(sys.executable, *argv, cwd=folder, env=settings,
                                                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)


async def stop(bot: asyncio.subprocess.Process) -> str:
    """Stop a bot (SIGTERM; killed if it is still running STOP_WITHIN seconds later) and return its output."""
    bot.terminate()
    try:
        out, err = await asyncio.wait_for(bot.communicate(), STOP_WITHIN)
    except TimeoutError:
        bot.kill()
        await bot.wait()
        raise SystemExit(f"a bot did not stop within {STOP_WITHIN:.0f} s of SIGTERM, and was killed") from None
    if bot.returncode != 0:
        raise SystemExit(f"a bot failed (exit {bot.returncode}): {err.decode(errors='replace')[-2000:]}")
    return out.decode()


class Game:
    """A John Henry game between alice and bob in one channel of Parlor's fake."""

    def __init__(self, fake: FakeDiscord, channel: FakeChannel, players: list[FakeUser]) -> None:
        self.fake, self.channel, self.players = fake, channel, players

    async def start(self) -> None:
        alice, bob = self.players
        await self.fake.slash(alice, "game start", channel=self.channel, game="john-henry", opponent=bob)
        lobby = table(self.fake, self.channel)
        await self.fake.click(bob, lobby, lobby.button(label="Join")["custom_id"])

    async def move(self, press: bool) -> InteractionResult:
        """The player to act rolls: `/roll`, or the table's Roll button; a new game once one is over."""
        board = latest_board(self.fake, self.channel)
        if is_over(board):
            await self.fake.slash(self.players[0], "game rematch", channel=self.channel)
            board = latest_board(self.fake, self.channel)
        player = player_to_act(board, self.players)
        if press:
            result = await self.fake.click(player, board, board.button(label="Roll")["custom_id"])
        else:
            result = await self.fake.slash(player, "roll", channel=self.channel)
        if result.ephemeral:
            raise AssertionError(f"a move was refused: {result.response.content}")
        return result

    def over(self) -> bool:
        return is_over(latest_board(self.fake, self.channel))


async def timed(timeline: Timeline, act: Callable[[], Awaitable[None]], method: tuple[str, ...],
                path: re.Pattern[str], channel: int | None = None) -> float:
    await act()
    return timeline.first(timeline.sent, method, path, channel) * 1000


def report(label: str, values: list[float], baseline: tuple[float, float, float] | None) -> None:
    median, p95, p99 = summary(values)
    line = f"{label:<34} {median:7.2f} {p95:7.2f} {p99:7.2f} ms"
    if baseline is not None:
        line += f"   x{median / baseline[0]:5.1f} x{p95 / baseline[1]:5.1f} x{p99 / baseline[2]:5.1f}"
    print(line)


async def burst(fake: FakeDiscord, players: list[FakeUser], channels: int, parlor: int, probed: bool
                ) -> tuple[float, list[float]]:
    """`channels` games, then one `/roll` in each at once: seconds until every table showed it, and how long
    each roll waited for its acknowledgement.

    The fake shares the machine's two cores with Parlor and serves the burst's thousands of requests
    itself: on a slow machine (2026-11-26) it took 0.9 s to send 1,000 interactions, answering no request
    meanwhile, and the acknowledgements then reached it between 0.9 and 3.7 s after the first roll. Such a
    run used to end in "timed out waiting for the bot to acknowledge", reporting nothing; for the burst's
    rolls the fake now waits up to BURST_DEADLINE instead of Discord's 3 s and the delays are printed.
    Parlor's probe starts measuring (SIGUSR1) once the games are set up, just before the rolls."""
    games = [Game(fake, fake.create_channel(f"burst-{n}"), players) for n in range(channels)]
    for group in range(0, channels, 50):
        await asyncio.gather(*(game.start() for game in games[group:group + 50]))
    if probed:
        os.kill(parlor, signal.SIGUSR1)
        await asyncio.sleep(0.2)  # a bench, not a test: time for the signal to reach Parlor's loop
    deadline, timeout = fake.world.response_deadline, fake.response_timeout
    fake.world.response_deadline = fake.response_timeout = BURST_DEADLINE
    began = time.perf_counter()
    try:
        rolls = await asyncio.gather(*(game.move(press=False) for game in games))
    finally:
        fake.world.response_deadline, fake.response_timeout = deadline, timeout
    return time.perf_counter() - began, [roll.acknowledged_at - roll.created_at for roll in rolls]


@dataclass
class Run:
    """One run's samples (ms), and what Parlor's probe printed (none for the bare bot)."""

    pings: list[float] = field(default_factory=list)
    moves: dict[bool, list[float]] = field(default_factory=lambda: {False: [], True: []})
    acks: list[float] = field(default_factory=list)
    burst_seconds: float | None = None
    burst_acks: list[float] = field(default_factory=list)
    """Seconds each roll of the burst waited for its acknowledgement."""
    probes: list[dict] = field(default_factory=list)


async def run(samples: int, burst_channels: int, probed: bool) -> Run:
    """Ping and Parlor side by side: Parlor as `python -m bot` itself, or wrapped by the probe (`probed`)."""
    measured = Run()
    parlor_argv = [str(ROOT / "bench" / "latency_probe.py")] if probed else ["-m", "bot"]

    def tell_probe(which: signal.Signals, pid: int) -> None:
        if probed:
            os.kill(pid, which)

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder)
        async with FakeDiscord() as ping_fake, FakeDiscord() as parlor_fake:
            ping_fake.deferred_timeout = parlor_fake.deferred_timeout = 120.0
            pinger = await process(ping_fake, path, str(ROOT / "bench" / "ping_bot.py"))
            parlor = await process(parlor_fake, path, *parlor_argv,
                                   DATABASE_URL=f"sqlite:///{path / 'parlor.sqlite3'}")
            try:
                await ping_fake.wait_until_ready(30)
                await parlor_fake.wait_until_ready(30)
                ping_times, parlor_times = Timeline(ping_fake), Timeline(parlor_fake)
                someone = ping_fake.create_user("someone")
                ping_channel = ping_fake.channel("general")
                players = [parlor_fake.create_user("alice"), parlor_fake.create_user("bob")]
                game = Game(parlor_fake, parlor_fake.channel("games"), players)
                await game.start()
                tell_probe(signal.SIGUSR1, parlor.pid)  # the probe starts counting now
                for number in range(WARM_UP + samples):
                    await asyncio.sleep(PAUSE)
                    ping = await timed(ping_times, lambda: ping_fake.slash(someone, "ping", channel=ping_channel),
                                       ("POST",), CALLBACK)
                    press = number % 2 == 1
                    if game.over():
                        await game.move(press)  # the rematch and its first roll: not timed
                    await asyncio.sleep(PAUSE)
                    move = await timed(parlor_times, functools.partial(game.move, press), ("POST", "PATCH"),
                                       TABLE_WRITE, game.channel.id)
                    if number == WARM_UP:
                        tell_probe(signal.SIGUSR1, parlor.pid)
                    if number >= WARM_UP:
                        measured.pings.append(ping)
                        measured.moves[press].append(move)
                        measured.acks.append(parlor_times.first(parlor_times.sent, ("POST",), CALLBACK) * 1000)
                tell_probe(signal.SIGUSR2, parlor.pid)  # steps so far, before the burst
                await asyncio.sleep(0.5)
                if burst_channels:
                    measured.burst_seconds, measured.burst_acks = await burst(parlor_fake, players, burst_channels,
                                                                              parlor.pid, probed)
                    tell_probe(signal.SIGUSR2, parlor.pid)  # the burst's stalls (not the shut-down's)
                    await asyncio.sleep(0.5)
            finally:
                try:
                    out = await stop(parlor)
                finally:
                    await stop(pinger)  # even if Parlor failed to stop: a bench leaves no process behind
    measured.probes = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    return measured


def report_run(title: str, measured: Run, samples: int) -> None:
    baseline = summary(measured.pings)
    moves = measured.moves
    print(f"{title}: {samples} samples each, after {WARM_UP} to warm up; median, p95, p99 "
          "(and as many times the ping's)")
    report("/ping of a minimal discord.py bot", measured.pings, None)
    report("Parlor: /roll to its table write", moves[False], baseline)
    report("Parlor: Roll button to table write", moves[True], baseline)
    report("Parlor: either, to the table write", moves[False] + moves[True], baseline)
    report("Parlor: either, to the acknowledgement", measured.acks, baseline)


async def main(samples: int, burst_channels: int) -> None:
    bare = await run(samples, 0, probed=False)
    report_run("Parlor as it runs (python -m bot)", bare, samples)
    probed = await run(samples, burst_channels, probed=True)
    report_run("Parlor with the probe's timers (slower: every loop step is timed)", probed, samples)
    if probed.burst_seconds is not None:
        acks = probed.burst_acks
        median, p95, _ = summary(acks)
        print(f"{burst_channels} /roll at once, in as many channels: all tables shown in "
              f"{probed.burst_seconds:.2f} s; acknowledged after {median:.2f} s median, {p95:.2f} s p95, "
              f"{max(acks):.2f} s at most ({sum(ack > RESPONSE_DEADLINE for ack in acks)} past Discord's "
              f"{RESPONSE_DEADLINE:.0f} s)")
    median = statistics.median(probed.moves[False] + probed.moves[True])
    steps = probed.probes[0]
    print(f"steps of a move inside Parlor (per move: ms, and share of the probed median {median:.2f} ms):")
    for name, spent in steps["steps"].items():
        print(f"  {name:<44} {spent:6.2f} ms  {spent / median:6.1%}")
    print("one move's timeline inside Parlor (median ms after discord.py got the interaction: each step's first "
          "call began, ended):")
    for name, (began, ended) in sorted(steps["timeline"].items(), key=lambda item: item[1]):
        print(f"  {began:6.2f} {ended:6.2f}  {name.strip()}")
    if burst_channels:
        stall = probed.probes[1]
        print(f"during the burst: longest event-loop step {stall['longest_step']:.1f} ms, "
              f"without garbage collection {stall['longest_own_step']:.1f} ms, "
              f"in CPU time {stall['longest_cpu_step']:.1f} ms, "
              f"longest collection {stall['longest_collection']:.1f} ms (generation {stall.get('generation')}); "
              f"collections by generation {stall.get('collections')}, at quiet moments "
              f"{stall.get('quiet_collections')}, thresholds {stall.get('threshold')}; objects the collector "
              f"tracks {stall.get('tracked')} (and {stall.get('frozen')} set aside)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=300)
    parser.add_argument("--burst", type=int, default=1000)
    parser.add_argument("--pause", type=float, default=PAUSE, help="seconds between samples")
    arguments = parser.parse_args()
    PAUSE = arguments.pause
    asyncio.run(main(arguments.samples, arguments.burst))
