"""A button or menu on a private message pressed twice at once (a double click): the first press makes the move,
the second is refused, and both answer on the same message. Whatever order Discord takes them in, the message
ends showing the move's result, never the refusal (bot.discord.private_presses); a preview gone stale for another
reason is still refused on it.

Each test forces the order a double click lost in (about 1 run in 3): the first press's answer lands before
the second press is even acknowledged, so the second's refusal, if it is sent, lands last."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from bot.client import ParlorBot
from tests.e2e.helpers import table as table_in
from tests.e2e.test_crayon_rails_e2e import Table, open_game
from tests.e2e.test_follow_the_arrow_e2e import start_game
from tests.e2e.test_panel_endings_e2e import two_players
from tests.fakediscord import FakeDiscord
from tests.fakediscord.components import walk
from tests.fakediscord.interactions import InteractionResult
from tests.fakediscord.state import FakeUser


def _arrived(fake: FakeDiscord, method: str, path: str) -> bool:
    return any(m == method and p == path for m, p, _ in fake.world.requests)


async def pressed_twice_the_second_answered_last(fake: FakeDiscord, parlor: ParlorBot,
                                                 press: Callable[[], Awaitable[InteractionResult]]
                                                 ) -> InteractionResult:
    """`press()` twice at once; the first press's answer on its private message lands before the second press is
    acknowledged. Returns the first press once the bot is done with both."""
    app = fake.application_id
    answers = [fake.hold(method, rf"/webhooks/{app}/[^/]+/messages/@original") for method in ("PATCH", "DELETE")]
    known = set(fake.interactions.by_id)
    first = asyncio.create_task(press())
    [pressed] = await fake.wait_for(lambda: [r for i, r in fake.interactions.by_id.items()
                                             if i not in known and r.acknowledged], what="the first press acknowledged")
    acknowledgements = fake.hold("POST", r"/interactions/[0-9]+/[^/]+/callback")
    second = asyncio.create_task(press())  # on the message as it is: the first press's answer is held
    await fake.wait_for(lambda: len(fake.interactions.by_id) == len(known) + 2, what="the second press sent")
    [again] = [r for i, r in fake.interactions.by_id.items() if i not in known and r is not pressed]
    original = f"/api/v10/webhooks/{app}/{pressed.token}/messages/@original"
    await fake.wait_for(lambda: _arrived(fake, "POST", f"/api/v10/interactions/{again.id}/{again.token}/callback")
                        and (_arrived(fake, "PATCH", original) or _arrived(fake, "DELETE", original)),
                        what="the first press's answer and the second press's acknowledgement on their way")
    for held in answers:
        held.set()
    await first
    acknowledgements.set()
    await fake.wait_for(lambda: again.acknowledged and parlor.gate.running == 0, what="the bot done with both")
    second.cancel()  # a press answered by nothing more waits in the fake for an edit that need not come
    return pressed


def no_errors(caplog) -> None:
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], [r.getMessage() for r in caplog.records]


async def building(fake: FakeDiscord, parlor: ParlorBot) -> tuple[Table, FakeUser]:
    """A Crayon Rails game past its setup (both kept no card): Alice builds first. The table, and Alice."""
    alice, bob = fake.create_user("alice"), fake.create_user("bob")
    table = Table(fake, parlor, fake.channel("games"), alice, bob)
    await open_game(fake, table.channel, alice, bob)
    await table.ok(alice, "keep")
    await table.ok(bob, "keep")
    return table, alice


async def test_a_double_clicked_confirm_leaves_the_preview_saying_it_was_built(fake_discord: FakeDiscord,
                                                                               parlor: ParlorBot, caplog):
    fake = fake_discord
    table, alice = await building(fake, parlor)
    preview = (await table.preview(alice, "Riverton")).response
    confirm = preview.button(label="Confirm")["custom_id"]
    version = (await table.bot.host.last_session_in(str(table.channel.id))).version

    await pressed_twice_the_second_answered_last(fake, parlor, lambda: fake.click(alice, preview, confirm))
    assert preview.content == "Built: see the table.", preview.content
    assert (await parlor.host.last_session_in(str(table.channel.id))).version == version + 1, "built once"
    assert (await table.state()).player(str(alice.id)).track
    no_errors(caplog)


async def test_a_stale_preview_is_still_refused_on_it(fake_discord: FakeDiscord, parlor: ParlorBot):
    """Confirm or Cancel on a preview drawn before another build: refused there, saying why."""
    fake = fake_discord
    table, alice = await building(fake, parlor)
    stale = (await table.preview(alice, "Ashford")).response
    cancelled = (await table.preview(alice, "Ashford")).response
    preview = (await table.preview(alice, "Riverton")).response
    await fake.click(alice, preview, preview.button(label="Confirm")["custom_id"])
    assert preview.content.startswith("Built")
    await fake.click(alice, stale, stale.button(label="Confirm")["custom_id"])
    assert "changed since this preview" in stale.content and not stale.buttons()
    await fake.click(alice, cancelled, cancelled.button(label="Cancel")["custom_id"])
    assert "changed since this preview" in cancelled.content, "not 'cancelled': the game moved on meanwhile"


async def test_a_double_clicked_place_for_a_drawn_bone_places_it_once_and_fails_nothing(
        fake_discord: FakeDiscord, parlor: ParlorBot, caplog):
    """The read reply goes with the first press; the second's refusal does not look for it (it failed: gone)."""
    fake = fake_discord
    alice, bob, channel = await two_players(fake, parlor)
    session = await parlor.host.last_session_in(str(channel.id))
    drawer = alice if str(alice.id) in parlor.host.to_act(session) else bob
    reply = (await fake.slash(drawer, "draw", channel=channel)).response
    place = reply.button(label="My face in")["custom_id"]
    version = (await parlor.host.last_session_in(str(channel.id))).version

    await pressed_twice_the_second_answered_last(fake, parlor, lambda: fake.click(drawer, reply, place))
    assert reply.deleted, "the read reply goes"
    assert not [m for m in fake.ephemeral_messages(drawer, channel) if "earlier turn" in m.content]
    assert (await parlor.host.last_session_in(str(channel.id))).version == version + 1, "placed once"
    no_errors(caplog)


