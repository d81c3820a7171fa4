"""The words new players meet (issue 21, item 7), through the fake Discord.

`/game rules` with no game lists the games with their `game:` values; `/endturn` is named as typed;
an invited player is never told to `/game begin`; typed `/swap` and `/place` can name an AI seat
(@Parlor, with `ai:` among several); a bystander told a game stands in his way learns who may abandon it.
"""

from __future__ import annotations

from bot.client import ParlorBot
from games import GAMES
from tests.e2e.helpers import table
from tests.e2e.test_ai_e2e import quick_ai
from tests.e2e.test_dice_e2e import reply
from tests.e2e.test_john_henry_e2e import start_game
from tests.fakediscord import FakeDiscord


def embed_text(message) -> str:
    embed = message.embed
    return " ".join([embed.get("title") or "", embed.get("description") or "",
                     *(f"{field['name']} {field['value']}" for field in embed.get("fields", []))])


async def test_rules_without_a_game_list_every_game_with_its_value(fake_discord: FakeDiscord, parlor: ParlorBot):
    alice = fake_discord.create_user("alice")
    for channel in (fake_discord.create_channel("quiet"), fake_discord.dm_channel(alice)):
        rules = await fake_discord.slash(alice, "game rules", channel=channel)
        assert rules.ephemeral or channel.is_dm
        text = embed_text(rules.response)
        for slug, game in GAMES.items():
            assert f"`game:{slug}`" in text and game.title in text, (slug, text)
        assert "No game has been played" not in text

    channel = fake_discord.create_channel("arrows")
    await fake_discord.slash(alice, "game start", channel=channel, game="follow-the-arrow")
    here = embed_text((await fake_discord.slash(alice, "game rules", channel=channel)).response)
    assert here.startswith("Follow the Arrow: the rules in brief") and "`game:johari-bones`" in here
    assert "`/move pawn:3 to:c4` — a line move" in here, "Commands lines read cleanly"


async def test_endturn_is_named_as_typed(fake_discord: FakeDiscord, parlor: ParlorBot):
    alice, bob = fake_discord.create_user("alice"), fake_discord.create_user("bob")
    channel = fake_discord.create_channel("henry")
    await fake_discord.slash(alice, "game start", channel=channel, game="john-henry", opponent=bob)
    await fake_discord.slash(bob, "game join", channel=channel)
    refused = await reply(await fake_discord.slash(alice, "endturn", channel=channel))
    assert refused.content.startswith("/endturn is a Crayon Rails (public locking) command")
    assert "end_turn" not in refused.content


async def test_an_invited_player_is_never_told_to_begin(fake_discord: FakeDiscord, parlor: ParlorBot):
    alice, bob, carol = (fake_discord.create_user(name) for name in ("alice", "bob", "carol"))
    henry = fake_discord.create_channel("henry")
    await fake_discord.slash(alice, "game start", channel=henry, game="john-henry", opponent=bob)
    lobby = table(fake_discord, henry)
    assert "/game begin" not in (lobby.content or "") + embed_text(lobby), "the lobby card tells bob to join"
    early = await reply(await fake_discord.slash(bob, "roll", channel=henry))
    assert "not begun yet" in early.content and "Join" in early.content
    assert "/game begin" not in early.content and "begins by itself once 2 have joined" in early.content

    bones = fake_discord.create_channel("bones")
    await fake_discord.slash(alice, "game start", channel=bones, game="johari-bones", opponent=carol)
    early = await reply(await fake_discord.slash(carol, "draw", channel=bones))
    assert "/game begin" not in early.content and "alice begins it with **Begin**" in early.content, early.content


