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

Prints the median of each in µs. Figures (2026-11-27, this 2-core machine) are in the README's Performance section.

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

from bench.bench_table import one_move, open_games
from bot import db_connection
from bot.collector import set_aside_start_up
from bot.host import Host
from bot.store import Store

STEPS = ("before the write is sent", "hand-over to the database thread", "BEGIN and the savepoint", "COMMIT",
         "hand-back to the loop", "the host's work after the commit", "the whole move")


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
                                   ("the whole move", "act", "acted")):
            self.step(name, began, ended)


async def main(moves: int, rounds: int) -> None:
    timeline = Timeline()
    with tempfile.TemporaryDirectory() as folder:
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
    statements = [name for name in timeline.steps if name not in STEPS]
    print(f"{len(timeline.steps['the whole move'])} lone moves (John Henry, no drawing); median µs of each step:")
    for name in (*STEPS[:3], *statements, *STEPS[3:]):
        durations = timeline.steps[name]
        print(f"  {name:<44} {statistics.median(durations) * 1e6:7.1f}  ({len(durations)} times)")


if __name__ == "__main__":
    set_aside_start_up()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=2)
    arguments = parser.parse_args()
    asyncio.run(main(arguments.moves, arguments.rounds))
