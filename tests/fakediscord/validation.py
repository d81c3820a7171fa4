"""Discord's documented limits on message bodies, so a message the real API would refuse fails here too."""

from __future__ import annotations

from typing import Any

from tests.fakediscord import errors
from tests.fakediscord.components import walk

CONTENT_MAX = 2000
ATTACHMENT_DESCRIPTION_MAX = 1024
EMBEDS_MAX = 10
EMBED_TOTAL_MAX = 6000
EMBED_LIMITS = {"title": 256, "description": 4096}
FIELDS_MAX = 25
FIELD_NAME_MAX, FIELD_VALUE_MAX = 256, 1024
FOOTER_MAX, AUTHOR_NAME_MAX = 2048, 256
ACTION_ROWS_MAX, ROW_BUTTONS_MAX = 5, 5
CUSTOM_ID_MAX, LABEL_MAX = 100, 80
SELECT_OPTIONS_MAX, OPTION_TEXT_MAX, PLACEHOLDER_MAX = 25, 100, 150
MODAL_TITLE_MAX, MODAL_ROWS_MAX, INPUT_LABEL_MAX, INPUT_VALUE_MAX = 45, 5, 45, 4000
SELECTS = {3, 5, 6, 7, 8}
COMPONENTS_V2 = 1 << 15


def check_message(body: dict[str, Any], *, has_files: bool, editing: bool) -> None:
    content = body.get("content")
    if content is not None and len(str(content)) > CONTENT_MAX:
        raise errors.invalid_form(f"content is {len(str(content))} characters, more than {CONTENT_MAX}")
    embeds = body.get("embeds") or []
    if len(embeds) > EMBEDS_MAX:
        raise errors.invalid_form(f"{len(embeds)} embeds, more than {EMBEDS_MAX}")
    total = sum(_check_embed(e) for e in embeds)
    if total > EMBED_TOTAL_MAX:
        raise errors.invalid_form(f"embeds hold {total} characters, more than {EMBED_TOTAL_MAX}")
    _check_components(body.get("components") or [], v2=bool((body.get("flags") or 0) & COMPONENTS_V2))
    for entry in body.get("attachments") or []:
        description = entry.get("description") or ""
        if len(description) > ATTACHMENT_DESCRIPTION_MAX:
            raise errors.invalid_form(f"attachment description is {len(description)} characters, "
                                      f"more than {ATTACHMENT_DESCRIPTION_MAX}")
    if editing:
        return
    has_anything = content or embeds or body.get("components") or has_files or body.get("sticker_ids")
    if not has_anything:
        raise errors.DiscordHTTPError(400, errors.EMPTY_MESSAGE, "Cannot send an empty message")


def _check_embed(embed: dict[str, Any]) -> int:
    size = 0
    for key, limit in EMBED_LIMITS.items():
        text = embed.get(key) or ""
        if len(text) > limit:
            raise errors.invalid_form(f"embed {key} is {len(text)} characters, more than {limit}")
        size += len(text)
    fields = embed.get("fields") or []
    if len(fields) > FIELDS_MAX:
        raise errors.invalid_form(f"embed has {len(fields)} fields, more than {FIELDS_MAX}")
    for embed_field in fields:
        name, value = embed_field.get("name") or "", embed_field.get("value") or ""
        if not name or not value:
            raise errors.invalid_form("embed field name and value must be non-empty")
        if len(name) > FIELD_NAME_MAX or len(value) > FIELD_VALUE_MAX:
            raise errors.invalid_form(f"embed field {name[:30]!r} is too long")
        size += len(name) + len(value)
    footer = (embed.get("footer") or {}).get("text") or ""
    author = (embed.get("author") or {}).get("name") or ""
    if len(footer) > FOOTER_MAX or len(author) > AUTHOR_NAME_MAX:
        raise errors.invalid_form("embed footer or author name is too long")
    return size + len(footer) + len(author)


