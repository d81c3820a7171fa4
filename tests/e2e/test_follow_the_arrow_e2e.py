"""Follow the Arrow end to end: the real bot through the fake Discord, /place to the last pawn home, then a rematch.

The game has no chance after the colour roll, so the full-game test plans a line with the engine
from the real starting state (random legal moves, a win preferred, at least one Jump called and one
chance let pass in silence) and then drives every step of it through the commands and buttons,
checking on the way that each is accepted and that the bot ends in exactly the planned state.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from bot.client import ParlorBot
from games.core import SeededRandomness
from games.follow_the_arrow import GAME, ArrowState
from tests.e2e.helpers import latest_board, mentioned
from tests.e2e.helpers import table as table_in
from tests.fakediscord import FakeDiscord
from tests.fakediscord.components import walk
from tests.fakediscord.state import FakeChannel, FakeMessage, FakeUser

NO_CHANCE = SeededRandomness(0)
"""The engine draws nothing after the colour roll; planning passes this for form's sake."""


@dataclass
class Step:
    player: str
    action: dict | None
    """None: the player lets a Jump chance pass in silence (his opponent just moves)."""


def plan_line(state: ArrowState, seed: int) -> tuple[list[Step], ArrowState]:
    """A random legal line to the end: winning moves first, else jumps and forward moves more often."""
    rnd = random.Random(seed)
    steps: list[Step] = []
    while state.phase != "over" and len(steps) < 300:
        if state.jump_callable and (not steps or steps[-1].action is not None):
            choice = rnd.choice(["call_jump", "decline_call", None])
            steps.append(Step(state.last_mover, {"type": choice} if choice else None))
            if choice:
                state, _ = GAME.apply(state, state.last_mover, {"type": choice}, NO_CHANCE)
            continue
        player = GAME.to_act(state)[0]
        legal = GAME.legal_actions(state, player)
        if state.phase == "placing":
            action = {"type": "place", "order": rnd.sample([1, 2, 3, 4, 5], 5)}
        else:
            outcomes = [(action, GAME.apply(state, player, action, NO_CHANCE)[0]) for action in legal]
            winning = [action for action, after in outcomes if after.winner == player]
            action = winning[0] if winning else rnd.choice(legal)
        steps.append(Step(player, action))
        state, _ = GAME.apply(state, player, action, NO_CHANCE)
    return steps, state


def good_line(start: ArrowState) -> tuple[list[Step], ArrowState]:
    """The first planned line that is won and both calls Jump and lets a chance pass in silence."""
    fallback = None
    for seed in range(300):
        steps, end = plan_line(start, seed)
        kinds = {step.action["type"] if step.action else "silence" for step in steps}
        if {"call_jump", "decline_call", "silence"} <= kinds and end.phase == "over":
            if end.winner:
                return steps, end
            fallback = fallback or (steps, end)
    assert fallback is not None, "no planned line calls Jump"
    return fallback


async def start_game(fake: FakeDiscord, channel: FakeChannel, alice: FakeUser, bob: FakeUser) -> FakeMessage:
    await fake.slash(alice, "game start", channel=channel, game="follow-the-arrow", opponent=bob)
    lobby = table_in(fake, channel)
    joined = await fake.click(bob, lobby, lobby.button(label="Join")["custom_id"])
    board = table_in(fake, channel)
    assert not joined.ephemeral and board.attachment("board.png").data.startswith(b"\x89PNG")
    return board


