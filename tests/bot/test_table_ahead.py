"""A move's picture is drawn while its commit is in flight (bot.discord.table `draw_ahead`), and used only for
the very session it was drawn for: a commit that failed never lends its picture to another move."""

from __future__ import annotations

import random
from typing import Any

import discord
import pytest

from bot.discord import table, table_request
from bot.discord.table import Tables
from bot.play.host import Host, Upcoming
from bot.storage.store import TableRecord
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
    tables.draw_ahead(Upcoming(session=failed, state=host.state_of(session), public_view=host.public_view(session),
                               undoer=None))
    outcome = await host.act(session_id, ALICE.id, {"type": "roll"})
    assert outcome.session.version == failed.version

    message = await tables.compose(outcome.session, ping=[])
    assert picture(message) == b"picture 2", "the committed move's own picture"
    assert drawings.drawn[1] == outcome.session.turn_events


async def nothing_sent(upcoming: Upcoming) -> None:
    return None


def request_parts(request: table_request.TableRequest) -> list[bytes]:
    """A request's body as its parts, without the boundary (a new one each time)."""
    body = request.body
    if "json" in body:
        return [repr(body["json"]).encode()]
    payload = body["data"]
    boundary = payload.content_type.split("boundary=")[1].encode()
    return payload._value.split(boundary)


def comparable(message: dict) -> dict:
    """A message's keyword arguments as plain data: embed and items as Discord gets them, the file's bytes."""
    plain = {}
    for key, value in message.items():
        if isinstance(value, discord.Embed):
            value = value.to_dict()
        elif isinstance(value, discord.ui.View):
            value = [item.to_component_dict() for item in value.children]  # type: ignore[attr-defined]
        elif isinstance(value, discord.File):
            value = (value.filename, value.description, value.fp.read())
        elif isinstance(value, discord.AllowedMentions):
            value = value.to_dict()
        plain[key] = value
    return plain


@pytest.mark.parametrize("slug", ["john-henry", "two-fat-dudes", "follow-the-arrow", "johari-bones"])
async def test_the_message_written_during_the_commit_is_the_one_composed_after_it(host: Host, slug: str,
                                                                                 monkeypatch: pytest.MonkeyPatch):
    """Written from the move's own state while its commit is in flight, the table's message is the same
    as one composed from the committed game (picture, text, buttons, pings), move after move, and so is
    the request built for it then (bot.discord.table_request)."""
    client = discord.Client(intents=discord.Intents.none())
    tables = Tables(client=client, host=host)
    host.committing = tables.draw_ahead
    monkeypatch.setattr(tables, "_show_as_it_lands", nothing_sent)  # not connected: nothing is sent
    channel = f"c-written-{slug}"
    await host.open_lobby(guild_id="1", channel_id=channel, slug=slug, creator=ALICE)
    _, began = await host.join(channel, BOB)
    if began is None:
        began = await host.begin(channel, ALICE.id)
    session_id = began.session.id
    chooser = random.Random(slug)
    written = 0
    for _ in range(40):
        session = await host.current(session_id)
        if session.status != "active":
            break
        record = TableRecord(session_id=session_id, channel_id=channel, message_id="1", shown_status="active",
                             shown_version=session.version, announced=table.targets(session, host))
        tables._records[session_id] = record
        moves = [(p, a) for p in host.to_act(session) for a in host.legal_actions(session, p)]
        outcome = await host.act(session_id, *chooser.choice(moves))
        committed = outcome.session
        if committed.status != "active":
            break
        repost, ping = table.pings(record, table.targets(committed, host), committed, first=False,
                                   to_bottom=False)
        ahead = await tables._written_ahead(committed, ping)
        assert ahead is not None, "written while the commit was in flight"
        message, request = ahead
        composed = await tables.compose(committed, ping)
        expected = table_request.built(composed, None, edit=not repost)
        assert comparable(message) == comparable(composed)
        assert request.edit is not repost
        assert request_parts(request) == request_parts(expected)
        written += 1
    assert written >= 5


async def test_a_move_whose_commit_is_refused_still_ends_the_wait_for_its_sync(host: Host):
    """What waits for a commit's sync (the table's message) never waits for good: a refused commit (another
    process moved first) sets it too, and the retried move is the one shown."""
    upcoming: list[Upcoming] = []
    host.committing = upcoming.append
    session_id = await begun(host)
    session = await host.current(session_id)
    await host.store._db.execute("UPDATE sessions SET version = version + 1 WHERE id = ?", (session_id,))
    outcome = await host.act(session_id, ALICE.id, {"type": "roll"})
    assert len(upcoming) == 2, "refused once (stale), then made on the session read afresh"
    assert all(move.syncing.is_set() for move in upcoming)
    assert outcome.session.version == session.version + 2
