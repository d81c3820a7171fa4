"""Crayon Rails end to end: setup keeps, the initial builds and a first delivery, all through the commands.

The deal is random, so Alice plans from the public state (read through the host, as a player reads
the board): among the public pool's demands she picks the one whose supply and destination cities are
cheapest to join with her own track. Every move then goes through the fake Discord.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from bot.client import ParlorBot
from games.crayon_rails.cards import demand_card
from games.crayon_rails.mapdata import board, edge
from games.crayon_rails.routing import cheapest_build_path, network, train_route
from games.crayon_rails.state import State
from tests.conftest import start_bot
from tests.e2e.helpers import latest_board, mentioned
from tests.e2e.helpers import table as table_in
from tests.fakediscord import FakeDiscord
from tests.fakediscord.interactions import InteractionResult
from tests.fakediscord.state import FakeChannel, FakeMessage, FakeUser

SLUG = "crayon-rails"


@dataclass(frozen=True)
class Plan:
    cost: int
    card: int
    demand: int
    load: str
    supply: str
    city: str
    order: tuple[str, str]
    """The two cities in the order to build toward them (a major city needs no track to be joined)."""


def plan_delivery(state: State, player: str, avoid: set[str]) -> Plan:
    """The public demand whose supplier and city are cheapest to join with one network of own track."""
    plans = []
    for card in state.unlocked_pool:
        for index, wanted in enumerate(demand_card(card.id).demands):
            if wanted.load in avoid:
                continue
            for supplier in board().suppliers(wanted.load):
                if supplier.name == wanted.city:
                    continue
                for order in ((supplier.name, wanted.city), (wanted.city, supplier.name)):
                    cost = _joined_cost(state, player, order, supplier.at, board().cities[wanted.city].at)
                    if cost is not None:
                        plans.append(Plan(cost, card.id, index, wanted.load, supplier.name, wanted.city, order))
    best = min(plans, key=lambda plan: (plan.cost, plan.card, plan.demand))
    assert best.cost <= 45, f"no demand in reach of 50 cash: {best}"
    return best


def _joined_cost(state: State, player: str, order: tuple[str, str], start: str, goal: str) -> int | None:
    trial = state.model_copy(deep=True)
    total = 0
    for city in order:
        found = cheapest_build_path(trial, player, board().cities[city].at, budget=10_000)
        if found is None:
            return None
        trial.player(player).track += [edge(a, b) for a, b in zip(found.path, found.path[1:], strict=False)]
        total += found.cost
    trial.player(player).at, trial.player(player).came_from = start, None
    return total if train_route(trial, player, goal) is not None else None


class Table:
    """Two players at a Crayon Rails game in one channel, driving it only through the fake Discord."""

    def __init__(self, fake: FakeDiscord, bot: ParlorBot, channel: FakeChannel, alice: FakeUser, bob: FakeUser):
        self.fake, self.bot, self.channel, self.alice, self.bob = fake, bot, channel, alice, bob

    async def state(self) -> State:
        session = await self.bot.host.last_session_in(str(self.channel.id))
        return self.bot.host.state_of(session)

    async def view(self) -> dict:
        session = await self.bot.host.last_session_in(str(self.channel.id))
        return self.bot.host.public_view(session)

    async def ok(self, user: FakeUser, command: str, **options) -> FakeMessage:
        """A command that must be accepted: its public reply is a board with the map picture."""
        result = await self.fake.slash(user, command, channel=self.channel, **options)
        assert not result.ephemeral, f"/{command} {options} was refused: {result.response.content}"
        board_message = table_in(self.fake, self.channel)
        assert board_message.attachment("board.png").data.startswith(b"\x89PNG")
        return board_message

    async def refused(self, user: FakeUser, command: str, **options) -> str:
        result = await self.fake.slash(user, command, channel=self.channel, **options)
        assert result.ephemeral and result.response.visible_to == user.id
        return result.response.content

    async def choices(self, user: FakeUser, command: str, focused: str, **options) -> list[dict]:
        return await self.fake.autocomplete(user, command, self.channel, focused=focused, **options)

    async def preview(self, user: FakeUser, to: str) -> InteractionResult:
        return await self.fake.slash(user, "build", channel=self.channel, to=to)

    async def build_toward(self, user: FakeUser, city: str) -> bool:
        """Preview and confirm builds toward `city` until it joins the network; False when the turn's money ends."""
        target = board().cities[city].at
        while target not in network((await self.state()).player(str(user.id))):
            shown = await self.preview(user, city)
            preview = shown.response
            assert shown.ephemeral and preview.visible_to == user.id, "a preview is for its builder alone"
            if not preview.attachments:
                assert "can be built now" in preview.content, preview.content
                return False
            assert preview.attachment("build-preview.png").data.startswith(b"\x89PNG")
            confirmed = await self.fake.click(user, preview, preview.button(label="Confirm")["custom_id"])
            assert confirmed.response is preview and preview.content.startswith("Built"), preview.content
            assert not preview.buttons() and not preview.attachments, "the spent preview keeps no buttons"
            assert "builds" in table_in(self.fake, self.channel).embed["description"]
        return True