class Table:
    """Two users at one channel's game, with the bot's host for reading (never changing) the game."""

    def __init__(self, fake: FakeDiscord, parlor: ParlorBot, channel: FakeChannel, users: list[FakeUser]) -> None:
        self.fake, self.parlor, self.channel = fake, parlor, channel
        self.users = {str(user.id): user for user in users}

    async def session(self):
        return await self.parlor.host.last_session_in(str(self.channel.id))

    async def state(self) -> ArrowState:
        return self.parlor.host.state_of(await self.session())

    async def view(self) -> dict:
        return self.parlor.host.public_view(await self.session())

    def board(self) -> FakeMessage:
        return latest_board(self.fake, self.channel)

    async def do(self, user: FakeUser, command: str, **options) -> FakeMessage:
        """Run a command that must be accepted; returns the board it posts."""
        result = await self.fake.slash(user, command, channel=self.channel, **options)
        assert not result.ephemeral, f"/{command} {options} was refused: {result.response.content}"
        return table_in(self.fake, self.channel)

    async def refused(self, user: FakeUser, command: str, **options) -> str:
        """Run a command that must be refused privately; returns the refusal."""
        before = len(self.fake.messages(self.channel))
        result = await self.fake.slash(user, command, channel=self.channel, **options)
        assert result.ephemeral and result.response.visible_to == user.id, f"/{command} {options} was accepted"
        assert len(self.fake.messages(self.channel)) == before, "a refusal posts nothing public"
        return result.response.content

    async def press(self, user: FakeUser, message: FakeMessage, label: str):
        return await self.fake.click(user, message, message.button(label=label)["custom_id"])


