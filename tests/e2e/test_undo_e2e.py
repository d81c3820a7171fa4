"""Undo end to end: a misplaced Follow the Arrow pawn taken back by the table's button, an undo across a
restart, a roll that stands, a Johari swap taken back without showing anyone a bone, a Johari placement
taken back with its places offered again, and a move the AI made for an idle player, which stands."""

from __future__ import annotations

from bot.client import ParlorBot
from games.follow_the_arrow import GAME
from games.undo import UNDO_ACTION
from tests.bot.conftest import FakeClock
from tests.conftest import start_bot
from tests.e2e.helpers import mentioned
from tests.e2e.helpers import table as table_in
from tests.e2e.test_ai_e2e import HOUR, quick_ai
from tests.e2e.test_follow_the_arrow_e2e import Table, start_game
from tests.e2e.test_johari_bones_e2e import open_table
from tests.fakediscord import FakeDiscord


def undo_buttons(message) -> list[str]:
    return [button["label"] for button in message.buttons() if button["custom_id"].startswith("parlor:undo:")]


async def placed(table: Table) -> None:
    """Both players place their pawns (each placement can be taken back, so the table offers Undo)."""
    for _ in range(2):
        placer = table.users[GAME.to_act(await table.state())[0]]
        board = await table.do(placer, "place", order="1 2 3 4 5")
        assert undo_buttons(board) == [f"Undo ({placer.name})"]


async def misplace(table: Table):
    """The player to act moves a pawn; returns him, the state before, and the table after."""
    state = await table.state()
    mover = table.users[GAME.to_act(state)[0]]
    move = next(a for a in GAME.legal_actions(state, str(mover.id)) if a["type"] == "move")
    board = await table.do(mover, "move", pawn=move["pawn"], to=move["to"])
    return mover, state, board


async def test_a_misplaced_pawn_is_taken_back_by_the_undo_button(fake_discord: FakeDiscord, parlor: ParlorBot):
    alice, bob, carol = (fake_discord.create_user(name) for name in ("alice", "bob", "carol"))
    channel = fake_discord.channel("games")
    table = Table(fake_discord, parlor, channel, [alice, bob])
    await start_game(fake_discord, channel, alice, bob)
    await placed(table)
    mover, before, board = await misplace(table)
    other = bob if mover is alice else alice
    assert undo_buttons(board) == [f"Undo ({mover.name})"], "Undo is shown for the mover"
    undo = board.button(label=f"Undo ({mover.name})")["custom_id"]

    for stranger, why in ((other, f"That is for {mover.name} to use, not you."), (carol, "not playing")):
        refused = await fake_discord.click(stranger, board, undo)
        assert refused.ephemeral and refused.response.visible_to == stranger.id and why in refused.response.content
    assert await table.state() != before, "a refused undo changes nothing"

    pressed = await fake_discord.click(mover, board, undo)
    assert not pressed.ephemeral, pressed.response.content
    assert await table.state() == before, "the game is as it was before the move"
    now = table_in(fake_discord, channel)
    assert "took back move" in now.embed["description"]
    assert undo_buttons(now) == [], "the move before was the other player's placement: it stands"
    assert mentioned(now) == [mover.id], "the turn came back to the mover, and only he is pinged"

    assert board.deleted, "the table with the spent Undo is gone"
    session = await table.session()
    assert (await parlor.host.moves(session))[-1].action == UNDO_ACTION
    log = await fake_discord.slash(other, "game log", channel=channel)
    assert f"{mover.name} took back move" in log.response.content


async def test_the_slash_command_undoes_and_explains_a_refusal(fake_discord: FakeDiscord, parlor: ParlorBot):
    alice, bob = (fake_discord.create_user(name) for name in ("alice", "bob"))
    channel = fake_discord.channel("games")
    table = Table(fake_discord, parlor, channel, [alice, bob])
    await start_game(fake_discord, channel, alice, bob)
    await placed(table)
    mover, before, _ = await misplace(table)
    other = bob if mover is alice else alice
    assert "only your own last move" in await table.refused(other, "game undo")
    edited = await table.do(mover, "game undo")
    assert await table.state() == before and "took back move" in edited.embed["description"]
    assert "only your own last move" in await table.refused(mover, "game undo"), "the placement before is the other's"


async def test_a_restart_between_a_move_and_its_undo_keeps_the_undo(fake_discord: FakeDiscord, tmp_path):
    database = str(tmp_path / "parlor.sqlite3")
    alice, bob = (fake_discord.create_user(name) for name in ("alice", "bob"))
    channel = fake_discord.channel("games")
    first, _ = await start_bot(fake_discord, database)
    try:
        table = Table(fake_discord, first, channel, [alice, bob])
        await start_game(fake_discord, channel, alice, bob)
        await placed(table)
        mover, before, board = await misplace(table)
        undo = board.button(label=f"Undo ({mover.name})")["custom_id"]
    finally:
        await first.close()

    second, _ = await start_bot(fake_discord, database)
    try:
        pressed = await fake_discord.click(mover, board, undo)
        assert not pressed.ephemeral, pressed.response.content
        session = await second.host.last_session_in(str(channel.id))
        assert second.host.state_of(session) == before
        assert "took back move" in table_in(fake_discord, channel).embed["description"]
    finally:
        await second.close()
    fake_discord.assert_no_unknown_routes()


