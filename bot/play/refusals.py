"""What the host refuses, in the words a user reads: `UserError` and the sentences more than one refusal shares."""

from __future__ import annotations

from bot.storage.store import SessionRecord
from games import get_game

STALE_BUTTON = ("That button belongs to an earlier turn: use the latest message's buttons "
                "or the slash commands.")
IN_FLIGHT = ("Your move just before this command was still being made, so this one did nothing: look at the "
             "table, then send it again if you meant another move.")
ELSEWHERE = ("That belongs to a game in another channel, so it does nothing here: use the buttons of "
             "this channel's game, or the slash commands.")
ABANDON_WHO = "(Its players, or members with Manage Channels, may `/game abandon` it.)"
"""Who may end an open game early: said to anyone told a game stands in his way, who may not be one of them."""
SEATS_SAVED = "the seats left are saved for the invited players"
NO_GAME_YET = "No game has been played in this channel yet. Start one with `/game start`."
AT_THE_SAME_MOMENT = "Someone else moved at the same moment. Look at the table and try again."


class UserError(Exception):
    """A refusal a user caused; the message says what to do instead."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def not_begun(session: SessionRecord, player: str | None = None) -> str:
    """What a lobby waits for, for anyone who tries to play in it: only its creator begins it early.

    An invited player is told to join, never to `/game begin` (issue 21): a lobby that seats as many as
    the game takes begins by itself, and only the one who opened it may begin it before. A player who has
    joined is not told to join again: he is told who begins it, himself when he may."""
    game = get_game(session.slug)
    seated = player in session.player_ids
    join = "you have joined" if seated else "press **Join** (or `/game join`)"
    if game.min_players == game.max_players:
        return f"{join}; it begins by itself once {game.max_players} have joined."
    if seated and (player == session.creator or session.creator not in session.player_ids):
        starter = "you begin it with **Begin** (or `/game begin`)"
    elif session.creator in session.player_ids:
        starter = f"{session.name_of(session.creator)} begins it with **Begin**"
    else:
        starter = "a player begins it with **Begin**"
    return (f"{join}; {starter} once {game.min_players} have joined, and it begins by itself once "
            f"{game.max_players} have.")


def require_seat_player(session: SessionRecord, player: str, by_ai: bool) -> None:
    """A seat the AI plays takes the AI's moves only; a person's seat only his own."""
    seat = next((seat for seat in session.players if seat.id == player), None)
    if seat is None:
        return  # the engine refuses anyone not seated
    if by_ai and not (seat.ai or seat.stand_in):
        raise UserError(f"{seat.name} plays this seat again.")
    if seat.stand_in and not by_ai:
        raise UserError("The AI plays for you since your turn clock ran out: `/game return` takes your "
                        "seat back, then make your move.")