async def test_a_player_in_the_lobby_is_not_told_to_join_it(fake_discord: FakeDiscord, parlor: ParlorBot):
    """Alice, who opened the lobby, was told "press **Join** (or `/game join`)" when she tried to play in it."""
    alice, bob = fake_discord.create_user("alice"), fake_discord.create_user("bob")
    henry = fake_discord.create_channel("henry")
    await fake_discord.slash(alice, "game start", channel=henry, game="john-henry", opponent=bob)
    early = await reply(await fake_discord.slash(alice, "roll", channel=henry))
    assert "Join" not in early.content and "you have joined; it begins by itself once 2" in early.content

    bones = fake_discord.create_channel("bones")
    await fake_discord.slash(alice, "game start", channel=bones, game="johari-bones")
    await fake_discord.slash(bob, "game join", channel=bones)
    early = await reply(await fake_discord.slash(alice, "draw", channel=bones))
    assert "Join" not in early.content and "you begin it with **Begin** (or `/game begin`)" in early.content
    early = await reply(await fake_discord.slash(bob, "draw", channel=bones))
    assert "Join" not in early.content and "alice begins it with **Begin**" in early.content, early.content
    await fake_discord.slash(alice, "game leave", channel=bones)
    early = await reply(await fake_discord.slash(bob, "draw", channel=bones))
    assert "you begin it with **Begin**" in early.content, "once alice has left, any player in it begins"


async def test_inviting_yourself_is_refused(fake_discord: FakeDiscord, parlor: ParlorBot):
    """`opponent:` naming herself opened Alice's lobby as if she had invited nobody, without a word."""
    alice = fake_discord.create_user("alice")
    channel = fake_discord.create_channel("henry")
    refused = await fake_discord.slash(alice, "game start", channel=channel, game="john-henry", opponent=alice)
    assert refused.ephemeral and "can't be your own opponent" in (await reply(refused)).content
    assert fake_discord.messages(channel) == [], "no lobby opened"
    assert await parlor.host.store.open_session_in(str(channel.id)) is None


async def alices_turn(parlor: ParlorBot, channel, alice):
    for _ in range(40):
        await parlor.ai.idle()
        session = await parlor.host.last_session_in(str(channel.id))
        if str(alice.id) in parlor.host.to_act(session):
            return session
    raise AssertionError("it never came to alice")


async def test_typed_swap_and_place_name_an_ai_seat(fake_discord: FakeDiscord, parlor: ParlorBot):
    quick_ai(parlor)
    alice, bob = fake_discord.create_user("alice"), fake_discord.create_user("bob")
    parlor_user = fake_discord.bot_user
    channel = fake_discord.create_channel("bones")
    await fake_discord.slash(alice, "game start", channel=channel, game="johari-bones", opponent=parlor_user)
    await fake_discord.slash(alice, "game fill", channel=channel)
    session = await alices_turn(parlor, channel, alice)
    assert session.player_ids[1:] == ["ai-1", "ai-2", "ai-3"]
    made = len(await parlor.host.moves(session))

    vague = await reply(await fake_discord.slash(alice, "swap", channel=channel, kind="up",
                                                 options={"with": parlor_user}))
    assert "`ai:2` for Parlor (AI 2)" in vague.content, vague.content
    wrong = await reply(await fake_discord.slash(alice, "swap", channel=channel, kind="up",
                                                 options={"with": bob, "ai": 2}))
    assert "`ai:` goes with @Parlor" in wrong.content, wrong.content
    assert len(await parlor.host.moves(session)) == made, "refusals change nothing"

    await fake_discord.slash(alice, "swap", channel=channel, kind="up", options={"with": parlor_user, "ai": 2})
    moves = await parlor.host.moves(session)
    assert moves[made].action == {"type": "swap", "kind": "up", "with": "ai-2"}, moves[made].action

    session = await alices_turn(parlor, channel, alice)
    made = len(await parlor.host.moves(session))
    await fake_discord.slash(alice, "draw", channel=channel)
    await fake_discord.slash(alice, "place", channel=channel, target=parlor_user, ai=3, position="out")
    moves = await parlor.host.moves(session)
    assert moves[made + 1].action == {"type": "place", "target": "ai-3", "position": "out"}, moves[made + 1].action


async def test_a_bystander_is_not_sent_to_abandon_a_game_he_may_not(fake_discord: FakeDiscord, parlor: ParlorBot):
    alice, bob, dave = (fake_discord.create_user(name) for name in ("alice", "bob", "dave"))
    channel = fake_discord.channel("games")
    await start_game(fake_discord, channel, alice, bob)
    refused = await fake_discord.slash(dave, "game start", channel=channel, game="johari-bones")
    advice = refused.response.content
    assert refused.ephemeral and "another channel" in advice
    assert "Its players, or members with Manage Channels, may `/game abandon` it" in advice
    followed = await fake_discord.slash(dave, "game abandon", channel=channel)
    assert "Only its players, or members with Manage Channels" in followed.response.content, "what he was told"
