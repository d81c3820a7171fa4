"""What the web pages are sent (bot.web.pages, bot.web.move_log) and what a press from one does
(bot.web.play), built from the host alone."""

from __future__ import annotations

import base64
import json
import random
import re

import pytest

from bot.play.host import UserError
from bot.presentation.words import log_lines
from bot.web.move_log import IN_A_WORKER_FROM, MoveLogs
from bot.web.page_text import page_escaped
from bot.web.pages import Pages
from bot.web.play import press
from games import GAMES
from games.core import IllegalMove
from tests.bot.conftest import ALICE, BOB, CAROL

BONE = re.compile(r"(?<![\w-])\d-\d(?![\w-])")
POSITIONS = ("up", "down", "in", "out")
MOVES = 40
PICTURES: list[str] = []
"""The games whose steps showed a picture (a Crayon Rails build's preview) on a page."""


def bones(view: dict) -> set[str]:
    return {entry[p] for entry in view["players"] for p in POSITIONS} - {None} | ({view["drawn"]} - {None})


async def john_henry(host) -> int:
    await host.open_lobby(guild_id="1", channel_id="10", slug="john-henry", creator=ALICE)
    _, began = await host.join("10", BOB)
    return began.session.id


async def play(host, session_id: int, moves: int) -> None:
    for _ in range(moves):
        session = await host.session(session_id)
        if session.status != "active":
            return
        player = host.to_act(session)[0]
        await host.act(session_id, player, host.legal_actions(session, player)[0])


async def test_the_pages_log_grows_move_by_move_and_says_what_game_log_says(host):
    session_id = await john_henry(host)
    logs = MoveLogs(host)
    for _ in range(IN_A_WORKER_FROM + 5):
        await play(host, session_id, 1)
        session = await host.session(session_id)
        assert await logs.lines(session) == log_lines(session, await host.narrated_moves(session),
                                                         escape=page_escaped)
    late = MoveLogs(host)  # a page opened on a long game: the whole log replayed at once, in a worker
    assert await late.lines(session) == await logs.lines(session)
    assert len(await late.lines(session)) == len(await host.moves(session)) > IN_A_WORKER_FROM


async def test_a_players_page_offers_his_moves_only_and_a_spectators_nothing(host):
    session_id = await john_henry(host)
    await play(host, session_id, 2)  # the roll-off is decided: one player to act
    session = await host.session(session_id)
    pages = Pages(host)
    (actor,) = host.to_act(session)
    other = next(p for p in session.player_ids if p != actor)
    public = await pages.public(session, "/watch/x/board.png")
    assert public["board"] == f"/watch/x/board.png?v={session.version}" and "choices" not in public
    assert "<@" not in json.dumps(public), "names, not mentions"
    assert public["turn"] == f"{session.name_of(actor)}'s turn.", "a watcher's line, not the message's ping"
    mine = await pages.personal(session, actor, "/b")
    theirs = await pages.personal(session, other, "/b")
    assert [c["label"] for c in mine["choices"]] == ["Roll"] and theirs["choices"] == []
    assert mine["prompt"] == "Your turn." and theirs["prompt"] == "", "the move box asks its own question"
    assert mine["private_text"] == "" and "private_picture" not in mine, "one picture: the table's"


async def test_a_johari_page_holds_its_players_bones_and_nobody_elses(host):
    await host.open_lobby(guild_id="1", channel_id="20", slug="johari-bones", creator=ALICE)
    await host.join("20", BOB)
    await host.join("20", CAROL)
    session = (await host.begin("20", ALICE.id)).session
    pages = Pages(host)
    public = json.dumps(await pages.public(session, "/b"))
    shown = bones(host.public_view(session))
    assert set(BONE.findall(public)) <= shown
    for player in session.player_ids:
        page = json.dumps(await pages.personal(session, player, "/b"))
        own = bones(host.view_for(session, player))
        assert set(BONE.findall(page)) <= own, "a page holds only bones its player may see"
        assert own - shown, "and he sees some the others don't"
        assert own - shown <= set(BONE.findall(page))


async def test_a_johari_players_page_is_one_table_with_his_bones_and_a_prompt_for_the_bone_drawn(host):
    """Issue 42, item 4: his bones are a compact part of the table, titled once as his alone (the panel's heading,
    "only you see this", is not repeated in it), with no second picture of the board; once he has drawn, the move
    box asks "Place the 5-5 on…"; a watcher's line says whose turn it is without the ping."""
    await host.open_lobby(guild_id="1", channel_id="25", slug="johari-bones", creator=ALICE)
    await host.join("25", BOB)
    await host.join("25", CAROL)
    session = (await host.begin("25", ALICE.id)).session
    pages = Pages(host)
    (actor,) = host.to_act(session)
    page = await pages.personal(session, actor, "/b")
    assert page["private_title"] == "Your bones" and "only you see this" not in page["private_text"]
    assert page["private_text"].startswith("You: ") and "private_picture" not in page
    assert page["turn"] == f"{session.name_of(actor)}'s turn."
    assert page["prompt"] == "Your turn."
    session = (await host.act(session.id, actor, {"type": "draw"})).session
    drawn = host.view_for(session, actor)["drawn"]
    page = await pages.personal(session, actor, "/b")
    assert page["prompt"] == f"Place the {drawn} on…"
    assert page["turn"] == f"{session.name_of(actor)}'s turn. Place the bone drawn."
    for other in session.player_ids:
        if other != actor:
            theirs = await pages.personal(session, other, "/b")
            assert theirs["prompt"] == "" and f"Place the {drawn}" not in json.dumps(theirs), "his alone"