class Driver:
    """Plays a planned line through Discord, varying how each step is entered."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.count = 0
        self.seen = {"wrong_caller": False, "forced_move": False, "stale_button": False, "declined": False}

    async def play(self, steps: list[Step]) -> None:
        silent_board: FakeMessage | None = None
        for step in steps:
            user = self.table.users[step.player]
            if step.action is None:
                silent_board = self.table.board()
                assert silent_board.button(label="Call Jump!"), "a chance to call shows the button"
                continue
            kind = step.action["type"]
            if kind in ("call_jump", "decline_call"):
                await self.answer_chance(user, step.action["type"])
            else:
                await self.move(user, step.action)
            if silent_board is not None and kind in ("move", "jump"):
                await self.press_stale(silent_board)
                silent_board = None

    async def answer_chance(self, user: FakeUser, kind: str) -> None:
        board = self.table.board()
        opponent = next(u for u in self.table.users.values() if u is not user)
        label = "Call Jump!" if kind == "call_jump" else "No call"
        if not self.seen["wrong_caller"]:
            refused = await self.table.press(opponent, board, "Call Jump!")
            assert refused.ephemeral and refused.response.visible_to == opponent.id
            assert "who just moved, may call Jump" in refused.response.content
            self.seen["wrong_caller"] = True
        pressed = await self.table.press(user, board, label)
        assert not pressed.ephemeral, pressed.response.content
        now = table_in(self.table.fake, self.table.channel)
        assert [b["label"] for b in now.buttons()] == [f"Undo ({user.name})"], \
            "the chance is answered: no Call Jump! is left to press, only the answer's Undo"
        if kind == "call_jump":
            assert "calls **Jump!**" in now.embed["description"]
            await self.try_line_move_when_forced(opponent)
        else:
            self.seen["declined"] = True
            assert "may move freely" in now.embed["description"]

    async def try_line_move_when_forced(self, opponent: FakeUser) -> None:
        state = await self.table.state()
        free = state.model_copy(update={"jump_called": False})
        line_moves = [a for a in GAME.legal_actions(free, str(opponent.id)) if a["type"] == "move"]
        if line_moves and not self.seen["forced_move"]:
            move = line_moves[0]
            refusal = await self.table.refused(opponent, "move", pawn=move["pawn"], to=move["to"])
            assert "called Jump: you must jump" in refusal
            self.seen["forced_move"] = True

    async def press_stale(self, board: FakeMessage) -> None:
        """The Call Jump! button of a chance let pass no longer works once the opponent has moved."""
        if self.seen["stale_button"]:
            return
        assert board.deleted or board.buttons() == [], "no stale Call Jump! is left in the channel"
        self.seen["stale_button"] = True

    async def move(self, user: FakeUser, action: dict) -> None:
        """Enter a place, move or jump: typed out, or picked from autocomplete (with or without the pawn)."""
        self.count += 1
        fake, channel = self.table.fake, self.table.channel
        if action["type"] == "place":
            await self.table.do(user, "place", order=" ".join(map(str, action["order"])))
        elif action["type"] == "move":
            if self.count % 3 == 0:
                await self.table.do(user, "move", pawn=action["pawn"], to=action["to"])
            elif self.count % 3 == 1:
                choices = await fake.autocomplete(user, "move", channel=channel, focused="to", pawn=action["pawn"])
                assert action["to"] in [c["value"] for c in choices], choices
                pawns = await fake.autocomplete(user, "move", channel=channel, focused="pawn")
                assert action["pawn"] in [c["value"] for c in pawns], pawns
                await self.table.do(user, "move", pawn=action["pawn"], to=action["to"])
            else:
                choices = await fake.autocomplete(user, "move", channel=channel, focused="to")
                value = f"{action['pawn']} {action['to']}"
                assert value in [c["value"] for c in choices] or len(choices) == 25, choices
                await self.table.do(user, "move", to=value)
        else:
            path = " ".join(action["path"])
            choices = await fake.autocomplete(user, "jump", channel=channel, focused="path", pawn=action["pawn"])
            assert path in [c["value"] for c in choices], choices
            pawns = await fake.autocomplete(user, "jump", channel=channel, focused="pawn")
            assert action["pawn"] in [c["value"] for c in pawns], pawns
            await self.table.do(user, "jump", pawn=action["pawn"], path=path)


async def test_two_users_play_a_match_game_with_called_jumps_then_a_rematch(fake_discord: FakeDiscord,
                                                                             parlor: ParlorBot):
    alice, bob, carol = (fake_discord.create_user(name) for name in ("alice", "bob", "carol"))
    channel = fake_discord.channel("games")
    table = Table(fake_discord, parlor, channel, [alice, bob])
    await start_game(fake_discord, channel, alice, bob)

    steps, planned_end = good_line(await table.state())
    driver = Driver(table)
    await driver.play(steps)

    assert all(driver.seen.values()), driver.seen
    session = await table.session()
    assert session.status == "finished"
    assert (await table.state()) == planned_end, "the bot reached exactly the planned position"
    final = table.board()
    assert [b["label"] for b in final.buttons()] == ["Rematch", "New game", "Replay"]
    assert "/game rematch" in final.embed["description"]
    first_game = await table.view()
    if first_game["winner"]:
        assert f"Winner: <@{first_game['winner']}>" in final.content
        assert f"wins **{first_game['points']}** points" in final.embed["description"]
        assert first_game["points"] > 0

    assert "players of the last" in await table.refused(carol, "game rematch")
    rematch = await table.do(bob, "game rematch")
    second = await table.view()
    first_placer, second_placer = first_game["match"]["placed_first"], first_game["next_game_options"]["first"]
    assert second["match"] == {"game": 2, "placed_first": second_placer, "totals": first_game["match"]["totals"]}
    assert second_placer != first_placer and second["to_act"] == [second_placer]
    assert [p["colour"] for p in second["players"]] == [p["colour"] for p in first_game["players"]]
    assert mentioned(rematch) == [int(second_placer)] and "Match game 2" in rematch.embed["description"]
    assert rematch.pinged == [int(second_placer)]
    assert (await table.session()).player_ids == session.player_ids, "the same seats"

    assert "still open" in await table.refused(alice, "game rematch")
    assert "turn to place" in await table.refused(table.users[first_placer], "place", order="1 2 3 4 5")
    await table.do(table.users[second_placer], "place", order="5 4 3 2 1")
    assert (await table.view())["to_act"] == [first_placer]


async def placed(table: Table, black: FakeUser, red: FakeUser) -> None:
    """Both place 1 2 3 4 5: black's pawn 1 on a1, red's pawn 5 on e6."""
    assert "turn to place pawns" in await table.refused(red, "place", order="1 2 3 4 5")
    assert "each once" in await table.refused(black, "place", order="1 2 3 4 4")
    assert "columns a to e" in await table.refused(black, "place", order="one two")
    await table.do(black, "place", order="1 2 3 4 5")
    await table.do(red, "place", order="1,2,3,4,5")


async def test_illegal_commands_are_refused_privately_with_the_reason(fake_discord: FakeDiscord,
                                                                      parlor: ParlorBot):
    alice, bob, carol = (fake_discord.create_user(name) for name in ("alice", "bob", "carol"))
    channel = fake_discord.channel("games")
    table = Table(fake_discord, parlor, channel, [alice, bob])
    await start_game(fake_discord, channel, alice, bob)
    view = await table.view()
    black = table.users[next(p["id"] for p in view["players"] if p["colour"] == "black")]
    red = alice if black is bob else bob
    await placed(table, black, red)

    assert "not playing" in await table.refused(carol, "move", pawn=1, to="a2")
    assert "turn to move" in await table.refused(red, "move", pawn=5, to="e5")
    assert "No arrow on a1 points to b1" in await table.refused(black, "move", pawn=1, to="b1")
    assert "use /jump" in await table.refused(black, "move", pawn=1, to="a3")
    assert "no pawn on a2 to jump" in await table.refused(black, "jump", pawn=1, path="a3")
    assert "not a circle" in await table.refused(black, "move", pawn=1, to="z9")
    assert "Say which pawn" in await table.refused(black, "move", to="a2")
    assert "offered for pawn 2" in await table.refused(black, "move", pawn=1, to="2 b2")
    assert "/roll is not used" in await table.refused(black, "roll")
    assert [b["label"] for b in table.board().buttons()] == [f"Undo ({red.name})"], \
        "no Call Jump! before anyone has moved, only the last placement's Undo"

    assert await fake_discord.autocomplete(red, "move", channel=channel, focused="to") == [], "not red's turn"
    choices = await fake_discord.autocomplete(black, "move", channel=channel, focused="to", pawn=1)
    assert {c["value"] for c in choices} == {"a2", "b2"}
    assert {c["name"] for c in choices} == {"pawn 1 → a2", "pawn 1 → b2"}
    await table.do(black, "move", to="1 a2")
    await table.do(red, "move", pawn=5, to="e5")
    assert "No backward moves" in await table.refused(black, "move", pawn=1, to="a1")


async def test_jump_belongs_to_follow_the_arrow_and_rematch_needs_a_match(fake_discord: FakeDiscord,
                                                                          parlor: ParlorBot):
    alice, bob = fake_discord.create_user("alice"), fake_discord.create_user("bob")
    channel = fake_discord.channel("lounge")
    table = Table(fake_discord, parlor, channel, [alice, bob])
    assert "no game in this channel" in await table.refused(alice, "jump", pawn=1, path="c4")
    assert "No game has been played" in await table.refused(alice, "game rematch")
    await fake_discord.slash(alice, "game start", channel=channel, game="john-henry", opponent=bob)
    lobby = table_in(fake_discord, channel)
    await fake_discord.click(bob, lobby, lobby.button(label="Join")["custom_id"])
    assert "Follow the Arrow command" in await table.refused(alice, "jump", pawn=1, path="c4")
    assert await fake_discord.autocomplete(alice, "jump", channel=channel, focused="path") == []
    await table.do(alice, "game abandon")
    assert "was abandoned" in await table.refused(alice, "game rematch")


def line_to_a_chance_to_call(state: ArrowState) -> tuple[list[Step], int]:
    """Random legal moves from `state` (the opponent never calls) to the first position where the last mover
    may call Jump and the player to move has a pawn with a line move: those steps, and that pawn."""
    for seed in range(300):
        rnd, steps, now = random.Random(seed), [], state
        while now.phase != "over" and len(steps) < 100:
            mover = GAME.to_act(now)[0]
            legal = GAME.legal_actions(now, mover)
            if now.phase == "play" and now.jump_callable:
                pawns = sorted({a["pawn"] for a in legal if a["type"] == "move"},
                               key=lambda pawn: any(a["type"] == "jump" and a["pawn"] == pawn for a in legal))
                if pawns:
                    return steps, pawns[0]
            action = ({"type": "place", "order": rnd.sample([1, 2, 3, 4, 5], 5)} if now.phase == "placing"
                      else rnd.choice(legal))
            steps.append(Step(mover, action))
            now, _ = GAME.apply(now, mover, action, NO_CHANCE)
    raise AssertionError("no line reaches a chance to call Jump")


async def test_a_destination_chosen_after_the_opponent_called_jump_says_so_and_what_to_do(
        fake_discord: FakeDiscord, parlor: ParlorBot):
    """A pawn's destinations come in a private reply; once the opponent calls Jump, a line move chosen there
    is refused saying who called Jump and that the player must jump now, not only that it is not offered."""
    alice, bob = fake_discord.create_user("alice"), fake_discord.create_user("bob")
    channel = fake_discord.channel("games")
    table = Table(fake_discord, parlor, channel, [alice, bob])
    await start_game(fake_discord, channel, alice, bob)
    steps, pawn = line_to_a_chance_to_call(await table.state())
    for step in steps:
        user, action = table.users[step.player], step.action
        if action["type"] == "place":
            await table.do(user, "place", order=" ".join(map(str, action["order"])))
        elif action["type"] == "move":
            await table.do(user, "move", pawn=action["pawn"], to=action["to"])
        else:
            await table.do(user, "jump", pawn=action["pawn"], path=" ".join(action["path"]))
    state = await table.state()
    jumper, caller = table.users[GAME.to_act(state)[0]], table.users[state.last_mover]
    board = table.board()
    pawns = next(c for c in walk(board.components) if c.get("custom_id", "").endswith(":pawn"))
    shown = await fake_discord.select(jumper, board, pawns["custom_id"], [f"pawn.{pawn}"])
    assert shown.ephemeral and "where to?" in shown.response.content
    reply = shown.response
    destinations = next(c for c in walk(reply.components) if c.get("options"))
    line_move = next(o["value"] for o in destinations["options"] if o["value"].startswith("move."))

    called = await table.press(caller, table.board(), "Call Jump!")
    assert not called.ephemeral, called.response.content
    session = await table.session()
    refused = await fake_discord.select(jumper, reply, destinations["custom_id"], [line_move])
    told = refused.text
    assert refused.ephemeral and f"{caller.name} called Jump: you must jump this turn" in told, told
    assert "latest table's buttons and menus" in told and "not offered" not in told, told
    assert (await table.session()).version == session.version, "nothing changed"


async def test_a_chance_let_pass_and_taken_back_is_called_what_its_button_said(fake_discord: FakeDiscord,
                                                                             parlor: ParlorBot):
    """The player who may call Jump presses **No call**, then takes it back: the table said 'took back move 9
    (decline call)', naming a move no button or command showed."""
    alice, bob = (fake_discord.create_user(name) for name in ("alice", "bob"))
    channel = fake_discord.channel("games")
    table = Table(fake_discord, parlor, channel, [alice, bob])
    await start_game(fake_discord, channel, alice, bob)
    steps, _ = good_line(await table.state())
    upto = next(index for index, step in enumerate(steps) if step.action == {"type": "decline_call"})
    await Driver(table).play([step for step in steps[:upto] if step.action is not None])
    caller = table.users[steps[upto].player]
    await table.press(caller, table.board(), "No call")
    await table.press(caller, table.board(), f"Undo ({caller.name})")
    told = table.board().embed["description"]
    assert f"took back move {len(await parlor.host.moves(await table.session())) - 1} (no call)." in told, told
