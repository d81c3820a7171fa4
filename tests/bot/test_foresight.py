"""The next moves' pictures, drawn at idle moments (bot.discord.foresight): a foreseen session is exactly what the
move then commits, its picture is the one a fresh drawing of the committed game gives, nothing is drawn
while the bot is busy, and a move waiting for a picture is never left waiting for an idle moment."""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest

from bot.discord import foresight as foresight_module
from bot.discord import table as table_module
from bot.discord.foresight import MOVES_FORESEEN, Foresight
from bot.discord.table import Tables
from bot.play.host import Host
from bot.presentation.frontends import frontend_for
from bot.presentation.words import image_names
from bot.storage.store import SessionRecord
from tests.bot.conftest import ALICE, BOB, CAROL

SMALL_GAMES = ("john-henry", "two-fat-dudes", "follow-the-arrow", "johari-bones")


async def begun(host: Host, slug: str, channel: str) -> int:
    await host.open_lobby(guild_id="1", channel_id=channel, slug=slug, creator=ALICE)
    _, began = await host.join(channel, BOB)
    if began is None:
        _, began = await host.join(channel, CAROL)
    if began is None:
        began = await host.begin(channel, ALICE.id)
    return began.session.id


class Quiet:
    """The gate's idle moments, switched by hand."""

    def __init__(self) -> None:
        self.event = asyncio.Event()
        self.event.set()

    async def __call__(self) -> None:
        await self.event.wait()


