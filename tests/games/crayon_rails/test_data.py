"""Checks on the shipped map and deck."""

from collections import Counter, deque

from games.crayon_rails.cards import DemandCard, EventCard, deck
from games.crayon_rails.mapdata import board
from games.crayon_rails.payoffs import MAX_PAYOFF, MIN_PAYOFF, TOLERANCE, fair_payoff


def test_grid_is_about_24_by_16_with_every_terrain():
    b = board()
    assert (b.width, b.height) == (24, 16)
    assert set(b.terrain.values()) == {"clear", "mountain", "alpine"}
    assert 250 < len(b.terrain) < 24 * 16


def test_city_counts_and_places():
    sizes = Counter(city.size for city in board().cities.values())
    assert sizes == {"major": 4, "medium": 6, "small": 8}
    places = [city.at for city in board().cities.values()]
    assert len(set(places)) == len(places)
    assert all(place in board().terrain for place in places)


def test_every_city_reachable_by_land():
    b = board()
    start = next(iter(b.cities.values())).at
    seen, queue = {start}, deque([start])
    while queue:
        for there in b.neighbours(queue.popleft()):
            if there not in seen:
                seen.add(there)
                queue.append(there)
    assert {city.at for city in b.cities.values()} <= seen


def test_rivers_cross_sections_between_land_neighbours():
    b = board()
    assert set(b.rivers) == {"Amber", "Slate"}
    for sections in b.rivers.values():
        assert len(sections) >= 8
        for a, c in sections:
            assert c in b.neighbours(a)


def test_twelve_loads_each_supplied_by_two_or_three_cities_and_demanded():
    b = board()
    assert len(b.loads) == 12
    demanded = {d.load for card in deck().values() if isinstance(card, DemandCard) for d in card.demands}
    for load in b.loads:
        assert 2 <= len(b.suppliers(load)) <= 3, load
        assert load in demanded, load


def test_deck_has_forty_demand_cards_and_the_eight_events():
    demand_cards = [c for c in deck().values() if isinstance(c, DemandCard)]
    events = Counter(c.kind for c in deck().values() if isinstance(c, EventCard))
    assert len(demand_cards) == 40
    assert events == {"derailment": 3, "flood": 2, "strike": 2, "snow": 1}


def test_event_targets_exist():
    b = board()
    for card in deck().values():
        if isinstance(card, EventCard):
            if card.kind == "flood":
                assert card.target in b.rivers
            elif card.kind == "snow":
                assert b.cities[card.target].size == "major"
            else:
                assert card.target in b.cities


def test_demands_name_real_loads_and_cities_not_supplying_them():
    b = board()
    for card in deck().values():
        if isinstance(card, DemandCard):
            assert len({d.load for d in card.demands}) == 3
            for d in card.demands:
                assert d.city in b.cities and d.load in b.loads
                assert d.load not in b.cities[d.city].supplies


def test_payoffs_match_route_lengths():
    for card in deck().values():
        if isinstance(card, DemandCard):
            for d in card.demands:
                assert MIN_PAYOFF <= d.payoff <= MAX_PAYOFF
                assert abs(d.payoff - fair_payoff(d.load, d.city)) <= TOLERANCE, (card.id, d)


def test_longer_routes_pay_more():
    pairs = sorted((fair_payoff(d.load, d.city), d.payoff) for c in deck().values()
                   if isinstance(c, DemandCard) for d in c.demands)
    assert pairs[0][1] < pairs[-1][1]
