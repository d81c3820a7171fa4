"""The table as a Discord Activity: Parlor's web table inside Discord's own window (off unless configured).

- `identity`: Discord's OAuth2 for the Activity (the SDK's code exchanged with the client secret, the user from
  `/users/@me`, the instance's channel and users), and the signed pass that binds a page to one user and channel.
- `server`: the routes, mounted on the web server's app (bot.web.server): the page with Discord's Embedded App
  SDK (shipped in `static/`, version and licences in `static/LICENSES.txt`), the sign-in, and the channel's table,
  built, streamed and played exactly as the web page's.

It imports nothing of bot.discord: the Play in Discord button and `/game activity` live in the Discord window.
"""
