"""The application commands the bot synced, and turning a test's call into interaction `data` against them.

A test names a command the way a user types it ("game start") and passes option values as keyword
arguments. Everything is checked against what the bot actually synced, the way the Discord client
would refuse it: an unknown command, subcommand or option, a missing required option, a value of the
wrong type, outside its choices or bounds, a command not offered in that place or to that member.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tests.fakediscord import payloads
from tests.fakediscord.state import FakeAttachment, FakeChannel, FakeRole, FakeUser, World

SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER, ATTACHMENT = 3, 4, 5, 6, 7, 8, 9, 10, 11
GUILD_CONTEXT, BOT_DM_CONTEXT = 0, 1


class CommandError(LookupError):
    """The Discord client would not let a user send this command (the test or the bot's sync is wrong)."""


class CommandRegistry:
    """Commands stored exactly as the bot PUT them, with the ids and defaults Discord adds."""

    def __init__(self, world: World) -> None:
        self._world = world
        self.global_commands: list[dict[str, Any]] = []
        self.guild_commands: dict[int, list[dict[str, Any]]] = {}
        self.sync_count = 0

    def replace(self, guild_id: int | None, commands: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Bulk overwrite, keeping the id of a command whose name and type did not change (as Discord does)."""
        old = self.global_commands if guild_id is None else self.guild_commands.get(guild_id, [])
        old_ids = {(c["name"], c["type"]): c["id"] for c in old}
        stored = []
        for command in commands:
            kind = command.get("type", 1)
            entry = {
                "description": "",
                "options": [],
                "default_member_permissions": None,
                "nsfw": False,
                **command,
                "type": kind,
                "id": old_ids.get((command["name"], kind)) or str(self._world.snowflake()),
                "application_id": str(self._world.bot_user.id),
                "version": str(self._world.snowflake()),
            }
            if entry["default_member_permissions"] is not None:
                entry["default_member_permissions"] = str(entry["default_member_permissions"])
            if guild_id is not None:
                entry["guild_id"] = str(guild_id)
            stored.append(entry)
        if guild_id is None:
            self.global_commands = stored
        else:
            self.guild_commands[guild_id] = stored
        self.sync_count += 1
        self._world.changed()
        return stored

    def listing(self, guild_id: int | None) -> list[dict[str, Any]]:
        return self.global_commands if guild_id is None else self.guild_commands.get(guild_id, [])

    def names(self) -> list[str]:
        every = self.global_commands + [c for cs in self.guild_commands.values() for c in cs]
        return sorted({c["name"] for c in every if c["type"] == 1})

    def find(self, name: str, channel: FakeChannel) -> dict[str, Any]:
        candidates = [] if channel.is_dm else self.guild_commands.get(channel.guild_id or 0, [])
        for command in candidates + self.global_commands:
            if command["name"] == name and command["type"] == 1:
                return command
        raise CommandError(f"no slash command /{name} where the user is; synced: {self.names()}")


@dataclass
class Invocation:
    """What `build` produces: the interaction's `data`, and the leaf command/subcommand it names."""

    data: dict[str, Any]
    leaf: dict[str, Any]
    resolved: dict[str, dict[str, Any]] = field(default_factory=dict)


def build(
    registry: CommandRegistry,
    world: World,
    user: FakeUser,
    channel: FakeChannel,
    path: str,
    values: dict[str, Any],
    focused: str | None = None,
) -> Invocation:
    names = path.split()
    if not names:
        raise CommandError("empty command name")
    command = registry.find(names[0], channel)
    _check_offered(world, command, user, channel)
    leaf, chain = command, []
    for name in names[1:]:
        subs = [o for o in leaf.get("options", []) if o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)]
        match = [o for o in subs if o["name"] == name]
        if not match:
            have = [o["name"] for o in subs]
            raise CommandError(f"/{path}: no subcommand {name!r} under /{leaf['name']}; has {have}")
        leaf = match[0]
        chain.append(leaf)
    if any(o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP) for o in leaf.get("options", [])):
        subs = [o["name"] for o in leaf["options"]]
        raise CommandError(f"/{path} is a group; name one of its subcommands {subs}")
    invocation = Invocation(data={}, leaf=leaf)
    options = _leaf_options(world, user, channel, path, leaf, values, focused, invocation.resolved)
    for sub in reversed(chain):
        options = [{"type": sub["type"], "name": sub["name"], "options": options}]
    invocation.data = {"id": command["id"], "name": command["name"], "type": 1, "options": options}
    if "guild_id" in command:
        invocation.data["guild_id"] = command["guild_id"]
    if invocation.resolved:
        invocation.data["resolved"] = invocation.resolved
    return invocation


