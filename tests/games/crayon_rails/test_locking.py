"""Public locking: locks, races, deliveries, the pool-size rules, pitching, derailment losses."""

import pytest

from games.core import IllegalMove
from games.crayon_rails.engine import GAME

from .situations import act, event_id, play_state, pool_card

COAL_CARD, COAL = 2, 0  # card 2 demand 0: Coal to Riverton
OTHER_COAL_CARD = 8  # card 8 demand 0: Coal to Hollowmere
STEEL_CARD, STEEL = 6, 1  # card 6 demand 1: Steel to Dunmore
FILLER = [1, 3, 4, 5]


def pool(*cards):
    return [c if not isinstance(c, int) else pool_card(c) for c in cards]


def test_lock_needs_the_load_and_draws_to_keep_two_n_unlocked():
    state = play_state(alice={"at": "J6", "loads": ["Coal"]}, pool=pool(COAL_CARD, 1, 3, 4), deck_ids=[5, 7])
    new, events = act(state, "alice", {"type": "lock", "card": COAL_CARD, "demand": COAL})
    assert new.card(COAL_CARD).locks[0].player == "alice"
    assert [c.id for c in new.pool] == [COAL_CARD, 1, 3, 4, 5] and new.deck == [7]
    assert {"type": "card_drawn", "card": 5} in events
    assert GAME.view(new, None)["players"][0]["markers"] == 2
    with pytest.raises(IllegalMove, match="must carry a Coal"):
        act(play_state(alice={"at": "J6"}, pool=pool(COAL_CARD)), "alice",
            {"type": "lock", "card": COAL_CARD, "demand": COAL})


def test_a_load_locks_only_one_card():
    state = play_state(alice={"loads": ["Coal"]},
                       pool=pool(pool_card(COAL_CARD, (("alice", COAL),)), OTHER_COAL_CARD, *FILLER))
    with pytest.raises(IllegalMove, match="locks no other card"):
        act(state, "alice", {"type": "lock", "card": OTHER_COAL_CARD, "demand": 0})


def test_a_locked_card_takes_locks_only_on_its_demand():
    state = play_state(alice={"loads": ["Oil"]},
                       pool=pool(pool_card(COAL_CARD, (("bob", COAL),)), *FILLER))
    with pytest.raises(IllegalMove, match="locked on demand 0"):
        act(state, "alice", {"type": "lock", "card": COAL_CARD, "demand": 1})


def test_three_markers_at_most():
    locked = [pool_card(c, (("alice", 0),)) for c in (1, 3, 4)]
    state = play_state(alice={"loads": ["Cheese", "Wine", "Cattle", "Coal"], "train": "heavy"},
                       pool=pool(*locked, COAL_CARD, 5, 7, 9))
    with pytest.raises(IllegalMove, match="markers"):
        act(state, "alice", {"type": "lock", "card": COAL_CARD, "demand": COAL})


def test_race_on_one_locked_demand_first_delivery_frees_the_other_lock():
    race = pool_card(STEEL_CARD, (("bob", STEEL),))
    state = play_state(alice={"at": "H9", "loads": ["Steel"]}, bob={"loads": ["Steel"]},
                       pool=pool(race, *FILLER), deck_ids=[7])
    state, events = act(state, "alice", {"type": "lock", "card": STEEL_CARD, "demand": STEEL})
    assert events[-1]["race"] is True and state.deck == [7]
    with pytest.raises(IllegalMove, match="Lock demand 0"):
        act(state, "alice", {"type": "deliver", "card": STEEL_CARD, "demand": 0})
    new, events = act(state, "alice", {"type": "deliver", "card": STEEL_CARD, "demand": STEEL})
    assert events[0] == {"type": "delivered", "player": "alice", "card": STEEL_CARD, "demand": STEEL,
                         "load": "Steel", "city": "Dunmore", "payoff": 14, "freed": ["bob"]}
    assert new.player("alice").cash == 64 and new.player("alice").loads == []
    assert new.card(STEEL_CARD) is None and STEEL_CARD in new.discard
    view = GAME.view(new, None)
    assert [p["markers"] for p in view["players"]] == [3, 3]
    assert new.deck == [7]  # four unlocked cards remain: nothing drawn