@pytest.mark.parametrize("slug", sorted(GAMES))
async def test_every_game_can_be_played_from_the_pages_choices_alone(host, slug):
    """Each move is one of the choices a player's page offers (a menu option, a button, a step's choice,
    Undo, a form with a typed amount), sent through the page's press path."""
    await host.open_lobby(guild_id="1", channel_id="30", slug=slug, creator=ALICE)
    _, began = await host.join("30", BOB)
    session = began.session if began is not None else (await host.begin("30", ALICE.id)).session
    pages, chooser, shown, forms = Pages(host), random.Random(slug), [], 0

    async def show(outcome) -> None:
        shown.append(outcome.session.version)

    for _ in range(MOVES):
        session = await host.session(session.id)
        if session.status != "active":
            break
        offers = []
        for player in session.player_ids:
            page = await pages.personal(session, player, "/b")
            offers += [(player, choice) for choice in page["choices"]]
        if not offers:
            break
        player, choice = chooser.choice(offers)
        try:
            answer = await press_from_page(host, session, player, choice, chooser, show)
        except (UserError, IllegalMove):
            assert choice["kind"] == "form", "only a typed amount may be refused (the engine judges it)"
            continue
        assert "done" in answer and answer["version"] == session.version + 1
        forms += choice["kind"] == "form"
    assert shown, f"{slug}: at least one move was made from the pages"
    undone = [move for move in await host.moves(session) if move.action.get("type") == "undo"]
    assert slug == "john-henry" or undone, "a page's Undo takes a move back (John Henry's rolls all stand)"
    assert slug != "two-fat-dudes" or forms, "a form's typed amount is sent from the page"
    assert slug != "crayon-rails" or slug in PICTURES, "a build's preview is shown on the page"


async def press_from_page(host, session, player, choice, chooser, show, depth: int = 0) -> dict:
    body = {"version": session.version, "kind": choice["kind"], "key": choice["key"]}
    if choice["kind"] == "select":
        body["tokens"] = [chooser.choice(choice["options"])["token"]]
    if choice["kind"] == "form":
        body["values"] = {field["key"]: str(chooser.randint(0, 3)) for field in choice["fields"]}
    answer = await press(host, session, player, body, show)
    if "step" in answer:
        if "picture" in answer["step"]:
            picture = answer["step"]["picture"]
            assert base64.b64decode(picture.removeprefix("data:image/png;base64,")).startswith(b"\x89PNG")
            PICTURES.append(session.slug)
        usable = answer["step"]["choices"]
        assert usable and depth < 4, f"a step offers something to choose: {answer}"
        return await press_from_page(host, session, player, chooser.choice(usable), chooser, show, depth + 1)
    return answer


async def test_a_form_answer_longer_than_its_field_is_refused_from_a_page(host):
    """Discord's form stops at the field's length (9 digits of points); a page's request is held to it too, and
    an answer too long for Python to read as a number is a refusal, not a crash."""
    await host.open_lobby(guild_id="1", channel_id="40", slug="two-fat-dudes", creator=ALICE)
    _, began = await host.join("40", BOB)
    session, view = began.session, began.public_view

    async def show(outcome) -> None:
        pass

    for _ in range(200):
        if view["phase"] == "encounter":
            break
        key = "edge.retreat" if view["phase"] == "edge" else "roll"
        await press(host, session, view["to_act"][0], {"version": session.version, "kind": "button", "key": key}, show)
        session = await host.session(session.id)
        view = host.public_view(session)
    assert view["phase"] == "encounter"
    for digits in (20, 5000):
        body = {"version": session.version, "kind": "form", "key": "offer", "values": {"points": "1" * digits}}
        with pytest.raises(IllegalMove, match=f"1 to 9 characters; that answer has {digits}"):
            await press(host, session, view["to_act"][0], body, show)
    assert (await host.session(session.id)).version == session.version


async def test_a_page_shows_the_tables_dice_line_and_no_button_it_lacks(host):
    """The dice commitment while the game runs, the seed once it is abandoned; and no headline pointing to the
    table's New game button, which a page does not have."""
    session_id = await john_henry(host)
    pages = Pages(host)
    running = await pages.public(await host.session(session_id), "/b")
    assert running["dice"].startswith("🎲 Dice commitment: ") and "`" not in running["dice"]
    abandoned = await host.abandon("10", ALICE.id, can_manage=False)
    page = await pages.public(abandoned, "/b")
    assert abandoned.dice_seed in page["dice"] and page["headline"] == ""
    assert page["turn"] == "This game was abandoned."


async def test_a_page_says_who_may_call_jump_as_the_tables_message_does(host):
    """The table's message says to the last mover "your opponent can jump: press Call Jump!"; the page's turn
    line says it too, so his page does not only say that it is the other's turn."""
    await host.open_lobby(guild_id="1", channel_id="50", slug="follow-the-arrow", creator=ALICE)
    _, began = await host.join("50", BOB)
    session, rng = began.session, random.Random(5)
    for _ in range(400):
        view = host.public_view(session)
        if view.get("jump_callable"):
            break
        player = host.to_act(session)[0]
        moves = [a for a in host.legal_actions(session, player) if a["type"] != "call_jump"]
        await host.act(session.id, player, rng.choice(moves))
        session = await host.session(session.id)
    assert view.get("jump_callable"), "the random game reached a callable jump"
    caller = session.name_of(view["last_mover"])
    mover = session.name_of(view["to_act"][0])
    pages = Pages(host)
    page = await pages.public(session, "/b")
    assert page["turn"] == f"{mover}'s turn. {caller} may call Jump!", "a watcher is told, not asked"
    own = await pages.personal(session, view["last_mover"], "/b")
    assert "Call Jump!" in [choice["label"] for choice in own["choices"]]
    assert own["prompt"].replace("**", "") == ("Your opponent can jump: press Call Jump! to make them jump, "
                                               "before they move.")
