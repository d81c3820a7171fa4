"""What every layer may lean on and which knows nothing of games: background tasks, the drawing workers,
the shutdown gate, shards, retries, and the garbage collector's quiet moments."""