async def open_game(fake: FakeDiscord, channel: FakeChannel, alice: FakeUser, bob: FakeUser) -> FakeMessage:
    await fake.slash(alice, "game start", channel=channel, game=SLUG, opponent=bob)
    lobby = table_in(fake, channel)
    await fake.click(bob, lobby, lobby.button(label="Join")["custom_id"])
    board_message = table_in(fake, channel)
    assert board_message.attachment("board.png").data.startswith(b"\x89PNG")
    assert mentioned(board_message) == [alice.id], "Alice keeps her cards first"
    assert board_message.pinged == [alice.id]
    return board_message


async def test_setup_initial_building_and_a_first_delivery(fake_discord: FakeDiscord, parlor: ParlorBot):
    alice, bob = fake_discord.create_user("alice"), fake_discord.create_user("bob")
    channel = fake_discord.channel("games")
    table = Table(fake_discord, parlor, channel, alice, bob)
    await open_game(fake_discord, channel, alice, bob)
    me = str(alice.id)

    # Setup: Alice keeps one card privately with /keep; Bob keeps none with the board's button.
    offered = (await table.view())["pool"]
    kept = offered[0]["id"]
    suggested = await table.choices(alice, "keep", "cards")
    assert {c["value"] for c in suggested} >= {f"{kept}:{d}" for d in range(3)}
    assert "not" in await table.refused(alice, "keep", cards="banana")
    assert "turn" in await table.refused(bob, "keep", cards=f"{kept}:0")
    await table.ok(alice, "keep", cards=f"{kept}:1")
    after_keep = latest_board(fake_discord, channel)
    assert mentioned(after_keep) == [bob.id]
    pressed = await fake_discord.click(bob, after_keep, after_keep.button(label="Keep none")["custom_id"])
    assert not pressed.ephemeral and (await table.view())["phase"] == "initial-build"

    private_load = demand_card(kept).demands[1].load
    plan = plan_delivery(await table.state(), me, avoid={private_load})
    targets = [city for city in plan.order if board().cities[city].size != "major"]

    # A preview another player cannot press, and one its builder cancels.
    shown = await table.preview(alice, targets[0])
    assert shown.ephemeral and "build-preview.png" in [a.filename for a in shown.response.attachments]
    confirm = shown.response.button(label="Confirm")["custom_id"]
    assert confirm.startswith("parlor:crayon-build:") and f":{me}:" in confirm
    with pytest.raises(ValueError, match="cannot see"):
        await fake_discord.click(bob, shown.response, confirm)
    version = (await parlor.host.last_session_in(str(channel.id))).version
    cancelled = await fake_discord.click(alice, shown.response, shown.response.button(label="Cancel")["custom_id"])
    assert cancelled.response is shown.response and "nothing was built" in shown.response.content
    assert not shown.response.buttons(), "the cancelled preview keeps no buttons"
    assert (await parlor.host.last_session_in(str(channel.id))).version == version
    suggested = await table.choices(alice, "build", "to", to=targets[0][:3])
    assert targets[0] in [c["value"] for c in suggested]

    # Initial building: Alice, Bob, Bob, Alice; Bob builds nothing.
    for builder in (alice, bob, bob, alice):
        while builder is alice and targets and await table.build_toward(alice, targets[0]):
            targets.pop(0)
        await table.ok(builder, "endturn")
    assert (await table.view())["phase"] == "play"

    # Alice's first operating turn: place the train, pick up, lock, and run to the demand city.
    assert plan.supply in [c["value"] for c in await table.choices(alice, "place", "city")]
    await table.ok(alice, "place", city=plan.supply)
    assert plan.load in [c["value"] for c in await table.choices(alice, "pickup", "load")]
    await table.ok(alice, "pickup", load=plan.load)
    assert plan.card in [c["value"] for c in await table.choices(alice, "lock", "card")]
    demands = await table.choices(alice, "lock", "demand", card=plan.card)
    assert plan.demand in [c["value"] for c in demands]
    await table.ok(alice, "lock", card=plan.card, demand=plan.demand)
    assert "Lock" in await table.refused(alice, "deliver", card=plan.card, demand=(plan.demand + 1) % 3)

    goal = board().cities[plan.city].at
    for _ in range(8):
        if train_route(await table.state(), me, plan.city) is not None:
            moved = await table.ok(alice, "move", to=plan.city)
            assert "moves to" in moved.embed["description"]
        if (await table.state()).player(me).at == goal:
            break
        while targets and await table.build_toward(alice, targets[0]):
            targets.pop(0)
        await table.ok(alice, "endturn")
        await table.ok(bob, "endturn")
    cash = (await table.state()).player(me).cash
    offered_cards = [c["value"] for c in await table.choices(alice, "deliver", "card")]
    assert plan.card in offered_cards
    delivered = await table.ok(alice, "deliver", card=plan.card, demand=plan.demand)
    payoff = demand_card(plan.card).demands[plan.demand].payoff
    city = f"{plan.city} ({board().cities[plan.city].at})"
    assert f"delivers {plan.load} to {city} for **{payoff}**" in delivered.embed["description"]
    assert (await table.state()).player(me).cash == cash + payoff
    assert plan.card not in [c["id"] for c in (await table.view())["pool"]]


