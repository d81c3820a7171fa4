"""A whole Crayon Rails game through the fake Discord, routes chosen from `/cities`, ending with a winner.

Alice plans as a newcomer would: `/cities` lists the open demands of every city, `/cities city:` names
who supplies each one, and she picks the delivery whose cities her track can join most cheaply (the
board tells her where her track runs). She builds with `/build to:` (preview, Confirm), runs her
train with `/place` and `/move to:`, and `/pickup`, `/lock`, `/deliver`; with the cash made she joins
three major cities. Bob only ends his turns. Every move is a command or a press in Discord.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.client import ParlorBot
from games.crayon_rails.cards import demand_card
from games.crayon_rails.mapdata import board
from games.crayon_rails.routing import majors_joined, network, train_route
from games.crayon_rails.state import State
from tests.e2e.helpers import latest_board
from tests.e2e.test_crayon_rails_e2e import Table, _joined_cost, open_game
from tests.fakediscord import FakeDiscord
from tests.fakediscord.state import FakeUser

CITY_LINE = re.compile(r"^\*\*(\w+)\*\* ([A-X]\d+) · supplies (.*) · wants (.*)$")
WANT = re.compile(r"(\w+) (\d+) \(#(\d+) pool, demand (\d)\)")
SUPPLIERS = re.compile(r"^\s+(\w+) (\d+) \(#(\d+) [^)]*\): supplied by (.*)\.$")
PLACE = re.compile(r"(\w+) \(([A-X]\d+)\)")
MAX_ROUNDS = 90
GAME_SEED = 2026
"""The game's dice seed: the deal and every draw. With a random one, a deal whose demands lie far from
every major city could leave the plan short of a win in MAX_ROUNDS (seen once in many runs)."""


@dataclass(frozen=True)
class Delivery:
    card: int
    demand: int
    load: str
    payoff: int
    supply: str
    city: str


class Planner:
    """Alice: reads `/cities`, picks deliveries, and plays her turns by commands."""

    def __init__(self, table: Table, user: FakeUser) -> None:
        self.table, self.user, self.me = table, user, str(user.id)
        self.plan: Delivery | None = None
        self.cities_asked = 0

    async def cities(self, city: str | None = None) -> str:
        options = {"city": city} if city else {}
        result = await self.table.fake.slash(self.user, "cities", channel=self.table.channel, **options)
        assert result.ephemeral and result.response.visible_to == self.user.id, "the cities answer is private"
        self.cities_asked += 1
        return result.response.embed["description"]

    async def candidates(self) -> list[Delivery]:
        """Open pool demands from `/cities`, each with its suppliers from `/cities city:`."""
        wanted: list[tuple[str, str, int, int, int]] = []
        for line in (await self.cities()).splitlines():
            found = CITY_LINE.match(line)
            if found:
                for load, payoff, card, demand in WANT.findall(found[4]):
                    wanted.append((found[1], load, int(payoff), int(card), int(demand)))
        deliveries = []
        for city in sorted({city for city, *_ in wanted}):
            for line in (await self.cities(city)).splitlines():
                found = SUPPLIERS.match(line)
                if not found or "pool" not in line:
                    continue
                card, demand = int(found[3]), next(d for c, _, _, k, d in wanted if c == city and k == int(found[3]))
                for supplier, _ in PLACE.findall(found[4]):
                    if supplier != city:
                        deliveries.append(Delivery(card, demand, found[1], int(found[2]), supplier, city))
        return deliveries

    async def choose(self) -> Delivery | None:
        state = await self.table.state()
        cash = state.player(self.me).cash
        scored = []
        for delivery in await self.candidates():
            supply, city = board().cities[delivery.supply].at, board().cities[delivery.city].at
            cost = _joined_cost(state, self.me, (delivery.supply, delivery.city), supply, city)
            if cost is not None and cost <= cash + 10:
                scored.append((delivery.payoff - cost, -cost, delivery))
        return max(scored, key=lambda item: item[:2])[2] if scored else None

    def carrying_lock(self, state: State) -> tuple[int, int, str] | None:
        """Alice's public lock (card, demand, city), if she has one."""
        for card in state.public_pool:
            for lock in card.locks:
                if lock.player == self.me:
                    return card.id, lock.demand, demand_card(card.id).demands[lock.demand].city
        return None

    async def try_command(self, command: str, **options) -> bool:
        result = await self.table.fake.slash(self.user, command, channel=self.table.channel, **options)
        return not result.ephemeral

    async def run_to(self, city: str) -> None:
        if train_route(await self.table.state(), self.me, city):
            await self.try_command("move", to=city)

    async def operate(self) -> None:
        """The train's part of a turn: place it, carry the plan's load to its city, deliver."""
        state = await self.table.state()
        me = state.player(self.me)
        winning = me.cash >= state.options.target_cash
        locked = self.carrying_lock(state)
        if self.plan is None and not locked and not winning:
            self.plan = await self.choose()
        if me.at is None:
            start = self.plan.supply if self.plan else next(c.name for c in board().majors
                                                            if c.at in network(me)) if network(me) else "Westholm"
            await self.table.ok(self.user, "place", city=start)
        for _ in range(4):
            state = await self.table.state()
            me = state.player(self.me)
            locked = self.carrying_lock(state)
            if locked:
                card, demand, city = locked
                if me.at != board().cities[city].at:
                    await self.run_to(city)
                arrived = (await self.table.state()).player(self.me).at == board().cities[city].at
                if arrived and await self.try_command("deliver", card=card, demand=demand):
                    self.plan = None
                    continue
                return
            plan = self.plan
            if plan is None or state.card(plan.card) is None or state.card(plan.card).locks:
                self.plan = None
                return
            if me.at == board().cities[plan.supply].at:
                if plan.load not in me.loads:
                    await self.try_command("pickup", load=plan.load)
                if not await self.try_command("lock", card=plan.card, demand=plan.demand):
                    self.plan = None
                    return
                continue
            await self.run_to(plan.supply)
            if (await self.table.state()).player(self.me).at != board().cities[plan.supply].at:
                return

    async def build(self) -> None:
        """Track for the plan first, then toward the major cities not joined yet."""
        state = await self.table.state()
        me = state.player(self.me)
        targets = [self.plan.supply, self.plan.city] if self.plan else []
        locked = self.carrying_lock(state)
        if locked:
            targets.insert(0, locked[2])
        if me.cash >= state.options.target_cash or not targets:
            majors = sorted(board().majors, key=lambda c: c.name)
            targets += [c.name for c in majors if c.at not in network(me)]
        for city in targets:
            if board().cities[city].at in network((await self.table.state()).player(self.me)):
                continue
            if not await self.table.build_toward(self.user, city):
                return

    async def turn(self) -> None:
        """One of Alice's turns; a derailment drawn meanwhile stops it (the main loop resolves it)."""
        state = await self.table.state()
        if state.phase == "play":
            await self.operate()
        elif self.plan is None:
            self.plan = await self.choose()
        if await self.my_turn():
            await self.build()
        if await self.my_turn():
            await self.table.ok(self.user, "endturn")

    async def my_turn(self) -> bool:
        state = await self.table.state()
        return not state.pending_losses and state.turn is not None and state.turn.player == self.me


