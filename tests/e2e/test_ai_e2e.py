"""Playing against Parlor's AI end to end: the real bot, the fake Discord, a person pressing what he sees.

The AI moves through the host after its pause (here none: `no_pause` yields once, no wall-clock
sleep) with a small fixed search, and its moves are posted like anyone's. A person (alice) presses
random components of what she can see whenever the game waits on her (tests/e2e/random_play.py).
"""

from __future__ import annotations

import asyncio
import json
import random

import pytest

from bot.client import ParlorBot
from tests.bot.conftest import FakeClock
from tests.e2e.helpers import table
from tests.e2e.random_play import RandomPlay
from tests.e2e.test_dice_e2e import reply
from tests.fakediscord import FakeDiscord
from tests.fakediscord.state import FakeChannel, FakeUser

HOUR = 3600.0


async def no_pause(seconds: float) -> None:
    await asyncio.sleep(0)


def said(message) -> str:
    """A message's text and its embeds' text."""
    return (message.content or "") + " ".join(str(embed) for embed in message.embeds)


async def play_out(bot: ParlorBot, channel: FakeChannel, limit: int = 400) -> None:
    """Play the channel's game to its end through the host, each player to act taking his first legal move;
    then its table shows the end (each move's table went out as its commit landed: bot.discord.table)."""
    for _ in range(limit):
        session = await bot.host.last_session_in(str(channel.id))
        if session.status != "active":
            await bot.tables.show(session.id)
            return
        player = bot.host.to_act(session)[0]
        await bot.host.act(session.id, player, bot.host.legal_actions(session, player)[0])


def quick_ai(bot: ParlorBot) -> None:
    assert bot.ai is not None
    bot.ai.sleep = no_pause
    bot.ai.iterations = 8
    seeds = iter(range(1, 1_000_000))
    bot.ai.seed_source = lambda: next(seeds)


async def play_with_the_ai(fake: FakeDiscord, bot: ParlorBot, game: RandomPlay, limit: int) -> None:
    for _ in range(limit):
        before = game.signature()
        await bot.ai.idle()
        if game.signature() != before:
            game.panels = {}  # the AI moved: the private replies alice got before are out of date
        session = await game.session()
        if session.status != "active":
            return
        await game.step()
    raise AssertionError(f"the game did not end within {limit} presses")


async def against_the_ai(fake: FakeDiscord, bot: ParlorBot, slug: str, seed: int, *, fill: bool = False,
                         limit: int = 3000):
    quick_ai(bot)
    channel = fake.create_channel(f"{slug}-vs-ai")
    alice = fake.create_user("alice")
    started = await fake.slash(alice, "game start", channel=channel, game=slug, opponent=fake.bot_user)
    assert (await bot.host.last_session_in(str(channel.id))) is not None, said(started.response)
    if fill:
        await fake.slash(alice, "game fill", channel=channel)
    game = RandomPlay(fake, bot, channel, [alice], random.Random(seed))
    assert (await game.session()).status == "active"
    await play_with_the_ai(fake, bot, game, limit)
    session = await game.session()
    assert session.status == "finished" and session.end_reason == "played out"
    assert session.result["ai_seats"] == [p for p in session.player_ids if p.startswith("ai-")]
    moves = await bot.host.moves(session)
    assert {"ai-1", str(alice.id)} <= {move.player for move in moves}, "both sides moved"
    replayed = await bot.host.replay(session.id)
    assert replayed.model_dump() == bot.host.state_of(session).model_dump(), "the AI's moves replay"
    texts = " ".join(said(m) for m in fake.messages(channel))
    assert "Parlor (AI)" in texts, "the AI seat is named as such"
    return session, alice


@pytest.mark.parametrize("slug", ["john-henry", "two-fat-dudes", "follow-the-arrow"])
async def test_a_whole_game_against_the_ai(fake_discord, parlor, slug):
    await against_the_ai(fake_discord, parlor, slug, seed=len(slug))


async def test_johari_bones_with_every_empty_seat_filled_by_the_ai(fake_discord, parlor):
    session, _ = await against_the_ai(fake_discord, parlor, "johari-bones", seed=5, fill=True)
    assert [seat.id for seat in session.players][1:] == ["ai-1", "ai-2", "ai-3"]


async def test_stats_count_the_game_against_the_ai_apart(fake_discord, parlor):
    _, alice = await against_the_ai(fake_discord, parlor, "john-henry", seed=9)
    general = fake_discord.create_channel("general")
    shown = await fake_discord.slash(alice, "stats", channel=general)
    text = shown.response.content
    assert "John Henry with Parlor (AI): 1 played" in text and "All games with Parlor (AI): 1 played" in text
    ai_record = (await fake_discord.slash(alice, "stats", channel=general, user=fake_discord.bot_user)).response
    assert ai_record.content.startswith("**Parlor (AI) on this server:**\nThe games in which it had a seat of its own")
    assert "• John Henry: 1 played" in ai_record.content, "Parlor (AI) does not play with itself"
    assert "between people" not in ai_record.content, "the AI never plays a game between people"


async def idle_bob(fake: FakeDiscord, parlor: ParlorBot) -> tuple[FakeChannel, FakeUser, FakeUser, FakeClock]:
    """A John Henry game in which alice rolls for first player and bob never does, on a clock the test moves."""
    quick_ai(parlor)
    clock = FakeClock()
    parlor.host.clock = clock
    channel = fake.create_channel("stand-in")
    alice, bob = fake.create_user("alice"), fake.create_user("bob")
    await fake.slash(alice, "game start", channel=channel, game="john-henry", opponent=bob)
    await fake.slash(bob, "game join", channel=channel)
    await fake.slash(alice, "roll", channel=channel)
    return channel, alice, bob, clock


