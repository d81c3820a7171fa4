"""A finished game's story on its public page: each update of its table, stepped through with first /
previous / next / last, a slider and the ← → keys (static/history.js), each step with an address of its own
(`?step=N`).

The updates are the replay's (bot.presentation.replay, kept by bot.presentation.replays for both windows): the
public view only, so a Johari Bones step shows no bone the table did not. A step's picture is the table's own
`draw_board` at that update; its words are the move's line as `/game log` tells it (the page's log: names as the
page shows them), the table's narration then, the board in words, and the dice the move rolled.

Rulings (where nothing asked said otherwise):
- Every update is a step, in every game (Crayon Rails too, whose animated replay shows one frame a turn): a page
  is read at the reader's pace, and a turn's every step is worth seeing there. Step 0 is the table as the game
  began; a game that ended without a move of its own (abandoned, claimed) ends on one more step saying so.
- Only ended games that began have steps; a running game's page is its live table, and asking for its steps
  answers 404 with what to do.
- The step in the address counts from 0 (the game's start) to the last; an address past the end opens the last.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Mapping, Sequence

from bot.play.host import Host
from bot.presentation.frontend import joined
from bot.presentation.frontends import frontend_for
from bot.presentation.replay import Update, ending_line
from bot.presentation.replays import replayable, replays_of
from bot.presentation.words import narration, text_names
from bot.storage.store import SessionRecord
from bot.web.move_log import MoveLogs
from bot.web.page_text import page_text
from games import get_game

KEPT = 16
BEGAN = "The game began."


class NoHistory(Exception):
    """A game with no steps to show; the message says why."""


class History:
    """The step-through of ended games: their steps' words (kept per game and version) and pictures."""

    def __init__(self, host: Host, logs: MoveLogs) -> None:
        self.host = host
        self.logs = logs
        self._kept: OrderedDict[tuple[int, int], dict] = OrderedDict()

    async def steps(self, session: SessionRecord, picture_base: str) -> dict:
        """Every step of the ended game: its line, narration, board in words, dice and picture's address."""
        if why := replayable(session):
            raise NoHistory(f"{get_game(session.slug).title} #{session.id} {why}: its step-through opens once "
                            "it has ended.")
        key = (session.id, session.version)
        kept = self._kept.get(key)
        if kept is None:
            found = await replays_of(self.host).steps(session)
            moves = await self.host.moves(session)
            logged = dict(zip((move.seq for move in moves), await self.logs.lines(session), strict=True))
            kept = {"game": get_game(session.slug).title, "number": session.id,
                    "steps": await asyncio.to_thread(told, session, found, logged)}
            self._kept[key] = kept
            while len(self._kept) > KEPT:
                self._kept.popitem(last=False)
        return {**kept, "steps": [{**step, "picture": f"{picture_base}/{index}.png?v={session.version}"}
                                  for index, step in enumerate(kept["steps"])]}

    async def picture(self, session: SessionRecord, index: int) -> bytes:
        """The table's picture at step `index`."""
        if why := replayable(session):
            raise NoHistory(f"{get_game(session.slug).title} #{session.id} {why}.")
        found = await replays_of(self.host).steps(session)
        if not index < len(found):
            raise NoHistory(f"This game has steps 0 to {len(found) - 1}: step {index} is not one of them.")
        return await replays_of(self.host).picture(session, index)


def told(session: SessionRecord, found: Sequence[Update], logged: Mapping[int, str]) -> list[dict]:
    """Each update's words as the page shows them (names escaped for it). Pure: runs in a worker thread."""
    frontend = frontend_for(session.slug)
    mentions = text_names(session)
    steps = []
    for index, update in enumerate(found):
        if index == 0:
            line = BEGAN
        elif update.seq == found[index - 1].seq:  # the ending no move made (bot.presentation.replay)
            line = ending_line(session)
        else:
            line = logged.get(update.seq, f"{update.seq}.")
        steps.append({
            "seq": update.seq,
            "line": line,
            "narration": [page_text(said, update.names) for said in narration(session, update.events, mentions)],
            "text": page_text(frontend.describe_state(update.view, mentions), update.names),
            "dice": dice_words(update.dice),
        })
    return steps


def dice_words(dice: Sequence[int]) -> str:
    """The dice a move rolled, as a step tells them."""
    if not dice:
        return ""
    return f"Dice rolled: {joined([str(die) for die in dice])}."