async def test_refusals_say_what_to_do(fake_discord: FakeDiscord, parlor: ParlorBot):
    alice, bob = fake_discord.create_user("alice"), fake_discord.create_user("bob")
    channel = fake_discord.channel("games")
    table = Table(fake_discord, parlor, channel, alice, bob)
    assert "/game start" in await table.refused(alice, "pickup", load="Coal")
    await open_game(fake_discord, channel, alice, bob)
    assert "setup" in await table.refused(alice, "pickup", load="Coal")
    assert "to:" in await table.refused(alice, "build")
    assert "neither" in await table.refused(alice, "build", to="Atlantis")
    await table.ok(alice, "keep")
    await table.ok(bob, "keep")
    assert "Trains do not run yet" in await table.refused(alice, "place", city="Westholm")
    assert "turn" in await table.refused(bob, "build", path="C8 D8")
    built = await table.ok(alice, "build", path="C8 D8")
    assert "builds 1 section from Westholm (C8) to D8" in built.embed["description"], \
        "a path is built at once, without a preview"
    move = await fake_discord.slash(alice, "move", channel=channel, to="Eastbay")
    assert move.ephemeral


async def test_a_build_preview_confirmed_after_a_restart(fake_discord: FakeDiscord, tmp_path):
    alice, bob = fake_discord.create_user("alice"), fake_discord.create_user("bob")
    channel = fake_discord.channel("games")
    database = str(tmp_path / "parlor.sqlite3")
    first, _ = await start_bot(fake_discord, database)
    table = Table(fake_discord, first, channel, alice, bob)
    await open_game(fake_discord, channel, alice, bob)
    await table.ok(alice, "keep")
    await table.ok(bob, "keep")
    preview = (await table.preview(alice, "Riverton")).response
    stale = (await table.preview(alice, "Ashford")).response
    await first.close()

    identified = fake_discord.gateway.identify_count
    second, _ = await start_bot(fake_discord, database)
    try:
        await fake_discord.wait_for(lambda: fake_discord.gateway.identify_count > identified
                                    and fake_discord.gateway.connected, timeout=10, what="the restarted bot")
        confirmed = await fake_discord.click(alice, preview, preview.button(label="Confirm")["custom_id"])
        assert confirmed.response is preview and preview.content.startswith("Built"), preview.content
        assert "builds" in table_in(fake_discord, channel).embed["description"]
        table.bot = second
        assert (await table.state()).player(str(alice.id)).track, "the previewed track was built"
        late = await fake_discord.click(alice, stale, stale.button(label="Confirm")["custom_id"])
        assert late.response is stale and "changed since this preview" in stale.content
        assert not stale.buttons(), "the spent preview keeps no buttons"
    finally:
        await second.close()
    fake_discord.assert_no_unknown_routes()


