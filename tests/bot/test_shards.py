"""A guild's shard, in Python and in SQL, is Discord's (guild_id >> 22) % shard_count."""

from __future__ import annotations

import sqlite3

from hypothesis import given
from hypothesis import strategies as st

from bot.runtime.shards import Shards, shard_of

snowflakes = st.integers(min_value=0, max_value=2**63 - 1)


@given(guild_id=snowflakes, count=st.integers(min_value=1, max_value=16), data=st.data())
def test_the_sql_condition_agrees_with_python(guild_id, count, data):
    ids = tuple(data.draw(st.sets(st.integers(min_value=0, max_value=count - 1), min_size=1)))
    shards = Shards(count, ids)
    condition, params = shards.condition("guild_id")
    with sqlite3.connect(":memory:") as db:
        sql = f"SELECT {condition} FROM (SELECT ? AS guild_id)"  # the condition's marks come first
        (owned,) = db.execute(sql, (*params, str(guild_id))).fetchone()
    assert bool(owned) == shards.owns(str(guild_id)) == (shard_of(guild_id, count) in ids)


def test_a_session_without_a_guild_belongs_to_shard_zero():
    assert Shards(2, (0,)).owns(None) and not Shards(2, (1,)).owns(None)
