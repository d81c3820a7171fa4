"""What a change of a running game returns to its callers (bot.discord, bot.web, the AI)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from bot.storage.store import SessionRecord


@dataclass
class MoveOutcome:
    """What a move (or the start of a game) did, for the replies to Discord."""

    session: SessionRecord
    events: list[dict]
    public_view: dict
    views_before: Mapping[str, dict] = field(default_factory=dict)
    views_after: Mapping[str, dict] = field(default_factory=dict)
    """Each seated player's view before and after the move, worked out on first use (bot.play.player_views)."""
    began: bool = False
    legal: dict[str, list[dict]] = field(default_factory=dict)
    """Each seated player's legal actions after the move: what the table's components offer."""

    @property
    def to_act(self) -> list[str]:
        return list(self.public_view.get("to_act") or [])