def test_delivery_needs_your_own_lock_and_the_right_city():
    state = play_state(alice={"at": "H9", "loads": ["Steel"]}, pool=pool(STEEL_CARD, *FILLER))
    with pytest.raises(IllegalMove, match="Lock demand 1"):
        act(state, "alice", {"type": "deliver", "card": STEEL_CARD, "demand": STEEL})
    away = play_state(alice={"at": "C8", "loads": ["Steel"]},
                      pool=pool(pool_card(STEEL_CARD, (("alice", STEEL),)), *FILLER))
    with pytest.raises(IllegalMove, match="go there first"):
        act(away, "alice", {"type": "deliver", "card": STEEL_CARD, "demand": STEEL})


def test_delivery_refills_the_pool():
    state = play_state(alice={"at": "H9", "loads": ["Steel"]},
                       pool=pool(pool_card(STEEL_CARD, (("alice", STEEL),)), 1, 3, 4), deck_ids=[5, 7])
    new, _ = act(state, "alice", {"type": "deliver", "card": STEEL_CARD, "demand": STEEL})
    assert [c.id for c in new.pool] == [1, 3, 4, 5] and new.deck == [7]


def test_private_card_delivery():
    state = play_state(alice={"at": "H9", "loads": ["Steel"]},
                       pool=pool(pool_card(STEEL_CARD, (("alice", STEEL),), "alice"), *FILLER))
    new, _ = act(state, "alice", {"type": "deliver", "card": STEEL_CARD, "demand": STEEL})
    assert new.player("alice").cash == 64
    with pytest.raises(IllegalMove, match="privately locked by alice"):
        act(state.model_copy(update={"turn": state.turn.model_copy(update={"player": "bob"})}), "bob",
            {"type": "lock", "card": STEEL_CARD, "demand": STEEL})


def test_pool_never_grows_past_three_n():
    locked = [pool_card(c, (("bob", 0),)) for c in (1, 3)]
    state = play_state(alice={"loads": ["Coal"]}, pool=pool(*locked, COAL_CARD, 4, 5, 7), deck_ids=[9])
    new, _ = act(state, "alice", {"type": "lock", "card": COAL_CARD, "demand": COAL})
    assert len(new.public_pool) == 6 and len(new.unlocked_pool) == 3 and new.deck == [9]


def test_event_drawn_while_refilling_is_resolved_and_replaced():
    flood = event_id("flood", "Amber")
    state = play_state(alice={"loads": ["Coal"], "track": [("J7", "J8"), ("I7", "J7")]},
                       pool=pool(COAL_CARD, 1, 3, 4), deck_ids=[flood, 5, 7])
    new, events = act(state, "alice", {"type": "lock", "card": COAL_CARD, "demand": COAL})
    kinds = [e["type"] for e in events]
    assert kinds == ["locked", "flood", "card_drawn"]
    assert new.player("alice").track == [("I7", "J7")]
    assert flood in new.discard and [c.id for c in new.pool][-1] == 5


def test_derailment_loss_comes_before_any_draw_and_unlocking_may_end_the_drawing():
    derail = event_id("derailment", "Ironhill")
    state = play_state(alice={"at": "J6", "loads": ["Coal"]}, pool=pool(COAL_CARD, 1, 3, 4),
                       deck_ids=[derail, 5])
    state, events = act(state, "alice", {"type": "lock", "card": COAL_CARD, "demand": COAL})
    assert events[-1]["type"] == "derailment" and events[-1]["must_lose_load"] == ["alice"]
    assert GAME.to_act(state) == ["alice"] and state.deck == [5]
    assert GAME.view(state, None)["active_events"][-1]["pending"] == ["alice"]
    with pytest.raises(IllegalMove, match="Derailed"):
        act(state, "alice", {"type": "end_turn"})
    with pytest.raises(IllegalMove, match="no load to give up"):
        act(state, "bob", {"type": "give_up", "load": "Coal"})
    new, events = act(state, "alice", {"type": "give_up", "card": COAL_CARD})
    assert events == [{"type": "load_lost", "player": "alice", "load": "Coal", "card": COAL_CARD, "unlocked": True}]
    assert new.deck == [5] and len(new.unlocked_pool) == 4
    assert new.player("alice").loads == [] and new.player("alice").loses_next_turn


