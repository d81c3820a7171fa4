"""Alt text (bot.presentation.alt_text): within Discord's limit, plain words, and Crayon Rails' essentials
in the worst case."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.discord.attachments import attachment
from bot.presentation.alt_text import (
    ALT_TEXT_MAX,
    board_alt,
    budget,
    latest,
    plain,
    private_alt,
    shorten,
)
from bot.presentation.frontends import frontend_for
from bot.presentation.frontends.crayon_components import spoken_place
from bot.presentation.render.canvas import seat_words
from bot.presentation.render.crayon_rails import majors_progress
from bot.presentation.render.johari_bones import BOX_LABELS
from bot.storage.store import Seat, SessionRecord
from games import GAMES, get_game
from games.core import SeededRandomness
from games.crayon_rails.mapdata import board
from games.crayon_rails.state import ActiveEvent, Lock, PoolCard

A, B = "1001", "1002"
LONG_A, LONG_B = "Alexandria the Great Railroader", "Bartholomew von Longname-Smythe"
"""Display names of Discord's longest (32 characters)."""


def session_of(slug: str, state, players=((A, "alice"), (B, "bob")), **more) -> SessionRecord:
    fields = {"id": 7, "guild_id": "1", "channel_id": "2", "slug": slug, "status": "active", "creator": A,
              "players": [Seat(id=p, name=name) for p, name in players], "invited": [], "options": {},
              "setup_outcomes": None, "state": state.model_dump_json(), "version": 41, "result": None,
              "end_reason": None, "created_at": 0.0, "updated_at": 0.0}
    return SessionRecord(**{**fields, **more})


def test_a_file_without_alt_text_is_refused_and_a_long_one_is_cut_at_a_word():
    with pytest.raises(ValueError, match="no alt text"):
        attachment(b"png", "board.png", description=" \n ")
    file = attachment(b"png", "board.png", description="word " * 400)
    assert ALT_TEXT_MAX - 8 < len(file.description) <= ALT_TEXT_MAX and file.description.endswith("word…")


def test_markdown_goes_and_lines_become_sentences():
    assert plain("**Your bones** (hand 2):\nYou: face up 2-3\n`/hand` shows them") == (
        "Your bones (hand 2): You: face up 2-3. /hand shows them.")


MARKED = {A: "__init__", B: "**Boss** `x`"}
"""Names with markdown marks in them, which are part of the name."""


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_a_name_is_read_as_written_though_marks_in_it_look_like_markdown(slug):
    """docs/players.md ('Names in pictures'): the alt text keeps every name as it is. Each game's words name both
    players as often with marks in their names as with plain names, and the picture's description sent says the same."""
    game = get_game(slug)
    state = game.new_game([A, B], SeededRandomness(3))
    session, view = session_of(slug, state), game.view(state, None)
    simple = board_alt(session, view, {A: "alpha", B: "bravo"})
    alt = attachment(b"png", "board.png", description=board_alt(session, view, MARKED)).description
    assert alt.count("__init__") == simple.count("alpha") > 0, alt
    assert alt.count("**Boss** `x`") == simple.count("bravo") > 0, alt


def test_a_name_is_read_as_written_in_what_happened_and_in_a_private_picture():
    game = get_game("johari-bones")
    state = game.new_game([A, B], SeededRandomness(3))
    session = session_of("johari-bones", state)
    swapped = [{"type": "swapped", "kind": "in-out", "player": A, "with": B}]
    told = board_alt(session, game.view(state, None), MARKED, swapped)
    assert "Last: __init__ swapped their face-in bone for **Boss** `x`'s face-out bone." in told, told
    own = private_alt(session, game.view(state, A), MARKED, A)
    assert "__init__'s private view" in own and "__init__ (orange circle, you): face up" in own, own
    assert "**Boss** `x` (blue square): face up" in own, own


def test_shorten_keeps_the_start_and_latest_keeps_the_end():
    text = " ".join(f"event{number}" for number in range(200))
    assert shorten(text, 100).startswith("event0 ") and len(shorten(text, 100)) <= 100
    assert latest(text, 100).endswith("event199") and latest(text, 100).startswith("…")
    assert len(latest(text, 100)) <= 100
    told = "Alice moves to Northgate. Alice picks up Coal. Alice delivers Coal for 20."
    assert latest(told, 60) == "…Alice picks up Coal. Alice delivers Coal for 20.", "whole sentences where it can"


