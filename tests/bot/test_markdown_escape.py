"""The web's copy of Discord's markdown escape (bot.presentation.markdown) escapes exactly as discord.py's."""

import random

import discord

from bot.presentation.markdown import markdown_escaped

TRICKY = ["a*b*c", "**bob**", "_x_", "> quote", ">>> all", "# h", "  - item", "[a](b)", "https://x.y/_a_ and *b*",
          "<http://a/b_c>", "a\\b", "~~s~~", "|sp|", "`c`", "line\n> q\n# h", "", "steam://run/1_2"]


def test_the_copy_escapes_as_discord_does() -> None:
    chooser = random.Random(7)
    alphabet = "ab*_~|`\\>#-[]() \n:/<>httpsx."
    samples = [*TRICKY, *("".join(chooser.choice(alphabet) for _ in range(chooser.randint(0, 30)))
                          for _ in range(3000))]
    for text in samples:
        assert markdown_escaped(text) == discord.utils.escape_markdown(text), text