async def test_a_roll_cannot_be_taken_back(fake_discord: FakeDiscord, parlor: ParlorBot):
    alice, bob = (fake_discord.create_user(name) for name in ("alice", "bob"))
    channel = fake_discord.channel("games")
    await fake_discord.slash(alice, "game start", channel=channel, game="john-henry", opponent=bob)
    lobby = table_in(fake_discord, channel)
    await fake_discord.click(bob, lobby, lobby.button(label="Join")["custom_id"])
    rolled = await fake_discord.slash(alice, "roll", channel=channel)
    assert not rolled.ephemeral
    assert undo_buttons(table_in(fake_discord, channel)) == []
    refused = await fake_discord.slash(alice, "game undo", channel=channel)
    assert refused.ephemeral and "chance once seen stays" in refused.response.content


async def test_a_johari_swap_is_taken_back_and_nobody_is_shown_a_bone(fake_discord: FakeDiscord, parlor: ParlorBot):
    """The Johari table audits every message and panel against its reader's view (tests/e2e/test_johari_bones_e2e)."""
    table = await open_table(fake_discord, parlor, carol_refuses_dms=False)
    alice, bob, carol = table.users
    channel = table.channel
    before = table.host.state_of(await table.session())
    panel_before = table.panels(alice)[-1].attachment("your-view.png").data

    def swap(kind: str, with_):
        return table.step(lambda: fake_discord.slash(alice, "swap", channel=channel, kind=kind,
                                                     options={"with": with_}))

    swapped = await swap("up", bob)
    assert not swapped.ephemeral, swapped.response.content
    assert undo_buttons(table_in(fake_discord, channel)) == ["Undo (alice)"]
    undone = await table.step(lambda: fake_discord.slash(alice, "game undo", channel=channel))
    assert not undone.ephemeral, undone.response.content
    assert table.host.state_of(await table.session()) == before
    assert table.panels(alice)[-1].attachment("your-view.png").data == panel_before, "the panel shows the restored view"

    inout = await swap("in-out", carol)
    assert not inout.ephemeral, inout.response.content
    refused = await table.step(lambda: fake_discord.slash(alice, "game undo", channel=channel))
    assert refused.ephemeral and "hidden" in refused.response.content, "Bob has seen Alice's face-in bone"


async def test_a_johari_placement_taken_back_offers_its_places_again(fake_discord: FakeDiscord, parlor: ParlorBot):
    """The reply that offered the drawn bone's places went with the placement: the undo's reply offers them again,
    to the undoer alone."""
    table = await open_table(fake_discord, parlor, carol_refuses_dms=False)
    alice, channel = table.users[0], table.channel
    drew = await table.step(lambda: fake_discord.slash(alice, "draw", channel=channel))
    await table.step(lambda: fake_discord.click(alice, drew.response,
                                                drew.response.button(label="My face in")["custom_id"]))
    board = table_in(fake_discord, channel)
    assert undo_buttons(board) == ["Undo (alice)"]
    undone = await table.step(lambda: fake_discord.click(alice, board, board.button(label="Undo (alice)")["custom_id"]))
    assert undone.ephemeral and undone.response.visible_to == alice.id
    assert "You drew" in undone.response.content and undone.response.button(label="My face in")
    view = table.host.public_view(await table.session())
    assert (view["phase"], view["to_act"]) == ("drawn", [str(alice.id)]), "the bone is hers to place again"


async def test_a_move_the_ai_made_for_an_idle_player_is_not_his_to_take_back(fake_discord: FakeDiscord,
                                                                            parlor: ParlorBot):
    """Bob let the clock run out and the AI placed his pawns for him. Back in his seat, he was offered **Undo (bob)**
    for the AI's placement, and took it back as 'bob took back move 2': a move he never made."""
    quick_ai(parlor)
    clock = FakeClock()
    parlor.host.clock = clock
    alice, bob = (fake_discord.create_user(name) for name in ("alice", "bob"))
    channel = fake_discord.channel("games")
    table = Table(fake_discord, parlor, channel, [alice, bob])
    await start_game(fake_discord, channel, alice, bob)
    placer = table.users[GAME.to_act(await table.state())[0]]
    idle = bob if placer is alice else alice
    await table.do(placer, "place", order="1 2 3 4 5")
    clock.advance(49 * HOUR)
    await fake_discord.slash(placer, "game substitute", channel=channel)
    await parlor.ai.idle()
    placed_for_him = await table.state()
    assert placed_for_him.phase != "placing", "the AI placed the idle player's pawns"

    back = await fake_discord.slash(idle, "game return", channel=channel)
    assert "own seat again" in back.response.content
    assert undo_buttons(table_in(fake_discord, channel)) == [], "no Undo for a move he did not make"
    refusal = await table.refused(idle, "game undo")
    assert "made for you by Parlor's AI" in refusal and "only a move you made yourself" in refusal
    assert await table.state() == placed_for_him
