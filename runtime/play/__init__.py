"""Tools built on the engine: agents, self-play, simulation runs, command logs and statistics."""
