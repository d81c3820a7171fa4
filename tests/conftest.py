"""Fixtures shared by every test folder: the fake Discord on loopback."""

from tests.fakediscord.fixtures import fake_discord  # noqa: F401
