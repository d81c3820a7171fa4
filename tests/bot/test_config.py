"""Settings from the environment, and `python -m bot` without a token."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest
from pydantic import ValidationError

from bot.config import MissingToken, Settings
from tests.e2e.processes import bot_process
from tests.postgres_server import free_port

ROOT = Path(__file__).resolve().parents[2]
SETTINGS = ("DISCORD_TOKEN", "DATABASE_URL", "DISCORD_API_BASE", "DISCORD_GATEWAY_URL", "DISCORD_GUILD_ID",
            "LOG_LEVEL", "REMINDER_HOURS", "TURN_CLOCK_HOURS", "SHARD_COUNT", "SHARD_IDS", "WEB_PORT", "WEB_HOST",
            "WEB_BASE_URL", "WEB_LINK_HOURS", "WEB_SECRET")


@pytest.fixture
def clean_env(monkeypatch):
    for name in SETTINGS:
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


def test_defaults(clean_env):
    settings = Settings(_env_file=None)
    assert settings.database_url == "sqlite:///data/parlor.sqlite3"
    assert settings.discord_api_base is None and settings.discord_guild_id is None
    with pytest.raises(MissingToken, match="DISCORD_TOKEN"):
        settings.require_token()


def test_the_example_env_file_parses_with_its_blank_values(clean_env, tmp_path):
    example = (ROOT / ".env.example").read_text()
    env_file = tmp_path / ".env"
    env_file.write_text(example.replace("DISCORD_TOKEN=\n", "DISCORD_TOKEN=abc\n"))
    settings = Settings(_env_file=env_file)
    assert settings.require_token() == "abc"
    assert settings.discord_guild_id is None and settings.discord_gateway_url is None
    assert settings.reminder_hours == 12 and settings.turn_clock_hours == 48


def test_every_setting_is_documented_in_the_example():
    example = (ROOT / ".env.example").read_text()
    for name in SETTINGS:
        assert f"\n{name}=" in example


def test_environment_overrides(clean_env):
    clean_env.setenv("DISCORD_GUILD_ID", "123")
    clean_env.setenv("LOG_LEVEL", "debug")
    settings = Settings(_env_file=None)
    assert settings.discord_guild_id == 123 and settings.log_level == "DEBUG"
    clean_env.setenv("LOG_LEVEL", "loud")
    with pytest.raises(ValidationError):
        Settings(_env_file=None)


def test_the_token_is_never_shown(clean_env):
    clean_env.setenv("DISCORD_TOKEN", "secret-token-value")
    settings = Settings(_env_file=None)
    assert "secret-token-value" not in repr(settings) and "secret-token-value" not in str(settings.model_dump())


def test_python_m_bot_without_a_token_says_what_to_set(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in SETTINGS}
    env["PYTHONPATH"] = str(ROOT)
    done = subprocess.run([sys.executable, "-m", "bot"], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode != 0
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "DISCORD_TOKEN is not set" in lines[0]


def test_shards_unset_keep_one_unsharded_process(clean_env):
    settings = Settings(_env_file=None)
    assert not settings.sharded and settings.own_shards == [0]


def test_shard_ids_are_read_as_a_comma_separated_list(clean_env):
    clean_env.setenv("SHARD_COUNT", "4")
    clean_env.setenv("SHARD_IDS", "1, 3")
    settings = Settings(_env_file=None)
    assert settings.sharded and settings.own_shards == [1, 3]
    clean_env.setenv("SHARD_IDS", "")
    assert Settings(_env_file=None).own_shards == [0, 1, 2, 3], "no SHARD_IDS: every shard"


@pytest.mark.parametrize(("count", "ids", "message"), [
    ("", "0", "needs SHARD_COUNT"),
    ("2", "2", "from 0 to 1"),
    ("2", "0,0", "distinct"),
    ("2", "zero", "separated by commas"),
])
def test_bad_shard_settings_are_refused_clearly(clean_env, count, ids, message):
    clean_env.setenv("SHARD_COUNT", count)
    clean_env.setenv("SHARD_IDS", ids)
    with pytest.raises(ValidationError, match=message):
        Settings(_env_file=None)


async def test_python_m_bot_says_when_postgresql_is_unreachable_without_showing_the_password(
        fake_discord, tmp_path):
    url = f"postgresql://parlor:hunter2@127.0.0.1:{free_port()}/parlor"
    process = await bot_process(fake_discord, tmp_path, url)
    _, stderr = await asyncio.wait_for(process.communicate(), timeout=60)
    said = stderr.decode()
    assert process.returncode == 2, said
    assert "cannot open the PostgreSQL database 127.0.0.1:" in said and "DATABASE_URL" in said
    assert "hunter2" not in said
    assert "hunter2" not in repr(Settings(_env_file=None, database_url=url))


def test_the_web_pages_are_off_unless_web_port_is_set(clean_env):
    settings = Settings(_env_file=None)
    assert settings.web_port is None and settings.web_base_url is None and settings.web_secret is None
    clean_env.setenv("WEB_PORT", "")
    assert Settings(_env_file=None).web_port is None
    clean_env.setenv("WEB_PORT", "8080")
    clean_env.setenv("WEB_BASE_URL", "https://parlor.example.org")
    clean_env.setenv("WEB_SECRET", "sign-with-this")
    settings = Settings(_env_file=None)
    assert settings.web_port == 8080 and settings.web_base_url == "https://parlor.example.org"
    assert "sign-with-this" not in repr(settings)
    clean_env.setenv("WEB_PORT", "70000")
    with pytest.raises(ValidationError, match="65535"):
        Settings(_env_file=None)


async def said_on_exit(process: asyncio.subprocess.Process) -> str:
    """What the process said on stderr; it must exit with 2 (a setting to fix) within a minute, not hang."""
    _, stderr = await asyncio.wait_for(process.communicate(), timeout=60)
    said = stderr.decode()
    assert process.returncode == 2, said
    assert "Traceback" not in said, "one line saying why, not a traceback"
    return said


async def test_a_wrong_token_is_said_and_the_process_exits(fake_discord, tmp_path):
    """The store was opened before the login Discord refused: its threads kept the process alive."""
    process = await bot_process(fake_discord, tmp_path, f"sqlite:///{tmp_path / 'p.sqlite3'}", DISCORD_TOKEN="wrong")
    assert "Discord refused DISCORD_TOKEN" in await said_on_exit(process)


async def test_discord_unreachable_is_said_in_one_line(fake_discord, tmp_path):
    process = await bot_process(fake_discord, tmp_path, f"sqlite:///{tmp_path / 'p.sqlite3'}",
                                DISCORD_API_BASE=f"http://127.0.0.1:{free_port()}/api/v10")
    said = await said_on_exit(process)
    assert "cannot reach Discord at 127.0.0.1:" in said and "DISCORD_API_BASE" in said


async def test_a_web_port_in_use_is_said_in_one_line(fake_discord, tmp_path):
    taken = await asyncio.start_server(lambda reader, writer: None, "127.0.0.1", 0)
    port = taken.sockets[0].getsockname()[1]
    try:
        process = await bot_process(fake_discord, tmp_path, f"sqlite:///{tmp_path / 'p.sqlite3'}", WEB_PORT=str(port))
        said = await said_on_exit(process)
    finally:
        taken.close()
    assert f"cannot serve the web pages on 127.0.0.1:{port}" in said and "WEB_PORT" in said


async def test_a_database_folder_that_cannot_be_made_is_said_in_one_line(fake_discord, tmp_path):
    (tmp_path / "a-file").write_text("not a folder")
    process = await bot_process(fake_discord, tmp_path, f"sqlite:///{tmp_path / 'a-file' / 'p.sqlite3'}")
    assert "its folder cannot be made" in await said_on_exit(process)


def test_a_setting_error_reads_cleanly(clean_env, capsys):
    from bot.__main__ import main

    clean_env.setenv("DISCORD_TOKEN", "x")
    clean_env.setenv("SHARD_IDS", "0")
    assert main([]) == 2
    said = capsys.readouterr().err
    assert said.startswith("parlor: bad setting: SHARD_IDS needs SHARD_COUNT") and "Value error" not in said


@pytest.mark.parametrize("name", ["REMINDER_HOURS", "TURN_CLOCK_HOURS", "WEB_LINK_HOURS"])
def test_hours_must_be_finite(clean_env, name):
    clean_env.setenv(name, "inf")
    with pytest.raises(ValidationError, match="finite"):
        Settings(_env_file=None)


def test_a_blank_web_host_is_the_default_one(clean_env):
    clean_env.setenv("WEB_HOST", " ")
    assert Settings(_env_file=None).web_host == "127.0.0.1"


@pytest.mark.parametrize("name,default", [("REMINDER_HOURS", 12.0), ("TURN_CLOCK_HOURS", 48.0),
                                          ("WEB_LINK_HOURS", 72.0), ("LOG_LEVEL", "INFO")])
def test_a_blank_setting_with_a_default_takes_it(clean_env, name, default):
    """`REMINDER_HOURS=` left blank in .env was refused ("Input should be a valid number") where a setting
    left out takes its default, as the blank optional ones already did."""
    clean_env.setenv(name, "  ")
    assert getattr(Settings(_env_file=None), name.lower()) == default
