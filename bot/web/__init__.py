"""The table in a browser: a small aiohttp server inside the bot process (off unless WEB_PORT is set).

- `links`: the signed addresses: a game's public page, and each player's personal, expiring, revocable link.
- `feed`: tells open pages that a game changed: at once for moves made in this process, and by a cheap
  poll of the store for moves made by other processes (several shard processes on one PostgreSQL).
- `pages`: what a page shows, built from views only: the public view for everyone, a player's own view
  for his personal page alone.
- `play`: a press on a player's page, through the same checks and host path as a Discord button.
- `server`: the routes, the live stream (server-sent events) and the start/stop with the bot.
"""
