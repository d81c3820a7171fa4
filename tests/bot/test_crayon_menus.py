"""Crayon Rails menus below Discord: every offered choice is one the engine accepts, within Discord's limits,
usable only by the player to act; builds are previewed before they are confirmed."""

from __future__ import annotations

import random

import pytest

from bot.discord.components import component_view
from bot.presentation.frontend import MAX_OPTIONS, MAX_TEXT, ActionButton, Select
from bot.presentation.frontends.crayon_components import REGIONS
from bot.presentation.frontends.crayon_rails import FRONTEND
from games.core import IllegalMove, SeededRandomness
from games.crayon_rails.engine import GAME
from games.crayon_rails.mapdata import board
from games.crayon_rails.routing import network
from games.crayon_rails.state import UPGRADE_COST
from tests.games.crayon_rails.situations import land_path, play_state, pool_card, track
from tests.games.crayon_rails.test_move_toward import AROUND, northgate
from tests.games.crayon_rails.test_turns import new_game


def legal_of(state) -> dict:
    return {p.id: GAME.legal_actions(state, p.id) for p in state.players}


def tokens_of(components) -> list[str]:
    found = []
    for component in components:
        found += [o.token for o in component.options] if isinstance(component, Select) else [component.token]
    return found


def check_limits(components) -> None:
    component_view("crayon-rails", 1, 1, list(components))  # raises past five rows
    for component in components:
        if isinstance(component, Select):
            assert len(component.options) <= MAX_OPTIONS
            assert all(len(o.label) <= MAX_TEXT for o in component.options)




def press(state, player: str, token: str, depth: int = 0) -> tuple[object, list]:
    """Follow a token as the bot does: a step opens more components, an action goes to the engine."""
    view, legal = GAME.view(state, None), legal_of(state)
    step = FRONTEND.expand(token, view, player, legal)
    if step is None:
        return GAME.apply(state, player, FRONTEND.action_for_button(token), SeededRandomness(depth))
    check_limits(step.components)
    assert step.components, f"{token} opened a step with nothing to choose: {step.text}"
    for component in step.components:
        assert component.players == (player,)
    chosen = tokens_of(step.components)[0]
    return press(state, player, chosen, depth + 1)


def test_setup_keeps_one_card_then_optionally_a_second_never_the_same_card_twice():
    state = new_game()
    player = GAME.to_act(state)[0]
    components = FRONTEND.components(GAME.view(state, None), legal_of(state))
    check_limits(components)
    keep = next(c for c in components if isinstance(c, Select))
    assert keep.players == (player,) and keep.max_values == 1
    first = keep.options[0].token
    step = FRONTEND.expand(first, GAME.view(state, None), player, legal_of(state))
    second = step.components[0]
    card = first.split(".")[1]
    assert next(o.token for o in second.options) == f"kk.{first[2:]}"
    assert not any(o.token.split(".")[3] == card for o in second.options[1:]), "the same card is not offered again"
    both = FRONTEND.action_for_button(second.options[-1].token)
    assert len(both["cards"]) == 2
    _new, events = GAME.apply(state, player, both, SeededRandomness(0))
    assert events[0]["type"] == "kept" and len(events[0]["cards"]) == 2


def test_build_toward_a_city_shows_its_track_and_cost_then_confirm_builds_exactly_that():
    state = play_state(alice={"track": track("C8", "D8", "E8"), "at": "C8"})
    view, legal = GAME.view(state, None), legal_of(state)
    build = next(c for c in FRONTEND.components(view, legal) if isinstance(c, Select) and c.key == "build")
    assert build.options[0].label.startswith(("Northgate", "Eastbay", "Southport")), "majors not joined first"
    assert {f"reg.{key}" for key in REGIONS} <= {o.token for o in build.options}
    step = FRONTEND.expand(build.options[0].token, view, "alice", legal)
    confirm = step.components[0]
    assert isinstance(confirm, ActionButton) and confirm.token.endswith("=go") and confirm.players == ("alice",)
    assert "**" in step.text and "(cash 50, leaving " in step.text, "words a screen reader reads, not '->'"
    _new, events = GAME.apply(state, "alice", FRONTEND.action_for_button(confirm.token), SeededRandomness(0))
    built = events[-1]
    assert " ".join(built["path"]) in step.text and f"**{built['cost']}**" in step.text
    assert FRONTEND.expand(build.options[0].token, view, "bob", legal).components == (), \
        "another player's preview offers no Confirm"


@pytest.mark.parametrize("region", sorted(REGIONS))
def test_each_region_lists_its_cities_that_can_be_built_toward(region):
    state = play_state(alice={"track": track("C8", "D8", "E8"), "at": "C8"})
    step = FRONTEND.expand(f"reg.{region}", GAME.view(state, None), "alice", legal_of(state))
    check_limits(step.components)
    for option in step.components[0].options:
        target = option.token.removeprefix("bto.")
        assert board().city_at(target) and target not in network(state.player("alice"))
        press(state, "alice", option.token)


def test_the_train_menus_offer_what_it_can_do_where_it_stands():
    state = play_state(alice={"track": track("C8", "D8", "E8", "F8", "G8", "G9", "H9"), "at": "H9",
                              "loads": ["Steel"]},
                       pool=[pool_card(6, (("alice", 1),)), pool_card(1), pool_card(3), pool_card(4), pool_card(5)])
    components = FRONTEND.components(GAME.view(state, None), legal_of(state))
    check_limits(components)
    selects = {c.key: c for c in components if isinstance(c, Select)}
    assert {"move", "cargo", "build"} <= set(selects)
    cargo = {o.token for o in selects["cargo"].options}
    assert {"deliver.6.1", "pickup.Iron", "pickup.Copper"} <= cargo
    assert "mv.C8" in {o.token for o in selects["move"].options}
    assert all(c.players == ("alice",) for c in components)
    for token in tokens_of(components):
        press(state, "alice", token)


