"""Playing over a day end to end: the real bot (`parlor`, tests/conftest.py) against the fake Discord,
on SQLite and on PostgreSQL."""

from __future__ import annotations

import asyncio

import pytest

from tests.bot.conftest import FakeClock
from tests.conftest import start_bot
from tests.e2e.helpers import table
from tests.fakediscord import CommandError

pytestmark = pytest.mark.both_databases


async def test_an_opted_in_player_gets_a_dm_with_a_link_when_his_turn_comes(fake_discord, parlor):
    alice, bob = fake_discord.create_user("alice"), fake_discord.create_user("bob")
    games, general = fake_discord.channel("games"), fake_discord.channel("general")
    opted = await fake_discord.slash(alice, "notify", channel=general, state="on")
    assert opted.ephemeral and "direct message" in opted.response.content
    [confirmation] = fake_discord.dms(alice)
    assert "Turn notices are on" in confirmation.content

    await fake_discord.slash(alice, "game start", channel=games, game="two-fat-dudes")
    began = await fake_discord.slash(bob, "game join", channel=games)
    assert not began.ephemeral
    assert f"{alice.mention}, {bob.mention}: your turn." == table(fake_discord, games).content, "both roll to start"

    notice = await fake_discord.wait_for_dm(alice, lambda m: "It's your turn" in m.content)
    link = f"https://discord.com/channels/{fake_discord.guild.id}/{games.id}"
    assert link in notice.content and "your turn in Two Fat Dudes" in notice.content
    assert fake_discord.dms(bob) == [], "Bob did not ask for turn messages"


async def test_notify_on_with_closed_dms_says_so_at_once_and_stays_off(fake_discord, parlor):
    alice = fake_discord.create_user("alice")
    fake_discord.refuse_dms(alice)
    refused = await fake_discord.slash(alice, "notify", channel=fake_discord.channel("general"), state="on")
    assert refused.ephemeral and "can't send you direct messages" in refused.response.content
    assert await parlor.host.store.turn_dm_users([str(alice.id)]) == set()


async def test_notify_on_again_says_they_were_already_on_and_sends_no_second_dm(fake_discord, parlor):
    """The confirming DM comes when notices go from off to on; asking again only says they are on."""
    alice, general = fake_discord.create_user("alice"), fake_discord.channel("general")
    await fake_discord.slash(alice, "notify", channel=general, state="on")
    assert len(fake_discord.dms(alice)) == 1
    again = await fake_discord.slash(alice, "notify", channel=general, state="on")
    assert again.ephemeral and again.response.content.startswith("Turn notices were already on")
    assert len(fake_discord.dms(alice)) == 1, "no second confirmation"
    assert await parlor.host.store.turn_dm_users([str(alice.id)]) == {str(alice.id)}

    await fake_discord.slash(alice, "notify", channel=general, state="off")
    off_again = await fake_discord.slash(alice, "notify", channel=general, state="off")
    assert off_again.ephemeral and off_again.response.content.startswith("Turn notices were already off")
    back_on = await fake_discord.slash(alice, "notify", channel=general, state="on")
    assert "direct message" in back_on.response.content and len(fake_discord.dms(alice)) == 2, "off to on again"


