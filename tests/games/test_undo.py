"""Taking a move back (games.undo): which moves may be undone in every game, and records that hold undos."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import GAMES
from games.core import IllegalMove, RecordingRandomness, ScriptedRandomness, SeededRandomness
from games.dice import DiceRandomness, commitment, seed_from_int
from games.johari_bones import BONES
from games.record import GameRecord, replay_log
from games.undo import CHANCE_SEEN, NOTHING_TO_UNDO, SECRET_SEEN, STOOD_IN, UNDO_ACTION, Timeline, why_it_stands
from games.verify import verify
from tests.games.test_verify import OPTIONS, changed

PLAYERS = {"johari-bones": ["101", "202", "303"]}


def play_with_undos(slug: str, seed: str, max_entries: int = 400, players: list[str] | None = None,
                    ) -> tuple[GameRecord, dict[str, int]]:
    """A game played by a seeded chooser that tries to take back about half of the moves, as a record.

    Every undo is checked on the way: allowed exactly when the move drew no chance, showed nobody a
    new hidden item and did not end the game; the state after it equals the state before the move;
    nobody but the mover may take the move back.
    """
    game = GAMES[slug]
    players = players or PLAYERS.get(slug, ["101", "202"])
    options = OPTIONS.get(slug, {})
    chooser = random.Random(seed)
    rng = RecordingRandomness(DiceRandomness(seed, 0))
    timeline = Timeline(game, players, game.new_game(players, rng, options or None))
    moves: list[dict] = []
    counts = {"undone": 0, "refused": 0, "chance refused": 0}

    def log(player: str, action: dict, outcomes: dict, events: list[dict]) -> None:
        moves.append({"seq": len(moves) + 1, "player": player, "action": action, "outcomes": outcomes,
                      "events": events})

    while len(moves) < max_entries and game.result(timeline.state) is None:
        player = chooser.choice(game.to_act(timeline.state))
        action = chooser.choice(game.legal_actions(timeline.state, player))
        before = timeline.state
        rng = RecordingRandomness(DiceRandomness(seed, len(moves) + 1))
        log(player, action, rng.outcomes, events := timeline.step(player, action, rng))
        moves[-1]["outcomes"] = rng.outcomes
        drew = bool(rng.rolls or rng.shuffles)
        stands = why_it_stands(game, players, before, timeline.state, drew)
        for other in players:
            if other != player:
                assert timeline.undo_refusal(other) is not None, "only the mover may take a move back"
        if chooser.random() < 0.5:
            continue
        refusal = timeline.undo_refusal(player)
        assert refusal == stands, (action, events)
        if refusal is not None:
            counts["refused"] += 1
            counts["chance refused"] += drew
            if drew:
                assert refusal == CHANCE_SEEN or game.result(timeline.state) is not None
            with pytest.raises(IllegalMove):
                timeline.undo(player)
            continue
        undo_events = timeline.undo(player)
        log(player, dict(UNDO_ACTION), {"rolls": [], "shuffles": []}, undo_events)
        assert timeline.state == before, "an undo restores the state from before the move"
        assert undo_events == [{"type": "undone", "player": player, "move": len(moves) - 1,
                                "action": action["type"]}]
        counts["undone"] += 1
    result = game.result(timeline.state)
    record = {"game": slug, "game_id": 3, "players": [{"id": p, "name": f"P{p}"} for p in players],
              "options": options, "commitment": commitment(seed), "seed": seed,
              "setup": {"rolls": [], "shuffles": []}, "moves": moves,
              "end": "played out" if result else "abandoned", "result": result}
    setup = RecordingRandomness(DiceRandomness(seed, 0))
    game.new_game(players, setup, options or None)
    record["setup"] = setup.outcomes
    return GameRecord.model_validate(json.loads(json.dumps(record))), counts


@pytest.mark.parametrize("slug", sorted(GAMES))
@settings(max_examples=4, deadline=None)
@given(number=st.integers(0, 2**64))
def test_apply_then_undo_gives_the_state_before_and_records_with_undos_verify(slug, number):
    record, _ = play_with_undos(slug, seed_from_int(number))
    verdict = verify(record)
    assert verdict.ok, verdict.text
    replayed = list(replay_log(GAMES[slug], record.player_ids, record.options, record.setup.model_dump(),
                               ((m.player, m.action, m.outcomes.model_dump()) for m in record.moves)))
    assert len(replayed) == len(record.moves) + 1


@pytest.mark.parametrize("slug, undone, chance_refused", [
    ("follow-the-arrow", True, False), ("two-fat-dudes", True, True), ("john-henry", True, True),
    ("johari-bones", True, False), ("crayon-rails", True, False)])
def test_every_game_has_moves_that_may_be_undone_and_refuses_chance(slug, undone, chance_refused):
    totals = {"undone": 0, "refused": 0, "chance refused": 0}
    for number in range(6):
        _, counts = play_with_undos(slug, seed_from_int(500 + number))
        totals = {key: totals[key] + counts[key] for key in totals}
    assert (totals["undone"] > 0) == undone, totals
    if chance_refused:
        assert totals["chance refused"] > 0, totals


# -- Follow the Arrow: nothing random, nothing hidden -------------------------------------------------


def arrow_timeline() -> Timeline:
    game = GAMES["follow-the-arrow"]
    players = ["alice", "bob"]
    return Timeline(game, players, game.new_game(players, SeededRandomness(3)))


def first_action(timeline: Timeline) -> tuple[str, dict]:
    player = timeline.game.to_act(timeline.state)[0]
    return player, timeline.game.legal_actions(timeline.state, player)[0]


def test_a_player_takes_back_several_of_his_own_steps_but_not_the_others():
    timeline = arrow_timeline()
    assert timeline.undo_refusal("alice") == NOTHING_TO_UNDO
    states = [timeline.state]
    player, action = first_action(timeline)
    timeline.step(player, action, ScriptedRandomness())
    states.append(timeline.state)
    other = next(p for p in ("alice", "bob") if p != player)
    assert "only your own last move" in timeline.undo_refusal(other)
    timeline.undo(player)
    assert timeline.state == states[0]
    assert timeline.undo_refusal(player) == NOTHING_TO_UNDO


def test_once_the_other_has_acted_the_move_before_stands_even_if_he_took_his_back():
    timeline = arrow_timeline()
    first, action = first_action(timeline)
    timeline.step(first, action, ScriptedRandomness())
    while timeline.game.to_act(timeline.state) == [first]:  # placing: the first places all his pawns
        timeline.step(*first_action(timeline), ScriptedRandomness())
    second, action = first_action(timeline)
    timeline.step(second, action, ScriptedRandomness())
    timeline.undo(second)
    refusal = timeline.undo_refusal(first)
    assert refusal is not None and second in refusal
    with pytest.raises(IllegalMove):
        timeline.undo(first)


def test_a_move_the_ai_made_for_a_person_is_not_his_to_take_back_nor_his_own_before_it():
    """The AI stood in for the second placer at move 2; after it, his own moves before stand too."""
    game = GAMES["follow-the-arrow"]
    first, _ = first_action(arrow_timeline())
    second = "bob" if first == "alice" else "alice"
    timeline = Timeline(game, ["alice", "bob"], game.new_game(["alice", "bob"], SeededRandomness(3)),
                        stand_ins={second: [[2, 2]]})
    timeline.step(*first_action(timeline), ScriptedRandomness())
    timeline.step(*first_action(timeline), ScriptedRandomness())
    assert timeline.undo_refusal(second) == STOOD_IN and timeline.undoer is None
    with pytest.raises(IllegalMove, match="stood in for you"):
        timeline.undo(second)


def test_an_undo_of_the_ais_move_for_a_person_is_refused_by_the_verifier():
    for number in range(50):
        record, _ = play_with_undos("follow-the-arrow", seed_from_int(900 + number), max_entries=40)
        index = next((i for i, move in enumerate(record.moves) if move.action == UNDO_ACTION), None)
        if index is not None:
            break
    undone = index  # the undo is move index + 1; the move it took back is move index
    player = record.moves[index].player

    def edit(data: dict) -> None:
        data["stand_ins"] = {player: [[undone, undone]]}

    verdict = verify(changed(record, edit))
    assert not verdict.ok and verdict.seq == index + 1 and "stood in for you" in verdict.text


# -- Johari Bones: hidden bones ---------------------------------------------------------------------


def johari(players: list[str]) -> Timeline:
    game = GAMES["johari-bones"]
    return Timeline(game, players, game.new_game(players, ScriptedRandomness(shuffles=[list(BONES)])))


def test_a_johari_draw_stands_because_it_shows_the_drawer_a_bone():
    timeline = johari(["a1", "b2"])
    timeline.step("a1", {"type": "draw"}, ScriptedRandomness())
    assert timeline.undo_refusal("a1") == SECRET_SEEN


@pytest.mark.parametrize("players, undoable", [(["a1", "b2"], True), (["a1", "b2", "c3"], False)])
def test_an_in_out_swap_may_be_undone_only_where_nobody_sees_a_new_bone(players, undoable):
    timeline = johari(players)
    timeline.step("a1", {"type": "swap", "kind": "in-out", "with": "b2"}, ScriptedRandomness())
    assert (timeline.undo_refusal("a1") is None) == undoable


def test_an_up_swap_is_taken_back_and_the_undo_names_no_bone():
    timeline = johari(["a1", "b2", "c3"])
    before = timeline.state
    timeline.step("a1", {"type": "swap", "kind": "up", "with": "c3"}, ScriptedRandomness())
    events = timeline.undo("a1")
    assert timeline.state == before
    assert not any(bone in json.dumps(events) for bone in BONES)


def test_a_box_chosen_while_others_choose_may_be_undone_but_the_last_one_deals():
    timeline = johari(["a1", "b2"])
    while timeline.state.phase != "scoring":
        player = timeline.game.to_act(timeline.state)[0]
        timeline.step(player, {"type": "swap", "kind": "up", "with": "b2" if player == "a1" else "a1"},
                      ScriptedRandomness())
    assert timeline.undo_refusal(player) == SECRET_SEEN, "the hand's last turn reveals every bone"
    timeline.step("a1", {"type": "score", "box": "chance"}, ScriptedRandomness())
    assert timeline.undo_refusal("a1") is None
    timeline.step("b2", {"type": "score", "box": "chance"}, ScriptedRandomness(shuffles=[list(BONES)]))
    assert timeline.undo_refusal("b2") == CHANCE_SEEN


# -- tampered records -------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def arrow_record() -> GameRecord:
    for number in range(50):
        record, counts = play_with_undos("follow-the-arrow", seed_from_int(900 + number), max_entries=40)
        if counts["undone"]:
            return record
    raise AssertionError("no game with an undo")


def test_a_record_with_undos_checks_out(arrow_record):
    verdict = verify(arrow_record)
    assert verdict.ok, verdict.text


def test_an_undo_by_someone_else_is_refused_by_the_verifier(arrow_record):
    index = next(i for i, move in enumerate(arrow_record.moves) if move.action == UNDO_ACTION)
    other = next(p for p in arrow_record.player_ids if p != arrow_record.moves[index].player)

    def edit(data: dict) -> None:
        data["moves"][index]["player"] = other

    verdict = verify(changed(arrow_record, edit))
    assert not verdict.ok and verdict.seq == index + 1
    assert "the rules refuse it" in verdict.text


def test_an_undo_of_a_roll_is_refused_by_the_verifier():
    record, _ = play_with_undos("john-henry", seed_from_int(77), max_entries=6)
    first = record.moves[0]
    assert first.outcomes.rolls, "John Henry opens with a roll-off"

    def edit(data: dict) -> None:
        data["moves"] = [data["moves"][0], {"seq": 2, "player": first.player, "action": dict(UNDO_ACTION),
                                            "outcomes": {"rolls": [], "shuffles": []}, "events": []}]
        data["end"], data["result"] = "abandoned", None

    verdict = verify(changed(record, edit))
    assert not verdict.ok and verdict.seq == 2
    assert "chance once seen stays" in verdict.text
