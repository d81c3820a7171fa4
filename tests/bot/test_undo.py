"""Taking a move back through the host: logged as its own entry, replayed, exported, verified, kept across
a restart, refused after chance and for anyone but the mover."""

from __future__ import annotations

import threading

import pytest

import bot.play.replay
import bot.play.undo
from bot.discord.game_record import build_record
from bot.discord.replies import board_components
from bot.play.host import STALE_BUTTON, Host, UserError
from bot.presentation.words import log_lines
from games.undo import UNDO_ACTION
from games.verify import verify
from tests.bot.conftest import ALICE, BOB, CAROL

pytestmark = pytest.mark.both_databases

CHANNEL = "950"


async def begin(host: Host, slug: str) -> int:
    await host.open_lobby(guild_id="1", channel_id=CHANNEL, slug=slug, creator=ALICE)
    session, outcome = await host.join(CHANNEL, BOB)
    assert outcome is not None and outcome.began
    return session.id


async def first_move(host: Host, session_id: int) -> tuple[str, object]:
    """The player to act makes his first legal move; returns him and the state from before it."""
    session = await host.current(session_id)
    player = host.to_act(session)[0]
    before = host.state_of(session)
    await host.act(session_id, player, host.legal_actions(session, player)[0])
    return player, before


async def test_an_undo_restores_the_state_and_is_an_entry_of_the_log(host):
    session_id = await begin(host, "follow-the-arrow")
    player, before = await first_move(host, session_id)
    moved = await host.current(session_id)
    assert await host.undoer(moved) == player
    outcome = await host.undo(session_id, player)
    session = outcome.session
    assert host.state_of(session) == before
    assert session.version == moved.version + 1
    assert await host.replay(session_id) == before
    moves = await host.moves(session)
    assert [move.action for move in moves][-1] == UNDO_ACTION and [m.seq for m in moves] == [1, 2]
    assert outcome.events == [{"type": "undone", "player": player, "move": 1, "action": "place"}]
    assert set(session.waiting_since or {}) == set(host.to_act(session)), "the turn clock follows the restored turn"
    assert await host.undoer(session) is None
    assert "took back move 1 (place)" in log_lines(session, await host.narrated_moves(session))[-1]


async def test_after_a_restart_the_move_can_still_be_taken_back(host, store, clock):
    session_id = await begin(host, "follow-the-arrow")
    player, before = await first_move(host, session_id)
    restarted = Host(store, clock=clock, seed_source=lambda: 5)
    session = await restarted.session(session_id)
    assert await restarted.undoer(session) == player
    outcome = await restarted.undo(session_id, player)
    assert restarted.state_of(outcome.session) == before


async def test_only_the_mover_may_undo_and_only_while_nobody_else_acted(host):
    session_id = await begin(host, "follow-the-arrow")
    player, _ = await first_move(host, session_id)
    other = next(p for p in (ALICE.id, BOB.id) if p != player)
    with pytest.raises(UserError, match="only your own last move"):
        await host.undo(session_id, other)
    with pytest.raises(UserError, match="not playing"):
        await host.undo(session_id, CAROL.id)
    session = await host.current(session_id)
    assert (await host.moves(session))[-1].action != UNDO_ACTION, "a refusal writes nothing"


async def test_an_undo_after_a_roll_is_refused_and_writes_nothing(host):
    session_id = await begin(host, "john-henry")
    session = await host.current(session_id)
    roller = host.to_act(session)[0]
    await host.act(session_id, roller, {"type": "roll"})
    rolled = await host.current(session_id)
    assert await host.undoer(rolled) is None
    with pytest.raises(UserError, match="chance once seen stays"):
        await host.undo(session_id, roller)
    assert (await host.current(session_id)).version == rolled.version


async def test_a_stale_undo_button_is_refused(host):
    session_id = await begin(host, "follow-the-arrow")
    player, _ = await first_move(host, session_id)
    moved = await host.current(session_id)
    with pytest.raises(UserError) as refused:
        await host.undo(session_id, player, expected_version=moved.version - 1)
    assert refused.value.message == STALE_BUTTON


