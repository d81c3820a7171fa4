"""Every string option of every command, given long, empty and odd text, gets a short clear answer.

Each game runs in its own channel; every command with a free-text option is run there by the player
to act, with each odd value in that option. Whatever the bot answers must fit Discord (the fake
refuses what Discord would), a refusal must be short, private and free of the apology and of the
user's long text beyond a short prefix, and nothing may be logged as an error.
"""

from __future__ import annotations

import logging

from bot.presentation.user_text import REFUSAL_LIMIT
from bot.presentation.words import APOLOGY
from games import GAMES, get_game
from tests.e2e.helpers import table

STRING, INTEGER, BOOLEAN, USER, NUMBER = 3, 4, 5, 6, 10
ODD_VALUES = {
    "6,000 characters": "x" * 6000,
    "6,000 characters with spaces": ("F7 no " * 1000)[:6000],
    "6,000 emoji": "🚂" * 6000,
    "empty": "",
    "right-to-left": "\u202eF7 שלום مرحبا \u202c",
    "zero-width": "\u200bF\u200c7\u200d\ufeff",
    "emoji": "🎲 👨‍👩‍👧 c4 🚂",
}


def free_text_options(commands: list[dict]) -> list[tuple[str, dict, list[dict]]]:
    """(command path, the string option, its siblings) for every string option without fixed choices."""
    found = []

    def walk(node: dict, path: list[str]) -> None:
        options = node.get("options") or []
        for option in options:
            if option["type"] in (1, 2):
                walk(option, [*path, option["name"]])
            elif option["type"] == STRING and not option.get("choices"):
                found.append((" ".join(path), option, options))

    for command in commands:
        walk(command, [command["name"]])
    return found


def filler(option: dict, other):
    """A plausible value for a required option that is not the one being fuzzed."""
    if option.get("choices"):
        return option["choices"][0]["value"]
    return {STRING: "a1", INTEGER: 1, NUMBER: 1.0, BOOLEAN: True, USER: other}[option["type"]]


async def open_every_game(fake, parlor) -> dict:
    """A running game of each kind in a channel of its own: channel -> its players."""
    tables = {}
    for slug in sorted(GAMES):
        game = get_game(slug)
        channel = fake.create_channel(f"fuzz-{slug}")
        users = [fake.create_user(f"{slug}-{n}") for n in range(game.min_players)]
        await fake.slash(users[0], "game start", channel=channel, game=slug)
        for user in users[1:]:
            lobby = table(fake, channel)
            await fake.click(user, lobby, lobby.button(label="Join")["custom_id"])
        if (await parlor.host.last_session_in(str(channel.id))).status == "lobby":
            await fake.slash(users[0], "game begin", channel=channel)
        tables[channel] = users
    return tables


async def test_odd_text_in_every_string_option_gets_a_short_private_refusal(fake_discord, parlor, caplog):
    fake = fake_discord
    caplog.set_level(logging.WARNING)
    tables = await open_every_game(fake, parlor)
    targets = free_text_options(fake.synced_commands())
    assert {"build to", "keep cards", "move path", "score box"} <= {f"{p} {o['name']}" for p, o, _ in targets}
    answered = 0
    for channel, users in tables.items():
        for path, option, siblings in targets:
            for what, value in ODD_VALUES.items():
                session = await parlor.host.last_session_in(str(channel.id))
                to_act = parlor.host.to_act(session)
                user = next((u for u in users if str(u.id) in to_act), users[0])
                other = next(u for u in users if u is not user)
                values = {o["name"]: filler(o, other) for o in siblings if o.get("required") and o is not option}
                values[option["name"]] = value
                result = await fake.slash(user, path, channel=channel, options=values)
                answered += 1
                where = f"/{path} {option['name']}:<{what}> in #{channel.name}"
                texts = [m.content or "" for m in fake.ephemeral_messages(user)]
                assert not any(APOLOGY in text for text in texts), f"{where}: the apology"
                if result.ephemeral:
                    reply = result.response
                    text = reply.content or ""
                    shown = "\n".join([text, *(str(embed.get("description", "")) for embed in reply.embeds)])
                    assert shown.strip() or reply.attachments, f"{where}: an empty answer"
                    assert len(text) <= REFUSAL_LIMIT, f"{where}: {len(text)} characters"
                    assert "Traceback" not in shown
                    if len(value) > 100:
                        assert value[:100] not in shown, f"{where}: quotes more than a short prefix"
    assert answered == len(tables) * len(targets) * len(ODD_VALUES)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], "no error, no traceback"
    too_long = [e for e in fake.http_errors if e[2] == 400]
    assert not too_long, f"Discord would have refused: {too_long}"
