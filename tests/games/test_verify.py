"""The dice scheme and the verifier: whole games of every engine check out; any change is named."""

from __future__ import annotations

import copy
import hashlib
import hmac
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import GAMES
from games.core import RecordingRandomness
from games.dice import DiceRandomness, commitment, new_seed, seed_from_int, step_key
from games.record import GameRecord
from games.verify import NotARecord, action_problem, parse_record, verify

ROOT = Path(__file__).resolve().parents[2]
PLAYERS = {"johari-bones": ["101", "202", "303"]}
OPTIONS = {"crayon-rails": {"target_cash": 0, "major_cities": 0}}
"""Crayon Rails with no goal ends after its first round of play, so a whole game stays short."""


def play_record(slug: str, seed: str, game_id: int = 7, max_moves: int = 600) -> GameRecord:
    """A whole game played by a seeded chooser, its chance drawn from `seed` step by step, as a record."""
    game = GAMES[slug]
    players = PLAYERS.get(slug, ["101", "202"])
    options = OPTIONS.get(slug, {})
    chooser = random.Random(seed)
    rng = RecordingRandomness(DiceRandomness(seed, 0))
    state = game.new_game(players, rng, options or None)
    record = {"game": slug, "game_id": game_id, "players": [{"id": p, "name": f"P{p}"} for p in players],
              "options": options, "commitment": commitment(seed), "seed": seed, "setup": rng.outcomes,
              "moves": [], "end": "played out", "result": None}
    for seq in range(1, max_moves + 1):
        if game.result(state) is not None:
            break
        player = game.to_act(state)[0]
        action = chooser.choice(game.legal_actions(state, player))
        rng = RecordingRandomness(DiceRandomness(seed, seq))
        state, events = game.apply(state, player, action, rng)
        record["moves"].append({"seq": seq, "player": player, "action": action, "outcomes": rng.outcomes,
                                "events": events})
    record["result"] = game.result(state)
    assert record["result"] is not None, f"{slug} did not finish in {max_moves} moves"
    return GameRecord.model_validate(json.loads(json.dumps(record)))


@pytest.fixture(scope="module")
def records() -> dict[str, GameRecord]:
    return {slug: play_record(slug, seed_from_int(2026 + index)) for index, slug in enumerate(sorted(GAMES))}


def changed(record: GameRecord, edit) -> GameRecord:
    data = copy.deepcopy(record.model_dump())
    edit(data)
    return GameRecord.model_validate(data)


# -- the scheme ----------------------------------------------------------------------------------


def test_the_scheme_is_the_documented_one():
    """Commitment and step keys follow the module docstring, so anyone can re-implement them."""
    seed = seed_from_int(1)
    assert seed == "00" * 31 + "01"
    assert commitment(seed) == hashlib.sha256(bytes.fromhex(seed)).hexdigest()
    assert step_key(seed, 3) == hmac.new(bytes.fromhex(seed), b"step:3", hashlib.sha256).digest()
    first_block = hmac.new(step_key(seed, 3), (0).to_bytes(8, "big"), hashlib.sha256).digest()
    x = int.from_bytes(first_block[:8], "big")
    assert DiceRandomness(seed, 3).roll(6) == 1 + x % 6


def test_a_seed_fixes_every_step_and_steps_differ():
    seed = new_seed()
    assert len(seed) == 64 and seed != new_seed()
    one = [DiceRandomness(seed, seq).roll(6) for seq in range(40)]
    assert one == [DiceRandomness(seed, seq).roll(6) for seq in range(40)]
    assert len(set(one)) > 1, "each step draws its own"
    assert one != [DiceRandomness(new_seed(), seq).roll(6) for seq in range(40)]


@settings(max_examples=50, deadline=None)
@given(number=st.integers(0, 2**256 - 1), seq=st.integers(0, 10_000), sides=st.integers(1, 1000),
       items=st.lists(st.integers(), max_size=40))
