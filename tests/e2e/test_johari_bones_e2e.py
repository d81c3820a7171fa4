"""Johari Bones end to end: three users play a whole hand through the fake Discord, and nobody sees a bone
he may not see.

Every message a user can see (the channel's, his ephemeral replies, his DMs), every embed, button label,
menu option, custom_id and picture's alt text is searched for bone-shaped strings, each of which must be in the view of
whoever can read it at that moment; every picture must be exactly the one drawn from that view. The
test reads the state from the host (it knows the deal) but drives every move through the fake Discord.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable

import pytest

from bot.client import ParlorBot
from bot.presentation.frontends.johari_bones import FRONTEND, score_preview
from bot.presentation.render.johari_bones import BOX_LABELS
from bot.presentation.words import image_names
from bot.storage.store import SessionRecord
from tests.e2e.helpers import latest_board, mentioned
from tests.e2e.helpers import table as table_in
from tests.fakediscord import FakeDiscord
from tests.fakediscord.interactions import InteractionResult
from tests.fakediscord.state import FakeChannel, FakeMessage, FakeUser

BONE = re.compile(r"(?<![\w-])\d-\d(?![\w-])")
POSITIONS = ("up", "down", "in", "out")
NO_DMS = "I can't send you direct messages"


def seen_bones(view: dict) -> set[str]:
    """Every bone a view shows, the drawn one included."""
    shown = {entry[position] for entry in view["players"] for position in POSITIONS} | {view.get("drawn")}
    return shown - {None}


def surface(message: FakeMessage) -> str:
    """Everything of a message a user can read, or the bot could echo: text, labels, menus, custom_ids, files
    and their alt text (a screen reader reads a picture's description to whoever sees the picture)."""
    parts = [message.text]
    for component in message.walk_components():
        parts += [str(component.get(key, "")) for key in ("label", "placeholder", "custom_id")]
        for option in component.get("options", []):
            parts += [str(option.get(key, "")) for key in ("label", "description", "value")]
    for embed in message.embeds:
        parts += [str(embed.get("image", {}).get("url", "")), str(embed.get("author", {}).get("name", ""))]
    parts += [attachment.filename for attachment in message.attachments]
    parts += [attachment.description or "" for attachment in message.attachments]
    return "\n".join(parts)


class Table:
    """One Johari game in one channel, its users, and an audit of everything they have been shown."""

    def __init__(self, fake: FakeDiscord, parlor: ParlorBot, channel: FakeChannel, users: list[FakeUser]) -> None:
        self.fake, self.parlor, self.channel, self.users = fake, parlor, channel, users
        self.named: dict[int, set[str]] = {}
        self.edits: dict[int, int] = {}
        self.audited = 0
        self.told_dms_closed: set[int] = set()
        self.public_alt: list[str] = []
        """The alt text of every public picture audited (checked above against the public view)."""
        self.told_in_public: set[str] = set()
        """Every bone a public message has named at some time (the table is edited as the game goes on)."""

    @property
    def host(self):
        return self.parlor.host

    async def session(self) -> SessionRecord:
        return await self.host.last_session_in(str(self.channel.id))

    def user(self, player_id: str) -> FakeUser:
        return next(user for user in self.users if str(user.id) == player_id)

    async def digests(self) -> dict[int, tuple[object, object]]:
        """Each player's (what his panel follows, what of his view is private): bot.discord.panels edits his panel when
        the first changes, and sends him one only while the second is something."""
        session = await self.session()
        views = {p: self.host.view_for(session, p) for p in session.player_ids}
        return {int(p): (FRONTEND.panel_digest(view, p), FRONTEND.private_digest(view)) for p, view in views.items()}

    def notices(self) -> list[FakeMessage]:
        return [m for m in self.fake.messages(self.channel) if NO_DMS in m.content]

    def panels(self, user: FakeUser) -> list[FakeMessage]:
        """The user's private panels: the DMs carrying his view's picture."""
        return [m for m in self.fake.dms(user) if any(a.filename == "your-view.png" for a in m.attachments)]

    def panel_state(self, user: FakeUser) -> tuple[int, int]:
        """How many panels the user has, and how often they were edited."""
        panels = self.panels(user)
        return len(panels), sum(m.edits for m in panels)

    async def step(self, action: Callable[[], Awaitable[InteractionResult]]) -> InteractionResult:
        """Do one thing, check that the changes of what each panel follows (his own bones, face up included, his
        drawn bone, the hidden bones he sees; not what is only public) sent or edited the panels (or told the
        channel), and nothing else did, then audit."""
        before = await self.digests() if (await self.session()).state else {}
        dms = {user.id: self.panel_state(user) for user in self.users}
        notices = len(self.notices())
        result = await action()
        session = await self.session()
        after = await self.digests() if session.state else {}
        # A view with nothing private left (the hand revealed) edits a panel the player has, and sends none.
        changed = [self.user(str(p)) for p, (follows, private) in after.items() if follows != before.get(p, (None,))[0]
                   and (private is not None or dms[int(p)][0] > 0)]
        for user in changed:
            if user.refuses_dms and user.id not in self.told_dms_closed:
                await self.fake.wait_for(lambda: len(self.notices()) > notices, what="the closed-DM notice")
                assert user.id in mentioned(self.notices()[-1])
                self.told_dms_closed.add(user.id)
        for user in self.users:
            count, edits = dms[user.id]
            now_count, now_edits = self.panel_state(user)
            if user in changed and not user.refuses_dms:
                assert now_count == 1, f"{user.name} has one panel for the game"
                assert (count, edits) == (0, 0) or now_edits == edits + 1, f"{user.name}'s panel was edited"
            else:
                assert (now_count, now_edits) == (count, edits), \
                    f"{user.name}'s panel changed only with his bones or the hidden ones he sees"
        await self.audit()
        return result

    def audience(self, message: FakeMessage) -> FakeUser | None:
        channel = self.fake.world.channels[message.channel_id]
        if channel.is_dm:
            return self.fake.world.users[channel.recipient_id]
        if message.visible_to is not None:
            return self.fake.world.users[message.visible_to]
        return None

    async def audit(self) -> None:
        """Each new (or edited) message against the view of whoever can read it now."""
        session = await self.session()
        names = image_names(session)
        public = self.host.public_view(session)
        dm_channels = {self.fake.dm_channel(user).id for user in self.users}
        found = [m for m in self.fake.world.messages.values()
                 if not m.deleted and not m.loading and m.author_id == self.fake.bot_user.id
                 and (m.channel_id == self.channel.id or m.channel_id in dm_channels)]
        for message in found:
            reader = self.audience(message)
            view = public if reader is None else self.host.view_for(session, str(reader.id))
            allowed = seen_bones(view)
            named = set(BONE.findall(surface(message)))
            who = "everyone" if reader is None else reader.name
            if reader is None:
                self.told_in_public |= named
            if message.id not in self.named:
                assert named <= allowed, f"{who} was shown {named - allowed} in {message.text!r}"
                for attachment in message.attachments:
                    assert attachment.description, f"{attachment.filename} has alt text"
                    if attachment.filename == "board.png":
                        assert attachment.data == FRONTEND.draw_board(public, names), "the public board"
                        self.public_alt.append(attachment.description)
                    else:
                        assert attachment.filename == "your-view.png" and reader is not None
                        own = FRONTEND.draw_private(view, names, str(reader.id))
                        assert attachment.data == own, f"{who}'s own view"
                self.named[message.id], self.edits[message.id] = named, message.edits
                self.audited += 1
            elif message.edits != self.edits[message.id]:
                added = named - self.named[message.id]
                assert added <= allowed, f"an edit showed {who} {added - allowed}"
                for attachment in message.attachments:
                    if attachment.filename == "your-view.png" and reader is not None and message.embeds == []:
                        own = FRONTEND.draw_private(view, names, str(reader.id))
                        assert attachment.data == own, f"{who}'s panel shows his view as it is now"
                self.edits[message.id] = message.edits

    async def to_act(self) -> FakeUser:
        return self.user(self.host.to_act(await self.session())[0])


async def open_table(fake: FakeDiscord, parlor: ParlorBot, *, carol_refuses_dms: bool = True) -> Table:
    """Alice opens a lobby in #games, Bob and Carol join, Alice begins (Bob may not)."""
    alice, bob, carol = (fake.create_user(name) for name in ("alice", "bob", "carol"))
    channel = fake.channel("games")
    table = Table(fake, parlor, channel, [alice, bob, carol])
    fake.refuse_dms(carol, carol_refuses_dms)
    await fake.slash(alice, "game start", channel=channel, game="johari-bones")
    lobby = table_in(fake, channel)
    for user in (bob, carol):
        joined = await fake.click(user, lobby, lobby.button(label="Join")["custom_id"])
        assert not joined.ephemeral and user.mention in table_in(fake, channel).embed["description"]
    assert table_in(fake, channel) is lobby, "the lobby card is edited in place as players join"
    early = await fake.click(bob, lobby, lobby.button(label="Begin")["custom_id"])
    assert early.ephemeral and "Only alice, who opened this lobby" in early.response.content
    assert (await table.session()).status == "lobby"
    began = await table.step(lambda: fake.slash(alice, "game begin", channel=channel))
    assert not began.ephemeral and set(table_in(fake, channel).pinged) == {alice.id}
    return table


async def test_three_players_play_a_hand_and_nobody_sees_a_bone_he_may_not(fake_discord: FakeDiscord,
                                                                          parlor: ParlorBot, caplog):
    caplog.set_level(logging.INFO)
    fake = fake_discord
    table = await open_table(fake, parlor)
    alice, bob, carol = table.users
    channel = table.channel
    await fake.slash(bob, "notify", channel=channel, state="on")

    # The deal: Alice and Bob get their views by DM; Carol's DMs are closed, so the channel tells her where to look.
    for user in (alice, bob):
        [dm] = table.panels(user)
        assert dm.attachment("your-view.png") and "Johari Bones" in dm.content
    notice = table.notices()[-1]
    assert carol.mention in notice.content and "/hand" in notice.content and "Show my bones" in notice.content

    dave = fake.create_user("dave")
    board = latest_board(fake, channel)
    assert [b["label"] for b in board.buttons()] == ["Draw", "Show my bones"]
    outsider = await table.step(lambda: fake.click(dave, board, board.button(label="Show my bones")["custom_id"]))
    assert outsider.ephemeral and "aren't playing" in outsider.response.content
    mine = await table.step(lambda: fake.click(carol, board, board.button(label="Show my bones")["custom_id"]))
    assert mine.ephemeral and mine.response.attachment("your-view.png")
    wrong = await table.step(lambda: fake.click(carol, board, board.button(label="Draw")["custom_id"]))
    assert wrong.ephemeral and "alice's turn" in wrong.response.content
    too_soon = await table.step(lambda: fake.slash(alice, "score", channel=channel, box="chance"))
    assert too_soon.ephemeral and "third turn" in too_soon.response.content

    # Turn 1, Alice: the board's Draw, then a placement button on her private reply.
    drew = await table.step(lambda: fake.click(alice, board, board.button(label="Draw")["custom_id"]))
    assert "drew a bone" in table_in(fake, channel).embed["description"]
    private = drew.response
    assert drew.ephemeral and private.visible_to == alice.id and "You drew" in private.content
    labels = [button["label"] for button in private.buttons()]
    assert labels == ["My face in", "My face up", "bob's face out", "bob's face up", "carol's face out",
                      "carol's face up"]
    placed = await table.step(lambda: fake.click(alice, private, private.button(label="bob's face out")["custom_id"]))
    assert placed.response is private and private.deleted, "the private note was read: it goes (issue 21)"
    told = f"{alice.mention} placed the drawn bone on {bob.mention}'s face out."
    assert board.deleted and told in table_in(fake, channel).embed["description"], "Bob's turn"
    board = table_in(fake, channel)
    again = await table.step(lambda: fake.click(alice, board, board.button(label="Show my bones")["custom_id"]))
    assert again.ephemeral and again.response.attachment("your-view.png")

    # Turn 1, Bob: /draw, then the shared /place. Carol: /swap up with Alice.
    assert await table.to_act() is bob
    drew = await table.step(lambda: fake.slash(bob, "draw", channel=channel))
    offer = drew.response
    assert offer.visible_to == bob.id and "You drew" in offer.content
    await table.step(lambda: fake.slash(bob, "place", channel=channel, target=bob, position="in"))
    stale = await table.step(lambda: fake.click(bob, offer, offer.button(label="My face up")["custom_id"]))
    assert stale.response is offer and "earlier turn" in offer.content and not offer.buttons()
    await table.step(lambda: fake.slash(carol, "swap", channel=channel, kind="up", options={"with": alice}))

    # Turn 2: Alice swaps in-out with Carol; Bob draws onto Carol's face up; Carol draws onto her own face up.
    await table.step(lambda: fake.slash(alice, "swap", channel=channel, kind="in-out", options={"with": carol}))
    board = latest_board(fake, channel)
    drew = await table.step(lambda: fake.click(bob, board, board.button(label="Draw")["custom_id"]))
    offer = drew.response
    await table.step(lambda: fake.click(bob, offer, offer.button(label="carol's face up")["custom_id"]))
    drew = await table.step(lambda: fake.slash(carol, "draw", channel=channel))
    offer = drew.response
    await table.step(lambda: fake.click(carol, offer, offer.button(label="My face up")["custom_id"]))

    # Turn 3: Alice draws into her face in; Bob swaps in-out with Alice; Carol swaps up with Bob.
    drew = await table.step(lambda: fake.slash(alice, "draw", channel=channel))
    offer = drew.response
    await table.step(lambda: fake.click(alice, offer, offer.button(label="My face in")["custom_id"]))
    await table.step(lambda: fake.slash(bob, "swap", channel=channel, kind="in-out", options={"with": alice}))
    revealed = await table.step(lambda: fake.slash(carol, "swap", channel=channel, kind="up",
                                                   options={"with": bob}))
    assert not revealed.ephemeral
    board = table_in(fake, channel)
    assert "every bone is revealed" in board.embed["description"]
    assert [b["label"] for b in board.buttons()] == ["Choose a box", "Show my bones"]

    # Scoring: the autocomplete shows each open box with what the user's own hand scores there.
    session = await table.session()
    choices = await fake.autocomplete(alice, "score", channel=channel, focused="box")
    preview = score_preview(table.host.view_for(session, str(alice.id)), str(alice.id))
    assert {c["value"]: c["name"] for c in choices} == {box: f"{BOX_LABELS[box]}: {points}"
                                                         for box, points in preview.items()}
    assert await fake.autocomplete(dave, "score", channel=channel, focused="box") == []
    bad = await table.step(lambda: fake.slash(alice, "score", channel=channel, box="yahtzee"))
    assert bad.ephemeral and "Full House" in bad.response.content
    await table.step(lambda: fake.slash(alice, "score", channel=channel, box=choices[0]["value"]))
    await table.step(lambda: fake.slash(bob, "score", channel=channel, box="chance"))
    again = await table.step(lambda: fake.slash(bob, "score", channel=channel, box="ones"))
    assert again.ephemeral and "waiting for carol" in again.response.content
    dealt = await table.step(lambda: fake.slash(carol, "score", channel=channel, box="Full House"))
    assert not dealt.ephemeral and "Hand 2 is dealt" in table_in(fake, channel).embed["description"]

    session = await table.session()
    card = table.host.public_view(session)["scorecard"]
    assert card[str(alice.id)][choices[0]["value"]] == preview[choices[0]["value"]]
    assert card[str(bob.id)]["chance"] is not None and card[str(carol.id)]["full_house"] is not None
    assert [mentioned(notice) for notice in table.notices()] == [[carol.id]], "told once, not at every change"
    status = await table.step(lambda: fake.slash(dave, "game status", channel=channel))
    assert status.response.attachment("board.png") and status.ephemeral and status.response.visible_to == dave.id
    # The log retells past hands, whose bones were public when the table named them: it names no other.
    log = await fake.slash(dave, "game log", channel=channel)
    assert log.ephemeral and set(BONE.findall(log.response.content)) <= table.told_in_public
    assert "alice drew a bone" in log.response.content and "swapped face-up bones" in log.response.content
    assert str(alice.id) not in log.response.content and "{" not in log.response.content
    assert [len(table.panels(user)) for user in (alice, bob)] == [1, 1] and not fake.dms(carol)
    assert fake.dms(alice) == table.panels(alice) and table.panels(alice)[0].edits >= 6, "one panel, edited"
    notices = [m for m in fake.dms(bob) if m not in table.panels(bob)]
    assert notices and all(m.content.startswith(("Turn notices are on", "It's your turn")) for m in notices)
    assert len(table_in(fake, channel).embeds) == 1
    assert table.audited > 25
    # The public pictures' alt text names the face-up bones (audited above: never a hidden one).
    assert table.public_alt and all(BONE.search(alt) for alt in table.public_alt)
    assert (await table.host.replay(session.id)).model_dump_json() == session.state

    logged = " ".join(record.getMessage() for record in caplog.records)
    assert not BONE.findall(logged), "no log line names a bone"


async def test_hand_in_a_direct_message_finds_the_game_and_asks_which_when_there_are_several(
        fake_discord: FakeDiscord, parlor: ParlorBot):
    fake = fake_discord
    table = await open_table(fake, parlor, carol_refuses_dms=False)
    alice, bob, carol = table.users
    dm = fake.dm_channel(alice)

    only = await table.step(lambda: fake.slash(alice, "hand", channel=dm))
    session = await table.session()
    view = table.host.view_for(session, str(alice.id))
    assert only.response.attachment("your-view.png").data == FRONTEND.draw_private(view, image_names(session),
                                                                                str(alice.id))
    assert set(BONE.findall(surface(only.response))) <= seen_bones(view)

    # A bone drawn in the channel can be placed from the DM: the board goes to the game's channel, not the DM.
    await table.step(lambda: fake.slash(alice, "draw", channel=table.channel))
    offer = (await table.step(lambda: fake.slash(alice, "hand", channel=dm))).response
    assert "You drew" in offer.content and len(offer.buttons()) == 6
    boards = len(fake.messages(table.channel))
    placed = await table.step(lambda: fake.click(alice, offer, offer.button(label="bob's face up")["custom_id"]))
    assert placed.response is offer and offer.deleted and not placed.followups, "the read note goes (issue 21)"
    assert len(fake.messages(table.channel)) == boards, "the table moved down; nothing else was posted"
    assert "placed" in table_in(fake, table.channel).embed["description"]
    assert not [m for m in fake.messages(dm) if m.attachments and m.attachments[0].filename == "board.png"]

    lounge = fake.channel("lounge")
    await fake.slash(bob, "game start", channel=lounge, game="johari-bones")
    lobby = table_in(fake, lounge)
    await fake.click(alice, lobby, lobby.button(label="Join")["custom_id"])
    await fake.slash(bob, "game begin", channel=lounge)
    second = await parlor.host.last_session_in(str(lounge.id))

    asked = await fake.slash(alice, "hand", channel=dm)
    menu = next(c for c in asked.response.walk_components() if c.get("type") == 3)
    assert {option["value"] for option in menu["options"]} == {str(session.id), str(second.id)}
    assert any("#lounge" in option.get("description", "") for option in menu["options"])
    picked = await fake.select(alice, asked.response, menu["custom_id"], [str(second.id)])
    assert picked.response is asked.response, "the menu becomes the chosen game's bones"
    view = parlor.host.view_for(second, str(alice.id))
    assert picked.response.attachment("your-view.png").data == FRONTEND.draw_private(view, image_names(second),
                                                                                  str(alice.id))
    assert set(BONE.findall(surface(picked.response))) <= seen_bones(view)

    stranger = await fake.slash(carol, "hand", channel=fake.channel("lounge"))
    assert stranger.ephemeral and "aren't playing" in stranger.response.content
    nothing = await fake.slash(fake.create_user("erin"), "hand", channel=fake.dm_channel(carol))
    assert nothing.ephemeral and "not playing a Johari Bones game" in nothing.response.content


@pytest.mark.parametrize("command", ["draw", "hand"])
async def test_johari_commands_in_another_game_point_to_its_commands(fake_discord, parlor, command):
    alice, bob = fake_discord.create_user("alice"), fake_discord.create_user("bob")
    channel = fake_discord.channel("games")
    await fake_discord.slash(alice, "game start", channel=channel, game="john-henry", opponent=bob)
    refused = await fake_discord.slash(alice, command, channel=channel)
    assert refused.ephemeral and "Johari Bones command" in refused.response.content


async def test_four_players_begin_on_their_own_and_each_gets_his_view(fake_discord: FakeDiscord, parlor):
    users = [fake_discord.create_user(name) for name in ("alice", "bob", "carol", "dave")]
    channel = fake_discord.channel("games")
    await fake_discord.slash(users[0], "game start", channel=channel, game="johari-bones")
    lobby = table_in(fake_discord, channel)
    for user in users[1:]:
        await fake_discord.click(user, lobby, lobby.button(label="Join")["custom_id"])
    assert "The game begins" in table_in(fake_discord, channel).embed["description"]
    session = await parlor.host.last_session_in(str(channel.id))
    for user in users:
        dm = await fake_discord.wait_for_dm(user, lambda m: bool(m.attachments))
        view = parlor.host.view_for(session, str(user.id))
        assert dm.attachment("your-view.png").data == FRONTEND.draw_private(view, image_names(session), str(user.id))


async def test_the_bone_placed_on_the_hands_last_turn_turns_its_reply_into_the_menu_of_boxes(
        fake_discord: FakeDiscord, parlor: ParlorBot):
    """docs/players.md: a private reply you chose a move on "becomes your next private choice" when the move opened
    one: the last bone of the hand, placed from its reply, reveals the hand, and that reply becomes the
    placer's menu of boxes (the other replies, read, go)."""
    fake = fake_discord
    channel = fake.channel("games")
    alice, bob = fake.create_user("alice"), fake.create_user("bob")
    await fake.slash(alice, "game start", channel=channel, game="johari-bones", opponent=bob)
    lobby = table_in(fake, channel)
    await fake.click(bob, lobby, lobby.button(label="Join")["custom_id"])
    lobby = table_in(fake, channel)
    await fake.click(alice, lobby, lobby.button(label="Begin")["custom_id"])
    users = {str(alice.id): alice, str(bob.id): bob}
    replies = []
    for _ in range(6):  # three turns each
        session = await parlor.host.last_session_in(str(channel.id))
        user = users[parlor.host.public_view(session)["to_act"][0]]
        reply = (await fake.slash(user, "draw", channel=channel)).response
        placed = await fake.click(user, reply, reply.buttons()[0]["custom_id"])
        assert placed.response is reply
        replies.append(reply)
    *read, last = replies
    assert all(reply.deleted for reply in read)
    assert not last.deleted and not last.buttons(), "the placement buttons are gone"
    (menu,) = [c for c in last.walk_components() if c.get("type") == 3]
    assert menu["placeholder"] == "Score this hand in…" and menu["options"]
