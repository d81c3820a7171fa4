"""The Discord Activity (bot.activity): from a press in the Activity to the Discord table and back to the other
players' Activity views, beside the same path from the web page (bot.web).

Runs the real bot in-process over the fake Discord (tests/fakediscord, on loopback) with its web server and
Activity on, and John Henry games of two players with a spectator. The player to act presses through the
Activity's press route; the figures are, from the press sent:
- to its answer, which comes once the Discord table shows the move (the web window's `show_move`);
- to the other player's and the spectator's Activity streams (server-sent events) carrying the new version.
The same is measured for the web page's press and streams (personal links and the public page), in the same
run. The passes are issued directly (Discord's sign-in happens once per opening, not per press).

Figures on the development machine (2 cores shared with five other agents' work), 120 moves each after 10
thrown away, SQLite, the fake Discord on loopback (so Discord's own round trip, tens of ms, is not in them):
    activity: press -> Discord table shows it      median    26.7 ms   p95    37.2 ms
    activity: press -> the other views show it     median    25.1 ms   p95    38.4 ms
    web: press -> Discord table shows it           median    21.9 ms   p95    33.6 ms
    web: press -> the other views show it          median    22.0 ms   p95    33.2 ms
The other views update before the press is answered: the feed is poked as the move commits, and the answer
waits for the Discord table's edit. The Activity's few ms more are its pass check and its channel's game read
on each request. Run: python bench/bench_activity.py [--moves 120]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

import aiohttp

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.activity.identity import ActivityPass  # noqa: E402
from tests.conftest import start_bot  # noqa: E402
from tests.e2e.test_john_henry_e2e import start_game  # noqa: E402
from tests.fakediscord import FakeDiscord  # noqa: E402
from tests.fakediscord.connect import point_discord_py_at  # noqa: E402

WARM_UP = 10


class Stream:
    """One open page's server-sent events: when each game version arrived."""

    def __init__(self, http: aiohttp.ClientSession, url: str) -> None:
        self.arrived: dict[int, float] = {}
        self.changed = asyncio.Event()
        self.task = asyncio.create_task(self._read(http, url))

    async def _read(self, http: aiohttp.ClientSession, url: str) -> None:
        async with http.get(url) as response:
            event = ""
            async for raw in response.content:
                line = raw.decode().rstrip("\n")
                if line.startswith("event: "):
                    event = line[7:]
                elif line.startswith("data: ") and event == "state":
                    self.arrived[json.loads(line[6:])["version"]] = time.perf_counter()
                    self.changed.set()

    async def version(self, version: int) -> float:
        while version not in self.arrived:
            self.changed.clear()
            await asyncio.wait_for(self.changed.wait(), 30)
        return self.arrived[version]


async def play(http: aiohttp.ClientSession, bot, session_id: int, press_base: dict[str, str],
               others: dict[str, list[Stream]], moves: int) -> tuple[list[float], list[float]]:
    """`moves` presses by whoever is to act; the press's answer and the other views' updates, in ms."""
    answered, updated = [], []
    for _ in range(moves):
        session = await bot.host.session(session_id)
        if session.status != "active":
            break
        actor = bot.host.to_act(session)[0]
        async with http.get(f"{press_base[actor]}/state") as response:
            state = await response.json()
        labels = {choice["label"]: choice for choice in state["choices"]}
        choice = labels.get("Roll") or labels.get("Keep the 6") or next(iter(labels.values()))
        started = time.perf_counter()
        async with http.post(f"{press_base[actor]}/press", json={"version": session.version, "kind": choice["kind"],
                                                                "key": choice["key"]}) as response:
            assert response.status == 200, await response.text()
        answered.append(time.perf_counter() - started)
        for stream in others[actor]:
            updated.append(await stream.version(session.version + 1) - started)
    return [1000 * value for value in answered], [1000 * value for value in updated]


def summary(name: str, values: list[float]) -> str:
    values = values[WARM_UP:]
    p95 = statistics.quantiles(values, n=20)[18] if len(values) > 1 else values[0]
    return f"    {name:46} median {statistics.median(values):7.1f} ms   p95 {p95:7.1f} ms  ({len(values)})"


async def run(moves: int) -> None:
    async with FakeDiscord() as fake:
        restore = point_discord_py_at(fake.api_base, fake.gateway_url)
        with tempfile.TemporaryDirectory() as folder:
            bot, task = await start_bot(fake, str(Path(folder) / "bench.sqlite3"), web_port=0,
                                        activity_client_secret=fake.oauth.client_secret)
            try:
                figures = {}
                async with aiohttp.ClientSession() as http:
                    for window in ("activity", "web"):
                        figures[window] = await one_window(fake, bot, http, window, moves)
            finally:
                await bot.close()
                await task
                restore()
    print("From a press to the Discord table (the press's answer), and to the other views' update:")
    for window, (answered, updated) in figures.items():
        print(summary(f"{window}: press -> Discord table shows it", answered))
        print(summary(f"{window}: press -> the other views show it", updated))


async def one_window(fake: FakeDiscord, bot, http: aiohttp.ClientSession, window: str, moves: int):
    answered: list[float] = []
    updated: list[float] = []
    games = 0
    while len(answered) < moves + WARM_UP:
        games += 1
        alice, bob, carol = (fake.create_user(f"{name}{window}{games}") for name in ("alice", "bob", "carol"))
        channel = fake.create_channel(f"{window}-{games}")
        await start_game(fake, channel, alice, bob)
        session = await bot.host.last_session_in(str(channel.id))
        base = bot.web.base_url
        bases, streams = {}, {}
        for user in (alice, bob, carol):
            if window == "activity":
                expires = int(bot.host.clock() + 3600)
                token = bot.activity.passes.issue(ActivityPass(str(user.id), str(channel.id), "bench", expires))
                bases[str(user.id)] = f"{base}/activity/api/{token}"
            elif user is carol:
                bases[str(user.id)] = base + bot.web.watch_path(session.id)
            else:
                bases[str(user.id)] = base + await bot.web.play_path(session.id, str(user.id))
            streams[str(user.id)] = Stream(http, f"{bases[str(user.id)]}/events")
        others = {player: [stream for who, stream in streams.items() if who != player] for player in streams}
        more = await play(http, bot, session.id, bases, others, moves + WARM_UP - len(answered))
        answered += more[0]
        updated += more[1]
        for stream in streams.values():
            stream.task.cancel()
    return answered, updated


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--moves", type=int, default=120)
    asyncio.run(run(parser.parse_args().moves))


if __name__ == "__main__":
    main()
