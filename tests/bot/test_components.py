"""The component machinery's own rules: Discord's limits are checked where components are declared and laid out."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.discord.components import component_view
from bot.presentation.frontend import MAX_OPTIONS, ActionButton, Form, Option, Select, chunked_select, step_key


@given(st.integers(min_value=1, max_value=120))
def test_chunked_select_keeps_every_option_in_menus_of_at_most_25(count: int) -> None:
    options = [Option(f"choice {n}", f"c.{n}") for n in range(count)]
    menus = chunked_select("pick", "Pick one", options)
    assert [o for menu in menus for o in menu.options] == options
    assert all(len(menu.options) <= MAX_OPTIONS for menu in menus)
    assert {step_key(menu.key) for menu in menus} == {"pick"}
    assert len({menu.key for menu in menus}) == len(menus)


def test_a_select_refuses_more_than_25_options_or_a_repeated_token() -> None:
    with pytest.raises(ValueError):
        Select("pick", "Pick", tuple(Option(str(n), f"c.{n}") for n in range(26)))
    with pytest.raises(ValueError):
        Select("pick", "Pick", (Option("a", "same"), Option("b", "same")))


def test_layout_puts_each_menu_on_its_own_row_and_five_buttons_a_row() -> None:
    menu = Select("pick", "Pick", (Option("a", "a"),))
    buttons = [ActionButton(f"B{n}", f"b{n}") for n in range(6)]
    view = component_view("john-henry", 1, 2, [menu, *buttons, Form("Offer…", "offer", "Offer", ())])
    rows = [row["components"] for row in view.to_components()]
    assert [len(row) for row in rows] == [1, 5, 2]
    assert rows[0][0]["custom_id"] == "parlor:sel:1:2:pick" and rows[2][-1]["custom_id"] == "parlor:form:1:2:offer"


def test_layout_refuses_more_than_five_rows() -> None:
    menus = [Select(f"m{n}", "Pick", (Option("a", "a"),)) for n in range(6)]
    with pytest.raises(ValueError):
        component_view("john-henry", 1, 2, menus)


def test_a_multi_select_keeps_its_bounds_and_the_default_frontend_reads_one_choice_only() -> None:
    from bot.presentation.frontend import Frontend
    from games.core import IllegalMove

    menu = Select("keep", "Keep cards", tuple(Option(f"card {n}", f"k.{n}") for n in range(4)), max_values=3)
    row = component_view("john-henry", 1, 2, [menu]).to_components()[0]["components"][0]
    assert (row["min_values"], row["max_values"], len(row["options"])) == (1, 3, 4)
    with pytest.raises(IllegalMove):
        Frontend().action_for_choice("keep", ["k.1", "k.2"])
