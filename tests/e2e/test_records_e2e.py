"""Every way a game ends gives a record that checks out, online and offline (issue 21, item 1).

Through the fake Discord: a game against the AI, a game in which the AI stood in for an idle player
(`/game substitute` ... `/game return`), a claimed game and an abandoned one. Each is exported with
`/game export`, checked with `/game verify` (the file, and the game by number) and with
`python -m games.verify` in a separate process; a copy with one die changed is refused by both. A
copy with a player renamed is refused online (the bot compares it with its own copy) and passes
offline only with the plain statement that names are not vouched for.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

from bot.client import ParlorBot
from games.verify import VOUCHED
from tests.bot.conftest import FakeClock
from tests.e2e.helpers import table
from tests.e2e.test_ai_e2e import HOUR, no_pause, play_out, quick_ai
from tests.e2e.test_dice_e2e import reply
from tests.fakediscord import FakeDiscord
from tests.fakediscord.state import FakeChannel

ROOT = Path(__file__).resolve().parents[2]


def offline(path: Path) -> subprocess.CompletedProcess:
    """`python -m games.verify` as a player runs it: another process, the project's `games` only."""
    return subprocess.run([sys.executable, "-m", "games.verify", str(path)], capture_output=True, text=True,
                          cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=120)


def with_a_die_changed(data: bytes) -> bytes:
    record = json.loads(data)
    move = next(move for move in record["moves"] if move["outcomes"]["rolls"])
    die = move["outcomes"]["rolls"][0]
    move["outcomes"]["rolls"][0] = 1 if die != 1 else 2
    return json.dumps(record).encode()


def with_a_name_changed(data: bytes) -> bytes:
    record = json.loads(data)
    record["players"][0]["name"] = "Mallory"
    return json.dumps(record).encode()


async def export_and_check(fake: FakeDiscord, bot: ParlorBot, channel: FakeChannel, user, tmp_path: Path,
                           end: str) -> dict:
    """Export the channel's last game and check it every way; returns the record as JSON."""
    session = await bot.host.last_session_in(str(channel.id))
    assert session.status in ("finished", "abandoned"), session.status
    exported = await reply(await fake.slash(user, "game export", channel=channel))
    assert exported.ephemeral and exported.attachments, exported.content
    data = exported.attachments[0].data
    record = json.loads(data)
    assert record["end"] == end

    by_number = await reply(await fake.slash(user, "game verify", channel=channel, game=session.id))
    assert "The record checks out" in by_number.content, by_number.content
    assert "match Parlor's own copy" in by_number.content
    uploaded = await reply(await fake.slash(user, "game verify", channel=channel,
                                            record=fake.upload("record.json", data)))
    assert uploaded.ephemeral and "The record checks out" in uploaded.content, uploaded.content
    in_dm = await reply(await fake.slash(user, "game verify", channel=fake.dm_channel(user),
                                         record=fake.upload("record.json", data)))
    assert "The record checks out" in in_dm.content and "Not checked" in in_dm.content, in_dm.content

    path = tmp_path / f"record-{session.id}.json"
    path.write_bytes(data)
    checked = offline(path)
    assert checked.returncode == 0 and "OK: the record checks out." in checked.stdout, checked.stdout
    assert VOUCHED in checked.stdout, "the offline check says what it vouches for"

    tampered = with_a_die_changed(data)
    refused = await reply(await fake.slash(user, "game verify", channel=channel,
                                           record=fake.upload("record.json", tampered)))
    assert "does not check out" in refused.content, refused.content
    path.write_bytes(tampered)
    caught = offline(path)
    assert caught.returncode == 1 and "DISAGREES" in caught.stdout, caught.stdout

    renamed = with_a_name_changed(data)
    refused = await reply(await fake.slash(user, "game verify", channel=channel,
                                           record=fake.upload("record.json", renamed)))
    assert "does not check out" in refused.content and "names" in refused.content, refused.content
    path.write_bytes(renamed)
    passed = offline(path)
    assert passed.returncode == 0 and "Not checked, as Parlor wrote them: the players' names" in passed.stdout
    return record


async def test_a_game_against_the_ai_verifies(fake_discord, parlor, tmp_path):
    from tests.e2e.test_ai_e2e import against_the_ai

    session, alice = await against_the_ai(fake_discord, parlor, "john-henry", seed=3)
    channel = next(c for c in fake_discord.world.channels.values() if str(c.id) == session.channel_id)
    record = await export_and_check(fake_discord, parlor, channel, alice, tmp_path, "played out")
    assert record["ai_seats"] == ["ai-1"] and "ai_seats" not in record["result"]


