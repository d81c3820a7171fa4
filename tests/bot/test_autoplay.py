"""Autoplay (issue 43): a forced roll is played for a player who chose it, after the grace; never a choice."""

from __future__ import annotations

import pytest

from bot.discord.game_record import build_record
from bot.play.autoplay import Autoplay, forced_action
from bot.play.away import go_away
from bot.play.host import Host
from bot.storage.store import Store
from games.verify import verify
from tests.bot.test_host import play_until_over, start_john_henry

pytestmark = pytest.mark.both_databases


class Posted:
    def __init__(self) -> None:
        self.moves: list[tuple[str, list[dict]]] = []

    async def __call__(self, outcome, player: str) -> None:
        self.moves.append((player, outcome.events))


async def john_henry_waiting_on(host: Host, store: Store) -> tuple[int, str]:
    session_id = await start_john_henry(host)
    session = await host.session(session_id)
    player = host.to_act(session)[0]
    await store.pacing.set_player(player, autoplay=True)
    return session_id, player


async def test_a_forced_roll_is_played_after_the_grace_and_the_record_verifies(host, store, clock):
    session_id, player = await john_henry_waiting_on(host, store)
    posted = Posted()
    autoplay = Autoplay(host, posted)
    assert await autoplay.schedule(await host.session(session_id)) == 1
    clock.advance(119)
    assert await autoplay.play_due() == 0, "he may still press it himself during the grace"
    clock.advance(1)
    assert await autoplay.play_due() == 1
    assert [who for who, _ in posted.moves] == [player]
    moves = await host.moves(await host.session(session_id))
    assert [(move.player, move.action) for move in moves] == [(player, {"type": "roll"})]
    assert await autoplay.play_due() == 0, "played once"

    await play_until_over(host, session_id)
    over = await host.session(session_id)
    assert verify(build_record(over, await host.moves(over))).ok


async def test_a_choice_is_never_played(store, clock):
    host = Host(store, clock=clock, seed_source=lambda: 4)  # a game whose third roll is a 6: roll again, or stop
    session_id = await start_john_henry(host)
    autoplay = Autoplay(host, Posted())
    for _ in range(20):
        session = await host.session(session_id)
        mover = host.to_act(session)[0]
        if len(host.legal_actions(session, mover)) == 2:
            break
        await host.act(session_id, mover, host.legal_actions(session, mover)[0])
    await store.pacing.set_player(mover, autoplay=True)
    assert forced_action(host, session, mover) is None
    assert await autoplay.schedule(session) == 0
    clock.advance(3600)
    assert await autoplay.play_due() == 0


async def test_a_restart_keeps_it_and_resume_finds_one_never_written(database_url, clock):
    store = await Store.connect(database_url)
    host = Host(store, clock=clock)
    session_id, player = await john_henry_waiting_on(host, store)
    await Autoplay(host, Posted()).schedule(await host.session(session_id))
    await store.close()

    restarted = Host(await Store.connect(database_url), clock=clock)
    clock.advance(120)
    posted = Posted()
    assert await Autoplay(restarted, posted).play_due() == 1, "the due move survived the restart"
    assert [who for who, _ in posted.moves] == [player]
    other = restarted.to_act(await restarted.session(session_id))[0]
    await restarted.store.pacing.set_player(other, autoplay=True)  # chosen, but the bot stopped before its poke
    autoplay = Autoplay(restarted, posted)
    await autoplay.resume()
    assert await restarted.store.pacing.next_autoplay() == clock() + 120
    await restarted.store.close()


async def test_his_own_move_drops_it(host, store, clock):
    session_id, player = await john_henry_waiting_on(host, store)
    await Autoplay(host, Posted()).schedule(await host.session(session_id))
    await host.act(session_id, player, {"type": "roll"})
    assert await store.pacing.next_autoplay() is None


async def test_nothing_is_played_for_an_away_player(host, store, clock):
    session_id, player = await john_henry_waiting_on(host, store)
    autoplay = Autoplay(host, Posted())
    await autoplay.schedule(await host.session(session_id))
    await go_away(store, "1", player, 2, None, clock())
    clock.advance(120)
    assert await autoplay.play_due() == 0
    assert await store.pacing.next_autoplay() == pytest.approx(clock() - 120 + 2 * 86400)
