"""A frontend's components as Discord items: persistent buttons, select menus and form buttons.

Every item is a `DynamicItem` whose custom_id names the session, the version it was drawn for and
the component's key (a button's token), so it works after a restart; the press path
(`bot.discord.presses`) recomputes the components for that version to learn who may use it and what it
offers. A form's modal is answered by `bot.discord.presses.submit_form` from its custom_id alone (see
cogs/components.py), so a form opened before a restart can still be submitted after it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

import discord

from bot.discord.buttons import BUTTON_ITEMS, ActionButton
from bot.discord.dispatch import dispatch
from bot.presentation.frontend import MAX_ROW_BUTTONS, MAX_ROWS, MAX_TEXT, TOKEN_PATTERN, Component, Form, Select
from bot.presentation.frontend import ActionButton as ButtonSpec
from bot.presentation.words import LABEL_MAX, named

FORM_MODAL = re.compile(rf"parlor:modal:(?P<session>[0-9]+):(?P<version>[0-9]+):(?P<key>{TOKEN_PATTERN})")


def _style(name: str) -> discord.ButtonStyle:
    return getattr(discord.ButtonStyle, name)


class ChoiceMenu(discord.ui.DynamicItem[discord.ui.Select],
                 template=rf"parlor:sel:(?P<session>[0-9]+):(?P<version>[0-9]+):(?P<key>{TOKEN_PATTERN})"):
    """A frontend `Select`: the chosen tokens go to `bot.discord.presses.choose`."""

    def __init__(self, session_id: int, version: int, key: str,
                 select: discord.ui.Select | None = None) -> None:
        super().__init__(select or discord.ui.Select(custom_id=f"parlor:sel:{session_id}:{version}:{key}",
                                                     options=[discord.SelectOption(label="-")]))
        self.session_id, self.version, self.key = session_id, version, key

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Select,
                             match: re.Match[str]) -> ChoiceMenu:
        return cls(int(match["session"]), int(match["version"]), match["key"], item)

    async def callback(self, interaction: discord.Interaction) -> None:
        values = [str(value) for value in (interaction.data or {}).get("values") or []]
        await dispatch("sel", interaction, self.session_id, self.version, self.key, values)


class FormButton(discord.ui.DynamicItem[discord.ui.Button],
                 template=rf"parlor:form:(?P<session>[0-9]+):(?P<version>[0-9]+):(?P<key>{TOKEN_PATTERN})"):
    """A frontend `Form`'s button: opens its modal for a player who may use it."""

    def __init__(self, session_id: int, version: int, key: str, *, label: str = "Form…",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary) -> None:
        super().__init__(discord.ui.Button(label=label, style=style,
                                           custom_id=f"parlor:form:{session_id}:{version}:{key}"))
        self.session_id, self.version, self.key = session_id, version, key

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str]) -> FormButton:
        return cls(int(match["session"]), int(match["version"]), match["key"], label=item.label or "Form…",
                   style=item.style)

    async def callback(self, interaction: discord.Interaction) -> None:
        await dispatch("form", interaction, self.session_id, self.version, self.key)


def form_modal(session_id: int, version: int, form: Form) -> discord.ui.Modal:
    """The modal a `Form` opens; its answer is read back from the interaction, not this object."""
    modal = discord.ui.Modal(title=form.title[:45], custom_id=f"parlor:modal:{session_id}:{version}:{form.key}")
    for field in form.fields:
        modal.add_item(discord.ui.TextInput(label=field.label[:45], custom_id=field.key,
                                            placeholder=field.placeholder[:MAX_TEXT] or None,
                                            min_length=field.min_length, max_length=field.max_length))
    return modal


def _select_item(session_id: int, version: int, select: Select, row: int,
                 names: Mapping[str, str]) -> discord.ui.Item:
    options = [discord.SelectOption(label=named(option.label, names, MAX_TEXT), value=option.token,
                                    description=named(option.description, names, MAX_TEXT) or None)
               for option in select.options]
    menu = discord.ui.Select(custom_id=f"parlor:sel:{session_id}:{version}:{select.key}",
                             placeholder=named(select.placeholder, names, MAX_TEXT), options=options,
                             min_values=select.min_values, max_values=min(select.max_values, len(options)),
                             row=row)
    return ChoiceMenu(session_id, version, select.key, menu)


def _button_item(slug: str, session_id: int, version: int, component: ButtonSpec | Form,
                 names: Mapping[str, str]) -> discord.ui.Item:
    label = named(component.label, names, LABEL_MAX)
    if isinstance(component, Form):
        return FormButton(session_id, version, component.key, label=label, style=_style(component.style))
    make = BUTTON_ITEMS.get((slug, component.token), ActionButton)
    return make(session_id, version, component.token, label=label, style=_style(component.style))


def component_view(slug: str, session_id: int, version: int, components: list[Component],
                   names: Mapping[str, str] | None = None) -> discord.ui.View:
    """The components laid out in rows: each menu on a row of its own, buttons five to a row, in order.

    `names` (player id -> display name) replaces the player mentions in labels. Raises ValueError
    when the components need more than Discord's five rows: the frontend must group them.
    """
    names = names or {}
    rows: list[list[discord.ui.Item]] = []
    open_row: list[discord.ui.Item] | None = None
    for component in components:
        if isinstance(component, Select):
            rows.append([_select_item(session_id, version, component, len(rows), names)])
            open_row = None
            continue
        if open_row is None or len(open_row) == MAX_ROW_BUTTONS:
            open_row = []
            rows.append(open_row)
        open_row.append(_button_item(slug, session_id, version, component, names))
    if len(rows) > MAX_ROWS:
        raise ValueError(f"{len(rows)} rows of components for {slug}, more than Discord's {MAX_ROWS}")
    view = discord.ui.View(timeout=None)
    for number, row in enumerate(rows):
        for item in row:
            item.row = number
            view.add_item(item)
    return view
