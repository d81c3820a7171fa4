"""QA (qa-hallway): Two Fat Dudes and Follow the Arrow as new players meet them, through the fake Discord.

Each test is a defect a player meets, marked xfail (strict) until it is fixed.
"""

from __future__ import annotations

import random

import pytest

from bot.client import ParlorBot
from games.core import SeededRandomness
from games.follow_the_arrow import GAME as ARROW
from games.follow_the_arrow import ArrowState
from games.follow_the_arrow_board import coordinates
from tests.e2e.helpers import table
from tests.fakediscord import FakeDiscord
from tests.fakediscord.state import FakeChannel, FakeUser

NO_CHANCE = SeededRandomness(0)


async def seated(fake: FakeDiscord, channel: FakeChannel, slug: str) -> tuple[FakeUser, FakeUser]:
    alice, bob = fake.create_user("alice"), fake.create_user("bob")
    await fake.slash(alice, "game start", channel=channel, game=slug, opponent=bob)
    lobby = table(fake, channel)
    await fake.click(bob, lobby, lobby.button(label="Join")["custom_id"])
    return alice, bob


async def public_view(parlor: ParlorBot, channel: FakeChannel) -> dict:
    return parlor.host.public_view(await parlor.host.last_session_in(str(channel.id)))


# -- Two Fat Dudes ------------------------------------------------------------------------------


# -- Follow the Arrow ---------------------------------------------------------------------------


def _arrow_line(state: ArrowState, seed: int) -> tuple[list[tuple[str, dict]], ArrowState]:
    """A planned line to the end: a win taken when offered, jumps often, Jump called now and then."""
    rnd = random.Random(seed)
    line: list[tuple[str, dict]] = []
    while state.phase != "over" and len(line) < 300:
        if state.jump_callable and line and line[-1][1]["type"] in ("move", "jump") and rnd.random() < 0.5:
            action = {"type": "call_jump"}
            line.append((state.last_mover, action))
            state, _ = ARROW.apply(state, state.last_mover, action, NO_CHANCE)
            continue
        player = ARROW.to_act(state)[0]
        legal = ARROW.legal_actions(state, player)
        if state.phase == "placing":
            action = {"type": "place", "order": rnd.sample([1, 2, 3, 4, 5], 5)}
        else:
            wins = [a for a in legal if ARROW.apply(state, player, a, NO_CHANCE)[0].winner == player]
            jumps = [a for a in legal if a["type"] == "jump"]
            action = wins[0] if wins else (rnd.choice(jumps) if jumps and rnd.random() < 0.8 else rnd.choice(legal))
        line.append((player, action))
        state, _ = ARROW.apply(state, player, action, NO_CHANCE)
    return line, state


def _pawns_out(end: ArrowState) -> list[int]:
    loser = next(p for p in end.players if p != end.winner)
    goal = 6 if loser == end.black else 1
    return [n for n, circle in enumerate(end.pawns[loser], 1) if circle and coordinates(circle)[1] != goal]


async def _play(fake: FakeDiscord, channel: FakeChannel, users: dict[str, FakeUser], player: str,
                action: dict) -> None:
    user, kind = users[player], action["type"]
    if kind == "place":
        result = await fake.slash(user, "place", channel=channel, order=" ".join(map(str, action["order"])))
    elif kind == "move":
        result = await fake.slash(user, "move", channel=channel, pawn=action["pawn"], to=action["to"])
    elif kind == "jump":
        result = await fake.slash(user, "jump", channel=channel, pawn=action["pawn"], path=" ".join(action["path"]))
    else:
        board = table(fake, channel)
        result = await fake.click(user, board, board.button(label="Call Jump!")["custom_id"])
    assert not result.ephemeral, (action, result.response.content)


async def _won_arrow_game(fake: FakeDiscord, parlor: ParlorBot, channel: FakeChannel, wanted) -> tuple:
    """Plays, through Discord, the first planned line whose end `wanted` accepts; returns users, line, end."""
    alice, bob = await seated(fake, channel, "follow-the-arrow")
    users = {str(alice.id): alice, str(bob.id): bob}
    start = parlor.host.state_of(await parlor.host.last_session_in(str(channel.id)))
    line, end = next((line, end) for line, end in (_arrow_line(start, seed) for seed in range(2000))
                     if end.winner and wanted(end))
    return users, line, end


@pytest.mark.xfail(strict=True, reason="a menu pressed after a match game ended says only 'Start a new one with "
                                       "/game start', not /game rematch")
async def test_a_menu_pressed_after_a_match_game_ended_points_to_the_rematch(fake_discord: FakeDiscord,
                                                                           parlor: ParlorBot):
    """README: "Once a game is over, a move tells you so and how to start another (`/game start`, or
    `/game rematch` in a match)". The winner opened the pawn menu (its reply, for him alone, stays), then
    made the winning move by command; choosing in that reply afterwards should point to `/game rematch`
    too, as `/move` does."""
    channel = fake_discord.channel("games")
    users, line, _ = await _won_arrow_game(fake_discord, parlor, channel, lambda end: True)
    for player, action in line[:-1]:
        await _play(fake_discord, channel, users, player, action)
    winner, winning = line[-1]
    board = table(fake_discord, channel)
    menu = next(c for c in board.walk_components() if c.get("type") == 3)
    step = await fake_discord.select(users[winner], board, menu["custom_id"], [menu["options"][0]["value"]])
    reply = step.response
    assert reply.ephemeral and "where to?" in reply.content
    await _play(fake_discord, channel, users, winner, winning)
    assert (await parlor.host.last_session_in(str(channel.id))).status == "finished"

    by_command = await fake_discord.slash(users[winner], "move", channel=channel, pawn=1, to="a2")
    assert "/game rematch" in by_command.response.content, "the command says it"
    assert not reply.deleted, "the private reply is still there to choose in"
    choices = next(c for c in reply.walk_components() if c.get("type") == 3)
    late = await fake_discord.select(users[winner], reply, choices["custom_id"], [choices["options"][0]["value"]])
    assert late.ephemeral
    assert "/game rematch" in late.response.content, late.response.content