def _check_components(components: list[dict[str, Any]], *, v2: bool) -> None:
    if not v2:
        if len(components) > ACTION_ROWS_MAX:
            raise errors.invalid_form(f"{len(components)} action rows, more than {ACTION_ROWS_MAX}")
        for row in components:
            if row.get("type") != 1:
                raise errors.invalid_form("top-level components must be action rows without the components v2 flag")
            buttons = [c for c in row.get("components", []) if c.get("type") == 2]
            selects = [c for c in row.get("components", []) if c.get("type") in SELECTS]
            if selects and len(row.get("components", [])) != 1:
                raise errors.invalid_form("a select menu must be alone in its action row")
            if len(buttons) > ROW_BUTTONS_MAX:
                raise errors.invalid_form(f"an action row holds {len(buttons)} buttons, more than {ROW_BUTTONS_MAX}")
    seen: set[str] = set()
    for component in walk(components):
        custom_id = component.get("custom_id")
        if custom_id is not None:
            if not 1 <= len(custom_id) <= CUSTOM_ID_MAX:
                raise errors.invalid_form(f"custom_id {custom_id[:40]!r} must be 1-{CUSTOM_ID_MAX} characters")
            if custom_id in seen:
                raise errors.invalid_form(f"custom_id {custom_id!r} is used twice in one message")
            seen.add(custom_id)
        if component.get("type") == 2:
            _check_button(component)
        if component.get("type") in SELECTS:
            check_select(component)


def check_select(select: dict[str, Any]) -> None:
    """A select menu's limits: 1-25 options of 1-100 characters, distinct values, sane min/max values."""
    if len(select.get("placeholder") or "") > PLACEHOLDER_MAX:
        raise errors.invalid_form(f"select placeholder is longer than {PLACEHOLDER_MAX}")
    low, high = select.get("min_values", 1), select.get("max_values", 1)
    if not (0 <= low <= SELECT_OPTIONS_MAX and 1 <= high <= SELECT_OPTIONS_MAX and low <= high):
        raise errors.invalid_form(f"select min_values {low} / max_values {high} out of range")
    if select.get("type") != 3:
        return
    options = select.get("options") or []
    if not 1 <= len(options) <= SELECT_OPTIONS_MAX:
        raise errors.invalid_form(f"a select menu holds {len(options)} options, not 1-{SELECT_OPTIONS_MAX}")
    if high > len(options):
        raise errors.invalid_form(f"select max_values {high} is more than its {len(options)} options")
    values = [option.get("value") or "" for option in options]
    if len(set(values)) != len(values):
        raise errors.invalid_form("a select menu offers the same value twice")
    for option in options:
        for key in ("label", "value"):
            if not 1 <= len(option.get(key) or "") <= OPTION_TEXT_MAX:
                raise errors.invalid_form(f"select option {key} must be 1-{OPTION_TEXT_MAX} characters")
        if len(option.get("description") or "") > OPTION_TEXT_MAX:
            raise errors.invalid_form(f"select option description is longer than {OPTION_TEXT_MAX}")


def check_modal(modal: dict[str, Any]) -> None:
    """A modal's limits: a title of 1-45 characters, 1-5 rows, inputs with labels of 1-45 characters."""
    if not modal.get("custom_id") or not 1 <= len(modal.get("title") or "") <= MODAL_TITLE_MAX:
        raise errors.invalid_form(f"a modal needs a custom_id and a title of 1-{MODAL_TITLE_MAX} characters")
    rows = modal.get("components") or []
    if not 1 <= len(rows) <= MODAL_ROWS_MAX:
        raise errors.invalid_form(f"a modal holds {len(rows)} rows, not 1-{MODAL_ROWS_MAX}")
    for component in walk(rows):
        if component.get("type") == 4:
            label = component.get("label")
            if label is not None and not 1 <= len(label) <= INPUT_LABEL_MAX:
                raise errors.invalid_form(f"text input label must be 1-{INPUT_LABEL_MAX} characters")
            if (component.get("max_length") or 0) > INPUT_VALUE_MAX:
                raise errors.invalid_form(f"text input max_length is more than {INPUT_VALUE_MAX}")
        if component.get("type") in SELECTS:
            check_select(component)


def _check_button(button: dict[str, Any]) -> None:
    label = button.get("label") or ""
    if len(label) > LABEL_MAX:
        raise errors.invalid_form(f"button label {label[:30]!r} is longer than {LABEL_MAX}")
    is_link = button.get("style") == 5
    if is_link != ("url" in button) or (not is_link and button.get("style") != 6 and "custom_id" not in button):
        raise errors.invalid_form("a link button needs a url, any other button a custom_id")
    if not label and not button.get("emoji") and button.get("style") != 6:
        raise errors.invalid_form("a button needs a label or an emoji")