def test_rolls_fit_their_die_and_shuffles_permute(number, seq, sides, items):
    rng = DiceRandomness(seed_from_int(number), seq)
    assert 1 <= rng.roll(sides) <= sides
    assert sorted(rng.shuffle(items)) == sorted(items)


def test_dice_are_fair_enough():
    rng = DiceRandomness(seed_from_int(99), 1)
    counts = [0] * 6
    for _ in range(6000):
        counts[rng.roll(6) - 1] += 1
    assert all(850 < count < 1150 for count in counts), counts


@pytest.mark.parametrize("bad", ["", "xyz", "00" * 31, "00" * 33])
def test_a_seed_is_64_hex_digits(bad):
    with pytest.raises(ValueError, match="64 hexadecimal"):
        commitment(bad)


# -- whole games -------------------------------------------------------------------------------------


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_whole_games_of_every_engine_check_out(records, slug):
    verdict = verify(records[slug])
    assert verdict.ok, verdict.text
    assert "every die and shuffle comes from the seed" in verdict.text
    winners = records[slug].result["winners"]
    assert f"won by {', '.join(f'P{w}' for w in winners)}" in verdict.text


def first_move_with(record: GameRecord, kind: str) -> int:
    return next(index for index, move in enumerate(record.moves) if getattr(move.outcomes, kind))


@pytest.mark.parametrize("slug", ["john-henry", "two-fat-dudes"])
def test_one_changed_die_is_named(records, slug):
    record = records[slug]
    index = first_move_with(record, "rolls")
    rolled = record.moves[index].outcomes.rolls[0]

    def edit(data):
        data["moves"][index]["outcomes"]["rolls"][0] = 1 if rolled != 1 else 2

    verdict = verify(changed(record, edit))
    seq = record.moves[index].seq
    assert not verdict.ok and verdict.seq == seq
    assert f"DISAGREES at move {seq} (" in verdict.text and "die 1 is recorded as" in verdict.text


@pytest.mark.parametrize("slug", ["johari-bones", "crayon-rails"])
def test_one_changed_setup_shuffle_is_named(records, slug):
    def edit(data):
        deal = data["setup"]["shuffles"][0]
        deal[0], deal[1] = deal[1], deal[0]

    verdict = verify(changed(records[slug], edit))
    assert not verdict.ok and verdict.seq == 0
    assert "DISAGREES at the setup (step 0): shuffle 1 is recorded as" in verdict.text


def test_one_changed_shuffle_in_a_move_is_named(records):
    record = records["johari-bones"]
    index = first_move_with(record, "shuffles")  # the deal of the second hand

    def edit(data):
        deal = data["moves"][index]["outcomes"]["shuffles"][0]
        deal[-1], deal[-2] = deal[-2], deal[-1]

    verdict = verify(changed(record, edit))
    seq = record.moves[index].seq
    assert not verdict.ok and verdict.seq == seq
    assert f"DISAGREES at move {seq} (" in verdict.text and "shuffle 1 is recorded as" in verdict.text


def first_choice(record: GameRecord) -> tuple[int, list[dict]]:
    """The first move where the player had another legal action, and those others."""
    game = GAMES[record.game]
    state = game.new_game(record.player_ids, DiceRandomness(record.seed, 0), record.options or None)
    for index, move in enumerate(record.moves):
        others = [a for a in game.legal_actions(state, move.player) if a != move.action]
        if others:
            return index, others
        state, _ = game.apply(state, move.player, move.action, DiceRandomness(record.seed, move.seq))
    raise AssertionError("no move had a choice")


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_one_changed_action_is_named(records, slug):
    """Another legal action at the same point, or one the rules refuse: either way the move is named."""
    record = records[slug]
    index, others = first_choice(record)
    move = record.moves[index]
    for replacement in (others[-1], {"type": "teleport"}):
        def edit(data, replacement=replacement):
            data["moves"][index]["action"] = replacement

        verdict = verify(changed(record, edit))
        assert not verdict.ok and verdict.seq == move.seq, verdict.text
        assert f"DISAGREES at move {move.seq} (P{move.player}: {replacement['type']})" in verdict.text


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_an_action_given_a_field_the_rules_do_not_read_is_refused(records, slug):
    """An engine ignores a field it does not know, or refuses it: either way the record is refused, since
    `{"type": "roll", "dice": [6, 6]}` says something other than what was played."""
    record = records[slug]
    move = record.moves[1]
    verdict = verify(changed(record, lambda data: data["moves"][1]["action"].update(dice=[6, 6])))
    assert not verdict.ok and verdict.seq == move.seq, verdict.text
    assert f"DISAGREES at move {move.seq} (P{move.player}: {move.action['type']})" in verdict.text
    assert "dice" in verdict.text


