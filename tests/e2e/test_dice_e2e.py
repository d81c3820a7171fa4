"""Committed dice end to end: the seed never leaves the bot while a game runs, and checks out once it ends.

Everything the bot sent to the fake Discord (every request body: messages, edits, DMs, files, replies)
and every log line at DEBUG is searched for the seed and for everything derived from it (each step's
key, in hex and base64, and Johari Bones' shuffled deal) while the game runs. Then the final table
reveals the seed, `/game export` sends the record and `/game verify` checks it (and names a tampered
move).
"""

from __future__ import annotations

import base64
import json

from bot.client import ParlorBot
from games.dice import commitment, seed_bytes, step_key
from games.verify import parse_record, verify
from tests.debug_log import DebugLog
from tests.e2e.helpers import latest_board, table
from tests.e2e.test_john_henry_e2e import start_game, take_turn
from tests.fakediscord import FakeDiscord
from tests.fakediscord.interactions import InteractionResult
from tests.fakediscord.state import FakeChannel, FakeMessage

MAX_STEPS = 400


def forms(raw: bytes) -> list[bytes]:
    """The ways a secret could be written: hex (either case), base64 (both alphabets), raw bytes."""
    return [raw.hex().encode(), raw.hex().upper().encode(), base64.b64encode(raw),
            base64.urlsafe_b64encode(raw), raw]


def secrets_of(seed: str, steps: int, deal: list | None = None) -> list[bytes]:
    """The seed and what is derived from it that nobody may see before the end."""
    found = forms(seed_bytes(seed))
    for seq in range(steps + 3):
        found += forms(step_key(seed, seq))
    if deal is not None:
        found += [json.dumps(deal).encode(), ", ".join(deal).encode(), " ".join(deal).encode()]
    return found


def assert_never_sent(secrets: list[bytes], bodies: list[bytes], logged: str, what: str) -> None:
    assert bodies, "the bot sent nothing: the scan would prove nothing"
    for secret in secrets:
        for body in bodies:
            assert secret not in body, f"{what}: a request body carries the seed or something derived from it"
        assert secret.decode("latin-1") not in logged, f"{what}: a log line carries the seed or its derivations"


async def reply(result: InteractionResult) -> FakeMessage:
    """The answer to a command, whether sent at once or after "thinking" (a refusal then replaces it)."""
    if result.deferred and not result.messages:
        return await result.wait_for_followup()
    assert result.messages, "the command was answered"
    return result.messages[-1]


def bodies(fake: FakeDiscord, start: int = 0, end: int | None = None) -> list[bytes]:
    return [bytes(body) for _, _, body in fake.world.requests[start:end]]


