"""Operations (issue 42 item 6): /healthz and /metrics over real HTTP on loopback, the event-loop lag probe,
Discord REST answers counted by route, and backup and restore with every game replayed."""

from __future__ import annotations

import asyncio
import random
import re
import sqlite3

import aiohttp
import pytest
from aiohttp import web
from prometheus_client.parser import text_string_to_metric_families

from bot.ops.backup import BackupRefused, backup, check_copy, restore
from bot.ops.checks import database_check, games_running
from bot.ops.rest import INTERACTION_CALLBACK, rest_trace, template_of
from bot.ops.server import Checks, OpsServer
from bot.play.host import Host
from bot.runtime.metrics import METRICS, LoopLag, Metrics
from bot.storage.store import Seat, Store
from games import GAMES

ALICE, BOB, CAROL = Seat(id="101", name="alice"), Seat(id="102", name="bob"), Seat(id="103", name="carol")
SERIES = ["parlor_moves", "parlor_refusals", "parlor_interactions_late", "parlor_table_retries",
          "parlor_discord_rest_errors", "parlor_event_loop_lag_seconds", "parlor_event_loop_lag_max_seconds",
          "parlor_web_pages_open", "parlor_games_running"]
BONE = re.compile(r"(?<![\w-])[0-6]-[0-6](?![\w-])")


async def start_johari(host: Host, channel: str) -> int:
    await host.open_lobby(guild_id="1", channel_id=channel, slug="johari-bones", creator=ALICE)
    await host.join(channel, BOB)
    session, outcome = await host.join(channel, CAROL)
    if outcome is None:
        await host.begin(channel, ALICE.id)
    return session.id


async def play(host: Host, session_id: int, moves: int, rng: random.Random) -> None:
    for _ in range(moves):
        session = await host.session(session_id)
        if session.status != "active":
            return
        legal = host.legal_by_player(session)
        player = rng.choice([player for player, actions in legal.items() if actions])
        await host.act(session_id, player, rng.choice(legal[player]))


@pytest.fixture
async def ops(store, database_url):
    gateway = {"connected": True}
    server = OpsServer(Checks(database=database_check(store, database_url), gateway=lambda: gateway["connected"],
                              games_running=games_running(store)))
    await server.start("127.0.0.1", 0)
    server.gateway = gateway
    yield server
    await server.stop()


