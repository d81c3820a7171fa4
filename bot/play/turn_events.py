"""What a table narrates after a move: the events of the turn so far, the oldest cut past a bound."""

from __future__ import annotations

from collections.abc import Sequence

from bot.storage.store import SessionRecord

TURN_EVENTS_KEPT = 40
"""Events narrated on one table at most (a long chain of one player's steps keeps its latest)."""
EARLIER_CUT = "earlier_cut"
"""The type of the mark that starts a table's events when a long turn's oldest had to go (`turn_events`):
`{"type": EARLIER_CUT, "events": how many}`. It is the host's, not a game's, so nothing narrates it as a move;
the table says where the dropped ones are instead (bot.discord.replies)."""


def dropped_earlier(events: Sequence[dict]) -> int:
    """How many of a turn's oldest events the table no longer holds (0 unless `EARLIER_CUT` marks a cut)."""
    return events[0].get("events", 0) if events and events[0].get("type") == EARLIER_CUT else 0


def turn_events(session: SessionRecord, before: list[str], after: list[str], events: list[dict]) -> list[dict]:
    """What the table narrates after a move: this move's events when the player(s) to act changed,
    else the events since they last changed followed by this move's. Past `TURN_EVENTS_KEPT` the oldest
    go, and an `EARLIER_CUT` mark first counts them, so the table says where they went (`/game log`)."""
    if set(before) != set(after):
        dropped, told = 0, list(events)
    else:
        dropped = dropped_earlier(session.turn_events)
        told = [*session.turn_events[1 if dropped else 0:], *events]
    dropped += max(0, len(told) - TURN_EVENTS_KEPT)
    told = told[-TURN_EVENTS_KEPT:]
    return [{"type": EARLIER_CUT, "events": dropped}, *told] if dropped else told