async def two_players(fake: FakeDiscord, name: str, slug: str):
    channel = fake.create_channel(name)
    alice, bob = fake.create_user("alice"), fake.create_user("bob")
    await fake.slash(alice, "game start", channel=channel, game=slug, opponent=bob)
    await fake.slash(bob, "game join", channel=channel)
    return channel, alice, bob


async def test_a_game_with_a_stand_in_verifies(fake_discord, parlor, tmp_path):
    quick_ai(parlor)
    clock = FakeClock()
    parlor.host.clock = clock
    channel, alice, bob = await two_players(fake_discord, "stand-in", "john-henry")
    await fake_discord.slash(alice, "roll", channel=channel)  # bob never rolls for first player
    clock.advance(49 * HOUR)
    stand_in_seen = asyncio.Event()

    async def pause_until_the_table_is_read(seconds: float) -> None:
        await stand_in_seen.wait()

    parlor.ai.sleep = pause_until_the_table_is_read  # else its move may re-post the table as we read it
    await fake_discord.slash(alice, "game substitute", channel=channel)
    board = table(fake_discord, channel)
    assert "Parlor (AI) is playing bob's turn." in board.content, board.content
    assert f"{bob.mention}: your turn" not in board.content and bob.id not in board.pinged
    parlor.ai.sleep = no_pause
    stand_in_seen.set()
    await parlor.ai.idle()
    session = await parlor.host.last_session_in(str(channel.id))
    for _ in range(20):  # a few turns with the AI playing for bob
        if session.status != "active" or len(await parlor.host.moves(session)) > 6:
            break
        if str(alice.id) in parlor.host.to_act(session):
            await fake_discord.slash(alice, "roll", channel=channel)
        await parlor.ai.idle()
        session = await parlor.host.last_session_in(str(channel.id))
    await fake_discord.slash(bob, "game return", channel=channel)
    await play_out(parlor, channel)  # the two people
    record = await export_and_check(fake_discord, parlor, channel, alice, tmp_path, "played out")
    (first, last), = record["stand_ins"][str(bob.id)]
    moves = {move["seq"]: move["player"] for move in record["moves"]}
    assert first == 2 and last >= first and moves[first] == str(bob.id), "the stretch is in move numbers"


async def test_a_claimed_game_verifies_and_its_result_is_checked(fake_discord, parlor, tmp_path):
    clock = FakeClock()
    parlor.host.clock = clock
    channel, alice, bob = await two_players(fake_discord, "claimed", "two-fat-dudes")
    for _ in range(30):  # play until it is bob's turn alone
        session = await parlor.host.last_session_in(str(channel.id))
        to_act = parlor.host.to_act(session)
        if to_act == [str(bob.id)] and len(await parlor.host.moves(session)) >= 2:
            break
        player = to_act[0]
        await parlor.host.act(session.id, player, parlor.host.legal_actions(session, player)[0])
    clock.advance(49 * HOUR)
    claimed = await fake_discord.slash(alice, "game claim", channel=channel)
    assert not claimed.ephemeral
    record = await export_and_check(fake_discord, parlor, channel, alice, tmp_path, "timeout")
    assert record["result"]["winners"] == [str(alice.id)]

    record["result"]["winners"] = [str(bob.id)]
    record["result"]["idle"] = [str(alice.id)]
    path = tmp_path / "swapped.json"
    path.write_text(json.dumps(record))
    swapped = offline(path)
    assert swapped.returncode == 1 and "a claim here gives the result" in swapped.stdout, swapped.stdout


async def test_an_abandoned_game_verifies(fake_discord, parlor, tmp_path):
    channel, alice, bob = await two_players(fake_discord, "abandoned", "john-henry")
    for user in (alice, bob):
        await fake_discord.slash(user, "roll", channel=channel)
    await fake_discord.slash(bob, "game abandon", channel=channel)
    record = await export_and_check(fake_discord, parlor, channel, bob, tmp_path, "abandoned")
    assert record["result"] is None

    final = table(fake_discord, channel)
    assert [b["label"] for b in final.buttons()] == ["New game", "Replay"], "an abandoned game's table offers New game"
    opened = await fake_discord.click(alice, final, final.button(label="New game")["custom_id"])
    assert not opened.ephemeral
    lobby = await parlor.host.last_session_in(str(channel.id))
    assert lobby.status == "lobby" and lobby.slug == "john-henry" and lobby.player_ids == [str(alice.id)]
    assert not final.buttons(), "the old table's buttons go once the next game opens"