async def test_the_table_offers_undo_only_to_the_mover_while_allowed(host):
    session_id = await begin(host, "follow-the-arrow")
    player, _ = await first_move(host, session_id)
    session = await host.current(session_id)
    view = board_components(session, host.public_view(session), host.legal_by_player(session),
                            await host.undoer(session))
    undo = [item for item in view.children if getattr(item, "custom_id", "").startswith("parlor:undo:")]
    assert [item.custom_id for item in undo] == [f"parlor:undo:{session_id}:{session.version}"]
    assert session.name_of(player) in undo[0].item.label
    undone = (await host.undo(session_id, player)).session
    view = board_components(undone, host.public_view(undone), host.legal_by_player(undone),
                            await host.undoer(undone))
    assert not [item for item in view.children if getattr(item, "custom_id", "").startswith("parlor:undo:")]


async def test_an_exported_record_with_undos_checks_out_and_later_dice_come_from_their_own_step(host):
    session_id = await begin(host, "two-fat-dudes")
    for _ in range(60):
        session = await host.current(session_id)
        if session.status != "active":
            break
        player = host.to_act(session)[0]
        legal = host.legal_actions(session, player)
        await host.act(session_id, player, legal[-1])
        session = await host.current(session_id)
        if await host.undoer(session) == player:
            await host.undo(session_id, player)
    session = await host.current(session_id)
    if session.status == "active":
        session = await host.abandon(CHANNEL, ALICE.id, can_manage=False)
    moves = await host.moves(session)
    assert any(move.action == UNDO_ACTION for move in moves), "the game had an undo"
    verdict = verify(build_record(session, moves))
    assert verdict.ok, verdict.text


def threads_calling(monkeypatch, module, name: str) -> list[threading.Thread]:
    """The thread of each call of `module`'s `name` from now on."""
    threads: list[threading.Thread] = []
    original = getattr(module, name)

    def watched(*args, **kwargs):
        threads.append(threading.current_thread())
        return original(*args, **kwargs)

    monkeypatch.setattr(module, name, watched)
    return threads


async def test_the_log_is_replayed_for_an_undo_off_the_event_loop(host, monkeypatch):
    """A long Crayon Rails log takes tenths of a second to replay with its views compared: never on the loop."""
    threads = threads_calling(monkeypatch, bot.play.undo, "replay_timeline")
    session_id = await begin(host, "follow-the-arrow")
    player, before = await first_move(host, session_id)
    await host.undo(session_id, player)
    assert host.state_of(await host.current(session_id)) == before
    assert threads and threading.current_thread() not in threads


async def test_an_earlier_buttons_check_and_a_replay_run_off_the_event_loop(host, monkeypatch):
    """Whether a button of an earlier version still acts replays the log up to then: in a worker, like
    `Host.replay` (bot.play.replay)."""
    threads = threads_calling(monkeypatch, bot.play.replay, "replayed")
    session_id = await begin(host, "john-henry")
    session = await host.current(session_id)
    first, second = host.to_act(session)  # the roll-off: both may roll
    await host.act(session_id, first, {"type": "roll"}, expected_version=session.version)
    await host.act(session_id, second, {"type": "roll"}, expected_version=session.version)  # the same Roll button
    assert len(threads) == 1, "the earlier version's check replayed the log"
    await host.replay(session_id)
    assert len(threads) == 2 and threading.current_thread() not in threads


async def test_a_component_drawn_before_an_undo_no_longer_acts(host):
    """Bob's menu was drawn for the game after Alice's move; she took that move back and made another, so it
    answers a game Bob never saw: refused as stale, though it was his turn then and is again now."""
    session_id = await begin(host, "follow-the-arrow")
    alice, _ = await first_move(host, session_id)
    drawn = await host.current(session_id)
    bob = host.to_act(drawn)[0]
    assert bob != alice
    await host.undo(session_id, alice)
    again = await host.current(session_id)
    await host.act(session_id, alice, host.legal_actions(again, alice)[-1])
    now = await host.current(session_id)
    assert host.to_act(now) == [bob]

    with pytest.raises(UserError) as refused:
        await host.act(session_id, bob, host.legal_actions(now, bob)[0], expected_version=drawn.version)
    assert refused.value.message == STALE_BUTTON
    assert (await host.current(session_id)).version == now.version
