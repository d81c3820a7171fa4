"""Two Fat Dudes end to end: the real bot through the fake Discord, from the roll-off to the exits.

The die is random, so the players play adaptively: they read the public view through the host (as a
player reads the board) to know whose turn it is and what phase the game is in, and every move goes
through the fake Discord. Walking from the semicircles, the dudes always meet (nobody can leave the
hallway before passing the other), so rolling on always reaches the first encounter.
"""

from __future__ import annotations

import pytest

from bot.client import ParlorBot
from bot.discord import replies
from tests.conftest import start_bot
from tests.e2e.helpers import is_over, latest_board, table
from tests.fakediscord import FakeDiscord
from tests.fakediscord.interactions import InteractionResult
from tests.fakediscord.state import FakeChannel, FakeMessage, FakeUser

SLUG = "two-fat-dudes"
START = {"red": 0, "blue": 14}


class Hallway:
    """Two players at a Two Fat Dudes game in one channel, driving it only through the fake Discord."""

    def __init__(self, fake: FakeDiscord, bot: ParlorBot, channel: FakeChannel, alice: FakeUser, bob: FakeUser):
        self.fake, self.bot, self.channel, self.users = fake, bot, channel, {str(alice.id): alice, str(bob.id): bob}
        self.rolls = 0

    async def open(self) -> None:
        alice, bob = self.users.values()
        await self.fake.slash(alice, "game start", channel=self.channel, game=SLUG, opponent=bob)
        lobby = table(self.fake, self.channel)
        await self.fake.click(bob, lobby, lobby.button(label="Join")["custom_id"])
        assert table(self.fake, self.channel).attachment("board.png").data.startswith(b"\x89PNG")

    async def view(self) -> dict:
        session = await self.bot.host.last_session_in(str(self.channel.id))
        return self.bot.host.public_view(session)

    async def acting(self) -> tuple[FakeUser, FakeUser]:
        """The user whose move or decision it is, and the other one."""
        acting = (await self.view())["to_act"][0]
        return self.users[acting], next(u for i, u in self.users.items() if i != acting)

    def board(self) -> FakeMessage:
        return latest_board(self.fake, self.channel)

    async def press(self, user: FakeUser, label: str, message: FakeMessage | None = None) -> InteractionResult:
        message = message or self.board()
        return await self.fake.click(user, message, message.button(label=label)["custom_id"])

    async def ok(self, result: InteractionResult) -> FakeMessage:
        assert not result.ephemeral, f"a legal move was refused: {result.response.content}"
        return table(self.fake, self.channel)

    async def roll(self) -> FakeMessage:
        """The player to act rolls: with the Roll button and `/roll` in turn."""
        player, _ = await self.acting()
        self.rolls += 1
        if self.rolls % 2:
            return await self.ok(await self.press(player, "Roll"))
        return await self.ok(await self.fake.slash(player, "roll", channel=self.channel))

    async def walk_on(self) -> dict:
        """Roll until something other than walking happens: an encounter, or the squeeze into the race."""
        for _ in range(100):
            view = await self.view()
            if view["phase"] not in ("roll-off", "walk"):
                return view
            await self.roll()
        raise AssertionError("the dudes never met")

    async def walk_to_encounter(self) -> dict:
        view = await self.walk_on()
        assert view["phase"] == "encounter", view
        return view

    async def race_to_the_end(self) -> FakeMessage:
        for _ in range(100):
            if (await self.view())["phase"] == "over":
                return self.board()
            await self.roll()
        raise AssertionError("the race never ended")


async def open_hallway(fake: FakeDiscord, bot: ParlorBot) -> Hallway:
    hallway = Hallway(fake, bot, fake.channel("games"), fake.create_user("alice"), fake.create_user("bob"))
    await hallway.open()
    return hallway


def labels(message: FakeMessage) -> list[str]:
    return [button["label"] for button in message.buttons()]


def player(view: dict, user: FakeUser) -> dict:
    return next(p for p in view["players"] if p["id"] == str(user.id))


def refused(result: InteractionResult, user: FakeUser, *words: str) -> str:
    assert result.ephemeral and result.response.visible_to == user.id, "a refusal is private"
    assert result.modal is None
    for word in words:
        assert word in result.response.content, result.response.content
    return result.response.content


async def test_the_table_tells_a_roll_its_move_and_its_score_in_one_sentence(fake_discord: FakeDiscord,
                                                                             parlor: ParlorBot):
    hallway = await open_hallway(fake_discord, parlor)
    while (await hallway.view())["phase"] == "roll-off":
        await hallway.roll()
    mover, _ = await hallway.acting()
    board = await hallway.roll()
    walked = player(await hallway.view(), mover)
    steps = abs(walked["position"] - START[walked["colour"]])
    told = f"rolls a {steps} and moves to space {walked['position']} ({walked['score']:+d}, now {walked['score']})."
    assert f"{mover.mention} {told}" in board.embed["description"], \
        "the first roll from a semicircle never meets the other dude, and the table tells what it scored"
    log = await fake_discord.slash(mover, "game log", channel=hallway.channel)
    assert f"{mover.name} {told}" in log.response.content, "/game log tells the move as the table did"


