"""Pacing stated per game: how long the player to act has before a claim, when his next reminder
comes, and whether he is away or in quiet hours, for `/game status` and the digest.

Times are Discord timestamps, which each reader sees in his own zone; nothing private is said (an away reason
never is)."""

from __future__ import annotations

from bot.play.host import Host
from bot.play.pauses import claim_left, discord_time, paces
from bot.play.turn_clock import format_duration
from bot.storage.store import SessionRecord


async def pacing_lines(host: Host, session: SessionRecord, now: float) -> list[str]:
    """One line per player the game waits on (people only), and one for the turn clock."""
    if session.status != "active":
        return []
    to_act = [player for player in host.to_act(session) if player not in session.ai_played]
    if not to_act:
        return []
    found = await paces(host.store, session.guild_id, to_act, now)
    reminders = {timer.player: timer.due_at for timer in await host.store.pending_timers(session.id)
                 if timer.kind == "reminder"}
    lines = []
    for player in to_act:
        pace, name = found[player], f"<@{player}>"  # a mention: shown as his name, nothing to escape
        if (away := pace.away_until(now)) is not None:
            lines.append(f"🏝️ {name} is away until {discord_time(away)}.")
        elif pace.in_quiet(now):
            lines.append(f"🌙 {name} is in quiet hours until {discord_time(pace.held_until(now) or now, 't')}.")
        if player in reminders:
            lines.append(f"⏰ Next reminder for {name}: {discord_time(reminders[player], 'R')}.")
    if any(seat.id not in to_act and not seat.ai for seat in session.players):  # someone who could claim
        periods = await host.periods_for(session.guild_id)
        left = await claim_left(host.store, session, to_act, now, periods)
        lines.append("⌛ The turn clock has run out: the others may `/game claim`." if left <= 0 else
                     f"⌛ Turn clock: the others may `/game claim` in {format_duration(left, round_up=True)} if "
                     "nobody moves (it stands still in quiet hours and away days).")
    return lines
