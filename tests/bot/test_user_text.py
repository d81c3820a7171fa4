"""Refusals quoting a user's text stay short whatever he typed."""

from __future__ import annotations

import ast

from hypothesis import given
from hypothesis import strategies as st

from bot.presentation.user_text import REFUSAL_LIMIT, bounded_refusal, typed_values
from games.core import QUOTE_LIMIT, quoted


@given(st.text(min_size=0, max_size=6000))
def test_quoted_is_a_short_prefix_with_invisible_characters_escaped(text):
    shown = quoted(text)
    assert len(ast.literal_eval(shown)) <= QUOTE_LIMIT
    assert "\u202e" not in shown and "\u200b" not in shown


@given(typed=st.text(min_size=QUOTE_LIMIT + 1, max_size=6000),
       template=st.sampled_from(["{!r} is not a circle.", "Not {}: write card:demand.", "{} {}"]))
def test_a_refusal_quoting_long_text_is_short_and_keeps_only_a_prefix(typed, template):
    message = template.format(typed, typed)
    bounded = bounded_refusal(message, [typed])
    assert len(bounded) <= REFUSAL_LIMIT
    if len(typed.strip()) > 100:
        assert typed.strip()[:100] not in bounded


def test_typed_values_reads_nested_options_and_form_fields():
    data = {"options": [{"name": "build", "type": 1, "options": [{"name": "to", "type": 3, "value": "F7"}]}],
            "components": [{"type": 1, "components": [{"type": 4, "custom_id": "points", "value": "12"}]}]}
    assert sorted(typed_values(data)) == ["12", "F7"]
