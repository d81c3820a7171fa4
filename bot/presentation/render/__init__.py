"""Board pictures drawn with Pillow, one module per game, from views only."""
