"""`/game log` and `/game export` replay the game's log in a worker thread (bot.play.replay), never on the
event loop, and say exactly what the host's own replay says."""

from __future__ import annotations

import json
import threading

import pytest

from bot.client import ParlorBot
from bot.discord.replies import log_messages
from bot.play import replay as move_replay
from bot.presentation.words import log_lines
from tests.e2e.helpers import table
from tests.e2e.test_ai_e2e import play_out
from tests.e2e.test_dice_e2e import reply
from tests.e2e.test_table_load_e2e import VirtualClock
from tests.fakediscord import FakeDiscord


async def a_finished_game(fake_discord: FakeDiscord, parlor: ParlorBot):
    """Alice and Bob play a game of John Henry to its end: the two, its channel, and the finished session."""
    alice, bob = fake_discord.create_user("alice"), fake_discord.create_user("bob")
    channel = fake_discord.channel("games")
    await fake_discord.slash(alice, "game start", channel=channel, game="john-henry", opponent=bob)
    lobby = table(fake_discord, channel)
    await fake_discord.click(bob, lobby, lobby.button(label="Join")["custom_id"])
    await play_out(parlor, channel)
    return alice, bob, channel, await parlor.host.last_session_in(str(channel.id))


async def test_the_log_and_the_export_are_replayed_in_a_worker_and_say_the_same(
        fake_discord: FakeDiscord, parlor: ParlorBot, monkeypatch: pytest.MonkeyPatch):
    alice, bob, channel, session = await a_finished_game(fake_discord, parlor)
    assert session.status == "finished"
    reference = await parlor.host.narrated_moves(session)  # the host's own replay, as the log used to be made
    assert len(reference) > 5

    replayed_in: list[int] = []
    real_replay = move_replay.replay_log

    def watched(*args, **kwargs):
        replayed_in.append(threading.get_ident())
        return real_replay(*args, **kwargs)

    monkeypatch.setattr(move_replay, "replay_log", watched)
    loop_thread = threading.get_ident()

    expected = [m["content"] for m in log_messages(session, log_lines(session, reference))]
    log = await fake_discord.slash(bob, "game log", channel=channel)
    await fake_discord.wait_for(lambda: len(log.messages) == len(expected), what="the log's follow-up messages")
    assert log.ephemeral and [m.content for m in log.messages] == expected
    assert replayed_in and loop_thread not in replayed_in, "the log was replayed in a worker"

    replayed_in.clear()
    exported = await reply(await fake_discord.slash(alice, "game export", channel=channel))
    record = json.loads(exported.attachments[0].data)
    assert [(m["seq"], m["player"], m["events"]) for m in record["moves"]] == [
        (move.seq, move.player, events) for move, events in reference]
    assert replayed_in and loop_thread not in replayed_in, "the record was replayed in a worker"


async def test_a_log_whose_replay_takes_seconds_is_answered_in_time(
        fake_discord: FakeDiscord, parlor: ParlorBot, monkeypatch: pytest.MonkeyPatch):
    """A long Crayon Rails replay can take near 3 s on a slow machine: `/game log` says "thinking…" first, so
    Discord's deadline is kept however long the replay takes, and the log is the same."""
    _, bob, channel, session = await a_finished_game(fake_discord, parlor)
    reference = await parlor.host.narrated_moves(session)
    expected = [m["content"] for m in log_messages(session, log_lines(session, reference))]

    fake_discord.world.clock = clock = VirtualClock()
    real_replay = move_replay.replay_log

    def slow(*args, **kwargs):
        clock.now += 4.0  # the replay took 4 s by Discord's clock: an answer only after it would be too late
        return real_replay(*args, **kwargs)

    monkeypatch.setattr(move_replay, "replay_log", slow)
    log = await fake_discord.slash(bob, "game log", channel=channel)
    await fake_discord.wait_for(lambda: len(log.messages) == len(expected), what="the log's messages")
    assert not log.late and log.ephemeral and [m.content for m in log.messages] == expected