def worst_crayon_view():
    """Two players of the longest names, each with three public locks (all his markers; one a race) and two kept cards,
    a super train full of loads, every event in force, and a pool of twelve cards."""
    game = get_game("crayon-rails")
    state = game.new_game([A, B], SeededRandomness(3))
    cities = sorted(board().cities.values(), key=lambda city: city.name)
    state.phase, state.round = "operating", 12
    ids = list(range(1, 13))
    state.pool = [PoolCard(id=card) for card in ids]
    for seat, player in enumerate(state.players):
        player.train, player.loads, player.at = "super", ["Machinery", "Chocolate", "Livestock"], cities[seat].at
        player.cash = 188
        for card in ids[seat * 5: seat * 5 + 2]:
            state.pool[card - 1].locks.append(Lock(player=player.id, demand=2))
        for card in ids[seat * 5 + 3: seat * 5 + 5]:
            state.pool[card - 1].locks.append(Lock(player=player.id, demand=1))
            state.pool[card - 1].private_to = player.id
    state.pool[10].locks = [Lock(player=A, demand=0), Lock(player=B, demand=0)]
    state.active_events = [ActiveEvent(card=50 + n, kind=kind, target=cities[n + 2].name, drawer=A)
                           for n, kind in enumerate(("flood", "strike", "snow", "derailment"))]
    return game.view(state, None), cities


def test_crayon_rails_keeps_its_essentials_within_the_limit_in_the_worst_case():
    view, cities = worst_crayon_view()
    game = get_game("crayon-rails")
    session = session_of("crayon-rails", game.new_game([A, B], SeededRandomness(3)),
                         players=((A, LONG_A), (B, LONG_B)))
    names = {A: LONG_A, B: LONG_B}
    turn = [{"type": "built", "player": A, "path": [cities[0].at, cities[1].at], "cost": 5},
            *({"type": "moved", "player": A, "path": [city.at]} for city in cities[:12]),
            {"type": "delivered", "player": A, "card": 17, "load": "Chocolate", "city": cities[-1].name,
             "payoff": 44}]
    alt = board_alt(session, view, names, turn)
    assert len(alt) <= budget("crayon-rails") < ALT_TEXT_MAX
    assert alt.startswith(f"Board of Crayon Rails (public locking) #7, update 41. {LONG_A}'s turn. Last: {LONG_A} "
                          f"delivers Chocolate to {cities[-1].name} ({cities[-1].at}) for 44 (card #17)."), \
        "whose turn it is and the latest event lead"
    for player in view["players"]:
        where = spoken_place(player["at"])
        assert f"{player['cash']} cash, majors {player['majors_joined']}/3, super train at {where}" in alt
        assert "loads Machinery, Chocolate, Livestock, locked #" in alt
    for card in (card for card in view["pool"] if card["locks"]):
        assert f"#{card['id']} " in alt, f"locked card {card['id']} is named"
    assert "Pool: 8 cards, 3 unlocked." in alt and ", derailment at" in alt, "the four kept cards are not in the pool"


def test_a_train_not_yet_placed_is_said_so():
    game = get_game("crayon-rails")
    state = game.new_game([A, B], SeededRandomness(3))
    alt = board_alt(session_of("crayon-rails", state), game.view(state, None), {A: "alice", B: "bob"})
    assert "alice (orange circle): 50 cash, majors 0/3, freight train not placed, loads none" in alt, alt
    assert "bob (blue square): 50 cash" in alt and "alice's track (solid line): none yet." in alt, alt


def test_all_four_majors_joined_read_as_the_goal_met_not_4_of_3():
    """The goal is 3 of the 4 majors (rules: Victory): a player who joined all four saw "majors 4/3". The
    table's words, its alt text and its picture (`majors_progress`) say "3/3" alike."""
    game = get_game("crayon-rails")
    state = game.new_game([A, B], SeededRandomness(3))
    view = game.view(state, None)
    view["players"][0]["majors_joined"] = 4
    view["players"][1]["majors_joined"] = 2
    names = {A: "alice", B: "bob"}
    words = frontend_for("crayon-rails").describe_state(view, names)
    alt = board_alt(session_of("crayon-rails", state), view, names)
    assert "majors joined 3/3" in words and "majors joined 2/3" in words and "4/3" not in words
    assert "alice (orange circle): 50 cash, majors 3/3," in alt and "majors 2/3" in alt and "4/3" not in alt
    assert majors_progress(view, view["players"][0]) == "3/3"


def test_johari_bones_keeps_every_players_bones_and_total_within_the_limit_at_its_longest():
    """Four 32-character names at the last hand's scoring, every score sheet nearly full, long events:
    the score sheets come last (what is cut), never a player's bones or total."""
    game, rng = get_game("johari-bones"), SeededRandomness(5)
    seats = [(str(2001 + seat), name) for seat, name in enumerate(
        (LONG_A, LONG_B, "Cassandra Wilhelmina Fitzgerald", "Dorothea Maximiliana Grunwalder"))]
    state = game.new_game([seat for seat, _ in seats], rng)
    while not (state.hand == 10 and state.phase == "scoring"):
        player = game.to_act(state)[0]
        state, _ = game.apply(state, player, game.legal_actions(state, player)[0], rng)
    view, names = game.view(state, None), dict(seats)
    swap = [{"type": "swapped", "kind": "up", "player": seats[0][0], "with": seats[1][0],
             "bones": {seats[0][0]: "1-2", seats[1][0]: "3-4"}}] * 6
    alt = board_alt(session_of("johari-bones", state, players=seats), view, names, swap)
    assert len(alt) <= ALT_TEXT_MAX
    for seat, entry in enumerate(view["players"]):
        total = sum(points or 0 for points in view["scorecard"][entry["id"]].values())
        bones = ", ".join(f"face {position} {entry[position]}" for position in ("up", "down", "in", "out"))
        assert f"{names[entry['id']]} ({seat_words(seat)}): {bones} · total {total}." in alt, names[entry["id"]]


