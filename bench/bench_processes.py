"""Moves per second: two processes on PostgreSQL next to one process on SQLite, the same load.

The load: CHANNELS channels, each playing random legal games (every game in turn, a new one when one
ends) through a real Host for MOVES_PER_CHANNEL moves, all channels at once (one task each), as the
channels of a busy bot do. Each move is one committed transaction. One process on a SQLite file plays
every channel; then two OS processes on one PostgreSQL database play half the channels each, as two
shard processes would (and, to tell the database's cost from the second process's gain, one process
on PostgreSQL). Throughput is all moves over the wall time of the slowest process.

A move is mostly CPU (the engine, JSON, validation), so a second process helps only with a free core.
On the shared 2-core machine this was written on (load average near 3, other jobs running: no free
core, and the figures vary by some 20% from run to run), one run gave:

    40 channels x 60 moves, all channels at once
    setup                               moves  seconds  moves/s
    1 process, SQLite                    2400    27.54     87.2
    1 process, PostgreSQL                2400    17.49    137.2
    2 processes, one PostgreSQL          2400    20.18    118.9

PostgreSQL's pool lets one process's reads run beside its writes, where the one SQLite connection
takes them in turn; the second process brought nothing here for want of a core. On an idle machine
with a core per process, two processes should approach twice one process's rate.

PostgreSQL: set BENCH_DATABASE_URL to an empty database (postgresql://user:pass@host:port/db), or let
the bench start a throwaway server the way the tests do (needs PostgreSQL's initdb and pg_ctl).
Run: python bench/bench_processes.py
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_moves import start

from bot.play.host import Host, UserError
from bot.storage.store import Store
from games import GAMES

ROOT = Path(__file__).resolve().parents[1]
CHANNELS = 40
MOVES_PER_CHANNEL = 60


async def play_channel(host: Host, channel: int, moves: int) -> int:
    """Play `moves` random legal moves in one channel, starting a new game whenever one ends."""
    chooser = random.Random(channel)
    slugs = list(GAMES)
    made, game = 0, 0
    while made < moves:
        session_id = await start(host, slugs[(channel + game) % len(slugs)], f"bench-{channel}-{game}")
        game += 1
        while made < moves:
            session = await host.session(session_id)
            to_act = host.to_act(session) if session.status == "active" else []
            if not to_act:
                break
            player = to_act[0]
            try:
                await host.act(session_id, player, chooser.choice(host.legal_actions(session, player)))
            except UserError:
                continue
            made += 1
    return made


async def worker(database_url: str, channels: list[int]) -> dict[str, float]:
    store = await Store.connect(database_url)
    host = Host(store)
    began = time.perf_counter()
    made = await asyncio.gather(*(play_channel(host, channel, MOVES_PER_CHANNEL) for channel in channels))
    elapsed = time.perf_counter() - began
    await store.close()
    return {"moves": sum(made), "seconds": elapsed}


def run_processes(database_url: str, shares: list[list[int]]) -> tuple[int, float]:
    """Start one worker process per share of the channels at once; (all moves, slowest wall time)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "bench")])}
    workers = [subprocess.Popen([sys.executable, __file__, "--worker", database_url, json.dumps(share)],
                                stdout=subprocess.PIPE, env=env, text=True) for share in shares]
    results = []
    for process in workers:
        out, _ = process.communicate()
        if process.returncode != 0:
            raise SystemExit(f"a bench worker failed (exit {process.returncode})")
        results.append(json.loads(out.strip().splitlines()[-1]))
    return sum(int(r["moves"]) for r in results), max(r["seconds"] for r in results)


def run_on_postgres(shares: list[list[int]]) -> tuple[int, float]:
    """The workers on BENCH_DATABASE_URL, or on a throwaway server started (and stopped) here."""
    if os.environ.get("BENCH_DATABASE_URL"):
        return run_processes(os.environ["BENCH_DATABASE_URL"], shares)
    sys.path.insert(0, str(ROOT))
    from tests.postgres_server import PostgresServer

    server = PostgresServer()
    try:
        server.start()
        return run_processes(server.create_database(), shares)
    finally:
        server.stop()


def main() -> None:
    channels = list(range(CHANNELS))
    print(f"{CHANNELS} channels x {MOVES_PER_CHANNEL} moves, all channels at once")
    print(f"{'setup':<34} {'moves':>6} {'seconds':>8} {'moves/s':>8}")
    with tempfile.TemporaryDirectory() as folder:
        moves, seconds = run_processes(f"sqlite:///{Path(folder) / 'bench.sqlite3'}", [channels])
        print(f"{'1 process, SQLite':<34} {moves:>6} {seconds:>8.2f} {moves / seconds:>8.1f}")
        for label, shares in (("1 process, PostgreSQL", [channels]),
                              ("2 processes, one PostgreSQL", [channels[0::2], channels[1::2]])):
            moves, seconds = run_on_postgres(shares)
            print(f"{label:<34} {moves:>6} {seconds:>8.2f} {moves / seconds:>8.1f}")


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--worker":
        print(json.dumps(asyncio.run(worker(sys.argv[2], json.loads(sys.argv[3])))))
    else:
        main()
