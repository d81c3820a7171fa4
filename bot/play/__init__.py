"""Play: the host, the one authority over every game (lobby, moves, undo, seats, finishing, timers, replay).

It knows no window: neither Discord nor the web nor how a table is worded; windows ask it and render."""