def _check_offered(world: World, command: dict[str, Any], user: FakeUser, channel: FakeChannel) -> None:
    contexts = command.get("contexts")
    name = command["name"]
    if channel.is_dm:
        if command.get("dm_permission") is False or (contexts is not None and BOT_DM_CONTEXT not in contexts):
            raise CommandError(f"/{name} is not offered in direct messages")
        return
    if not user.member:
        raise CommandError(f"{user.name} is not a member of the test guild")
    if contexts is not None and GUILD_CONTEXT not in contexts:
        raise CommandError(f"/{name} is not offered in guilds")
    required = command.get("default_member_permissions")
    has = world.permissions_of(user, world.guild_of(channel))
    if required is not None and (has & int(required)) != int(required):
        raise CommandError(f"/{name} needs permissions {required}; {user.name} has {has}")


def _leaf_options(
    world: World,
    user: FakeUser,
    channel: FakeChannel,
    path: str,
    leaf: dict[str, Any],
    values: dict[str, Any],
    focused: str | None,
    resolved: dict[str, dict[str, Any]],
) -> list[dict[str, Any]]:
    defined = {o["name"]: o for o in leaf.get("options", [])}
    unknown = set(values) - set(defined)
    if focused is not None:
        unknown |= {focused} - set(defined)
    if unknown:
        raise CommandError(f"/{path} has no options {sorted(unknown)}; it has {list(defined)}")
    options = []
    for name, option in defined.items():
        if name == focused:
            if not option.get("autocomplete"):
                raise CommandError(f"/{path} option {name!r} has no autocomplete")
            typed = values.get(name, "")
            options.append({"type": option["type"], "name": name, "value": str(typed), "focused": True})
        elif name in values:
            value = _convert(world, user, channel, path, option, values[name], resolved)
            options.append({"type": option["type"], "name": name, "value": value})
        elif option.get("required") and focused is None:
            raise CommandError(f"/{path} requires option {name!r}")
    return options


def _convert(
    world: World,
    user: FakeUser,
    channel: FakeChannel,
    path: str,
    option: dict[str, Any],
    value: Any,
    resolved: dict[str, dict[str, Any]],
) -> Any:
    kind, name = option["type"], option["name"]
    where = f"/{path} option {name!r}"
    if kind in (STRING, INTEGER, NUMBER, BOOLEAN):
        _check_scalar(where, option, value)
        return value
    if kind == USER or (kind == MENTIONABLE and isinstance(value, FakeUser)):
        if not isinstance(value, FakeUser):
            raise TypeError(f"{where} takes a user, got {value!r}")
        resolved.setdefault("users", {})[str(value.id)] = payloads.user(value)
        if value.member and not channel.is_dm:
            member = payloads.member(world, value, with_user=False, with_permissions=True,
                                     guild=world.guild_of(channel))
            resolved.setdefault("members", {})[str(value.id)] = member
        return str(value.id)
    if kind in (ROLE, MENTIONABLE):
        if not isinstance(value, FakeRole):
            raise TypeError(f"{where} takes a role, got {value!r}")
        resolved.setdefault("roles", {})[str(value.id)] = payloads.role(value)
        return str(value.id)
    if kind == CHANNEL:
        if not isinstance(value, FakeChannel):
            raise TypeError(f"{where} takes a channel, got {value!r}")
        allowed = option.get("channel_types")
        if allowed and value.type not in allowed:
            raise CommandError(f"{where} accepts channel types {allowed}, not {value.type}")
        resolved.setdefault("channels", {})[str(value.id)] = payloads.channel(world, value, viewer=user)
        return str(value.id)
    if kind == ATTACHMENT:
        if not isinstance(value, FakeAttachment):
            raise TypeError(f"{where} takes a file (FakeAttachment), got {value!r}")
        world.uploads[value.id] = value
        resolved.setdefault("attachments", {})[str(value.id)] = payloads.attachment_in(world, channel.id, value,
                                                                                      ephemeral=True)
        return str(value.id)
    raise CommandError(f"{where} has type {kind}, which the fake Discord does not send")


def _check_scalar(where: str, option: dict[str, Any], value: Any) -> None:
    kind = option["type"]
    ok = {
        STRING: isinstance(value, str),
        INTEGER: isinstance(value, int) and not isinstance(value, bool),
        NUMBER: isinstance(value, int | float) and not isinstance(value, bool),
        BOOLEAN: isinstance(value, bool),
    }[kind]
    if not ok:
        raise TypeError(f"{where} has type {kind}, got {value!r}")
    choices = option.get("choices")
    if choices and value not in [c["value"] for c in choices]:
        raise CommandError(f"{where} must be one of {[c['value'] for c in choices]}, got {value!r}")
    low, high = ("min_length", "max_length") if kind == STRING else ("min_value", "max_value")
    size = len(value) if kind == STRING else value
    if kind != BOOLEAN and option.get(low) is not None and size < option[low]:
        raise CommandError(f"{where}: {value!r} is below {low} {option[low]}")
    if kind != BOOLEAN and option.get(high) is not None and size > option[high]:
        raise CommandError(f"{where}: {value!r} is above {high} {option[high]}")