def test_every_action_the_bot_recorded_is_one_the_rules_read():
    """No genuine record is refused for its actions' fields: every golden playthrough and every older
    Crayon Rails record (its legacy `to` included) holds only fields its engine reads, as does an undo."""
    folders = (ROOT / "tests" / "games" / "playthroughs", ROOT / "tests" / "games" / "crayon_rails" / "records")
    files = sorted(path for folder in folders for path in folder.glob("*.jsonl"))
    assert len(files) >= 7
    for path in files:
        game = GAMES["crayon-rails" if path.parent.name == "records" else path.stem]
        actions = [line["action"] for line in map(json.loads, path.read_text().splitlines()) if "action" in line]
        assert actions and all(action_problem(game, action) is None for action in actions), path
    assert action_problem(GAMES["john-henry"], {"type": "undo"}) is None
    assert "the rules do not read" in action_problem(GAMES["john-henry"], {"type": "undo", "seq": 3})


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_a_seed_not_matching_the_commitment_is_refused(records, slug):
    verdict = verify(changed(records[slug], lambda data: data.update(seed=seed_from_int(1))))
    assert not verdict.ok and verdict.seq == 0
    assert "the seed does not match the commitment" in verdict.text


def test_a_changed_result_and_a_missing_move_are_named(records):
    record = records["john-henry"]
    last = record.moves[-1].seq
    loser = next(p for p in record.player_ids if p not in record.result["winners"])
    verdict = verify(changed(record, lambda data: data["result"].update(winners=[loser])))
    assert not verdict.ok and verdict.seq == last and "the rules give the result" in verdict.text
    verdict = verify(changed(record, lambda data: data["moves"].pop()))
    assert not verdict.ok and "still running" in verdict.text
    verdict = verify(changed(record, lambda data: data["moves"].pop(1)))
    assert not verdict.ok and verdict.seq == 3 and "sequence number should be 2" in verdict.text


def test_the_report_counts_one_move_in_the_singular(records):
    def abandoned_after(count: int) -> str:
        cut = changed(records["john-henry"], lambda data: data.update(moves=data["moves"][:count], end="abandoned",
                                                                        result=None))
        verdict = verify(cut)
        assert verdict.ok, verdict.text
        return verdict.text

    one, none, two = abandoned_after(1), abandoned_after(0), abandoned_after(2)
    assert "The one move replays, and every die" in one and "abandoned after 1 move," in one, one
    assert "No move was made, and every die" in none and "abandoned after 0 moves," in none, none
    assert "All 2 moves replay, and every die" in two and "abandoned after 2 moves," in two, two


def test_not_a_record_is_told_apart():
    with pytest.raises(NotARecord, match=r"^not JSON: not even text \(a picture"):
        parse_record(b"\x89PNG")
    with pytest.raises(NotARecord, match=r"^not JSON \(expecting ',' delimiter at line 2, column 1\)$"):
        parse_record('{"game": "john-henry"\n"moves": []}')
    with pytest.raises(NotARecord, match="seed"):
        parse_record(json.dumps({"game": "john-henry", "game_id": 1, "players": [], "commitment": "",
                                 "setup": {}, "moves": [], "end": "played out"}))
    with pytest.raises(NotARecord, match="no game called 'chess'"):
        parse_record(json.dumps({"game": "chess", "game_id": 1, "players": [], "commitment": "", "seed": "",
                                 "setup": {}, "moves": [], "end": "played out"}))