def test_a_private_picture_describes_its_owners_view_and_the_board_only_the_public_view():
    game = get_game("johari-bones")
    state = game.new_game([A, B], SeededRandomness(5))
    session = session_of("johari-bones", state)
    names = {A: "alice", B: "bob"}
    own, public = game.view(state, A), game.view(state, None)
    mine = {entry["in"] for entry in own["players"] if entry["id"] == A}
    assert mine and all(bone and bone in private_alt(session, own, names, A) for bone in mine)
    told = board_alt(session, public, names)
    hidden = {entry[position] for entry in game.view(state, B)["players"] for position in ("in", "out", "down")}
    assert not any(bone and bone in told for bone in hidden | mine)


def johari_in_hand_two_drawn(seats):
    """A Johari game played on to the second hand, its first player holding a bone he drew (boxes filled)."""
    game, rng = get_game("johari-bones"), SeededRandomness(5)
    state = game.new_game([seat for seat, _ in seats], rng)
    while not (state.hand == 2 and state.phase == "drawn"):
        player = game.to_act(state)[0]
        legal = game.legal_actions(state, player)
        state, _ = game.apply(state, player, {"type": "draw"} if {"type": "draw"} in legal else legal[0], rng)
    return game, state


def test_a_johari_private_picture_is_described_as_it_shows_its_owner_and_the_board_no_more_than_before():
    """The private picture shows the pile, each player's turns left and total, and the score sheet, as the
    table does, with the owner's bones and the bone he drew: its alt text says all of that. The board's alt
    text, handed his view, says what it says from the public view (nothing hidden)."""
    game, state = johari_in_hand_two_drawn(((A, "alice"), (B, "bob")))
    session, names = session_of("johari-bones", state), {A: "alice", B: "bob"}
    drawer = game.to_act(state)[0]
    other = B if drawer == A else A
    own, theirs, public = game.view(state, drawer), game.view(state, other), game.view(state, None)
    alt = private_alt(session, own, names, drawer)
    assert f"Hand 2 of 10 · pile {own['pile']}." in alt and f"You drew {own['drawn']}: choose where it goes" in alt
    for seat, entry in enumerate(own["players"]):
        card = own["scorecard"][entry["id"]]
        filled = [f"{BOX_LABELS[box]} {points}" for box, points in card.items() if points is not None]
        you, turns = ", you" if entry["id"] == drawer else "", own["turns_left"][entry["id"]]
        assert f"{names[entry['id']]} ({seat_words(seat)}{you}): " in alt
        total = sum(points or 0 for points in card.values())
        assert f" · {turns} turn{'' if turns == 1 else 's'} left · total {total}." in alt
        assert filled and f"{names[entry['id']]}: {', '.join(filled)}" in alt, "his score sheet, as the picture's"
    assert len(alt) <= ALT_TEXT_MAX
    seen = {entry[position] for entry in own["players"] for position in ("up", "down", "in", "out")} | {own["drawn"]}
    hidden = {entry[position] for entry in theirs["players"] for position in ("up", "down", "in", "out")} - seen
    assert hidden and not any(bone in alt for bone in hidden - {None}), "nothing the owner may not see"
    told = board_alt(session, public, names)
    assert board_alt(session, own, names) == told, "the board says the same, whichever view it is handed"
    secret = (seen | hidden) - {entry["up"] for entry in public["players"]} - {None}
    assert secret and not any(bone in told for bone in secret)


def test_every_file_parlor_sends_is_built_by_the_one_function_that_requires_alt_text():
    root = Path(__file__).resolve().parents[2]
    building = [str(path.relative_to(root)) for folder in ("bot", "cogs") for path in (root / folder).rglob("*.py")
                if "discord.File(" in path.read_text()]
    assert building == ["bot/discord/attachments.py"]


@pytest.mark.parametrize("slug", ["john-henry", "crayon-rails"])
def test_whose_turn_it_is_is_said_once(slug):
    """Issue 42: "alice's turn … To roll: alice" said it twice; the head says it, the state no more."""
    game = get_game(slug)
    state = game.new_game([A, B], SeededRandomness(3))
    session, view = session_of(slug, state), game.view(state, None)
    alt = board_alt(session, view, {A: "alpha", B: "bravo"})
    assert "To roll:" not in alt and "To act:" not in alt, alt
    assert "turn." in alt or "to act." in alt, alt