async def test_john_henry_keeps_its_seed_secret_until_the_end_then_checks_out(fake_discord, parlor: ParlorBot):
    fake = fake_discord
    alice, bob = fake.create_user("alice"), fake.create_user("bob")
    channel = fake.channel("games")
    with DebugLog() as log:
        await start_game(fake, channel, alice, bob)
        session = await parlor.host.last_session_in(str(channel.id))
        seed = session.dice_seed
        assert f"Dice commitment: `{commitment(seed)}`" in latest_board(fake, channel).text

        refused = await fake.slash(bob, "game export", channel=channel)
        assert refused.ephemeral and "still running" in (await reply(refused)).content
        refused = await fake.slash(bob, "game verify", channel=channel)
        assert refused.ephemeral and "still running" in (await reply(refused)).content

        running_until = 0
        for step in range(MAX_STEPS):
            if (await parlor.host.session(session.id)).status != "active":
                break
            running_until = len(fake.world.requests)
            await take_turn(fake, channel, [alice, bob], step)
        moves = len(await parlor.host.moves(session))
        assert_never_sent(secrets_of(seed, moves), bodies(fake, 0, running_until), log.getvalue(),
                          "while John Henry ran")

    over = await parlor.host.session(session.id)
    assert over.status == "finished"
    final = latest_board(fake, channel).text
    assert seed in final and commitment(seed) in final, "the final table reveals the seed"

    exported = await reply(await fake.slash(bob, "game export", channel=channel))
    assert exported.ephemeral
    data = exported.attachments[0].data
    record = parse_record(data)
    assert (record.seed, record.commitment, record.game_id) == (seed, commitment(seed), session.id)
    assert len(record.moves) == moves and record.result == over.result
    assert verify(record).ok

    checked = await reply(await fake.slash(alice, "game verify", channel=channel,
                                           record=fake.upload("record.json", data)))
    assert checked.ephemeral and "The record checks out" in checked.content
    assert "every die and shuffle comes from the seed" in checked.content

    tampered = json.loads(data)
    index = next(i for i, move in enumerate(tampered["moves"]) if move["outcomes"]["rolls"])
    die = tampered["moves"][index]["outcomes"]["rolls"][0]
    tampered["moves"][index]["outcomes"]["rolls"][0] = 6 if die != 6 else 5
    caught = await reply(await fake.slash(alice, "game verify", channel=channel,
                                          record=fake.upload("record.json", json.dumps(tampered).encode())))
    assert "does not check out" in caught.content
    assert f"move {tampered['moves'][index]['seq']} (" in caught.content

    in_dm = await reply(await fake.slash(bob, "game verify", channel=fake.dm_channel(bob),
                                         record=fake.upload("record.json", data)))
    assert "The record checks out" in in_dm.content, "a record file can be checked in a direct message too"
    bare = await reply(await fake.slash(bob, "game verify", channel=fake.dm_channel(bob)))
    assert "attach a record" in bare.content

    latest = await reply(await fake.slash(bob, "game verify", channel=channel))
    assert "The record checks out" in latest.content, "without a file it checks the channel's latest game"
    junk = await reply(await fake.slash(bob, "game verify", channel=channel,
                                        record=fake.upload("board.png", b"\x89PNG not a record")))
    assert junk.ephemeral and "not JSON" in junk.content and "/game export" in junk.content
    assert "codec" not in junk.content, "no Python error in a player's words"


async def join_johari(fake: FakeDiscord, channel: FakeChannel, users: list) -> None:
    await fake.slash(users[0], "game start", channel=channel, game="johari-bones")
    for user in users[1:]:
        await fake.slash(user, "game join", channel=channel)
    await fake.slash(users[0], "game begin", channel=channel)


async def test_johari_never_shows_its_seed_or_deal_and_an_abandoned_game_reveals_it(fake_discord, parlor):
    fake = fake_discord
    users = [fake.create_user(name) for name in ("alice", "bob", "carol")]
    channel = fake.channel("games")
    with DebugLog() as log:
        await join_johari(fake, channel, users)
        session = await parlor.host.last_session_in(str(channel.id))
        assert session.status == "active"
        seed, deal = session.dice_seed, session.setup_outcomes["shuffles"][0]
        first = await parlor.host.session(session.id)
        player = next(u for u in users if str(u.id) == parlor.host.public_view(first)["to_act"][0])
        await fake.slash(player, "draw", channel=channel)
        for user in users:
            await fake.slash(user, "hand", channel=channel)
        refused = await fake.slash(users[1], "game export", channel=channel)
        assert refused.ephemeral and "secret until the game ends" in (await reply(refused)).content
        moves = len(await parlor.host.moves(session))
        assert moves == 1, "the draw was made"
        assert_never_sent(secrets_of(seed, moves, deal), bodies(fake), log.getvalue(), "while Johari Bones ran")

    abandoned = await fake.slash(users[2], "game abandon", channel=channel)
    assert not abandoned.ephemeral and seed in table(fake, channel).text, "abandoning reveals the seed on the table"
    record = parse_record((await reply(await fake.slash(users[0], "game export", channel=channel)))
                          .attachments[0].data)
    verdict = verify(record)
    assert verdict.ok and record.end == "abandoned" and record.setup.shuffles[0] == deal, verdict.text
