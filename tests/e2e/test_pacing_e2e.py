"""Days-long games end to end (issue 43): `/preferences` and `/away` through the fake Discord, and an autoplayed
roll shown in the channel, on SQLite and on PostgreSQL."""

from __future__ import annotations

import time

import pytest

from tests.e2e.helpers import table

pytestmark = pytest.mark.both_databases


async def test_preferences_are_saved_and_shown(fake_discord, parlor):
    alice, general = fake_discord.create_user("alice"), fake_discord.channel("general")
    saved = await fake_discord.slash(alice, "preferences", channel=general, timezone="asia/tokyo", quiet="23-07",
                                     autoplay="on")
    assert saved.ephemeral
    assert saved.response.content.startswith("Saved. Time zone: Asia/Tokyo. Quiet hours: 23:00–07:00")
    assert "Autoplay: on" in saved.response.content
    refused = await fake_discord.slash(alice, "preferences", channel=general, quiet="20-10")
    assert refused.ephemeral and "at most 12 hours" in refused.response.content
    shown = await fake_discord.slash(alice, "preferences", channel=general)
    assert shown.response.content.startswith("Time zone: Asia/Tokyo.")


async def test_away_freezes_the_claim_and_a_move_ends_it(fake_discord, parlor):
    alice, bob = fake_discord.create_user("alice"), fake_discord.create_user("bob")
    games = fake_discord.channel("games")
    await fake_discord.slash(alice, "game start", channel=games, game="john-henry")
    await fake_discord.slash(bob, "game join", channel=games)
    away = await fake_discord.slash(alice, "away for", channel=games, days=3, reason="wedding")
    assert away.ephemeral and "You are away until <t:" in away.response.content
    assert "Away days left this year: 11" in away.response.content
    note = await fake_discord.wait_for_message(games, lambda m: "is away until <t:" in (m.content or ""))
    assert "wedding" not in note.content, "the reason is his own"
    session = await parlor.host.last_session_in(str(games.id))
    await parlor.host.act(session.id, str(bob.id), {"type": "roll"})  # the roll-off waits on Alice alone now
    status = await fake_discord.slash(bob, "game status", channel=games)
    said = status.response.embeds[0]["description"]
    assert f"🏝️ {alice.mention} is away until <t:" in said and f"⏰ Next reminder for {alice.mention}: <t:" in said
    assert "⌛ Turn clock: the others may `/game claim` in 5 d if nobody moves" in said, "48 h, frozen 3 days"
    off = await fake_discord.slash(alice, "away off", channel=games)
    assert "Welcome back" in off.response.content and "left this year: 13" in off.response.content


async def test_the_digest_is_a_dm_listing_the_games_waiting_on_him(fake_discord, parlor):
    alice, bob = fake_discord.create_user("alice"), fake_discord.create_user("bob")
    games, general = fake_discord.channel("games"), fake_discord.channel("general")
    chosen = await fake_discord.slash(alice, "notify", channel=general, state="digest", hour=7)
    assert chosen.ephemeral and chosen.response.content.startswith("One digest a day at 07:00 UTC")
    await fake_discord.slash(alice, "game start", channel=games, game="two-fat-dudes")
    await fake_discord.slash(bob, "game join", channel=games)
    await parlor.host.store.pacing.set_player(str(alice.id), digest_due=time.time() - 1)
    await parlor.digests.send_due()
    digest = await fake_discord.wait_for_dm(alice, lambda m: "daily digest" in m.content)
    link = f"https://discord.com/channels/{fake_discord.guild.id}/{games.id}"
    assert "1 game waiting on you" in digest.content
    assert "Two Fat Dudes in a Narrow Hallway #1, waiting" in digest.content
    assert link in digest.content
    assert not [m for m in fake_discord.dms(alice) if "It's your turn" in m.content], "no DM per turn"
    off = await fake_discord.slash(alice, "notify", channel=general, state="off")
    assert off.response.content.startswith("No more daily digest")


async def test_an_autoplayed_roll_is_said_in_the_channel_and_the_table_moves_on(fake_discord, parlor):
    alice, bob = fake_discord.create_user("alice"), fake_discord.create_user("bob")
    games = fake_discord.channel("games")
    await fake_discord.slash(alice, "preferences", channel=games, autoplay="on")
    await fake_discord.slash(alice, "game start", channel=games, game="john-henry")
    await fake_discord.slash(bob, "game join", channel=games)  # a roll-off: each has one roll to make
    await parlor.autoplay.idle()
    store = parlor.host.store
    [(session_id, player, due)] = await store.pacing.due_autoplays(time.time() + 121)
    assert player == str(alice.id) and due > time.time() + 100, "after the grace, not at once"
    await store.pacing.take_autoplay(session_id, player)
    await store.pacing.schedule_autoplay(session_id, player, time.time() - 1)  # the grace is over
    assert await parlor.autoplay.play_due() == 1
    said = await fake_discord.wait_for_message(games, lambda m: "(autoplay)" in (m.content or ""))
    assert said.content == f"🎲 Rolled for {alice.mention} (autoplay)." and said.pinged == []
    moves = await parlor.host.moves(await parlor.host.session(session_id))
    assert [(move.player, move.action) for move in moves] == [(str(alice.id), {"type": "roll"})]
    await fake_discord.wait_for(lambda: table(fake_discord, games).content == f"{bob.mention}: your turn.",
                                what="the table waiting on Bob alone")
