"""`/game history` and `/stats` post nothing public; **Share** posts one copy (issue 21, item 6; bot.discord.share)."""

from __future__ import annotations

from tests.e2e.test_john_henry_e2e import start_game
from tests.fakediscord import FakeDiscord


async def finished_game(fake: FakeDiscord, parlor, channel, alice, bob) -> None:
    await start_game(fake, channel, alice, bob)
    session = await parlor.host.last_session_in(str(channel.id))
    for _ in range(400):
        session = await parlor.host.session(session.id)
        if session.status != "active":
            await parlor.tables.show(session.id)  # the table as the game ended (moves' own tables all sent)
            return
        player = parlor.host.to_act(session)[0]
        await parlor.host.act(session.id, player, parlor.host.legal_actions(session, player)[0])
    raise AssertionError("the game did not end")


async def test_history_and_stats_post_nothing_public_until_shared(fake_discord, parlor):
    fake = fake_discord
    alice, bob, carol = (fake.create_user(name) for name in ("alice", "bob", "carol"))
    channel = fake.channel("games")
    await finished_game(fake, parlor, channel, alice, bob)

    for command, options, heading in (("game history", {}, "**Past games in this channel:**"),
                                      ("stats", {"user": alice}, "**alice on this server:**")):
        public = list(fake.messages(channel))
        asked = await fake.slash(carol, command, channel=channel, **options)
        answer = asked.response
        assert asked.ephemeral and answer.visible_to == carol.id, f"/{command} answers privately"
        assert answer.content.startswith(heading), answer.content
        assert fake.messages(channel) == public, f"/{command} posts nothing public"

        await fake.click(carol, answer, answer.button(label="Share")["custom_id"])
        seen = len(public)
        await fake.wait_for(lambda seen=seen: len(fake.messages(channel)) > seen, what="the public copy")
        await fake.wait_for(lambda answer=answer: not answer.buttons(), what="the Share button to go")
        copies = [m for m in fake.messages(channel) if m not in public]
        assert len(copies) == 1 and copies[0].content == f"Shared by carol:\n{answer.content}", copies[0].content
        assert copies[0].pinged == [] and not copies[0].buttons(), "the copy mentions nobody and has no buttons"
        assert not answer.buttons(), "the private answer loses its Share button: one answer is shared once"

    dm = await fake.slash(alice, "game verify", channel=fake.dm_channel(alice))
    assert not dm.response.buttons(), "a refusal offers nothing to share"