def test_the_command_line_checks_a_file(records, tmp_path):
    """`python -m games.verify` in a fresh interpreter that imports nothing of the bot."""
    good, bad = tmp_path / "good.json", tmp_path / "bad.json"
    good.write_text(records["two-fat-dudes"].model_dump_json())
    bad.write_text(changed(records["two-fat-dudes"], lambda data: data.update(seed=seed_from_int(5)))
                   .model_dump_json())
    probe = ("import runpy, sys; sys.argv = ['verify', sys.argv[1]]\n"
             "try:\n    runpy.run_module('games.verify', run_name='__main__')\n"
             "finally:\n    assert not any(m == 'bot' or m.startswith(('bot.', 'discord')) for m in sys.modules)")
    ok = subprocess.run([sys.executable, "-c", probe, str(good)], cwd=ROOT, capture_output=True, text=True)
    assert ok.returncode == 0, ok.stderr
    assert "OK: the record checks out." in ok.stdout and "Two Fat Dudes" in ok.stdout
    refused = subprocess.run([sys.executable, "-m", "games.verify", str(bad)], cwd=ROOT, capture_output=True,
                             text=True)
    assert refused.returncode == 1 and "the seed does not match the commitment" in refused.stdout
    missing = subprocess.run([sys.executable, "-m", "games.verify", str(tmp_path / "none.json")], cwd=ROOT,
                             capture_output=True, text=True)
    assert missing.returncode == 2 and "cannot read" in missing.stderr


# -- who played the seats (issue 21) -----------------------------------------------------------------


def test_a_record_that_kept_the_ai_seats_in_its_result_still_checks_out(records):
    """Records exported before `ai_seats` was a field carried it (and `stand_ins`) inside `result`."""
    data = json.loads(records["john-henry"].model_dump_json())
    data["result"] = {**data["result"], "ai_seats": ["202"], "stand_ins": {"101": [[3, 5]]}}
    del data["ai_seats"], data["stand_ins"]
    record = parse_record(json.dumps(data))
    assert record.ai_seats == ["202"] and record.stand_ins == {"101": [[3, 5]]}
    verdict = verify(record)
    assert verdict.ok, verdict.text
    assert "P202 is Parlor's AI." in verdict.lines and "Parlor's AI stood in for P101: moves 3–5." in verdict.lines


def test_seats_the_ai_played_must_be_seated(records):
    verdict = verify(changed(records["john-henry"], lambda data: data.update(ai_seats=["999"])))
    assert not verdict.ok and "999 is said to be played by the AI but has no seat" in verdict.text


def test_a_claim_must_give_the_turn_clocks_result(records):
    record = records["two-fat-dudes"]
    cut = changed(record, lambda data: data.update(moves=data["moves"][:3], end="timeout", result=None))
    verdict = verify(cut)
    assert not verdict.ok and "a claim here gives the result" in verdict.text
    game = GAMES["two-fat-dudes"]
    state = game.state_from_json(game.new_game(cut.player_ids, DiceRandomness(cut.seed, 0)).model_dump_json())
    for move in cut.moves:
        state, _ = game.apply(state, move.player, move.action, DiceRandomness(cut.seed, move.seq))
    (idle,) = game.to_act(state)
    winners = [p for p in cut.player_ids if p != idle]
    due = {"winners": winners, "scores": {p: int(p in winners) for p in cut.player_ids}, "idle": [idle]}
    assert verify(changed(cut, lambda data: data.update(result=due))).ok
    stood_in = changed(cut, lambda data: data.update(result=due, stand_ins={idle: [[1, -1]]}))
    assert "waited on nobody who could be idle" in verify(stood_in).text, "the AI never idles"
