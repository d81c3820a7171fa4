"""Follow the Arrow below Discord: autocomplete choices, pawn-first option values, and `Host.rematch`."""

from __future__ import annotations

import pytest

from bot.play.host import UserError
from bot.presentation.frontends.follow_the_arrow import FRONTEND
from games.core import IllegalMove, ScriptedRandomness
from games.follow_the_arrow import GAME
from tests.bot.conftest import ALICE, BOB, CAROL

NO_DICE = ScriptedRandomness()
CHANNEL = "900"


def placed(black: str = "alice", red: str = "bob"):
    """Both sides placed 1 2 3 4 5: black's pawn 1 on a1 (arrows N, NE), red's pawn 5 on e6."""
    state = GAME.new_game([black, red], NO_DICE, {"black": black})
    state, _ = GAME.apply(state, black, {"type": "place", "order": [1, 2, 3, 4, 5]}, NO_DICE)
    state, _ = GAME.apply(state, red, {"type": "place", "order": [1, 2, 3, 4, 5]}, NO_DICE)
    return state


def jumpable():
    """Alice's pawn 1 on a3 (arrow E) can jump Bob's b3 to c3, then on over his c4 to c5."""
    return placed().model_copy(update={"turn": "alice", "pawns": {
        "alice": ["a3", "a2", "c2", "d2", "e2"], "bob": ["a1", "c4", "b3", "e1", "e6"]}}, deep=True)


def test_move_choices_follow_the_chosen_pawn_or_name_the_pawn_in_the_value():
    legal = GAME.legal_actions(placed(), "alice")
    chosen = FRONTEND.choices("move", "to", legal, {"pawn": 1})
    assert chosen == [("pawn 1 → a2", "a2"), ("pawn 1 → b2", "b2")]
    everyone = FRONTEND.choices("move", "to", legal, {})
    assert ("pawn 1 → a2", "1 a2") in everyone and ("pawn 5 → e2", "5 e2") in everyone
    for _, value in everyone:
        assert FRONTEND.verb_action("move", {"to": value}) in legal
    pawns = FRONTEND.choices("move", "pawn", legal, {})
    assert pawns[0] == ("pawn 1: a2, b2", "1") and [value for _, value in pawns] == ["1", "2", "3", "4", "5"]
    assert FRONTEND.choices("place", "order", legal, {}) == []


def test_jump_choices_list_longest_jumps_first_and_only_jumping_pawns():
    state = jumpable()
    legal = GAME.legal_actions(state, "alice")
    jumps = [a for a in legal if a["type"] == "jump"]
    assert jumps, "the situation has a jump"
    pawns = FRONTEND.choices("jump", "pawn", legal, {})
    assert {value for _, value in pawns} == {str(a["pawn"]) for a in jumps}
    assert FRONTEND.choices("jump", "path", legal, {"pawn": 1}) == [("pawn 1 → c3 → c5", "c3 c5"),
                                                                     ("pawn 1 → c3", "c3")]
    for _, value in FRONTEND.choices("jump", "path", legal, {}):
        pawn, *path = value.split()
        assert FRONTEND.jump_action(None, value) == {"type": "jump", "pawn": int(pawn), "path": path}
        assert FRONTEND.jump_action(int(pawn), value) in legal
    assert FRONTEND.choices("move", "to", GAME.legal_actions(state, "bob"), {}) == [], "not bob's turn"


def test_a_pawn_named_in_the_value_must_agree_with_the_pawn_option():
    assert FRONTEND.verb_action("move", {"to": "pawn 3 → c2"}) == {"type": "move", "pawn": 3, "to": "c2"}
    assert FRONTEND.verb_action("move", {"pawn": 3, "to": "3 c2"}) == {"type": "move", "pawn": 3, "to": "c2"}
    with pytest.raises(IllegalMove, match="offered for pawn 4"):
        FRONTEND.verb_action("move", {"pawn": 3, "to": "4 c2"})
    with pytest.raises(IllegalMove, match="offered for pawn 2"):
        FRONTEND.jump_action(1, "2 c4 c6")
    with pytest.raises(IllegalMove, match="Give the circle"):
        FRONTEND.verb_action("move", {"to": "3"})


def test_the_finished_board_points_to_the_rematch():
    over = placed().model_copy(update={"phase": "over", "turn": None, "winner": "alice", "points": 8})
    text = FRONTEND.describe_state(GAME.view(over, None), {"alice": "<@1>", "bob": "<@2>"})
    assert "wins **8** points" in text and "/game rematch" in text


def test_an_ai_winner_is_named_without_stray_asterisks():
    """An AI seat's name comes bold already (bot.discord.replies.mention): the line must not wrap it in bold again."""
    over = placed().model_copy(update={"phase": "over", "turn": None, "winner": "alice", "points": 8})
    text = FRONTEND.describe_state(GAME.view(over, None), {"alice": "**Parlor (AI)**", "bob": "<@2>"})
    assert "**Parlor (AI)** wins **8** points" in text and "****" not in text


