"""The deck: 40 demand cards of three demands each and 8 event cards, read from `data/`."""

from __future__ import annotations

import csv
from dataclasses import dataclass
from functools import cache
from pathlib import Path

DATA = Path(__file__).parent / "data"
EVENT_KINDS = ("derailment", "flood", "strike", "snow")


@dataclass(frozen=True)
class Demand:
    load: str
    city: str
    payoff: int


@dataclass(frozen=True)
class DemandCard:
    id: int
    demands: tuple[Demand, Demand, Demand]


@dataclass(frozen=True)
class EventCard:
    id: int
    kind: str
    target: str
    """A city (derailment, strike, snow) or a river (flood)."""


Card = DemandCard | EventCard


def parse_deck(cards_csv: str, events_csv: str) -> dict[int, Card]:
    rows: dict[int, list[Demand]] = {}
    for row in csv.DictReader(cards_csv.splitlines()):
        rows.setdefault(int(row["card"]), []).append(Demand(row["load"], row["city"], int(row["payoff"])))
    deck: dict[int, Card] = {
        card_id: DemandCard(card_id, (demands[0], demands[1], demands[2])) for card_id, demands in rows.items()
    }
    for row in csv.DictReader(events_csv.splitlines()):
        deck[int(row["card"])] = EventCard(int(row["card"]), row["kind"], row["target"])
    return deck


@cache
def deck() -> dict[int, Card]:
    """Every card of the shipped deck by id."""
    return parse_deck((DATA / "cards.csv").read_text(), (DATA / "events.csv").read_text())


def demand_card(card_id: int) -> DemandCard:
    card = deck()[card_id]
    assert isinstance(card, DemandCard)
    return card