def test_derailment_loss_of_a_raced_lock_leaves_the_card_locked_and_drawing_resumes():
    derail = event_id("derailment", "Ironhill")
    raced = pool_card(COAL_CARD, (("bob", COAL),))
    state = play_state(alice={"at": "J6", "loads": ["Coal"]}, bob={"loads": ["Coal"]},
                       pool=pool(raced, 1, 3, 4), deck_ids=[derail, 7, 9])
    state, _ = act(state, "alice", {"type": "lock", "card": COAL_CARD, "demand": COAL})
    assert state.pending_losses == ["alice"]
    new, events = act(state, "alice", {"type": "give_up", "card": COAL_CARD})
    assert events[0]["unlocked"] is False and new.card(COAL_CARD).locks[0].player == "bob"
    assert {"type": "card_drawn", "card": 7} in events and new.deck == [9]


def test_released_private_cards_may_push_the_pool_past_three_n():
    derail = event_id("derailment", "Ironhill")
    alice_private = pool_card(COAL_CARD, (("alice", COAL),), "alice")
    bob_private = pool_card(OTHER_COAL_CARD, (("bob", 0),), "bob")
    bob = {"at": "J5", "loads": ["Coal", "Wine"], "train": "super"}
    state = play_state(alice={"at": "J6", "loads": ["Coal", "Cheese"]}, bob=bob,
                       pool=pool(alice_private, bob_private, pool_card(3, (("bob", 0),)), 1, 4, 7, 10),
                       deck_ids=[derail, 9])
    state, _ = act(state, "alice", {"type": "lock", "card": 1, "demand": 0})
    assert sorted(GAME.to_act(state)) == ["alice", "bob"]
    state, _ = act(state, "alice", {"type": "release", "card": COAL_CARD})
    new, events = act(state, "bob", {"type": "release", "card": OTHER_COAL_CARD})
    assert len(new.public_pool) == 7 and new.deck == [9]
    assert not any(e["type"] == "card_drawn" for e in events)


def test_keep_private_after_losing_its_load():
    derail = event_id("derailment", "Ironhill")
    private = pool_card(COAL_CARD, (("alice", COAL),), "alice")
    state = play_state(alice={"at": "J6", "loads": ["Coal", "Cheese"]}, pool=pool(private, 1, 3, 4, 5),
                       deck_ids=[derail, 7])
    state, _ = act(state, "alice", {"type": "lock", "card": 1, "demand": 0})
    new, events = act(state, "alice", {"type": "keep_private", "card": COAL_CARD})
    assert new.card(COAL_CARD).private_to == "alice" and new.player("alice").loads == ["Cheese"]
    assert events[0]["type"] == "kept_private"


def test_pitch_discards_three_random_unlocked_cards_then_locks_may_draw_more():
    state = play_state(alice={"at": "C8", "loads": ["Coal"]}, pool=pool(1, 3, 4, 5, 7, 9),
                       deck_ids=[COAL_CARD, 10, 11])
    new, events = act(state, "alice", {"type": "pitch"}, shuffles=[[4, 1, 9, 3, 5, 7]])
    assert events[0] == {"type": "pitched", "player": "alice", "cards": [4, 1, 9]}
    assert [c.id for c in new.pool] == [3, 5, 7, COAL_CARD] and new.deck == [10, 11]
    with pytest.raises(IllegalMove, match="pitched"):
        act(new, "alice", {"type": "move", "path": ["D8"]})
    locked, events = act(new, "alice", {"type": "lock", "card": COAL_CARD, "demand": COAL})
    assert [c.id for c in locked.pool][-1] == 10


def test_pitch_needs_no_locked_loads_and_a_fresh_turn():
    locked = play_state(alice={"loads": ["Coal"]}, pool=pool(pool_card(COAL_CARD, (("alice", COAL),)), 1))
    with pytest.raises(IllegalMove, match="locked load"):
        act(locked, "alice", {"type": "pitch"})
    moved = play_state(pool=pool(1, 3, 4, 5), moved=1, operated=True)
    with pytest.raises(IllegalMove, match="before anything else"):
        act(moved, "alice", {"type": "pitch"})