async def lose_a_load(table: Table, user: FakeUser) -> None:
    """After a derailment: press the first loss button the board offers this player."""
    board_message = latest_board(table.fake, table.channel)
    for button in board_message.buttons:
        if button.get("custom_id", "").startswith("parlor:act:") and any(
                word in button.get("label", "") for word in ("Lose", "Give up", "Keep #", "Release")):
            pressed = await table.fake.click(user, board_message, button["custom_id"])
            if not pressed.ephemeral:
                return
    raise AssertionError("no loss button for the derailed player")


async def test_a_scripted_game_planned_with_cities_ends_with_a_winner(fake_discord: FakeDiscord, parlor: ParlorBot):
    alice, bob = fake_discord.create_user("alice"), fake_discord.create_user("bob")
    channel = fake_discord.channel("games")
    table = Table(fake_discord, parlor, channel, alice, bob)
    parlor.host._seed_source = lambda: GAME_SEED  # one deal, always the same: the plan is checked, not luck
    await open_game(fake_discord, channel, alice, bob)
    await table.ok(alice, "keep")
    await table.ok(bob, "keep")
    planner = Planner(table, alice)
    for _ in range(MAX_ROUNDS * 3):
        state = await table.state()
        if state.phase == "over":
            break
        if state.pending_losses:
            who = alice if state.pending_losses[0] == str(alice.id) else bob
            await lose_a_load(table, who)
            continue
        if state.turn.player == str(bob.id):
            await table.ok(bob, "endturn")
        else:
            await planner.turn()
    state = await table.state()
    me = state.player(str(alice.id))
    assert state.phase == "over", f"no winner after {MAX_ROUNDS} rounds: Alice has {me.cash}, " \
                                  f"{majors_joined(me)} majors, plan {planner.plan}"
    assert state.winners == [str(alice.id)] and me.cash >= 100 and majors_joined(me) >= 3
    assert planner.cities_asked > 2
    final = latest_board(fake_discord, channel)
    assert "game is over" in final.content and f"<@{alice.id}>" in final.content