async def seated(host, slug: str = "follow-the-arrow", options: dict | None = None):
    await host.open_lobby(guild_id="1", channel_id=CHANNEL, slug=slug, creator=ALICE, options=options)
    _, began = await host.join(CHANNEL, BOB)
    return began.session


async def finish(host, session, state_json: str):
    """End a session as if played out (the engine's own tests play whole games)."""
    return await host.store.update_session(session, now=host.clock(), status="finished", end_reason="played out",
                                           state=state_json, result={"winners": [], "scores": {}})


async def test_rematch_starts_the_next_game_of_the_match_with_the_same_seats(host):
    session = await seated(host, options={"black": BOB.id})
    state = placed(black=BOB.id, red=ALICE.id).model_copy(
        update={"phase": "over", "turn": None, "winner": BOB.id, "points": 8})
    await finish(host, session, state.model_dump_json())

    outcome = await host.rematch(CHANNEL, ALICE.id)
    assert outcome.began and outcome.session.id != session.id and outcome.session.status == "active"
    assert outcome.session.players == [ALICE, BOB]
    assert outcome.session.options == GAME.next_game_options(state)
    view = outcome.public_view
    assert view["match"] == {"game": 2, "placed_first": ALICE.id, "totals": {ALICE.id: 0, BOB.id: 8}}
    assert view["to_act"] == [ALICE.id] and view["players"][1]["colour"] == "black"
    assert not (outcome.session.setup_outcomes or {}).get("rolls"), "black is kept, so no colour roll"

    with pytest.raises(UserError, match="still open"):
        await host.rematch(CHANNEL, ALICE.id)



async def test_a_move_after_a_match_game_ended_points_to_the_rematch_by_command_and_by_menu_alike(host):
    """docs/players.md: "Once a game is over, a move tells you so and how to start another (`/game start`, or
    `/game rematch` in a match)": a menu left in a private reply says it as `/move` does."""
    session = await seated(host, options={"black": BOB.id})
    moving = await host.session(session.id)
    over = placed(black=BOB.id, red=ALICE.id).model_copy(
        update={"phase": "over", "turn": None, "winner": BOB.id, "points": 8})
    await finish(host, session, over.model_dump_json())
    await host.session(session.id)  # the host's own copy learns it is over (`finish` wrote to the store)
    move = {"type": "move", "pawn": 1, "to": "a2"}
    with pytest.raises(UserError) as by_command:
        await host.act_in_channel(CHANNEL, BOB.id, move)
    with pytest.raises(UserError) as by_menu:
        await host.act(session.id, BOB.id, move, expected_version=moving.version)
    assert "`/game rematch`" in by_command.value.message
    assert by_menu.value.message == by_command.value.message


async def test_rematch_refuses_strangers_and_abandoned_games_and_reseats_other_games(host):
    with pytest.raises(UserError, match="No game has been played"):
        await host.rematch(CHANNEL, ALICE.id)
    session = await seated(host, slug="john-henry")
    await host.abandon(CHANNEL, ALICE.id, can_manage=False)
    with pytest.raises(UserError, match="was abandoned"):
        await host.rematch(CHANNEL, ALICE.id)

    session = await seated(host, slug="john-henry")
    await finish(host, session, session.state)
    with pytest.raises(UserError, match="Only the players of the last John Henry game"):
        await host.rematch(CHANNEL, CAROL.id)
    again = await host.rematch(CHANNEL, BOB.id)
    assert again.began and again.session.slug == "john-henry" and again.session.id != session.id
    assert again.session.players == session.players, "a rematch keeps the seats"


async def test_a_finished_games_rematch_is_the_next_game_its_players_began_in_its_channel(host):
    """What a finished game's web pages offer to follow (`Host.rematch_after`)."""
    session = await seated(host, slug="john-henry")
    assert await host.rematch_after(session) is None, "a running game has no rematch"
    session = await finish(host, session, session.state)
    await host.session(session.id)  # the host's own copy learns it is over (`finish` wrote to the store)
    assert await host.rematch_after(session) is None, "none begun yet"
    await host.open_lobby(guild_id="1", channel_id=CHANNEL, slug="john-henry", creator=ALICE)
    assert await host.rematch_after(session) is None, "a lobby is not a game yet"
    await host.abandon(CHANNEL, ALICE.id, can_manage=False)
    rematch = await host.rematch(CHANNEL, BOB.id)
    assert (await host.rematch_after(session)).id == rematch.session.id, "the lobby closed empty is passed over"

    await finish(host, rematch.session, rematch.session.state)
    await host.session(rematch.session.id)
    await host.open_lobby(guild_id="1", channel_id=CHANNEL, slug="john-henry", creator=ALICE)
    await host.join(CHANNEL, CAROL)
    assert await host.rematch_after(await host.session(rematch.session.id)) is None, "other players: not a rematch"
