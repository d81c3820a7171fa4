"""Where a lone move's time goes: the host's work, the hand-overs to SQLite's thread and back, its statements.

Moves one at a time through the real `Host` over the real `Store` (John Henry, no drawing), each committed before
the next, as `bench_table.py`'s "one at a time". Each move is timed at a few points, on the machine's one clock,
by wrapping the functions it passes through (a bench-only instrument, like bench_table's StallMeter):

- before the write is sent: from `Host.act` to the group's trip to the database thread (`_commit_group`);
- the hand-over: until the database thread begins the group (`_run_group`);
- the statements: each, by its first words (BEGIN and the savepoint are the time before the first);
- COMMIT: from the commit's start (`syncing`, told as the statements are done) to the group's end (the savepoint's
  RELEASE, some 4 µs, falls between the last statement and this);
- the hand-back: until the loop settles the group (`_Settling.finish`);
- the host's work after the commit: until `Host.act` returns.

Prints the median of each in µs; then, next to a raw commit timed in the same folder before and after the moves
(bench_table's: one INSERT and one COMMIT through aiosqlite, with the store's settings), the move's transaction alone
(from the write sent to its settling on the loop: hand-overs, statements, COMMIT) and what each allows moves one at a
time against raw commits: the ratio the transaction alone would reach if the host's Python cost nothing, and the
ratio the whole move reaches. Figures (2026-11-27, this 2-core machine) are in docs/performance.md:
the transaction alone ×0.52-0.62 raw, the whole move ×0.28-0.34, in four runs.

Run: python bench/bench_lone_move.py [--moves 1000] [--rounds 2]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from collections import defaultdict
from pathlib import Path

from bench.bench_table import one_move, open_games, raw_commits, raw_connection, store_settings
from bot.play.host import Host
from bot.runtime.collector import set_aside_start_up
from bot.storage import db_connection
from bot.storage.store import Store

STEPS = ("before the write is sent", "hand-over to the database thread", "BEGIN and the savepoint", "COMMIT",
         "hand-back to the loop", "the host's work after the commit", "the whole move")
TRANSACTION = "the transaction alone (sent to settled)"
RAW_COMMITS = 2000
"""Raw commits timed before the moves, and as many after."""


class Timeline:
    """The points one move passes, and each step's durations over all moves."""

    def __init__(self) -> None:
        self.at: dict[str, float] = {}
        self.steps: dict[str, list[float]] = defaultdict(list)

    def mark(self, point: str) -> None:
        self.at[point] = time.perf_counter()

    def step(self, name: str, began: str, ended: str) -> None:
        self.steps[name].append(self.at[ended] - self.at[began])

    def instrument(self) -> None:
        """Wrap the functions a move passes through (for the rest of the process)."""
        timeline = self
        run_group, run_statement = db_connection._run_group, db_connection._run_statement
        commit_group, finish = db_connection.SerializedConnection._commit_group, db_connection._Settling.finish
        act = Host.act

        def timed_group(connection, writes, syncing=None):
            timeline.mark("group began")
            timeline.at.pop("statement ended", None)

            def commit_began() -> None:
                timeline.mark("commit began")
                if syncing is not None:
                    syncing()
            try:
                return run_group(connection, writes, commit_began)
            finally:
                timeline.mark("group ended")

        def timed_statement(connection, sql, params):
            if "statement ended" not in timeline.at:
                timeline.mark("statement ended")
                timeline.step("BEGIN and the savepoint", "group began", "statement ended")
            began = time.perf_counter()
            try:
                return run_statement(connection, sql, params)
            finally:
                timeline.mark("statement ended")
                timeline.steps[" ".join(sql.split()[:3])].append(timeline.at["statement ended"] - began)

        async def timed_commit_group(self, group):
            timeline.mark("sent")
            return await commit_group(self, group)

        def timed_finish(self, outcomes):
            timeline.mark("settling")
            return finish(self, outcomes)

        async def timed_act(self, *args, **kwargs):
            timeline.mark("act")
            try:
                return await act(self, *args, **kwargs)
            finally:
                timeline.mark("acted")

        db_connection._run_group, db_connection._run_statement = timed_group, timed_statement
        db_connection.SerializedConnection._commit_group = timed_commit_group  # type: ignore[method-assign]
        db_connection._Settling.finish = timed_finish  # type: ignore[method-assign]
        Host.act = timed_act  # type: ignore[method-assign]

    def move_done(self) -> None:
        for name, began, ended in (("before the write is sent", "act", "sent"),
                                   ("hand-over to the database thread", "sent", "group began"),
                                   ("COMMIT", "commit began", "group ended"),
                                   ("hand-back to the loop", "group ended", "settling"),
                                   ("the host's work after the commit", "settling", "acted"),
                                   ("the whole move", "act", "acted"),
                                   (TRANSACTION, "sent", "settling")):
            self.step(name, began, ended)


async def main(moves: int, rounds: int) -> None:
    timeline = Timeline()
    with tempfile.TemporaryDirectory() as folder:
        raw = await raw_connection(Path(folder), await store_settings(Path(folder)))
        raw_rates = [await raw_commits(raw, RAW_COMMITS)]
        store = await Store.open(Path(folder) / "lone.sqlite3")
        host = Host(store)
        sessions = await open_games(host, moves)
        for session in sessions:  # every game's first move, not timed
            await one_move(host, session, draw=False)
        timeline.instrument()
        for _ in range(rounds):
            for session in sessions:
                if await one_move(host, session, draw=False):
                    timeline.move_done()
        await store.close()
        raw_rates.append(await raw_commits(raw, RAW_COMMITS))
        await raw.close()
    statements = [name for name in timeline.steps if name not in (*STEPS, TRANSACTION)]
    print(f"{len(timeline.steps['the whole move'])} lone moves (John Henry, no drawing); median µs of each step:")
    for name in (*STEPS[:3], *statements, *STEPS[3:]):
        durations = timeline.steps[name]
        print(f"  {name:<44} {statistics.median(durations) * 1e6:7.1f}  ({len(durations)} times)")
    raw_us = 1e6 / statistics.mean(raw_rates)
    transaction_us, move_us = (statistics.median(timeline.steps[name]) * 1e6
                               for name in (TRANSACTION, "the whole move"))
    print(f"a raw commit (INSERT and COMMIT through aiosqlite; {', '.join(f'{rate:.0f}' for rate in raw_rates)} /s "
          f"before and after): {raw_us:.1f} µs")
    print(f"  {TRANSACTION:<44} {transaction_us:7.1f}  x{raw_us / transaction_us:.2f} raw: moves one at a time if the "
          "host's Python cost nothing")
    print(f"  {'the whole move':<44} {move_us:7.1f}  x{raw_us / move_us:.2f} raw")


if __name__ == "__main__":
    set_aside_start_up()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=2)
    arguments = parser.parse_args()
    asyncio.run(main(arguments.moves, arguments.rounds))