class CountedDrawings:
    """Counts the pictures drawn through a module's `draw_off_loop` (each still drawn for real)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, module: Any) -> None:
        self.count = 0
        self.hook: Any = None
        real = module.draw_off_loop

        async def counted(*args: Any) -> bytes:
            self.count += 1
            if self.hook is not None:
                self.hook()
            return await real(*args)

        monkeypatch.setattr(module, "draw_off_loop", counted)


@contextlib.asynccontextmanager
async def running(host: Host, *, idle: Quiet | None = None,
                  pictures: Callable[[SessionRecord], bool] = lambda session: True) -> AsyncIterator[Foresight]:
    """A started foresight over `host`, stopped at the end."""
    foresight = Foresight(host, idle=idle or Quiet(), pictures=pictures)
    foresight.start()
    try:
        yield foresight
    finally:
        await foresight.stop()


async def settle(foresight: Foresight, session_id: int) -> None:
    """Until every picture foreseen for the session is drawn (or given up)."""
    for _ in range(2000):
        drawn = foresight._drawn.get(session_id)
        if drawn is not None and all(picture.done() for _, picture in drawn) and not foresight._wanted:
            return
        await asyncio.sleep(0.001)
    raise AssertionError("the foresight did not finish drawing")


def fresh_picture(host: Host, session: SessionRecord) -> bytes:
    return frontend_for(session.slug).draw_board(host.public_view(session), image_names(session),
                                                 session.turn_events)


@pytest.mark.parametrize("slug", SMALL_GAMES)
async def test_what_is_foreseen_is_what_the_move_commits(host: Host, slug: str):
    session_id = await begun(host, slug, f"c-foresee-{slug}")
    chooser = random.Random(slug)
    for number in range(80):
        session = await host.current(session_id)
        if session.status != "active":
            break
        moves = [(player, action) for player in host.to_act(session) for action in host.legal_actions(session, player)]
        player, action = chooser.choice(moves)
        foreseen = host.foresee(session, player, action)
        if number > 0:
            assert foreseen is not None, "the move's dice are known once the game has moved here"
        outcome = await host.act(session_id, player, action)
        if foreseen is not None:
            after, view = foreseen
            assert after.version == outcome.session.version
            assert after.state == outcome.session.state
            assert after.turn_events == outcome.session.turn_events
            assert view == outcome.public_view


async def test_a_foreseen_picture_is_the_committed_moves_own_and_nothing_is_drawn_after_the_move(
        host: Host, monkeypatch: pytest.MonkeyPatch):
    ahead = CountedDrawings(monkeypatch, foresight_module)
    after_move = CountedDrawings(monkeypatch, table_module)
    async with running(host) as foresight:
        tables = Tables(client=None, host=host)  # type: ignore[arg-type]
        tables.foresight = foresight
        host.committing = tables.draw_ahead
        session_id = await begun(host, "john-henry", "c-foreseen")
        await host.act(session_id, ALICE.id, {"type": "roll"})  # the first move tells the host the dice's count
        after_move.count = 0
        for _ in range(6):
            session = await host.current(session_id)
            foresight.shown(session)
            await settle(foresight, session_id)
            assert ahead.count >= 1, "the next moves were drawn"
            player = host.to_act(session)[0]
            outcome = await host.act(session_id, player, host.legal_actions(session, player)[0])
            message = await tables.compose(outcome.session, ping=[])
            assert message["file"].fp.read() == fresh_picture(host, outcome.session)
            assert after_move.count == 0, "the move's picture was drawn before it was made"
            ahead.count = 0


async def test_nothing_is_drawn_while_an_interaction_is_in_flight(host: Host, monkeypatch: pytest.MonkeyPatch):
    drawings = CountedDrawings(monkeypatch, foresight_module)
    quiet = Quiet()
    quiet.event.clear()
    async with running(host, idle=quiet) as foresight:
        session_id = await begun(host, "john-henry", "c-busy")
        await host.act(session_id, ALICE.id, {"type": "roll"})
        foresight.shown(await host.current(session_id))
        for _ in range(50):
            await asyncio.sleep(0)
        assert drawings.count == 0
        quiet.event.set()
        await settle(foresight, session_id)
        assert drawings.count >= 1


async def a_choice_of_a_few_moves(host: Host) -> SessionRecord:
    """A running game whose players to act have between 2 and MOVES_FORESEEN moves, reached by random play
    (its dice's count known to the host)."""
    chooser = random.Random(7)
    for number in range(40):
        session_id = await begun(host, SMALL_GAMES[number % len(SMALL_GAMES)], f"c-few-{number}")
        for move in range(60):
            session = await host.current(session_id)
            if session.status != "active":
                break
            moves = [(p, a) for p in host.to_act(session) for a in host.legal_actions(session, p)]
            if move > 0 and 2 <= len(moves) <= MOVES_FORESEEN:
                return session
            await host.act(session_id, *chooser.choice(moves))
    raise AssertionError("no game offered a choice of a few moves")


async def test_a_move_waiting_for_a_foreseen_picture_gets_it_while_the_bot_is_busy(
        host: Host, monkeypatch: pytest.MonkeyPatch):
    """The move itself keeps the gate busy: the picture it waits for is drawn without an idle moment."""
    drawings = CountedDrawings(monkeypatch, foresight_module)
    quiet = Quiet()
    drawings.hook = quiet.event.clear  # an interaction arrives as soon as the first picture is being drawn
    async with running(host, idle=quiet) as foresight:
        session = await a_choice_of_a_few_moves(host)
        moves = [(p, a) for p in host.to_act(session) for a in host.legal_actions(session, p)]
        foresight.shown(session)
        for _ in range(2000):  # until the first picture is drawn (in the drawing pool's thread)
            drawn = foresight._drawn.get(session.id)
            if drawn and drawn[0][1].done():
                break
            await asyncio.sleep(0.001)
        for _ in range(50):
            await asyncio.sleep(0)
        assert drawings.count == 1, "the second move's picture waits for an idle moment"
        player, action = moves[-1]
        after, _ = host.foresee(session, player, action)
        picture = foresight.picture(after)
        assert picture is not None
        assert await asyncio.wait_for(picture, 10) == fresh_picture(host, after)
        assert drawings.count == 2


async def test_games_with_many_choices_and_text_only_tables_are_not_foreseen(
        host: Host, monkeypatch: pytest.MonkeyPatch):
    drawings = CountedDrawings(monkeypatch, foresight_module)
    async with running(host, pictures=lambda session: session.channel_id != "c-text") as foresight:
        text_id = await begun(host, "john-henry", "c-text")
        await host.act(text_id, ALICE.id, {"type": "roll"})
        foresight.shown(await host.current(text_id))
        rails_id = await begun(host, "crayon-rails", "c-rails")
        rails = await host.current(rails_id)
        assert sum(len(host.legal_actions(rails, p)) for p in host.to_act(rails)) > MOVES_FORESEEN
        foresight.shown(rails)
        for _ in range(100):
            await asyncio.sleep(0)
        assert not foresight._wanted and drawings.count == 0


async def test_the_ais_moves_are_not_foreseen(host: Host):
    async with running(host) as foresight:
        await host.open_lobby(guild_id="1", channel_id="c-ai", slug="john-henry", creator=ALICE)
        _, began = await host.seat_ai("c-ai", ALICE.id)
        assert began is not None
        session_id = began.session.id
        await host.act(session_id, ALICE.id, {"type": "roll"})  # the roll-off: the AI's roll is left to do
        session = await host.current(session_id)
        assert host.to_act(session) == session.ai_played
        foresight.shown(session)
        for _ in range(100):
            await asyncio.sleep(0)
        assert session_id not in foresight._drawn, "nothing foreseen for the AI"


async def test_after_a_burst_only_the_latest_games_are_foreseen(host: Host, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(foresight_module, "SESSIONS_KEPT", 2)
    drawings = CountedDrawings(monkeypatch, foresight_module)
    quiet = Quiet()
    quiet.event.clear()
    async with running(host, idle=quiet) as foresight:
        shown = []
        for number in range(4):
            session_id = await begun(host, "john-henry", f"c-burst-{number}")
            await host.act(session_id, ALICE.id, {"type": "roll"})
            shown.append(await host.current(session_id))
            foresight.shown(shown[-1])
        quiet.event.set()
        for session in shown[2:]:
            await settle(foresight, session.id)
        assert sorted(foresight._drawn) == [session.id for session in shown[2:]]
        assert drawings.count == sum(len(pictures) for pictures in foresight._drawn.values()), \
            "the games shown before were never drawn"
