"""Johari Bones' private panels: what edits them, the end of a hand and of a game, and a status check beside a
pending choice."""

from __future__ import annotations

import logging

from bot.discord.panels import UPDATED
from bot.discord.table import TABLE_RETRIES
from bot.presentation.frontends.johari_bones import FRONTEND
from bot.presentation.words import image_names
from tests.conftest import start_bot
from tests.e2e.helpers import table as table_in
from tests.fakediscord import FakeDiscord
from tests.fakediscord.state import FakeChannel, FakeMessage, FakeUser


async def two_players(fake: FakeDiscord, parlor, *, text: bool = True) -> tuple[FakeUser, FakeUser, FakeChannel]:
    """Alice and Bob play Johari Bones in #games; with `text`, views in words, so a panel's words can be read."""
    channel = fake.channel("games")
    if text:
        await fake.slash(fake.create_user("mod", moderator=True), "settings tables", channel=channel, mode="text")
    alice, bob = fake.create_user("alice"), fake.create_user("bob")
    await fake.slash(alice, "game start", channel=channel, game="johari-bones")
    lobby = table_in(fake, channel)
    await fake.click(bob, lobby, lobby.button(label="Join")["custom_id"])
    if (await parlor.host.last_session_in(str(channel.id))).status == "lobby":
        await fake.slash(alice, "game begin", channel=channel)
    return alice, bob, channel


def panel(fake: FakeDiscord, user: FakeUser) -> FakeMessage:
    [found] = [m for m in fake.dms(user) if m.content.startswith("Your view in")]
    return found


async def draw_and_place(fake: FakeDiscord, user: FakeUser, channel: FakeChannel) -> None:
    drew = await fake.slash(user, "draw", channel=channel)
    await fake.click(user, drew.response, drew.response.button(label="My face in")["custom_id"])


def own_words(view: dict, player: str) -> str:
    """A player's own bones as his panel's words give them: "face up 1-2, face in 3-4"."""
    entry = next(entry for entry in view["players"] if entry["id"] == player)
    return ", ".join(f"face {where} {entry[where]}" for where in ("up", "down", "in", "out") if entry[where])


async def test_a_panel_follows_its_owners_bones_face_up_included_and_says_the_table_shows_the_rest(
        fake_discord: FakeDiscord, parlor):
    """Alice swaps face-up bones with Bob: his own hand changed, so his panel (picture and words) shows his new
    face-up bone. Bob then places a drawn bone on his own face in, which changes nothing Alice's panel follows
    (whose turn, the pile: the table shows those), so hers is not edited, and it says so."""
    fake = fake_discord
    alice, bob, channel = await two_players(fake, parlor, text=False)
    await fake.slash(alice, "swap", channel=channel, kind="up", options={"with": bob})
    session = await parlor.host.last_session_in(str(channel.id))
    now = parlor.host.view_for(session, str(bob.id))
    shown = panel(fake, bob)
    assert f"as of update {session.version}. {UPDATED}" in shown.content
    picture = shown.attachment("your-view.png")
    assert picture.data == FRONTEND.draw_private(now, image_names(session), str(bob.id)), "his view as it is now"
    assert f"bob (blue square, you): {own_words(now, str(bob.id))} ·" in picture.description, picture.description

    hers = panel(fake, alice)
    assert f"as of update {session.version}." in hers.content, "her own face up changed too"
    edits, content = hers.edits, hers.content
    await draw_and_place(fake, bob, channel)
    assert (panel(fake, alice).edits, panel(fake, alice).content) == (edits, content), "nothing she follows changed"
    session = await parlor.host.last_session_in(str(channel.id))
    assert f"as of update {session.version}." in panel(fake, bob).content, "his own face in changed"


async def test_a_panel_is_corrected_when_the_hand_is_revealed(fake_discord: FakeDiscord, parlor):
    """Bob's last turn of the hand is a draw: his panel offered that bone, and at the reveal it stops doing so."""
    fake = fake_discord
    alice, bob, channel = await two_players(fake, parlor)
    for user in (alice, bob, alice, bob, alice):
        await draw_and_place(fake, user, channel)
    drew = await fake.slash(bob, "draw", channel=channel)
    assert "You drew" in panel(fake, bob).content
    await fake.click(bob, drew.response, drew.response.button(label="My face in")["custom_id"])
    session = await parlor.host.last_session_in(str(channel.id))
    assert parlor.host.public_view(session)["phase"] == "scoring"
    assert "You drew" not in panel(fake, bob).content
    assert UPDATED in panel(fake, bob).content, "the game goes on: the next hand edits it again"


