"""Walking message and modal component trees (action rows, labels, containers, sections) generically."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

BUTTON = 2
STRING_SELECT = 3
TEXT_INPUT = 4
USER_SELECT = 5
SELECTS = {3, 5, 6, 7, 8}


def walk(components: Iterable[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Every component, depth first, whatever nests it (`components`, `component` of a label, `accessory`)."""
    for component in components:
        yield component
        yield from walk(component.get("components", []))
        for key in ("component", "accessory"):
            if isinstance(component.get(key), dict):
                yield from walk([component[key]])


def find(components: Iterable[dict[str, Any]], custom_id: str) -> dict[str, Any]:
    for component in walk(components):
        if component.get("custom_id") == custom_id:
            return component
    known = [c["custom_id"] for c in walk(components) if "custom_id" in c]
    raise LookupError(f"no component with custom_id {custom_id!r}; the message has {known}")


def modal_submission(modal_components: list[dict[str, Any]], values: dict[str, Any]) -> list[dict[str, Any]]:
    """The `data.components` of a modal submit: the modal's own structure with each input's value filled in.

    Text inputs take a string, selects a list of strings. Raises on an unknown custom_id, a missing
    required input, or a value of the wrong kind.
    """
    inputs = {c["custom_id"]: c for c in walk(modal_components) if "custom_id" in c}
    unknown = set(values) - set(inputs)
    if unknown:
        raise LookupError(f"the modal has no inputs {sorted(unknown)}; it has {sorted(inputs)}")
    for custom_id, component in inputs.items():
        if custom_id not in values and component.get("required", True) and component["type"] == TEXT_INPUT:
            raise ValueError(f"the modal's input {custom_id!r} is required")
    return [_fill(component, values) for component in modal_components]


def _fill(component: dict[str, Any], values: dict[str, Any]) -> dict[str, Any]:
    kind = component["type"]
    if kind == 1:
        return {"type": 1, "components": [_fill(c, values) for c in component.get("components", [])]}
    if kind == 18:
        return {"type": 18, "component": _fill(component["component"], values)}
    filled: dict[str, Any] = {"type": kind}
    if "id" in component:
        filled["id"] = component["id"]
    if "custom_id" not in component:
        return filled
    filled["custom_id"] = component["custom_id"]
    value = values.get(component["custom_id"])
    if kind == TEXT_INPUT:
        value = "" if value is None else value
        if not isinstance(value, str):
            raise TypeError(f"text input {component['custom_id']!r} takes a str, got {value!r}")
        _check_length(component, value)
        filled["value"] = value
    else:
        chosen = [] if value is None else value
        if not isinstance(chosen, list) or not all(isinstance(v, str) for v in chosen):
            raise TypeError(f"select {component['custom_id']!r} takes a list of str, got {value!r}")
        filled["values"] = chosen
    return filled


def _check_length(component: dict[str, Any], value: str) -> None:
    low, high = component.get("min_length"), component.get("max_length")
    if value and ((low is not None and len(value) < low) or (high is not None and len(value) > high)):
        raise ValueError(f"input {component['custom_id']!r} must be {low}-{high} characters, got {len(value)}")


def check_select_values(component: dict[str, Any], values: list[str]) -> None:
    """Refuse what the Discord client would not let a user pick: unknown options, too few or too many."""
    if component.get("disabled"):
        raise ValueError(f"select {component['custom_id']!r} is disabled")
    low, high = component.get("min_values", 1), component.get("max_values", 1)
    if not low <= len(values) <= high:
        raise ValueError(f"select {component['custom_id']!r} takes {low}-{high} values, got {len(values)}")
    if component["type"] == STRING_SELECT:
        offered = [o["value"] for o in component.get("options", [])]
        bad = [v for v in values if v not in offered]
        if bad:
            raise ValueError(f"select {component['custom_id']!r} offers {offered}, not {bad}")
