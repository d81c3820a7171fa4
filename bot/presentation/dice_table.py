"""The table's dice line: the commitment while a game runs, the seed once it is over.

A game's seed (games.dice) fixes every die and shuffle, so it stays secret while the game runs (in
Johari Bones it would give away the pile and every hidden bone); the table shows its SHA-256
commitment instead. Once the game is over (played out, abandoned or claimed) the seed is shown.
"""

from __future__ import annotations

from bot.storage.store import SessionRecord
from games.dice import commitment

FIELD_NAME = "Dice anyone can check"


def dice_line(session: SessionRecord) -> str | None:
    """The table's line about its dice: the commitment while the game runs, the seed once it is over."""
    if session.dice_seed is None or session.state is None:
        return None
    committed = commitment(session.dice_seed)
    if session.status == "active":
        return f"🎲 Dice commitment: `{committed}`"
    if session.status not in ("finished", "abandoned"):
        return None
    return (f"🎲 Dice seed, revealed: `{session.dice_seed}` (its SHA-256 is the commitment `{committed}`). "
            "`/game export` gives the record, `/game verify` checks it.")