async def test_notify_on_again_after_a_refused_turn_notice_tries_a_dm_and_says_if_it_fails(fake_discord, parlor):
    """Notices on, then DMs closed: her turn notice is refused. /notify on again used to answer "already on: I'll
    send you a direct message", which cannot reach her. It tries a DM as turning them on does (docs/players.md), and
    says so if it is refused; with her DMs open again, it confirms by DM. Notices stay on all along."""
    fake = fake_discord
    alice, bob = fake.create_user("alice"), fake.create_user("bob")
    games, general = fake.channel("games"), fake.channel("general")
    assert "direct message" in (await fake.slash(alice, "notify", channel=general, state="on")).text
    fake.refuse_dms(alice)
    await fake.slash(alice, "game start", channel=games, game="two-fat-dudes")
    await fake.slash(bob, "game join", channel=games)
    await fake.wait_for(lambda: any(code == 50007 for *_, code in fake.http_errors), what="the refused turn notice")
    for _ in range(1000):  # the bot marks her after it reads the refusal: each look is a read of the database
        if await parlor.host.store.dms_closed_users([str(alice.id)]):
            break
    assert await parlor.host.store.dms_closed_users([str(alice.id)]), "the refused notice marks her"
    refused = len(fake.http_errors)

    again = await fake.slash(alice, "notify", channel=general, state="on")
    text = again.text or (await again.wait_for_followup()).content
    assert again.ephemeral and "can't send you direct messages" in text and "Turn notices are on" in text, text
    assert len(fake.http_errors) == refused + 1, "tried at once"
    assert await parlor.host.store.dms_closed_users([str(alice.id)]) == {str(alice.id)}, "marked again"

    fake.refuse_dms(alice, False)
    opened = await fake.slash(alice, "notify", channel=general, state="on")
    text = opened.text or (await opened.wait_for_followup()).content
    assert text.startswith("I'll send you a direct message"), text
    assert fake.dms(alice)[-1].content.startswith("Turn notices are on")
    assert await parlor.host.store.turn_dm_users([str(alice.id)]) == {str(alice.id)}
    again = await fake.slash(alice, "notify", channel=general, state="on")
    assert again.response.content.startswith("Turn notices were already on"), "no mark now: no second DM"


async def test_game_list_shows_two_games_in_two_channels(fake_discord, parlor):
    alice, bob, carol = (fake_discord.create_user(name) for name in ("alice", "bob", "carol"))
    games, lounge, general = (fake_discord.channel(name) for name in ("games", "lounge", "general"))
    await fake_discord.slash(alice, "game start", channel=games, game="two-fat-dudes")
    await fake_discord.slash(bob, "game join", channel=games)
    await fake_discord.slash(carol, "game start", channel=lounge, game="johari-bones")
    await fake_discord.slash(alice, "game join", channel=lounge)

    listed = await fake_discord.slash(alice, "game list", channel=general)
    assert listed.ephemeral
    lines = listed.response.content.splitlines()
    guild = fake_discord.guild.id
    assert lines[0] == "**Your games on this server:**"
    assert lines[1] == f"• Johari Bones #2 in https://discord.com/channels/{guild}/{lounge.id}: lobby, 2 joined"
    assert lines[2].startswith(f"• Two Fat Dudes in a Narrow Hallway #1 in https://discord.com/channels/{guild}/"
                               f"{games.id}: **your turn** (with bob), for ")
    assert len(lines) == 3

    in_dm = await fake_discord.slash(carol, "game list", channel=fake_discord.dm_channel(carol))
    assert "Your games:" in in_dm.response.content and f"/{lounge.id}" in in_dm.response.content
    assert f"/{games.id}" not in in_dm.response.content


async def test_only_manage_server_changes_the_periods(fake_discord, parlor):
    alice, moderator = fake_discord.create_user("alice"), fake_discord.create_user("mod", moderator=True)
    general = fake_discord.channel("general")
    with pytest.raises(CommandError, match="needs permissions"):
        await fake_discord.slash(alice, "settings reminder", channel=general, hours=1.0)
    saved = await fake_discord.slash(moderator, "settings reminder", channel=general, hours=6.0)
    assert saved.ephemeral and saved.response.content.startswith("Saved. Reminders every 6 h")
    clock = await fake_discord.slash(moderator, "settings clock", channel=general)
    assert "after 48 h" in clock.response.content and "every 6 h" in clock.response.content


async def test_a_changed_reminder_period_is_told_as_such(fake_discord, parlor):
    """Setting the reminder told the moderator that "a game already waiting longer than the new clock may be
    claimed now", though he had not changed the clock."""
    moderator, general = fake_discord.create_user("mod", moderator=True), fake_discord.channel("general")
    told = (await fake_discord.slash(moderator, "settings reminder", channel=general, hours=6.0)).response.content
    assert "next reminder follows the new period" in told and "clock" not in told and "claimed" not in told, told
    told = (await fake_discord.slash(moderator, "settings clock", channel=general, hours=24.0)).response.content
    assert "may be claimed now" in told and "reminder follows" not in told, told