async def test_an_offer_a_counter_through_the_form_a_deal_and_the_race(fake_discord: FakeDiscord,
                                                                         parlor: ParlorBot):
    hallway = await open_hallway(fake_discord, parlor)
    await hallway.walk_to_encounter()
    mover, other = await hallway.acting()
    board = hallway.board()
    assert "Encounter 1!" in board.embed["description"]
    assert labels(board) == ["Pass", "Offer 0", "Offer 5", "Offer 10", "Offer…"]
    refused(await hallway.press(other, "Offer 5"), other, "decision")

    offered = await hallway.ok(await hallway.press(mover, "Offer 5"))
    assert f"{mover.mention} offers {other.mention} 5 points" in offered.embed["description"]
    assert labels(offered) == ["Accept", "Decline", "Counter…", f"Undo ({mover.name})"], "an offer may be taken back"
    refused(await hallway.press(mover, "Accept", offered), mover, f"{other.name}'s decision")
    refused(await hallway.press(mover, "Counter…", offered), mover, f"That is for {other.name}")

    form = await hallway.press(other, "Counter…", offered)
    assert form.modal is not None and form.modal["title"] == "Counter-offer"
    typo = await fake_discord.submit_modal(other, form, {"points": "a dozen"})
    refused(typo, other, "whole number", "Counter…")
    assert (await hallway.view())["offer"]["points"] == 5, "a bad amount changes nothing"

    form = await hallway.press(other, "Counter…", offered)
    before = await hallway.view()
    countered = await hallway.ok(await fake_discord.submit_modal(other, form, {"points": "12"}))
    assert f"{other.mention} counters: they want 12 points from {mover.mention}" in countered.embed["description"]
    after = await hallway.view()
    assert after["offer"] == {"payer": str(mover.id), "points": 12, "proposed_by": str(other.id)}
    assert player(after, other)["score"] == player(before, other)["score"] - 1, "a counter costs a point"
    assert offered.deleted, "the table moved down for the new decision, taking its spent buttons"

    deal = await hallway.ok(await hallway.press(mover, "Accept", countered))
    assert f"{mover.mention} accepts: {mover.mention} pays {other.mention} 12 points" in deal.embed["description"]
    swapped = await hallway.view()
    assert player(swapped, mover)["position"] == player(after, other)["position"] or player(swapped, mover)["exited"]
    assert swapped["phase"] in ("race", "over") and swapped["offer"] is None

    final = await hallway.race_to_the_end()
    assert is_over(final) and labels(final) == ["Rematch", "New game", "Replay"]
    session = await parlor.host.last_session_in(str(hallway.channel.id))
    assert session.result["scores"] == {p["id"]: p["score"] for p in (await hallway.view())["players"]}
    assert all(f"<@{winner}>" in final.content for winner in session.result["winners"])


async def test_a_declined_offer_gives_the_edge_choice_then_play_on_with_commands(fake_discord: FakeDiscord,
                                                                                 parlor: ParlorBot):
    hallway = await open_hallway(fake_discord, parlor)
    await hallway.walk_to_encounter()
    mover, other = await hallway.acting()
    refused(await fake_discord.slash(mover, "negotiate accept", channel=hallway.channel), mover,
            "Nothing is on the table")
    await hallway.ok(await fake_discord.slash(mover, "negotiate offer", channel=hallway.channel, points=3))
    before = await hallway.view()
    holder = hallway.users[before["edge"]]
    bystander = next(u for u in hallway.users.values() if u is not holder)

    declined = await hallway.ok(await hallway.press(other, "Decline"))
    assert "No deal." in declined.embed["description"]
    assert labels(declined) == ["Retreat", "Send back", f"Undo ({other.name})"]
    refused(await hallway.press(bystander, "Send back"), bystander, "holds the Edge")

    sent = await hallway.ok(await hallway.press(holder, "Send back"))
    assert "uses the Edge and sends" in sent.embed["description"]
    after = await hallway.view()
    assert after["phase"] == "walk" and after["edge"] == str(bystander.id), "the Edge passes over"
    went_back = player(after, bystander)
    assert went_back["position"] == START[went_back["colour"]]
    assert went_back["score"] == player(before, bystander)["score"] - 5, "encounters 1-2 cost 5"

    for _ in range(40):
        if (await hallway.walk_on())["phase"] != "encounter":
            break
        for _ in range(2):
            if (await hallway.view())["phase"] == "encounter":
                decider, _ = await hallway.acting()
                await hallway.ok(await fake_discord.slash(decider, "negotiate pass", channel=hallway.channel))
        holder = hallway.users[(await hallway.view())["edge"]]
        await hallway.ok(await fake_discord.slash(holder, "edge", channel=hallway.channel, choice="retreat"))
    assert (await hallway.view())["encounters"] == 5, "four failed negotiations, then the squeeze"
    assert is_over(await hallway.race_to_the_end())


