"""`/game replay` and the Replay button (issue 45): a finished game's animated replay, to the asker alone with
Share; the picture has one frame per update of the table and alt text that sums the game up."""

from __future__ import annotations

import io

from PIL import Image

from bot.client import ParlorBot
from tests.e2e.helpers import table
from tests.e2e.test_replay_in_a_worker_e2e import a_finished_game
from tests.e2e.test_share_e2e import share_button
from tests.fakediscord import FakeDiscord


async def test_replay_answers_privately_with_a_frame_per_update_and_share_posts_it(fake_discord: FakeDiscord,
                                                                                   parlor: ParlorBot):
    alice, bob, channel, session = await a_finished_game(fake_discord, parlor)
    moves = await parlor.host.moves(session)
    asked = await fake_discord.slash(bob, "game replay", channel=channel)
    await fake_discord.wait_for(lambda: asked.response.attachments, what="the replay")
    private = asked.response
    assert asked.ephemeral and private.visible_to == bob.id
    [picture] = private.attachments
    assert picture.description.startswith(f"Replay of John Henry #{session.id}: alice and bob; won by ")
    assert f"{len(moves)} moves in {len(moves) + 1} frames" in picture.description
    with Image.open(io.BytesIO(picture.data)) as animation:
        assert animation.n_frames == len(moves) + 1, "the table as the game began, then one per move"

    final = table(fake_discord, channel)
    replay = final.button(label="Replay")
    pressed = await fake_discord.click(alice, final, replay["custom_id"])
    await fake_discord.wait_for(lambda: pressed.response is not None and pressed.response.attachments,
                                what="the Replay button's answer")
    assert pressed.response.visible_to == alice.id

    await fake_discord.click(bob, private, share_button(private))
    await fake_discord.wait_for(lambda: private.buttons() == [], what="the Share button to go")
    posted = fake_discord.messages(channel)[-1]
    assert posted.content.startswith("Shared by bob:") and posted.attachments[0].data == picture.data


async def test_replay_with_no_finished_game_in_the_channel_is_refused(fake_discord: FakeDiscord, parlor: ParlorBot):
    alice = fake_discord.create_user("alice")
    channel = fake_discord.channel("games")
    asked = await fake_discord.slash(alice, "game replay", channel=channel)
    await fake_discord.wait_for(lambda: asked.response.content, what="the refusal")
    assert asked.ephemeral and "No game has ended in this channel yet" in asked.response.content
