"""The Johari Bones scorecard: what a hand of bones is worth in each box.

Kept apart from the engine so the front end can preview a player's options
from his own view with exactly the arithmetic the engine uses to score.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from itertools import combinations_with_replacement

NUMBER_BOXES = ("ones", "twos", "threes", "fours", "fives", "sixes")
BOXES = (*NUMBER_BOXES, "full_house", "run4", "run5", "chance")
"""The ten boxes in scorecard order; a game has one hand per box."""

WILD_VALUES = range(1, 7)


def bone_ends(bone: str) -> tuple[int, int]:
    """The two ends of a bone written "a-b"."""
    low, high = bone.split("-")
    return int(low), int(high)


def hand_ends(bones: Iterable[str]) -> list[int]:
    """Every end of the given bones, in order."""
    return [end for bone in bones for end in bone_ends(bone)]


def readings(ends: list[int]) -> Iterator[list[int]]:
    """Every way to read the ends, pairing blank ends into wilds.

    Two blank ends together may stand for one end of any value 1–6; blanks left
    unpaired count as 0.
    """
    blanks = ends.count(0)
    numbered = [end for end in ends if end]
    for wilds in range(blanks // 2 + 1):
        zeros = [0] * (blanks - 2 * wilds)
        for values in combinations_with_replacement(WILD_VALUES, wilds):
            yield numbered + zeros + list(values)


def _plain_score(ends: list[int], box: str) -> int:
    """The box's value for ends read as they are (no wilds)."""
    counts = Counter(ends)
    if box in NUMBER_BOXES:
        number = NUMBER_BOXES.index(box) + 1
        return number * counts[number]
    if box == "full_house":
        houses = [3 * three + 2 * two for three in range(7) for two in range(7)
                  if three != two and counts[three] >= 3 and counts[two] >= 2]
        return max(houses, default=0)
    if box in ("run4", "run5"):
        length = 4 if box == "run4" else 5
        runs = [sum(range(start, start + length)) for start in range(8 - length)
                if all(counts[value] for value in range(start, start + length))]
        return max(runs, default=0)
    if box == "chance":
        return sum(ends)
    raise ValueError(f"no box called {box!r}")


def box_score(bones: Iterable[str], box: str) -> int:
    """The best score the bones make in `box` (0 when they cannot fill it)."""
    return max(_plain_score(reading, box) for reading in readings(hand_ends(bones)))


def all_box_scores(bones: Iterable[str]) -> dict[str, int]:
    """What the bones would score in every box."""
    bones = list(bones)
    return {box: box_score(bones, box) for box in BOXES}
