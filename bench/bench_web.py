"""The web pages (bot.web): time from a committed move to the pages' update, and memory per open page.

Runs the real `WebServer` over the real `Host` and `Store` (SQLite in a temporary folder; no Discord),
with `--games` John Henry games and `--pages` live pages spread over them (server-sent event streams,
read by a separate client process so that its memory is not counted). Moves are made one at a time
and each waits until every page of its game has it, so the figures are the path of one move, not a
queue. It prints, for each path, the median and p95 from the commit to a page's receipt of the update:

- this process's moves (the host's `changed` hook wakes the pages at once);
- another process's moves (a second `Host` on its own connection, as another shard would be: the
  pages learn of it from the feed's poll of the store, every 0.25 s);
- the same-run baseline: a bare aiohttp server-sent event written to as many streams, so the ratio
  shows what Parlor's page building adds to the network path;

and the memory each open page costs the server (RSS and Python allocations, tracemalloc), measured
while the pages connect.

Figures on the development machine (2 cores shared with four other developers' work), 20 games,
100 pages (5 a game), 200 moves here and 50 by another connection:
    move made in this process -> page      median   1.4 ms   p95   4.0 ms  (5.8x the baseline's median)
    move made by another process -> page   median 103.5 ms   p95 243.9 ms  (the poll: every 0.25 s)
    baseline: bare server-sent event       median   0.2 ms   p95   0.9 ms
    memory per open page: 36.9 KiB of RSS, 21.2 KiB of Python allocations
(An earlier run: 1.2 ms / 2.0 ms here, 28.7 KiB RSS a page.) Pages are read by an aiohttp client, not
a browser: a browser's own rendering adds its share on the viewer's machine, not on the bot's.

Run: python bench/bench_web.py [--games 20] [--pages 100] [--moves 200]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import random
import statistics
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

from aiohttp import ClientSession, ClientTimeout, web

from bot.play.host import Host, MoveOutcome
from bot.storage.store import Seat, Store
from bot.web.feed import POLL_SECONDS
from bot.web.links import Links
from bot.web.server import WebServer


def rss_bytes() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * 4096


async def open_games(host: Host, count: int) -> list[int]:
    ids = []
    for number in range(count):
        channel = str(10_000 + number)
        seats = [Seat(id=str(1000 + 2 * number), name="Ann"), Seat(id=str(1001 + 2 * number), name="Bo")]
        await host.open_lobby(guild_id="1", channel_id=channel, slug="john-henry", creator=seats[0])
        _, began = await host.join(channel, seats[1])
        ids.append(began.session.id)
    return ids


class Arrivals:
    """Reads the client process's lines: (page, version, monotonic time) per update received."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self.seen: dict[tuple[int, int], float] = {}
        self.ready = asyncio.Event()
        self.changed = asyncio.Event()

    async def read(self) -> None:
        assert self.process.stdout is not None
        async for line in self.process.stdout:
            text = line.decode().strip()
            if text == "ready":
                self.ready.set()
                continue
            page, version, at = text.split()
            self.seen.setdefault((int(page), int(version)), float(at))
            self.changed.set()

    async def wait_for(self, pages: list[int], version: int) -> list[float]:
        while not all((page, version) in self.seen for page in pages):
            self.changed.clear()
            await asyncio.wait_for(self.changed.wait(), 30)
        return [self.seen[(page, version)] for page in pages]


def summary(name: str, latencies: list[float], baseline: float | None = None) -> str:
    ms = sorted(value * 1000 for value in latencies)
    median, p95 = statistics.median(ms), ms[int(0.95 * (len(ms) - 1))]
    ratio = f"  ({median / baseline:.1f}x the baseline's median)" if baseline else ""
    return f"{name:<38} median {median:7.1f} ms   p95 {p95:7.1f} ms{ratio}"


async def bare_server(pages: int) -> tuple[web.AppRunner, str, list[asyncio.Queue]]:
    """The baseline: server-sent events with no work behind them, written to `pages` streams."""
    queues: list[asyncio.Queue] = []

    async def stream(request: web.Request) -> web.StreamResponse:
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream"})
        await response.prepare(request)
        queue: asyncio.Queue = asyncio.Queue()
        queues.append(queue)
        await response.write(b'event: state\ndata: {"version": 0}\n\n')
        while True:
            version = await queue.get()
            await response.write(f'event: state\ndata: {{"version": {version}}}\n\n'.encode())

    app = web.Application()
    app.add_routes([web.get("/bare", stream)])
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    return runner, f"http://127.0.0.1:{port}/bare", queues