async def test_a_game_played_to_its_end_says_so_on_every_panel(fake_discord: FakeDiscord, parlor):
    """The last box scored ends the game without changing anyone's bones: each panel still says the game is over,
    and who won (as the picture's banner does; the words said only "Game over."), instead of promising edits that
    will never come."""
    fake = fake_discord
    alice, bob, channel = await two_players(fake, parlor)
    host = parlor.host
    session = await host.last_session_in(str(channel.id))
    while not ((view := host.public_view(session))["hand"] == 10 and view["phase"] == "scoring"
               and len(view["to_act"]) == 1):  # on to the last move straight through the host
        player = host.to_act(session)[0]
        legal = host.legal_actions(session, player)
        action = next((action for action in legal if action["type"] == "score"), legal[0])
        session = (await host.act(session.id, player, action)).session
    [last] = view["to_act"]
    [box] = [action["box"] for action in host.legal_actions(session, last)][:1]
    await fake.slash(alice if last == str(alice.id) else bob, "score", channel=channel, box=box)
    session = await host.last_session_in(str(channel.id))
    assert session.status == "finished"
    names = image_names(session)
    won = " and ".join(names[player] for player in session.result["winners"])
    for user in (alice, bob):
        assert f"Game over: {won} won." in panel(fake, user).content and UPDATED not in panel(fake, user).content


async def test_abandoning_a_game_closes_its_panels(fake_discord: FakeDiscord, parlor):
    fake = fake_discord
    alice, bob, channel = await two_players(fake, parlor, text=False)
    await fake.slash(alice, "draw", channel=channel)
    assert panel(fake, alice).attachments, "her view, as a picture"
    await fake.slash(bob, "game abandon", channel=channel)
    closed = panel(fake, alice)
    assert "The game was abandoned" in closed.content and UPDATED not in closed.content
    assert not closed.attachments, "no picture of a drawn bone left to place"
    assert "The game was abandoned" in panel(fake, bob).content


async def test_a_status_check_leaves_the_drawn_bone_s_buttons_in_place(fake_discord: FakeDiscord, parlor):
    fake = fake_discord
    alice, _, channel = await two_players(fake, parlor)
    drew = await fake.slash(alice, "draw", channel=channel)
    status = await fake.slash(alice, "game status", channel=channel)
    assert status.ephemeral
    assert not drew.response.deleted, "the reply with the places for the drawn bone is still there"
    assert drew.response.button(label="My face in")


async def test_a_panel_discord_failed_to_edit_shows_the_players_bones_after_a_restart(fake_discord: FakeDiscord,
                                                                                       tmp_path):
    """Alice swaps her face-in bone for Bob's face-out while Discord is unavailable for her panel's edit (and its
    tries); the bot restarts. Her panel still named an earlier update and showed the face-in bone she no longer holds,
    while promising to follow her bones: the start-up catches it up, as it does a table."""
    fake = fake_discord
    database = str(tmp_path / "parlor.sqlite3")
    bot, _ = await start_bot(fake, database)
    try:
        alice, bob, channel = await two_players(fake, bot)
        await fake.slash(alice, "swap", channel=channel, kind="up", options={"with": bob})
        hers = panel(fake, alice)
        await draw_and_place(fake, bob, channel)
        bot.panels.retries.delays = (0.0,) * len(TABLE_RETRIES)  # its tries, made at once
        fake.unavailable("PATCH", rf"/channels/{hers.channel_id}/messages/{hers.id}", times=5)
        swapped = await fake.slash(alice, "swap", channel=channel, kind="in-out", options={"with": bob})
        assert not swapped.ephemeral
        await fake.wait_for(lambda: not fake.world.refusals, what="the edit and its four tries refused")
        await bot.close()
        his = panel(fake, bob).edits
        bot, _ = await start_bot(fake, database)
        session = await bot.host.last_session_in(str(channel.id))
        view = bot.host.view_for(session, str(alice.id))
        await fake.wait_for(lambda: bot._caught_up and bot.gate.running == 0, what="the start-up's catching up")
        assert f"as of update {session.version}." in panel(fake, alice).content, "her panel caught up with the swap"
        assert own_words(view, str(alice.id)) in panel(fake, alice).content
        assert panel(fake, bob).edits == his, "a panel showing its player's view now is left alone"
    finally:
        await bot.close()


async def test_a_panel_discord_failed_to_edit_is_tried_again_and_no_log_line_names_a_bone(
        fake_discord: FakeDiscord, parlor, caplog):
    """As a table is: the try shows her view as it is then, in her DMs alone; the warning names nobody's bones."""
    fake = fake_discord
    alice, bob, channel = await two_players(fake, parlor)
    await fake.slash(alice, "swap", channel=channel, kind="up", options={"with": bob})
    hers = panel(fake, alice)
    await draw_and_place(fake, bob, channel)
    parlor.panels.retries.delays = (0.0,)
    fake.unavailable("PATCH", rf"/channels/{hers.channel_id}/messages/{hers.id}")
    await fake.slash(alice, "swap", channel=channel, kind="in-out", options={"with": bob})
    session = await parlor.host.last_session_in(str(channel.id))
    view = parlor.host.view_for(session, str(alice.id))
    await fake.wait_for(lambda: f"as of update {session.version}." in panel(fake, alice).content,
                        what="her panel tried again")
    assert own_words(view, str(alice.id)) in panel(fake, alice).content
    bones = {entry[where] for player in (alice, bob)
             for entry in parlor.host.view_for(session, str(player.id))["players"]
             for where in ("up", "down", "in", "out") if entry[where]}
    warnings = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING and "panel" in r.getMessage()]
    assert warnings and not [w for w in warnings if any(bone in w for bone in bones)], warnings