async def test_negotiating_elsewhere_or_out_of_place_is_refused_with_a_pointer(fake_discord: FakeDiscord,
                                                                              parlor: ParlorBot):
    alice, bob = fake_discord.create_user("alice"), fake_discord.create_user("bob")
    lounge = fake_discord.channel("lounge")
    refused(await fake_discord.slash(alice, "negotiate pass", channel=lounge), alice, "/game start")
    await fake_discord.slash(alice, "game start", channel=lounge, game="john-henry", opponent=bob)
    lobby = table(fake_discord, lounge)
    await fake_discord.click(bob, lobby, lobby.button(label="Join")["custom_id"])
    refused(await fake_discord.slash(alice, "edge", channel=lounge, choice="retreat"), alice,
            "Two Fat Dudes in a Narrow Hallway command", "John Henry", "/roll")

    hallway = Hallway(fake_discord, parlor, fake_discord.channel("games"), alice, bob)
    await hallway.open()
    refused(await fake_discord.slash(alice, "negotiate offer", channel=hallway.channel, points=4), alice, "/roll")
    refused(await fake_discord.slash(bob, "edge", channel=hallway.channel, choice="send_back"), bob, "/roll")


async def test_the_counter_button_still_opens_its_form_after_a_restart(fake_discord: FakeDiscord, tmp_path):
    database = str(tmp_path / "parlor.sqlite3")
    first, _ = await start_bot(fake_discord, database)
    try:
        hallway = await open_hallway(fake_discord, first)
        await hallway.walk_to_encounter()
        mover, other = await hallway.acting()
        offered = await hallway.ok(await hallway.press(mover, "Offer 10"))
    finally:
        await first.close()

    identified = fake_discord.gateway.identify_count
    second, _ = await start_bot(fake_discord, database)
    try:
        await fake_discord.wait_for(lambda: fake_discord.gateway.identify_count > identified
                                    and fake_discord.gateway.connected, timeout=10, what="the restarted bot")
        hallway.bot = second
        form = await hallway.press(other, "Counter…", offered)
        assert form.modal is not None, form.response.content if form.response else form
        countered = await hallway.ok(await fake_discord.submit_modal(other, form, {"points": "7"}))
        assert "counters" in countered.embed["description"]
        assert (await hallway.view())["offer"]["points"] == 7
        await hallway.ok(await fake_discord.slash(mover, "negotiate counter", channel=hallway.channel, points=9))
        assert countered.deleted, "no stale Counter… is left to press"
        assert (await hallway.view())["offer"] == {"payer": str(mover.id), "points": 9, "proposed_by": str(mover.id)}
    finally:
        await second.close()
    fake_discord.assert_no_unknown_routes()



async def test_the_log_of_a_whole_game_comes_whole_from_the_roll_off_for_the_asker_alone(
        fake_discord: FakeDiscord, parlor: ParlorBot, monkeypatch: pytest.MonkeyPatch):
    """docs/players.md: `/game log` is "the game so far, told move by move". A whole game (here four failed
    negotiations, the squeeze and the race: some 40 moves) is longer than one message: it comes in
    several private messages, from move 1, the roll-off, to "Game over"; a log longer than those few
    messages comes as a text file (here with room for one message only)."""
    hallway = await open_hallway(fake_discord, parlor)
    for _ in range(300):
        view = await hallway.view()
        if view["phase"] == "over":
            break
        mover, _ = await hallway.acting()
        if view["phase"] == "encounter":
            await hallway.ok(await fake_discord.slash(mover, "negotiate pass", channel=hallway.channel))
        elif view["phase"] == "edge":
            await hallway.ok(await fake_discord.slash(mover, "edge", channel=hallway.channel, choice="retreat"))
        else:
            await hallway.roll()
    session = await parlor.host.last_session_in(str(hallway.channel.id))
    assert session.status == "finished"

    alice = next(iter(hallway.users.values()))
    log = await fake_discord.slash(alice, "game log", channel=hallway.channel)
    await fake_discord.wait_for(lambda: "Game over" in log.text, what="the log's last message")
    assert len(log.messages) > 1, "a whole game is longer than one message"
    assert all(m.ephemeral and m.visible_to == alice.id and len(m.content) <= 2000 for m in log.messages)
    told = log.text.splitlines()
    assert told[1].startswith("1. ") and "for the start" in told[1], f"the log begins with the roll-off: {told[:2]}"
    numbers = [int(line.split(".")[0]) for line in told[1:]]
    assert numbers == list(range(1, len(await parlor.host.moves(session)) + 1)), "every move, once, in order"
    assert "Game over" in told[-1]

    monkeypatch.setattr(replies, "LOG_MESSAGES_MAX", 1)
    filed = await fake_discord.slash(alice, "game log", channel=hallway.channel)
    assert filed.ephemeral and filed.response.visible_to == alice.id and "is in the file below" in filed.text
    whole = filed.response.attachment(f"parlor-{SLUG}-{session.id}-log.txt").data.decode().splitlines()
    assert whole[1:] == told[1:] and "Game over" in filed.text, "the file tells it all; the message, the latest"
