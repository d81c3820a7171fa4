"""Waiting on players: when each wait began, when to remind, and when the others may claim.

Pure functions over plain data, so the host and the dispatcher share one set of rules and
the tests need no database.

Rulings:
- A player's wait begins when the game starts waiting on him, and again each time he acts and
  the game still waits on him (he did something, so he is not idle). A player the game keeps
  waiting on while someone else acts (a simultaneous step) keeps his wait and his reminders.
- The reminder comes once per period of waiting (12 h by default, per server), each time in the
  channel. After downtime only one overdue reminder is sent, then the period starts over from
  the missed due time.
- The turn clock (48 h by default, per server) runs from the start of a player's wait. Once every
  player the game waits on has waited that long, any *other* seated player may `/game claim`.
  A claim ends the game with end reason "timeout": the players the game was waiting on lose and
  every other player is a winner (shared when more than one). The engines cannot remove a
  player, so in Johari Bones with three or four players an idle player ends the game for all:
  the active players share the win. Scores are 1 for a winner and 0 otherwise; the claim is not
  a move, so the move log still replays to the stored state.
- When the game waits on every player at once (a roll-off), nobody can claim: abandon it instead.
- Nothing waits and nothing times out while the game waits on nobody, in a lobby, or once over.
- Changing a server's periods applies at once: a claim is judged on the clock in force when it is made (a
  shorter clock may make a running wait claimable at once), and a reminder's next one follows the new
  period; timers already due stay. The moderator who changes them is told so.
- A player the game newly waits on (not the one who just acted) gets a turn notice, a direct message, if
  he asked for them (`/notify`). Whether he did is decided by the store inside the move's own transaction
  (bot.storage.store), not read before it: a move reads nothing first, and a choice made in another process counts
  from the next move on.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bot.storage.store import NewTimer, TimerPlan

HOUR = 3600.0


@dataclass(frozen=True)
class Periods:
    """How long a server lets a player think before a reminder and before a claim."""

    reminder_hours: float = 12.0
    turn_clock_hours: float = 48.0

    @property
    def reminder_seconds(self) -> float:
        return self.reminder_hours * HOUR

    @property
    def clock_seconds(self) -> float:
        return self.turn_clock_hours * HOUR


@dataclass(frozen=True)
class WaitPlan:
    """What a committed change does to the waits: the new `waiting_since` and the timers to match."""

    waiting_since: dict[str, float] | None
    timers: TimerPlan


def plan_wait(previous: Mapping[str, float] | None, to_act: Sequence[str], *, actor: str | None, now: float,
              periods: Periods) -> WaitPlan:
    """The waits after a change made by `actor` (None for the bot) that leaves the game waiting on `to_act`.

    Its notices are written only for the players who asked for turn DMs (see the module docstring)."""
    previous = previous or {}
    since: dict[str, float] = {}
    keep: list[str] = []
    add: list[NewTimer] = []
    for player in dict.fromkeys(to_act):
        if player in previous and player != actor:
            since[player] = previous[player]
            keep.append(player)
            continue
        since[player] = now
        add.append(NewTimer(kind="reminder", player=player, due_at=now + periods.reminder_seconds))
        if player not in previous and player != actor:
            add.append(NewTimer(kind="notice", player=player, due_at=now))
    return WaitPlan(waiting_since=since or None, timers=TimerPlan(keep=keep, add=add, actor=actor, at=now))


def no_wait(actor: str | None = None, at: float = 0.0) -> WaitPlan:
    """The game waits on nobody any more: no wait, no timers (a last move by `actor` still ends his away)."""
    return WaitPlan(waiting_since=None, timers=TimerPlan(actor=actor, at=at))


def next_reminder(due_at: float, now: float, periods: Periods) -> float:
    """The first due time after `now` on the reminder's schedule, so downtime never sends a burst."""
    period = periods.reminder_seconds
    return due_at + period * (math.floor(max(0.0, now - due_at) / period) + 1)


def wait_began(waiting_since: Mapping[str, float] | None, player: str, fallback: float) -> float:
    return (waiting_since or {}).get(player, fallback)


def claim_time_left(waiting_since: Mapping[str, float] | None, to_act: Sequence[str], *, fallback: float,
                    now: float, periods: Periods) -> float:
    """Seconds until the turn clock runs out for every player in `to_act` (0 when it has)."""
    if not to_act:
        return math.inf
    latest = max(wait_began(waiting_since, player, fallback) for player in to_act)
    return max(0.0, latest + periods.clock_seconds - now)


def format_duration(seconds: float, *, round_up: bool = False) -> str:
    """"3 h 20 min", "45 min", "3 d 5 h" (past two days); rounded down to the minute, or up for time still to wait."""
    minutes = math.ceil(seconds / 60 - 1e-9) if round_up else math.floor(seconds / 60 + 1e-9)
    if minutes < 1:
        return "1 min" if round_up else "less than a minute"
    if minutes >= 2 * 24 * 60:
        days, hours = divmod(math.ceil(minutes / 60) if round_up else minutes // 60, 24)
        return f"{days} d {hours} h" if hours else f"{days} d"
    hours, minutes = divmod(minutes, 60)
    if hours:
        return f"{hours} h {minutes} min" if minutes else f"{hours} h"
    return f"{minutes} min"
