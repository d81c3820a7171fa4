"""A player with closed DMs costs at most one refused DM until he acts again (issue 21, item 5; bot.discord.dm_reach).

A whole game of Johari Bones by random presses, three players, Carol's DMs closed: every change of
her view would send her a panel, and every refusal counts. Between two of Carol's own presses the
bot tries her DMs at most once; she is told once in the channel where to look instead, and her
private view stays one press away (**Show my bones**).
"""

from __future__ import annotations

import random

from bot.storage.store import SessionRecord
from tests.e2e.random_play import Offer, RandomPlay
from tests.fakediscord import FakeDiscord
from tests.fakediscord.interactions import InteractionResult
from tests.fakediscord.state import FakeUser

CANNOT_DM = 50007


def refused_dms(fake: FakeDiscord, user: FakeUser) -> int:
    """How many requests to `user`'s DM channel Discord has refused with 50007 so far."""
    channel = str(fake.dm_channel(user).id)
    return sum(1 for _, path, _, code in fake.http_errors if code == CANNOT_DM and channel in path.split("/"))


class Watched(RandomPlay):
    """Random play that notes the refused DMs to one player each time he presses something."""

    watched: FakeUser | None = None
    marks: list[int]
    _now: SessionRecord | None = None

    def offers(self) -> list[Offer]:
        """He presses only when the game waits on him, so others move many times between his presses."""
        found = super().offers()
        waits_on_him = self._now is not None and str(self.watched.id) in self.bot.host.to_act(self._now)
        return [o for o in found if o.user is not self.watched or waits_on_him] or found

    async def step(self) -> None:
        self._now = await self.session()
        await super().step()

    async def press(self, offer: Offer) -> InteractionResult:
        if offer.user is self.watched:
            self.marks.append(refused_dms(self.fake, offer.user))
        return await super().press(offer)


async def test_a_closed_dm_player_is_tried_at_most_once_until_he_acts(fake_discord, parlor):
    fake = fake_discord
    users = [fake.create_user(name) for name in ("alice", "bob", "carol")]
    carol = users[2]
    fake.refuse_dms(carol)
    channel = fake.channel("games")
    game = Watched(fake, parlor, channel, users, random.Random(21))
    game.watched, game.marks = carol, []
    await game.open("johari-bones")
    assert refused_dms(fake, carol) == 1, "the deal tried her once"
    await game.play_to_the_end()
    game.marks.append(refused_dms(fake, carol))

    assert len(game.marks) > 3, "carol pressed things during the game"
    between = [later - earlier for earlier, later in zip(game.marks, game.marks[1:], strict=False)]
    assert max(between) <= 1, f"refused DMs between two of carol's presses: {between}"
    assert game.marks[-1] < len(game.marks) + 1
    told = [m for m in fake.messages(channel) if "can't send you direct messages" in m.content]
    assert len(told) == 1 and carol.mention in told[0].content and not told[0].pinged, "told once, pinging nobody"
    assert all(not m.attachments for m in fake.dms(carol)), "nothing reached her"

    # He acts again (any command): the next change of his view tries once more, then stops again.
    before = refused_dms(fake, carol)
    await fake.slash(carol, "game list", channel=channel)
    turned_on = await fake.slash(carol, "notify", channel=channel, state="on")
    assert "can't send you direct messages" in (await turned_on.wait_for_followup()
                                                 if not turned_on.messages else turned_on.messages[-1]).content
    assert refused_dms(fake, carol) == before + 1, "/notify on tries at once and says so"