async def get(server: OpsServer, path: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as http, http.get(f"http://127.0.0.1:{server.port}{path}") as response:
        return response.status, await response.text()


async def test_healthz_is_503_with_the_database_gone_and_200_once_it_is_back(ops, database_url, tmp_path):
    assert await get(ops, "/healthz") == (200, "ok\n")
    path = tmp_path / "parlor.sqlite3"
    path.rename(tmp_path / "moved-away")
    status, text = await get(ops, "/healthz")
    assert status == 503 and "database unreachable" in text and "missing" in text
    (tmp_path / "moved-away").rename(path)
    assert await get(ops, "/healthz") == (200, "ok\n")


async def test_healthz_is_503_while_the_gateway_is_disconnected(ops):
    ops.gateway["connected"] = False
    assert await get(ops, "/healthz") == (503, "unhealthy: Discord gateway not connected\n")


async def test_metrics_parse_name_every_series_and_show_no_hidden_bone(ops, host, store):
    session_id = await start_johari(host, "900")
    await play(host, session_id, 12, random.Random(4))
    METRICS.rest_answer("POST", INTERACTION_CALLBACK, 404)
    status, text = await get(ops, "/metrics")
    assert status == 200
    families = {family.name: family for family in text_string_to_metric_families(text)}
    assert set(SERIES) <= set(families)
    running = {sample.labels["game"]: sample.value for sample in families["parlor_games_running"].samples}
    assert running["johari-bones"] == 1 and set(running) == set(GAMES)
    assert any(sample.labels == {"game": "johari-bones"} and sample.value >= 12
               for sample in families["parlor_moves"].samples)
    assert not BONE.search(text), "a bone's name in /metrics"
    session = await host.session(session_id)
    assert session.state not in text and str(session.dice_seed) not in text
    labels = {value for family in families.values() for sample in family.samples for value in sample.labels.values()}
    assert labels <= {*GAMES, "POST " + INTERACTION_CALLBACK, "404"}


async def test_the_loop_lag_is_how_late_the_wake_up_fired_by_the_injected_clock():
    now = [100.0]

    async def late_sleep(seconds: float) -> None:
        now[0] += seconds + 0.25

    metrics = Metrics()
    probe = LoopLag(metrics, interval=1.0, clock=lambda: now[0], sleep=late_sleep)
    assert await probe.measure_once() == pytest.approx(0.25)
    assert metrics.loop_lag_max.collect()[0].samples[0].value == pytest.approx(0.25)


def test_route_templates_hide_ids_and_tokens():
    assert template_of("/api/v10/interactions/123/aW50ZXJhY3Rpb24/callback") == INTERACTION_CALLBACK
    assert template_of("/api/v10/webhooks/55/tok-en/messages/@original") == "/webhooks/{id}/{token}/messages/@original"
    assert template_of("/api/v10/channels/9/messages/8") == "/channels/{id}/messages/{id}"


async def test_rest_answers_are_counted_by_route_and_a_late_interaction_answer_too():
    async def refuse(request: web.Request) -> web.Response:
        return web.Response(status=404 if "callback" in request.path else 429)

    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", refuse)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    metrics = Metrics()
    try:
        async with aiohttp.ClientSession(trace_configs=[rest_trace(metrics)]) as http:
            for path in ("/api/v10/interactions/1/secret-token/callback", "/api/v10/channels/2/messages"):
                async with http.post(f"http://127.0.0.1:{port}{path}"):
                    pass
    finally:
        await runner.cleanup()
    text = metrics.text().decode()
    assert "secret-token" not in text
    assert metrics.interactions_late.collect()[0].samples[0].value == 1
    samples = {(s.labels["route"], s.labels["status"]): s.value for s in metrics.rest_errors.collect()[0].samples
               if s.name.endswith("_total")}
    assert samples == {("POST " + INTERACTION_CALLBACK, "404"): 1, ("POST /channels/{id}/messages", "429"): 1}


async def test_backup_while_moves_are_made_then_restore_replays_every_game(host, store, database_url, tmp_path):
    games = [await start_johari(host, str(channel)) for channel in range(900, 903)]
    rng = random.Random(7)
    copy = tmp_path / "backup.sqlite3"

    async def keep_moving() -> None:
        for _ in range(8):
            for session_id in games:
                await play(host, session_id, 2, rng)
            await asyncio.sleep(0)

    moving = asyncio.create_task(keep_moving())
    await asyncio.sleep(0)
    await asyncio.to_thread(backup, database_url, copy)
    await moving
    found = await check_copy(copy)
    assert found.games == len(games) and not found.differing
    with pytest.raises(BackupRefused, match="exists already"):
        backup(database_url, copy)

    restored = f"sqlite:///{tmp_path / 'restored.sqlite3'}"
    assert (await restore(restored, copy)).games == len(games)
    again = await Store.connect(restored)
    try:
        assert {s.id for s in await again.sessions_where("state IS NOT NULL")} == set(games)
    finally:
        await again.close()


async def test_restore_refuses_a_copy_whose_log_does_not_give_its_state(host, database_url, tmp_path):
    session_id = await start_johari(host, "900")
    await play(host, session_id, 6, random.Random(1))
    copy = tmp_path / "backup.sqlite3"
    backup(database_url, copy)
    with sqlite3.connect(copy) as db:
        db.execute("DELETE FROM moves WHERE seq = (SELECT MAX(seq) FROM moves)")
    with pytest.raises(BackupRefused, match=f"#{session_id}"):
        await check_copy(copy)


def test_postgresql_is_backed_up_with_pg_dump(tmp_path):
    with pytest.raises(BackupRefused, match="pg_dump"):
        backup("postgresql://user:secret@db/parlor", tmp_path / "copy")