async def test_a_changed_clock_counts_at_once_as_the_moderator_is_told(fake_discord, parlor):
    clock = FakeClock()
    parlor.host.clock = parlor.dispatcher.clock = clock
    alice, bob = fake_discord.create_user("alice"), fake_discord.create_user("bob")
    moderator = fake_discord.create_user("mod", moderator=True)
    channel = fake_discord.channel("games")
    await fake_discord.slash(alice, "game start", channel=channel, game="john-henry", opponent=bob)
    await fake_discord.slash(bob, "game join", channel=channel)
    await fake_discord.slash(alice, "roll", channel=channel)  # the roll-off waits on bob alone
    clock.advance(2 * 3600)
    assert "not run out yet" in (await fake_discord.slash(alice, "game claim", channel=channel)).response.content
    told = (await fake_discord.slash(moderator, "settings clock", channel=channel, hours=1.0)).response.content
    assert "use it at once" in told and "may be claimed now" in told
    claimed = await fake_discord.slash(alice, "game claim", channel=channel)
    assert not claimed.ephemeral, "what the moderator was told holds: bob's running turn is past the new clock"
    assert (await parlor.host.last_session_in(str(channel.id))).end_reason == "timeout"


async def test_channel_commands_refuse_in_direct_messages(fake_discord, parlor):
    alice = fake_discord.create_user("alice")
    refused = await fake_discord.slash(alice, "game start", channel=fake_discord.dm_channel(alice),
                                       game="john-henry")
    assert refused.ephemeral and "server channel" in refused.response.content
    assert "where you want to play" in refused.response.content, "no game is played anywhere yet"
    assert await parlor.host.store.sessions_where("1 = 1") == []
    claim = await fake_discord.slash(alice, "game claim", channel=fake_discord.dm_channel(alice))
    assert "in the server channel where the game is played" in claim.response.content


async def test_a_reminder_on_its_way_when_the_bot_stops_is_delivered(fake_discord, tmp_path):
    """Its timer is marked fired before it is sent: a graceful stop that cut it off would lose it for good, so the
    stop lets it land first (bounded, as for the interactions in flight)."""
    bot, task = await start_bot(fake_discord, str(tmp_path / "parlor.sqlite3"))
    clock = FakeClock()
    bot.host.clock = bot.dispatcher.clock = clock
    alice, bob = fake_discord.create_user("alice"), fake_discord.create_user("bob")
    channel = fake_discord.channel("games")
    await fake_discord.slash(alice, "game start", channel=channel, game="john-henry", opponent=bob)
    await fake_discord.slash(bob, "game join", channel=channel)
    await fake_discord.slash(alice, "roll", channel=channel)  # the roll-off waits on bob alone
    path = f"/api/v10/channels/{channel.id}/messages"
    posts = lambda: sum(1 for method, where, _ in fake_discord.world.requests if (method, where) == ("POST", path))  # noqa: E731
    before, held = posts(), fake_discord.hold("POST", f"/channels/{channel.id}/messages")
    clock.advance(13 * 3600)
    bot.dispatcher.wake(0)
    await fake_discord.wait_for(lambda: posts() > before, what="the reminder on its way")
    stopping = asyncio.create_task(bot.dispatcher.stop(grace=60))  # as the bot's close() stops it
    for _ in range(10):
        await asyncio.sleep(0)  # a few turns of the loop, no time passing
    assert not stopping.done(), "the stop waits for the reminder on its way"
    held.set()  # Discord takes it at last
    await stopping
    await bot.close()
    await task
    reminded = [m for m in fake_discord.messages(channel) if (m.content or "").startswith("⏰")]
    assert len(reminded) == 1 and f"<@{bob.id}>" in reminded[0].content