async def test_a_double_clicked_destination_moves_the_pawn_once_and_fails_nothing(
        fake_discord: FakeDiscord, parlor: ParlorBot, caplog):
    fake = fake_discord
    alice, bob = fake.create_user("alice"), fake.create_user("bob")
    channel = fake.channel("games")
    await start_game(fake, channel, alice, bob)
    users = {str(alice.id): alice, str(bob.id): bob}
    while parlor.host.public_view(session := await parlor.host.last_session_in(str(channel.id)))["phase"] == "placing":
        await fake.slash(users[parlor.host.to_act(session)[0]], "place", channel=channel, order="1 2 3 4 5")
    mover = users[parlor.host.to_act(session)[0]]
    board = table_in(fake, channel)
    pawns = next(c for c in walk(board.components) if c.get("custom_id", "").endswith(":pawn"))
    reply = (await fake.select(mover, board, pawns["custom_id"], [pawns["options"][0]["value"]])).response
    destinations = next(c for c in walk(reply.components) if c.get("options"))
    chosen = [destinations["options"][0]["value"]]
    version = (await parlor.host.last_session_in(str(channel.id))).version

    await pressed_twice_the_second_answered_last(
        fake, parlor, lambda: fake.select(mover, reply, destinations["custom_id"], chosen))
    assert reply.deleted, "the read reply goes"
    assert not [m for m in fake.ephemeral_messages(mover, channel) if "earlier turn" in m.content]
    assert (await parlor.host.last_session_in(str(channel.id))).version == version + 1, "moved once"
    no_errors(caplog)