async def run(games: int, pages: int, moves: int) -> None:
    folder = Path(tempfile.mkdtemp(prefix="parlor-bench-web-"))
    store = await Store.connect(f"sqlite:///{folder / 'parlor.sqlite3'}")
    host = Host(store)
    committed: dict[tuple[int, int], float] = {}

    async def no_discord(outcome: MoveOutcome) -> None:
        return None

    server = WebServer(host, await Links.open(store), show_move=no_discord)
    await server.start("127.0.0.1", 0)

    def changed(session) -> None:
        committed.setdefault((session.id, session.version), time.monotonic())
        server.poke(session)

    host.changed = changed
    session_ids = await open_games(host, games)
    page_game = [session_ids[number % games] for number in range(pages)]
    urls = [f"{server.base_url}{server.watch_path(session_id)}/events" for session_id in page_game]

    gc.collect()
    tracemalloc.start()
    rss_before, traced_before = rss_bytes(), tracemalloc.get_traced_memory()[0]
    client = await asyncio.create_subprocess_exec(sys.executable, __file__, "--client", *urls,
                                                  stdout=asyncio.subprocess.PIPE)
    arrivals = Arrivals(client)
    reader = asyncio.create_task(arrivals.read())
    await asyncio.wait_for(arrivals.ready.wait(), 60)
    gc.collect()
    per_page_rss = (rss_bytes() - rss_before) / pages
    per_page_traced = (tracemalloc.get_traced_memory()[0] - traced_before) / pages
    tracemalloc.stop()

    pages_of = {session_id: [i for i, game in enumerate(page_game) if game == session_id] for session_id in session_ids}

    async def one_move(mover: Host, session_id: int) -> list[float]:
        session = await mover.session(session_id)
        if session.status != "active":
            return []
        player = mover.to_act(session)[0]
        outcome = await mover.act(session_id, player, mover.legal_actions(session, player)[0])
        version = outcome.session.version
        started = committed.setdefault((session_id, version), time.monotonic())
        return [at - started for at in await arrivals.wait_for(pages_of[session_id], version)]

    local: list[float] = []
    for number in range(moves):
        local += await one_move(host, session_ids[number % games])
    other_store = await Store.connect(f"sqlite:///{folder / 'parlor.sqlite3'}")
    other = Host(other_store)  # another process's host: its commits reach the pages through the poll
    elsewhere: list[float] = []
    phases = random.Random(22)
    for number in range(max(moves // 4, 1)):
        await asyncio.sleep(phases.uniform(0, POLL_SECONDS))  # moves come at any point of the poll's period
        elsewhere += await one_move(other, session_ids[number % games])

    runner, bare_url, queues = await bare_server(pages)
    bare = await asyncio.create_subprocess_exec(sys.executable, __file__, "--client", *([bare_url] * pages),
                                                stdout=asyncio.subprocess.PIPE)
    bare_arrivals = Arrivals(bare)
    bare_reader = asyncio.create_task(bare_arrivals.read())
    await asyncio.wait_for(bare_arrivals.ready.wait(), 60)
    baseline: list[float] = []
    group = max(pages // games, 1)
    for version in range(1, moves + 1):
        chosen = [(version * group + i) % pages for i in range(group)]
        started = time.monotonic()
        for index in chosen:
            queues[index].put_nowait(version)
        baseline += [at - started for at in await bare_arrivals.wait_for(chosen, version)]

    base_median = statistics.median(baseline) * 1000
    print(f"{games} games, {pages} pages open ({pages // games} a game), {moves} moves made here, "
          f"{len(elsewhere) // max(pages // games, 1)} made by another connection")
    print(summary("move made in this process -> page", local, base_median))
    print(summary("move made by another process -> page", elsewhere, base_median))
    print(summary("baseline: bare server-sent event", baseline))
    print(f"memory per open page: {per_page_rss / 1024:.1f} KiB of RSS, {per_page_traced / 1024:.1f} KiB of Python "
          "allocations")
    for process, task in ((client, reader), (bare, bare_reader)):
        process.kill()
        await process.wait()
        task.cancel()
    await server.stop()
    await runner.cleanup()
    await other_store.close()
    await store.close()


async def client(urls: list[str]) -> None:
    """The pages: one stream each; prints "page version time" for every update, and "ready" once all have one."""
    first: set[int] = set()

    async def follow(http: ClientSession, index: int, url: str) -> None:
        async with http.get(url) as response:
            async for raw in response.content:
                line = raw.decode().strip()
                if line.startswith("data: "):
                    version = json.loads(line[6:])["version"]
                    print(index, version, time.monotonic(), flush=True)
                    first.add(index)
                    if len(first) == len(urls):
                        print("ready", flush=True)
                        first.add(-1)

    async with ClientSession(timeout=ClientTimeout(total=None)) as http:
        await asyncio.gather(*(follow(http, index, url) for index, url in enumerate(urls)))


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--client":
        asyncio.run(client(sys.argv[2:]))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--pages", type=int, default=100)
    parser.add_argument("--moves", type=int, default=200)
    arguments = parser.parse_args()
    asyncio.run(run(arguments.games, arguments.pages, arguments.moves))


if __name__ == "__main__":
    main()
