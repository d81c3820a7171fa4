"""Settings from the environment and `.env`, in one pydantic-settings class."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, SecretStr, field_validator, model_validator
from pydantic_core import PydanticUseDefault
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from bot.runtime.shards import Shards
from bot.storage.dialects import DATABASE_URL_HELP, POSTGRES_URLS, SQLITE_URL

DEFAULT_WEB_HOST = "127.0.0.1"
"""The web pages listen on this machine only unless told otherwise (a reverse proxy in front: docs/operators.md)."""


class MissingToken(RuntimeError):
    """Raised when the bot is started without DISCORD_TOKEN."""


class Settings(BaseSettings):
    """Everything Parlor reads from its environment; `.env.example` documents each one."""

    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    discord_token: SecretStr | None = Field(default=None, description="The bot token from the Developer Portal.")
    database_url: str = Field(default="sqlite:///data/parlor.sqlite3", repr=False,
                              description="Where games are stored: sqlite:///relative/path, sqlite:////abs/path, "
                                          "or postgresql://user:password@host:port/database.")
    discord_api_base: str | None = Field(default=None,
                                         description="REST base for emulators/tests, e.g. http://127.0.0.1:8765/api/v10.")
    discord_gateway_url: str | None = Field(default=None,
                                            description="Gateway websocket for emulators/tests.")
    discord_guild_id: int | None = Field(default=None,
                                         description="Sync commands to this guild only (instant, for development).")
    force_command_sync: bool = Field(default=False,
                                     description="Sync slash commands at start even if unchanged since the last sync.")
    log_level: str = Field(default="INFO", description="DEBUG, INFO, WARNING or ERROR.")
    reminder_hours: float = Field(default=12.0, gt=0, allow_inf_nan=False,
                                  description="Default reminder period for servers.")
    turn_clock_hours: float = Field(default=48.0, gt=0, allow_inf_nan=False,
                                    description="Default turn clock before /game claim.")
    shard_count: int | None = Field(default=None, gt=0,
                                    description="How many shards the whole bot runs (over all its processes).")
    shard_ids: Annotated[list[int] | None, NoDecode] = Field(
        default=None, description="The shards this process runs, e.g. 0,1; needs SHARD_COUNT.")
    web_port: int | None = Field(default=None, ge=0, le=65535,
                                 description="Serve the games' web pages on this port (unset: no web pages).")
    web_host: str = Field(default=DEFAULT_WEB_HOST, description="The address the web pages listen on.")
    web_base_url: str | None = Field(default=None,
                                     description="The pages' public address for links, e.g. https://parlor.example.org.")
    web_secret: SecretStr | None = Field(default=None, description="Signs the web links (unset: a random secret "
                                                                   "kept in the database).")
    activity_client_id: str | None = Field(default=None, description="The application's id, for the table as a "
                                                                     "Discord Activity (unset: the bot's own).")
    activity_client_secret: SecretStr | None = Field(default=None, description="The application's OAuth2 client "
                                                     "secret: set, with WEB_PORT, to serve the Discord Activity.")
    activity_frame_ancestors: str = Field(default="", description="More origins that may frame the Activity, "
                                                                  "space-separated (tests, Discord's staging).")
    ops_port: int | None = Field(default=None, ge=0, le=65535,
                                 description="Serve /healthz and /metrics on this port (unset: not served).")
    ops_host: str = Field(default=DEFAULT_WEB_HOST, description="The address /healthz and /metrics listen on.")
    web_link_hours: float = Field(default=72.0, gt=0, allow_inf_nan=False,
                                  description="How long a player's personal web link works.")

    @field_validator("discord_api_base", "discord_gateway_url", "discord_token", "discord_guild_id", "shard_count",
                     "web_port", "web_base_url", "web_secret", "ops_port", "activity_client_id",
                     "activity_client_secret", mode="before")
    @classmethod
    def _blank_is_unset(cls, value: object) -> object:
        return None if isinstance(value, str) and not value.strip() else value

    @field_validator("reminder_hours", "turn_clock_hours", "web_link_hours", "log_level", mode="before")
    @classmethod
    def _blank_is_the_default(cls, value: object) -> object:
        """Left blank in .env (`REMINDER_HOURS=`), a setting with a default takes it, as one left out does."""
        if isinstance(value, str) and not value.strip():
            raise PydanticUseDefault()
        return value

    @field_validator("web_host", "ops_host", mode="before")
    @classmethod
    def _blank_host_is_the_default(cls, value: object) -> object:
        """Left blank in .env, the host is the default one, not every interface."""
        return DEFAULT_WEB_HOST if isinstance(value, str) and not value.strip() else value

    @field_validator("database_url")
    @classmethod
    def _known_database(cls, value: str) -> str:
        if not value.startswith((SQLITE_URL, *POSTGRES_URLS)):
            raise ValueError(DATABASE_URL_HELP)
        return value

    @field_validator("shard_ids", mode="before")
    @classmethod
    def _comma_separated(cls, value: object) -> object:
        if isinstance(value, str):
            if not value.strip():
                return None
            try:
                return [int(part) for part in value.replace(" ", "").split(",") if part]
            except ValueError:
                raise ValueError("SHARD_IDS must be shard numbers separated by commas, e.g. 0,1") from None
        return value

    @model_validator(mode="after")
    def _shards_fit(self) -> Settings:
        if self.shard_ids is not None and self.shard_count is None:
            raise ValueError("SHARD_IDS needs SHARD_COUNT (how many shards there are over all processes)")
        if self.shard_ids is not None and self.shard_count is not None:
            wrong = [n for n in self.shard_ids if not 0 <= n < self.shard_count]
            if wrong or not self.shard_ids or len(set(self.shard_ids)) != len(self.shard_ids):
                raise ValueError(f"SHARD_IDS must be distinct numbers from 0 to {self.shard_count - 1}")
        return self

    @property
    def sharded(self) -> bool:
        """True when SHARD_COUNT is set: this process is an AutoShardedBot over `own_shards`."""
        return self.shard_count is not None

    @property
    def shards(self) -> Shards | None:
        """The guilds this process owns (its reminders); None when unsharded: every guild."""
        return Shards(self.shard_count, tuple(self.own_shards)) if self.shard_count is not None else None

    @property
    def own_shards(self) -> list[int]:
        """The shards this process runs: SHARD_IDS, or all of them when only SHARD_COUNT is set."""
        if self.shard_count is None:
            return [0]
        return self.shard_ids if self.shard_ids is not None else list(range(self.shard_count))

    @field_validator("force_command_sync", mode="before")
    @classmethod
    def _blank_is_false(cls, value: object) -> object:
        return False if isinstance(value, str) and not value.strip() else value

    @field_validator("log_level")
    @classmethod
    def _known_level(cls, value: str) -> str:
        level = value.upper()
        if level not in {"DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"}:
            raise ValueError("LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR")
        return level

    def require_token(self) -> str:
        if self.discord_token is None:
            raise MissingToken(
                "DISCORD_TOKEN is not set: put your bot token in the environment or in a .env file "
                "(see .env.example and the README's 'Create the Discord application')."
            )
        return self.discord_token.get_secret_value()