async def test_a_derailed_player_is_told_what_keeping_or_releasing_her_card_means(fake_discord: FakeDiscord,
                                                                              parlor: ParlorBot):
    parlor.host._seed_source = lambda: 77  # the deck turns up a Derailment at Ironhill at the first draw in play
    alice, bob = fake_discord.create_user("alice"), fake_discord.create_user("bob")
    table = Table(fake_discord, parlor, fake_discord.channel("games"), alice, bob)
    await open_game(fake_discord, table.channel, alice, bob)
    await table.ok(alice, "keep", cards="32:0")  # Coal to Ashford, kept privately
    await table.ok(bob, "keep")
    await table.ok(alice, "build", path="I2 I3 I4 J5 J6")
    for user in (alice, bob, bob, alice):
        await table.ok(user, "endturn")
    await table.ok(alice, "place", city="Ironhill")
    await table.ok(alice, "pickup", load="Coal")
    await table.ok(alice, "endturn")
    derailed = await table.ok(bob, "pitch")
    labels = [button["label"] for button in derailed.buttons()]
    assert "Keep #32" in labels and "Release #32" in labels, labels
    words = " ".join([derailed.content, derailed.embed["description"], *labels]).lower()
    assert "coal" in words.split("**play**")[0] or "lose" in words, "she is not told she loses her Coal"
    assert "pool" in words, f"nothing says Release puts #32 in the public pool: {words}"
    assert "your turn" not in derailed.content, f"it is still Bob's turn: {derailed.content}"


async def test_a_train_placed_and_taken_back_is_called_what_its_button_said(fake_discord: FakeDiscord,
                                                                          parlor: ParlorBot):
    """**Place your train** (or `/place city:`) taken back: the table said 'took back move 9 (start)', a move no
    button or command had shown."""
    alice, bob = fake_discord.create_user("alice"), fake_discord.create_user("bob")
    table = Table(fake_discord, parlor, fake_discord.channel("games"), alice, bob)
    await open_game(fake_discord, table.channel, alice, bob)
    await table.ok(alice, "keep")
    await table.ok(bob, "keep")
    for user in (alice, bob, bob, alice):
        await table.ok(user, "endturn")
    await table.ok(alice, "place", city="Ironhill")
    undone = await table.ok(alice, "game undo")
    told = undone.embed["description"]
    assert "took back move 7 (place your train)." in told, told