def test_random_turns_by_menus_alone_are_always_accepted():
    """Many random presses from the offered components only: the engine never refuses one."""
    rng = random.Random(5)
    state = GAME.new_game(["alice", "bob"], SeededRandomness(5), {"target_cash": 0, "major_cities": 2})
    for step in range(400):
        if state.phase == "over":
            break
        view, legal = GAME.view(state, None), legal_of(state)
        components = FRONTEND.components(view, legal)
        check_limits(components)
        token = rng.choice(tokens_of(components))
        player = next(iter(next(c for c in components if token in tokens_of([c])).players))
        try:
            state, _ = press(state, player, token, step)
        except IllegalMove as refusal:
            raise AssertionError(f"{token} was offered to {player} but refused: {refusal}") from None
    assert state.round > 1 or state.phase == "over", "the menus carried the game on"


def test_move_menu_offers_each_leg_with_its_distance_and_fee():
    state = play_state(alice={"track": track("I2", "I3", "H4"), "at": "I2"},
                       bob={"track": track("H4", "H5", "G6", "G7", "F8", "F9", "E10", "F11")})
    components = FRONTEND.components(GAME.view(state, None), legal_of(state))
    check_limits(components)
    labels = {o.token: o.label for o in next(c for c in components if c.key == "move").options}
    assert labels["mv.F11"] == "Riverton (F11): 9 mileposts, fee 4"
    assert labels["mv.I3"] == "I3: 1 milepost"
    pressed, _ = press(state, "alice", "mv.F11")
    assert pressed.player("alice").at == "F11" and pressed.player("alice").cash == 46
    typed = FRONTEND.choices("move", "to", legal_of(state)["alice"], {}, GAME.view(state, None), "alice")
    assert ("Riverton (F11): 9 mileposts, fee 4", "Riverton") in typed, "/move to: names the fee as the menu does"
    assert typed == [(label, value) for label, value in typed if label in labels.values()], "the same legs"


def test_a_big_network_groups_the_mileposts_by_distance_and_every_choice_is_accepted():
    """More destinations than a menu holds: the cities, then one entry per band of mileposts."""
    state = play_state(alice={"track": track(*land_path("C8", "I2")) + track(*land_path("C8", "M15"))
                              + track(*land_path("I2", "W7")) + track(*land_path("C8", "E14")), "at": "C8"},
                       allowance=12)
    view, legal = GAME.view(state, None), legal_of(state)
    reach = {a["path"][-1] for a in legal["alice"] if a["type"] == "move" and "path" in a}
    assert len(reach) > MAX_OPTIONS
    components = FRONTEND.components(view, legal)
    check_limits(components)
    menu = next(c for c in components if c.key == "move")
    tokens = [o.token for o in menu.options]
    bands = [t for t in tokens if t.startswith("mvb.")]
    assert bands and tokens.index(bands[0]) == len(tokens) - len(bands), "the cities come first"
    offered = {t.removeprefix("mv.") for t in tokens if t.startswith("mv.")}
    for band in bands:
        step = FRONTEND.expand(band, view, "alice", legal)
        check_limits(step.components)
        offered |= {o.token.removeprefix("mv.") for c in step.components for o in c.options}
        for option in step.components[0].options[:2]:
            moved, _ = press(state, "alice", option.token)
            assert moved.player("alice").at == option.token.removeprefix("mv.")
    assert reach <= offered, "every milepost in reach is one choice away"


def test_a_leg_toward_a_city_two_turns_away_keeps_to_own_track_when_that_is_as_soon():
    """Bob's shortcut would save mileposts but no turn: the menu's leg and `/move to:` keep to Alice's
    own track and name no fee (tests/games/crayon_rails/test_move_toward.py has the position)."""
    state = northgate(moved=4)
    view, legal = GAME.view(state, None), legal_of(state)
    labels = {o.token: o.label for o in next(c for c in FRONTEND.components(view, legal) if c.key == "move").options}
    assert labels["mv.O8"] == "Toward Lakeview (O8): to L3 this turn (5 mileposts)"
    _, events = press(state, "alice", "mv.O8")
    assert FRONTEND.action_for_button("mv.O8") == {"type": "move", "toward": "O8"}
    assert events == [{"type": "moved", "player": "alice", "path": AROUND[1:6]}]
    typed = FRONTEND.verb_action("move", {"to": "Lakeview"})
    assert GAME.apply(state, "alice", typed, SeededRandomness(0))[1] == events


def test_an_upgrade_button_says_its_number_is_the_cost():
    """"Upgrade to fast (20)" left a player to guess what 20 was: the button says it costs 20 cash."""
    state = play_state(alice={"track": track("C8", "D8", "E8"), "at": "E8", "cash": 60})
    buttons = [c for c in FRONTEND.components(GAME.view(state, None), legal_of(state)) if isinstance(c, ActionButton)]
    upgrades = [b.label for b in buttons if b.token.startswith("upgrade.")]
    assert upgrades and all(label.endswith(f"(costs {UPGRADE_COST})") for label in upgrades), upgrades
