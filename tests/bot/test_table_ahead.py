"""A move's picture is drawn while its commit is in flight (bot.table `draw_ahead`), and used only for
the very session it was drawn for: a commit that failed never lends its picture to another move."""

from __future__ import annotations

from typing import Any

import pytest

from bot import table
from bot.host import Host
from bot.table import Tables
from tests.bot.conftest import ALICE, BOB


class Drawings:
    """Stands in for the drawing pool: each picture is numbered, and says which turn events it shows."""

    def __init__(self) -> None:
        self.drawn: list[list[dict]] = []

    async def __call__(self, draw: Any, view: dict, names: dict, events: list[dict]) -> bytes:
        self.drawn.append(list(events))
        return f"picture {len(self.drawn)}".encode()


@pytest.fixture
def drawings(monkeypatch: pytest.MonkeyPatch) -> Drawings:
    drawings = Drawings()
    monkeypatch.setattr(table, "draw_off_loop", drawings)
    return drawings


async def begun(host: Host) -> int:
    await host.open_lobby(guild_id="1", channel_id="c-ahead", slug="john-henry", creator=ALICE)
    _, began = await host.join("c-ahead", BOB)
    assert began is not None
    return began.session.id


def picture(message: dict) -> bytes:
    return message["file"].fp.read()


async def test_the_picture_drawn_during_the_commit_is_the_one_shown(host: Host, drawings: Drawings):
    tables = Tables(client=None, host=host)  # type: ignore[arg-type]
    host.committing = tables.draw_ahead
    session_id = await begun(host)
    outcome = await host.act(session_id, ALICE.id, {"type": "roll"})
    assert len(drawings.drawn) == 1, "drawn once, before the commit returned"
    assert drawings.drawn[0] == outcome.session.turn_events

    message = await tables.compose(outcome.session, ping=[])
    assert picture(message) == b"picture 1" and len(drawings.drawn) == 1, "shown without drawing again"
    await tables.compose(outcome.session, ping=[])
    assert len(drawings.drawn) == 2, "a picture drawn ahead is used once"


async def test_a_picture_drawn_for_a_commit_that_failed_is_never_shown(host: Host, drawings: Drawings):
    tables = Tables(client=None, host=host)  # type: ignore[arg-type]
    session_id = await begun(host)
    session = await host.current(session_id)
    failed = session.model_copy(update={"version": session.version + 1, "state": session.state + " ",
                                        "turn_events": [{"type": "a move that was never committed"}]})
    tables.draw_ahead(failed, host.public_view(session))
    outcome = await host.act(session_id, ALICE.id, {"type": "roll"})
    assert outcome.session.version == failed.version

    message = await tables.compose(outcome.session, ping=[])
    assert picture(message) == b"picture 2", "the committed move's own picture"
    assert drawings.drawn[1] == outcome.session.turn_events
