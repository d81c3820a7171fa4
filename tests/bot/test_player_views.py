"""A move's per-player views are worked out on first use, and are the engine's own (bot.play.player_views)."""

from __future__ import annotations

import pytest

from bot.play.player_views import PlayerViews
from bot.presentation.frontends import FRONTENDS, frontend_for
from games import get_game
from tests.bot.conftest import ALICE, BOB

CHANNEL = "5150"


class CountingGame:
    """A game whose `view` counts its calls."""

    def __init__(self) -> None:
        self.calls: list[str | None] = []

    def view(self, state, player):
        self.calls.append(player)
        return {"state": state, "player": player}


def test_no_view_is_worked_out_until_asked_for_and_each_once():
    game = CountingGame()
    views = PlayerViews(game, "s", ["a", "b", "a"])  # type: ignore[arg-type]
    assert game.calls == []
    assert list(views) == ["a", "b"] and len(views) == 2 and "b" in views and "c" not in views
    assert game.calls == [], "listing or counting the players worked out a view"
    assert views["b"] == {"state": "s", "player": "b"}
    assert views["b"] is views["b"]
    assert game.calls == ["b"]
    assert views.get("c") is None
    with pytest.raises(KeyError):
        views["c"]
    assert dict(views.items()) == {"a": {"state": "s", "player": "a"}, "b": {"state": "s", "player": "b"}}
    assert game.calls == ["b", "a"]


async def test_a_moves_views_are_each_players_own_before_and_after(host):
    """Johari Bones hides each hand from the others: each view is the engine's view for that player."""
    await host.open_lobby(guild_id="1", channel_id=CHANNEL, slug="johari-bones", creator=ALICE)
    await host.join(CHANNEL, BOB)
    began = await host.begin(CHANNEL, ALICE.id)
    game = get_game("johari-bones")
    before = host.state_of(began.session)
    assert dict(began.views_after) == {p: game.view(before, p) for p in began.session.player_ids}
    player = host.to_act(began.session)[0]
    outcome = await host.act(began.session.id, player, host.legal_actions(began.session, player)[0])
    after = host.state_of(outcome.session)
    for seat in (ALICE.id, BOB.id):
        assert outcome.views_before[seat] == game.view(before, seat)
        assert outcome.views_after[seat] == game.view(after, seat)
    assert outcome.views_after[ALICE.id] != outcome.views_after[BOB.id], "both players saw the same hand"


def test_only_games_that_hide_something_have_private_views_to_work_out():
    hiding = {slug for slug, frontend in FRONTENDS.items() if frontend.hides_anything}
    assert hiding == {"johari-bones"}
    assert not frontend_for("john-henry").hides_anything
