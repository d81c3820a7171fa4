"""Settings from the environment and `.env`, in one pydantic-settings class."""

from __future__ import annotations

from pathlib import Path

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict


class MissingToken(RuntimeError):
    """Raised when the bot is started without DISCORD_TOKEN."""


class Settings(BaseSettings):
    """Everything Parlor reads from its environment; `.env.example` documents each one."""

    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    discord_token: SecretStr | None = Field(default=None, description="The bot token from the Developer Portal.")
    database_url: str = Field(default="sqlite:///data/parlor.sqlite3",
                              description="Where games are stored: sqlite:///relative/path or sqlite:////abs/path.")
    discord_api_base: str | None = Field(default=None,
                                         description="REST base for emulators/tests, e.g. http://127.0.0.1:8765/api/v10.")
    discord_gateway_url: str | None = Field(default=None,
                                            description="Gateway websocket for emulators/tests.")
    discord_guild_id: int | None = Field(default=None,
                                         description="Sync commands to this guild only (instant, for development).")
    log_level: str = Field(default="INFO", description="DEBUG, INFO, WARNING or ERROR.")
    reminder_hours: float = Field(default=12.0, gt=0, description="Default reminder period for servers.")
    turn_clock_hours: float = Field(default=48.0, gt=0, description="Default turn clock before /game claim.")

    @field_validator("discord_api_base", "discord_gateway_url", "discord_token", "discord_guild_id", mode="before")
    @classmethod
    def _blank_is_unset(cls, value: object) -> object:
        return None if isinstance(value, str) and not value.strip() else value

    @field_validator("log_level")
    @classmethod
    def _known_level(cls, value: str) -> str:
        level = value.upper()
        if level not in {"DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"}:
            raise ValueError("LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR")
        return level

    @property
    def database_path(self) -> Path:
        """The SQLite file named by DATABASE_URL."""
        prefix = "sqlite:///"
        if not self.database_url.startswith(prefix):
            raise ValueError("DATABASE_URL must look like sqlite:///data/parlor.sqlite3")
        return Path(self.database_url[len(prefix):])

    def require_token(self) -> str:
        if self.discord_token is None:
            raise MissingToken(
                "DISCORD_TOKEN is not set: put your bot token in the environment or in a .env file "
                "(see .env.example and the README's 'Create the Discord application')."
            )
        return self.discord_token.get_secret_value()