async def test_a_substitute_after_the_turn_clock_then_the_player_returns(fake_discord, parlor):
    channel, alice, bob, clock = await idle_bob(fake_discord, parlor)
    early = await fake_discord.slash(alice, "game substitute", channel=channel)
    assert "not run out yet" in said(early.response)
    clock.advance(49 * HOUR)
    stood_in = await fake_discord.slash(alice, "game substitute", channel=channel)
    assert "now plays for bob" in said(stood_in.response), said(stood_in.response)
    await parlor.ai.idle()  # the AI rolls for bob at once: its table replaces the one just posted
    assert "plays for bob until" in said(table(fake_discord, channel)), "the table says who the AI plays for"
    session = await parlor.host.last_session_in(str(channel.id))
    assert session.ai_played == [str(bob.id)]
    assert any(move.player == str(bob.id) for move in await parlor.host.moves(session)), "the AI rolled for bob"

    # Play on until it is bob's seat's turn again, with alice rolling and the AI playing for bob.
    for _ in range(200):
        session = await parlor.host.last_session_in(str(channel.id))
        if session.status != "active" or str(alice.id) not in parlor.host.to_act(session):
            break
        await fake_discord.slash(alice, "roll", channel=channel)
        await parlor.ai.idle()
        if len(await parlor.host.moves(session)) > 6:
            break
    refused = await fake_discord.slash(bob, "roll", channel=channel)
    assert "/game return" in said(refused.response)

    back = await fake_discord.slash(bob, "game return", channel=channel)
    assert "own seat again" in said(back.response)
    assert "plays for bob" not in said(table(fake_discord, channel))
    session = await parlor.host.last_session_in(str(channel.id))
    assert session.ai_played == [] and session.players[1].stand_ins
    again = await fake_discord.slash(bob, "game return", channel=channel)
    assert "not playing for you" in said(again.response)

    await play_out(parlor, channel)  # the two people
    await parlor.ai.idle()
    final = await parlor.host.last_session_in(str(channel.id))
    assert final.status == "finished"
    assert final.result["stand_ins"] == {str(bob.id): session.players[1].stand_ins}, "the result says who played"


async def test_a_rematch_after_a_stand_in_seats_the_idle_player_himself(fake_discord, parlor):
    """Bob went idle and the AI finished the game for him. The rematch is a new game with the same players in
    the same seats: bob's own, not the AI's (it used to roll his roll-off at once, the table saying "Parlor (AI)
    plays for bob"), and its record names no stand-in."""
    fake = fake_discord
    channel, alice, bob, clock = await idle_bob(fake, parlor)
    clock.advance(49 * HOUR)
    await fake.slash(alice, "game substitute", channel=channel)
    await parlor.ai.idle()
    for _ in range(400):
        session = await parlor.host.last_session_in(str(channel.id))
        if session.status != "active":
            break
        if str(alice.id) in parlor.host.to_act(session):
            await fake.slash(alice, "roll", channel=channel)
        await parlor.ai.idle()
    assert session.status == "finished" and session.ai_played == [str(bob.id)]

    rematch = await fake.slash(alice, "game rematch", channel=channel)
    assert not rematch.ephemeral, rematch.text
    await parlor.ai.idle()
    new = await parlor.host.last_session_in(str(channel.id))
    assert new.id != session.id and new.ai_played == [] and not any(seat.stand_ins for seat in new.players)
    assert not await parlor.host.moves(new), "the AI rolled for bob"
    assert "plays for bob" not in said(table(fake, channel))

    await play_out(parlor, channel)  # the two people
    exported = await reply(await fake.slash(alice, "game export", channel=channel))
    record = json.loads(exported.attachments[0].data)
    assert record["end"] == "played out" and record["stand_ins"] == {} and record["ai_seats"] == [], record["stand_ins"]


async def test_a_whole_game_of_crayon_rails_against_the_ai(fake_discord, parlor):
    seeds = iter(range(3, 10_000))
    parlor.host._seed_source = lambda: next(seeds)  # the same deck every run, so the game surely ends
    session, _ = await against_the_ai(fake_discord, parlor, "crayon-rails", seed=1, limit=4000)
    assert session.result["winners"], "someone met the victory conditions"


async def test_a_reminder_against_the_ai_promises_no_claim(fake_discord, parlor):
    """The AI never claims, and nobody else seated could: Alice's reminders leave the claim out."""
    quick_ai(parlor)
    clock = FakeClock()
    parlor.host.clock = parlor.dispatcher.clock = clock
    channel = fake_discord.create_channel("vs-ai")
    alice = fake_discord.create_user("alice")
    await fake_discord.slash(alice, "game start", channel=channel, game="john-henry", opponent=fake_discord.bot_user)
    await parlor.ai.idle()
    assert parlor.host.to_act(await parlor.host.last_session_in(str(channel.id))) == [str(alice.id)]
    before = len(fake_discord.messages(channel))
    for _ in range(3):
        clock.advance(20 * HOUR)
        await parlor.dispatcher.dispatch_due()
    reminders = [m.content for m in fake_discord.messages(channel)[before:] if m.content.startswith("⏰")]
    assert len(reminders) >= 2, "alice is reminded, before and after her clock runs out"
    assert not [text for text in reminders if "claim" in text], reminders
